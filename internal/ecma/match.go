package ecma

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Regexp is a compiled pattern. It is safe for concurrent use.
type Regexp struct {
	src      string
	re2      *regexp.Regexp // the translation, for a regular pattern
	root     *node          // else matched by backtracking
	nodes    []*node        // root and the nodes under it, by id
	ncap     int
	anchored bool // root begins with ^ in every alternative
}

// Compile compiles a pattern as `new RegExp(src, "u")` would, or returns
// a [*SyntaxError].
func Compile(src string) (*Regexp, error) {
	root, ncap, err := parse(src)
	if err != nil {
		return nil, err
	}
	re := &Regexp{src: src, root: root, nodes: number(root), ncap: ncap, anchored: anchored(root)}
	if regular(root) {
		re.re2 = compileRE2(root)
	}
	return re, nil
}

// compileRE2 translates a regular pattern to Go's regexp, or returns nil
// when Go's regexp refuses it (a count above 1,000, say): it is matched
// by backtracking then.
func compileRE2(root *node) *regexp.Regexp {
	var b strings.Builder
	translate(&b, root)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil
	}
	return re
}

func (re *Regexp) String() string { return re.src }

// ErrBudget is returned by Match when the budget is spent.
var ErrBudget = errors.New("the budget of backtracking steps is spent")

// Match reports whether re matches somewhere in s, spending steps from
// *budget, and stops with [ErrBudget] when they run out: a backtracking
// match takes a step for each node it tries and each group it closes
// (and one per 16 bytes a backreference compares, per 16 captures a
// repetition resets, and 8 per unit of depth past the most it held); past
// [MaxDepth] it stops with [ErrDepth]. *budget is what is left: below
// zero after ErrBudget. A regular pattern costs nothing.
func (re *Regexp) Match(s string, budget *int64) (bool, error) {
	if re.re2 != nil {
		return re.re2.MatchString(s), nil
	}
	caps, err := re.backtrack(s, budget)
	return caps != nil, err
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
