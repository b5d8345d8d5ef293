package entity

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/toolnorm/toolnorm/oracle"
)

// FuzzDecode holds Decode to its definition, Pass repeated until nothing
// changes (with and without a pass bound), and Pass to x/net: its
// UnescapeString in text mode, its tokenizer in attribute values.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"Ember &amp;amp; Oak", "&l&#116;;", "&amp;notin&#59;", "&&amp;lt;lt;",
		"?a=1&region=eu&not=2", "&#4294967356;", "&" + strings.Repeat("amp;", 40) + "lt;"} {
		f.Add(s, false, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, attribute bool, bound uint8) {
		mode := Text
		if attribute {
			mode = Attribute
		}
		maxPasses := int(bound % 16)
		checkDecode(t, s, mode, maxPasses)
		if one, want := passString(s, Text), html.UnescapeString(s); one != want {
			t.Fatalf("Pass(%q, Text) = %q, x/net gives %q", s, one, want)
		}
		if one, want := passString(s, Attribute), oracle.UnescapeAttribute(s); one != want {
			t.Fatalf("Pass(%q, Attribute) = %q, x/net's tokenizer gives %q", s, one, want)
		}
	})
}
