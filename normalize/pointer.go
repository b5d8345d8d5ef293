package normalize

import (
	"iter"
	"strconv"
	"strings"
)

// Pointer is a JSON Pointer (RFC 6901) into a tool's arguments: where a
// [Repair] was made. The zero Pointer is the arguments as a whole, "".
//
// A Pointer is a path of steps, each linked to the one above it, and the
// repairs of one call share the steps their paths have in common: a key
// is copied once however many repairs lie below it, and the text of a
// pointer is spelt out only when it is read ([Pointer.String]). So a
// report costs memory linear in the arguments, where one string per
// repair would cost the length of the path for each: a key of 100,000
// bytes above 40,000 repaired strings would be 4 GB of pointers.
//
// Pointers are immutable and safe for concurrent use. They do not compare
// with ==, for the same pointer may be made of different steps: Equal
// compares them (and github.com/google/go-cmp uses it).
type Pointer struct {
	_    [0]func() // no ==: two equal pointers need not share their steps
	last *pathStep
	// elem is 1 + the index of an array element below last, or 0: the
	// pointers to the elements of an array need no step each.
	elem int
}

// end returns p's last step, made when p ends in an element.
func (p Pointer) end() *pathStep {
	if p.elem > 0 {
		return newPathStep(p.last, "", p.elem-1)
	}
	return p.last
}

// pathStep is the last step of a Pointer: a reference token (a member's
// key, unescaped) or an array index, below the step up.
type pathStep struct {
	up    *pathStep
	tok   string // the key, when index < 0
	index int    // the element's index, or -1 for a member
	n     int    // the length of the pointer's text up to this step
}

// newPathStep returns the step of the token tok, or of the element index
// when index >= 0, below up.
func newPathStep(up *pathStep, tok string, index int) *pathStep {
	s := &pathStep{up: up, tok: tok, index: index}
	if up != nil {
		s.n = up.n
	}
	if index >= 0 {
		s.n += 1 + digits(index)
	} else {
		s.n += 1 + len(tok) + strings.Count(tok, "~") + strings.Count(tok, "/")
	}
	return s
}

func digits(i int) int {
	n := 1
	for ; i >= 10; i /= 10 {
		n++
	}
	return n
}

// AppendToken returns the pointer to the child tok of the value p points
// to: a member's key, or an array index in decimal, unescaped ("a/b" is
// the token written "a~1b"). p is unchanged.
func (p Pointer) AppendToken(tok string) Pointer {
	return Pointer{last: newPathStep(p.end(), tok, -1)}
}

// String returns the pointer's text: "" for the arguments as a whole, else
// each token after a '/', with '~' written "~0" and '/' written "~1". It
// builds the text anew at each call, in time linear in its length.
func (p Pointer) String() string {
	if p.last == nil && p.elem == 0 {
		return ""
	}
	// The steps from the top; most pointers are a few steps deep.
	var buf [16]*pathStep
	steps := buf[:0]
	for s := p.last; s != nil; s = s.up {
		steps = append(steps, s)
	}
	var b strings.Builder
	var num [20]byte
	if p.last != nil {
		b.Grow(p.last.n)
	}
	if p.elem > 0 {
		b.Grow(1 + digits(p.elem-1))
	}
	for k := len(steps) - 1; k >= 0; k-- {
		s := steps[k]
		b.WriteByte('/')
		if s.index >= 0 {
			b.Write(strconv.AppendInt(num[:0], int64(s.index), 10))
			continue
		}
		tok := s.tok
		for {
			i := strings.IndexAny(tok, "~/")
			if i < 0 {
				b.WriteString(tok)
				break
			}
			b.WriteString(tok[:i])
			if tok[i] == '~' {
				b.WriteString("~0")
			} else {
				b.WriteString("~1")
			}
			tok = tok[i+1:]
		}
	}
	if p.elem > 0 {
		b.WriteByte('/')
		b.Write(strconv.AppendInt(num[:0], int64(p.elem-1), 10))
	}
	return b.String()
}

// Equal reports whether p and q are the same pointer.
func (p Pointer) Equal(q Pointer) bool {
	if p.last == q.last && p.elem == q.elem {
		return true
	}
	return p.String() == q.String()
}

// MarshalText returns the pointer's text, as String does, so that it is
// written as a string in JSON and in structured logs.
func (p Pointer) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// Tokens yields the pointer's reference tokens from the top, unescaped:
// "a/b" and then "0" for the pointer "/a~1b/0".
func (p Pointer) Tokens() iter.Seq[string] {
	return func(yield func(string) bool) {
		var steps []*pathStep
		for s := p.end(); s != nil; s = s.up {
			steps = append(steps, s)
		}
		for k := len(steps) - 1; k >= 0; k-- {
			tok := steps[k].tok
			if steps[k].index >= 0 {
				tok = strconv.Itoa(steps[k].index)
			}
			if !yield(tok) {
				return
			}
		}
	}
}
