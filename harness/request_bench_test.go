package harness

import "testing"

// BenchmarkRequest measures writing one request line: a case with no
// escape, one with the escapes JSON in a string has (sent as it is), and
// one with whitespace (parsed and written compact).
func BenchmarkRequest(b *testing.B) {
	schema := []byte(`{"type":"object","properties":{"a":{"type":"object"},"t":{"type":"string"}}}`)
	for _, tt := range []struct{ name, args string }{
		{"plain", `{"a":{"b":[1,2,"x &amp;amp; y"]},"t":"Ember &amp; Oak"}`},
		{"escaped", `{"a":"{\"b\":[1,2,\"x &amp;amp; y\"]}","t":"Ember\n&amp; Oak \ud800"}`},
		{"spaced", `{"a": {"b": [1, 2, "x &amp;amp; y"]}, "t": "Ember &amp; Oak"}`},
	} {
		b.Run(tt.name, func(b *testing.B) {
			args := []byte(tt.args)
			for b.Loop() {
				if _, err := request(0, schema, args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
