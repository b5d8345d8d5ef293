package normalize

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/oracle"
)

// chainedDynamicSchema is issue 21's hostile schema: levels of two
// embedded resources, both with the $dynamicAnchor of their level, each
// referring to both resources of the next level, down to a leaf that
// has a $dynamicRef for every level's name. Each path down binds the names
// its own way, so the dynamic scopes at the leaf number 2^levels.
func chainedDynamicSchema(levels int) []byte {
	var b strings.Builder
	b.WriteString(`{"$id":"https://x.test/root","$ref":"l0a","$defs":{`)
	for i := range levels {
		next := fmt.Sprintf(`"anyOf":[{"$ref":"l%da"},{"$ref":"l%db"}]`, i+1, i+1)
		if i == levels-1 {
			next = `"$ref":"leaf"`
		}
		for _, side := range []string{"a", "b"} {
			fmt.Fprintf(&b, `"l%d%s":{"$id":"l%d%s","$dynamicAnchor":"n%d","type":"object",%s},`, i, side, i, side, i, next)
		}
	}
	b.WriteString(`"leaf":{"$id":"leaf","$defs":{`)
	for i := range levels {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"n%d":{"$dynamicAnchor":"n%d"}`, i, i)
	}
	b.WriteString(`},"properties":{`)
	for i := range levels {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"p%d":{"$dynamicRef":"#n%d"}`, i, i)
	}
	b.WriteString(`}}}}`)
	return []byte(b.String())
}

// TestChainedDynamicScopesBounded: however the dynamic scopes multiply,
// Compile's work and memory stay bounded; past the documented limit the
// schema is refused, saying so. Measured in allocations, not time.
func TestChainedDynamicScopesBounded(t *testing.T) {
	// Three levels bind the names in fewer than maxScopes ways (2+4+8 down
	// the chain, and a few more from $defs compiled in the empty scope);
	// eight and more in hundreds.
	for _, levels := range []int{3, 8, 16, 24, 64} {
		schema := chainedDynamicSchema(levels)
		var err error
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		allocs := testing.AllocsPerRun(1, func() { _, err = Compile(schema) })
		runtime.ReadMemStats(&after)
		bytes := after.TotalAlloc - before.TotalAlloc
		t.Logf("%d levels, %d bytes of schema: %.0f allocations, %d bytes allocated, %v", levels, len(schema), allocs, bytes, err)
		if levels == 3 {
			if err != nil {
				t.Errorf("%d levels: %v, want it compiled", levels, err)
			}
		} else {
			var se *SchemaError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "dynamic scopes") {
				t.Errorf("%d levels: %v, want a SchemaError about dynamic scopes", levels, err)
			}
		}
		// Linear in the schema's size (twice: AllocsPerRun runs Compile once
		// more to warm up, which TotalAlloc counts).
		if limit := float64(len(schema)) * 10; allocs > limit {
			t.Errorf("%d levels: %.0f allocations, more than %.0f", levels, allocs, limit)
		}
		if limit := uint64(len(schema)) * 2000; bytes > limit {
			t.Errorf("%d levels: %d bytes allocated, more than %d", levels, bytes, limit)
		}
	}
}

func BenchmarkCompileChainedDynamicScopes(b *testing.B) {
	schema := chainedDynamicSchema(16)
	b.SetBytes(int64(len(schema)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(schema); err == nil {
			b.Fatal("compiled, want refused")
		}
	}
}

// TestDynamicRefFirstTargetAtRoot: a $dynamicRef whose first target is a
// document's root, found by a plain $anchor, binds dynamically when the
// root's resource has no $dynamicAnchor of that name, as before issue 34
// and as the oracle reads it (the pointer of the root is "", and so is the
// pointer a missing name had).
func TestDynamicRefFirstTargetAtRoot(t *testing.T) {
	schema := []byte(`{"$id":"https://t.test/root","$anchor":"x","type":"object","$ref":"inner",` +
		`"$defs":{"inner":{"$id":"inner","$dynamicAnchor":"x","properties":{"p":{"$dynamicRef":"root#x"}}}}}`)
	args := []byte(`{"p":"{\"a\":1}"}`)
	s, err := Compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Normalize(args)
	want, oerr := oracle.Normalize(schema, args, oracle.Options{Draft: "draft2020-12"})
	if err != nil || oerr != nil || string(out) != string(want) || string(out) != string(args) {
		t.Errorf("Normalize = %s, %v; the oracle %s, %v; want the arguments unchanged", out, err, want, oerr)
	}
}
