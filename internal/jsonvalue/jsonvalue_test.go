package jsonvalue

import (
	"strings"
	"testing"
)

func TestEqualJSON(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`1e2`, `100`, true},
		{`100E-2`, `1`, true},
		{`0`, `-0.0e5`, true},
		{`12345678901234567890`, `12345678901234567891`, false},
		{`1e400`, `10e399`, true},
		{`1e999999999999999999999`, `1e999999999999999999998`, false},
		{`"a"`, `"\u0061"`, true},
		{`"\ud800"`, `"\ufffd"`, false},
		{`"\ud800"`, `"\uD800"`, true},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false},
		{`{"a":1,"a":2}`, `{"a":1,"a":2}`, true},
		{`{"a":1,"a":2}`, `{"a":1}`, false},
		{`[1,[2]]`, ` [ 1 , [ 2.0 ] ] `, true},
		{`[]`, `{}`, false},
		{`null`, `false`, false},
		{`true`, `true`, true},
	}
	for _, tt := range tests {
		got, err := EqualJSON([]byte(tt.a), []byte(tt.b))
		if err != nil || got != tt.want {
			t.Errorf("EqualJSON(%s, %s) = %v, %v; want %v", tt.a, tt.b, got, err, tt.want)
		}
	}
}

func TestAppendRoundTrip(t *testing.T) {
	for _, s := range []string{`{"a":[1,2.50,-0,1e400],"b":{"\ud800":"x\u0001\"\\"},"a":null,"t":true,"f":false}`, `[]`, `{}`, `"\ud83d\ude00"`} {
		v, err := Parse([]byte(s))
		if err != nil {
			t.Fatalf("Parse(%s): %v", s, err)
		}
		out := v.Append(nil)
		w, err := Parse(out)
		if err != nil || !Equal(v, w) {
			t.Errorf("Append(Parse(%s)) = %s, which parses differently (%v)", s, out, err)
		}
	}
	for _, bad := range []string{``, `{`, `[1,]`, `{"a" 1}`, `01`, `"\x"`, `{} x`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

// TestEqualJSONSameText: a text compared with itself is equal when Parse
// reads it, and an error when it does not, whether EqualJSON parses it or
// not (it does not parse a short text given twice).
func TestEqualJSONSameText(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, s := range []string{
		`{"a":[1,2.50,-0,1e400],"b":{"\ud800":"x\u0001"}}`, ` [1] `, `"\ud800"`, `{"a":1,"a":2}`, `1e999999999999999999999`,
		``, ` `, `{`, `[1,]`, `{"a"}`, `01`, `1 2`, `"\x"`, "\"\xff\"", "\"\x01\"", `tru`, `nul`, `{"a":1}x`,
		deep(MaxDepth), deep(MaxDepth + 1), deep(MaxDepth/2 - 1), `[` + deep(MaxDepth/2-1),
	} {
		_, perr := Parse([]byte(s))
		eq, err := EqualJSON([]byte(s), []byte(s))
		if (err == nil) != (perr == nil) || err == nil && !eq {
			t.Errorf("EqualJSON(%.40q, itself) = %v, %v; Parse: %v", s, eq, err, perr)
		}
	}
}

// BenchmarkEqualJSON compares a tool's arguments with the same text, as a
// check compares two answers written alike, and with the same value
// written otherwise.
func BenchmarkEqualJSON(b *testing.B) {
	a := []byte(`{"q":"Ember & Oak","filter":{"tags":["a","b"],"n":12,"url":"https://x.test/?q=1&copy=2"},"ops":[{"op":"set","at":"/title","value":"Q&A \ud800"}],"ok":true}`)
	for _, c := range []struct {
		name string
		b    []byte
	}{{"same-text", append([]byte(nil), a...)}, {"other-text", append([]byte(" "), a...)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if eq, err := EqualJSON(a, c.b); !eq || err != nil {
					b.Fatal(eq, err)
				}
			}
		})
	}
}

func TestResolve(t *testing.T) {
	doc, err := Parse([]byte(`{"$defs":{"a/b":{"x":1},"m~n":[10,{"y":2}]},"":{"z":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ ref, want string }{
		{"#", `{"$defs":{"a/b":{"x":1},"m~n":[10,{"y":2}]},"":{"z":3}}`},
		{"#/$defs/a~1b", `{"x":1}`},
		{"#/$defs/m~0n/1/y", `2`},
		{"#/", `{"z":3}`},
		{"#/$defs/m~0n/01", ""}, // not an index as JSON Pointer writes one
		{"#/$defs/m~0n/2", ""},
		{"#/nothing", ""},
		{"other.json#/$defs", ""}, // not local
		{"#anchor", ""},           // a name, not a pointer
	}
	for _, tt := range tests {
		got := ""
		if v := doc.Resolve(tt.ref); v != nil {
			got = string(v.Append(nil))
		}
		if got != tt.want {
			t.Errorf("Resolve(%q) = %s, want %s", tt.ref, got, tt.want)
		}
	}
}

func TestDepth(t *testing.T) {
	for text, want := range map[string]int{`1`: 0, `"a"`: 0, `[]`: 1, `{}`: 1, `[[1]]`: 2, `{"a":[{"b":1}],"c":2}`: 3} {
		v, err := Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Depth(); got != want {
			t.Errorf("Depth(%s) = %d, want %d", text, got, want)
		}
	}
	if (*Value)(nil).Depth() != 0 {
		t.Error("a nil value has depth")
	}
}
