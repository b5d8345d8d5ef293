package ecma

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// hostile are the pattern and key shapes of issue 34 (items 2 and 6):
// each key is key(n), n bytes long. A match of each must end, with a
// result or an error, within the call's budget of steps, on a Go stack
// far under its limit, whatever n.
var hostile = []struct {
	name, pattern string
	key           func(n int) string
}{
	// Item 2: the matcher recursed once per character, and more: 192 KB
	// were a stack overflow (1 GB).
	{"nested-groups-star", `^(?=a)((((?:b|c|(a)))))*$`, as},
	{"alt-star", `^(?=.)(?:a|b)*$`, abs},
	{"lookbehind-star", `(?<=^(?:a|b)*)c$`, func(n int) string { return abs(n-1) + "c" }},
	{"look-in-star", `^(?:a(?=a|$))*$`, as},
	{"counted-nested", `^(?=a)(a{1000}){1000}`, as},
	{"deep-nesting", `(?=a)` + strings.Repeat("(", 200) + "a" + strings.Repeat(")", 200) + "*$", as},
	{"long-sequence", `(?=a)` + strings.Repeat("a", 5000) + "$", as},
	// Backtracking that costs steps, not stack.
	{"exponential", `^(?=a)(a+)+$`, func(n int) string { return as(n-1) + "!" }},
	{"backref-long", `^(a+)\1$`, as},
	{"backref-every-start", `(?=(a*))\1b`, as},
	{"set-star", `^(?!x)[a-z]*$`, as},
}

func as(n int) string { return strings.Repeat("a", n) }

func abs(n int) string { return strings.Repeat("ab", n/2+1)[:n] }

// TestHostileStack matches each hostile pattern on a key of 192 KB and of
// 1 MB, in a child process whose goroutines may not grow their stack past
// 4 MB (Go's limit is 1 GB): a match that recursed once per character
// was a fatal stack overflow, which no recover catches (issue 34 item 2).
// Each must end with a result or an error; the matcher holds no Go stack
// per character.
func TestHostileStack(t *testing.T) {
	if os.Getenv("ECMA_HOSTILE_CHILD") == "1" {
		debug.SetMaxStack(4 << 20)
		for _, h := range hostile {
			if only := os.Getenv("ECMA_HOSTILE_ONLY"); only != "" && only != h.name {
				continue
			}
			for _, n := range []int{192 << 10, 1 << 20} {
				re, err := Compile(h.pattern)
				if err != nil {
					t.Fatalf("%s: %v", h.name, err)
				}
				budget := int64(testBudget)
				ok, err := re.Match(h.key(n), &budget)
				fmt.Printf("%s at %d bytes: %v, %v, %d steps left\n", h.name, n, ok, err, budget)
			}
		}
		return
	}
	if testing.Short() {
		t.Skip("matches 28 keys of up to 1 MB")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileStack$", "-test.v")
	cmd.Env = append(os.Environ(), "ECMA_HOSTILE_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		text := string(out)
		if i := strings.Index(text, "fatal error"); i >= 0 {
			text = text[i:min(len(text), i+400)]
		} else if len(text) > 2000 {
			text = text[len(text)-2000:]
		}
		t.Fatalf("the child matching hostile keys ended with %v:\n%s", err, text)
	}
	t.Logf("%s", out)
}

// TestHostileBounded matches each hostile pattern on a key of 1 MB with
// normalize's budget: each ends within it, or with ErrBudget or ErrDepth,
// having held at most MaxDepth, and allocated at most maxMatchBytes: a
// count of steps, depth and bytes, not of time.
func TestHostileBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("matches keys of 1 MB")
	}
	for _, h := range hostile {
		re, err := Compile(h.pattern)
		if err != nil {
			t.Fatalf("%s: %v", h.name, err)
		}
		key := h.key(1 << 20)
		budget := int64(testBudget)
		var deepest int
		bytes := allocated(func() {
			if re.re2 != nil {
				_, err = re.Match(key, &budget)
			} else {
				deepest, _, err = re.run(key, &budget)
			}
		})
		t.Logf("%s: %v, %d steps left, held %d, %d bytes allocated", h.name, err, budget, deepest, bytes)
		switch {
		case err == nil && budget < 0, err != nil && !errors.Is(err, ErrBudget) && !errors.Is(err, ErrDepth):
			t.Errorf("%s: %v, %d steps left", h.name, err, budget)
		case deepest > MaxDepth+64:
			t.Errorf("%s: held %d, past MaxDepth", h.name, deepest)
		case bytes > maxMatchBytes:
			t.Errorf("%s: allocated %d bytes, more than %d", h.name, bytes, maxMatchBytes)
		}
	}
}

// maxMatchBytes bounds what one match allocates: its stacks up to
// MaxDepth (64 bytes a unit at most), twice, as they double.
const maxMatchBytes = 40 << 20

// allocated returns how many bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
