package ecma

import (
	"errors"
	"strings"
	"testing"
)

// cases are patterns with what ECMA-262 (u flag) says of them: a syntax
// error, or which inputs they match. Each is also put to Node.js when it
// is installed (TestAgainstNode).
var cases = []struct {
	pattern     string
	invalid     bool
	unsupported bool // valid ECMA-262, but refused: Go's tables lack the property
	match       []string
	miss        []string
}{
	// Issue 27 item 5.
	{pattern: `^\s$`, match: []string{" ", "\t", "\u00a0", "\ufeff", "\u2028", "\u3000", "\n"}, miss: []string{"a", "\u200b", ""}},
	{pattern: `^.$`, match: []string{"a", "\u00e9", "😀", "\t"}, miss: []string{"\r", "\n", "\u2028", "\u2029", "ab"}},
	{pattern: `(?i)^abc$`, invalid: true},
	{pattern: `\Aabc`, invalid: true},
	{pattern: `\pL`, invalid: true},
	{pattern: `[[:digit:]]`, invalid: true},
	{pattern: `\Qa.b\E`, invalid: true},
	// More of u's strictness.
	{pattern: `a{`, invalid: true},
	{pattern: `]`, invalid: true},
	{pattern: `}`, invalid: true},
	{pattern: `\-`, invalid: true},
	{pattern: `\z`, invalid: true},
	{pattern: `(?#c)`, invalid: true},
	{pattern: `\1(a)`, match: []string{"a"}},
	{pattern: `\2(a)`, invalid: true},
	{pattern: `(?=a)*`, invalid: true},
	{pattern: `[\d-z]`, invalid: true},
	{pattern: `[z-a]`, invalid: true},
	{pattern: `a{2,1}`, invalid: true},
	{pattern: `\u{110000}`, invalid: true},
	{pattern: `\cJ`, match: []string{"\n"}, miss: []string{"J"}},
	{pattern: `\c1`, invalid: true},
	{pattern: `\x4`, invalid: true},
	{pattern: `\01`, invalid: true},
	{pattern: `(?<x`, invalid: true},
	{pattern: `\k<x>`, invalid: true},
	{pattern: `(?<x>a)(?<x>b)`, invalid: true},
	{pattern: `\p{Foo}`, invalid: true},
	{pattern: `*a`, invalid: true},
	{pattern: `(`, invalid: true},
	{pattern: `a)`, invalid: true},
	{pattern: `[a`, invalid: true},
	// Valid patterns, and what they match.
	{pattern: `^[a-z]+$`, match: []string{"abc"}, miss: []string{"aBc", ""}},
	{pattern: `^\d{3}$`, match: []string{"123"}, miss: []string{"١٢٣", "12"}},
	{pattern: `^\w+$`, match: []string{"a_1"}, miss: []string{"é"}},
	{pattern: `\bfoo\b`, match: []string{"a foo b"}, miss: []string{"afoo"}},
	{pattern: `^\p{L}+$`, match: []string{"héllo", "Ωμέγα"}, miss: []string{"a1"}},
	{pattern: `^\p{Lu}`, match: []string{"Abc"}, miss: []string{"abc"}},
	{pattern: `^\p{Letter}$`, match: []string{"ß"}, miss: []string{"1"}},
	{pattern: `^\p{Script=Greek}+$`, match: []string{"Ωμέγα"}, miss: []string{"abc"}},
	{pattern: `^\p{gc=Nd}$`, match: []string{"٣"}, miss: []string{"x"}},
	{pattern: `^\P{L}$`, match: []string{"1"}, miss: []string{"a"}},
	{pattern: `^[\p{L}\d_-]+$`, match: []string{"a-1_b"}, miss: []string{"a b"}},
	{pattern: `^\u{1F600}$`, match: []string{"😀"}},
	{pattern: `^\uD83D\uDE00$`, match: []string{"😀"}},
	{pattern: `^[^a]$`, match: []string{"😀", "b"}, miss: []string{"a"}},
	{pattern: `^x-`, match: []string{"x-a"}, miss: []string{"a"}},
	{pattern: `^\/$`, match: []string{"/"}},
	{pattern: `^[\-\b]$`, match: []string{"-", "\b"}},
	{pattern: `^(?!x-)`, match: []string{"a"}, miss: []string{"x-a"}},
	{pattern: `^(?<=a)`, miss: []string{"a"}},
	{pattern: `(?<=a)b`, match: []string{"ab"}, miss: []string{"cb"}},
	{pattern: `(?<!a)b`, match: []string{"cb", "b"}, miss: []string{"ab"}},
	{pattern: `^(a+)\1$`, match: []string{"aaaa"}, miss: []string{"aaa"}},
	{pattern: `^(?<x>[ab])\k<x>$`, match: []string{"bb"}, miss: []string{"ab"}},
	{pattern: `^(?:a|ab)(?=c)`, match: []string{"abc"}, miss: []string{"abd"}},
	{pattern: `^(a*)*$`, match: []string{"", "aaa"}, miss: []string{"b"}},
	{pattern: `^(?=a)(a+)+$`, match: []string{"aaa"}, miss: []string{"aab"}},
	{pattern: `^a{2,}?$`, match: []string{"aaa"}, miss: []string{"a"}},
	{pattern: `^[]$`, miss: []string{"a", ""}},
	{pattern: `^[^]$`, match: []string{"a", "\n"}},
	{pattern: `^$`, match: []string{""}, miss: []string{"\n"}},
	{pattern: `^\0$`, match: []string{"\x00"}},
	// A lookbehind matches backwards: its greedy group takes all it can
	// leftwards, and a backreference in it refers to a group to its right.
	{pattern: `(?<=(a+))b\1$`, match: []string{"aaabaaa", "aba"}, miss: []string{"aaaba", "bab"}},
	{pattern: `(?<=\1(a))b`, match: []string{"aab"}, miss: []string{"ab"}},
	{pattern: `(?<=(?<x>[ab])\k<x>*)c`, match: []string{"bc", "abc"}, miss: []string{"c"}},
	{pattern: `(?<!^(a|b)c)d$`, match: []string{"d", "xcd", "acxd"}, miss: []string{"acd", "bcd"}},
	{pattern: `(?<=^\d{3}-)x`, match: []string{"123-x"}, miss: []string{"12-x", "x"}},
	// Each iteration of a quantified group begins with its captures
	// undefined.
	{pattern: `^(?:(a)|b)+\1$`, match: []string{"ab", "aa"}, miss: []string{"aba"}},
	{pattern: `^(?:(a)|(b))+-\1\2$`, match: []string{"ab-b", "ba-a"}, miss: []string{"ab-ab"}},
	// Properties: aliases, script codes, derived binary properties.
	{pattern: `^\p{sc=Grek}+$`, match: []string{"Ωμ"}, miss: []string{"a"}},
	{pattern: `^\p{Script=Latn}$`, match: []string{"é"}, miss: []string{"Ж"}},
	{pattern: `^\p{sc=Zyyy}$`, match: []string{"1", " "}, miss: []string{"a"}},
	{pattern: `^\p{sc=Unknown}$`, match: []string{"\U000E0080"}, miss: []string{"a"}},
	{pattern: `^\p{AHex}+$`, match: []string{"0aF"}, miss: []string{"g", "１"}},
	{pattern: `^\p{Alpha}$`, match: []string{"a", "ß", "Ⅻ", "\u0345"}, miss: []string{"1", "_"}},
	{pattern: `^\p{Lower}$`, match: []string{"a", "ª"}, miss: []string{"A"}},
	{pattern: `^\p{ID_Start}\p{IDC}*$`, match: []string{"a1", "é_"}, miss: []string{"1a", "a-"}},
	{pattern: `^\p{Gr_Base}\p{Gr_Ext}$`, match: []string{"e\u0301"}, miss: []string{"\u0301e"}},
	{pattern: `^\p{space}$`, match: []string{"\u0085", " "}, miss: []string{"\u200b"}},
	{pattern: `^\p{Cased}$`, match: []string{"a", "ǅ"}, miss: []string{"1"}},
	{pattern: `^\p{Math}$`, match: []string{"+", "^"}, miss: []string{"a"}},
	{pattern: `\p{Hyphen}`, invalid: true},
	{pattern: `\p{Prepended_Concatenation_Mark}`, invalid: true},
	{pattern: `\p{Other_Alphabetic}`, invalid: true},
	{pattern: `\p{sc=Foo_Bar-}`, invalid: true},
	{pattern: `\p{scx=}`, invalid: true},
	{pattern: `\p{Emoji}`, unsupported: true},
	{pattern: `\p{scx=Grek}`, unsupported: true},
	{pattern: `\p{XID_Start}`, unsupported: true},
	{pattern: `\P{Bidi_M}`, unsupported: true},
	{pattern: `[\p{CWCF}]`, unsupported: true},
}

func TestCases(t *testing.T) {
	for _, c := range cases {
		re, err := Compile(c.pattern)
		var se *SyntaxError
		if c.unsupported {
			if !errors.As(err, &se) || !strings.Contains(se.Msg, "not supported by toolnorm") {
				t.Errorf("Compile(%q) = %v, want a syntax error saying toolnorm does not support it", c.pattern, err)
			}
			continue
		}
		if c.invalid {
			if !errors.As(err, &se) {
				t.Errorf("Compile(%q) = %v, want a syntax error", c.pattern, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Compile(%q): %v", c.pattern, err)
			continue
		}
		for _, want := range []bool{true, false} {
			inputs := c.match
			if !want {
				inputs = c.miss
			}
			for _, s := range inputs {
				budget := int64(1 << 20)
				if got, err := re.Match(s, &budget); got != want || err != nil {
					t.Errorf("/%s/u on %q = %v, %v; want %v", c.pattern, s, got, err, want)
				}
				// The backtracking matcher agrees with the translation.
				bt := *re
				bt.re2 = nil
				if got, err := bt.Match(s, &budget); got != want || err != nil {
					t.Errorf("/%s/u on %q, backtracking = %v, %v; want %v", c.pattern, s, got, err, want)
				}
			}
		}
	}
}

// TestBudget: a backtracking pattern on a hostile key spends its budget and
// stops, after exactly as many steps on every run and every machine.
func TestBudget(t *testing.T) {
	re, err := Compile(`^(?=a)(a+)+$`)
	if err != nil {
		t.Fatal(err)
	}
	key := strings.Repeat("a", 23) + "!"
	var spent []int64
	for range 3 {
		budget := int64(100000)
		ok, err := re.Match(key, &budget)
		if ok || !errors.Is(err, ErrBudget) || budget >= 0 {
			t.Fatalf("Match = %v, %v (budget left %d); want ErrBudget", ok, err, budget)
		}
		spent = append(spent, budget)
	}
	if spent[0] != spent[1] || spent[1] != spent[2] {
		t.Errorf("budget left differs from run to run: %v", spent)
	}
	budget := int64(100000)
	if ok, err := re.Match("aaa", &budget); !ok || err != nil {
		t.Errorf("Match(aaa) = %v, %v", ok, err)
	}
}

// TestAgainstNode puts every case to Node.js's `new RegExp(p, "u")`: the
// same syntax errors, the same matches; a property toolnorm refuses as
// unsupported is one Node.js accepts. With TOOLNORM_CI=1 a missing node is
// a failure, not a skip.
func TestAgainstNode(t *testing.T) {
	var qs []nodeQuery
	for _, c := range cases {
		qs = append(qs, nodeQuery{Pattern: c.pattern, Inputs: append(append([]string{}, c.match...), c.miss...)})
	}
	answers := askNode(t, qs)
	for i, c := range cases {
		a := answers[i]
		if (a.Err != nil) != (c.invalid) {
			t.Errorf("/%s/u: node says %v; the case says invalid=%v", c.pattern, a.Err, c.invalid)
			continue
		}
		for j, s := range qs[i].Inputs {
			if a.Err == nil && (a.Matches[j] != nil) != (j < len(c.match)) {
				t.Errorf("/%s/u on %q: node says %v; the case says %v", c.pattern, s, a.Matches[j] != nil, j < len(c.match))
			}
		}
	}
}
