package check

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"pgregory.net/rapid"

	"github.com/toolnorm/toolnorm/check/internal/coalesce"
	"github.com/toolnorm/toolnorm/check/internal/explain"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/schemagen"
	"github.com/toolnorm/toolnorm/properties"
)

// Fuzzer compares an implementation with the reference on generated cases
// and on mutations of corpus vectors, for toolnorm fuzz. Each difference
// is minimized and bucketed, so that one bug found a thousand times is one
// finding. Failures of the program (a crash, a timeout) are counted, not
// reported as findings.
type Fuzzer struct {
	Impl    impl.Impl
	Command string           // the --impl command line, for reproduction commands
	Seeds   []*corpus.Vector // vectors to mutate
	// Known holds the buckets found before (when resuming): they are not
	// reported again. The run adds the buckets it reports.
	Known map[string]bool
	// OnFinding is called with each new finding, as soon as it is found
	// (to write it: nothing is lost if the run is stopped).
	OnFinding func(Finding) error
	// Blind fuzzes without asking for coverage, even when the
	// implementation offers it: the cases are those of an implementation
	// that offers none.
	Blind bool
	// Queue holds cases an earlier run kept for the coverage they reached
	// (the findings directory's queue): when the implementation offers
	// coverage, Run runs them first, so that the queue starts where it
	// stopped. They run under the implementation's own options.
	Queue []impl.Case
	// OnQueued, when the implementation offers coverage, is called with
	// each case kept for reaching code no case before it had (to write
	// it, for a later run's Queue).
	OnQueued func(impl.Case) error
	// Titled describes, and so names, each finding's vector by the title
	// of its root cause (toolnorm fuzz, which writes them), rather than by
	// its bucket and how it differs: a sentence to read in a pull request.
	Titled bool
	// MaxCases, when not 0, stops Run once it has drawn that many cases
	// (the queue an earlier run kept aside), its deadline or not: a run of
	// so many cases, the same on a loaded machine as on an idle one.
	MaxCases int

	Cases int // cases run
	// SameCause counts, with Titled, the new buckets whose root cause a
	// finding of this run already shows (an explained one: a deviation
	// explains it), which are not reported: one behaviour is one finding
	// a run, however many ways it shows. A later run reports such a
	// bucket if it finds it again, so a partial fix never hides the rest.
	SameCause   int
	Failures    int // of which the implementation failed on
	Unsupported int // of which did not reach it: not sendable, or answered unsupported
	Findings    []Finding
	// unsupported says why each of the Unsupported did not.
	unsupported []string

	// Case i of a run is drawn from the run's seed alone, so that a run
	// of N cases is the first N of any longer one.
	seed     uint64
	gen      *rapid.Generator[impl.Case]
	usable   []*corpus.Vector // the Seeds the implementation can take
	seen     map[string]bool  // buckets of unminimized cases met
	differed int              // cases whose result differed, before bucketing
	inFlight impl.Result      // the request under way when the check stopped
	failed   []failedCase     // the cases the implementation failed on
	covered  counter          // the features of the cases run
	own      impl.Options     // the options the implementation declares (the defaults when none)
	guide    *guide           // when the implementation offers coverage: the queue it steers
	causes   map[string]bool  // with Titled: the explained root causes reported this run
}

// Stats is a moment of a fuzzing run.
type Stats struct {
	Cases    int
	Findings int
	Elapsed  time.Duration
}

const fuzzProperty = properties.AgreesWithReference

// errGaveUp ends a fuzzing run whose implementation was given up on; it is
// an impl.ErrGaveUp.
var errGaveUp = fmt.Errorf("the implementation kept failing and was %w on", impl.ErrGaveUp)

// bucketTag is the prefix of the tag that files a fuzzing finding's vector
// under its bucket (see BucketTag and Buckets).
const bucketTag = "bucket-"

// BucketTag is the tag of a finding's vector that names its bucket.
func BucketTag(bucket string) string { return bucketTag + bucket }

// Buckets returns the buckets a vector's tags name: of a finding written
// before, not reported again.
func Buckets(tags []string) []string {
	var out []string
	for _, t := range tags {
		if b, ok := strings.CutPrefix(t, bucketTag); ok {
			out = append(out, b)
		}
	}
	return out
}

// Run fuzzes until the deadline or until ctx is done, calling tick after
// each batch. The same seed gives the same cases. No batch starts after
// the deadline, and what is under way then (requests in flight, the
// minimizing of what they found) is stopped past it by the Grace of the
// run's duration, as a check's is past its budget: Run returns by then
// whatever the implementation does.
func (f *Fuzzer) Run(ctx context.Context, seed uint64, deadline time.Time, tick func(Stats)) error {
	f.start(seed)
	start := time.Now()
	ctx, cancel := context.WithDeadline(ctx, deadline.Add(Grace(deadline.Sub(start))))
	defer cancel()
	batch := 64
	if _, ok := f.Impl.(impl.Batcher); ok {
		batch = 256 // pipelined
	}
	var err error
	if f.guide != nil {
		// The queue of an earlier run first: what it reached is known
		// again before any case is drawn from it.
		for i := 0; i < len(f.Queue) && err == nil && ctx.Err() == nil && time.Now().Before(deadline); i += batch {
			cases := slices.Clone(f.Queue[i:min(i+batch, len(f.Queue))])
			for j := range cases {
				cases[j].Options = f.own
			}
			f.guide.prepare(len(cases)) // none of them a mutant
			err = f.guided(ctx, cases, false)
		}
	}
	for i := 0; err == nil && ctx.Err() == nil && time.Now().Before(deadline) && (f.MaxCases == 0 || i < f.MaxCases); i += batch {
		n := batch
		if f.MaxCases > 0 {
			n = min(n, f.MaxCases-i)
		}
		if err = f.step(ctx, i, n); err != nil {
			break
		}
		if tick != nil {
			tick(Stats{f.Cases, len(f.Findings), time.Since(start)})
		}
	}
	return err
}

// newFuzzer is a Fuzzer of the engine's, started from seed. A check asks
// for no coverage: its rounds go through the lockstep (package coalesce),
// and its report is the same whether the adapter offers coverage or not.
func newFuzzer(im impl.Impl, command string, vectors []*corpus.Vector, seed uint64) *Fuzzer {
	f := &Fuzzer{Impl: im, Command: command, Seeds: vectors, Blind: true}
	f.start(seed)
	return f
}

// start readies f for a run from seed, its counts at zero.
func (f *Fuzzer) start(seed uint64) {
	f.seed, f.gen, f.usable = seed, properties.Cases(f.Impl), usable(f.Impl, f.Seeds)
	// The options the implementation declares, read from it as started
	// (a round may send through a wrapper that declares none).
	f.own, _ = impl.OptionsOf(f.Impl)
	if f.Known == nil {
		f.Known = map[string]bool{}
	}
	f.seen = map[string]bool{}
	f.Cases, f.Failures, f.Unsupported, f.differed, f.Findings, f.unsupported = 0, 0, 0, 0, nil, nil
	f.covered = counter{}
	f.guide = nil
	if c, unit := impl.CoverageOf(f.Impl); c != nil && !f.Blind {
		f.guide = newGuide(c, unit)
	}
}

// CodeCoverage is what the run learnt of the implementation's own code,
// or nil when it offers no coverage (impl.Coverer).
func (f *Fuzzer) CodeCoverage() *CodeCoverage {
	if f.guide == nil {
		return nil
	}
	r := f.guide.result()
	if n := len(r.Growth); n == 0 || r.Growth[n-1].Cases < f.Cases {
		r.Growth = append(r.Growth, GrowthPoint{f.Cases, r.Reached})
	}
	return r
}

// draw is case i.
func (f *Fuzzer) draw(i int) impl.Case {
	s := properties.CaseSeed(f.seed, "fuzz", i)
	rng := rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
	switch x := rng.IntN(6); {
	case len(f.usable) > 0 && x < 2:
		return mutate(rng, f.usable[rng.IntN(len(f.usable))])
	case x < 3: // a half of the cases without a corpus, a sixth with one
		return searched(rng, f.own)
	}
	return f.gen.Example(int(rng.Int64() >> 1))
}

// searched is a case of the schema search (internal/schemagen): a schema
// over the whole vocabulary with arguments drawn for it, its schema and
// arguments then mutated together. Each case is swarm testing: it
// enables a random subset of the generator's features and of the
// mutations.
func searched(rng *rand.Rand, own impl.Options) impl.Case {
	schema, args, _ := schemagen.DrawTrees(rng.Uint64(), schemagen.Options{})
	if rng.IntN(2) == 0 {
		schemagen.Mutate(rng, schema, args)
	}
	return impl.Case{Schema: schema.Append(nil), Args: args.Append(nil), Options: own}
}

// step runs cases from..from+n-1 as one batch and judges each against the
// reference; when ctx is done, the minimizing of what it finds stops with
// what it has.
func (f *Fuzzer) step(ctx context.Context, from, n int) error {
	cases := f.drawn(from, n)
	// The first batch is the generators' alone, whatever the queue: its
	// coverage is asked for from the second on, so that a bug the first
	// finds costs no more than without coverage (collecting coverage
	// costs most at first, when every case reaches something new).
	if f.guide != nil && any(f.guide.cover) == any(f.Impl) && (from > 0 || len(f.Queue) > 0) { // not when Impl was wrapped since
		return f.guided(ctx, cases, true)
	}
	return f.judge(ctx, cases, impl.Run(ctx, f.Impl, cases))
}

// guided runs and judges cases with their coverage asked for, and keeps
// those that reached code no case before them had; with tell, OnQueued
// hears of each.
func (f *Fuzzer) guided(ctx context.Context, cases []impl.Case, tell bool) error {
	got := f.guide.run(ctx, cases)
	err := f.judge(ctx, cases, got)
	for _, c := range f.guide.learn(cases, got, f.Cases) {
		if tell && f.OnQueued != nil && err == nil {
			err = f.OnQueued(c)
		}
	}
	return err
}

// drawn is cases from..from+n-1.
func (f *Fuzzer) drawn(from, n int) []impl.Case {
	if f.guide != nil {
		f.guide.prepare(n)
	}
	cases := make([]impl.Case, n)
	for j := range cases {
		if f.guide != nil && len(f.guide.queue) > 0 {
			// Some cases are mutants of the queue instead, decided by a
			// stream of their own: the others are those of a run
			// without coverage.
			s := properties.CaseSeed(f.seed, "fuzz", from+j)
			if c, ok := f.guide.instead(rand.New(rand.NewPCG(s^0x632be59bd9b4e019, s)), j); ok {
				cases[j] = c
				continue
			}
		}
		cases[j] = f.draw(from + j)
	}
	return cases
}

// judge judges cases against the reference, given the implementation's
// results, as step does.
func (f *Fuzzer) judge(ctx context.Context, cases []impl.Case, got []impl.Result) error {
	var news []newDifference
	for j, c := range cases {
		switch {
		case got[j].Kind() == impl.KindNotRun:
			f.inFlight = got[j]
			return f.found(ctx, news)
		case errors.Is(got[j].Failure, impl.ErrGaveUp):
			if err := f.found(ctx, news); err != nil {
				return err
			}
			return errGaveUp
		}
		f.Cases++
		f.covered.count(c)
		if got[j].Kind() == impl.KindNotSendable {
			f.Unsupported++ // not counted against the implementation
			f.unsupported = append(f.unsupported, unsupportedWhy(got[j]))
			continue
		}
		if got[j].Failed() {
			f.Failures++
			f.failed = append(f.failed, failedCase{c, got[j]})
			continue
		}
		want := impl.Reference.Normalize(ctx, c)
		if want.Kind() == impl.KindNotRun {
			// The reference stopped with the check: the case is not
			// judged, as one the implementation did not run.
			f.Cases--
			return f.found(ctx, news)
		}
		cmp := impl.Compare(got[j], want)
		if cmp.Same() {
			continue
		}
		f.differed++
		// Minimizing costs thousands of runs: skip a case whose
		// difference, before minimizing, is one already met.
		pre := Bucket(cmp.Diff, c.Args, got[j], want)
		if f.seen[pre] {
			continue
		}
		f.seen[pre] = true
		news = append(news, newDifference{c: c, got: got[j], pre: pre, counts: f.counts()})
	}
	return f.found(ctx, news)
}

// A newDifference is a case whose difference, before minimizing, is new:
// its bucket (pre), and the fuzzer's counts once it was counted.
type newDifference struct {
	c      impl.Case
	got    impl.Result
	pre    string
	counts [4]int
}

func (f *Fuzzer) counts() [4]int { return [4]int{f.Cases, f.Failures, f.Unsupported, f.differed} }

// found minimizes a step's new differences and reports, in their order,
// each whose bucket is new. A program behind the protocol (an
// impl.Batcher) has them minimized at once, their candidates sent in
// shared batches, in lockstep (package coalesce): the same requests, in
// fewer round trips, and the same findings, as the buckets are told only
// once all are minimized; the batches depend only on the differences and
// the answers, so a program that crashes is charged the same crashes run
// after run. An implementation in the process (the reference) may not be
// safe for use from several goroutines: its differences are minimized one
// after another. When OnFinding fails, the counts are left as they were when
// the finding's case was counted, as if no case after it had run.
func (f *Fuzzer) found(ctx context.Context, news []newDifference) error {
	mins := make([]minimal, len(news))
	_, together := f.Impl.(impl.Batcher)
	if together {
		k := coalesce.New(ctx, f.Impl, nil)
		k.Each(ctx, len(news), func(ctx context.Context, i int) {
			mins[i] = minimized(ctx, k, news[i].c, news[i].got)
		})
		k.Release()
	}
	for i, d := range news {
		if !together {
			mins[i] = minimized(ctx, f.Impl, d.c, d.got)
		}
		if err := f.report(ctx, d.c, mins[i]); err != nil {
			f.Cases, f.Failures, f.Unsupported, f.differed = d.counts[0], d.counts[1], d.counts[2], d.counts[3]
			f.unsupported = f.unsupported[:f.Unsupported]
			for _, later := range news[i+1:] {
				delete(f.seen, later.pre)
			}
			return err
		}
	}
	return nil
}

// minimal is a difference minimized: its case's schema and arguments,
// the implementation's result on it, and whether the check was stopped
// during its minimizing.
type minimal struct {
	schema, args []byte
	got          impl.Result
	cut          bool
}

// minimized minimizes a failing case on im.
func minimized(ctx context.Context, im impl.Impl, c impl.Case, got impl.Result) minimal {
	schema, args := c.Schema, c.Args
	if v := corpus.NewFinding(ctx, im, impl.Reference, "", "found", "found", nil, c.Schema, c.Args, c.Options); v != nil {
		// The minimal case, if it still fails (a flaky implementation can
		// make it pass).
		m := impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: c.Options}
		g := im.Normalize(ctx, m)
		if impl.Compare(g, impl.Reference.Normalize(ctx, m)).Violation() {
			schema, args, got = v.SchemaText(), v.ArgumentsText(), g
		}
	}
	return minimal{schema: schema, args: args, got: got, cut: ctx.Err() != nil}
}

// report reports a minimized difference of case c if its bucket is new.
func (f *Fuzzer) report(ctx context.Context, c impl.Case, m minimal) error {
	prop, _ := properties.ByID(fuzzProperty)
	schema, args, got := m.schema, m.args, m.got
	want := impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: c.Options})
	diff := impl.Compare(got, want).Diff
	bucket := Bucket(diff, args, got, want)
	if f.Known[bucket] {
		return nil
	}
	f.Known[bucket] = true
	msg := impl.Compare(got, want).Message(got, want, "the reference gives")
	// The description names the bucket, so that it is unique and a rerun
	// of the same bug dedupes by it too.
	description := "Fuzzing finding " + bucket + ": " + display.Clip(diff, 80)
	if f.Titled {
		title, cause := f.title(ctx, impl.Case{Schema: schema, Args: args, Options: c.Options}, got, want, bucket)
		if cause != "" {
			if f.causes[cause] {
				f.SameCause++
				return nil
			}
			if f.causes == nil {
				f.causes = map[string]bool{}
			}
			f.causes[cause] = true
		}
		description = corpus.Description(title, " (fuzzing bucket "+bucket+")")
	}
	v := corpus.New(description, "found", "found", []string{fuzzProperty, BucketTag(bucket)}, schema, args, c.Options, impl.Reference)
	fd := Finding{Property: fuzzProperty, Clause: prop.Clause, Message: msg, Bucket: bucket, Vector: v, Command: replayCommand(f.Command, "", v, fmt.Sprintf(".fuzz.findings[%d].vector", len(f.Findings))), Cut: m.cut}
	f.Findings = append(f.Findings, fd)
	if f.OnFinding != nil {
		return f.OnFinding(fd)
	}
	return nil
}

// title is the title of the root cause of a finding: its case c, the
// implementation's result got and the reference's want; and its id when
// deviations explain it ("" for a class of what differs, which may hold
// several bugs).
func (f *Fuzzer) title(ctx context.Context, c impl.Case, got, want impl.Result, bucket string) (title, cause string) {
	rcs := explain.Explain(ctx, explain.Config{Impl: f.Impl, Want: func(c impl.Case) impl.Result {
		return impl.Reference.Normalize(context.WithoutCancel(ctx), c)
	}, Keep: func() bool { return ctx.Err() == nil }}, []explain.Finding{{Source: explain.Bucket, ID: bucket, Case: c, Want: want, Got: got, Clause: "found"}})
	if len(rcs) == 0 || rcs[0].Title == "" {
		return "A difference with the reference", ""
	}
	if len(rcs[0].Deviations) > 0 {
		cause = rcs[0].ID
	}
	return strings.TrimSuffix(rcs[0].Title, "."), cause
}

// Bucket names the kind of a difference, so that one bug found many times
// is one finding: how the results differ and, where both are JSON, what
// stands at the first place they differ (the kind of each value there, and
// whether the argument sent there was text, text with references, or
// JSON text), wherever in the arguments that place is.
func Bucket(diff string, args []byte, got, want impl.Result) string {
	h := sha256.New()
	h.Write([]byte(diff))
	h.Write([]byte{0})
	g, err1 := jsonvalue.Parse(got.Output)
	w, err2 := jsonvalue.Parse(want.Output)
	a, err3 := jsonvalue.Parse(args)
	if err1 == nil && err2 == nil && err3 == nil {
		h.Write([]byte(firstDifference(a, g, w)))
	}
	return hex.EncodeToString(h.Sum(nil))[:10]
}

// firstDifference describes the first place where got and want differ.
func firstDifference(in, got, want *jsonvalue.Value) string {
	if got.Kind != want.Kind {
		return class(in) + ":" + got.Kind.String() + "->" + want.Kind.String()
	}
	switch got.Kind {
	case jsonvalue.Array:
		if len(got.Elems) != len(want.Elems) {
			return class(in) + ":array length"
		}
		for i := range got.Elems {
			if !jsonvalue.Equal(got.Elems[i], want.Elems[i]) {
				return firstDifference(child(in, "", i), got.Elems[i], want.Elems[i])
			}
		}
	case jsonvalue.Object:
		if len(got.Members) != len(want.Members) {
			return class(in) + ":object size"
		}
		for i, m := range got.Members {
			if m.Key != want.Members[i].Key {
				return class(in) + ":keys"
			}
			if !jsonvalue.Equal(m.Value, want.Members[i].Value) {
				return firstDifference(child(in, m.Key, -1), m.Value, want.Members[i].Value)
			}
		}
	}
	return class(in) + ":" + got.Kind.String() + " value"
}

// child is the member key (or element i) of v, nil when there is none or v
// is a string that was decoded.
func child(v *jsonvalue.Value, key string, i int) *jsonvalue.Value {
	if v == nil {
		return nil
	}
	if i >= 0 && v.Kind == jsonvalue.Array && i < len(v.Elems) {
		return v.Elems[i]
	}
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// class says what an argument was: JSON text (J), text with references
// (R), other text (S), or another kind.
func class(v *jsonvalue.Value) string {
	switch {
	case v == nil:
		return "-"
	case v.Kind != jsonvalue.String:
		return v.Kind.String()
	}
	switch s := strings.TrimSpace(v.Str); {
	case strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{"):
		return "J"
	case strings.Contains(s, "&"):
		return "R"
	}
	return "S"
}

// usable returns the vectors the fuzzer may mutate: those that expect
// output, for the implementation's options.
func usable(im impl.Impl, vectors []*corpus.Vector) []*corpus.Vector {
	own, configured := impl.OptionsOf(im)
	var out []*corpus.Vector
	for _, v := range vectors {
		if v.Error != "" || configured && !v.Options.Same(own) {
			continue
		}
		out = append(out, v)
	}
	return out
}

// mutate changes a vector's arguments the way models do: a string escaped
// once more, a member sent as its JSON text, a reference added.
func mutate(rng *rand.Rand, v *corpus.Vector) impl.Case {
	c := impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options}
	root, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return c
	}
	if rng.IntN(2) == 0 {
		// The schema and the arguments changed together, structure-aware
		// (a keyword added or dropped, a subschema wrapped or moved into
		// $defs, a type form or the draft changed, a constraint the value
		// breaks, a special key).
		if schema, err := jsonvalue.Parse(c.Schema); err == nil && root.Kind == jsonvalue.Object {
			if _, changed := schemagen.Mutate(rng, schema, root); changed {
				c.Schema, c.Args = schema.Append(nil), root.Append(nil)
				return c
			}
		}
	}
	values := valuesOf(root)
	x := values[rng.IntN(len(values))]
	switch {
	case x.Kind == jsonvalue.String && rng.IntN(2) == 0:
		x.Str = escapeOnce.Replace(x.Str)
	case x.Kind == jsonvalue.String:
		x.Str += []string{"&amp;", "&lt", "&#38;amp;", "&notin;", "&#x26;lt;", "&"}[rng.IntN(6)]
	case x != root && (x.Kind == jsonvalue.Array || x.Kind == jsonvalue.Object):
		text := string(x.Append(nil))
		*x = jsonvalue.Value{Kind: jsonvalue.String, Str: text}
	}
	c.Args = root.Append(nil)
	return c
}

// escapeOnce escapes a string once more, as a model does (built once:
// building a Replacer costs more than most replacements).
var escapeOnce = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;")

// fuzzRound is the fuzzing of one round of a check.
func (e *run) fuzzRound(ctx context.Context, fz *Fuzzer, from, n int) {
	e.fuzzDone(fz, fz.step(ctx, from, n))
}

// fuzzDone records how a round of fuzzing ended.
func (e *run) fuzzDone(fz *Fuzzer, err error) {
	if errors.Is(err, impl.ErrGaveUp) {
		e.stopMu.Lock()
		if e.stopped == "" {
			e.stopped = givenUp + err.Error()
		}
		e.gaveUp = true
		e.stopMu.Unlock()
	}
	e.noteInFlight(fz.inFlight, "a fuzzing case")
}
