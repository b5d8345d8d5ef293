package diagnose

import (
	"bytes"
	"testing"

	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// TestDecodeMapped: the map decodes as the rule does, and each byte of
// the result points at the reference, or the byte, it came from.
func TestDecodeMapped(t *testing.T) {
	for _, s := range []string{
		"", "plain", "&amp;", "&amp;amp;lt;", "a&#x41;b", "&notit;", "&nGt;x", "&amp#x80", "&#4294967356;&quot]",
		"&&&;;&#;&#x;&lt", "\xff&lt;\xfe", "&#xD800;&#0;",
	} {
		for _, mode := range []entity.Profile{entity.Text, entity.Attribute} {
			for _, max := range []int{0, 1, 2} {
				out, lo, hi := decodeMapped(s, mode, max)
				want, _ := entity.Decode([]byte(s), mode, max)
				if !bytes.Equal(out, want) {
					t.Errorf("decodeMapped(%q, %v, %d) = %q, want %q", s, mode, max, out, want)
					continue
				}
				for i := range out {
					if lo[i] < 0 || hi[i] > len(s) || lo[i] >= hi[i] || (i > 0 && lo[i] < lo[i-1]) {
						t.Errorf("decodeMapped(%q): byte %d from [%d,%d)", s, i, lo[i], hi[i])
					}
				}
			}
		}
	}
	_, lo, hi := decodeMapped("a&amp;lt;b", entity.Text, 0)
	if lo[1] != 1 || hi[1] != 9 {
		t.Errorf("the < of a&amp;lt;b from [%d,%d), want [1,9)", lo[1], hi[1])
	}
}

// TestSourced: each string of JSON text that parses once its references
// are decoded holds the text it came from, where that text made nothing
// else; else its value.
func TestSourced(t *testing.T) {
	for _, tt := range []struct{ s, want string }{
		{`[&quot;a&amp;amp;b&quot;, "&#x41;", {"k": "&lt;&quot}]`, `["a&amp;amp;b","&#x41;",{"k":"&lt;"}]`},
		{`["a\u0041&#x42;", &quot;&quot;]`, `["aAB",""]`}, // a JSON escape: the value
		{`["&lt;&quot;]`, `["&lt;"]`},                     // the closing quote's reference apart
		{`[&quot&quot;x&quot;]`, ""},                      // not JSON once decoded
	} {
		v := sourced(tt.s, entity.Text, 0)
		if tt.want == "" {
			if v != nil {
				t.Errorf("sourced(%q) = %s, want nil (not JSON once decoded)", tt.s, v.Append(nil))
			}
			continue
		}
		w, err := jsonvalue.Parse([]byte(tt.want))
		if err != nil {
			t.Fatal(err)
		}
		if v == nil {
			t.Errorf("sourced(%q) = nil, want %s", tt.s, tt.want)
		} else if !jsonvalue.Equal(v, w) {
			t.Errorf("sourced(%q) = %s, want %s", tt.s, v.Append(nil), tt.want)
		}
	}
}
