package normalize

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// TestPatternCache: a pattern compiled again comes from the cache, with
// the same meaning and the same error, whether it is cached, too long for
// the cache, or compiled after the cache started over.
func TestPatternCache(t *testing.T) {
	long := "^" + strings.Repeat("a", maxCachedPattern) + "$"
	for _, tc := range []struct {
		name, src, key string
		match          bool
		err            string
	}{
		{"regular", "^list_", "list_a", true, ""},
		{"backtracking", `^(a)\1$`, "aa", true, ""},
		{"no match", "_json$", "json_x", false, ""},
		{"too long to cache", long, long[1 : len(long)-1], true, ""},
		{"invalid", "(?<x", "", false, `pattern "(?<x" is not an ECMA-262 regular expression (u flag): invalid capture group name at byte 3`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, err1 := compilePattern(tc.src)
			again, err2 := compilePattern(tc.src)
			for i, err := range []error{err1, err2} {
				if got := fmt.Sprint(err); tc.err != "" && got != tc.err || tc.err == "" && err != nil {
					t.Fatalf("compile %d: error %v, want %q", i+1, err, tc.err)
				}
			}
			if tc.err != "" {
				return
			}
			if cached := len(tc.src) <= maxCachedPattern; (first == again) != cached {
				t.Errorf("the same compiled pattern twice: %v, want %v", first == again, cached)
			}
			budget := patternSteps
			for i, p := range []*pattern{{re: first}, {re: again}} {
				if got := p.match([]byte(tc.key), new(string), &budget); got != tc.match {
					t.Errorf("compile %d matches %q: %v, want %v", i+1, tc.key, got, tc.match)
				}
			}
		})
	}
	// Past the bound the cache starts over, and gives the same patterns.
	for i := range maxCachedPatterns + 10 {
		if _, err := compilePattern(fmt.Sprintf("^p%d$", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(patterns.m); n > maxCachedPatterns {
		t.Errorf("the cache holds %d patterns, more than %d", n, maxCachedPatterns)
	}
	re, err := compilePattern("^p3$")
	if err != nil {
		t.Fatal(err)
	}
	budget := patternSteps
	if p := (&pattern{re: re}); !p.match([]byte("p3"), new(string), &budget) || p.match([]byte("p33"), new(string), &budget) {
		t.Errorf("^p3$ compiled after the cache started over matches otherwise")
	}
}

// TestPatternCacheConcurrent compiles schemas that share patterns from
// many goroutines at once (go test -race), each normalizing as it would
// alone.
func TestPatternCacheConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				schema := fmt.Sprintf(`{"type":"object","patternProperties":{"^list_":{"type":"array"},"^x%d$":{"type":"object"}}}`, (g+i)%5)
				s, err := Compile([]byte(schema))
				if err != nil {
					t.Error(err)
					return
				}
				out, err := s.Normalize([]byte(fmt.Sprintf(`{"list_a":"[1]","x%d":"{}","y":"[2]"}`, (g+i)%5)))
				if want := fmt.Sprintf(`{"list_a":[1],"x%d":{},"y":"[2]"}`, (g+i)%5); err != nil || string(out) != want {
					t.Errorf("%s: %s, %v; want %s", schema, out, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkCompilePatterns compiles a small tool schema with patterns, as
// the properties of toolnorm check draw them: the patterns repeat from
// schema to schema.
func BenchmarkCompilePatterns(b *testing.B) {
	schema := []byte(`{"type":"object","properties":{"q":{"type":"string"},"filter":{"type":"object","properties":{"a":{"type":"array","items":{}}},` +
		`"patternProperties":{"^list_":{"type":["array","null"],"items":{"type":"string"}}},"additionalProperties":{"type":"string"}}},` +
		`"patternProperties":{"_json$":{"type":"object"},"^[0-9]+$":{}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(schema); err != nil {
			b.Fatal(err)
		}
	}
}

// TestPatternStack: a long key under a pattern matched by backtracking is
// an ErrPattern naming the pattern and the key, clipped, never a crash
// (issue 34 item 2: the matcher recursed once per character, and 192 KB
// under this pattern were a fatal stack overflow, in `toolnorm normalize`
// and in every command that replays a corpus vector). The child process
// may not grow a goroutine's stack past 64 MB.
func TestPatternStack(t *testing.T) {
	if os.Getenv("NORMALIZE_STACK_CHILD") == "1" {
		debug.SetMaxStack(64 << 20)
		s, err := Compile([]byte(`{"type":"object","patternProperties":{"^(?=a)((((?:b|c|(a)))))*$":{"type":"array"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{192 << 10, 1 << 20} {
			out, err := s.Normalize([]byte(`{"` + strings.Repeat("a", n) + `":"[1]"}`))
			msg := fmt.Sprint(err)
			if !errors.Is(err, ErrPattern) || out != nil || len(msg) > 400 ||
				!strings.Contains(msg, `the pattern "^(?=a)((((?:b|c|(a)))))*$" on the key "aaaaaaaaaa`) {
				t.Errorf("a key of %d a's: %s, %v; want ErrPattern naming the pattern and the key, clipped", n, out, err)
			}
		}
		return
	}
	if testing.Short() {
		t.Skip("matches keys of up to 1 MB")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPatternStack$", "-test.v")
	cmd.Env = append(os.Environ(), "NORMALIZE_STACK_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		text := string(out)
		if i := strings.Index(text, "fatal error"); i >= 0 {
			text = text[i:min(len(text), i+400)]
		} else if len(text) > 2000 {
			text = text[len(text)-2000:]
		}
		t.Fatalf("the child ended with %v:\n%s", err, text)
	}
}

// TestPatternRegularCharged: a pattern translated to Go's regexp pays from
// the call's budget too, in proportion to its work (issue 34 item 6: a key
// of 1 MB under [a-z]{1000}$ took 7.8 s, and cost nothing). A key that
// would cost more than the call has left is an ErrPattern before the
// match runs; the same budget serves every key and pattern of the call.
func TestPatternRegularCharged(t *testing.T) {
	s, err := Compile([]byte(`{"type":"object","patternProperties":{"[a-z]{1000}$":{"type":"array"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	key := strings.Repeat("a", 1000)
	if out, err := s.Normalize([]byte(`{"` + key + `":"[1]"}`)); err != nil || string(out) != `{"`+key+`":[1]}` {
		t.Fatalf("a key of 1,000 a's: %.40s, %v", out, err)
	}
	out, err := s.Normalize([]byte(`{"` + strings.Repeat("a", 1<<20) + `":"[1]"}`))
	if msg := fmt.Sprint(err); !errors.Is(err, ErrPattern) || out != nil || len(msg) > 400 || !strings.Contains(msg, `the pattern "[a-z]{1000}$" on the key "aaaa`) {
		t.Errorf("a key of 1 MB: %.40s, %v; want ErrPattern", out, err)
	}
	// 1,000 keys of 1,000 a's each cost what one key of 1 MB costs: the
	// call's budget is one.
	var args strings.Builder
	args.WriteString("{")
	for i := range 1000 {
		if i > 0 {
			args.WriteString(",")
		}
		fmt.Fprintf(&args, `"%s%d":"[1]"`, key, i)
	}
	args.WriteString("}")
	if out, err := s.Normalize([]byte(args.String())); !errors.Is(err, ErrPattern) || out != nil {
		t.Errorf("1,000 keys of 1,000 a's: %.40s, %v; want ErrPattern", out, err)
	}
}
