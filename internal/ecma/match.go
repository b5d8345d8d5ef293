package ecma

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Regexp is a compiled pattern. It is safe for concurrent use.
type Regexp struct {
	src  string
	re2  *regexp.Regexp // the translation, for a regular pattern
	root *node          // else matched by backtracking
	ncap int
}

// Compile compiles a pattern as `new RegExp(src, "u")` would, or returns
// a [*SyntaxError].
func Compile(src string) (*Regexp, error) {
	root, ncap, err := parse(src)
	if err != nil {
		return nil, err
	}
	re := &Regexp{src: src, root: root, ncap: ncap}
	if regular(root) {
		var b strings.Builder
		translate(&b, root)
		if r, err := regexp.Compile(b.String()); err == nil {
			re.re2 = r
		}
	}
	return re, nil
}

func (re *Regexp) String() string { return re.src }

// ErrBudget is returned by Match when the budget is spent.
var ErrBudget = errors.New("the budget of backtracking steps is spent")

// Match reports whether re matches somewhere in s. A backtracking match
// takes one step from *budget for each node it tries; when none is left
// it stops with [ErrBudget]. A regular pattern costs nothing.
func (re *Regexp) Match(s string, budget *int64) (bool, error) {
	if re.re2 != nil {
		return re.re2.MatchString(s), nil
	}
	caps, err := re.backtrack(s, budget)
	return caps != nil, err
}

// backtrack matches s by backtracking, whatever the pattern: it returns
// the first match's captures, as ECMA-262's RegExpBuiltinExec finds them
// (pairs of start and end in characters of s, -1 for undefined; the
// whole match first), or nil when there is none.
func (re *Regexp) backtrack(s string, budget *int64) ([]int, error) {
	// Each byte of s that is not UTF-8 is a U+FFFD, as Go's regexp reads it.
	// The matcher counts its own steps and gives back what is left, so
	// that budget, often a field of the caller's, stays where it is.
	m := &matcher{in: []rune(s), caps: make([]int, 2*(re.ncap+1)), left: *budget}
	defer func() { *budget = m.left }()
	last := len(m.in)
	if anchored(re.root) {
		last = 0 // ^ matches only at the start
	}
	for start := 0; start <= last; start++ {
		for i := range m.caps {
			m.caps[i] = -1
		}
		if m.match(re.root, start, false, func(end int) bool {
			m.caps[0], m.caps[1] = start, end
			return true
		}) {
			return m.caps, nil
		}
		if m.spent {
			return nil, fmt.Errorf("%w", ErrBudget)
		}
	}
	return nil, nil
}

// anchored reports whether every match of n begins with ^.
func anchored(n *node) bool {
	switch n.kind {
	case kBOL:
		return true
	case kSeq, kGroup:
		return len(n.subs) > 0 && anchored(n.subs[0])
	case kAlt:
		for _, s := range n.subs {
			if !anchored(s) {
				return false
			}
		}
		return true
	}
	return false
}

// regular reports whether n has no lookaround and no backreference.
func regular(n *node) bool {
	if n.kind == kLook || n.kind == kBackref {
		return false
	}
	for _, s := range n.subs {
		if !regular(s) {
			return false
		}
	}
	return true
}

// translate writes n in Go's regexp syntax with the same meaning.
func translate(b *strings.Builder, n *node) {
	switch n.kind {
	case kSet:
		writeSet(b, n.set)
	case kSeq, kGroup:
		b.WriteString("(?:")
		for _, s := range n.subs {
			translate(b, s)
		}
		b.WriteString(")")
	case kAlt:
		b.WriteString("(?:")
		for i, s := range n.subs {
			if i > 0 {
				b.WriteString("|")
			}
			translate(b, s)
		}
		b.WriteString(")")
	case kRepeat:
		b.WriteString("(?:")
		translate(b, n.subs[0])
		if n.max < 0 {
			fmt.Fprintf(b, "){%d,}", n.min)
		} else {
			fmt.Fprintf(b, "){%d,%d}", n.min, n.max)
		}
	case kBOL:
		b.WriteString(`\A`)
	case kEOL:
		b.WriteString(`\z`)
	case kWordB:
		b.WriteString(`\b`)
	case kNotWordB:
		b.WriteString(`\B`)
	}
}

func writeSet(b *strings.Builder, s ranges) {
	if len(s) == 0 {
		b.WriteString(`[^\x00-\x{10FFFF}]`)
		return
	}
	b.WriteString("[")
	for _, r := range s {
		fmt.Fprintf(b, `\x{%X}`, r.lo)
		if r.hi != r.lo {
			fmt.Fprintf(b, `-\x{%X}`, r.hi)
		}
	}
	b.WriteString("]")
}

type matcher struct {
	in    []rune
	caps  []int
	left  int64 // steps
	spent bool
}

func (m *matcher) step() bool {
	if m.spent {
		return false
	}
	m.left--
	if m.left < 0 {
		m.spent = true
		return false
	}
	return true
}

func isWord(in []rune, i int) bool {
	return i >= 0 && i < len(in) && wordSet.has(in[i])
}

// match reports whether n matches at i with k accepting where it ends.
// With back it matches backwards, as in a lookbehind (ECMA-262's
// direction -1): it ends at i, and k gets where it begins.
func (m *matcher) match(n *node, i int, back bool, k func(int) bool) bool {
	if !m.step() {
		return false
	}
	switch n.kind {
	case kSet:
		if back {
			return i > 0 && n.set.has(m.in[i-1]) && k(i-1)
		}
		return i < len(m.in) && n.set.has(m.in[i]) && k(i+1)
	case kSeq:
		return m.seq(n.subs, i, back, k)
	case kAlt:
		for _, s := range n.subs {
			if m.match(s, i, back, k) {
				return true
			}
			if m.spent {
				return false
			}
		}
		return false
	case kGroup:
		lo, hi := m.caps[2*n.cap], m.caps[2*n.cap+1]
		if m.match(n.subs[0], i, back, func(j int) bool {
			plo, phi := m.caps[2*n.cap], m.caps[2*n.cap+1]
			if back {
				m.caps[2*n.cap], m.caps[2*n.cap+1] = j, i
			} else {
				m.caps[2*n.cap], m.caps[2*n.cap+1] = i, j
			}
			if k(j) {
				return true
			}
			m.caps[2*n.cap], m.caps[2*n.cap+1] = plo, phi
			return false
		}) {
			return true
		}
		m.caps[2*n.cap], m.caps[2*n.cap+1] = lo, hi
		return false
	case kRepeat:
		return m.repeat(n, 0, i, -1, back, k)
	case kBOL:
		return i == 0 && k(i)
	case kEOL:
		return i == len(m.in) && k(i)
	case kWordB:
		return isWord(m.in, i-1) != isWord(m.in, i) && k(i)
	case kNotWordB:
		return isWord(m.in, i-1) == isWord(m.in, i) && k(i)
	case kLook:
		// A lookaround is atomic: its first match stands, with the
		// captures it made (none for a negative one).
		saved := append([]int(nil), m.caps...)
		ok := m.match(n.subs[0], i, n.behind, func(int) bool { return true })
		if m.spent {
			return false
		}
		if ok == n.negate {
			copy(m.caps, saved)
			return false
		}
		if n.negate {
			copy(m.caps, saved)
		}
		if k(i) {
			return true
		}
		copy(m.caps, saved)
		return false
	case kBackref:
		lo, hi := m.caps[2*n.cap], m.caps[2*n.cap+1]
		if lo < 0 || hi < 0 {
			return k(i)
		}
		size := hi - lo
		from := i
		if back {
			from = i - size
		}
		if from < 0 || from+size > len(m.in) {
			return false
		}
		for d := range size {
			if m.in[from+d] != m.in[lo+d] {
				return false
			}
		}
		if back {
			return k(from)
		}
		return k(i + size)
	}
	return false
}

// seq matches subs in order, or backwards from the last.
func (m *matcher) seq(subs []*node, i int, back bool, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(i)
	}
	if back {
		last := len(subs) - 1
		return m.match(subs[last], i, back, func(j int) bool { return m.seq(subs[:last], j, back, k) })
	}
	return m.match(subs[0], i, back, func(j int) bool { return m.seq(subs[1:], j, back, k) })
}

// repeat matches n.subs[0] count times so far, the last ending at i
// (prev: where it began, -1 before the first), then more or k.
func (m *matcher) repeat(n *node, count, i, prev int, back bool, k func(int) bool) bool {
	if !m.step() {
		return false
	}
	// ECMA-262 RepeatMatcher: an iteration past min that matched empty
	// fails.
	if prev >= 0 && count > n.min && prev == i {
		return false
	}
	more := func() bool {
		if n.max >= 0 && count >= n.max {
			return false
		}
		// The captures inside the atom are undefined at the start of each
		// iteration (RepeatMatcher, step 4), and back as they were if it
		// fails.
		var saved []int
		if n.capLo <= n.capHi {
			saved = append(saved, m.caps[2*n.capLo:2*n.capHi+2]...)
			for c := 2 * n.capLo; c < 2*n.capHi+2; c++ {
				m.caps[c] = -1
			}
		}
		if m.match(n.subs[0], i, back, func(j int) bool { return m.repeat(n, count+1, j, i, back, k) }) {
			return true
		}
		if saved != nil {
			copy(m.caps[2*n.capLo:], saved)
		}
		return false
	}
	if count < n.min {
		return more()
	}
	if n.greedy {
		return more() || !m.spent && k(i)
	}
	return k(i) || !m.spent && more()
}
