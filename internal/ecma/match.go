package ecma

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
)

// Regexp is a compiled pattern. It is safe for concurrent use.
type Regexp struct {
	src      string
	re2      *regexp.Regexp // the translation, for a regular pattern
	insts    int            // the size of re2's program, at most
	root     *node          // else matched by backtracking
	nodes    []*node        // root and the nodes under it, by id
	ncap     int
	anchored bool // root begins with ^ in every alternative
}

// Compile compiles a pattern as `new RegExp(src, "u")` would, or returns
// a [*SyntaxError].
func Compile(src string) (*Regexp, error) {
	root, nodes, ncap, err := parse(src)
	if err != nil {
		return nil, err
	}
	re := &Regexp{src: src, root: root, nodes: nodes, ncap: ncap, anchored: anchored(root)}
	if regular(root) {
		re.re2, re.insts = compileRE2(root)
	}
	return re, nil
}

// compileRE2 translates a regular pattern to Go's regexp, and returns it
// with the size of its program (progSize), or nil when Go's regexp
// refuses it (a count above 1,000, say): it is matched by backtracking
// then.
func compileRE2(root *node) (*regexp.Regexp, int) {
	var b strings.Builder
	translate(&b, root)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, 0
	}
	return re, progSize(root) + 2 // and Fail and Match
}

// progSize is how many instructions Go's regexp makes of n's translation
// at most (regexp/syntax's Simplify and Compile; its parser may merge
// some, never add): what one byte of input costs Go's regexp at most, in
// its time per instruction. TestProgSize holds it to Go's count.
func progSize(n *node) int {
	sum := 0
	for _, s := range n.subs {
		sum = satAdd(sum, progSize(s))
	}
	switch n.kind {
	case kSeq, kGroup:
		return max(sum, 1) // an empty one is a Nop
	case kAlt:
		for _, s := range n.subs {
			if !oneCharacter(s) {
				return satAdd(sum, len(n.subs)-1)
			}
		}
		return 1 // a|b|[cd]: Go's parser makes it one class
	case kRepeat:
		body := sum
		switch {
		case n.max == 0:
			return 1 // x{0}: a Nop
		case n.max < 0:
			// x*, x+: the body and two Alts at most; x{n,}: n bodies
			// and an Alt.
			return satAdd(satMul(max(n.min, 1), body), 2)
		default:
			// x{n,m}: n bodies, then m-n optional ones, each with an
			// Alt.
			return satAdd(satAdd(satMul(n.min, body), satMul(n.max-n.min, satAdd(body, 1))), 1)
		}
	}
	return 1 // a character, or an assertion
}

// oneCharacter reports whether n is a set, maybe inside groups.
func oneCharacter(n *node) bool {
	for (n.kind == kSeq || n.kind == kGroup) && len(n.subs) == 1 {
		n = n.subs[0]
	}
	return n.kind == kSet
}

// satAdd and satMul add and multiply, up to a size no program reaches.
func satAdd(a, b int) int { return min(a+b, 1<<40) }
func satMul(a, b int) int {
	if a != 0 && b > (1<<40)/a {
		return 1 << 40
	}
	return min(a*b, 1<<40)
}

func (re *Regexp) String() string { return re.src }

// ErrBudget is returned by Match when the budget is spent, or would be by
// the match asked for.
var ErrBudget = errors.New("the budget of pattern steps is spent")

// Match reports whether re matches somewhere in s, spending steps from
// *budget, and stops with [ErrBudget] when they run out. A backtracking
// match takes a step for each node it tries and each group it closes
// (and one per 16 bytes a backreference compares, per 16 captures a
// repetition resets, and 8 per unit of depth past the most it held); past
// [MaxDepth] it stops with [ErrDepth]. A regular match, by Go's regexp,
// takes time in proportion to len(s) times the size of its program (RE2's
// bound): it costs a step per instruction per byte of s, and one more,
// paid before it runs, and is refused when more than is left. Either way
// *budget is what is left: below zero after ErrBudget.
//
// A step costs about the same time in either engine: up to 25 ns, 100 on
// a loaded machine (BenchmarkStepCost; docs/performance.md, "Bounded on
// every input: patterns").
func (re *Regexp) Match(s string, budget *int64) (bool, error) {
	if re.re2 != nil {
		if cost := re.regularCost(len(s)); cost <= *budget {
			*budget -= cost
			return re.re2.MatchString(s), nil
		}
		*budget = -1
		return false, fmt.Errorf("%w", ErrBudget)
	}
	caps, err := re.backtrack(s, budget)
	return caps != nil, err
}

// regularCost is what matching n bytes with re.re2 costs, in steps: each
// instruction of its program once per byte and once at the end (Go's
// regexp runs them all, in the worst case, at each byte), and a step for
// the call.
func (re *Regexp) regularCost(n int) int64 {
	if per := int64(re.insts); per > 0 && int64(n)+1 > (math.MaxInt64-1)/per {
		return math.MaxInt64
	}
	return 1 + (int64(n)+1)*int64(re.insts)
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
