package entity

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// FuzzDecode holds Decode to its definition: x/net's UnescapeString (text)
// or Pass (attribute) repeated until nothing changes, with and without a
// pass bound.
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
		got, res := Decode([]byte(s), mode, maxPasses)
		want, wantRes := naive(s, mode, maxPasses)
		if string(got) != want || res != wantRes {
			t.Fatalf("Decode(%q, %v, %d) = %q, %+v; want %q, %+v", s, mode, maxPasses, got, res, want, wantRes)
		}
		if mode == Text {
			if one := passString(s, Text); one != html.UnescapeString(s) {
				t.Fatalf("Pass(%q) = %q, x/net gives %q", s, one, html.UnescapeString(s))
			}
		}
	})
}
