package entity

import (
	"testing"

	"github.com/toolnorm/toolnorm/oracle"
)

// TestHTML5Lib runs every character-reference case of html5lib's tokenizer
// tests (namedEntities, numericEntities, entities: one pass each, in text
// or attribute mode) against Pass, as oracle's tests run them against
// x/net.
func TestHTML5Lib(t *testing.T) {
	cases, err := oracle.HTML5LibCases()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[bool]int{}
	for _, c := range cases {
		mode := Text
		if c.Attribute {
			mode = Attribute
		}
		if got := passString(c.Input, mode); got != c.Want {
			t.Errorf("%s: Pass(%q, %v) = %q, want %q", c.Name, c.Input, mode, got, c.Want)
		}
		counts[c.Attribute]++
	}
	t.Logf("%d text cases, %d attribute cases", counts[false], counts[true])
	if counts[false] < 4500 || counts[true] < 9 {
		t.Fatalf("only %d text and %d attribute cases: is the html5lib data missing?", counts[false], counts[true])
	}
}

// TestAttributeMatchesOracle holds the attribute mode to x/net's tokenizer
// reading an attribute value, on strings dense in near misses.
func TestAttributeMatchesOracle(t *testing.T) {
	r := newRand(7)
	for range 5000 {
		s := randomString(r, r.IntN(10))
		if got, want := passString(s, Attribute), oracle.UnescapeAttribute(s); got != want {
			t.Fatalf("Pass(%q, Attribute) = %q, tokenizer gives %q", s, got, want)
		}
	}
}
