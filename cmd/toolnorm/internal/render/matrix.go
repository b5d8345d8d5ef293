package render

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/internal/display"
)

// A compliance matrix puts several check reports side by side, as Bowtie
// does for JSON Schema validators: one column per implementation, one row
// per property (those the rule requires, then toolnorm's readings), then
// the corpus replay (in all and by clause) and the fuzzing.

// Status is a cell's outcome; its value is also the cell's CSS class.
type Status string

// The outcomes of a cell.
const (
	Holds  Status = "holds"
	Broken Status = "broken"
	NotRun Status = "not-run"
)

// Icon is the status as one symbol; Label says it in words, for a
// reader whose fonts lack the symbol (every format shows both).
func (s Status) Icon() string {
	switch s {
	case Holds:
		return "✅"
	case Broken:
		return "❌"
	}
	return "—"
}

// Label is the status in words.
func (s Status) Label() string {
	switch s {
	case Holds:
		return "holds"
	case Broken:
		return "broken"
	}
	return "not run"
}

// Text is the cell in a few words: its status and summary.
func (c Cell) Text() string {
	if c.Summary == "" {
		return c.Status.Label()
	}
	return c.Status.Label() + ": " + c.Summary
}

// Table is a compliance matrix.
type Table struct {
	Columns  []Column
	Sections []Section
	// Made says which toolnorm made the matrix and when, for the footer
	// ("" for none): "toolnorm v0.4.0, 2026-12-01 09:30 UTC".
	Made string
	// Run is what the page of one check (check --format html) shows of it
	// beside the matrix; nil in a matrix of several.
	Run *RunDetails
	// Causes are the root causes of a report of one implementation, shown
	// before the matrix (none for a matrix of several).
	Causes []Cause
}

// RunDetails are the parts of one report the matrix has no cell for: how
// to repeat it, what it counted, what did not run, and the failures of
// the program with the adapter's standard error.
type RunDetails struct {
	Cases        string // "16 cases of each property and of fuzzing"
	Stopped      string // why it stopped early, with the request in flight ("" when it did not)
	RepeatLabel  string // "repeat exactly" or "run in full"
	Repeat       string
	Counts       []string        // the corpus, the properties, fuzzing, each in a line
	Incomplete   string          // what did not run, or was judged too little ("" when complete)
	Remedies     []string        // what would make it complete: "to run it all: ...", "to judge enough: ..."
	FailureCount string          // "61 (corpus 5, properties 56), 0 restarts" ("" for none)
	Failures     []FailureDetail // the corpus vectors failed on, then what the harness saw
	More         int             // failures not shown
	UnderCauses  string          // how many failures are under their root causes, not listed
	Baseline     string          // how the check compares with its baseline ("" without one)
}

// FailureDetail is one failure of the program: what happened, the command
// that replays its vector, and the end of the adapter's standard error.
type FailureDetail struct {
	Line, Command, Stderr string
	N                     int // how many failures alike it stands for (0 or 1: one)
}

// Column is one implementation: one report.
type Column struct {
	Name           string // the implementation's own name, or the report's
	Implementation string // as the report names it
	Language       string
	Version        string
	Homepage       string
	Choices        []string // declared choices: the reading it implements, not violations
	Verdict        check.Verdict
	Seed           uint64
	Budget         string
	Started        time.Time
	Failures       int // implementation failures: crashes, timeouts, protocol errors
	Restarts       int
	NotImplemented string // the repair it declares it does not do, or ""
	// RootCauses counts the bugs its report lists, Artefacts those of
	// them that are probably its adapter's.
	RootCauses, Artefacts int
	// NoCauses is true for a report that lists no root causes at all
	// (format version 2, before they were).
	NoCauses bool
}

// CausesText counts a column's root causes: "3 (1 probably the
// adapter's)".
func (c Column) CausesText() string {
	if c.NoCauses {
		return "—"
	}
	s := fmt.Sprint(c.RootCauses)
	if c.Artefacts > 0 {
		s += fmt.Sprintf(" (%d probably the adapter's)", c.Artefacts)
	}
	return s
}

// Section is a group of rows.
type Section struct {
	Title string
	Rows  []Row
}

// Row is one property, or a part of the corpus replay, or the fuzzing.
type Row struct {
	ID        string
	Clause    string
	Statement string
	Cells     []Cell // one per column
}

// Cell is one implementation's outcome on one row.
type Cell struct {
	Status  Status
	Summary string  // "800 checks", "3 failed", ...
	Issues  []Issue // what is broken, the first few
	More    int     // how many more are broken than Issues shows
}

// Issue is one violation, failed vector or fuzzing finding, as every
// format shows it.
type Issue struct {
	What    string  // the vector file or the fuzzing bucket; "" for a property
	Title   string  // a failed vector's description
	Message string  // how it broke, shown exactly (see package display)
	Case    []Field // a finding's minimal case: schema, arguments, options, and the reference's result
	Command string  // reproduces it
	Cut     bool    // the budget stopped its minimizing
}

// Field is one named value of an issue's case, shown exactly.
type Field struct{ Name, Value string }

// findingIssue is a finding as an issue: its minimal case spelt out.
func findingIssue(f check.Finding) Issue {
	is := Issue{Message: f.Message, Command: f.Command, Cut: f.Cut}
	if f.Bucket != "" {
		is.What = "bucket " + f.Bucket
	}
	if v := f.Vector; v != nil {
		is.Case = []Field{{"schema", display.ClipJSON(v.SchemaText(), check.MaxShown)}, {"arguments", display.ClipJSON(v.ArgumentsText(), check.MaxShown)}}
		if c := v.Options.Choices(); len(c) > 0 {
			is.Case = append(is.Case, Field{"options", strings.Join(c, ", ")})
		}
		is.Case = append(is.Case, Field{"reference", v.Want().Show(check.MaxShown)})
	}
	return is
}

// vectorIssue is a failed corpus vector as an issue. Its file name and
// description come from the corpus, someone else's maybe: every renderer
// shows them as display shows text.
func vectorIssue(v check.VectorFailure) Issue {
	return Issue{What: display.Text(v.File), Title: display.Text(v.Description), Message: v.Message, Command: display.Text(v.Command)}
}

// The section titles.
const (
	SectionRequired = "required by the rule"
	SectionReadings = "our readings"
	SectionCorpus   = "corpus replay"
	SectionFuzz     = "fuzzing against the reference"
)

const (
	maxIssues = 5 // issues kept per cell
)

// Matrix combines check reports into a compliance matrix, one column per
// report, in their order.
func Matrix(reports []*check.Report) *Table {
	t := &Table{}
	for _, r := range reports {
		c := Column{Name: display.Text(r.Implementation), Implementation: r.Implementation, Choices: r.Choices, Verdict: r.Verdict,
			Seed: r.Seed, Budget: r.Budget, Started: r.Started, Failures: r.Failures(), Restarts: r.Restarts, NotImplemented: r.NotImplemented, RootCauses: len(r.RootCauses), Artefacts: artefacts(r), NoCauses: r.RootCauses == nil}
		if i := r.Info; i != nil {
			if i.Name != "" {
				c.Name = display.Text(i.Name)
			}
			c.Language, c.Version, c.Homepage = display.Text(i.Language), display.Text(i.Version), i.Homepage
		}
		t.Columns = append(t.Columns, c)
	}

	// Properties, in the order they first appear.
	required := Section{Title: SectionRequired}
	readings := Section{Title: SectionReadings}
	seen := map[string]bool{}
	for _, r := range reports {
		for _, p := range r.Properties {
			if seen[p.ID] {
				continue
			}
			seen[p.ID] = true
			row := Row{ID: p.ID, Clause: p.Clause, Statement: p.Statement}
			isRequired := false
			for _, r := range reports {
				res, ok := findProperty(r, p.ID)
				if ok && res.Required {
					isRequired = true
				}
				row.Cells = append(row.Cells, propertyCell(res, ok))
			}
			if isRequired {
				required.Rows = append(required.Rows, row)
			} else {
				readings.Rows = append(readings.Rows, row)
			}
		}
	}

	// The corpus replay, in all and by the clause of the failures.
	corpus := Section{Title: SectionCorpus}
	all := Row{ID: "corpus", Clause: "all", Statement: "Every corpus vector the implementation can take gives its expected result"}
	clauseSet := map[string]bool{}
	for _, r := range reports {
		all.Cells = append(all.Cells, corpusCell(r))
		for _, f := range r.Corpus.Failures {
			clauseSet[f.Clause] = true
		}
	}
	corpus.Rows = append(corpus.Rows, all)
	clauses := make([]string, 0, len(clauseSet))
	for c := range clauseSet {
		clauses = append(clauses, c)
	}
	sort.Slice(clauses, func(i, j int) bool { return clauseLess(clauses[i], clauses[j]) })
	for _, clause := range clauses {
		label := clause
		if label == "" {
			label = "(none)"
		}
		row := Row{ID: "corpus", Clause: label, Statement: "The corpus vectors written to test " + label + " (by their own clause, not by root cause)"}
		for _, r := range reports {
			row.Cells = append(row.Cells, clauseCell(r, clause))
		}
		corpus.Rows = append(corpus.Rows, row)
	}

	fuzz := Section{Title: SectionFuzz}
	frow := Row{ID: "fuzzing", Statement: "Generated and mutated cases give the reference's result"}
	for _, r := range reports {
		frow.Cells = append(frow.Cells, fuzzCell(r))
	}
	fuzz.Rows = append(fuzz.Rows, frow)

	for _, s := range []Section{required, readings, corpus, fuzz} {
		if len(s.Rows) > 0 {
			t.Sections = append(t.Sections, s)
		}
	}
	return t
}

func findProperty(r *check.Report, id string) (check.PropResult, bool) {
	for _, p := range r.Properties {
		if p.ID == id {
			return p, true
		}
	}
	return check.PropResult{}, false
}

func propertyCell(p check.PropResult, ok bool) Cell {
	switch {
	case !ok:
		return Cell{Status: NotRun}
	case p.Violation != nil:
		return Cell{Status: Broken, Summary: brokenAfter(p.Checks), Issues: []Issue{findingIssue(*p.Violation)}}
	case p.Status == check.StatusNotApplicable:
		return Cell{Status: NotRun, Summary: "not applicable"}
	case p.Checks == 0:
		return Cell{Status: NotRun, Summary: display.ClipText(orDash(p.Reason), 120)}
	}
	return Cell{Status: Holds, Summary: plural(p.Checks, "check")}
}

// corpusRan says whether any vector was replayed.
func corpusRan(r *check.Report) bool { return r.Corpus.Passed+r.Corpus.Failed+r.Corpus.Errors > 0 }

func corpusCell(r *check.Report) Cell {
	c := r.Corpus
	// Every count, so that they add up to the vectors.
	summary := fmt.Sprintf("%d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
	if c.Errors > 0 {
		summary += fmt.Sprintf(", %s of the program", plural(c.Errors, "failure"))
	}
	if c.Unimplemented > 0 {
		summary += fmt.Sprintf(", %d needing a repair not implemented", c.Unimplemented)
	}
	if c.NotRun > 0 {
		summary += fmt.Sprintf(", %d not run", c.NotRun)
	}
	switch {
	case c.Failed > 0 || c.Errors > 0:
		// The failures themselves are in the rows by clause.
		return Cell{Status: Broken, Summary: summary}
	case !corpusRan(r):
		if c.Vectors == 0 {
			summary = ""
		}
		return Cell{Status: NotRun, Summary: summary}
	}
	return Cell{Status: Holds, Summary: summary}
}

func clauseCell(r *check.Report, clause string) Cell {
	if !corpusRan(r) {
		return Cell{Status: NotRun}
	}
	cell := Cell{Status: Holds}
	n := 0
	for _, f := range r.Corpus.Failures {
		if f.Clause != clause {
			continue
		}
		n++
		if len(cell.Issues) < maxIssues {
			cell.Issues = append(cell.Issues, vectorIssue(f))
		} else {
			cell.More++
		}
	}
	if n > 0 {
		cell.Status = Broken
		cell.Summary = fmt.Sprintf("%d failed", n)
	} else {
		cell.Summary = "0 failed"
	}
	return cell
}

func fuzzCell(r *check.Report) Cell {
	f := r.Fuzz
	summary := plural(f.Cases, "case") + ", " + plural(len(f.Findings), "finding")
	if len(f.Findings) == 0 {
		if f.Cases == 0 {
			return Cell{Status: NotRun}
		}
		return Cell{Status: Holds, Summary: summary}
	}
	cell := Cell{Status: Broken, Summary: summary}
	for i, fd := range f.Findings {
		if i == maxIssues {
			cell.More = len(f.Findings) - i
			break
		}
		cell.Issues = append(cell.Issues, findingIssue(fd))
	}
	return cell
}

// brokenAfter summarizes a broken property: how many cases held first.
func brokenAfter(checks int) string {
	if checks == 0 {
		return "on its first case"
	}
	return "after " + plural(checks, "case") + " that held"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// clauseLess orders the clauses of the rule first, then the readings, each
// by number, then anything else.
func clauseLess(a, b string) bool {
	rank := func(c string) (int, int, string) {
		kind, num, _ := strings.Cut(c, "/")
		n, err := strconv.Atoi(num)
		if err != nil {
			n = 1 << 30
		}
		switch kind {
		case "rule":
			return 0, n, c
		case "reading":
			return 1, n, c
		}
		return 2, 0, c
	}
	ka, na, sa := rank(a)
	kb, nb, sb := rank(b)
	if ka != kb {
		return ka < kb
	}
	if na != nb {
		return na < nb
	}
	return sa < sb
}

func artefacts(r *check.Report) int {
	n := 0
	for _, rc := range r.RootCauses {
		if rc.Artefact {
			n++
		}
	}
	return n
}
