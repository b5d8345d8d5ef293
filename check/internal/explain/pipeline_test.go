package explain_test

// The tests of the pipeline's machinery, whatever the catalogue holds:
// findings filed once each, batches that do not depend on scheduling, a
// crash kept, a stop obeyed, failures of the program classified without
// being run, a sample minimized. They were internal/rootcause's, whose
// pipeline this one replaces; those of its probes' titles went with it.

import (
	"context"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolnorm/toolnorm/check/internal/explain"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

var ctx = context.Background()

func want(c impl.Case) impl.Result { return impl.Reference.Normalize(ctx, c) }

// rank is the order of root causes the pipeline keeps: the rule's
// clauses, the readings, failures of the program, artefacts.
func rank(rc explain.RootCause) int {
	switch {
	case rc.Artefact:
		return 3
	case rc.Clause == "failure":
		return 2
	case strings.HasPrefix(rc.Clause, "reading/"):
		return 1
	}
	return 0
}

// buggy is an entity-only decoder with three bugs of its own, behind an
// adapter that reads requests as JavaScript does: it does no JSON repair
// (rule/2), decodes names without regard to case (&Amp; to &, reading/1),
// and its adapter moves integer-like keys first (an artefact).
var buggy = impl.Func("buggy", func(ctx context.Context, c impl.Case) impl.Result {
	c.Schema = []byte(`{}`) // no JSON repair
	r := impl.Reference.Normalize(ctx, c)
	if !r.Answered() {
		return r
	}
	v, err := jsonvalue.Parse([]byte(strings.ReplaceAll(string(r.Output), "&Amp;", "&")))
	if err != nil {
		return impl.OK(r.Output)
	}
	var walk func(v *jsonvalue.Value)
	walk = func(v *jsonvalue.Value) {
		if v.Kind == jsonvalue.Object {
			slices.SortStableFunc(v.Members, func(a, b jsonvalue.Member) int {
				ai, bi := isIndex(a.Key), isIndex(b.Key)
				switch {
				case ai && !bi:
					return -1
				case bi && !ai:
					return 1
				}
				return 0
			})
		}
		for _, m := range v.Members {
			walk(m.Value)
		}
		for _, e := range v.Elems {
			walk(e)
		}
	}
	walk(v)
	return impl.OK(v.Append(nil))
})

func isIndex(k string) bool {
	return k != "" && strings.Trim(k, "0123456789") == "" && (k == "0" || k[0] != '0')
}

// finding is buggy's finding on a case.
func finding(source, id, schema, args string) explain.Finding {
	return findingOf(buggy, source, id, schema, args)
}

// findingOf is im's finding on a case.
func findingOf(im impl.Impl, source, id, schema, args string) explain.Finding {
	c := impl.Case{Schema: []byte(schema), Args: []byte(args)}
	return explain.Finding{Source: source, ID: id, Case: c, Want: want(c), Got: im.Normalize(ctx, c)}
}

// TestEachFindingOnce: each finding is filed under exactly one root
// cause, the root causes come in their order (the rule's clauses, the
// readings, the adapter's artefacts last), an artefact says how to fix
// the adapter, and each counterexample fails and is no larger than the
// smallest finding it shows.
func TestEachFindingOnce(t *testing.T) {
	findings := []explain.Finding{
		finding(explain.Vector, "keys.json", `{}`, `{"name":"x","7":1}`),
		finding(explain.Vector, "amp.json", `{}`, `{"q":"Ember &Amp; Oak"}`),
		finding(explain.Vector, "array.json", `{"properties":{"tags":{"type":"array"}}}`, `{"tags":"[\"a\",\"b\"]","n":1}`),
		finding(explain.Vector, "pattern.json", `{"patternProperties":{"^p":{"type":"array"}}}`, `{"p":"[1]"}`),
		finding(explain.Vector, "object.json", `{"properties":{"o":{"type":"object"}}}`, `{"o":"{\"k\":[1,2,3]}"}`),
		finding(explain.Property, "shape-match-decoded", `{"properties":{"p":{"type":"array","items":{"type":"string"}}},"required":["p"]}`, `{"p":"[\"&amp;\"]","z":"&Amp;"}`),
		finding(explain.Bucket, "bucket-a", `{}`, `{"a":{"b":"&Amp;x"}}`),
		finding(explain.Bucket, "bucket-b", `{}`, `{"b":1,"0":2}`),
	}
	size := map[string]int{}
	for _, f := range findings {
		if impl.Compare(f.Got, f.Want).Same() {
			t.Fatalf("%s: no finding: %v", f.ID, f.Got)
		}
		size[f.ID] = len(f.Case.Schema) + len(f.Case.Args)
	}
	rcs := explain.Explain(ctx, explain.Config{Impl: buggy, Want: want}, findings)
	if len(rcs) < 3 {
		t.Fatalf("%d root causes, want one for each of the three bugs at least", len(rcs))
	}
	seen := map[string]int{}
	for i, rc := range rcs {
		smallest := -1
		for _, id := range slices.Concat(rc.Vectors, rc.Properties, rc.Buckets) {
			seen[id]++
			if smallest < 0 || size[id] < smallest {
				smallest = size[id]
			}
		}
		if n := len(rc.Case.Schema) + len(rc.Case.Args); n > smallest {
			t.Errorf("%s: its counterexample (%d bytes) is larger than its smallest finding (%d)", rc.ID, n, smallest)
		}
		if !impl.Compare(buggy.Normalize(ctx, rc.Case), want(rc.Case)).Violation() {
			t.Errorf("%s: its counterexample %s %s does not fail", rc.ID, rc.Case.Schema, rc.Case.Args)
		}
		if rc.Artefact && rc.Fix == "" {
			t.Errorf("%s: an artefact that says no fix", rc.ID)
		}
		if i > 0 && rank(rcs[i-1]) > rank(rc) {
			t.Errorf("%s (%s) comes after %s (%s)", rc.ID, rc.Clause, rcs[i-1].ID, rcs[i-1].Clause)
		}
	}
	if last := rcs[len(rcs)-1]; !last.Artefact || !slices.Contains(last.Vectors, "keys.json") {
		t.Errorf("the last root cause is %s (%v), want the adapter's key order", last.ID, last.Vectors)
	}
	for _, f := range findings {
		if seen[f.ID] != 1 {
			t.Errorf("%s is under %d root causes", f.ID, seen[f.ID])
		}
	}
}

// TestExplainBatched: findings minimized several at a time, their
// requests coalesced into batches (a minimizing step's candidates sent
// together), give the root causes of the findings minimized one after the
// other, one candidate at a time; no case is sent twice, every case the
// serial explanation sends is sent, and one batch is under way at a time
// (a harness.Pool of several processes cuts that batch into runs of its
// own).
func TestExplainBatched(t *testing.T) {
	var findings []explain.Finding
	for i := range 20 {
		n := strconv.Itoa(i)
		findings = append(findings,
			finding(explain.Vector, "array"+n+".json", `{"properties":{"tags":{"type":"array"},"x`+n+`":{}}}`, `{"tags":"[\"a\",\"b`+n+`\"]","n":`+n+`}`),
			finding(explain.Bucket, "amp"+n, `{}`, `{"a":{"b":"&Amp;`+n+`"}}`),
			finding(explain.Property, "keys"+n, `{}`, `{"b":1,"`+n+`":2}`))
	}
	calls := map[string]int{}
	counted := impl.Func("buggy", func(ctx context.Context, c impl.Case) impl.Result {
		calls[c.Key()]++
		return buggy.Normalize(ctx, c)
	})
	serial := explain.Explain(ctx, explain.Config{Impl: counted, Want: want}, findings)
	synctest.Test(t, func(t *testing.T) {
		// Each batch takes a millisecond (of the bubble's clock), so that
		// batches sent at once would overlap.
		b := &impltest.Recorder{Impl: buggy, Delay: time.Millisecond}
		got := explain.Explain(context.Background(), explain.Config{Impl: b, Want: want}, findings)
		if !reflect.DeepEqual(got, serial) {
			t.Errorf("batched:\n%+v\none at a time:\n%+v", got, serial)
		}
		if b.MostAtOnce() > 1 {
			t.Errorf("%d batches under way at once", b.MostAtOnce())
		}
		if b.Largest() < 2 {
			t.Errorf("the largest batch had %d case, want several findings' cases together", b.Largest())
		}
		sent := b.Sent()
		for k, n := range sent {
			if n > 1 {
				t.Errorf("case %q sent %d times", k, n)
			}
		}
		for k := range calls {
			if sent[k] == 0 {
				t.Errorf("case %q not sent in batches", k)
			}
		}
		t.Logf("%d cases sent in batches, %d one at a time", len(sent), len(calls))
	})
}

// TestSort: the rule's clauses first (rule/2, rule/3, rule/5, rule/4),
// then the readings, failures of the program, artefacts; within each,
// most findings first.
func TestSort(t *testing.T) {
	mk := func(id, clause string, n int, artefact bool) explain.RootCause {
		r := explain.RootCause{ID: id, Vectors: make([]string, n)}
		r.Clause, r.Artefact = clause, artefact
		return r
	}
	rs := []explain.RootCause{
		mk("artefact", "reading/7", 90, true),
		mk("failure", "failure", 50, false),
		mk("reading-big", "reading/4", 40, false),
		mk("r4", "rule/4", 1, false),
		mk("r5", "rule/5", 2, false),
		mk("reading-small", "reading/1", 3, false),
		mk("r3", "rule/3", 1, false),
		mk("r2-small", "rule/2", 1, false),
		mk("r2-big", "rule/2", 5, false),
	}
	explain.Sort(rs)
	var got []string
	for _, r := range rs {
		got = append(got, r.ID)
	}
	want := []string{"r2-big", "r2-small", "r3", "r5", "r4", "reading-big", "reading-small", "failure", "artefact"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestCrashRunOnce: a case the program crashed on is not run again within
// one explanation, however many findings' minimizations ask for it (each
// asks once); a timeout (which may come from a loaded machine) and a
// give-up are, as they may not happen again.
func TestCrashRunOnce(t *testing.T) {
	// Minimizing either finding asks for the failing case, the member
	// beside "tags" taken out.
	const schema, failing = `{"properties":{"tags":{"type":"array"}}}`, `{"tags":"[\"c\"]"}`
	findings := []explain.Finding{
		finding(explain.Vector, "array.json", schema, `{"tags":"[\"c\"]","m":2}`),
		finding(explain.Vector, "array2.json", schema, `{"tags":"[\"c\"]","n":1}`),
	}
	for _, tt := range []struct {
		name    string
		failure error
		kept    bool
	}{
		{"crash", impl.ErrCrash, true},
		{"timeout", impl.ErrTimeout, false},
		{"gave-up", fmt.Errorf("%w: %w: too many", impl.ErrCrash, impl.ErrGaveUp), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			runs := 0
			im := impl.Func("failing", func(ctx context.Context, c impl.Case) impl.Result {
				if string(c.Args) == failing {
					mu.Lock()
					runs++
					mu.Unlock()
					return impl.Fail(tt.failure, "it failed")
				}
				return buggy.Normalize(ctx, c)
			})
			explain.Explain(ctx, explain.Config{Impl: im, Want: want}, findings)
			if runs == 0 {
				t.Fatalf("no step asked for the failing case")
			}
			if kept := runs == 1; kept != tt.kept {
				t.Errorf("the failing case was run %d times, want kept %v", runs, tt.kept)
			}
		})
	}
}

// dying is buggy behind a program that dies on some cases, as an adapter
// does: a case whose text hashes to 0 modulo 7 crashes it, and every case
// after it in the batch goes unanswered with it (a crash too). It records
// every batch it is sent, in order.
type dying struct {
	mu      sync.Mutex
	batches [][]string
}

func (d *dying) Name() string { return "dying" }

func (d *dying) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return d.RunBatch(ctx, []impl.Case{c})[0]
}

func (d *dying) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	keys := make([]string, len(cases))
	out := make([]impl.Result, len(cases))
	dead := false
	for i, c := range cases {
		keys[i] = c.Key()
		dead = dead || crc32.ChecksumIEEE([]byte(keys[i]))%7 == 0
		if dead {
			out[i] = impl.Fail(impl.ErrCrash, "the program died")
			continue
		}
		out[i] = buggy.Normalize(ctx, c)
	}
	d.mu.Lock()
	d.batches = append(d.batches, keys)
	d.mu.Unlock()
	return out
}

// TestExplainDeterministic: the batches an implementation that takes
// them is sent while findings are explained, and so the root causes,
// depend only on the findings and the answers, not on how the workers
// that minimize them are scheduled, even for a program that dies on some
// cases and takes the cases after them down with it (what is in a batch
// then changes the answers).
func TestExplainDeterministic(t *testing.T) {
	var findings []explain.Finding
	for i := range 24 {
		n := strconv.Itoa(i)
		findings = append(findings,
			finding(explain.Vector, "array"+n+".json", `{"properties":{"tags":{"type":"array"},"x`+n+`":{}}}`, `{"tags":"[\"a\",\"b`+n+`\"]","n":`+n+`}`),
			finding(explain.Bucket, "amp"+n, `{}`, `{"a":{"b":"&Amp;`+n+`","c":"`+strings.Repeat("y", i)+`"}}`),
			finding(explain.Property, "keys"+n, `{}`, `{"b":1,"`+n+`":2,"k":[`+n+`]}`))
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runs := 20
	if testing.Short() {
		runs = 6
	}
	var first [][]string
	var firstRCs []explain.RootCause
	for run := range runs {
		runtime.GOMAXPROCS(1 + run%4)
		rng := rand.New(rand.NewPCG(uint64(run), 1))
		var mu sync.Mutex
		// The reference, asked by the workers between batches, yields to
		// others at random, so that they ask in another order each run.
		want := func(c impl.Case) impl.Result {
			mu.Lock()
			n := rng.IntN(4)
			mu.Unlock()
			for range n {
				runtime.Gosched()
			}
			return impl.Reference.Normalize(context.Background(), c)
		}
		d := &dying{}
		rcs := explain.Explain(ctx, explain.Config{Impl: d, Want: want}, findings)
		if run == 0 {
			first, firstRCs = d.batches, rcs
			crashed := 0
			for _, b := range d.batches {
				for _, k := range b {
					if crc32.ChecksumIEEE([]byte(k))%7 == 0 {
						crashed++
					}
				}
			}
			if crashed == 0 || len(first) < 2 || len(rcs) == 0 {
				t.Fatalf("%d batches, %d cases crashed on, %d root causes: the test shows nothing", len(first), crashed, len(rcs))
			}
			t.Logf("%d batches, %d cases crashed on, %d root causes", len(first), crashed, len(rcs))
			continue
		}
		if !slices.EqualFunc(d.batches, first, slices.Equal) {
			i := 0
			for i < min(len(d.batches), len(first)) && slices.Equal(d.batches[i], first[i]) {
				i++
			}
			t.Fatalf("run %d (GOMAXPROCS %d): %d batches, the first run %d; batch %d differs", run, runtime.GOMAXPROCS(0), len(d.batches), len(first), i)
		}
		if !reflect.DeepEqual(rcs, firstRCs) {
			t.Fatalf("run %d: root causes differ from the first run's", run)
		}
	}
}

// TestExplainStopsInLockstep: a check stopped while its findings are
// minimized in lockstep ends the explanation promptly: the batch under
// way comes back with its requests not run, every worker goes on to find
// that minimizing may not go on, and none waits for a batch that never
// leaves (synctest fails a test whose goroutines all block for good).
func TestExplainStopsInLockstep(t *testing.T) {
	var findings []explain.Finding
	for i := range 40 {
		n := strconv.Itoa(i)
		findings = append(findings,
			finding(explain.Vector, "array"+n+".json", `{"properties":{"tags":{"type":"array"},"x`+n+`":{}}}`, `{"tags":"[\"a\",\"b`+n+`\"]","n":`+n+`}`),
			finding(explain.Bucket, "amp"+n, `{}`, `{"a":{"b":"&Amp;`+n+`"}}`))
	}
	synctest.Test(t, func(t *testing.T) {
		// A stop at 2.5ms comes during the third batch: the experiments'
		// and the first two of minimizing.
		ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Microsecond)
		defer cancel()
		b := &stoppable{}
		start := time.Now()
		rcs := explain.Explain(ctx, explain.Config{Impl: b, Want: want, Keep: func() bool { return ctx.Err() == nil }}, findings)
		if took := time.Since(start); took > 3500*time.Microsecond {
			t.Errorf("the explanation took %v after a stop at 2.5ms", took)
		}
		if b.batches == 0 || b.notRun == 0 {
			t.Errorf("%d batches, %d requests not run: the stop did not come while minimizing", b.batches, b.notRun)
		}
		if n := len(rcs); n == 0 {
			t.Errorf("no root cause")
		}
	})
}

// stoppable is buggy behind a program whose batches take a millisecond
// (of the bubble's clock), and that runs nothing once ctx is done.
type stoppable struct {
	mu              sync.Mutex
	batches, notRun int
}

func (s *stoppable) Name() string { return "stoppable" }

func (s *stoppable) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return s.RunBatch(ctx, []impl.Case{c})[0]
}

func (s *stoppable) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	s.mu.Lock()
	s.batches++
	s.mu.Unlock()
	out := make([]impl.Result, len(cases))
	select {
	case <-ctx.Done():
		for i := range out {
			out[i] = impl.Fail(impl.ErrNotRun, "the check stopped")
		}
		s.mu.Lock()
		s.notRun += len(out)
		s.mu.Unlock()
		return out
	case <-time.After(time.Millisecond):
	}
	for i, c := range cases {
		out[i] = buggy.Normalize(ctx, c)
	}
	return out
}

// TestFailureClasses: failures of the program are root causes by their
// kind, classified without running anything (here there is nothing to
// run), failed cases of properties and fuzzing among them; an answer that
// holds `NaN` or `Infinity` names what in the arguments brought it about.
func TestFailureClasses(t *testing.T) {
	failed := func(source, id, args string, got impl.Result) explain.Finding {
		c := impl.Case{Schema: []byte(`{"properties":{"p":{"type":"array"}}}`), Args: []byte(args)}
		return explain.Finding{Source: source, ID: id, Case: c, Want: want(c), Got: got}
	}
	nonFinite := func(answer string) impl.Result {
		return impl.Fail(impl.ErrProtocol, `the answer is not a JSON object: "{\"id\": …, \"arguments\": `+answer+`}"`)
	}
	for _, tt := range []struct {
		f           explain.Finding
		id, title   string
		failed, vec int
	}{
		{failed(explain.Vector, "crash.json", `{}`, impl.Fail(impl.ErrCrash, "exit status 1")), "failure/crash", "The program crashes", 0, 1},
		{failed(explain.Failed, "fuzzing", `{}`, impl.Fail(impl.ErrTimeout, "")), "failure/timeout", "The program does not answer within the time limit", 1, 0},
		{failed(explain.Failed, "idempotent", `{}`, impl.Fail(impl.ErrProtocol, "bad line")), "failure/protocol", "The program's answer breaks the protocol", 1, 0},
		{failed(explain.Failed, "fuzzing", `{}`, impl.Fail(fmt.Errorf("%w: %w: after 3 failed starts", impl.ErrCrash, impl.ErrGaveUp), "")), "failure/gave-up", "The program fails to start or keeps crashing", 1, 0},
		{failed(explain.Vector, "nan", `{"p":"[NaN]"}`, nonFinite(`{\"p\": [NaN]}`)), "failure/protocol/non-finite",
			"The answer holds `NaN` or `Infinity`, which JSON does not have (`NaN` or `Infinity` in a string read as a number)", 0, 1},
		{failed(explain.Failed, "fuzzing", `{"n":1e400}`, nonFinite(`{\"n\": Infinity}`)), "failure/protocol/non-finite",
			"The answer holds `NaN` or `Infinity`, which JSON does not have (a number past float64 written as `Infinity`)", 1, 0},
	} {
		rcs := explain.Explain(ctx, explain.Config{}, []explain.Finding{tt.f})
		if len(rcs) != 1 {
			t.Fatalf("%s: %d root causes, want one", tt.f.ID, len(rcs))
		}
		rc := rcs[0]
		if rc.ID != tt.id || rc.Title != tt.title || rc.Clause != "failure" || len(rc.Failed) != tt.failed || len(rc.Vectors) != tt.vec {
			t.Errorf("%s: %s %q (%s), %d failed, %d vectors; want %s %q, %d, %d", tt.f.ID, rc.ID, rc.Title, rc.Clause, len(rc.Failed), len(rc.Vectors), tt.id, tt.title, tt.failed, tt.vec)
		}
	}
}

// TestCertainFailureShown: a root cause of failures of the program is
// shown by a case charged for certain rather than a smaller one charged
// by elimination, which a program that buffers its answers can have
// wrong (replayed, it is answered).
func TestCertainFailureShown(t *testing.T) {
	fail := func(id, args string, err error) explain.Finding {
		c := impl.Case{Schema: []byte(`{}`), Args: []byte(args)}
		return explain.Finding{Source: explain.Vector, ID: id, Case: c, Want: want(c), Got: impl.Fail(err, "no answer within 1s")}
	}
	deduced := fmt.Errorf("%w (%w)", impl.ErrTimeout, impl.ErrDeduced)
	for _, order := range [][]explain.Finding{
		{fail("small", `{"a":""}`, deduced), fail("certain", `{"a":"Fish & Chips"}`, impl.ErrTimeout)},
		{fail("certain", `{"a":"Fish & Chips"}`, impl.ErrTimeout), fail("small", `{"a":""}`, deduced)},
	} {
		rcs := explain.Explain(ctx, explain.Config{}, order)
		if len(rcs) != 1 || rcs[0].Count() != 2 || string(rcs[0].Case.Args) != `{"a":"Fish & Chips"}` {
			t.Errorf("root causes %+v, want one shown by the certain charge", rcs)
		}
	}
}

// recorder runs an implementation and keeps every case it is asked.
type recorder struct {
	impl.Impl
	mu    sync.Mutex
	asked []impl.Case
}

func (r *recorder) Normalize(ctx context.Context, c impl.Case) impl.Result {
	r.mu.Lock()
	r.asked = append(r.asked, c)
	r.mu.Unlock()
	return r.Impl.Normalize(ctx, c)
}

// TestExplainSample: of the findings of one root cause, only the explain.Sample
// smallest are minimized; the rest are counted under it as they are.
// Each finding carries a member named "m" and its id: a case asked later
// that has it, smaller than the case found, comes from minimizing it.
func TestExplainSample(t *testing.T) {
	amp := func(id, n string) explain.Finding {
		return finding(explain.Vector, id, `{}`, `{"q":"Ember &Amp; Oak `+n+`","m`+id+`":`+n+`}`)
	}
	key := func(id, k, more string) explain.Finding {
		return finding(explain.Vector, id, `{}`, `{"b":1,"`+k+`":2,"m`+id+`":0`+more+`}`)
	}
	tests := []struct {
		name      string
		findings  []explain.Finding
		minimized []string // the findings minimized
		counts    []int    // findings per root cause, most first
	}{
		{
			name: "one cause, sampled",
			// The smallest three are the second, the fourth and the
			// last, whatever their order.
			findings:  []explain.Finding{amp("a", "1234"), amp("b", "1"), amp("c", "123456"), amp("d", "0"), amp("e", "12345"), amp("f", "12")},
			minimized: []string{"b", "d", "f"},
			counts:    []int{6},
		},
		{
			name: "two causes, each sampled",
			findings: []explain.Finding{amp("a", "1"), amp("b", "12"), amp("c", "123"), amp("d", "1234"),
				key("k", "7", ""), key("l", "8", ""), key("m", "9", `,"z":0`), key("n", "9", `,"zz":0`)},
			minimized: []string{"a", "b", "c", "k", "l", "m"},
			counts:    []int{4, 4},
		},
	}
	if explain.Sample != 3 {
		t.Fatalf("Sample is %d: the tests are written for 3", explain.Sample)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{Impl: buggy}
			rcs := explain.Explain(ctx, explain.Config{Impl: rec, Want: want}, tt.findings)
			var minimized []string
			for _, f := range tt.findings {
				marker := `"m` + f.ID + `"`
				if slices.ContainsFunc(rec.asked, func(c impl.Case) bool {
					return strings.Contains(string(c.Args), marker) && len(c.Schema)+len(c.Args) < len(f.Case.Schema)+len(f.Case.Args)
				}) {
					minimized = append(minimized, f.ID)
				}
			}
			slices.Sort(minimized)
			if !slices.Equal(minimized, tt.minimized) {
				t.Errorf("minimized %v, want %v", minimized, tt.minimized)
			}
			var counts []int
			for _, rc := range rcs {
				counts = append(counts, rc.Count())
			}
			if !slices.Equal(counts, tt.counts) {
				t.Errorf("findings per root cause %v, want %v", counts, tt.counts)
			}
		})
	}
}

// TestFallbackTitledByAll: findings no deviation explains, of one class,
// are one root cause whose title names what each shows, not what the
// first does: an implementation that answers arguments that are not an
// object, and a schema broken only in its `$defs` (as a draft-07
// validator, which does not know `$defs`), as sent, and is right
// elsewhere, was told only "arguments not an object".
func TestFallbackTitledByAll(t *testing.T) {
	lax := impl.Func("lax", func(ctx context.Context, c impl.Case) impl.Result {
		r := impl.Reference.Normalize(ctx, c)
		if r.Error == impl.ErrNotObject || r.Error == impl.ErrInvalidSchema && strings.Contains(string(c.Schema), `"$defs"`) {
			return impl.OK(c.Args)
		}
		return r
	})
	fs := []explain.Finding{findingOf(lax, explain.Vector, "a", `{}`, `[1]`), findingOf(lax, explain.Vector, "b", `{"$defs":[]}`, `{"a":"x"}`)}
	for _, order := range [][]explain.Finding{fs, {fs[1], fs[0]}} {
		rcs := explain.Explain(ctx, explain.Config{Impl: lax, Want: want}, order)
		if len(rcs) != 1 {
			t.Fatalf("%d root causes, want one: %+v", len(rcs), rcs)
		}
		const title = "Input the rule rejects (arguments not an object, a broken schema) is answered instead of rejected"
		if rcs[0].ID != "no-error" || rcs[0].Title != title {
			t.Errorf("root cause %s: %q; want no-error: %q", rcs[0].ID, rcs[0].Title, title)
		}
	}
}
