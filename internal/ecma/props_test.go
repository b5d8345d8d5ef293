package ecma

import (
	"fmt"
	"slices"
	"testing"
	"unicode"
)

// TestPropertiesAgainstNode compares each property toolnorm knows with
// Node.js's: every binary property and General_Category value, character
// by character, and every script code by a character of its script. Only
// characters assigned in Go's Unicode version are compared (not private
// use nor surrogates): a later version assigns more, and Node.js's tables
// may be later (docs/engine.md, "Patterns"). When Node.js's Unicode
// version is Go's, the sets must be equal; when not, a property may
// differ in a few characters that a later version moved (U+0295 from Ll
// to Lo, combining letters made Alphabetic, in Unicode 16), and at most
// versionDrift of them: a wrong derivation differs in hundreds.
const versionDrift = 64

func TestPropertiesAgainstNode(t *testing.T) {
	domain := intersect(assigned(), union(fromTable(unicode.Co), fromTable(unicode.Cs)).negate())
	var names []string
	for name := range binaryProperties {
		names = append(names, name)
	}
	for short, long := range binaryAliases {
		if binaryProperties[long] != nil {
			names = append(names, short)
		}
	}
	for long := range generalCategories {
		names = append(names, long)
	}
	for short := range unicode.Categories {
		names = append(names, short)
	}
	names = append(names, "LC", "gc=Lu", "General_Category=Letter")
	slices.Sort(names)
	names = slices.Compact(names)
	qs := []nodeQuery{{Domain: toPairs(domain)}}
	for i := range names {
		qs = append(qs, nodeQuery{Prop: &names[i]})
	}
	var codes []string
	for code := range scriptCodes {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	for _, code := range codes {
		set, _ := script(code)
		if in := intersect(set, domain); len(in) > 0 {
			set = in // Unknown (Zzzz) has no assigned character
		}
		qs = append(qs, nodeQuery{Pattern: `^\p{sc=` + code + `}$`, Inputs: []string{string(set[0].lo), string(set[len(set)-1].hi)}})
	}
	answers := askNode(t, qs)
	nodeUnicode := answers[0].Unicode
	answers = answers[1:]
	drift := 0
	if nodeUnicode != unicode.Version {
		drift = versionDrift
		t.Logf("node's Unicode is %s, Go's %s: each property may differ in %d characters", nodeUnicode, unicode.Version, drift)
	}
	for i, name := range names {
		a := answers[i]
		set, msg := propertySet(name)
		switch {
		case a.Err != nil && msg == "":
			t.Errorf(`\p{%s}: node says %s; toolnorm accepts it`, name, *a.Err)
			continue
		case a.Err != nil:
			continue
		case msg != "":
			if binaryProperties[binaryAliases[name]] != nil || binaryProperties[name] != nil {
				t.Errorf(`\p{%s}: toolnorm says %s`, name, msg)
			}
			continue
		}
		var theirs ranges
		for _, r := range a.Ranges {
			theirs = append(theirs, rng{r[0], r[1]})
		}
		ours := intersect(set, domain)
		more, fewer := intersect(ours, theirs.negate()), intersect(theirs, ours.negate())
		if size(more)+size(fewer) > drift {
			t.Errorf(`\p{%s}: toolnorm has %s that node has not; node has %s that toolnorm has not`, name, show(more), show(fewer))
		} else if size(more)+size(fewer) > 0 {
			t.Logf(`\p{%s}: toolnorm has %s that node has not; node has %s that toolnorm has not`, name, show(more), show(fewer))
		}
	}
	for i, code := range codes {
		a := answers[len(names)+i]
		if a.Err != nil || a.Matches[0] == nil || a.Matches[1] == nil {
			t.Errorf(`\p{sc=%s}: node does not take it for %s: %+v`, code, scriptCodes[code], a)
		}
	}
}

func toPairs(s ranges) [][2]rune {
	var out [][2]rune
	for _, r := range s {
		out = append(out, [2]rune{r.lo, r.hi})
	}
	return out
}

func size(s ranges) int {
	n := 0
	for _, r := range s {
		n += int(r.hi-r.lo) + 1
	}
	return n
}

func show(s ranges) string {
	n := size(s)
	if len(s) > 4 {
		return fmt.Sprintf("%d characters: %U-%U, %U-%U, ...", n, s[0].lo, s[0].hi, s[1].lo, s[1].hi)
	}
	return fmt.Sprintf("%d characters: %v", n, s)
}
