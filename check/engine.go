package check

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolnorm/toolnorm/check/internal/coalesce"
	"github.com/toolnorm/toolnorm/check/internal/explain"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
	"github.com/toolnorm/toolnorm/normalize"
	"github.com/toolnorm/toolnorm/properties"
)

// roundSize is how many cases of each property, and of fuzzing, one round
// runs. A check runs whole rounds, so every property and the fuzzer run
// the same number of cases and --checks repeats a budget-bound run.
const roundSize = 16

// The ways an implementation can tell the check about its failures.
type (
	informed interface{ Info() harness.Info }
	logged   interface {
		Events() []harness.Event
		Restarts() int
	}
	// confirmer sends requests charged by elimination with a failure
	// again, each alone (harness.Adapter.Confirm).
	confirmer interface {
		Confirm(ctx context.Context, n int) int
	}
)

// confirmShown is how many failures charged by elimination a check sends
// again, alone, before it reports them: as many as the text report shows.
const confirmShown = 10

// run is one check under way.
type run struct {
	cfg Config
	// added are the vectors of cfg.Added replayed, by pointer: their
	// File is the path of their file (file, command).
	added map[*corpus.Vector]bool
	// ctx is done when the check must stop what is under way: on an
	// interrupt, at the hard deadline, or when the implementation was
	// given up on (cancel).
	ctx         context.Context
	cancel      context.CancelFunc
	stop        context.Context // done on an interrupt or at the hard deadline (not when given up on)
	r           *Report
	start       time.Time
	deadline    time.Time // zero: no time limit
	hard        time.Time // deadline + Grace: past it, a request under way is stopped
	stopped     string
	gaveUp      bool       // the implementation was given up on (for stopMu)
	inFlight    *InFlight  // the request under way when the check stopped
	applies     int        // vectors that apply
	answered    int        // of them, answered or failed on (not run, not skipped)
	wholeRounds int        // whole rounds run
	roundSec    float64    // their wall time
	stopMu      sync.Mutex // for stopped and inFlight, within a round (Jobs > 1)
	// progressMu is for the progress display and the report's corpus
	// result, while the corpus is replayed beside the rounds (Jobs > 1).
	progressMu sync.Mutex
	alongside  bool // the corpus is replayed beside the rounds: it shows no progress
	// found are the vectors failed, for the root causes; foundVectors
	// them by id.
	found        []explain.Finding
	foundVectors map[string]*corpus.Vector
	// keptBytes counts the failing answers of the vectors, found's and
	// unkept's; unkept are the vectors failed past MaxKeptAnswers.
	keptBytes int
	unkept    []unkeptFinding
	// failed are the cases each property (by its index in
	// properties.All) failed on, in the order they were judged: the root
	// causes count them, and one may show the failure.
	failed [][]failedCase
	// fuzzFailed are the fuzzer's.
	fuzzFailed []failedCase
	// covered counts the features of the properties' cases run (the
	// fuzzer counts its own), for the report's Searched.
	covered counter
	// unsupported says why each corpus vector and property case that did
	// not reach the implementation did not (the fuzzer keeps its own).
	unsupportedMu sync.Mutex
	unsupported   []string
	// ledger records the requests that failed, for a program run as a
	// pool (nil: it is not, see newLedger).
	ledger *ledger
}

// A failedCase is a case the program failed on (a crash, a timeout, a
// broken answer), and what came.
type failedCase struct {
	c   impl.Case
	got impl.Result
}

// Run checks cfg.Impl and returns the report. When ctx is done (an
// interrupt), it stops as soon as it can and reports what ran, with the
// verdict Incomplete (or Fail, when it found something before).
func Run(ctx context.Context, cfg Config) *Report {
	if cfg.Seed == 0 {
		cfg.Seed = rand.Uint64()>>1 | 1
	}
	e := &run{cfg: cfg, start: cfg.Start, failed: make([][]failedCase, len(properties.All()))}
	e.addVectors()
	if e.start.IsZero() {
		e.start = time.Now()
	}
	e.r = &Report{FormatVersion: FormatVersion, Toolnorm: cfg.Version, Implementation: cfg.Impl.Name(), Seed: cfg.Seed, Started: e.start.UTC().Truncate(time.Second)}
	if cfg.Checks <= 0 {
		e.deadline = e.start.Add(cfg.Budget)
		e.hard = e.deadline.Add(Grace(cfg.Budget))
		e.r.Budget = cfg.Budget.String()
	}
	// A request under way is stopped at the hard deadline: none waits
	// longer than what is left of the budget and its grace.
	if !e.hard.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, e.hard)
		defer cancel()
	}
	e.ctx, e.cancel = context.WithCancel(ctx)
	e.stop = ctx
	defer e.cancel()
	e.ledger = newLedger(cfg, e.cancel)
	if i, ok := cfg.Impl.(informed); ok {
		info := i.Info()
		e.r.Info = &info
	}
	if o, ok := impl.OptionsOf(cfg.Impl); ok {
		e.r.Choices = o.Choices()
	}

	if e.cfg.Checks > 0 && e.cfg.Jobs > 1 {
		// The corpus replay is one more task beside the rounds (apart):
		// with no time limit, nothing waits for it but the root causes,
		// and the program's restarts on the corpus (the Python example
		// crashes on deep nesting) overlap with the rounds' requests.
		var wg sync.WaitGroup
		e.alongside = true
		wg.Go(func() {
			res := e.replay()
			e.progressMu.Lock()
			e.r.Corpus = res
			e.progressMu.Unlock()
		})
		e.rounds()
		wg.Wait()
	} else {
		e.r.Corpus = e.replay()
		e.rounds()
	}
	e.r.RootCauses = e.explain()
	if ctx.Err() == nil && e.ledger.serial() {
		// What the runs gave up on depends on which took what: the
		// check is run again, sent one run's way.
		p, err := e.ledger.pool.SerialContext(ctx)
		if err == nil {
			defer p.Close()
			cfg.Impl, cfg.Jobs, cfg.Start = p, 1, e.start
			return Run(ctx, cfg)
		}
		e.stopMu.Lock()
		e.stopped = givenUp + display.ClipText("its runs gave up on requests, and it could not be started again to be sent them as one run: "+err.Error(), 500)
		e.stopMu.Unlock()
	}

	if c, ok := cfg.Impl.(confirmer); ok && e.ctx.Err() == nil {
		c.Confirm(e.ctx, confirmShown)
	}
	if l, ok := cfg.Impl.(logged); ok {
		e.r.Events, e.r.Restarts = reportEvents(l.Events()), l.Restarts()
		withStderr(e.r.RootCauses, e.r.Events)
		withMinimizing(e.r.RootCauses, e.r.Events)
	}
	e.r.Unsupported = reasonsOf(e.unsupported)
	e.r.Seconds = time.Since(e.start).Seconds()
	e.r.Stopped = e.stopped
	e.r.Incomplete = e.incomplete()
	e.r.Repeat = e.repeat()
	if o, ok := impl.OptionsOf(cfg.Impl); ok && o.Repairs != normalize.AllRepairs {
		e.r.NotImplemented = o.Repairs.Missing()
		e.r.NotImplementedID = NotImplementedID(o.Repairs)
	}
	e.r.Verdict = e.r.verdict(e.r.Violations() > 0 || e.r.Failures() > 0 || e.r.NotImplemented != "")
	if cfg.Baseline != nil {
		e.r.CompareWith(cfg.Baseline)
	}
	return e.r
}

// verdict is the report's verdict, failing when fails is true (something
// found that counts against it).
func (r *Report) verdict(fails bool) Verdict {
	switch in := r.Incomplete; {
	case fails:
		return Fail
	case in != nil && in.RanShort():
		return Incomplete
	case r.Judged() == 0:
		// All ran, and nothing was judged: every vector skipped, every
		// case answered unsupported.
		return NothingChecked
	case in != nil:
		// Judged too little of what ran.
		return Incomplete
	}
	return Pass
}

// addVectors puts the vectors of cfg.Added after cfg.Vectors, each once:
// one with the id of a vector before it is not replayed again.
func (e *run) addVectors() {
	if len(e.cfg.Added) == 0 {
		return
	}
	e.added = map[*corpus.Vector]bool{}
	seen := make(map[string]bool, len(e.cfg.Vectors))
	for _, v := range e.cfg.Vectors {
		seen[v.ID] = true
	}
	vs := slices.Clip(e.cfg.Vectors)
	for _, v := range e.cfg.Added {
		if !seen[v.ID] {
			seen[v.ID] = true
			e.added[v] = true
			vs = append(vs, v)
		}
	}
	e.cfg.Vectors = vs
}

// over reports whether the check must stop before the next step: it was
// interrupted, its budget (until, if not zero) is spent, or the
// implementation was given up on. It records why.
func (e *run) over(until time.Time) bool {
	e.stopMu.Lock()
	defer e.stopMu.Unlock()
	switch {
	case e.stopped != "":
		return true
	case e.ctx.Err() != nil:
		if errors.Is(e.ctx.Err(), context.DeadlineExceeded) {
			e.stopped = StoppedBudget
		} else {
			e.stopped = "interrupted"
		}
		return true
	case !until.IsZero() && !time.Now().Before(until):
		if until.Equal(e.deadline) || until.Equal(e.hard) {
			e.stopped = StoppedBudget
		}
		return true
	}
	return false
}

// why is why the check stopped ("" while it runs on).
func (e *run) why() string {
	e.stopMu.Lock()
	defer e.stopMu.Unlock()
	return e.stopped
}

// reportEvents are the harness's events as a report holds them: without
// their request ids, which depend on restarts and on which run of the
// adapter took a request (each numbers its own), and in an order that does
// not depend on them either, so that the same --seed and --checks give the
// same report whatever --jobs is.
func reportEvents(evs []harness.Event) []harness.Event {
	out := slices.Clone(evs)
	for i := range out {
		out[i].Request = 0
	}
	slices.SortStableFunc(out, func(x, y harness.Event) int {
		return cmp.Or(cmp.Compare(x.Kind, y.Kind), cmp.Compare(x.Detail, y.Detail), cmp.Compare(x.Stderr, y.Stderr), boolCompare(x.Answered, y.Answered), boolCompare(x.Deduced, y.Deduced))
	})
	return out
}

func boolCompare(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

// givenUp begins the reason a check stopped when its implementation was
// given up on.
const givenUp = "the implementation was given up on: "

// giveUp stops the check for good when res says the implementation was
// given up on.
func (e *run) giveUp(res impl.Result) bool {
	if errors.Is(res.Failure, impl.ErrGaveUp) {
		e.stopMu.Lock()
		defer e.stopMu.Unlock()
		if e.stopped == "" {
			// The detail can hold the adapter's raw stderr: one line, cut.
			e.stopped = givenUp + display.ClipText(res.Detail, 500)
		}
		e.gaveUp = true
		e.cancel() // a minimization under way keeps what it has
		return true
	}
	return false
}

func (e *run) progress(p Progress) {
	if e.cfg.Progress == nil || e.alongside && p.Phase == "corpus" {
		return
	}
	e.progressMu.Lock()
	defer e.progressMu.Unlock()
	p.Elapsed = time.Since(e.start)
	if !e.deadline.IsZero() {
		p.Left = max(time.Until(e.deadline), 0)
	}
	p.Findings = e.r.Violations()
	e.cfg.Progress(p)
}

// Replay replays cfg's vectors on its implementation, without a time
// limit (see Run for the rules).
func Replay(ctx context.Context, cfg Config) CorpusResult {
	e := &run{cfg: cfg, r: &Report{}}
	e.ctx, e.cancel = context.WithCancel(ctx)
	e.stop = ctx
	defer e.cancel()
	return e.replay()
}

// applicable returns the vectors of the corpus that apply to the
// implementation, each with the options to send it under; the others are
// counted as skipped (see [corpus.Applies]).
func (e *run) applicable(res *CorpusResult) ([]*corpus.Vector, []impl.Case) {
	own, configured := impl.OptionsOf(e.cfg.Impl)
	var vs []*corpus.Vector
	var cs []impl.Case
	for _, v := range e.cfg.Vectors {
		o := v.Options
		if configured {
			// e.ctx (the budget, an interrupt) stops the reference too.
			a := corpus.Applies(e.ctx, v, own)
			switch {
			case a.NeedsRepair:
				res.count(v, OutcomeUnimplemented, a.Why)
				continue
			case !a.Applies:
				res.count(v, OutcomeSkipped, a.Why)
				continue
			}
			o = a.Options
		}
		vs = append(vs, v)
		cs = append(cs, impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: o})
	}
	return vs, cs
}

// replay is the corpus phase: up to half the budget, in batches.
func (e *run) replay() CorpusResult {
	start := time.Now()
	res := CorpusResult{Vectors: len(e.cfg.Vectors)}
	vs, cs := e.applicable(&res)
	e.applies = len(vs)
	var until time.Time
	if !e.deadline.IsZero() {
		until = e.start.Add(e.cfg.Budget / 2)
	}
	const batch = 256
	for lo := 0; lo < len(vs); lo += batch {
		e.progress(Progress{Phase: "corpus", Done: lo, Total: len(vs)})
		if e.over(until) {
			why := e.stopped
			if why == "" {
				why = "the corpus replay's half of the budget was spent"
			}
			for _, v := range vs[lo:] {
				res.count(v, OutcomeNotRun, why)
			}
			break
		}
		hi := min(lo+batch, len(vs))
		results := dealt(e.ctx, e.cfg.Impl, cs[lo:hi], e.cfg.Jobs)
		e.ledger.add(phaseCorpus, results)
		for i, got := range results {
			v, c := vs[lo+i], cs[lo+i]
			if k := got.Kind(); e.stop.Err() != nil && k != impl.KindNotRun && k != impl.KindTimeout && k != impl.KindCrash && k != impl.KindProtocol {
				// Judging a batch of large answers takes time too: past
				// the hard deadline (or an interrupt) the rest of it is
				// not judged. (An implementation given up on has the
				// rest judged, up to what it was given up on.) A failure
				// of the program needs no judging: it is counted where it
				// happened, never left to the report's failures "while
				// minimizing findings", which would then count it.
				e.over(time.Time{}) // records why
				res.count(v, OutcomeNotRun, "the check stopped before it was judged: "+e.why())
				continue
			}
			switch got.Kind() {
			case impl.KindNotRun:
				e.noteInFlight(got, "vector "+VectorFailure{File: e.file(v), ID: v.ID}.Label())
				res.count(v, OutcomeNotRun, display.ClipText(got.Detail, 300))
				continue
			case impl.KindNotSendable:
				// It applies, and was not judged: it counts against
				// MinJudged.
				res.count(v, OutcomeSkipped, "not judged: "+display.ClipText(got.Detail, 300))
				res.Unsupported++
				e.unsupportedBecause(got)
				continue
			}
			if e.giveUp(got) {
				res.count(v, OutcomeNotRun, e.stopped)
				continue
			}
			e.answered++
			o := corpus.Judge(v, got)
			// Shown only for a vector that did not pass: most do.
			vf := func() VectorFailure {
				return VectorFailure{File: v.File, ID: v.ID, Description: v.Description, Clause: v.Clause, Message: o.Msg, Command: e.command(v, ""),
					Schema: display.ClipJSON(c.Schema, MaxShown), Arguments: display.ClipJSON(c.Args, MaxShown),
					Options: strings.Join(c.Options.Choices(), ", "), Want: v.Want().Show(MaxShown), Got: got.Show(MaxShown)}
			}
			adapted := !c.Options.Same(v.Options)
			switch {
			case o.Failure != nil:
				res.count(v, OutcomeError, o.Msg)
				res.ErrorList = append(res.ErrorList, vf())
				e.addFound(v, c, got)
				adapted = false // Adapted counts among passed and failed only
			case !o.Pass:
				res.count(v, OutcomeFailed, o.Msg)
				res.Failures = append(res.Failures, vf())
				e.addFound(v, c, got)
			default:
				res.count(v, OutcomePassed, "")
			}
			if adapted {
				res.Adapted++
			}
		}
	}
	res.Seconds = time.Since(start).Seconds()
	return res
}

// dealt runs cases as impl.Run does, dealt out like cards to jobs runs of
// the implementation: an implementation run jobs times (harness.Pool)
// cuts a batch into as many runs of consecutive cases, and neighbours in
// the corpus fail alike (vectors/reading/nesting-of-1000-levels… and
// nesting-of-1001-levels…, which crash a Python adapter, side by side):
// dealt out, their restarts are spread over the runs and overlap, rather
// than one run restarting for each while the others wait. The results
// are in the order of cases.
func dealt(ctx context.Context, im impl.Impl, cases []impl.Case, jobs int) []impl.Result {
	if jobs <= 1 || len(cases) <= jobs {
		return impl.Run(ctx, im, cases)
	}
	order := make([]int, 0, len(cases))
	for k := range jobs {
		for i := k; i < len(cases); i += jobs {
			order = append(order, i)
		}
	}
	sent := make([]impl.Case, len(cases))
	for j, i := range order {
		sent[j] = cases[i]
	}
	got := impl.Run(ctx, im, sent)
	out := make([]impl.Result, len(cases))
	for j, i := range order {
		out[i] = got[j]
	}
	return out
}

// unsupportedBecause records why a case did not reach the implementation.
func (e *run) unsupportedBecause(r impl.Result) {
	e.unsupportedMu.Lock()
	e.unsupported = append(e.unsupported, unsupportedWhy(r))
	e.unsupportedMu.Unlock()
}

// What a reason of [Report.Unsupported] begins with: whose words follow.
const (
	NotTakenByAdapter = "adapter: "  // it answered unsupported, in these words
	NotSentByToolnorm = "toolnorm: " // no protocol line carries the case
)

// unsupportedWhy is why r, not sendable, did not reach the
// implementation: the adapter's words where it answered unsupported,
// with what they quote of the case masked (a string in double quotes, or
// one the adapter clipped before its ": ", a character in single quotes,
// a byte in hex, an offset, a number of four digits or more), so that one
// reason is one line of a report, whatever each case held.
func unsupportedWhy(r impl.Result) string {
	// Whose words they are comes first: the adapter's, or toolnorm's for a
	// case no protocol line carries.
	why, adapter := strings.CutPrefix(r.Detail, impl.AdapterCannotHold)
	who := NotSentByToolnorm
	if adapter {
		who = NotTakenByAdapter
	}
	why = who + maskQuoted(why)
	for _, m := range caseParts {
		why = m.re.ReplaceAllString(why, m.with)
	}
	return display.ClipText(why, 300)
}

// maskQuoted masks each string in double quotes in s, escapes and all:
// to its closing quote, or, where the adapter clipped it, to the ": "
// after it, or the end.
func maskQuoted(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		end := -1
		for j := i + 1; j < len(s); j++ {
			if s[j] == '\\' {
				j++
				continue
			}
			if s[j] == '"' {
				end = j + 1
				break
			}
		}
		switch {
		case end > 0:
			b.WriteString(`"…"`)
			s = s[end:]
		case strings.Contains(s[i:], ": "):
			b.WriteString(`"…"`)
			s = s[i+strings.Index(s[i:], ": "):]
		default:
			b.WriteString(`"…`)
			return b.String()
		}
	}
}

var (
	caseParts = []struct {
		re   *regexp.Regexp
		with string
	}{
		{regexp.MustCompile(`'(?:\\.|[^'\\]){1,8}'`), "'…'"},
		{regexp.MustCompile(`0x[0-9a-fA-F]+`), "0x…"},
		{regexp.MustCompile(`offset [0-9]+`), "offset …"},
		{regexp.MustCompile(`[0-9][0-9.eE+-]{3,}`), "…"},
	}
)

// addFound records a vector failed, for the root causes: its answer kept
// while the answers kept stay within MaxKeptAnswers, else only what a
// report shows of it (unkept).
func (e *run) addFound(v *corpus.Vector, c impl.Case, got impl.Result) {
	if e.keptBytes += len(got.Output); e.keptBytes > MaxKeptAnswers {
		e.unkept = append(e.unkept, unkeptFinding{v: v, c: c, got: got.Show(MaxShown), size: len(got.Output)})
	} else {
		e.found = append(e.found, explain.Finding{Source: explain.Vector, ID: v.ID, Case: c, Want: v.Want(), Got: got, Clause: v.Clause})
	}
	if e.foundVectors == nil {
		e.foundVectors = map[string]*corpus.Vector{}
	}
	e.foundVectors[v.ID] = v
}

// rounds runs the properties and the fuzzer, a round at a time: each
// property that applies and has not broken runs roundSize cases, then the
// fuzzer does. With Checks set it runs exactly that many cases of each;
// with a budget, rounds until it is spent.
func (e *run) rounds() {
	all := properties.All()
	own, configured := impl.OptionsOf(e.cfg.Impl)
	results := make([]*PropResult, len(all))
	for i, p := range all {
		pr := &PropResult{ID: p.ID, Statement: p.Statement, Clause: p.Clause, Required: p.Required, Status: StatusNotChecked}
		if why := p.Inapplicable(own); configured && why != "" {
			pr.Status, pr.Reason = StatusNotApplicable, why
		}
		results[i] = pr
	}
	fz := newFuzzer(e.cfg.Impl, e.cfg.Command, e.cfg.Vectors, e.cfg.Seed)
	total := 0
	if e.cfg.Checks > 0 {
		total = (e.cfg.Checks + roundSize - 1) / roundSize
	}
	done := 0 // cases of each, in all
	fuzzSeconds := 0.0
	// A program behind the protocol runs each round's tasks at once, in
	// lockstep, whatever Jobs is (lockstepRound); an implementation in the
	// process, with Checks set and Jobs > 1, has every task run all its
	// rounds at once (apart).
	_, batcher := e.cfg.Impl.(impl.Batcher)
	apart := e.cfg.Checks > 0 && e.cfg.Jobs > 1 && !batcher
	if apart {
		done, fuzzSeconds = e.apart(all, results, fz, total)
	}
	for round := 0; !apart && (total == 0 || round < total); round++ {
		e.progress(Progress{Phase: "properties", Done: round, Total: total, Cases: e.casesRun(results, fz)})
		// Between rounds the budget is kept exactly; within one, the
		// hard deadline (the budget and its grace) stops a case under way.
		if e.over(e.deadline) {
			break
		}
		n := roundSize
		if e.cfg.Checks > 0 {
			n = min(n, e.cfg.Checks-done)
		}
		roundStart := time.Now()
		if batcher {
			fuzzSeconds += e.lockstepRound(all, results, fz, done, n)
		} else {
			fuzzSeconds += e.each(all, results, fz, done, n)
		}
		done += n
		if e.stopped == "" && e.ctx.Err() == nil {
			e.wholeRounds++ // a whole one
			e.roundSec += time.Since(roundStart).Seconds()
		}
		if e.over(e.hard) {
			break
		}
	}
	e.r.Checks = done
	for _, pr := range results {
		switch {
		case pr.Status == StatusNotApplicable || pr.Violation != nil:
		case pr.Checks > 0:
			pr.Status, pr.Reason = StatusHolds, ""
		case pr.Failures > 0 && pr.Failures == pr.Cases:
			pr.Reason = fmt.Sprintf("the implementation failed on all %d cases", pr.Failures)
		case pr.Cases > 0:
			pr.Reason = fmt.Sprintf("no case was judged: the implementation failed on %d, %d did not reach it (not sendable, or unsupported by the adapter), %d no longer met the property's premise", pr.Failures, pr.Unsent, pr.Moot)
		default:
			pr.Reason = "no case ran"
			if why := e.why(); why != "" {
				pr.Reason += ": " + why
			}
		}
		e.r.Properties = append(e.r.Properties, *pr)
	}
	e.r.Fuzz = FuzzResult{Cases: fz.Cases, Failures: fz.Failures, Differed: fz.differed, Unsupported: fz.Unsupported, Findings: fz.Findings, Seconds: fuzzSeconds}
	e.fuzzFailed = fz.failed
	e.covered.add(&fz.covered)
	e.r.Searched = searchedOf(e.covered.counts)
	e.unsupportedMu.Lock()
	e.unsupported = append(e.unsupported, fz.unsupported...)
	e.unsupportedMu.Unlock()
}

// each runs a round of every property that applies and has not broken,
// then the fuzzer's, each sending its own requests. With Jobs > 1 they run
// at once, Jobs at a time: each has its own cases and results, so the
// report is the same whatever Jobs is. It returns the fuzzer's seconds.
func (e *run) each(all []properties.Property, results []*PropResult, fz *Fuzzer, from, n int) (fuzzSeconds float64) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, max(e.cfg.Jobs, 1))
	do := func(f func()) {
		if e.cfg.Jobs <= 1 {
			f()
			return
		}
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			f()
		})
	}
	for i, p := range all {
		if pr := results[i]; pr.Status != StatusNotApplicable && pr.Violation == nil {
			do(func() {
				t := time.Now()
				e.propertyRound(e.ctx, e.cfg.Impl, p, pr, from, n)
				pr.Seconds += time.Since(t).Seconds()
			})
		}
	}
	do(func() {
		t := time.Now()
		e.fuzzRound(e.ctx, fz, from, n)
		fuzzSeconds = time.Since(t).Seconds()
	})
	wg.Wait()
	return fuzzSeconds
}

// lockstepRound runs a round of every property that applies and has not
// broken, and the fuzzer's, at once, for a program behind the protocol (an
// impl.Batcher: an adapter, or a harness.Pool of Jobs runs), whatever Jobs
// is. The tasks draw and judge their cases on every core, and what they
// ask the program goes out in lockstep (package coalesce): a batch leaves
// once every task waits for answers, holding what each asked in the order
// of the tasks, so the round's first requests are one batch, and so are
// the further runs and the shrinking steps asked for at the same time.
// Which cases share a batch then depends only on the cases and the
// answers, never on timing or on Jobs, and neither does what a crashing
// program is charged with; a Pool cuts each batch into runs. What the
// program gave up on in a batch is sent again, each task's part on its
// own, as if the round had been sent task by task. It returns the
// fuzzer's seconds.
func (e *run) lockstepRound(all []properties.Property, results []*PropResult, fz *Fuzzer, from, n int) (fuzzSeconds float64) {
	k := coalesce.New(e.ctx, e.sends(phaseRounds), nil)
	defer k.Release()
	fz.Impl = k
	defer func() { fz.Impl = e.cfg.Impl }()
	var tasks []func(ctx context.Context)
	for i, p := range all {
		if pr := results[i]; pr.Status != StatusNotApplicable && pr.Violation == nil {
			tasks = append(tasks, func(ctx context.Context) {
				t := time.Now()
				e.propertyRound(ctx, k, p, pr, from, n)
				pr.Seconds += time.Since(t).Seconds()
			})
		}
	}
	tasks = append(tasks, func(ctx context.Context) {
		t := time.Now()
		e.fuzzRound(ctx, fz, from, n)
		fuzzSeconds = time.Since(t).Seconds()
	})
	k.Each(e.ctx, len(tasks), func(ctx context.Context, i int) { tasks[i](ctx) })
	return fuzzSeconds
}

// apart runs every round of each property, and of the fuzzer, as one
// task, all the tasks at once, for an implementation in the process (the
// reference) with Checks set and Jobs > 1: no round waits for the others'
// (nothing is decided between rounds but whether the check was
// interrupted), and the tasks draw, run and judge their cases on every
// core. A program behind the protocol runs its rounds through
// lockstepRound instead. It returns the cases of each run, as rounds
// does, and the fuzzer's seconds.
func (e *run) apart(all []properties.Property, results []*PropResult, fz *Fuzzer, total int) (done int, fuzzSeconds float64) {
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex // for ran and the progress display
		ran      = total    // rounds run by every task
		cases    int
		finished int
	)
	start := time.Now()
	task := func(round func(from, n int) bool) {
		wg.Go(func() {
			r := 0
			for ; r < total && e.ctx.Err() == nil; r++ {
				n := min(roundSize, e.cfg.Checks-r*roundSize)
				if !round(r*roundSize, n) {
					r = total // broken, or given up on: its count is kept
					break
				}
				mu.Lock()
				cases += n
				mu.Unlock()
			}
			mu.Lock()
			defer mu.Unlock()
			ran = min(ran, r)
			finished++
			e.progress(Progress{Phase: "properties", Done: finished * total / (len(all) + 1), Total: total, Cases: cases})
		})
	}
	for i, p := range all {
		if pr := results[i]; pr.Status != StatusNotApplicable {
			task(func(from, n int) bool {
				t := time.Now()
				e.propertyRound(e.ctx, e.cfg.Impl, p, pr, from, n)
				pr.Seconds += time.Since(t).Seconds()
				return pr.Violation == nil
			})
		}
	}
	task(func(from, n int) bool {
		t := time.Now()
		e.fuzzRound(e.ctx, fz, from, n)
		fuzzSeconds += time.Since(t).Seconds()
		return true
	})
	wg.Wait()
	if !e.over(time.Time{}) { // records an interrupt
		e.wholeRounds, e.roundSec = ran, time.Since(start).Seconds()
	}
	return min(ran*roundSize, e.cfg.Checks), fuzzSeconds
}

func (e *run) casesRun(results []*PropResult, fz *Fuzzer) int {
	n := fz.Cases
	for _, pr := range results {
		n += pr.Cases
	}
	return n
}

// propertyRound runs cases from..from+n-1 of p: their first runs as one
// batch, then their further runs as batches too (properties.JudgeBatch),
// judged in order.
func (e *run) propertyRound(ctx context.Context, im impl.Impl, p properties.Property, pr *PropResult, from, n int) {
	cases, first := e.drawRound(p, from, n)
	e.judgeRound(ctx, im, p, pr, from, cases, impl.Run(ctx, im, first))
}

// drawRound draws cases from..from+n-1 of p, and their first requests.
func (e *run) drawRound(p properties.Property, from, n int) ([]properties.Case, []impl.Case) {
	cases := make([]properties.Case, n)
	first := make([]impl.Case, n)
	for j := range cases {
		cases[j] = p.Draw(properties.CaseSeed(e.cfg.Seed, p.ID, from+j), e.cfg.Impl)
		first[j] = cases[j].Case
	}
	return cases, first
}

// judgeRound judges a round of p, cases from from on, given the results
// of their first requests: their further runs go out to im as batches
// (properties.JudgeBatch), judged in order.
func (e *run) judgeRound(ctx context.Context, im impl.Impl, p properties.Property, pr *PropResult, from int, cases []properties.Case, got []impl.Result) {
	// The cases judged: those that reached the implementation, before the
	// first not run or given up on (where the round stops).
	var judged []properties.Case
	var firsts []impl.Result
	for j, c := range cases {
		if got[j].Kind() == impl.KindNotRun || errors.Is(got[j].Failure, impl.ErrGaveUp) {
			break
		}
		if got[j].Kind() != impl.KindNotSendable {
			judged, firsts = append(judged, c), append(firsts, got[j])
		}
	}
	outs := p.JudgeBatch(ctx, im, judged, firsts, endsRound)
	for j, c := range cases {
		if got[j].Kind() == impl.KindNotRun {
			e.noteInFlight(got[j], "a case of property "+p.ID)
			return
		}
		if e.giveUp(got[j]) {
			return
		}
		pr.Cases++
		e.covered.count(c.Case)
		if got[j].Kind() == impl.KindNotSendable {
			pr.Unsent++ // it did not reach the implementation
			e.unsupportedBecause(got[j])
			continue
		}
		out := outs[0]
		outs = outs[1:]
		switch {
		case out.Failure != nil && out.Failure.Kind() == impl.KindNotRun:
			// The check stopped during the case's second run: not run,
			// not a failure of the program.
			pr.Cases--
			e.noteInFlight(*out.Failure, "a case of property "+p.ID)
			return
		case out.Failure != nil:
			pr.Failures++
			if e.giveUp(*out.Failure) {
				return
			}
			i := propertyIndex(p.ID)
			e.failed[i] = append(e.failed[i], failedCase{out.FailedOn, *out.Failure})
		case out.Moot:
			pr.Moot++
		case out.Message == "":
			pr.Checks++
		default:
			v := p.Violation(ctx, im, c, pr.Checks, from+j)
			pr.Status, pr.Reason = StatusViolated, ""
			pr.Violation = &Finding{Property: p.ID, Clause: p.Clause, Message: v.Message, Vector: v.Vector,
				Command: e.command(v.Vector, fmt.Sprintf(".properties[%d].violation.vector", propertyIndex(p.ID))), Cut: e.ctx.Err() != nil}
			return
		}
	}
}

// endsRound says whether an outcome ends a property's round: a violation,
// or a failure that stops the check (not run, given up on). No case after
// it is judged.
func endsRound(o properties.Outcome) bool {
	return o.Message != "" || o.Failure != nil && (o.Failure.Kind() == impl.KindNotRun || errors.Is(o.Failure.Failure, impl.ErrGaveUp))
}

// repeat is the command that runs this check again with no time limit.
func (e *run) repeat() string {
	s := "toolnorm check"
	if e.cfg.Command != "" {
		s += " --impl " + shellQuote(e.cfg.Command)
	}
	if e.cfg.Timeout > 0 && e.cfg.Timeout != DefaultTimeout && e.timedOut() {
		s += " --timeout " + e.cfg.Timeout.String()
	}
	if e.cfg.CorpusDir != "" {
		s += " --corpus " + shellQuote(e.cfg.CorpusDir) // the fuzzer's seeds come from it too
	}
	for _, dir := range e.cfg.AddedDirs {
		s += " --add-corpus " + shellQuote(dir)
	}
	checks := max(e.r.Checks, 1)
	if e.r.Incomplete != nil {
		checks = e.r.Incomplete.Checks
	}
	return fmt.Sprintf("%s --seed %d --checks %d", s, e.cfg.Seed, checks)
}

// file is where a vector is, as a reproduction command names it.
func (e *run) file(v *corpus.Vector) string {
	if v.File != "" && e.cfg.CorpusDir != "" && !e.added[v] {
		return filepath.Join(e.cfg.CorpusDir, v.File)
	}
	return v.File
}

// noteInFlight records the request under way when the check stopped, the
// first one met.
func (e *run) noteInFlight(res impl.Result, what string) {
	e.stopMu.Lock()
	defer e.stopMu.Unlock()
	var f *impl.InFlight
	// Once the implementation is given up on, the check cancels what is
	// under way itself: a request or a restart cut short then was not
	// waiting on the implementation.
	if e.inFlight == nil && !e.gaveUp && errors.As(res.Failure, &f) {
		e.inFlight = &InFlight{Case: what, Waited: f.Waited.Seconds(), Restarting: f.NotSent}
	}
}

// full is a full round's cases: a round, or the --checks asked.
func (e *run) full() int {
	if e.cfg.Checks > 0 {
		return e.cfg.Checks
	}
	return roundSize
}

// incomplete says what the check did not run, or did not judge, when it
// is short of complete: the corpus that applies not all replayed, or a
// property that applies and did not break, or fuzzing, short of a full
// round; or a part of the check that judged under MinJudged of what it
// ran (coverage).
func (e *run) incomplete() *Shortfall {
	in := &Shortfall{Vectors: e.r.Corpus.NotRun, Round: e.full(), InFlight: e.inFlight, Judged: coverage(e.r)}
	for _, p := range e.r.Properties {
		if p.Status != StatusNotApplicable && p.Violation == nil && p.Cases < in.Round {
			in.Properties = append(in.Properties, p.ID)
		}
	}
	in.Fuzzing = e.r.Fuzz.Cases < in.Round
	if !in.RanShort() && len(in.Judged) == 0 {
		return nil
	}
	in.Checks = max(e.r.Checks, in.Round)
	if !in.RanShort() {
		return in // it ran all it drew: no budget would judge more
	}
	if b := e.budgetNeeded(); b > 0 {
		in.Budget = b.String()
	}
	return in
}

// coverage lists the parts of r that judged under MinJudged of what they
// ran: the corpus (of the vectors that apply and were replayed), each
// property that applies and did not break (of its cases), and fuzzing
// (of its cases). A part that ran nothing is not listed: what it did not
// run is said apart.
func coverage(r *Report) []Coverage {
	var out []Coverage
	add := func(cv Coverage) {
		if cv.Ran > 0 && !judgedEnough(cv.Judged, cv.Ran) {
			out = append(out, cv)
		}
	}
	c := r.Corpus
	add(Coverage{Part: "corpus", Ran: c.Passed + c.Failed + c.Errors + c.Unsupported, Judged: c.Passed + c.Failed, Unsupported: c.Unsupported, Failures: c.Errors})
	for _, p := range r.Properties {
		if p.Status == StatusNotApplicable || p.Violation != nil {
			continue // a property broken is a FAIL whatever else ran
		}
		add(Coverage{Part: p.ID, Ran: p.Cases, Judged: p.Checks, Unsupported: p.Unsent, Failures: p.Failures, Moot: p.Moot})
	}
	f := r.Fuzz
	add(Coverage{Part: FuzzingID, Ran: f.Cases, Judged: f.Agreed() + f.Differed, Unsupported: f.Unsupported, Failures: f.Failures})
	return out
}

// budgetNeeded estimates, from this run's speed, the smallest budget that
// replays the corpus that applies (in the half of the budget it gets) and
// runs a full round after it: 0 when nothing ran to estimate from.
func (e *run) budgetNeeded() time.Duration {
	var perVector, round float64 // seconds
	if e.answered > 0 {
		perVector = e.r.Corpus.Seconds / float64(e.answered)
	}
	switch applicable := 0; {
	case e.wholeRounds > 0:
		round = e.roundSec / float64(e.wholeRounds) * float64(e.full()) / roundSize
	case perVector > 0:
		for _, p := range e.r.Properties {
			if p.Status != StatusNotApplicable {
				applicable++
			}
		}
		// A property's case runs the implementation about twice.
		round = perVector * float64(e.full()*(2*applicable+1))
	default:
		return 0
	}
	corpus := perVector * float64(e.applies)
	need := max(2*corpus, corpus+round) * 1.25
	return max(time.Duration(math.Ceil(need))*time.Second, time.Second)
}

// timedOut reports whether a request timed out: only then does the repeat
// command need the time limit.
func (e *run) timedOut() bool {
	for _, ev := range e.r.Events {
		if ev.Kind == impl.KindTimeout.String() {
			return true
		}
	}
	return false
}

// command is a POSIX shell command that replays a vector on the
// implementation and shows what it expects against what came; it exits 1
// while the implementation still disagrees. A vector of the corpus is
// replayed from its file (or, built in, by its id); a finding, which has
// no file yet, is piped in whole, or, when it is too long for one line,
// saved first, from where the JSON report holds it whole (from: a jq
// path, ".root_causes[2].vector").
func (e *run) command(v *corpus.Vector, from string) string {
	if e.added[v] && v.File != "" {
		return ReplayFileCommand(e.cfg.Command, v.File)
	}
	return replayCommand(e.cfg.Command, e.cfg.CorpusDir, v, from)
}

// replayCommand is run.command for an implementation command (""
// for the built-in one) and a corpus directory ("" for the built-in one).
func replayCommand(implCommand, corpusDir string, v *corpus.Vector, from string) string {
	replay := "toolnorm corpus replay"
	if implCommand != "" {
		replay += " --impl " + shellQuote(implCommand)
	}
	switch {
	case v.File != "" && corpusDir != "":
		return ReplayFileCommand(implCommand, filepath.Join(corpusDir, v.File))
	case v.File != "":
		return replay + " --only " + v.ID
	}
	var line bytes.Buffer
	data, err := corpus.Encode(v)
	if err == nil {
		err = json.Compact(&line, data) // escapes stay as they are: '&' is '&'
	}
	if err != nil || line.Len() > maxCommand {
		return fmt.Sprintf("(the vector is %d bytes, too long for one line: save %s of the JSON report (--format json) as case.json, then) %s case.json", line.Len(), from, replay)
	}
	return "printf '%s\\n' " + shellQuote(line.String()) + " | " + replay + " -"
}

// ReplayFileCommand is the command that replays the vector file path on
// the implementation whose adapter implCommand starts ("": the built-in
// reference), as toolnorm fuzz writes its findings.
func ReplayFileCommand(implCommand, path string) string {
	replay := "toolnorm corpus replay"
	if implCommand != "" {
		replay += " --impl " + shellQuote(implCommand)
	}
	return replay + " " + shellQuote(path)
}

// maxCommand is the longest vector a reproduction command holds inline.
const maxCommand = 2000

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// propertyIndex is where the property id is among a report's properties,
// which are in the order of properties.All.
func propertyIndex(id string) int {
	return slices.IndexFunc(properties.All(), func(p properties.Property) bool { return p.ID == id })
}
