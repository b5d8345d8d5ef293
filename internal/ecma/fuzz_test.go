package ecma

import (
	"errors"
	"testing"
)

// FuzzPattern: Compile never panics; a match never panics nor spends more
// than its budget (it stops with ErrBudget instead), and where a pattern
// is translated to Go's regexp, the backtracking matcher agrees with it,
// as it does with the matcher before issue 34 (refBacktrack).
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
		}
		ref := int64(budget)
		if want, err := refBacktrack(re, s, &ref); err == nil && describeRunes(s, want) != describe(s, caps) {
			t.Fatalf("/%s/u on %q: %s; before issue 34, %s", pattern, s, describe(s, caps), describeRunes(s, want))
		}
	})
}
