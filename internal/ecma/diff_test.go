package ecma

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var (
	diffCount = flag.Int("ecma.n", 3000, "patterns TestDifferentialNode generates (nightly: 100000 or more)")
	diffSeed  = flag.Uint64("ecma.seed", 1, "seed of TestDifferentialNode's patterns and inputs")
)

// gen writes random patterns from a grammar of ECMA-262's syntax, mostly
// valid ones, some broken on purpose, and inputs for them.
type gen struct {
	r      *rand.Rand
	b      strings.Builder
	groups int
}

// literals are the characters patterns and inputs are made of; all of
// them assigned in Unicode long before Go's and Node's tables diverge.
var literals = []string{"a", "b", "a", "b", "x", "-", " ", "1", "_", "é", "Ω", "😀", "\n", "\r", "\u00a0", "\u2028", "\ufeff", "٣", "Ж", "A"}

// properties are \p{} bodies: ones toolnorm knows, ones it refuses as
// unsupported, and ones ECMA-262 refuses.
var properties = []string{"L", "Lu", "Ll", "Nd", "P", "Letter", "gc=Lu", "General_Category=Nd", "sc=Greek",
	"Script=Latin", "sc=Grek", "Script=Cyrl", "scx=Latn", "Script_Extensions=Greek", "ASCII", "Any", "Assigned",
	"Alphabetic", "Alpha", "White_Space", "space", "Emoji", "ID_Start", "IDS", "ID_Continue", "Hex_Digit",
	"AHex", "Lowercase", "Upper", "Math", "Hyphen", "Foo", "Cased", "Dash", "XIDS", "Cn", "LC", "Zs", "Common",
	"sc=Zyyy", "sc=Unknown", "sc=Zzzz", "Extended_Pictographic", "Grapheme_Base", "Gr_Ext", "Bidi_M",
	"Noncharacter_Code_Point", "Pat_WS", "STerm", "punct", "digit", "Lowercase_Letter", "sc=Qaac", "lu", "Script"}

func (g *gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) pattern() string {
	g.b.Reset()
	g.groups = 0
	g.disjunction(3)
	p := g.b.String()
	if g.r.IntN(12) == 0 { // break it, perhaps
		at := g.r.IntN(len(p) + 1)
		for at < len(p) && !utf8.RuneStart(p[at]) {
			at++
		}
		p = p[:at] + g.pick([]string{"(", ")", "[", "]", "{", "}", "\\", "|", "?", "*", "+", "^", "$", "-", "{1}", "(?", "\\k", "\\p", "\\u", "\\c", "\\0", "\\9", "(?<", "=", "\\-"}) + p[at:]
	}
	return p
}

func (g *gen) disjunction(depth int) {
	for i := range 1 + g.r.IntN(2) + g.r.IntN(2) {
		if i > 0 {
			g.b.WriteString("|")
		}
		for range g.r.IntN(4) + g.r.IntN(2) {
			g.term(depth)
		}
	}
}

func (g *gen) term(depth int) {
	switch n := g.r.IntN(20); {
	case n == 0:
		g.b.WriteString(g.pick([]string{"^", "$", `\b`, `\B`}))
		return
	case n == 1 && depth > 0:
		g.b.WriteString(g.pick([]string{"(?=", "(?!", "(?<=", "(?<!"}))
		g.disjunction(depth - 1)
		g.b.WriteString(")")
		if g.r.IntN(20) == 0 {
			g.b.WriteString("*") // not allowed with u
		}
		return
	}
	g.atom(depth)
	if g.r.IntN(3) == 0 {
		g.b.WriteString(g.pick([]string{"*", "+", "?", "{2}", "{0,1}", "{1,}", "{1,2}", "{0}", "{2,3}"}))
		if g.r.IntN(3) == 0 {
			g.b.WriteString("?")
		}
	}
}

func (g *gen) atom(depth int) {
	switch n := g.r.IntN(24); {
	case n < 8:
		lit := g.pick(literals)
		if b := g.b.String(); lit == "1" && b != "" && '0' <= b[len(b)-1] && b[len(b)-1] <= '9' {
			lit = "b" // not a longer decimal escape
		}
		g.b.WriteString(lit)
	case n < 10 && depth > 0:
		switch g.r.IntN(4) {
		case 0:
			g.b.WriteString("(?:")
		case 1:
			g.groups++
			fmt.Fprintf(&g.b, "(?<n%d>", g.groups)
		default:
			g.groups++
			g.b.WriteString("(")
		}
		g.disjunction(depth - 1)
		g.b.WriteString(")")
	case n < 12:
		g.b.WriteString(g.pick([]string{".", `\d`, `\D`, `\s`, `\S`, `\w`, `\W`}))
	case n < 15:
		g.class()
	case n < 17 && g.groups == 0 && g.r.IntN(5) > 0:
		g.b.WriteString("a") // a backreference would mostly be to no group
	case n < 17:
		if g.r.IntN(3) == 0 {
			fmt.Fprintf(&g.b, `\k<n%d>`, 1+g.r.IntN(max(g.groups, 1)))
		} else {
			fmt.Fprintf(&g.b, `\%d`, 1+g.r.IntN(g.groups+1))
		}
	case n < 18:
		fmt.Fprintf(&g.b, `\%s{%s}`, g.pick([]string{"p", "P"}), g.pick(properties))
	default:
		if g.r.IntN(6) == 0 {
			g.b.WriteString(g.pick([]string{`\-`, `\u{110000}`, `\c`, `\a`, `\u{}`, `\x`, `a{`, `\z`, `\01`, `\k`}))
		} else {
			g.b.WriteString(g.pick([]string{`\u{61}`, `\u{1F600}`, `\u0062`, `\uD83D\uDE00`, `\x2d`, `\cJ`, `\0`, `\t`, `\n`, `\r`,
				`\.`, `\/`, `\$`, `\ud83d`, `\v`, `\f`, `\^`, `\u{0}`, `\xe9`}))
		}
	}
}

func (g *gen) class() {
	g.b.WriteString("[")
	if g.r.IntN(4) == 0 {
		g.b.WriteString("^")
	}
	for range g.r.IntN(4) {
		switch g.r.IntN(8) {
		case 0:
			lo, hi := g.pick(literals), g.pick(literals)
			if lo > hi && g.r.IntN(4) > 0 {
				lo, hi = hi, lo
			}
			g.b.WriteString(lo + "-" + hi)
		case 1:
			g.b.WriteString(g.pick([]string{`\d`, `\s`, `\w`, `\W`, `\-`, `\b`, `\]`, `\\`, `\u{1F600}`, `\p{L}`, `\P{Lu}`, "^", "-", "[", `\cA`, `\S`, `\D`}))
		case 2:
			g.b.WriteString(g.pick([]string{`\B`, `\k`, `\1`, `\c1`, `\d-a`}))
		default:
			g.b.WriteString(g.pick(literals))
		}
	}
	g.b.WriteString("]")
}

// inputs returns strings for pattern p: random ones from the literals and
// the pattern's own characters.
func (g *gen) inputs(p string) []string {
	var alphabet []string
	for _, c := range p {
		if !strings.ContainsRune(`\()[]{}|?*+^$.`, c) {
			alphabet = append(alphabet, string(c))
		}
	}
	alphabet = append(alphabet, literals...)
	ins := []string{""}
	for range 7 {
		var s strings.Builder
		for range g.r.IntN(8) {
			s.WriteString(g.pick(alphabet))
		}
		ins = append(ins, s.String())
	}
	return ins
}

// TestDifferentialNode generates patterns from ECMA-262's grammar, and
// inputs, and holds internal/ecma to Node.js's `new RegExp(p, "u")`: the
// same syntax errors, and for each input the same match (where it starts,
// and each capture) by the backtracking matcher, and the same answer from
// Match (the translation to Go's regexp where the pattern is regular).
// -ecma.n and -ecma.seed choose how many and which; a property toolnorm
// refuses as not supported is counted, not failed (docs/engine.md,
// "Patterns").
func TestDifferentialNode(t *testing.T) {
	n := *diffCount
	if testing.Short() {
		n = min(n, 300)
	}
	g := &gen{r: rand.New(rand.NewPCG(*diffSeed, 27))}
	qs := make([]nodeQuery, n)
	for i := range qs {
		p := g.pattern()
		qs[i] = nodeQuery{Pattern: p, Inputs: g.inputs(p)}
	}
	answers := askNode(t, qs)
	var valid, invalid, unsupported, spent, offSpec, v8Bugs, failures int
	fail := func(format string, args ...any) {
		failures++
		if failures <= 30 {
			t.Errorf(format, args...)
		}
	}
	for i, q := range qs {
		a := answers[i]
		re, err := Compile(q.Pattern)
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			fail("Compile(%q): %v, not a *SyntaxError", q.Pattern, err)
			continue
		}
		switch {
		case a.Err != nil && err != nil:
			invalid++
			continue
		case a.Err != nil:
			fail("/%s/u: node says %s; toolnorm compiles it", q.Pattern, *a.Err)
			continue
		case err != nil && strings.Contains(err.Error(), "not supported by toolnorm"):
			unsupported++
			continue
		case err != nil:
			fail("/%s/u: node compiles it; toolnorm says %v", q.Pattern, err)
			continue
		}
		valid++
		for j, s := range q.Inputs {
			want := a.Matches[j]
			budget := int64(1_000_000)
			caps, err := re.backtrack(s, &budget)
			if err != nil {
				spent++
				continue
			}
			if got := describe(s, caps); got != describeNode(want) && v8BackrefAstral.MatchString(q.Pattern) {
				v8Bugs++ // V8 leaves ECMA-262 there (docs/engine.md, "Patterns")
				continue
			} else if got != describeNode(want) {
				fail("/%s/u.exec(%q): node %s; toolnorm %s", q.Pattern, s, describeNode(want), got)
			}
			if a.V8[j] != (want != nil) {
				offSpec++
			}
			budget = 1_000_000
			if ok, err := re.Match(s, &budget); err == nil && ok != (want != nil) {
				fail("/%s/u.test(%q): node %v; toolnorm's Match %v (translated: %v)", q.Pattern, s, want != nil, ok, re.re2 != nil)
			}
		}
	}
	t.Logf("seed %d: %d patterns: %d valid, %d invalid, %d with a property toolnorm does not support; %d matches over budget; %d inputs where V8's test leaves ECMA-262 (a match inside a surrogate pair); %d where V8's backreference before an astral character fails; %d disagreements",
		*diffSeed, n, valid, invalid, unsupported, spent, offSpec, v8Bugs, failures)
	if valid < n/3 || invalid < n/20 {
		t.Errorf("the generator's mix is off: %d valid, %d invalid of %d", valid, invalid, n)
	}
}

// v8BackrefAstral finds a backreference followed by a literal character
// outside the BMP: V8 (Node.js 20) fails such a backreference where the
// group is undefined, as in /\1😀|(a)/u on "😀", which ECMA-262 matches
// (the backreference matches empty).
var v8BackrefAstral = regexp.MustCompile(`\\(?:[1-9][0-9]*|k<[^>]*>)[\x{10000}-\x{10FFFF}]`)

// describe writes a match (captures in bytes) as node's answer reads: the
// index in characters and each capture's text (a byte that is not UTF-8
// as U+FFFD).
func describe(s string, caps []int) string {
	if caps == nil {
		return "no match"
	}
	var parts []string
	for k := 0; k < len(caps); k += 2 {
		if caps[k] < 0 || caps[k+1] < 0 {
			parts = append(parts, "undefined")
		} else {
			parts = append(parts, fmt.Sprintf("%q", string([]rune(s[caps[k]:caps[k+1]]))))
		}
	}
	return fmt.Sprintf("at %d: [%s]", utf8.RuneCountInString(s[:caps[0]]), strings.Join(parts, " "))
}

func describeNode(m *nodeMatch) string {
	if m == nil {
		return "no match"
	}
	var parts []string
	for _, c := range m.Caps {
		if c == nil {
			parts = append(parts, "undefined")
		} else {
			parts = append(parts, fmt.Sprintf("%q", *c))
		}
	}
	return fmt.Sprintf("at %d: [%s]", m.Index, strings.Join(parts, " "))
}
