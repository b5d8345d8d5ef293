package ecma

import (
	"strings"
	"testing"
)

// testBudget is normalize's budget of steps per call (patternSteps).
const testBudget = 10_000_000

// ordinary are patterns as tool schemas write them, and keys as models
// send them: what must not get slower.
var ordinary = []struct {
	name, pattern, key string
}{
	{"prefix", `^list_`, "list_of_things"},
	{"suffix", `_json$`, "payload_json"},
	{"word", `^[a-z]+$`, "filename"},
	{"word-300", `^[a-z_]+$`, strings.Repeat("long_key_", 33)},
	{"letters", `^[\p{L}\d_-]+$`, "héllo_wörld-1"},
	{"uuid", `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`, "123e4567-e89b-12d3-a456-426614174000"},
	{"lookahead", `^(?!x-)`, "content-type"},
	{"lookahead-300", `^(?!x-).*$`, strings.Repeat("long-key-", 33)},
	{"lookbehind", `(?<=_)id$`, "user_id"},
	{"backref", `^(a+)\1$`, "aaaaaaaa"},
	{"backref-300", `^(\w+)-\1$`, strings.Repeat("k", 150) + "-" + strings.Repeat("k", 150)},
	{"alternation", `^(?=[a-z])(?:get|set|list|delete)_[a-z]+$`, "delete_items"},
}

// BenchmarkMatch matches ordinary patterns on ordinary keys.
func BenchmarkMatch(b *testing.B) {
	for _, o := range ordinary {
		re, err := Compile(o.pattern)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(o.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				budget := int64(testBudget)
				if _, err := re.Match(o.key, &budget); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompile compiles the ordinary patterns.
func BenchmarkCompile(b *testing.B) {
	for _, o := range ordinary {
		b.Run(o.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compile(o.pattern); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
