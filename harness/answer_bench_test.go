package harness

import "testing"

// BenchmarkParseAnswer measures reading one answer line: arguments with
// no escape, with the escapes JSON in a string has (both taken as they
// are), and as Python writes them (parsed and written compact).
func BenchmarkParseAnswer(b *testing.B) {
	for _, tt := range []struct{ name, line string }{
		{"plain", `{"id":12345,"arguments":{"a":{"b":[1,2,"x &amp; y"]},"t":"Ember & Oak"}}`},
		{"escaped", `{"id":12345,"arguments":{"a":"{\"b\":[1,2,\"x &amp; y\"]}","t":"Ember\n& Oak \ud800"}}`},
		{"spaced", `{"id": 12345, "arguments": {"a": {"b": [1, 2, "x &amp; y"]}, "t": "Ember & Oak"}}`},
	} {
		b.Run(tt.name, func(b *testing.B) {
			line := []byte(tt.line)
			for b.Loop() {
				if r := parseAnswer(line, 12345); !r.Answered() {
					b.Fatal(r)
				}
			}
		})
	}
}
