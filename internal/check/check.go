// Package check runs toolnorm's checks of an implementation: it replays the
// corpus, runs every property and fuzzes the implementation against the
// reference, within a time budget, and renders the report as text, JSON,
// JUnit XML or Markdown.
package check

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/properties"
)

// Config says what to check and for how long.
type Config struct {
	Impl    impl.Impl
	Command string // the --impl command line, for reproduction commands ("" for the built-in)
	Vectors []*corpus.Vector
	Budget  time.Duration // for properties and fuzzing together
	Seed    uint64        // 0: random
	// Progress, if set, is told what runs and what was found.
	Progress func(Progress)
}

// Progress is a moment of a check, for a progress display.
type Progress struct {
	Phase    string // "corpus", "properties", "fuzz"
	Step     string // the property or what is fuzzed
	Done     int
	Total    int
	Findings int
}

// Report is the outcome of a check; its JSON form is what toolnorm report
// reads.
type Report struct {
	Implementation string          `json:"implementation"`
	Info           *harness.Info   `json:"info,omitempty"`
	Choices        []string        `json:"declared_choices,omitempty"`
	Seed           uint64          `json:"seed"`
	Budget         string          `json:"budget"`
	Started        time.Time       `json:"started"`
	Seconds        float64         `json:"seconds"`
	Corpus         CorpusResult    `json:"corpus"`
	Properties     []PropResult    `json:"properties"`
	Fuzz           FuzzResult      `json:"fuzz"`
	Events         []harness.Event `json:"events,omitempty"`
	Restarts       int             `json:"restarts,omitempty"`
	Verdict        string          `json:"verdict"` // "pass" or "fail"
}

// CorpusResult is the corpus replay.
type CorpusResult struct {
	Vectors  int             `json:"vectors"`
	Passed   int             `json:"passed"`
	Failed   int             `json:"failed"`
	Skipped  int             `json:"skipped"` // options or input the implementation cannot take
	Failures []VectorFailure `json:"failures,omitempty"`
}

// VectorFailure is one vector the implementation fails.
type VectorFailure struct {
	File        string `json:"file"`
	ID          string `json:"id"`
	Description string `json:"description"`
	Clause      string `json:"clause"`
	Message     string `json:"message"`
	Command     string `json:"command"`
}

// PropResult is one property's outcome.
type PropResult struct {
	ID        string   `json:"id"`
	Statement string   `json:"statement"`
	Clause    string   `json:"clause"`
	Required  bool     `json:"required"`
	Checks    int      `json:"checks"`
	Violation *Finding `json:"violation,omitempty"`
}

// Finding is a minimal counterexample.
type Finding struct {
	Property string         `json:"property"`
	Clause   string         `json:"clause"`
	Message  string         `json:"message"`
	Bucket   string         `json:"bucket,omitempty"`
	Vector   *corpus.Vector `json:"vector"`
	Command  string         `json:"command"`
}

// FuzzResult is the fuzzing against the reference.
type FuzzResult struct {
	Cases    int       `json:"cases"`
	Findings []Finding `json:"findings,omitempty"`
}

// Run checks cfg.Impl and returns the report.
func Run(cfg Config) *Report {
	start := time.Now()
	seed := cfg.Seed
	if seed == 0 {
		seed = rand.Uint64()>>1 | 1
	}
	r := &Report{Implementation: cfg.Impl.Name(), Seed: seed, Budget: cfg.Budget.String(), Started: start.UTC().Truncate(time.Second)}
	if a, ok := cfg.Impl.(*harness.Adapter); ok {
		info := a.Info()
		r.Info, r.Choices = &info, a.Declares().Choices()
	}
	progress := func(p Progress) {
		if cfg.Progress != nil {
			cfg.Progress(p)
		}
	}
	r.Corpus = replay(cfg, progress)

	// The budget is for properties and fuzzing; the corpus replay comes on
	// top of it.
	deadline := time.Now().Add(cfg.Budget)
	all := properties.All()
	propBudget := cfg.Budget / 2 / time.Duration(len(all))
	for i, p := range all {
		progress(Progress{Phase: "properties", Step: p.ID, Done: i, Total: len(all), Findings: r.findings()})
		r.Properties = append(r.Properties, runProperty(cfg, p, seed+uint64(i)*1000003, min(propBudget, time.Until(deadline))))
	}
	progress(Progress{Phase: "fuzz", Findings: r.findings()})
	r.Fuzz = fuzz(cfg, seed, deadline, func(cases, found int) {
		progress(Progress{Phase: "fuzz", Done: cases, Findings: r.findings() + found})
	})
	if a, ok := cfg.Impl.(*harness.Adapter); ok {
		r.Events, r.Restarts = a.Events(), a.Restarts()
	}
	r.Seconds = time.Since(start).Seconds()
	r.Verdict = "pass"
	if r.findings() > 0 {
		r.Verdict = "fail"
	}
	return r
}

func (r *Report) findings() int {
	n := r.Corpus.Failed + len(r.Fuzz.Findings)
	for _, p := range r.Properties {
		if p.Violation != nil {
			n++
		}
	}
	return n
}

// replay runs every vector the implementation can take.
// Replay replays the vectors of cfg on its implementation, skipping those it
// cannot take (other options, or input no JSON line carries).
func Replay(cfg Config) CorpusResult { return replay(cfg, func(Progress) {}) }

func replay(cfg Config, progress func(Progress)) CorpusResult {
	res := CorpusResult{Vectors: len(cfg.Vectors)}
	var run []*corpus.Vector
	configured, isConfigured := cfg.Impl.(impl.Configured)
	adapter, isAdapter := cfg.Impl.(*harness.Adapter)
	// Vectors whose schema or arguments are not JSON text cannot go over
	// the protocol: the harness answers them ErrNotSendable, counted as
	// skipped below.
	for _, v := range cfg.Vectors {
		switch {
		case isConfigured && !sameOptions(v.Options, configured.Options()):
			res.Skipped++
		default:
			run = append(run, v)
		}
	}
	var results []impl.Result
	if isAdapter {
		reqs := make([]harness.Request, len(run))
		for i, v := range run {
			reqs[i] = harness.Request{Schema: v.SchemaText(), Args: v.ArgumentsText()}
		}
		progress(Progress{Phase: "corpus", Total: len(run)})
		results = adapter.Run(reqs)
	} else {
		for i, v := range run {
			if i%500 == 0 {
				progress(Progress{Phase: "corpus", Done: i, Total: len(run)})
			}
			results = append(results, cfg.Impl.Normalize(v.SchemaText(), v.ArgumentsText(), v.Options))
		}
	}
	for i, v := range run {
		got := results[i]
		if got.Error == harness.ErrNotSendable {
			res.Skipped++
			continue
		}
		want := impl.Result{Output: v.ExpectedText(), Error: v.Error}
		if d := impl.Compare(got, want); d != "" {
			res.Failed++
			msg := d + ": got " + describe(got) + ", want " + describe(want)
			res.Failures = append(res.Failures, VectorFailure{File: v.File, ID: v.ID, Description: v.Description, Clause: v.Clause, Message: msg, Command: command(cfg.Command, v)})
			continue
		}
		res.Passed++
	}
	return res
}

func sameOptions(a, b impl.Options) bool {
	norm := func(o impl.Options) impl.Options {
		if o.Profile == "text" {
			o.Profile = ""
		}
		if o.Depth == "all" {
			o.Depth = ""
		}
		return o
	}
	a, b = norm(a), norm(b)
	return a.Profile == b.Profile && a.MaxPasses == b.MaxPasses && a.Depth == b.Depth && (a.MaxDepth == 0 || a.MaxDepth == 1000)
}

func describe(r impl.Result) string {
	if r.Error != "" {
		s := "error " + r.Error
		if r.Detail != "" {
			s += " (" + truncate(r.Detail, 200) + ")"
		}
		return s
	}
	return truncate(string(r.Output), 300)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// runProperty checks p in rounds of checks until it fails or its time is
// spent. rapid cannot be stopped in the middle of a round, so past the end
// of its time the implementation's answers are replaced by the
// reference's: the round then finishes at once, and a violation found
// before keeps the smallest case found by then.
func runProperty(cfg Config, p properties.Property, seed uint64, budget time.Duration) PropResult {
	res := PropResult{ID: p.ID, Statement: p.Statement, Clause: p.Clause, Required: p.Required}
	end := time.Now().Add(budget)
	im := guard(cfg.Impl, end)
	for round := uint64(0); round == 0 || time.Now().Before(end); round++ {
		v, checks := p.Run(im, properties.RunOptions{Checks: 50, Seed: seed + round, ShrinkTime: max(budget/2, 100*time.Millisecond)})
		res.Checks += checks
		if v != nil {
			res.Violation = &Finding{Property: p.ID, Clause: p.Clause, Message: v.Message}
			if v.Vector != nil {
				res.Violation.Vector = v.Vector
				res.Violation.Command = command(cfg.Command, v.Vector)
			}
			return res
		}
	}
	return res
}

// command is a one-line shell command that runs a vector's input on the
// implementation (and, for the built-in one, on the reference).
func command(implCommand string, v *corpus.Vector) string {
	impl := ""
	if implCommand != "" {
		impl = " --impl " + shellQuote(implCommand)
	}
	opts := ""
	if v.Options.Profile == "attribute" {
		opts += " --profile attribute"
	}
	if v.Options.MaxPasses > 0 {
		opts += fmt.Sprintf(" --max-passes %d", v.Options.MaxPasses)
	}
	if v.Options.MaxDepth > 0 {
		opts += fmt.Sprintf(" --max-depth %d", v.Options.MaxDepth)
	}
	schema, args := v.SchemaText(), v.ArgumentsText()
	if len(schema)+len(args) > maxCommand {
		if v.File != "" {
			return fmt.Sprintf("toolnorm corpus replay%s --only %s (the input is %d bytes)", impl, v.ID, len(schema)+len(args))
		}
		return fmt.Sprintf("(the input is %d bytes, too long for one line: see the vector)", len(schema)+len(args))
	}
	return fmt.Sprintf("toolnorm normalize%s%s --schema <(printf %%s %s) --args <(printf %%s %s)", impl, opts, shellQuote(string(schema)), shellQuote(string(args)))
}

// maxCommand is the most input a reproduction command holds inline.
const maxCommand = 1000

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// guard returns im answering until the deadline, and the reference after.
func guard(im impl.Impl, deadline time.Time) impl.Impl {
	g := guarded{im, deadline}
	if c, ok := im.(impl.Configured); ok {
		return guardedConfigured{g, c}
	}
	return g
}

type guarded struct {
	impl.Impl
	deadline time.Time
}

// batch runs cases as runAll does: through the adapter's pipeline before
// the deadline, on the reference after it.
func (g guarded) batch(cases []properties.Case) []impl.Result {
	if time.Now().After(g.deadline) {
		return runAll(impl.Reference, cases)
	}
	return runAll(g.Impl, cases)
}

func (g guarded) Normalize(schema, args []byte, o impl.Options) impl.Result {
	if time.Now().After(g.deadline) {
		return impl.Reference.Normalize(schema, args, o)
	}
	return g.Impl.Normalize(schema, args, o)
}

type guardedConfigured struct {
	guarded
	c impl.Configured
}

func (g guardedConfigured) Options() impl.Options { return g.c.Options() }
