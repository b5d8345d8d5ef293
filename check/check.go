// Package check runs toolnorm's checks of an implementation: it replays
// the corpus, runs every property and fuzzes the implementation against
// the reference, within a time budget or for an exact number of cases,
// and returns what it found as a Report (this file), the model every
// report format is written from. A Go implementation can run the whole
// check from its own go test (see the example of Run).
//
// Running is engine.go and fuzz.go. Writing a report in a format is the
// command's (cmd/toolnorm/internal/render), which this package never
// imports; a Report read back from its JSON (ParseReport) is the same.
package check

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
)

// Config says what to check and for how long.
type Config struct {
	Impl    impl.Impl
	Command string // the --impl command line, for reproduction commands ("" for the built-in)
	Vectors []*corpus.Vector
	// CorpusDir is the directory the vectors came from, for reproduction
	// commands ("" for the corpus built into toolnorm).
	CorpusDir string
	// Added are vectors replayed beside Vectors, and fuzzed from: those
	// of corpus directories added to it (check --add-corpus: the findings
	// toolnorm fuzz keeps), each File the path of its file, its directory
	// included, as a reproduction command names it. One with the id of a
	// vector before it is not replayed again. AddedDirs are their
	// directories, for the repeat command.
	Added     []*corpus.Vector
	AddedDirs []string
	// Budget bounds the whole check, the corpus replay included. It is
	// kept between rounds of cases; a request waits at most what is left
	// of it and its Grace, when the request under way is stopped (in
	// flight, for so long) and the check ends.
	Budget time.Duration
	// Start is when the budget began: the command's start, so that reading
	// the corpus and starting the adapter count against it too (zero: when
	// Run is called). The report's started and seconds count from it.
	Start time.Time
	// Checks, when more than 0, is the exact number of cases each property
	// and the fuzzer run, with no time limit: the same Seed and Checks give
	// the same findings, on any machine.
	Checks int
	Seed   uint64 // 0: a random one (the report says which)
	// Jobs, when more than 1, has the properties (and the fuzzer) run
	// their rounds at once: with Checks set, all of them; with a budget,
	// Jobs at a time (0 or 1: one after another). Impl must then be safe
	// for concurrent use, as the reference and a harness.Pool are; the
	// report is the same whatever Jobs is. An Impl that takes batches
	// (impl.Batcher: an adapter, a harness.Pool) has each round's
	// properties and fuzzing run at once whatever Jobs is, and is sent
	// what they ask in lockstep, one batch at a time.
	Jobs int
	// Progress, if set, is told what runs and what was found.
	Progress func(Progress)
	// Version is the version of toolnorm running the check, for the report.
	Version string
	// Baseline, if set, holds the root causes known (see Baseline): the
	// report marks each root cause new or known, and fails only on new
	// ones and on failures of the program.
	Baseline *Baseline
	// Timeout is the adapter's time limit per request, for the repeat
	// command (written when a request timed out and it is not
	// DefaultTimeout).
	Timeout time.Duration
}

// Grace is how long past its budget a check may go: the request under way
// when the budget ends waits that much more for its answer, and nothing
// after it. It is a tenth of the budget, at most half a second.
func Grace(budget time.Duration) time.Duration {
	return min(budget/10, 500*time.Millisecond)
}

// DefaultTimeout is the per-request time limit of toolnorm check.
const DefaultTimeout = 10 * time.Second

// RequestTimeout is the per-request time limit of a check with a budget
// and no --timeout: a tenth of the budget, at least a second, at most
// DefaultTimeout. A request that hangs is then a timeout well inside the
// budget, sent alone again and put on its case, rather than a wait that
// spends the budget.
func RequestTimeout(budget time.Duration) time.Duration {
	return min(DefaultTimeout, max(budget/10, time.Second))
}

// Progress is a moment of a check, for a progress display.
type Progress struct {
	Phase    string // "corpus", "properties" (with the fuzzing, in rounds)
	Done     int    // vectors replayed, or rounds run
	Total    int    // vectors to replay, or rounds to run (0: until the budget is spent)
	Cases    int    // property and fuzzing cases run so far
	Findings int
	Elapsed  time.Duration
	Left     time.Duration // of the budget (0 without one)
}

// FormatVersion is the version of the report's JSON form; it changes when
// a member changes meaning or goes away (3: root_causes, incomplete, and
// the counts of unsupported and moot cases).
const FormatVersion = 3

// Report is the outcome of a check; its JSON form is what toolnorm report
// reads.
type Report struct {
	FormatVersion  int           `json:"format_version"`
	Toolnorm       string        `json:"toolnorm,omitempty"` // the version of toolnorm that ran the check
	Implementation string        `json:"implementation"`
	Info           *harness.Info `json:"info,omitempty"`
	Choices        []string      `json:"declared_choices,omitempty"`
	Seed           uint64        `json:"seed"`
	Budget         string        `json:"budget,omitempty"`
	Checks         int           `json:"checks"` // cases per property and of fuzzing, as run (or as asked)
	// Repeat is the command that runs this check again, exactly, with no
	// time limit.
	Repeat string `json:"repeat"`
	// Stopped says why the check ended before it ran everything it would
	// have ("" when it did not): its budget, an interrupt, or an
	// implementation given up on.
	Stopped string `json:"stopped,omitempty"`
	// Incomplete says what did not run, or was not judged, when the check
	// is short of complete: some of the corpus that applies not replayed,
	// or a property that applies, or fuzzing, short of a full round (then
	// Repeat runs it all, more than ran); or a part of the check that
	// judged under MinJudged of what it ran (nil when complete).
	Incomplete *Shortfall `json:"incomplete,omitempty"`
	Started    time.Time  `json:"started"`
	Seconds    float64    `json:"seconds"`
	// RootCauses are the bugs found, most important first (see package
	// check/internal/explain): every failing vector, violated property and
	// fuzzing bucket is under exactly one.
	RootCauses []RootCause  `json:"root_causes"`
	Corpus     CorpusResult `json:"corpus"`
	Properties []PropResult `json:"properties"`
	Fuzz       FuzzResult   `json:"fuzz"`
	// Searched says what the properties and fuzzing searched: per
	// feature of the schema vocabulary, how many of their cases
	// exercised it (nil when no round ran).
	Searched *Searched `json:"searched,omitempty"`
	// Unsupported says why the cases that did not reach the implementation
	// did not (the corpus's unsupported vectors, the properties' unsent
	// cases, fuzzing's unsupported ones, together): the adapter's words or
	// toolnorm's, each reason beginning with whose ([NotTakenByAdapter],
	// [NotSentByToolnorm]), most cases first. Their cases add up to those
	// counts.
	Unsupported []Reason        `json:"unsupported_reasons,omitempty"`
	Events      []harness.Event `json:"events,omitempty"` // failures of the program, as the harness saw them
	// Restarts counts the starts of the adapter after the first: after a
	// failure of the program, and the fresh starts that tell which request
	// a failure was. How many depends on how the requests fell among the
	// adapter's runs, so on --jobs (the one part of a report that does,
	// beside the times).
	Restarts int `json:"restarts,omitempty"`
	// NotImplemented names the repair the implementation declares it does
	// not do, with its clauses ("the entity repair (rule/4)"), or is "":
	// the implementation is checked in full on what it does, and is not
	// conformant.
	NotImplemented string `json:"not_implemented,omitempty"`
	// NotImplementedID names it as a baseline does
	// ("not-implemented/entities": NotImplementedID).
	NotImplementedID string `json:"not_implemented_id,omitempty"`
	// Baseline is how the check compares with the baseline it was run
	// against (nil without one): then Verdict fails only on root causes
	// not in it, and on failures of the program, which a baseline never
	// holds.
	Baseline *BaselineResult `json:"baseline,omitempty"`
	// Verdict is "pass" (complete, with no violation, no failure of the
	// program, both repairs done), "fail" (violations of the rule, or
	// failures of the program, or a repair not implemented, complete or
	// not; with a baseline, only those of them not in it), "incomplete" (nothing of that found, but not complete: see
	// Incomplete), or "nothing checked" (all ran, and nothing was judged).
	Verdict Verdict `json:"verdict"`
}

// A Verdict is what a check concludes.
type Verdict string

// The verdicts.
const (
	Pass           Verdict = "pass"
	Fail           Verdict = "fail"
	Incomplete     Verdict = "incomplete"
	NothingChecked Verdict = "nothing checked"
	// Interrupted is no longer given (an interrupted check is incomplete),
	// but reports of format version 2 may carry it.
	Interrupted Verdict = "interrupted"
)

// MinJudged is the share of what each part of a check ran that it must
// judge for the check to be complete, in percent: of the corpus vectors
// that apply and were replayed, of each property's cases, of fuzzing's
// cases. A part that judged less (an adapter that answers unsupported to
// most requests) leaves the check incomplete, never PASS.
const MinJudged = 90

// StoppedBudget is [Report.Stopped] where the check's budget ended it: a
// check that ran the corpus and a full round of each property and of
// fuzzing before that is complete (more rounds were all it would have
// run), else it is short of complete.
const StoppedBudget = "the budget was spent"

// judgedEnough reports whether judged is at least MinJudged percent of ran.
func judgedEnough(judged, ran int) bool { return judged*100 >= ran*MinJudged }

// Shortfall is what a check short of complete did not run, or did not
// judge.
type Shortfall struct {
	// Vectors counts the vectors that apply and were not replayed.
	Vectors int `json:"vectors"`
	// Properties are the properties that apply and ran less than a full
	// round without breaking; Fuzzing is true when fuzzing did too.
	Properties []string `json:"properties,omitempty"`
	Fuzzing    bool     `json:"fuzzing,omitempty"`
	// Round is a full round's cases: 16, or the --checks asked.
	Round int `json:"round"`
	// InFlight is the request under way when the check stopped, if any.
	InFlight *InFlight `json:"in_flight,omitempty"`
	// Budget is the smallest --budget this run's speed suggests would run
	// it all (an estimate; "" when nothing ran to estimate from), and
	// Checks the --checks that does, with no time limit (Report.Repeat).
	Budget string `json:"budget,omitempty"`
	Checks int    `json:"checks"`
	// Judged lists the parts of the check that judged under MinJudged of
	// what they ran, in the report's order (the corpus, the properties,
	// fuzzing).
	Judged []Coverage `json:"judged_too_little,omitempty"`
}

// RanShort reports whether the check stopped before it ran all it would
// have (its budget, an interrupt, an implementation given up on): then
// Report.Repeat runs more than ran. A check short of complete only for
// what it did not judge ran all it drew, and Repeat repeats it exactly.
func (s *Shortfall) RanShort() bool {
	return s.Vectors > 0 || len(s.Properties) > 0 || s.Fuzzing
}

// Coverage is how much of what one part of a check ran it judged.
// Judged, Unsupported, Failures and Moot add up to Ran.
type Coverage struct {
	// Part is "corpus", a property's id, or "fuzzing" (FuzzingID).
	Part string `json:"part"`
	// Ran counts the corpus vectors that apply and were replayed, or the
	// cases drawn.
	Ran int `json:"ran"`
	// Judged counts those judged: passed or failed, held, agreed with
	// the reference or differed.
	Judged int `json:"judged"`
	// Unsupported counts those that did not reach the implementation:
	// answered unsupported by its adapter, or not sendable.
	Unsupported int `json:"unsupported,omitempty"`
	// Failures counts those the implementation failed on (a timeout, a
	// crash, a protocol error).
	Failures int `json:"failures,omitempty"`
	// Moot counts a property's cases that no longer met its premise once
	// run (a further run answered unsupported among them).
	Moot int `json:"moot,omitempty"`
}

// A Reason is why cases did not reach the implementation, as its adapter
// (or the harness, for a case no protocol line carries) said it, and how
// many.
type Reason struct {
	Why   string `json:"why"`
	Cases int    `json:"cases"`
}

// MaxReasons is how many reasons a report lists apart: the cases of the
// others are under one more, OtherReasons.
const MaxReasons = 10

// OtherReasons is the Why of the cases of the reasons past MaxReasons.
const OtherReasons = "(other reasons)"

// reasonsOf is why, counted: the reasons most cases share first (their
// text on a tie), at most MaxReasons apart.
func reasonsOf(why []string) []Reason {
	n := map[string]int{}
	for _, w := range why {
		n[w]++
	}
	out := make([]Reason, 0, len(n))
	for w, c := range n {
		out = append(out, Reason{Why: w, Cases: c})
	}
	slices.SortFunc(out, func(a, b Reason) int { return cmp.Or(cmp.Compare(b.Cases, a.Cases), cmp.Compare(a.Why, b.Why)) })
	if len(out) > MaxReasons {
		other := 0
		for _, r := range out[MaxReasons:] {
			other += r.Cases
		}
		out = append(out[:MaxReasons], Reason{Why: OtherReasons, Cases: other})
	}
	return out
}

// InFlight is a request sent and still unanswered when the check stopped.
type InFlight struct {
	Case   string  `json:"case"` // "vector ID FILE", "a case of property ID", "a fuzzing case"
	Waited float64 `json:"waited_seconds"`
	// Restarting is true when the request was not sent: it was waiting
	// for the adapter to start again (after a crash).
	Restarting bool `json:"waiting_for_restart,omitempty"`
}

// CorpusResult is the corpus replay. Passed, Failed, Errors, Skipped,
// Unimplemented and NotRun add up to Vectors. The vectors that apply are
// those not Skipped and not Unimplemented, and Unsupported of the Skipped:
// they were sent, or would have been, and the implementation's adapter
// could not take them.
type CorpusResult struct {
	Vectors int `json:"vectors"`
	Passed  int `json:"passed"`
	Failed  int `json:"failed"` // violations: an answer other than the expected one
	// Errors counts the vectors the implementation failed on (a timeout, a
	// crash, a protocol error): failures of the program, not judged.
	Errors int `json:"errors"`
	// Skipped counts the vectors that do not apply: for options the
	// implementation does not run under (and that mean something else
	// under its own), or with input no protocol line can carry.
	Skipped int `json:"skipped"`
	// Unsupported counts the vectors, among those skipped, that apply but
	// did not reach the implementation: answered unsupported by its
	// adapter, or with input no protocol line can carry. Unlike the other
	// skipped vectors they count as not judged, against MinJudged.
	Unsupported int `json:"unsupported,omitempty"`
	// Adapted counts the vectors, among those passed and failed, written
	// for other options but meaning the same under the implementation's
	// own, as the reference shows.
	Adapted int `json:"adapted,omitempty"`
	NotRun  int `json:"not_run"` // the check stopped before them
	// Unimplemented counts the vectors that need a repair the
	// implementation declares it does not do: not judged (the report says
	// once that the clause is not implemented).
	Unimplemented int `json:"unimplemented,omitempty"`
	// Failures are the violations, ErrorList the failures of the program.
	Failures  []VectorFailure `json:"failures,omitempty"`
	ErrorList []VectorFailure `json:"error_list,omitempty"`
	Seconds   float64         `json:"seconds"` // the replay's wall time
	// Outcomes is every vector's outcome, in the corpus's order (for the
	// JUnit report, which has a test case for each; not in the JSON form).
	Outcomes []VectorOutcome `json:"-"`
}

// An Outcome is what became of one vector of the corpus.
type Outcome string

// The outcomes of a vector.
const (
	OutcomePassed  Outcome = "passed"
	OutcomeFailed          = "failed"
	OutcomeError           = "error" // a failure of the program
	OutcomeSkipped         = "skipped"
	OutcomeNotRun          = "not run"
	// OutcomeUnimplemented: the vector needs a repair the implementation
	// declares it does not do.
	OutcomeUnimplemented = "not implemented"
)

// VectorOutcome is what became of one vector.
type VectorOutcome struct {
	File, ID, Clause string
	Outcome          Outcome
	Reason           string // why it failed, was skipped or was not run
}

// count records a vector's outcome.
func (c *CorpusResult) count(v *corpus.Vector, outcome Outcome, reason string) {
	switch outcome {
	case OutcomePassed:
		c.Passed++
	case OutcomeFailed:
		c.Failed++
	case OutcomeError:
		c.Errors++
	case OutcomeSkipped:
		c.Skipped++
	case OutcomeNotRun:
		c.NotRun++
	case OutcomeUnimplemented:
		c.Unimplemented++
	}
	c.Outcomes = append(c.Outcomes, VectorOutcome{File: v.File, ID: v.ID, Clause: v.Clause, Outcome: outcome, Reason: reason})
}

// VectorFailure is one vector the implementation fails. Schema,
// Arguments, Want and Got are shown as display shows values (what one
// cannot see escaped), cut at MaxShown bytes.
type VectorFailure struct {
	File        string `json:"file"`
	ID          string `json:"id"`
	Description string `json:"description"`
	Clause      string `json:"clause"`
	Message     string `json:"message"`
	Command     string `json:"command"`
	Schema      string `json:"schema"`
	Arguments   string `json:"arguments"`
	Options     string `json:"options,omitempty"` // as they were sent, when not the defaults
	Want        string `json:"want"`
	Got         string `json:"got"`
}

// Label names the vector: its id and file.
func (v VectorFailure) Label() string {
	if v.File == "" {
		return v.ID
	}
	return v.ID + " " + v.File
}

// MaxShown is how much of a value a vector failure shows.
const MaxShown = 2000

// MaxKeptAnswers bounds the bytes of the failing answers a check keeps to
// explain: the vectors failed once the answers kept pass it are one root
// cause, unexplained, that says so. An adapter that answers a megabyte to
// every vector would otherwise have gigabytes held until the end.
const MaxKeptAnswers = 64 << 20

// A Status is a property's outcome in a check.
type Status string

// The statuses of a property.
const (
	StatusHolds         Status = "holds"          // checked on Checks cases, and held on each
	StatusViolated             = "violated"       // see Violation
	StatusNotApplicable        = "not applicable" // the implementation's declared reading leaves it out (Reason says why)
	StatusNotChecked           = "not checked"    // no case was judged: every one failed, or none ran (Reason says why)
)

// PropResult is one property's outcome.
type PropResult struct {
	ID        string `json:"id"`
	Statement string `json:"statement"`
	Clause    string `json:"clause"`
	Required  bool   `json:"required"`
	Status    Status `json:"status"`
	Reason    string `json:"reason,omitempty"`
	// Cases counts the cases drawn: Checks (judged, and held), Failures
	// (the implementation failed on them: not judged), Moot (run, but no
	// longer meeting the premise: not judged), Unsent (they did not reach
	// the implementation: not sendable, or answered unsupported by its
	// adapter) and the one that broke it, if it broke, add up to it.
	Checks    int      `json:"checks"`
	Cases     int      `json:"cases"`
	Failures  int      `json:"failures,omitempty"`
	Moot      int      `json:"moot,omitempty"`
	Unsent    int      `json:"unsent,omitempty"`
	Violation *Finding `json:"violation,omitempty"`
	Seconds   float64  `json:"seconds"` // wall time of its cases, minimizing included
}

// Finding is a minimal counterexample.
type Finding struct {
	Property string         `json:"property"`
	Clause   string         `json:"clause"`
	Message  string         `json:"message"`
	Bucket   string         `json:"bucket,omitempty"`
	Vector   *corpus.Vector `json:"vector"`
	Command  string         `json:"command"`
	// Cut is true when the budget stopped minimizing it: a repeat without
	// a time limit may give a smaller case.
	Cut bool `json:"minimizing_cut_short,omitempty"`
}

// FuzzResult is the fuzzing against the reference.
// Cases counts the cases drawn: those that agreed with the reference,
// Differed, Failures and Unsupported add up to it. Findings are the
// differences, minimized, one per bucket.
type FuzzResult struct {
	Cases       int       `json:"cases"`
	Differed    int       `json:"differed"`              // gave an answer other than the reference's
	Failures    int       `json:"failures,omitempty"`    // the implementation failed on (not judged)
	Unsupported int       `json:"unsupported,omitempty"` // did not reach it: not sendable, or answered unsupported
	Findings    []Finding `json:"findings,omitempty"`
	Seconds     float64   `json:"seconds"` // wall time, minimizing included
}

// Agreed counts the cases that gave the reference's answer.
func (f FuzzResult) Agreed() int { return f.Cases - f.Differed - f.Failures - f.Unsupported }

// Violations counts the violations of the rule the check found: vectors
// failed, properties broken, fuzzing findings.
func (r *Report) Violations() int {
	n := r.Corpus.Failed + len(r.Fuzz.Findings)
	for _, p := range r.Properties {
		if p.Violation != nil {
			n++
		}
	}
	return n
}

// Failures counts the failures of the program the checks met.
func (r *Report) Failures() int {
	return max(r.failuresInPhases(), len(r.Events))
}

// FailuresMinimizing counts the failures of the program met while the
// check minimized and explained its findings: each is one of the events,
// and counted in none of the phases (corpus, properties, fuzzing), whose
// counts are those of the cases as drawn. Failures is their sum.
func (r *Report) FailuresMinimizing() int {
	return max(len(r.Events)-r.failuresInPhases(), 0)
}

// PropertyFailures counts the failures of the program on the properties'
// cases.
func (r *Report) PropertyFailures() int {
	n := 0
	for _, p := range r.Properties {
		n += p.Failures
	}
	return n
}

func (r *Report) failuresInPhases() int {
	return r.Corpus.Errors + r.PropertyFailures() + r.Fuzz.Failures
}

// Judged counts the cases and vectors judged.
func (r *Report) Judged() int {
	n := r.Corpus.Passed + r.Corpus.Failed + r.Fuzz.Cases - r.Fuzz.Failures - r.Fuzz.Unsupported
	for _, p := range r.Properties {
		n += p.Checks
	}
	return n
}

// ParseReport reads a report as toolnorm check --format json writes it. It
// is an error for data not to be a JSON object with an implementation and
// properties.
func ParseReport(data []byte) (*Report, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("not a check report: not a JSON object")
		}
		return nil, fmt.Errorf("not a check report: invalid JSON: %v", err)
	}
	if fields == nil {
		return nil, fmt.Errorf("not a check report: not a JSON object")
	}
	for _, name := range []string{"implementation", "properties"} {
		if v, ok := fields[name]; !ok || string(bytes.TrimSpace(v)) == "null" {
			return nil, fmt.Errorf("not a check report: no %q (write it with toolnorm check --format json)", name)
		}
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("not a check report: %v", err)
	}
	if r.Implementation == "" {
		return nil, fmt.Errorf("not a check report: the implementation has no name")
	}
	return &r, nil
}

// LooseEvents are the failures of the program, as the harness saw them,
// that no root cause of the report accounts for: those of a class no root
// cause has, and those answered when their request was sent again (they
// did not depend on it). The others are each a failure of a case under
// its root cause.
func (r *Report) LooseEvents() []harness.Event {
	var out []harness.Event
	for _, ev := range r.Events {
		if causeOf(r.RootCauses, ev) < 0 {
			out = append(out, ev)
		}
	}
	return out
}
