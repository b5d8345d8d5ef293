package check_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// jsonOnly leaves references as they are without declaring it: every
// string with a reference in it differs from the reference.
var jsonOnly = impl.Func("json only", func(ctx context.Context, c impl.Case) impl.Result {
	c.Options.Repairs = normalize.JSONRepair
	return impl.Reference.Normalize(ctx, c)
})

// fuzz runs f from seed until it has run at least n cases: the run is
// stopped through its context, so that no test depends on the clock.
func fuzz(t *testing.T, f *check.Fuzzer, seed uint64, n int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := f.Run(ctx, seed, time.Now().Add(time.Hour), func(s check.Stats) {
		if s.Cases >= n {
			cancel()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFuzzerRun: a run reports each bucket once, to OnFinding as it finds
// it; the same seed runs the same cases; a run given the buckets of
// another as Known reports none of them again.
func TestFuzzerRun(t *testing.T) {
	var called []string
	f := &check.Fuzzer{Impl: jsonOnly, OnFinding: func(fd check.Finding) error {
		called = append(called, fd.Bucket)
		return nil
	}}
	fuzz(t, f, 1, 128)
	if f.Cases < 128 || len(f.Findings) == 0 {
		t.Fatalf("%d cases, %d findings: want 128 or more, and a finding", f.Cases, len(f.Findings))
	}
	var buckets []string
	for _, fd := range f.Findings {
		buckets = append(buckets, fd.Bucket)
		if !f.Known[fd.Bucket] {
			t.Errorf("bucket %s reported but not in Known", fd.Bucket)
		}
	}
	if !slices.Equal(called, buckets) {
		t.Errorf("OnFinding got %q, Findings are %q", called, buckets)
	}
	if len(slices.Compact(slices.Sorted(slices.Values(buckets)))) != len(buckets) {
		t.Errorf("a bucket reported twice: %q", buckets)
	}

	again := &check.Fuzzer{Impl: jsonOnly}
	fuzz(t, again, 1, 128)
	if again.Cases != f.Cases || len(again.Findings) != len(f.Findings) {
		t.Errorf("the same seed: %d cases, %d findings, then %d, %d", f.Cases, len(f.Findings), again.Cases, len(again.Findings))
	}

	resumed := &check.Fuzzer{Impl: jsonOnly, Known: f.Known}
	fuzz(t, resumed, 1, 128)
	if len(resumed.Findings) != 0 {
		t.Errorf("resumed with the buckets known, %d found again: %v", len(resumed.Findings), resumed.Findings[0].Bucket)
	}
}

// BenchmarkFuzzReference fuzzes the reference from the built-in corpus
// (a third of the cases are its vectors mutated), 1,024 cases an
// iteration: the fuzzer's own cost per case, as in toolnorm check.
func BenchmarkFuzzReference(b *testing.B) {
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		f := &check.Fuzzer{Impl: impl.Reference, Seeds: vectors}
		err := f.Run(ctx, 1, time.Now().Add(time.Hour), func(s check.Stats) {
			if s.Cases >= 1024 {
				cancel()
			}
		})
		cancel()
		if err != nil || len(f.Findings) != 0 {
			b.Fatal(err, f.Findings)
		}
	}
}
