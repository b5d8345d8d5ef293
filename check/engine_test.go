package check

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
	"github.com/toolnorm/toolnorm/normalize"
	"github.com/toolnorm/toolnorm/properties"
)

// slowed is the reference, each answer taking d. The tests that use it
// run in a synctest bubble, where time is virtual: budgets are tested
// without waiting.
func slowed(d time.Duration) impl.Impl {
	return impl.Func("slowed reference", func(ctx context.Context, c impl.Case) impl.Result {
		select {
		case <-ctx.Done():
			return impl.Fail(impl.ErrNotRun, context.Cause(ctx).Error())
		case <-time.After(d):
		}
		return impl.Reference.Normalize(ctx, c)
	})
}

// timeless is r as JSON, without the times it was made at and took: what
// two runs that repeat each other agree on.
func timeless(t *testing.T, r *Report) []byte {
	t.Helper()
	r.Started, r.Seconds, r.Corpus.Seconds, r.Fuzz.Seconds = time.Time{}, 0, 0, 0
	for i := range r.Properties {
		r.Properties[i].Seconds = 0
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func vectors(t *testing.T) []*corpus.Vector {
	t.Helper()
	vs, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestSlowedNoFalseViolation: an implementation slowed by 3 ms an answer,
// with a 20 s budget: the check stops on time, between cases, and finds
// nothing, since no answer is ever taken from anyone but the
// implementation (the deadline used to hand the second run of a case to
// the reference); and it says it is incomplete: the corpus was not all
// replayed.
func TestSlowedNoFalseViolation(t *testing.T) {
	vs := vectors(t)
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		r := runChecked(t, context.Background(), Config{Impl: slowed(3 * time.Millisecond), Vectors: vs, Budget: 20 * time.Second, Seed: 5})
		if r.Verdict != Incomplete || r.Violations() != 0 {
			t.Fatalf("verdict %s with %d violations: %+v", r.Verdict, r.Violations(), r.Properties)
		}
		if r.Stopped != "the budget was spent" || r.Corpus.NotRun == 0 {
			t.Errorf("stopped %q, %d vectors not run: the corpus alone takes more than half the budget", r.Stopped, r.Corpus.NotRun)
		}
		// Rounds are whole: past the budget by at most one round (11
		// properties and the fuzzer, 16 cases each, up to two runs a case).
		if over := time.Since(start) - 20*time.Second; over > 12*roundSize*2*3*time.Millisecond {
			t.Errorf("past the budget by %v", over)
		}
		if r.Checks == 0 || r.Checks%roundSize != 0 {
			t.Errorf("checks %d: want whole rounds", r.Checks)
		}
	})
}

// TestHardDeadline: a request never waits past what is left of the
// budget but for a grace of a tenth of it, at most half a second, for the
// one under way; then it is stopped, and the check ends. (It used to wait
// a tenth more, at least a second: --budget 1s ran 2 s.)
func TestHardDeadline(t *testing.T) {
	vs := vectors(t)
	for _, tt := range []struct{ budget, end time.Duration }{
		{time.Second, 1100 * time.Millisecond},             // a tenth past
		{1500 * time.Millisecond, 1650 * time.Millisecond}, // a tenth past
		{4 * time.Second, 4400 * time.Millisecond},         // a tenth past
		{30 * time.Second, 30500 * time.Millisecond},       // half a second past
	} {
		synctest.Test(t, func(t *testing.T) {
			hangs := slowed(time.Hour)
			start := time.Now()
			r := runChecked(t, context.Background(), Config{Impl: hangs, Vectors: vs, Budget: tt.budget, Seed: 5})
			if took := time.Since(start); took != tt.end {
				t.Errorf("budget %v: the check took %v, want %v", tt.budget, took, tt.end)
			}
			if r.Stopped != "the budget was spent" || r.Corpus.NotRun != r.Corpus.Vectors-r.Corpus.Skipped || r.Verdict != Incomplete {
				t.Errorf("budget %v: stopped %q, verdict %s, corpus %+v", tt.budget, r.Stopped, r.Verdict, r.Corpus)
			}
		})
	}
}

// TestBudgetFromStart: a budget counted from Config.Start (the command's
// start, before it read the corpus and started the adapter) ends the check
// that much sooner: the budget bounds the whole command.
func TestBudgetFromStart(t *testing.T) {
	vs := vectors(t)
	synctest.Test(t, func(t *testing.T) {
		began := time.Now()
		time.Sleep(400 * time.Millisecond) // reading the corpus, starting the adapter
		r := runChecked(t, context.Background(), Config{Impl: slowed(time.Hour), Vectors: vs, Budget: time.Second, Seed: 5, Start: began})
		if took := time.Since(began); took != 1100*time.Millisecond {
			t.Errorf("the command took %v, want the budget and its grace, 1.1s", took)
		}
		if !r.Started.Equal(began.UTC().Truncate(time.Second)) || r.Seconds != 1.1 {
			t.Errorf("started %v, %v s; want %v, 1.1 s", r.Started, r.Seconds, began.UTC().Truncate(time.Second))
		}
	})
}

// TestFailuresAreNotViolations: an implementation that crashes on the
// first run of every case and answers the second (as one that dies on
// every other request does) breaks no property: what it failed on is not
// judged, and counted apart.
func TestFailuresAreNotViolations(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]bool{}
	im := impl.Func("crashes first", func(ctx context.Context, c impl.Case) impl.Result {
		schema, args, o := c.Schema, c.Args, c.Options
		mu.Lock()
		defer mu.Unlock()
		k := string(schema) + "\x00" + string(args)
		if !seen[k] {
			seen[k] = true
			return impl.Fail(impl.ErrCrash, "exit status 1")
		}
		return impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
	})
	r := runChecked(t, context.Background(), Config{Impl: im, Vectors: vectors(t)[:50], Checks: 32, Seed: 3})
	if r.Violations() != 0 {
		t.Errorf("%d violations: %+v", r.Violations(), r.Properties)
	}
	if r.Corpus.Errors < 45 || r.Verdict != Fail || r.Failures() == 0 {
		t.Errorf("corpus errors %d, verdict %s, failures %d", r.Corpus.Errors, r.Verdict, r.Failures())
	}
	// A property whose every case failed is not checked, not held.
	for _, p := range r.Properties {
		if p.Status == StatusHolds && p.Checks == 0 {
			t.Errorf("%s holds with no check", p.ID)
		}
	}

	dead := impl.Func("traceback", func(ctx context.Context, c impl.Case) impl.Result {
		return impl.Fail(impl.ErrProtocol, "the answer is not a JSON object: \"Traceback\"")
	})
	r = runChecked(t, context.Background(), Config{Impl: dead, Vectors: vectors(t)[:20], Checks: 16, Seed: 3})
	for _, p := range r.Properties {
		if p.Status != StatusNotChecked || p.Reason == "" {
			t.Errorf("%s: %s (%s), want not checked", p.ID, p.Status, p.Reason)
		}
	}
	if r.Verdict != Fail || r.Violations() != 0 {
		t.Errorf("verdict %s, %d violations", r.Verdict, r.Violations())
	}
}

// TestSeedRepeats: the same seed and checks give the same report, timing
// apart, and a budget-bound run's repeat command runs what it ran.
func TestSeedRepeats(t *testing.T) {
	buggy := impl.Func("one pass", func(ctx context.Context, c impl.Case) impl.Result {
		schema, args, o := c.Schema, c.Args, c.Options
		o.MaxPasses = 1
		return impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
	})
	vs := vectors(t)
	run := func(jobs int) []byte {
		r := runChecked(t, context.Background(), Config{Impl: buggy, Vectors: vs, Checks: 48, Seed: 11, Jobs: jobs})
		return timeless(t, r)
	}
	a, b := run(1), run(1)
	if !bytes.Equal(a, b) {
		t.Errorf("two runs with one seed differ:\n%.3000s\n%.3000s", a, b)
	}
	// Whatever Jobs is, the same report: cases, findings and their order
	// are the seed's, not the order in which rounds end.
	for _, jobs := range []int{2, 5} {
		if c := run(jobs); !bytes.Equal(a, c) {
			t.Errorf("--jobs 1 and --jobs %d differ:\n%.3000s\n%.3000s", jobs, a, c)
		}
	}
	var r Report
	json.Unmarshal(a, &r)
	if r.Violations() == 0 || r.Checks != 48 || r.Repeat != "toolnorm check --seed 11 --checks 48" {
		t.Errorf("violations %d, checks %d, repeat %q", r.Violations(), r.Checks, r.Repeat)
	}
	for _, p := range r.Properties {
		if p.Violation == nil && p.Cases != 48 {
			t.Errorf("%s ran %d cases, want 48", p.ID, p.Cases)
		}
	}
	if r.Fuzz.Cases != 48 {
		t.Errorf("fuzzing ran %d cases, want 48", r.Fuzz.Cases)
	}
}

// TestBoundedReference: the reference with a declared pass bound passes
// its own check: the properties about the fixpoint are not applicable, the
// rest hold, and the vectors that mean the same under the bound are
// replayed.
func TestBoundedReference(t *testing.T) {
	r := runChecked(t, context.Background(), Config{Impl: impl.Configure(impl.Options{MaxPasses: 1}), Vectors: vectors(t), Checks: 32, Seed: 2})
	if r.Verdict != Pass {
		t.Fatalf("verdict %s: %+v %+v", r.Verdict, r.Corpus.Failures, r.Properties)
	}
	na := 0
	for _, p := range r.Properties {
		switch {
		case p.Status == StatusNotApplicable:
			na++
		case p.Status != StatusHolds || p.Checks == 0:
			t.Errorf("%s: %s after %d checks", p.ID, p.Status, p.Checks)
		}
	}
	if na != 2 {
		t.Errorf("%d properties not applicable, want 2 (leaves-are-fixpoints, idempotent)", na)
	}
	if c := r.Corpus; c.Passed < c.Vectors*9/10 || c.Adapted == 0 {
		t.Errorf("corpus: %d of %d passed, %d adapted", c.Passed, c.Vectors, c.Adapted)
	}
}

// TestInterrupt: a check interrupted reports what ran, as interrupted.
func TestInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	im := impl.Func("counted", func(ctx context.Context, c impl.Case) impl.Result {
		schema, args, o := c.Schema, c.Args, c.Options
		if n++; n == 300 {
			cancel()
		}
		return impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
	})
	r := runChecked(t, ctx, Config{Impl: im, Vectors: vectors(t), Checks: 1000, Seed: 1})
	if r.Verdict != Incomplete || r.Stopped != "interrupted" || r.Corpus.Passed == 0 || r.Corpus.NotRun == 0 {
		t.Errorf("verdict %s, stopped %q, corpus %+v", r.Verdict, r.Stopped, r.Corpus)
	}
	c := r.Corpus
	if c.Passed+c.Failed+c.Errors+c.Skipped+c.NotRun != c.Vectors {
		t.Errorf("corpus counts do not add up: %+v", c)
	}
}

// TestHalfImplementations: an implementation that declares one repair is
// checked in full on it; the repair it leaves out is said once, makes the
// verdict fail, and its own bug is found (the render package's
// TestHalfImplementationsFirstGroup: and is what its report shows first).
func TestHalfImplementations(t *testing.T) {
	vs := vectors(t)
	tests := []struct {
		im       impltest.Declaring
		missing  string
		inapplic string // the property about the missing repair
	}{
		{impltest.Declaring{Called: "JSON only, top level only", Repairs: normalize.JSONRepair, Bug: func(o impl.Options) impl.Options { o.Depth = normalize.TopLevel; return o }},
			"the entity repair (rule/4)", "leaves-are-fixpoints"},
		{impltest.Declaring{Called: "entities only, one pass", Repairs: normalize.EntityRepair, Bug: func(o impl.Options) impl.Options { o.MaxPasses = 1; return o }},
			"the JSON repair (rule/2, rule/3)", "shape-match-decoded"},
	}
	for _, tt := range tests {
		t.Run(tt.im.Called, func(t *testing.T) {
			r := runChecked(t, context.Background(), Config{Impl: tt.im, Vectors: vs, Checks: 32, Seed: 3})
			if r.NotImplemented != tt.missing || r.Verdict != Fail {
				t.Errorf("not implemented %q, verdict %s; want %q, fail", r.NotImplemented, r.Verdict, tt.missing)
			}
			if r.Corpus.Unimplemented == 0 {
				t.Errorf("no vector counted as needing the missing repair: %s", fmt.Sprintf("%+v", r.Corpus))
			}
			c := r.Corpus
			if c.Passed+c.Failed+c.Errors+c.Skipped+c.Unimplemented+c.NotRun != c.Vectors {
				t.Errorf("the counts do not add up: %s", fmt.Sprintf("%+v", c))
			}
			for _, p := range r.Properties {
				if p.ID == tt.inapplic && p.Status != StatusNotApplicable {
					t.Errorf("%s: %s, want not applicable", p.ID, p.Status)
				}
			}
			// Its own bug is found, and nothing is blamed on the repair it
			// declared it does not do: the reference doing the same repair
			// without the bug agrees with every expected result it was
			// judged by.
			if r.Violations() == 0 {
				t.Fatalf("its bug was not found: %s", fmt.Sprintf("%+v", c))
			}
			clean := impltest.Declaring{Called: tt.im.Called, Repairs: tt.im.Repairs}
			for _, f := range c.Failures {
				for _, v := range vs {
					if v.ID == f.ID && !corpus.Replay(v, impl.Configure(clean.Options())).Pass {
						t.Errorf("vector %s is blamed, but the reference doing the same repair fails it too", f.File)
					}
				}
			}
		})
	}
}

// TestDeclaredRepairsDecideWhatIsJudged: an implementation that does one
// repair, and does it right, is judged on nothing the other repair does:
// an entity decoder never reads the schema, so the vectors about broken
// schemas need the JSON repair; a JSON repair never decodes references.
// Those vectors are counted as needing the repair not implemented.
func TestDeclaredRepairsDecideWhatIsJudged(t *testing.T) {
	vs := vectors(t)
	tests := []struct {
		name    string
		repairs normalize.Repairs
		run     func(ctx context.Context, c impl.Case) impl.Result
		need    func(v *corpus.Vector) bool // vectors that must count as needing the other repair
	}{
		{"entity decoder that never reads the schema", normalize.EntityRepair,
			func(ctx context.Context, c impl.Case) impl.Result {
				return impl.Reference.Normalize(ctx, impl.Case{Schema: []byte(`{}`), Args: c.Args, Options: impl.Options{Repairs: normalize.EntityRepair}})
			},
			func(v *corpus.Vector) bool { return string(v.Error) == string(impl.ErrInvalidSchema) }},
		{"JSON repair that never decodes a reference", normalize.JSONRepair,
			func(ctx context.Context, c impl.Case) impl.Result {
				return impl.Reference.Normalize(ctx, impl.Case{Schema: c.Schema, Args: c.Args, Options: impl.Options{Repairs: normalize.JSONRepair}})
			},
			func(v *corpus.Vector) bool { return false }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im := impltest.Declaring{Called: tt.name, Repairs: tt.repairs}
			r := runChecked(t, context.Background(), Config{Impl: declared{im, tt.run}, Vectors: vs, Checks: 32, Seed: 4})
			if r.Violations() != 0 || r.Failures() != 0 {
				t.Errorf("%d violations, %d failures of the program", r.Violations(), r.Failures())
				for _, f := range r.Corpus.Failures {
					t.Logf("judged on %s (%s): %s", f.File, f.Clause, f.Message)
				}
			}
			byID := map[string]Outcome{}
			for _, o := range r.Corpus.Outcomes {
				byID[o.ID] = o.Outcome
			}
			for _, v := range vs {
				if tt.need(v) && byID[v.ID] != OutcomeUnimplemented {
					t.Errorf("%s: %s, want %s", v.File, byID[v.ID], OutcomeUnimplemented)
				}
			}
			if r.Corpus.Unimplemented == 0 || r.Verdict != Fail {
				t.Errorf("%d needing the other repair, verdict %s", r.Corpus.Unimplemented, r.Verdict)
			}
		})
	}
}

// declared is impltest.Declaring's declaration with a function of its own.
type declared struct {
	impltest.Declaring
	run func(ctx context.Context, c impl.Case) impl.Result
}

func (d declared) Normalize(ctx context.Context, c impl.Case) impl.Result { return d.run(ctx, c) }

// TestCountsAddUp: every case drawn is counted once: a property's cases
// are its checks, failures, cases that lost the premise, cases that did not
// reach the implementation and the one that broke it; fuzzing's are those
// that agreed, differed, failed and were answered unsupported.
func TestCountsAddUp(t *testing.T) {
	var mu sync.Mutex
	n := 0
	im := impl.Func("unsupported now and then", func(ctx context.Context, c impl.Case) impl.Result {
		mu.Lock()
		defer mu.Unlock()
		switch n++; n % 7 {
		case 3:
			return impl.Fail(impl.ErrNotSendable, "unsupported: the language cannot hold it")
		case 5:
			return impl.Fail(impl.ErrCrash, "exit status 1")
		}
		return impl.Reference.Normalize(ctx, c)
	})
	const checks = 48
	// Run, not runChecked: this implementation fails by the count of its
	// calls, not by the case, so a counterexample replayed need not fail.
	r := Run(context.Background(), Config{Impl: im, Vectors: vectors(t)[:40], Checks: checks, Seed: 6})
	if f := r.Fuzz; f.Cases != checks || f.Unsupported == 0 || f.Agreed()+f.Differed+f.Failures+f.Unsupported != f.Cases {
		t.Errorf("fuzzing: %d cases of %d drawn: %+v", f.Cases, checks, f)
	}
	for _, p := range r.Properties {
		violated := 0
		if p.Violation != nil {
			violated = 1
		}
		if p.Checks+p.Failures+p.Moot+p.Unsent+violated != p.Cases || p.Violation == nil && p.Cases != checks {
			t.Errorf("%s: %d cases of %d drawn; %d checks + %d failures + %d moot + %d unsent + %d violated", p.ID, p.Cases, checks, p.Checks, p.Failures, p.Moot, p.Unsent, violated)
		}
	}
	c := r.Corpus
	if c.Passed+c.Failed+c.Errors+c.Skipped+c.Unimplemented+c.NotRun != c.Vectors {
		t.Errorf("corpus: %+v", c)
	}
	// Every failure of the program is under a root cause: the corpus's as
	// vectors, the properties' and fuzzing's as failed cases, counted
	// where they were.
	vectors, failed := 0, map[string]int{}
	for _, rc := range r.RootCauses {
		if rc.Clause != "failure" {
			continue
		}
		vectors += len(rc.Vectors)
		n := 0
		for _, f := range rc.FailedIn {
			failed[f.ID] += f.Cases
			n += f.Cases
		}
		if n != rc.FailedCases || rc.Command == "" {
			t.Errorf("%s: %d failed cases, %+v, command %q", rc.Title, rc.FailedCases, rc.FailedIn, rc.Command)
		}
	}
	if vectors != c.Errors {
		t.Errorf("%d vectors under failures' root causes, %d failures of the program in the corpus", vectors, c.Errors)
	}
	for _, p := range r.Properties {
		if failed[p.ID] != p.Failures {
			t.Errorf("%s: %d failed cases under root causes, %d failures of the program", p.ID, failed[p.ID], p.Failures)
		}
	}
	if failed[FuzzingID] != r.Fuzz.Failures || r.Fuzz.Failures == 0 {
		t.Errorf("fuzzing: %d failed cases under root causes, %d failures of the program", failed[FuzzingID], r.Fuzz.Failures)
	}
}

// TestMinimizingFailuresUnderRootCauses: the failures of the program met
// while minimizing are counted by the root cause of their class, so that
// what the root causes count and the failures listed apart add up to the
// failures of the program ("187 failures … are under their root causes"
// had 185 counted under them, the Python example at seed 2026).
func TestMinimizingFailuresUnderRootCauses(t *testing.T) {
	for _, tt := range []struct {
		name   string
		events []harness.Event
		rcs    []RootCause
		want   []int
	}{
		{"two while minimizing", []harness.Event{{Kind: "crash"}, {Kind: "crash"}, {Kind: "crash"}, {Kind: "crash"}},
			[]RootCause{{Clause: "failure", Class: "failure/crash", Vectors: []string{"a"}, FailedCases: 1}}, []int{2}},
		{"none left", []harness.Event{{Kind: "crash"}, {Kind: "crash"}},
			[]RootCause{{Clause: "failure", Class: "failure/crash", Vectors: []string{"a"}, FailedCases: 1}}, []int{0}},
		{"answered when sent again: no root cause's", []harness.Event{{Kind: "crash"}, {Kind: "crash", Answered: true}},
			[]RootCause{{Clause: "failure", Class: "failure/crash", Vectors: []string{"a"}}}, []int{0}},
		{"by class", []harness.Event{{Kind: "crash"}, {Kind: "timeout"}, {Kind: "timeout"}},
			[]RootCause{{Clause: "failure", Class: "failure/crash"}, {Clause: "failure", Class: "failure/timeout", FailedCases: 1}, {Clause: "rule/2", Class: "decode-missed", Vectors: []string{"b"}}}, []int{1, 1, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, ev := range tt.events {
				if c := diagnose.EventClass(ev.Kind, ev.Detail); !strings.HasPrefix(c, "failure/") {
					t.Fatalf("event %+v is of class %q: the test's classes are wrong", ev, c)
				}
			}
			rcs := slices.Clone(tt.rcs)
			withMinimizing(rcs, tt.events)
			for i, rc := range rcs {
				if rc.FailedMinimizing != tt.want[i] {
					t.Errorf("root cause %d (%s): %d failed while minimizing, want %d", i, rc.Class, rc.FailedMinimizing, tt.want[i])
				}
			}
		})
	}
}

// TestTinyBudgetIncomplete: the reference slowed by 3 ms an answer, with a
// budget too small to replay the corpus and run a round, finds nothing and
// is not passed: it is incomplete, and the report says what did not run
// and what would run it; the budget it names suffices.
func TestTinyBudgetIncomplete(t *testing.T) {
	vs := vectors(t)
	var need time.Duration
	synctest.Test(t, func(t *testing.T) {
		r := runChecked(t, context.Background(), Config{Impl: slowed(3 * time.Millisecond), Vectors: vs, Budget: time.Second, Seed: 5})
		in := r.Incomplete
		if r.Verdict != Incomplete || in == nil || r.Violations() != 0 {
			t.Fatalf("verdict %s, incomplete %+v", r.Verdict, in)
		}
		if in.Vectors != r.Corpus.NotRun || in.Vectors == 0 || in.Round != roundSize {
			t.Errorf("incomplete %+v, corpus %+v", in, r.Corpus)
		}
		// 3 ms a vector, ~5,000 vectors in half the budget: 30 s or more.
		var err error
		need, err = time.ParseDuration(in.Budget)
		if err != nil || need < 30*time.Second || need > 2*time.Minute {
			t.Errorf("budget needed %q (%v)", in.Budget, err)
		}
		if in.Checks != roundSize || !strings.HasSuffix(r.Repeat, " --seed 5 --checks 16") {
			t.Errorf("checks %d, repeat %q", in.Checks, r.Repeat)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		r := runChecked(t, context.Background(), Config{Impl: slowed(3 * time.Millisecond), Vectors: vs, Budget: need, Seed: 5})
		if r.Verdict != Pass || r.Incomplete != nil {
			t.Errorf("with --budget %v: verdict %s, incomplete %+v", need, r.Verdict, r.Incomplete)
		}
	})
}

// TestHangInFlight: an implementation that never answers one vector, as
// the harness reports it (in flight, for so long) when the check's time is
// up: the check is incomplete, never PASS, and says which request was in
// flight and for how long, in virtual time.
func TestHangInFlight(t *testing.T) {
	vs := vectors(t)
	synctest.Test(t, func(t *testing.T) {
		hang := vs[100]
		im := impl.Func("hangs on one", func(ctx context.Context, c impl.Case) impl.Result {
			if !bytes.Equal(c.Args, hang.ArgumentsText()) {
				return impl.Reference.Normalize(ctx, c)
			}
			start := time.Now()
			<-ctx.Done()
			return impl.Fail(&impl.InFlight{Waited: time.Since(start)}, "in flight")
		})
		r := runChecked(t, context.Background(), Config{Impl: im, Vectors: vs, Budget: 10 * time.Second, Seed: 5})
		in := r.Incomplete
		if r.Verdict != Incomplete || in == nil || in.InFlight == nil {
			t.Fatalf("verdict %s, incomplete %+v", r.Verdict, in)
		}
		// It waited from its start to the end of the budget and its
		// grace, 10.5 s.
		if f := in.InFlight; !strings.HasPrefix(f.Case, "vector "+hang.ID+" ") || f.Waited != 10.5 {
			t.Errorf("in flight: %+v", f)
		}
	})
}

// TestRestartCutShortReported: a request that was waiting for the
// adapter to start again when the check stopped (the harness's in-flight
// failure, never sent) is reported as waiting for the restart.
func TestRestartCutShortReported(t *testing.T) {
	vs := vectors(t)
	synctest.Test(t, func(t *testing.T) {
		stuck := vs[100]
		im := impl.Func("restarts slowly", func(ctx context.Context, c impl.Case) impl.Result {
			if !bytes.Equal(c.Args, stuck.ArgumentsText()) {
				return impl.Reference.Normalize(ctx, c)
			}
			start := time.Now()
			<-ctx.Done()
			return impl.Fail(&impl.InFlight{Waited: time.Since(start), NotSent: true}, "waiting for the adapter to start again")
		})
		r := runChecked(t, context.Background(), Config{Impl: im, Vectors: vs, Budget: 10 * time.Second, Seed: 5})
		if in := r.Incomplete; in == nil || in.InFlight == nil || !in.InFlight.Restarting || in.InFlight.Waited != 10.5 {
			t.Fatalf("verdict %s, incomplete %+v", r.Verdict, in)
		}
	})
}

// TestLongCounterexampleReplays: a root cause whose counterexample is a
// vector of the corpus too long to pipe in (a failure of the program is
// not minimized) is replayed from that vector, not from a file the report
// does not hold.
func TestLongCounterexampleReplays(t *testing.T) {
	var deep []*corpus.Vector
	for _, v := range vectors(t) {
		if len(v.ArgumentsText()) > maxCommand {
			deep = append(deep, v)
		}
	}
	if len(deep) == 0 {
		t.Fatal("the corpus has no vector longer than a command holds")
	}
	im := impl.Func("crashes on long arguments", func(ctx context.Context, c impl.Case) impl.Result {
		if len(c.Args) > maxCommand {
			return impl.Fail(impl.ErrCrash, "exit status 1")
		}
		return impl.Reference.Normalize(ctx, c)
	})
	r := runChecked(t, context.Background(), Config{Impl: im, Command: "./crashes", Vectors: deep, Checks: 16, Seed: 1})
	if len(r.RootCauses) != 1 {
		t.Fatalf("%d root causes, want 1: %+v", len(r.RootCauses), r.RootCauses)
	}
	rc := r.RootCauses[0]
	want := "toolnorm corpus replay --impl './crashes' --only " + rc.Vectors[0]
	if !slices.ContainsFunc(rc.Vectors, func(id string) bool { return rc.Command == "toolnorm corpus replay --impl './crashes' --only "+id }) {
		t.Errorf("command %q, want one like %q", rc.Command, want)
	}
	// A failure of the program is not run again, so not minimized: the
	// report says so; the vector replayed is the case shown, or (when the
	// fuzzing's mutations of a vector's schema and arguments fail on a
	// shorter case, issue 36) the note says where the case shown is whole.
	if !rc.NotMinimized {
		t.Errorf("a failure's root cause does not say it was not minimized: %+v", rc)
	}
	if rc.CommandNote != "" && !strings.Contains(rc.CommandNote, ".root_causes[0].vector") {
		t.Errorf("command note %q, want none or one that names .root_causes[0].vector", rc.CommandNote)
	}
}

// TestLongMinimalCaseReplays: a root cause whose minimal case is too long
// for one line, and not a vector as it is (here, decoding stops past 2,500
// bytes of arguments, as @openclaw/ai's does past 64 KiB), is replayed
// from one of its vectors, and the JSON report holds the minimal case
// whole. Before, the command told to save the case from the JSON report,
// which held it cut.
func TestLongMinimalCaseReplays(t *testing.T) {
	long := corpus.New("a long title", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"&amp;`+strings.Repeat("x", 3000)+`","b":"&lt;"}`), corpus.Options{}, impl.Reference)
	long.File = "vectors/rule/long.json"
	im := impl.Func("stops decoding past 2,500 bytes", func(ctx context.Context, c impl.Case) impl.Result {
		if len(c.Args) > 2500 {
			return impl.Result{Output: c.Args}
		}
		return impl.Reference.Normalize(ctx, c)
	})
	r := runChecked(t, context.Background(), Config{Impl: im, Command: "./stops", Vectors: []*corpus.Vector{long}, Checks: 16, Seed: 1})
	i := slices.IndexFunc(r.RootCauses, func(rc RootCause) bool { return slices.Contains(rc.Vectors, long.ID) })
	if i < 0 {
		t.Fatalf("no root cause holds the long vector: %+v", r.RootCauses)
	}
	rc := r.RootCauses[i]
	if rc.Vector == nil || len(rc.Vector.ArgumentsText()) > 2600 || len(rc.Vector.ArgumentsText()) <= maxCommand {
		t.Fatalf("the JSON report's minimal case: %+v", rc.Vector)
	}
	if got := im.Normalize(context.Background(), impl.Case{Schema: rc.Vector.SchemaText(), Args: rc.Vector.ArgumentsText()}); impl.Compare(got, rc.Vector.Want()).Same() {
		t.Error("the report's minimal case does not fail")
	}
	if want := "toolnorm corpus replay --impl './stops' --only " + long.ID; rc.Command != want {
		t.Errorf("command %q, want %q", rc.Command, want)
	}
	// The command replays a vector, not the minimal case shown: it says so,
	// and where the case is whole.
	if want := fmt.Sprintf(".root_causes[%d].vector", i); !strings.Contains(rc.CommandNote, want) {
		t.Errorf("command note %q, want it to name %s", rc.CommandNote, want)
	}
}

// TestLongCaseSavedFrom: a case too long for one line, with no vector of
// the corpus to replay instead, is saved from where the JSON report holds
// it whole, and the command says where.
func TestLongCaseSavedFrom(t *testing.T) {
	v := corpus.New("a long title", "rule/4", "found", nil, []byte(`{}`), []byte(`{"a":"`+strings.Repeat("x", 3000)+`"}`), corpus.Options{}, impl.Reference)
	for _, from := range []string{".root_causes[2].vector", ".fuzz.findings[0].vector", ".properties[4].violation.vector"} {
		got := replayCommand("./a", "", v, from)
		if want := "save " + from + " of the JSON report (--format json) as case.json, then) toolnorm corpus replay --impl './a' case.json"; !strings.HasSuffix(got, want) {
			t.Errorf("%s: %q, want it to end in %q", from, got, want)
		}
	}
}

// TestPropertyRoundTrips: a program behind a protocol gets each round of a
// property in a few batches, none of its cases alone, and the same report
// as an implementation run one case at a time; a broken one, whose
// violations are shrunk, too.
func TestPropertyRoundTrips(t *testing.T) {
	onePass := impl.Func("one pass", func(ctx context.Context, c impl.Case) impl.Result {
		o := c.Options
		o.MaxPasses = 1
		return impl.Reference.Normalize(ctx, impl.Case{Schema: c.Schema, Args: c.Args, Options: o})
	})
	report := func(im impl.Impl, jobs int) []byte {
		r := runChecked(t, context.Background(), Config{Impl: im, Checks: 64, Seed: 3, Jobs: jobs})
		r.Implementation = ""
		return timeless(t, r)
	}
	for k, im := range []impl.Impl{impl.Reference, onePass} {
		serial := report(im, 1)
		for _, jobs := range []int{1, 2} {
			b := &impltest.Recorder{Impl: im}
			if got := report(b, jobs); !bytes.Equal(serial, got) {
				t.Errorf("%s, --jobs %d: one case at a time and batched differ:\n%.3000s\n%.3000s", im.Name(), jobs, serial, got)
			}
			t.Logf("%s, --jobs %d: %d requests in %d batches, %d alone", im.Name(), jobs, b.Requests(), b.Batches(), b.Alone())
			if k == 0 && b.Alone() > 0 {
				t.Errorf("%s: %d cases sent alone", im.Name(), b.Alone())
			}
			// With --jobs 1, a round's first requests, of every property
			// and of fuzzing, are one batch; the reference's further runs
			// (deterministic, idempotent) two more.
			if rounds := 64 / roundSize; k == 0 && jobs == 1 && b.Batches() > 3*rounds {
				t.Errorf("%s: %d batches for %d rounds, want at most %d", im.Name(), b.Batches(), rounds, 3*rounds)
			}
		}
	}
}

// TestReplayDealt: with --jobs 2, the corpus's batches go out dealt, every
// other vector to each half (which a harness.Pool sends to a run of its
// own), so that neighbours that crash the program restart different runs;
// the results are those of the vectors in their order.
func TestReplayDealt(t *testing.T) {
	vs := vectors(t)
	var cs [][]byte
	for _, v := range vs {
		cs = append(cs, v.ArgumentsText())
	}
	want := Replay(context.Background(), Config{Impl: impl.Reference, Vectors: vs})
	r := &impltest.Recorder{Impl: impl.Reference}
	got := Replay(context.Background(), Config{Impl: r, Vectors: vs, Jobs: 2})
	first := r.Trips()[0].Cases
	n := len(first)
	if n < 64 {
		t.Fatalf("first batch of %d cases", n)
	}
	for j, c := range first {
		a := c.Args
		i := 2 * j // the first half: the even vectors
		if j >= (n+1)/2 {
			i = 2*(j-(n+1)/2) + 1
		}
		if !bytes.Equal(a, cs[i]) {
			t.Fatalf("case %d of the batch is %s, want vector %d's %s", j, a, i, cs[i])
		}
	}
	want.Seconds, got.Seconds = 0, 0
	a, _ := json.Marshal(want)
	b, _ := json.Marshal(got)
	if !bytes.Equal(a, b) {
		t.Errorf("replayed dealt, the results differ:\n%.2000s\n%.2000s", a, b)
	}
}

// TestRoundsInLockstep: with --checks, a program behind the protocol is
// sent the rounds in lockstep, whatever --jobs is: one batch at a time, the
// first one holding the first round of every property and of the fuzzer,
// and the same batches, case for case and in the same order, run after
// run, with --jobs 1 or 2 and one core or four. The tasks draw and judge at
// once, so their scheduling varies; what a crashing program is charged
// with depends on which cases share a batch, so the batches must not
// (check_crash_repeat.txtar).
func TestRoundsInLockstep(t *testing.T) {
	buggy := impl.Func("one pass", func(ctx context.Context, c impl.Case) impl.Result {
		o := c.Options
		o.MaxPasses = 1
		return impl.Reference.Normalize(ctx, impl.Case{Schema: c.Schema, Args: c.Args, Options: o})
	})
	trips := func(jobs, procs int) [][]string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		b := &impltest.Recorder{Impl: buggy}
		r := runChecked(t, context.Background(), Config{Impl: b, Checks: 32, Seed: 5, Jobs: jobs})
		if r.Violations() == 0 || len(r.Fuzz.Findings) == 0 {
			t.Fatalf("no violation or no fuzzing finding to shrink: %d, %d", r.Violations(), len(r.Fuzz.Findings))
		}
		if b.MostAtOnce() != 1 {
			t.Errorf("--jobs %d: %d batches in flight at once, want 1", jobs, b.MostAtOnce())
		}
		var out [][]string
		for _, tr := range b.Trips() {
			var keys []string
			for _, c := range tr.Cases {
				keys = append(keys, c.Key())
			}
			out = append(out, keys)
		}
		return out
	}
	first := trips(1, 2)
	if applicable := len(properties.All()); len(first[0]) < applicable*roundSize {
		t.Errorf("the first batch holds %d cases, want a round of each of the %d properties and of fuzzing", len(first[0]), applicable)
	}
	for _, run := range []struct{ jobs, procs int }{{1, 1}, {2, 2}, {2, 4}, {1, 4}} {
		if got := trips(run.jobs, run.procs); !slices.EqualFunc(got, first, slices.Equal) {
			t.Errorf("--jobs %d, GOMAXPROCS %d: %d batches, other than --jobs 1's %d", run.jobs, run.procs, len(got), len(first))
		}
	}
	// Under a budget too (the default): one batch at a time, the rounds'
	// first requests together.
	for _, jobs := range []int{1, 2} {
		synctest.Test(t, func(t *testing.T) {
			b := &impltest.Recorder{Impl: buggy, Delay: time.Millisecond}
			r := runChecked(t, context.Background(), Config{Impl: b, Budget: time.Second, Seed: 5, Jobs: jobs})
			if b.MostAtOnce() != 1 || r.Checks < 2*roundSize {
				t.Errorf("--budget 1s --jobs %d: %d batches at once, %d cases of each, want 1 and two rounds or more", jobs, b.MostAtOnce(), r.Checks)
			}
			if trips := b.Trips(); len(trips) == 0 || len(trips[0].Cases) < len(properties.All())*roundSize {
				t.Errorf("--budget 1s --jobs %d: the first batch is not a round of every property", jobs)
			}
		})
	}
}

// cutShort is a program behind a protocol, as a harness.Adapter sends a
// batch to it: after 20 failures in a row, the rest of the batch is given
// up (impl.ErrNotRun), and the next batch tries again.
type cutShort struct{ impl.Impl }

func (c cutShort) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	out := make([]impl.Result, len(cases))
	inARow := 0
	for i, cs := range cases {
		if inARow >= 20 {
			out[i] = impl.Fail(impl.ErrNotRun, "gave up on the rest of this batch")
			continue
		}
		if out[i] = c.Normalize(ctx, cs); out[i].Failed() {
			inARow++
		} else {
			inARow = 0
		}
	}
	return out
}

// TestRoundCutShort: a program that fails on every case of a round, and
// more, has the rest of a batch given up: a round's first requests, of
// every property, are one batch (in lockstep), and those given up on are
// sent again, each property's on their own (package coalesce), so that
// every case runs and the report is the one of each round sent on its own.
func TestRoundCutShort(t *testing.T) {
	im := cutShort{impl.Func("crashes on objects", func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Args, []byte("{")) {
			return impl.Fail(impl.ErrCrash, "exit status 1")
		}
		return impl.Reference.Normalize(ctx, c)
	})}
	report := func(jobs int) []byte {
		r := runChecked(t, context.Background(), Config{Impl: im, Checks: 32, Seed: 7, Jobs: jobs})
		// Every case ran: none was left not run because the cases of
		// the other properties shared its batch (a round's first
		// requests go out as one batch, in lockstep).
		for _, p := range r.Properties {
			if p.Status != StatusNotApplicable && p.Cases != 32 {
				t.Errorf("--jobs %d: %s ran %d cases, want 32", jobs, p.ID, p.Cases)
			}
		}
		// (It judged too little, failing on most: nothing was cut short.)
		if r.Fuzz.Cases != 32 || r.Incomplete == nil || r.Incomplete.RanShort() {
			t.Errorf("--jobs %d: fuzzing ran %d cases, want 32; incomplete: %+v", jobs, r.Fuzz.Cases, r.Incomplete)
		}
		return timeless(t, r)
	}
	one, two := report(1), report(2)
	if !bytes.Equal(one, two) {
		t.Errorf("--jobs 1 and 2 differ:\n%.3000s\n%.3000s", one, two)
	}
	if bytes.Contains(one, []byte("gave up on the rest")) {
		t.Errorf("a case given up on is in the report:\n%.3000s", one)
	}
}

// corpusBeside is a program behind a protocol whose round trip takes a
// millisecond (of a synctest bubble's time); it notes whether a batch of
// the corpus (every case a vector's) was under way with one of the
// rounds.
type corpusBeside struct {
	impl.Impl
	vectors              map[string]bool
	mu                   sync.Mutex
	corpusNow, roundsNow int
	beside               bool
}

func (b *corpusBeside) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	isCorpus := len(cases) >= 32
	for _, c := range cases {
		isCorpus = isCorpus && b.vectors[string(c.Args)]
	}
	b.mu.Lock()
	if isCorpus {
		b.corpusNow++
	} else {
		b.roundsNow++
	}
	b.beside = b.beside || b.corpusNow > 0 && b.roundsNow > 0
	b.mu.Unlock()
	time.Sleep(time.Millisecond)
	out := make([]impl.Result, len(cases))
	for i, c := range cases {
		out[i] = b.Impl.Normalize(ctx, c)
	}
	b.mu.Lock()
	if isCorpus {
		b.corpusNow--
	} else {
		b.roundsNow--
	}
	b.mu.Unlock()
	return out
}

// TestCorpusBesideRounds: with --jobs 2 and --checks, the corpus is
// replayed beside the rounds, not before them (the program's restarts on
// the corpus overlap with the rounds' requests); with --jobs 1, before.
// The report is the same (TestSeedRepeats).
func TestCorpusBesideRounds(t *testing.T) {
	vs := vectors(t)
	for _, jobs := range []int{1, 2} {
		synctest.Test(t, func(t *testing.T) {
			b := &corpusBeside{Impl: impl.Reference, vectors: map[string]bool{}}
			for _, v := range vs {
				b.vectors[string(v.ArgumentsText())] = true
			}
			runChecked(t, context.Background(), Config{Impl: b, Vectors: vs, Checks: 32, Seed: 5, Jobs: jobs})
			if b.beside != (jobs > 1) {
				t.Errorf("--jobs %d: corpus beside the rounds %v, want %v", jobs, b.beside, jobs > 1)
			}
		})
	}
}

// TestReplayFailurePastTheStop: a failure of the program in a batch that
// came back after the check stopped (the budget, an interrupt) is counted
// in the corpus, where it happened, and put on its vector; only answers
// are left unjudged. (It was counted as not run, and so, as one of the
// harness's events in no phase, among the failures "while minimizing
// findings", when no finding was minimized.)
func TestReplayFailurePastTheStop(t *testing.T) {
	vs := vectors(t)[:3]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	im := impl.Func("fails, then stops the check", func(context.Context, impl.Case) impl.Result {
		n++
		if n == 1 {
			return impl.OK([]byte(`{}`))
		}
		cancel() // the check stops while this batch is under way
		return impl.Fail(impl.ErrProtocol, "the answer is not a JSON object")
	})
	got := Replay(ctx, Config{Impl: im, Vectors: vs})
	if got.Errors != 1 || got.NotRun != 2 || len(got.ErrorList) != 1 || got.ErrorList[0].ID != vs[1].ID {
		t.Errorf("errors %d (%v), not run %d; want the protocol error on %s, the other two not run", got.Errors, got.ErrorList, got.NotRun, vs[1].ID)
	}
}

// TestRequestTimeout: inside a budget a request waits a tenth of it, at
// least a second, at most DefaultTimeout (check_hang shows the timeout
// itself with --timeout, which does not depend on the machine's speed).
func TestRequestTimeout(t *testing.T) {
	for _, tt := range []struct{ budget, want time.Duration }{
		{3 * time.Second, time.Second},
		{30 * time.Second, 3 * time.Second},
		{5 * time.Minute, DefaultTimeout},
	} {
		if got := RequestTimeout(tt.budget); got != tt.want {
			t.Errorf("RequestTimeout(%v) = %v, want %v", tt.budget, got, tt.want)
		}
	}
}

// TestUnsupportedReasons: a report says why the cases that did not reach
// the implementation did not, in the adapter's words (said to be its)
// with what they quote of a case masked, the reasons most cases share first; their
// cases add up to the counts of the corpus, the properties and fuzzing.
func TestUnsupportedReasons(t *testing.T) {
	picky := impl.Func("picky", func(ctx context.Context, c impl.Case) impl.Result {
		switch {
		case bytes.Contains(c.Args, []byte(`\u`)):
			return impl.Fail(impl.ErrNotSendable, impl.AdapterCannotHold+fmt.Sprintf("an escape in %q: this language has no form for it", c.Args))
		case bytes.Contains(c.Args, []byte(`&`)):
			return impl.Fail(impl.ErrNotSendable, impl.AdapterCannotHold+"a reference at offset "+strconv.Itoa(bytes.IndexByte(c.Args, '&')))
		}
		return impl.Reference.Normalize(ctx, c)
	})
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	r := runChecked(t, context.Background(), Config{Impl: picky, Checks: 64, Seed: 3, Jobs: 1, Vectors: vectors})
	want := r.Corpus.Unsupported + r.Fuzz.Unsupported
	for _, p := range r.Properties {
		want += p.Unsent
	}
	got := 0
	for i, u := range r.Unsupported {
		got += u.Cases
		if i > 0 && u.Why != OtherReasons && u.Cases > r.Unsupported[i-1].Cases {
			t.Errorf("reason %d (%d cases) after one of %d", i, u.Cases, r.Unsupported[i-1].Cases)
		}
		if strings.HasPrefix(u.Why, impl.AdapterCannotHold) || strings.Contains(u.Why, "offset 1") || strings.Contains(u.Why, `\u`) {
			t.Errorf("reason not masked: %q", u.Why)
		}
	}
	if want == 0 || got != want {
		t.Fatalf("the reasons' cases add up to %d, the counts to %d: %+v", got, want, r.Unsupported)
	}
	if len(r.Unsupported) > MaxReasons+1 {
		t.Errorf("%d reasons listed", len(r.Unsupported))
	}
	for _, w := range []string{NotTakenByAdapter + `an escape in "…": this language has no form for it`, NotTakenByAdapter + "a reference at offset …"} {
		if !slices.ContainsFunc(r.Unsupported, func(u Reason) bool { return u.Why == w }) {
			t.Errorf("no reason %q among %+v", w, r.Unsupported)
		}
	}
}

func TestReasonsOf(t *testing.T) {
	var why []string
	for i := range 14 {
		for range i + 1 {
			why = append(why, "r"+strconv.Itoa(i))
		}
	}
	rs := reasonsOf(why)
	if len(rs) != MaxReasons+1 || rs[0] != (Reason{"r13", 14}) || rs[MaxReasons] != (Reason{OtherReasons, 1 + 2 + 3 + 4}) {
		t.Errorf("reasonsOf = %+v", rs)
	}
	if rs := reasonsOf([]string{"b", "a"}); !slices.Equal(rs, []Reason{{"a", 1}, {"b", 1}}) {
		t.Errorf("a tie, by text: %+v", rs)
	}
}

// TestUnsupportedWhy: a reason says whose words it is (the adapter's or
// toolnorm's), and what it quotes of its case is masked, each kind of
// quote, so that one reason is one line whatever the case held.
func TestUnsupportedWhy(t *testing.T) {
	for _, tt := range []struct{ detail, want string }{
		{impl.AdapterCannotHold + `duplicate member "a": a PHP array keeps one`, NotTakenByAdapter + `duplicate member "…": a PHP array keeps one`},
		{impl.AdapterCannotHold + `an escape in "{\"a\": 1}": no form for it`, NotTakenByAdapter + `an escape in "…": no form for it`},
		{impl.AdapterCannotHold + `a lone surrogate in "\ud800abc: a PHP string holds UTF-8`, NotTakenByAdapter + `a lone surrogate in "…": a PHP string holds UTF-8`},
		{`the arguments are not JSON: invalid character '\'' looking for beginning of value at offset 12, so no JSON line carries it`, NotSentByToolnorm + `the arguments are not JSON: invalid character '…' looking for beginning of value at offset …, so no JSON line carries it`},
		{`the arguments are not JSON: invalid UTF-8 byte 0xc0 in string at offset 6`, NotSentByToolnorm + `the arguments are not JSON: invalid UTF-8 byte 0x… in string at offset …`},
		{impl.AdapterCannotHold + `the number 12345678901234567890: a float holds another value`, NotTakenByAdapter + `the number …: a float holds another value`},
		{impl.AdapterCannotHold + `UTF-8 only`, NotTakenByAdapter + `UTF-8 only`},
	} {
		if got := unsupportedWhy(impl.Fail(impl.ErrNotSendable, tt.detail)); got != tt.want {
			t.Errorf("unsupportedWhy(%q) = %q, want %q", tt.detail, got, tt.want)
		}
	}
}
