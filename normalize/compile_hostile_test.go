package normalize

// The tests and benchmarks that hold Compile to a cost linear in the size
// of the hostile shapes of compile_shapes_test.go, counted, never timed.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

var dumpShapes = flag.String("compileshapes.dump", "", "write each hostile schema shape, at 64 KB, 256 KB, 1 MB and 4 MB, to `DIR`, for measuring by hand")

// TestDumpCompileShapes writes the shapes for measuring by hand
// (docs/performance.md): go test ./normalize -run TestDumpCompileShapes
// -args -compileshapes.dump DIR.
func TestDumpCompileShapes(t *testing.T) {
	if *dumpShapes == "" {
		t.Skip("no -compileshapes.dump")
	}
	if err := os.MkdirAll(*dumpShapes, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range compileShapes {
		for _, size := range shapeSizes {
			name := filepath.Join(*dumpShapes, s.name+"-"+size.name+".json")
			if err := os.WriteFile(name, s.build(size.n), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// maxGrowth is how much Compile's steps and allocations may grow from a
// shape at 16 KB to the same shape at 64 KB: four times the size, with
// room for a logarithm (n log n grows 4.6 times) and none for a square.
const maxGrowth = 5

// TestCompileHostileShapes holds every shape to a cost linear in its size,
// counted, not timed: the steps Compile counts and the bytes it allocates
// stay under a bound per byte, and grow at most maxGrowth times from 16 KB
// to 64 KB. It failed before issue 34 on deep and deeptilde (a pointer per
// schema: 3,500 bytes allocated per byte of schema at 64 KB, growing 15
// times), refchain (the chain followed from every hop: steps growing 16
// times), dynscopes (compiled sixty times over, where it is now refused),
// dynnames (the names copied into every scope), manyprops (a table of
// properties allocated for each of 128 tries) and ids (the URIs of nested
// $ids, now refused past a budget).
func TestCompileHostileShapes(t *testing.T) {
	for _, s := range compileShapes {
		t.Run(s.name, func(t *testing.T) {
			var last compileCost
			for _, size := range []int{16 << 10, 64 << 10} {
				schema := s.build(size)
				c := measureCompile(t, s, schema)
				t.Logf("%d bytes: %d steps (%.2f a byte), %d bytes allocated (%.1f a byte), %v",
					len(schema), c.steps, float64(c.steps)/float64(len(schema)), c.alloc, float64(c.alloc)/float64(len(schema)), c.err)
				if limit := int64(maxStepsPerByte*len(schema) + maxStepsFixed); c.steps > limit {
					t.Errorf("%d bytes: %d steps, more than %d", len(schema), c.steps, limit)
				}
				if limit := uint64(maxAllocPerByte*len(schema) + maxAllocFixed); c.alloc > limit {
					t.Errorf("%d bytes: %d bytes allocated, more than %d", len(schema), c.alloc, limit)
				}
				if last.steps > 0 {
					if g := float64(c.steps) / float64(last.steps); g > maxGrowth {
						t.Errorf("steps grew %.1f times from %d to %d bytes, more than %d", g, last.size, len(schema), maxGrowth)
					}
					if g := float64(c.alloc) / float64(last.alloc); g > maxGrowth {
						t.Errorf("bytes allocated grew %.1f times from %d to %d bytes, more than %d", g, last.size, len(schema), maxGrowth)
					}
				}
				last = c
			}
		})
	}
}

type compileCost struct {
	size  int
	steps int64
	alloc uint64
	err   error
}

// measureCompile compiles schema, of shape s, and checks that it is
// compiled or refused as s says.
func measureCompile(t *testing.T, s compileShape, schema []byte) compileCost {
	t.Helper()
	c := compileCost{size: len(schema)}
	c.alloc = allocated(func() { _, c.steps, c.err = compileCounted(context.Background(), schema, nil) })
	var se *SchemaError
	switch {
	case c.err != nil && (!errors.As(c.err, &se) || !errors.Is(c.err, ErrSchema)):
		t.Errorf("%d bytes: %v, not a SchemaError", len(schema), c.err)
	case c.err == nil && s.outcome == refused:
		t.Errorf("%d bytes: compiled, want it refused", len(schema))
	case c.err != nil && s.outcome == compiles:
		t.Errorf("%d bytes: %v, want it compiled", len(schema), c.err)
	}
	return c
}

// TestCompileRefusesBeforeTheWork: the shapes Compile refuses are refused
// early, with an error that says why and where, at a cost that is a
// fraction of what compiling them would take. Before issue 34, dynscopes
// compiled after 61 passes over its blob, and dynnames was refused (past
// 64 scopes) only after copying every name into each of them.
func TestCompileRefusesBeforeTheWork(t *testing.T) {
	tests := []struct {
		shape, want string
	}{
		{"dynscopes", "invalid schema: the dynamic scopes cost more than 12288 steps (one per 16 bytes of schema, and 8,192): the paths to this resource bind its $dynamicAnchor names (and those of the resources on the way) in more ways than toolnorm follows at /$defs/blob/properties/k"},
		{"dynnames", "steps (one per 16 bytes of schema, and 8,192): the paths to this resource bind its $dynamicAnchor names (and those of the resources on the way) in more ways than toolnorm follows at /$defs/big"},
		{"ids", `the URIs of the schema's identifiers and references add up to more than`},
	}
	for _, tt := range tests {
		s := shapeNamed(tt.shape)
		schema := s.build(64 << 10)
		c := measureCompile(t, s, schema)
		if c.err == nil || !strings.Contains(c.err.Error(), tt.want) {
			t.Errorf("%s: %v\nwant it to say %s", tt.shape, c.err, tt.want)
		}
		if limit := int64(len(schema)); c.steps > limit {
			t.Errorf("%s: refused after %d steps, more than %d", tt.shape, c.steps, limit)
		}
	}
}

// TestCompileDeepPointers: the pointer of an error deep in a deep schema
// is built when the error is, and says where, its keys escaped.
func TestCompileDeepPointers(t *testing.T) {
	schema := deepSchema(64<<10, "~/")
	bad := []byte(strings.Replace(string(schema), `"type":"array"`, `"type":"arrays"`, 1))
	_, err := Compile(bad)
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("Compile: %v, want a SchemaError", err)
	}
	key := strings.Repeat("~0~1", (len(schema)/deepLevels(len(schema))-20)/2)
	if want := strings.Repeat("/properties/"+key, deepLevels(len(schema))) + "/type"; se.Pointer != want {
		t.Errorf("Pointer %.80q..., want %.80q...", se.Pointer, want)
	}
}

// TestPropTab: a table of properties finds each property and no other,
// whatever its size, laid out once or again from its layout.
func TestPropTab(t *testing.T) {
	for _, n := range []int{1, 2, 7, 8, 9, 16, 100, 200, 256, 300, 1000, 2048, 2049} {
		keys := make([]string, n)
		nodes := make([]*node, n)
		props := map[string]any{}
		for i := range keys {
			keys[i] = fmt.Sprintf("property_%d", i*7919)
			if i%3 == 0 {
				keys[i] = strconv.Itoa(i)
			}
			nodes[i] = &node{}
			props[keys[i]] = true
		}
		for _, scoping := range []bool{false, true} {
			c := &compiler{r: &resolver{}}
			c.r.scoping = scoping
			for pass := range 2 {
				tab := c.newPropTab(props, keys, nodes)
				if tab == nil {
					if n <= 16 {
						t.Errorf("%d properties: no table", n)
					}
					continue
				}
				for i, k := range keys {
					if got := tab.lookup([]byte(k)); got != nodes[i] {
						t.Fatalf("%d properties, pass %d: lookup(%q) = %p, want %p", n, pass, k, got, nodes[i])
					}
					if got := tab.lookup([]byte(k + "x")); got != nil {
						t.Fatalf("%d properties, pass %d: lookup(%q) = %p, want nil", n, pass, k+"x", got)
					}
				}
			}
		}
	}
}

// TestCompileContext: a CompileContext whose context is done returns a
// SchemaError that wraps the context's error, and not ErrSchema: the
// schema was not found invalid.
func TestCompileContext(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	for _, tt := range []struct {
		ctx  context.Context
		want error
		msg  string
	}{
		{canceled, context.Canceled, "normalize: compiling the schema: stopped: context canceled"},
		{expired, context.DeadlineExceeded, "normalize: compiling the schema: stopped: context deadline exceeded"},
	} {
		s, err := CompileContext(tt.ctx, []byte(`{"type":"object"}`))
		var se *SchemaError
		if s != nil || !errors.As(err, &se) || !errors.Is(err, tt.want) || errors.Is(err, ErrSchema) || err.Error() != tt.msg {
			t.Errorf("CompileContext(%v) = %v, %v; want a SchemaError that is %v, not ErrSchema, saying %s", tt.want, s, err, tt.want, tt.msg)
		}
	}
	if _, err := CompileContext(context.Background(), []byte(`{"type":"object"}`)); err != nil {
		t.Errorf("CompileContext(Background): %v", err)
	}
}

// TestCompileContextStopsWithinCheckEvery: the context is asked every
// checkEvery steps, so that a Compile whose context is done mid-way stops
// within checkEvery steps (and the largest one step), not at its end.
func TestCompileContextStopsWithinCheckEvery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := &resolver{}
	r.start(ctx)
	for range checkEvery - 2 {
		r.step(1)
	}
	cancel()
	for r.err == nil && r.spent < 10*checkEvery {
		r.step(1)
	}
	if r.err == nil || r.spent != checkEvery || !errors.Is(r.err, context.Canceled) {
		t.Errorf("stopped after %d steps with %v, want after %d with context.Canceled", r.spent, r.err, checkEvery)
	}

	// A whole Compile: the context is canceled while the schema's
	// document is loaded, after the schema's index and before its
	// compile, which stops soon after.
	schema := []byte(`{"allOf":[{"$ref":"other.json"}],` + string(refChainSchema(256 << 10))[1:])
	_, full, err := compileCounted(context.Background(), schema, []Option{WithDocuments(map[string][]byte{"other.json": []byte(`{}`)})})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	load := WithLoader(func(string) ([]byte, error) { cancel(); return []byte(`{}`), nil })
	_, stopped, err := compileCounted(ctx, schema, []Option{load})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("compileCounted: %v, want context.Canceled", err)
	}
	if stopped > full/2 {
		t.Errorf("stopped after %d steps of %d", stopped, full)
	}
}

// BenchmarkCompileHostile compiles each shape at 64 KB, 256 KB, 1 MB and
// 4 MB, and reports the time, the bytes allocated and the steps counted
// per byte of schema (ns/B, B/B, steps/B): constant from one size to the
// next where the cost is linear (docs/performance.md, "Bounded on every
// input: compile").
func BenchmarkCompileHostile(b *testing.B) {
	for _, s := range compileShapes {
		for _, size := range shapeSizes {
			schema := s.build(size.n)
			b.Run(fmt.Sprintf("shape=%s/size=%s", s.name, size.name), func(b *testing.B) {
				b.SetBytes(int64(len(schema)))
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				var steps int64
				for b.Loop() {
					var err error
					_, steps, err = compileCounted(context.Background(), schema, nil)
					if err != nil && s.outcome == compiles || err == nil && s.outcome == refused {
						b.Fatalf("%v, want %v", err, s.outcome)
					}
				}
				runtime.ReadMemStats(&after)
				per := float64(b.N) * float64(len(schema))
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/B")
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/B")
				b.ReportMetric(float64(steps)/float64(len(schema)), "steps/B")
			})
		}
	}
}
