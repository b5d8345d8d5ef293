package ecma

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp/syntax"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"unicode/utf8"
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
	// Item 6: a regular pattern, translated to Go's regexp, cost nothing
	// (1 MB under [a-z]{1000}$: 7.8 s).
	{"regular-counted", `[a-z]{1000}$`, as},
	{"regular-star", `^[a-z]+$`, as},
	{"regular-alt", `(?:a|b|c|d|e|f|g|h)*x`, as},
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

// TestRegularCharged: a regular pattern, matched by Go's regexp, pays
// from the budget in proportion to its work (the key's length times the
// size of its program); one that would cost more than is left is refused
// with ErrBudget before it runs.
func TestRegularCharged(t *testing.T) {
	re, err := Compile(`[a-z]{1000}$`)
	if err != nil {
		t.Fatal(err)
	}
	if re.re2 == nil {
		t.Fatal("[a-z]{1000}$ is not translated to Go's regexp")
	}
	budget := int64(testBudget)
	ok, err := re.Match(as(64), &budget)
	if ok || err != nil || budget >= testBudget {
		t.Errorf("on 64 a's: %v, %v, %d steps left of %d: want no match, some steps spent", ok, err, budget, testBudget)
	}
	budget = testBudget
	ok, err = re.Match(as(1<<20), &budget)
	if ok || !errors.Is(err, ErrBudget) || budget >= 0 {
		t.Errorf("on 1 MB of a's: %v, %v, %d steps left; want ErrBudget", ok, err, budget)
	}
	// Twice the key, twice the cost.
	cost := func(n int) int64 {
		budget := int64(testBudget)
		if _, err := re.Match(as(n), &budget); err != nil {
			t.Fatal(err)
		}
		return testBudget - budget
	}
	if c1, c2 := cost(1000), cost(2000); c2 < 2*c1-c1/100 || c2 > 2*c1+c1/100 {
		t.Errorf("1,000 bytes cost %d steps, 2,000 bytes %d: want twice as many", c1, c2)
	}
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

// hostilePatterns are patterns of issue 34 item 6 that cost their
// compile: each made n bytes long.
var hostilePatterns = []struct {
	name    string
	pattern func(n int) string
}{
	{"literal", func(n int) string { return as(n) }},
	{"class", func(n int) string {
		var b strings.Builder
		b.WriteString("[")
		for r := rune(0x100); b.Len()+utf8.RuneLen(r) < n; r++ {
			b.WriteRune(r)
		}
		return b.String() + "]"
	}},
	{"property", func(n int) string { return strings.Repeat(`\p{Alpha}`, n/9) }},
	{"negated-class", func(n int) string { return strings.Repeat(`[^\p{L}\d]`, n/10) }},
	{"nesting", func(n int) string { return strings.Repeat("(", n/2) + strings.Repeat(")", n/2) }},
	{"alternatives", func(n int) string { return strings.Repeat("a|", n/2) }},
	{"groups", func(n int) string { return strings.Repeat("()", n/2) }},
	{"stars", func(n int) string { return strings.Repeat("a*", n/2) }},
	{"counted", func(n int) string { return strings.Repeat("a{1000}", n/7) }},
	{"counted-nested", func(n int) string { return strings.Repeat("(", n/10) + "a" + strings.Repeat("){1000}", n/10) }},
}

// TestCompileLimits: compiling a pattern is bounded in time and memory.
// One of 1 MB, nested 1,001 deep, or whose classes hold more than 65,536
// ranges, is refused as beyond toolnorm's limits (ECMA-262 sets none;
// 1 MB took 2 s and 550 MB, and 1 MB of \p{Alpha} ran out of 8 GB); one
// within them allocates at most maxCompileBytes.
func TestCompileLimits(t *testing.T) {
	for _, c := range []struct {
		name, pattern string
		limit         bool
	}{
		{"longest", as(MaxPatternBytes), false},
		{"longer", as(MaxPatternBytes + 1), true},
		{"1 MB", as(1 << 20), true},
		{"nested 1,000 deep", strings.Repeat("(?:", 1000) + "a" + strings.Repeat(")", 1000), false},
		{"nested 1,001 deep", strings.Repeat("(", 1001) + "a" + strings.Repeat(")", 1001), true},
		{"lookarounds nested 1,001 deep", strings.Repeat("(?=", 1001) + strings.Repeat(")", 1001), true},
		{"80 properties", strings.Repeat(`\p{Alpha}`, 80), false},
		{"200 properties", strings.Repeat(`\p{Alpha}`, 200), true},
		{"a class of 200 properties", "[" + strings.Repeat(`\p{L}`, 200) + "]", true},
		{"nested counts", `(a{1000}){1000}`, false},
		{"invalid and long", "(" + as(1<<20), true},
	} {
		_, err := Compile(c.pattern)
		var se *SyntaxError
		switch {
		case c.limit && (!errors.As(err, &se) || !se.Limit):
			t.Errorf("%s: Compile = %v, want a SyntaxError beyond toolnorm's limits", c.name, err)
		case c.limit && len(err.Error()) > 400:
			t.Errorf("%s: an error of %d bytes", c.name, len(err.Error()))
		case !c.limit && err != nil:
			t.Errorf("%s: Compile = %v", c.name, err)
		}
	}
	for _, h := range hostilePatterns {
		for _, n := range []int{MaxPatternBytes, 1 << 20} {
			p := h.pattern(n)
			var err error
			bytes := allocated(func() { _, err = Compile(p) })
			var se *SyntaxError
			if err != nil && !errors.As(err, &se) {
				t.Errorf("%s of %d bytes: %v", h.name, len(p), err)
			}
			t.Logf("%s of %d bytes: %d bytes allocated, %v", h.name, len(p), bytes, err)
			if bytes > maxCompileBytes {
				t.Errorf("%s of %d bytes: compiling allocated %d bytes, more than %d", h.name, len(p), bytes, maxCompileBytes)
			}
		}
	}
}

// maxCompileBytes bounds what compiling one pattern allocates (in
// toolnorm, and in Go's regexp for its translation).
const maxCompileBytes = 64 << 20

// TestProgSize: the cost of a regular match per byte, progSize, is at
// least the size of the program Go's regexp makes of the translation, on
// the generated patterns of TestDifferentialNode (the seed and count of
// -ecma.seed and -ecma.n), and the hostile and ordinary ones; and not
// more than 4 times it on the ordinary ones.
func TestProgSize(t *testing.T) {
	var patterns []string
	for _, h := range hostile {
		patterns = append(patterns, h.pattern)
	}
	for _, o := range ordinary {
		patterns = append(patterns, o.pattern)
	}
	g := &gen{r: rand.New(rand.NewPCG(*diffSeed, 35))}
	for range 4 * *diffCount {
		patterns = append(patterns, g.pattern())
	}
	checked := 0
	for i, p := range patterns {
		re, err := Compile(p)
		if err != nil || re.re2 == nil {
			continue
		}
		checked++
		insts := goProgSize(t, re.re2.String())
		if re.insts < insts {
			t.Errorf("/%s/u: progSize %d, Go's program has %d instructions", p, re.insts, insts)
		}
		if i >= len(hostile) && i < len(hostile)+len(ordinary) && re.insts > 4*insts {
			t.Errorf("/%s/u: progSize %d, more than 4 times Go's %d", p, re.insts, insts)
		}
	}
	t.Logf("%d patterns translated", checked)
}

// goProgSize is the number of instructions regexp.Compile makes of expr.
func goProgSize(t *testing.T, expr string) int {
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		t.Fatal(err)
	}
	return len(prog.Inst)
}

var hostileDir = flag.String("ecma.hostile", "", "write each hostile pattern and key, at 64 KB to 4 MB, as NAME-SIZE.schema.json and NAME-SIZE.args.json in this directory, for toolnorm normalize (docs/performance.md)")

// TestHostileDump writes the hostile cases as files with -ecma.hostile:
// a schema with the pattern in patternProperties, and arguments with the
// key.
func TestHostileDump(t *testing.T) {
	if *hostileDir == "" {
		t.Skip("no -ecma.hostile directory")
	}
	for _, h := range hostile {
		schema, err := json.Marshal(map[string]any{"type": "object", "patternProperties": map[string]any{h.pattern: map[string]any{"type": "array"}}})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{64 << 10, 256 << 10, 1 << 20, 4 << 20} {
			args, err := json.Marshal(map[string]string{h.key(n): "[1]"})
			if err != nil {
				t.Fatal(err)
			}
			base := filepath.Join(*hostileDir, fmt.Sprintf("%s-%d", h.name, n))
			if err := os.WriteFile(base+".schema.json", schema, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(base+".args.json", args, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
