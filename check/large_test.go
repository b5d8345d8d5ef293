package check

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// TestLargeAnswersCostWhatIsShown: a failing answer of 4 MB (2,000,000
// U+00A0, each shown as \u00a0) costs, to judge and show, what judging it
// costs (parsing it: twice its size): a report shows 2,000 bytes of it,
// and escapes no more than that. Each was escaped whole (12 MB shown),
// more than once (the message and the vector's got), then clipped: 147 MB
// allocated for each vector; against an adapter answering 1 MB so to
// every request, --budget 3s took 13.3 s and 767 MB.
func TestLargeAnswersCostWhatIsShown(t *testing.T) {
	vs := vectors(t)[:8]
	big := []byte(`{"x":"` + strings.Repeat("\u00a0", 2_000_000) + `"}`)
	im := impl.Func("large answers", func(ctx context.Context, c impl.Case) impl.Result { return impl.OK(big) })
	var res CorpusResult
	r := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			res = Replay(context.Background(), Config{Impl: im, Vectors: vs})
		}
	})
	if res.Failed+res.Errors == 0 {
		t.Fatalf("no vector failed: %+v", res)
	}
	for _, f := range append(res.Failures, res.ErrorList...) {
		if !strings.HasSuffix(f.Got, " more bytes)") || len(f.Got) > MaxShown+100 || len(f.Message) > 1000 {
			t.Errorf("%s: got %d bytes, message %d bytes", f.ID, len(f.Got), len(f.Message))
		}
	}
	per := r.AllocedBytesPerOp() / int64(len(vs))
	t.Logf("%d bytes allocated a vector, for an answer of %d", per, len(big))
	if per > 3*int64(len(big)) {
		t.Errorf("%d bytes allocated a vector, for an answer of %d bytes", per, len(big))
	}
}

// cancelling is the reference, which cancels the check (an interrupt, or
// the hard deadline) once it has answered n cases: the answers come back,
// and the check must not spend more time on them.
type cancelling struct {
	impl.Impl
	n      int
	cancel context.CancelFunc
}

func (c *cancelling) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	out := make([]impl.Result, len(cases))
	for i, k := range cases {
		out[i] = c.Impl.Normalize(ctx, k)
	}
	if c.n -= len(cases); c.n <= 0 {
		c.cancel()
	}
	return out
}

// TestStoppedBeforeJudging: the answers to a batch of the corpus that come
// back once the check was stopped (an interrupt, or its budget and grace
// spent) are not judged: judging a batch of large answers takes seconds,
// and they are counted as not run, with why. They were all judged, past
// the budget (--budget 3s judged 256 answers of 1 MB each for seconds).
func TestStoppedBeforeJudging(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	im := &cancelling{Impl: impl.Reference, n: 1, cancel: cancel}
	r := runChecked(t, ctx, Config{Impl: im, Vectors: vectors(t), Checks: 16, Seed: 1})
	c := r.Corpus
	if c.Passed != 0 || c.NotRun != c.Vectors-c.Skipped-c.Unimplemented || r.Verdict != Incomplete || r.Stopped != "interrupted" {
		t.Errorf("verdict %s, stopped %q, corpus %d passed, %d not run of %d", r.Verdict, r.Stopped, c.Passed, c.NotRun, c.Vectors)
	}
	for _, o := range c.Outcomes[:3] {
		if o.Outcome != OutcomeNotRun || o.Reason != "the check stopped before it was judged: interrupted" {
			t.Errorf("%s: %s (%s)", o.ID, o.Outcome, o.Reason)
		}
	}
}

// TestLargeAnswersKeptBounded: the failing answers the check keeps to
// explain are at most MaxKeptAnswers bytes in all, so that an adapter
// answering 256 KiB to each of 300 vectors does not have 75 MB held until
// the end (a megabyte to each of the corpus's vectors was 5 GB). The
// vectors past it are one root cause, unexplained, that says why; every
// failed vector is under exactly one root cause.
func TestLargeAnswersKeptBounded(t *testing.T) {
	vs := vectors(t)[:300]
	big := []byte(`{"x":"` + strings.Repeat("x", 256<<10) + `"}`)
	im := impl.Func("large answers", func(ctx context.Context, c impl.Case) impl.Result { return impl.OK(big) })
	r := Run(context.Background(), Config{Impl: im, Vectors: vs, Checks: 1, Seed: 1})
	if r.Corpus.Failed < 290 {
		t.Fatalf("%d vectors failed", r.Corpus.Failed)
	}
	under := 0
	var unkept *RootCause
	for i, rc := range r.RootCauses {
		under += len(rc.Vectors)
		if rc.ID == unexplainedID && strings.Contains(rc.Title, "not kept") {
			unkept = &r.RootCauses[i]
		}
	}
	if under != r.Corpus.Failed {
		t.Errorf("%d vectors under root causes, %d failed", under, r.Corpus.Failed)
	}
	if unkept == nil {
		t.Fatalf("no root cause for the answers not kept: %d root causes", len(r.RootCauses))
	}
	if n, most := len(unkept.Vectors), r.Corpus.Failed-MaxKeptAnswers/len(big); n < most {
		t.Errorf("%d vectors unexplained, want at least %d: %s", n, most, unkept.Title)
	}
	if !strings.Contains(unkept.Counterexample.Got, "more bytes)") {
		t.Errorf("its got is not cut: %.100s", unkept.Counterexample.Got)
	}
}
