package impl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/toolnorm/toolnorm/normalize"
)

// TestReferenceCachesRightly asks the reference the same schemas under
// different options, in an order that hits and misses its cache of
// compiled schemas, and wants every answer to be what a reference with no
// cache gives.
func TestReferenceCachesRightly(t *testing.T) {
	uncached := func(schema, args []byte, o Options) Result {
		return reference(context.Background(), &schemas{}, schema, args, o) // a new cache each time: always a miss
	}
	long := `{"type":"object","description":"` + strings.Repeat("x", maxCachedSchema) + `"}`
	steps := []struct{ schema, args string }{
		{`{"type":"object","properties":{"a":{"type":"array"}}}`, `{"a":"[1]","b":"&amp;amp;"}`},
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":"[1]","b":"&amp;amp;"}`},
		{`{"type":"object","properties":{"a":{"type":"array"}}}`, `{"a":"{}","b":"&lt;"}`},
		{`{"type":"float"}`, `{}`}, // an error, cached as one
		{`{"type":"float"}`, `{"a":1}`},
		{`{"type":"object","properties":{"a":{"type":"array"}}}`, `[]`},
		{long, `{"a":"&amp;"}`}, // too long to keep
		{long, `{"a":"&amp;amp;"}`},
	}
	options := []Options{{}, {MaxPasses: 1}, {Profile: normalize.Attribute}, {Depth: normalize.TopLevel}, {Repairs: normalize.JSONRepair}, {Repairs: normalize.EntityRepair}}
	c := &schemas{}
	for round := range 2 {
		for _, o := range options {
			for _, s := range steps {
				got := reference(context.Background(), c, []byte(s.schema), []byte(s.args), o)
				want := uncached([]byte(s.schema), []byte(s.args), o)
				if got.String() != want.String() {
					t.Errorf("round %d, %s, %.60s on %s: got %s, want %s", round, o, s.schema, s.args, got, want)
				}
			}
		}
	}
	if c.m.n != 3*len(options) {
		t.Errorf("the cache holds %d schemas, want %d (3 short schemas under %d options)", c.m.n, 3*len(options), len(options))
	}
}

// TestReferenceCacheBounded fills the cache past its bound and wants its
// newer generation to become the older, not grow; a schema found in the
// older is moved to the newer, and the oldest are forgotten.
func TestReferenceCacheBounded(t *testing.T) {
	c := &schemas{}
	for i := range maxCached + 10 {
		if _, err := c.compile(context.Background(), fmt.Appendf(nil, `{"description":"%d"}`, i), Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if c.m.n != 10 || c.old.n != maxCached {
		t.Errorf("after %d schemas the cache holds %d and %d, want 10 and %d", maxCached+10, c.m.n, c.old.n, maxCached)
	}
	first := fmt.Appendf(nil, `{"description":"%d"}`, 0)
	s, err := c.compile(context.Background(), first, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.m.n != 11 || c.old.n != maxCached-1 {
		t.Errorf("a schema of the older generation: the cache holds %d and %d, want 11 and %d", c.m.n, c.old.n, maxCached-1)
	}
	if again, _ := c.compile(context.Background(), first, Options{}); again != s {
		t.Error("a schema moved to the newer generation was compiled again")
	}
	for i := range 2 * maxCached {
		if _, err := c.compile(context.Background(), fmt.Appendf(nil, `{"description":"x%d"}`, i), Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if c.m.n+c.old.n > 2*maxCached {
		t.Errorf("the cache holds %d schemas, more than %d", c.m.n+c.old.n, 2*maxCached)
	}
	if _, ok := c.m.get(first, Options{}); ok {
		t.Error("the oldest schema is still in the newer generation")
	}
	if _, ok := c.old.get(first, Options{}); ok {
		t.Error("the oldest schema is still in the older generation")
	}
}

// TestReferenceConcurrent runs the reference from several goroutines on
// the same schemas (go test -race tells whether the cache is shared
// safely).
func TestReferenceConcurrent(t *testing.T) {
	im := ReferenceWith()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				schema := fmt.Appendf(nil, `{"type":"object","properties":{"a%d":{"type":"array"}}}`, i%7)
				args := fmt.Appendf(nil, `{"a%d":"[%d]"}`, i%7, g)
				want := fmt.Sprintf(`{"a%d":[%d]}`, i%7, g)
				if got := im.Normalize(context.Background(), Case{Schema: schema, Args: args}); string(got.Output) != want {
					t.Errorf("got %s, want %s", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// The reference stops when its context is done: a case it did not run to
// its end is a failure ErrNotRun, not an answer, and a compile it stopped
// is not kept for the next case.
func TestReferenceStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := &schemas{}
	r := reference(ctx, c, []byte(`{"type":"object"}`), []byte(`{"a":"&amp;"}`), Options{})
	if !errors.Is(r.Failure, ErrNotRun) {
		t.Fatalf("with its context done: %v, want a failure ErrNotRun", r)
	}
	r = reference(context.Background(), c, []byte(`{"type":"object"}`), []byte(`{"a":"&amp;"}`), Options{})
	if r.Failure != nil || string(r.Output) != `{"a":"&"}` {
		t.Fatalf("after a stopped compile: %v, want the answer", r)
	}
}

// BenchmarkReferenceCached asks the reference about a schema it has
// compiled, as the judge of a case does after the implementation: the
// cost of finding the schema in the cache, and of normalizing.
func BenchmarkReferenceCached(b *testing.B) {
	schema := []byte(`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"b":{"type":"string","maxLength":10}},"required":["a"],"description":"` + strings.Repeat("x", 300) + `"}`)
	args := []byte(`{"a":"[\"&amp;\"]","b":"x"}`)
	c := &schemas{}
	b.ReportAllocs()
	for b.Loop() {
		reference(context.Background(), c, schema, args, Options{})
	}
}
