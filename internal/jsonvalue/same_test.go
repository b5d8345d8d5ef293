package jsonvalue

import (
	"bytes"
	"strings"
	"testing"
)

// sameCases are pairs Same must judge as EqualJSON does: values written
// otherwise, texts Parse refuses on one side or both, and differences
// that come before something Parse refuses (Same stops at the first
// difference; the answer is "not the same" either way).
var sameCases = [][2]string{
	{`1`, `1.0`}, {`1e2`, `100`}, {`0`, `-0.0e5`}, {`12345678901234567890`, `12345678901234567891`},
	{`"a"`, `"\u0061"`}, {`"\ud800"`, `"\ufffd"`}, {`"\ud800"`, `"\uD800"`}, {`"\ud83d\ude00"`, "\"\U0001F600\""},
	{`"\ud83d\ude00"`, `"\ud83d"`}, {`"\ud83d\u0041"`, `"\ud83dA"`}, {"\"\xed\xa0\x80\"", `"\ud800"`},
	{`"\/\b\f\n\r\t\"\\"`, "\"/\\u0008\\u000c\\u000a\\r\\t\\u0022\\u005c\""}, {`"é"`, `"\u00e9"`}, {`"é"`, `"\u00E9x"`},
	{`{"a":1,"b":2}`, `{"b":2,"a":1}`}, {`{"a":1,"a":2}`, `{"a":1,"a":2}`}, {`{"a":1,"a":2}`, `{"a":1}`},
	{`{"\u0061":[]}`, `{"a":[ ]}`}, {`{"a":1}`, `{"a":1,}`}, {`{"a":1 }`, `{"a" :1}`},
	{`[1,[2]]`, ` [ 1 , [ 2.0 ] ] `}, {`[]`, `{}`}, {`[1]`, `[1,2]`}, {`[1,2]`, `[1]`}, {`null`, `false`},
	{`true`, `true`}, {`true`, `tru`}, {`nul`, `nul`}, {`[1,]`, `[1,]`}, {`1 2`, `1 2`}, {`{"a":1}x`, `{"a":1}x`},
	{`[1] `, `[1]x`}, {`"x`, `"x`}, {"\"\xff\"", "\"\xff\""}, {"\"\x01\"", "\"\x01\""}, {`"\x"`, `"\x"`},
	{`"\u12"`, `"\u12"`}, {`01`, `01`}, {`-`, `-`}, {`1.`, `1.`}, {``, ``}, {` `, ``},
	{`[2,"x`, `[1,"x`}, {`{"a":1,"b"`, `{"a":2,"b"`}, {`"ab\`, `"ab\`}, {`"` + strings.Repeat("é", 40) + `"`, `"` + strings.Repeat(`\u00e9`, 40) + `"`},
	{strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + " "},
	{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + " "},
	{`{"a":{"b":[1,{"c":"d"}]}}`, `{"a":{"b":[1,{"c":"e"}]}}`}, {`{"a":"x"}`, `{"b":"x"}`}, {`{"a":"x"}`, `{"a":"x", "b":null}`},
}

// equalJSON is Same's specification: EqualJSON, its error taken for
// "not the same".
func equalJSON(a, b []byte) bool {
	eq, err := EqualJSON(a, b)
	return err == nil && eq
}

func TestSame(t *testing.T) {
	for _, c := range sameCases {
		for _, p := range [][2]string{c, {c[1], c[0]}, {c[0], c[0]}} {
			a, b := []byte(p[0]), []byte(p[1])
			if got, want := Same(a, b), equalJSON(a, b); got != want {
				t.Errorf("Same(%.60q, %.60q) = %v, EqualJSON says %v", p[0], p[1], got, want)
			}
		}
	}
}

// FuzzSame holds Same to EqualJSON on any two texts, and on a text and
// the same value written compactly.
func FuzzSame(f *testing.F) {
	for _, c := range sameCases {
		f.Add([]byte(c[0]), []byte(c[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if got, want := Same(a, b), equalJSON(a, b); got != want {
			t.Fatalf("Same(%q, %q) = %v, EqualJSON says %v", a, b, got, want)
		}
		if v, err := Parse(a); err == nil {
			if c := v.Append(nil); !Same(a, c) || !Same(c, a) {
				t.Fatalf("Same(%q, its compact form %q) = false", a, c)
			}
		}
	})
}

// TestSameStopsAtTheDifference: a large answer against a small value is
// told apart without reading it whole, so without allocating.
func TestSameStopsAtTheDifference(t *testing.T) {
	big := []byte(`{"x":"` + strings.Repeat("\u00a0", 1<<20) + `"}`)
	small := []byte(`{"x":"\u00a0"}`)
	if n := testing.AllocsPerRun(10, func() {
		if Same(big, small) || Same(small, big) {
			t.Fatal("the same")
		}
	}); n != 0 {
		t.Errorf("%v allocations to tell a 2 MB answer from a small one", n)
	}
	if !Same(big, bytes.Clone(big)) {
		t.Error("a 2 MB answer is not the same as itself")
	}
}

// BenchmarkSame is BenchmarkEqualJSON's pairs with Same, and a 2 MB
// answer against a small value (which EqualJSON parses whole).
func BenchmarkSame(b *testing.B) {
	a := []byte(`{"q":"Ember & Oak","filter":{"tags":["a","b"],"n":12,"url":"https://x.test/?q=1&copy=2"},"ops":[{"op":"set","at":"/title","value":"Q&A \ud800"}],"ok":true}`)
	big := []byte(`{"x":"` + strings.Repeat("\u00a0", 1<<20) + `"}`)
	for _, c := range []struct {
		name string
		a, b []byte
		want bool
	}{{"same-text", a, bytes.Clone(a), true}, {"other-text", a, append([]byte(" "), a...), true}, {"large-against-small", big, a, false}} {
		b.Run(c.name+"/same", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if Same(c.a, c.b) != c.want {
					b.Fatal("wrong")
				}
			}
		})
		b.Run(c.name+"/equaljson", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if equalJSON(c.a, c.b) != c.want {
					b.Fatal("wrong")
				}
			}
		})
	}
}
