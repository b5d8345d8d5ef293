package ecma

import (
	"fmt"
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

// BenchmarkHostile matches each hostile pattern on keys of 64 KB to 4 MB
// with normalize's budget of 10,000,000 steps, and reports the time per
// byte of key: flat or falling with the size, as every match ends within
// the budget (and stack) whatever the key.
func BenchmarkHostile(b *testing.B) {
	for _, h := range hostile {
		re, err := Compile(h.pattern)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{64 << 10, 256 << 10, 1 << 20, 4 << 20} {
			key := h.key(n)
			b.Run(fmt.Sprintf("%s/%dKB", h.name, n>>10), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					budget := int64(testBudget)
					re.Match(key, &budget)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/byte")
			})
		}
	}
}

// BenchmarkStepCost measures what a step costs, in time, in each engine:
// a backtracking match run until its budget is spent, and a regular
// match by Go's regexp, its time divided by the steps it is charged
// (regularCost): a step per instruction per byte makes the worst regular
// shape cost about what a backtracking step does, so that the budget
// bounds the time of either.
func BenchmarkStepCost(b *testing.B) {
	for _, c := range []struct{ name, pattern, key string }{
		{"backtrack/exponential", `^(?=a)(a+)+$`, as(40) + "!"},
		{"backtrack/alt-star", `(?=.)(?:a|b)*$`, abs(2000) + "!"},
		{"backtrack/lookbehind", `(?<=^(?:a|b)*)c$`, abs(2000)},
		{"backtrack/nested-groups", `^(?=a)((((?:b|c|(a)))))*!`, as(2000)},
		{"backtrack/deep", `^(?=a)((((?:b|c|(a)))))*!`, as(40000)},
		{"backtrack/set-star", `(?=a)[a-z]*!`, as(4000)},
		{"backtrack/backref", `(?=(a*))\1b`, as(4000)},
		{"regular/counted", `[a-z]{1000}$`, as(64 << 10)},
		{"regular/alt-star", `(?:a|b|c|d|e|f|g|h)*x`, as(64 << 10)},
		{"regular/class-counted", `[\p{L}\d]{50}!`, as(64 << 10)},
		{"regular/onepass", `^[a-z]+$`, as(64 << 10)},
		{"regular/short", `^[0-9a-f]{8}-[0-9a-f]{4}$`, "123e4567-e89b"},
		{"regular/literal", `_json$`, "payload_json"},
	} {
		re, err := Compile(c.pattern)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			var steps int64
			for b.Loop() {
				if re.re2 != nil {
					re.re2.MatchString(c.key)
					steps += re.regularCost(len(c.key))
					continue
				}
				budget := int64(1_000_000)
				re.Match(c.key, &budget)
				steps += 1_000_000 - budget
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/step")
		})
	}
}

// BenchmarkCompileHostile compiles each hostile pattern at 8 KB to
// MaxPatternBytes, and reports the time per byte of pattern; past the
// limit, or its ranges', Compile refuses at once.
func BenchmarkCompileHostile(b *testing.B) {
	for _, h := range hostilePatterns {
		for _, n := range []int{8 << 10, 16 << 10, MaxPatternBytes, 1 << 20} {
			p := h.pattern(n)
			b.Run(fmt.Sprintf("%s/%dKB", h.name, n>>10), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					Compile(p)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(p)), "ns/byte")
			})
		}
	}
}
