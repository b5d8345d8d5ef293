package check_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
	"github.com/toolnorm/toolnorm/internal/cputime"
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
func fuzz(t testing.TB, f *check.Fuzzer, seed uint64, n int) {
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
	for _, fd := range f.Findings {
		if p := corpus.Check(fd.Vector); len(p) > 0 {
			t.Errorf("bucket %s: its vector is not valid: %v", fd.Bucket, p)
		}
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

// TestFuzzFindingTitled: with Titled, a finding's vector is described,
// and so named, by its root cause's title, its bucket after it; without,
// by its bucket and how it differs.
func TestFuzzFindingTitled(t *testing.T) {
	f := &check.Fuzzer{Impl: jsonOnly, Titled: true}
	fuzz(t, f, 1, 64)
	if len(f.Findings) == 0 {
		t.Fatal("no finding")
	}
	for _, fd := range f.Findings {
		d := fd.Vector.Description
		if strings.HasPrefix(d, "Fuzzing finding") || !strings.HasSuffix(d, " (fuzzing bucket "+fd.Bucket+")") || !strings.Contains(d, "reference") {
			t.Errorf("bucket %s: description %q, want the root cause's title (the entity repair's names references), then the bucket", fd.Bucket, d)
		}
		if name := fd.Vector.FileName(); strings.HasPrefix(name, "fuzzing-finding") {
			t.Errorf("bucket %s: file %s", fd.Bucket, name)
		}
	}
	plain := &check.Fuzzer{Impl: jsonOnly}
	fuzz(t, plain, 1, 64)
	if d := plain.Findings[0].Vector.Description; !strings.HasPrefix(d, "Fuzzing finding "+plain.Findings[0].Bucket) {
		t.Errorf("without Titled: %q", d)
	}
}

// BenchmarkFuzzReference fuzzes the reference from the built-in corpus
// (a third of the cases are its vectors mutated, a sixth drawn by the
// schema search), 1,024 cases an iteration: the fuzzer's own cost per
// case, as in toolnorm check. It reports cases per second of wall time
// and, steadier on a shared machine, the process's CPU time per case
// (cpu-µs/case: every core, the garbage collector's too).
func BenchmarkFuzzReference(b *testing.B) {
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cases, cpu := 0, cputime.Used()
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
		cases += f.Cases
	}
	reportCases(b, cases, cputime.Used()-cpu)
}

// reportCases reports cases per second of wall time and the CPU time per
// case of a benchmark that ran cases and used cpu.
func reportCases(b *testing.B, cases int, cpu time.Duration) {
	b.ReportMetric(float64(cases)/b.Elapsed().Seconds(), "cases/s")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(cases), "cpu-µs/case")
	}
}

// TestFuzzFindingsTogether: the new differences of a step, on a program
// behind the protocol, are minimized at once, their candidates in shared
// batches, one batch at a time, none alone; the findings, their buckets, vectors and
// order, and the counts, are those of minimizing them one after another
// (an implementation in the process).
func TestFuzzFindingsTogether(t *testing.T) {
	// Half a repair each, by the length of the arguments: bugs of several
	// buckets.
	halves := impl.Func("halves", func(ctx context.Context, c impl.Case) impl.Result {
		c.Options.Repairs = []normalize.Repairs{normalize.JSONRepair, normalize.EntityRepair}[len(c.Args)%2]
		return impl.Reference.Normalize(ctx, c)
	})
	serial := &check.Fuzzer{Impl: halves}
	fuzz(t, serial, 1, 256)
	b := &impltest.Recorder{Impl: halves}
	together := &check.Fuzzer{Impl: b}
	fuzz(t, together, 1, 256)
	if len(serial.Findings) < 2 {
		t.Fatalf("%d findings, want several", len(serial.Findings))
	}
	a, _ := json.Marshal(serial.Findings)
	c, _ := json.Marshal(together.Findings)
	if !bytes.Equal(a, c) || serial.Cases != together.Cases || serial.Failures != together.Failures {
		t.Errorf("one after another and together differ:\n%.2000s\n%.2000s", a, c)
	}
	if b.Alone() > 0 {
		t.Errorf("%d cases sent alone", b.Alone())
	}
	if b.MostAtOnce() > 1 {
		t.Errorf("%d batches under way at once", b.MostAtOnce())
	}
	t.Logf("%d findings; %d batches, %d cases alone", len(together.Findings), b.Batches(), b.Alone())
}

// crashingBatcher records the batches it gets and, as a program that
// crashes does, fails a case whose arguments are short, of a multiple
// of 3 bytes, and every case after it in the batch.
type crashingBatcher struct {
	impl.Impl
	mu      sync.Mutex
	batches []string
}

func (b *crashingBatcher) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	out := make([]impl.Result, len(cases))
	var sent strings.Builder
	down := false
	for i, c := range cases {
		fmt.Fprintf(&sent, "%s %s|", c.Schema, c.Args)
		if down = down || len(c.Args) < 16 && len(c.Args)%3 == 0; down {
			out[i] = impl.Fail(impl.ErrCrash, "exit status 1")
		} else {
			out[i] = b.Impl.Normalize(ctx, c)
		}
	}
	b.mu.Lock()
	b.batches = append(b.batches, sent.String())
	b.mu.Unlock()
	return out
}

func (b *crashingBatcher) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return b.RunBatch(ctx, []impl.Case{c})[0]
}

// TestFuzzCrashRepeatable: on a program that crashes, the batches the
// new differences of a step are minimized in, and so the failures and
// findings, are the same run after run, however the minimizing
// goroutines are scheduled.
func TestFuzzCrashRepeatable(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	halves := impl.Func("halves", func(ctx context.Context, c impl.Case) impl.Result {
		c.Options.Repairs = []normalize.Repairs{normalize.JSONRepair, normalize.EntityRepair}[len(c.Args)%2]
		return impl.Reference.Normalize(ctx, c)
	})
	var first *crashingBatcher
	var firstFindings []byte
	for rep := range 6 {
		runtime.GOMAXPROCS(1 + rep%3)
		b := &crashingBatcher{Impl: halves}
		f := &check.Fuzzer{Impl: b}
		fuzz(t, f, 3, 256) // a seed whose 256 cases crash and find several
		found, _ := json.Marshal(f.Findings)
		if rep == 0 {
			first, firstFindings = b, found
			if len(f.Findings) < 2 || f.Failures == 0 {
				t.Fatalf("%d findings, %d failures: want several of each", len(f.Findings), f.Failures)
			}
			continue
		}
		if !slices.Equal(b.batches, first.batches) {
			t.Errorf("repetition %d (GOMAXPROCS %d): %d batches, %d the first time, or in another order", rep, 1+rep%3, len(b.batches), len(first.batches))
		}
		if !bytes.Equal(found, firstFindings) {
			t.Errorf("repetition %d: findings differ:\n%.1000s\n%.1000s", rep, found, firstFindings)
		}
	}
}

// fuzzDigests pin what the fuzzer draws and what a check counts as
// searched, as properties.TestDrawnCasesUnchanged pins the properties'
// cases: a report names its cases by seed, so making drawing or counting
// faster must change neither. A change to what is drawn on purpose (the
// generators, the built-in corpus the fuzzer mutates) updates them, as it
// updates properties' drawnDigests.
var fuzzDigests = map[string]string{
	"drawn":    "dfc00d322dff23bd21707b4cfc963a11f6b4709419d12318abae187706b5e489",
	"searched": "2e379179a832be90591ed103cf782abe11b65838e1cb6cd5774b5dfd8a70bdda",
}

func TestFuzzDrawnUnchanged(t *testing.T) {
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	var mu sync.Mutex
	rec := impl.Func("recorded reference", func(ctx context.Context, c impl.Case) impl.Result {
		mu.Lock()
		fmt.Fprintf(h, "%q\x00%q\x00%+v\x00", c.Schema, c.Args, c.Options)
		mu.Unlock()
		return impl.Reference.Normalize(ctx, c)
	})
	fuzz(t, &check.Fuzzer{Impl: rec, Seeds: vectors}, 1, 2048)
	fuzz(t, &check.Fuzzer{Impl: rec}, 7, 1024)
	r := check.Run(context.Background(), check.Config{Impl: impl.Reference, Checks: 256, Seed: 1, Jobs: 1})
	searched, _ := json.Marshal(r.Searched)
	got := map[string]string{"drawn": hex.EncodeToString(h.Sum(nil)), "searched": fmt.Sprintf("%x", sha256.Sum256(searched))}
	for name, want := range fuzzDigests {
		if got[name] != want {
			t.Errorf("%s changed: digest %s, want %s", name, got[name], want)
		}
	}
}
