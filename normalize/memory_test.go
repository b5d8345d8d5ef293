package normalize

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// allocated returns how many bytes f allocates on the heap, all told:
// an upper bound of how much the heap grows while f runs, whatever the
// garbage collector does meanwhile.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestPeakHeap holds the memory targets of docs/performance.md: a
// realistic argument of about 1 MB needs at most 3 times its size of heap,
// result included, and the adversarial one at most 16 times. It counts
// every byte allocated, freed or not, so the peak is at most that.
func TestPeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 1 MB arguments")
	}
	large := benchCaseOf("large")
	s, err := Compile(large.schema)
	if err != nil {
		t.Fatal(err)
	}
	adversarial := []byte(`{"q":"` + adversarialText(262143) + `"}`)
	for _, tc := range []struct {
		name  string
		args  []byte
		limit float64
	}{
		{"large/clean", large.clean, 3},
		{"large/dirty", large.dirty, 3},
		{"adversarial", adversarial, 16},
	} {
		n := allocated(func() {
			if sinkBytes, err = s.Normalize(tc.args); err != nil {
				t.Fatal(err)
			}
		})
		ratio := float64(n) / float64(len(tc.args))
		t.Logf("%s: %d bytes in, %d bytes allocated (%.2fx)", tc.name, len(tc.args), n, ratio)
		if ratio > tc.limit {
			t.Errorf("%s: allocated %.2f times the argument's size, want at most %v", tc.name, ratio, tc.limit)
		}
	}
	text := adversarialText(262143)
	n := allocated(func() { sinkString = DecodeEntities(text) })
	ratio := float64(n) / float64(len(text))
	t.Logf("DecodeEntities(adversarial): %d bytes in, %d bytes allocated (%.2fx)", len(text), n, ratio)
	if ratio > 16 {
		t.Errorf("DecodeEntities(adversarial): allocated %.2f times the text's size, want at most 16", ratio)
	}
}

// TestCleanAllocs holds the clean path to no allocation: the result is
// the arguments themselves.
func TestCleanAllocs(t *testing.T) {
	for _, c := range benchCases() {
		s, err := Compile(c.schema)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(5, func() { sinkBytes, _ = s.Normalize(c.clean) }); n != 0 {
			t.Errorf("%s clean arguments: %v allocations, want 0", c.size, n)
		}
	}
}

// TestPatternKeyCopiedOnce: a key is copied once for all the patterns it
// is tried against, not once per pattern. Under 20 patterns without a
// literal prefix, 2,000 distinct keys cost 20 copies each (and one more
// for the key kept): 21 allocations a key.
func TestPatternKeyCopiedOnce(t *testing.T) {
	var schema, args strings.Builder
	schema.WriteString(`{"type":"object","patternProperties":{`)
	const patterns, keys = 20, 2000
	for i := range patterns {
		if i > 0 {
			schema.WriteByte(',')
		}
		fmt.Fprintf(&schema, `"_%d$":{"type":"array"}`, i)
	}
	schema.WriteString(`}}`)
	args.WriteByte('{')
	for i := range keys {
		if i > 0 {
			args.WriteByte(',')
		}
		fmt.Fprintf(&args, `"key_number_%d":"&amp;"`, i)
	}
	args.WriteByte('}')
	s, err := Compile([]byte(schema.String()))
	if err != nil {
		t.Fatal(err)
	}
	in := []byte(args.String())
	n := testing.AllocsPerRun(3, func() {
		if sinkBytes, err = s.Normalize(in); err != nil {
			t.Fatal(err)
		}
	})
	perKey := n / keys
	t.Logf("%d keys under %d patterns: %.0f allocations, %.2f a key", keys, patterns, n, perKey)
	if perKey > 2 {
		t.Errorf("%.2f allocations a key, want at most 2: the key copied once for all its patterns", perKey)
	}
}
