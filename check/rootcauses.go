package check

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/check/internal/explain"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
)

// A RootCause is one bug the check found: the findings that one
// behaviour explains (check/internal/explain files them). Every failing
// vector, violated property and fuzzing bucket is under exactly one.
type RootCause struct {
	// ID names the root cause, the same in every report that finds it:
	// the deviation from the reference that explains its findings
	// ("entities-one-pass"; two joined by "+"), or, for findings no
	// deviation explains, its Class.
	ID    string `json:"id"`
	Title string `json:"title"`
	// Baseline is BaselineNew or BaselineKnown when the check ran
	// against a baseline (Config.Baseline): whether the baseline holds
	// ID. A failure of the program is always new.
	Baseline string `json:"baseline,omitempty"`
	// With names the deviations that some of its findings show it
	// together with (a validator that rejects what a missed $ref left):
	// a second bug, filed under its own root cause when other findings
	// show it alone.
	With   []string `json:"with,omitempty"`
	Clause string   `json:"clause"`
	// Class names the difference ("undecoded/numeric-windows-1252"): the
	// same in every report that finds it.
	Class string `json:"class"`
	// Where is the position in the counterexample's arguments, a JSON
	// pointer, when the difference has one.
	Where string `json:"where,omitempty"`
	// Artefact is true when every case of it matches what lossy JSON
	// plumbing does (JSON.parse and JSON.stringify in an adapter):
	// probably the adapter's; Fix says how to fix the adapter.
	Artefact       bool           `json:"artefact,omitempty"`
	Fix            string         `json:"fix,omitempty"`
	Counterexample Counterexample `json:"counterexample"`
	// Vector is the counterexample as a vector, whole (not cut as the
	// Counterexample's values are).
	Vector *corpus.Vector `json:"vector,omitempty"`
	// Command replays the counterexample on the implementation; when it is
	// too long for one line, one of its corpus vectors, or it says to save
	// Vector as a file first.
	Command string `json:"command"`
	// CommandNote says what Command replays when it is not the
	// counterexample shown (a vector of the root cause, for a
	// counterexample too long for one line).
	CommandNote string   `json:"command_note,omitempty"`
	Vectors     []string `json:"vectors"`    // ids of the corpus vectors
	Properties  []string `json:"properties"` // ids of the properties
	Buckets     []string `json:"buckets"`    // fuzzing buckets
	// FailedCases counts the cases of properties and fuzzing the program
	// failed on this way (failures of the program, not violations: the
	// properties' and fuzzing's failures of the program, in part or
	// all); FailedIn says how many where, the properties in the report's
	// order, then fuzzing.
	FailedCases int        `json:"failed_cases,omitempty"`
	FailedIn    []FailedIn `json:"failed_in,omitempty"`
	// FailedMinimizing counts the failures of the program of its class
	// met while the check minimized and explained its findings (cases
	// counted in no phase: the report's failures "while minimizing
	// findings", in part or all).
	FailedMinimizing int `json:"failed_minimizing,omitempty"`
	// Stderr is, for a failure of the program, the end of what the
	// adapter wrote to standard error at the first failure of the root
	// cause's class that left some (a crash's traceback).
	Stderr string `json:"stderr,omitempty"`
	// Cut is true when the budget stopped minimizing the counterexample.
	Cut bool `json:"minimizing_cut_short,omitempty"`
	// NotMinimized is true when the counterexample is a case as found: a
	// failure of the program is not run again, and a property's violation
	// its case alone does not show cannot be minimized.
	NotMinimized bool `json:"not_minimized,omitempty"`
}

// Count is how many findings the root cause accounts for.
func (r RootCause) Count() int {
	return len(r.Vectors) + len(r.Properties) + len(r.Buckets) + r.FailedCases
}

// FuzzingID stands for fuzzing where a root cause names the properties
// and fuzzing (RootCause.FailedIn).
const FuzzingID = "fuzzing"

// withStderr gives each root cause of a failure of the program the
// standard error of the first event of its class that has some.
func withStderr(rcs []RootCause, evs []harness.Event) {
	for i := range rcs {
		if rcs[i].Clause != "failure" {
			continue
		}
		for _, ev := range evs {
			if ev.Stderr != "" && !ev.Answered && diagnose.EventClass(ev.Kind, ev.Detail) == rcs[i].Class {
				rcs[i].Stderr = ev.Stderr
				break
			}
		}
	}
}

// withMinimizing counts, for each root cause of a failure of the
// program, the failures of its class met while minimizing: the events
// of its class (causeOf) past its failing vectors and failed cases, each
// of which is one event.
func withMinimizing(rcs []RootCause, evs []harness.Event) {
	n := make([]int, len(rcs))
	for _, ev := range evs {
		if i := causeOf(rcs, ev); i >= 0 {
			n[i]++
		}
	}
	for i := range rcs {
		if rcs[i].Clause == "failure" {
			rcs[i].FailedMinimizing = max(n[i]-len(rcs[i].Vectors)-rcs[i].FailedCases, 0)
		}
	}
}

// causeOf is the index of the root cause of a failure of the program an
// event of the harness is one of, or -1: one answered when its request
// was sent again is none (it did not depend on the request).
func causeOf(rcs []RootCause, ev harness.Event) int {
	if ev.Answered {
		return -1
	}
	class := diagnose.EventClass(ev.Kind, ev.Detail)
	return slices.IndexFunc(rcs, func(rc RootCause) bool { return rc.Clause == "failure" && rc.Class == class })
}

// FailedIn is how many cases of a property (by its id), or of fuzzing
// (FuzzingID), the program failed on a root cause's way.
type FailedIn struct {
	ID    string `json:"id"`
	Cases int    `json:"cases"`
}

// failedIn counts ids by id, in their first order.
func failedIn(ids []string) []FailedIn {
	var out []FailedIn
	for _, id := range ids {
		i := slices.IndexFunc(out, func(f FailedIn) bool { return f.ID == id })
		if i < 0 {
			i = len(out)
			out = append(out, FailedIn{ID: id})
		}
		out[i].Cases++
	}
	return out
}

// Counterexample is a root cause's minimal case, shown as display shows
// values, cut at MaxShown bytes.
type Counterexample struct {
	Schema    string `json:"schema"`
	Arguments string `json:"arguments"`
	Options   string `json:"options,omitempty"` // when not the defaults
	Expected  string `json:"expected"`
	Got       string `json:"got"`
}

// explain groups what the check found into root causes, minimizing each
// within what is left of the run (e.ctx).
func (e *run) explain() []RootCause {
	fs := e.found
	// A finding run again once the check had stopped (the budget spent
	// during the rounds) has no result to explain it by: it is listed as
	// it is, unexplained, not as a case the program did not run.
	var unexplained []RootCause
	add := func(f explain.Finding, v *corpus.Vector, clause, message string) {
		if f.Got.Kind() != impl.KindNotRun {
			fs = append(fs, f)
			return
		}
		rc := RootCause{ID: unexplainedID, Title: display.ClipText(message, 200) + " (not explained: the check stopped first)", Clause: clause, Class: "unexplained",
			Counterexample: counterexample(f.Case, f.Want, f.Got.Show(MaxShown)),
			Vector:         v, Vectors: []string{}, Properties: []string{}, Buckets: []string{}, Cut: true, NotMinimized: true}
		if f.Source == explain.Property {
			rc.Properties = []string{f.ID}
		} else {
			rc.Buckets = []string{f.ID}
		}
		unexplained = append(unexplained, rc)
	}

	for _, p := range e.r.Properties {
		if p.Violation != nil {
			add(e.finding(explain.Property, p.ID, p.Violation.Vector, p.Statement, p.Clause), p.Violation.Vector, p.Clause, p.ID+": "+p.Violation.Message)
		}
	}
	for _, f := range e.r.Fuzz.Findings {
		add(e.finding(explain.Bucket, f.Bucket, f.Vector, "", f.Clause), f.Vector, f.Clause, "fuzzing: "+f.Message)
	}
	// The cases of properties and fuzzing the program failed on: each
	// counted under the failure's root cause, not run again.
	failed := func(id string, fcs []failedCase) {
		for _, fc := range fcs {
			fs = append(fs, explain.Finding{Source: explain.Failed, ID: id, Case: fc.c, Want: impl.Reference.Normalize(context.WithoutCancel(e.ctx), fc.c), Got: fc.got})
		}
	}
	for _, p := range e.r.Properties {
		if i := propertyIndex(p.ID); i >= 0 && i < len(e.failed) {
			failed(p.ID, e.failed[i])
		}
	}
	failed(FuzzingID, e.fuzzFailed)
	if len(e.unkept) > 0 {
		unexplained = append(unexplained, e.unkeptCause())
	}
	if len(fs) == 0 {
		return e.after([]RootCause{}, unexplained)
	}
	rcs := explain.Explain(e.ctx, explain.Config{Impl: e.sends(phaseRootCauses), Want: func(c impl.Case) impl.Result {
		return impl.Reference.Normalize(context.WithoutCancel(e.ctx), c)
	}, Keep: func() bool { return e.ctx.Err() == nil }}, fs)
	out := make([]RootCause, 0, len(rcs))
	for _, rc := range rcs {
		clause := rc.Clause
		if !strings.HasPrefix(clause, "rule/") && !strings.HasPrefix(clause, "reading/") {
			clause = "found" // a failure of the program: no clause of the rule
		}
		v := corpus.New(corpus.Description(rc.Title, ""), clause, "found", nil, rc.Case.Schema, rc.Case.Args, rc.Case.Options, impl.Reference)
		command := e.causeCommand(v, rc, len(out))
		out = append(out, RootCause{ID: rc.ID, Title: rc.Title, With: rc.With, Clause: rc.Clause, Class: rc.Class, Where: rc.Where, Artefact: rc.Artefact, Fix: rc.Fix,
			Counterexample: counterexample(rc.Case, rc.Want, rc.Got.Show(MaxShown)),
			Vector:         v, Command: command, CommandNote: commandNote(command, v, len(out)), Vectors: nonNil(rc.Vectors), Properties: nonNil(rc.Properties), Buckets: nonNil(rc.Buckets), Cut: rc.Cut,
			FailedCases: len(rc.Failed), FailedIn: failedIn(rc.Failed),
			NotMinimized: rc.Got.Failure != nil || impl.Same(rc.Got, rc.Want)})
	}
	return e.after(out, unexplained)
}

// counterexample is case c as a root cause shows it, each value cut at
// MaxShown: what is expected of it, and got, already shown (an answer
// not kept is shown when it comes).
func counterexample(c impl.Case, want impl.Result, got string) Counterexample {
	return Counterexample{Schema: display.ClipJSON(c.Schema, MaxShown), Arguments: display.ClipJSON(c.Args, MaxShown),
		Options: strings.Join(c.Options.Choices(), ", "), Expected: want.Show(MaxShown), Got: got}
}

// An unkeptFinding is a vector failed whose answer the check did not keep
// (MaxKeptAnswers): got is what a report shows of it, size its length.
type unkeptFinding struct {
	v    *corpus.Vector
	c    impl.Case
	got  string
	size int
}

// unkeptCause is the root cause of the vectors failed whose answers were
// not kept: unexplained, with the first one's case.
func (e *run) unkeptCause() RootCause {
	u, total := e.unkept[0], 0
	ids := make([]string, len(e.unkept))
	for i, f := range e.unkept {
		ids[i], total = f.v.ID, total+f.size
	}
	return RootCause{ID: unexplainedID, Class: "unexplained", Clause: u.v.Clause,
		Title:          fmt.Sprintf("%d failing answers not explained: not kept (%d bytes in all), past the %d MiB of failing answers a check keeps", len(e.unkept), total, MaxKeptAnswers>>20),
		Counterexample: counterexample(u.c, u.v.Want(), u.got),
		Vector:         u.v, Vectors: ids, Properties: []string{}, Buckets: []string{}, NotMinimized: true}
}

// after appends the unexplained root causes to the others, each with its
// command: what it says to save its vector from names its place.
func (e *run) after(out, unexplained []RootCause) []RootCause {
	for _, rc := range unexplained {
		rc.Command = e.command(rc.Vector, fmt.Sprintf(".root_causes[%d].vector", len(out)))
		out = append(out, rc)
	}
	return out
}

// causeCommand replays a root cause's counterexample v, the i-th root
// cause: piped in whole; or, when it is too long for one line, from the
// root cause's vector whose case it is as it is (a failure of the
// program is not minimized), else from one of its vectors of the corpus
// (which fails the same way: it is one of its findings); else it says to
// save the report's vector of it as a file first.
func (e *run) causeCommand(v *corpus.Vector, rc explain.RootCause, i int) string {
	cmd := e.command(v, fmt.Sprintf(".root_causes[%d].vector", i))
	if strings.HasPrefix(cmd, "printf ") {
		return cmd
	}
	var member *corpus.Vector
	for _, id := range rc.Vectors {
		src := e.foundVectors[id]
		switch {
		case src == nil || src.File == "":
		case sameCase(src, rc.Case):
			return e.command(src, "")
		case member == nil:
			member = src
		}
	}
	if member != nil {
		return e.command(member, "")
	}
	return cmd
}

// commandNote says what a root cause's command replays when it is not
// the counterexample shown (too long for one line): one of its vectors.
func commandNote(command string, v *corpus.Vector, i int) string {
	if strings.HasPrefix(command, "printf ") || strings.Contains(command, v.ID) || strings.HasPrefix(command, "(the vector is ") {
		return ""
	}
	return fmt.Sprintf("the counterexample is too long for one line: this replays a vector of the root cause that fails the same way; the counterexample whole is .root_causes[%d].vector of the JSON report (--format json)", i)
}

// sameCase reports whether c is v's case as it is.
func sameCase(v *corpus.Vector, c impl.Case) bool {
	return bytes.Equal(v.SchemaText(), c.Schema) && bytes.Equal(v.ArgumentsText(), c.Args) && v.Options.Same(c.Options)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// finding is a property's or a bucket's counterexample as a finding: its
// vector run once more for what the implementation gives.
func (e *run) finding(source, id string, v *corpus.Vector, statement, clause string) explain.Finding {
	c := impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options}
	return explain.Finding{Source: source, ID: id, Case: c, Want: v.Want(), Got: e.sends(phaseRootCauses).Normalize(e.ctx, c), Statement: statement, Clause: clause}
}
