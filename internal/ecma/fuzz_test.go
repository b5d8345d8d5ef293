package ecma

import (
	"errors"
	"strings"
	"testing"
)

// FuzzPattern: Compile never panics; a match never panics nor spends more
// than its budget (it stops with ErrBudget instead), and where a pattern
// is translated to Go's regexp, the backtracking matcher agrees with it
// (and progSize is at least the size of Go's program), as it does with the
// matcher before issue 34 (refBacktrack).
func FuzzPattern(f *testing.F) {
	for _, c := range cases {
		in := ""
		if len(c.match) > 0 {
			in = c.match[0]
		}
		f.Add(c.pattern, in)
	}
	f.Add(`^(?=a)(a+)+$`, "aaaaaaaaaaaaaaaaaaaaaaa!")
	f.Add(`(?<=(a+)\1)b`, "aaaab")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		re, err := Compile(pattern)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Compile(%q): %v is no *SyntaxError", pattern, err)
			}
			return
		}
		const budget = 100_000
		left := int64(budget)
		caps, err := re.backtrack(s, &left)
		if err != nil {
			if !(errors.Is(err, ErrBudget) && left < 0 || errors.Is(err, ErrDepth) && left >= 0) {
				t.Fatalf("/%s/u on %q: %v with %d steps left", pattern, s, err, left)
			}
			return
		}
		if left < 0 {
			t.Fatalf("/%s/u on %q: %d steps over the budget, and no ErrBudget", pattern, s, -left)
		}
		if caps != nil && (caps[0] < 0 || caps[0] > caps[1] || caps[1] > len(s)) {
			t.Fatalf("/%s/u on %q: match %v", pattern, s, caps)
		}
		if re.re2 != nil {
			if got := re.re2.MatchString(s); got != (caps != nil) {
				t.Fatalf("/%s/u on %q: translation %q says %v, backtracking %v", pattern, s, re.re2, got, caps != nil)
			}
			if insts := goProgSize(t, re.re2.String()); re.insts < insts {
				t.Fatalf("/%s/u: progSize %d, Go's program has %d instructions", pattern, re.insts, insts)
			}
		}
		ref := int64(budget)
		if want, err := refBacktrack(re, s, &ref); err == nil && describeRunes(s, want) != describe(s, caps) {
			t.Fatalf("/%s/u on %q: %s; before issue 34, %s", pattern, s, describe(s, caps), describeRunes(s, want))
		}
	})
}

// FuzzMatchLong matches patterns nested in quantifiers on long keys (up
// to 4 MB, a unit repeated 2^(size%23) times), with normalize's budget of
// 10,000,000 steps per call: no panic, no stack overflow; every match
// ends with a result (within the budget) or with ErrBudget (the steps of
// the work it refused to do taken: a regular match is refused before it
// runs) or ErrDepth (past MaxDepth); and the matcher never holds more
// than MaxDepth, plus what one step pushes.
func FuzzMatchLong(f *testing.F) {
	for _, h := range hostile {
		f.Add(h.pattern, "a", uint8(20), uint8(0), uint8(0))
	}
	f.Add(`(?:a|b)`, "ab", uint8(17), uint8(3), uint8(0))
	f.Add(`(a)\1`, "aa", uint8(16), uint8(2), uint8(8))
	f.Add(`(?<=a)a`, "a", uint8(21), uint8(5), uint8(7))
	f.Add(`[a-z]`, "x", uint8(22), uint8(2), uint8(5))
	f.Fuzz(func(t *testing.T, atom, unit string, size, nest, quant uint8) {
		// The pattern: atom, inside nest%24 groups each with a quantifier
		// (one of a few), after a lookahead that makes it backtrack when
		// nest is odd.
		quants := []string{"*", "+", "?", "*?", "{2,}", "{1000}", "{0,3}", "+?", "{1,}"}
		q := quants[int(quant)%len(quants)]
		var b strings.Builder
		if nest%2 == 1 {
			b.WriteString("(?=.)")
		}
		depth := int(nest) % 24
		for range depth {
			b.WriteString("(")
		}
		b.WriteString(atom)
		for range depth {
			b.WriteString(")" + q)
		}
		pattern := b.String()
		re, err := Compile(pattern)
		if err != nil {
			return
		}
		if unit == "" {
			unit = "a"
		}
		s := strings.Repeat(unit, min(1<<(size%23), (4<<20)/len(unit)))
		const budget = 10_000_000
		left := int64(budget)
		if re.re2 != nil {
			ok, err := re.Match(s, &left)
			switch {
			case err != nil && (!errors.Is(err, ErrBudget) || left >= 0 || re.regularCost(len(s)) <= budget):
				t.Fatalf("/%.80s/u on %d bytes: %v, %d steps left; want ErrBudget, refused before it ran", pattern, len(s), err, left)
			case err == nil && left != budget-re.regularCost(len(s)):
				t.Fatalf("/%.80s/u on %d bytes: %v, %d steps left; want %d", pattern, len(s), ok, left, budget-re.regularCost(len(s)))
			}
			return
		}
		deepest, _, err := re.run(s, &left)
		switch {
		case err == nil && left < 0,
			err != nil && !errors.Is(err, ErrBudget) && !errors.Is(err, ErrDepth),
			errors.Is(err, ErrBudget) && left >= 0:
			t.Fatalf("/%.80s/u on %d bytes: %v, %d steps left", pattern, len(s), err, left)
		case deepest > MaxDepth+64:
			t.Fatalf("/%.80s/u on %d bytes: held %d, past MaxDepth", pattern, len(s), deepest)
		}
	})
}
