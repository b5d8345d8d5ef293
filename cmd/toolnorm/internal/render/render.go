package render

import (
	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/harness"

	"github.com/toolnorm/toolnorm/internal/display"

	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Formats are the report formats.
var Formats = []string{"text", "json", "junit", "markdown", "html"}

// Write renders the report in a format.
func Write(r *check.Report, w io.Writer, format string) error {
	switch format {
	case "text":
		return writeText(r, w)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "junit":
		return writeReportJUnit(r, w)
	case "markdown":
		return writeMarkdown(r, w)
	case "html":
		return writeHTML(r, w, made(r))
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// group is the issues of one property or clause, for the text report.
type group struct {
	title  string
	issues []Issue
}

// groups puts every finding under its property, corpus failures under
// their clause.
func groups(r *check.Report) []group {
	byKey := map[string]*group{}
	var keys []string
	add := func(key, title string, is Issue) {
		g, ok := byKey[key]
		if !ok {
			g = &group{title: title}
			byKey[key] = g
			keys = append(keys, key)
		}
		g.issues = append(g.issues, is)
	}
	for _, p := range r.Properties {
		if p.Violation != nil {
			kind := "our reading"
			if p.Required {
				kind = "required by the rule"
			}
			add("p:"+p.ID, fmt.Sprintf("property %s (%s, %s): %s", p.ID, p.Clause, kind, p.Statement), findingIssue(*p.Violation))
		}
	}
	for _, f := range r.Fuzz.Findings {
		add("f:"+f.Property, "fuzzing against the reference ("+f.Property+")", findingIssue(f))
	}
	for _, v := range r.Corpus.Failures {
		add("c:"+v.Clause, "corpus vectors of "+v.Clause, vectorIssue(v))
	}
	for _, v := range r.Corpus.ErrorList {
		add("e:corpus", "failures of the program on corpus vectors (not judged)", vectorIssue(v))
	}
	sort.Strings(keys)
	out := make([]group, len(keys))
	for i, k := range keys {
		out[i] = *byKey[k]
	}
	return out
}

// writeIssue writes one issue as the text report shows it.
func writeIssue(w io.Writer, is Issue) {
	if is.Title != "" {
		fmt.Fprintf(w, "- %s\n  %s\n", display.Text(is.Title), is.Message)
	} else {
		fmt.Fprintf(w, "- %s\n", is.Message)
	}
	if is.What != "" {
		fmt.Fprintf(w, "  %s\n", is.What)
	}
	for _, f := range is.Case {
		fmt.Fprintf(w, "  %-10s %s\n", f.Name+":", f.Value)
	}
	if is.Cut {
		fmt.Fprintf(w, "  (the budget stopped its minimizing: a repeat may give a smaller case)\n")
	}
	if is.Command != "" {
		fmt.Fprintf(w, "  reproduce: %s\n", is.Command)
	}
}

func writeText(r *check.Report, w io.Writer) error {
	fmt.Fprintf(w, "toolnorm check: %s\n", display.Text(r.Implementation))
	if len(r.Choices) > 0 {
		fmt.Fprintf(w, "declared choices (not violations): %s\n", strings.Join(r.Choices, ", "))
	}
	if r.NotImplemented != "" {
		fmt.Fprintf(w, "not implemented, as declared: %s; not conformant, and the rest is checked in full against the reference doing the same\n", r.NotImplemented)
	}
	budget := "no time limit"
	if r.Budget != "" {
		budget = "budget " + r.Budget
	}
	fmt.Fprintf(w, "seed %d, %d cases of each property and of fuzzing, %s, %.1fs\n", r.Seed, r.Checks, budget, r.Seconds)
	if r.Stopped != "" {
		fmt.Fprintf(w, "stopped early: %s\n", r.Stopped)
	}
	fmt.Fprintf(w, "repeat exactly: %s\n\n", r.Repeat)
	c := r.Corpus
	fmt.Fprintf(w, "corpus: %s\n", CorpusSummary(c))
	if c.Adapted > 0 {
		fmt.Fprintf(w, "  %d of them written for other options, and meaning the same under the declared ones\n", c.Adapted)
	}
	count := map[check.Status]int{}
	var na []string
	for _, p := range r.Properties {
		count[p.Status]++
		if p.Status == check.StatusNotApplicable {
			na = append(na, p.ID)
		}
	}
	fmt.Fprintf(w, "properties: %s, %d broken, %d not checked, %d not applicable (of %d)\n", holds(count[check.StatusHolds]), count[check.StatusViolated], count[check.StatusNotChecked], count[check.StatusNotApplicable], len(r.Properties))
	if len(na) > 0 {
		fmt.Fprintf(w, "  not applicable under the declared reading: %s\n", strings.Join(na, ", "))
	}
	for _, p := range r.Properties {
		if p.Status == check.StatusNotChecked {
			fmt.Fprintf(w, "  not checked: %s (%s)\n", p.ID, p.Reason)
		}
	}
	fmt.Fprintf(w, "fuzzing: %d agreed with the reference, %d differed (%s), %s of the program (of %s)\n", r.Fuzz.Agreed(), r.Fuzz.Differed, plural(len(r.Fuzz.Findings), "finding"), plural(r.Fuzz.Failures, "failure"), plural(r.Fuzz.Cases, "case"))
	if n := r.Failures(); n > 0 {
		fmt.Fprintf(w, "failures of the program (timeouts, crashes, protocol errors; not violations): %d, %s\n", n, plural(r.Restarts, "restart"))
	}
	for _, g := range groups(r) {
		fmt.Fprintf(w, "\n== %s\n", g.title)
		for i, is := range g.issues {
			if i == 3 && len(g.issues) > 4 {
				fmt.Fprintf(w, "  ... and %d more\n", len(g.issues)-3)
				break
			}
			writeIssue(w, is)
		}
	}
	for i, e := range r.Events {
		if i == 10 && len(r.Events) > 11 {
			fmt.Fprintf(w, "\n== ... and %d more failures of the program\n", len(r.Events)-10)
			break
		}
		fmt.Fprintf(w, "\n== %s\n", eventLine(e))
		if e.Stderr != "" {
			// Its lines as they came, each shown exactly.
			// The end: where an adapter says why it died.
			lines := strings.Split(strings.TrimRight(display.Tail(e.Stderr, 2000), "\n"), "\n")
			for i, l := range lines {
				lines[i] = display.Text(l)
			}
			fmt.Fprintf(w, "  stderr:\n%s", indent(strings.Join(lines, "\n"), "    "))
		}
	}
	fmt.Fprintf(w, "\nverdict: %s%s\n", strings.ToUpper(string(r.Verdict)), verdictNote(r))
	return nil
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix) + "\n"
}

// eventLine is a failure of the program in one line.
func eventLine(e harness.Event) string {
	again := ""
	if e.Answered {
		again = " (answered when sent again)"
	}
	return fmt.Sprintf("%s on request %d%s: %s", e.Kind, e.Request, again, display.Text(e.Detail))
}

// holds counts the properties that hold: "1 holds", "5 hold".
func holds(n int) string {
	if n == 1 {
		return "1 holds"
	}
	return fmt.Sprintf("%d hold", n)
}

// verdictNote says what makes a failing verdict when no violation and no
// failure of the program does: a repair not implemented.
func verdictNote(r *check.Report) string {
	if r.NotImplemented != "" && r.Violations() == 0 && r.Failures() == 0 {
		return " (" + r.NotImplemented + " is not implemented)"
	}
	return ""
}

// CorpusSummary counts a corpus replay in one line; the counts add up to
// its Vectors.
func CorpusSummary(c check.CorpusResult) string {
	unimpl := ""
	if c.Unimplemented > 0 {
		unimpl = fmt.Sprintf(", %d needing a repair not implemented", c.Unimplemented)
	}
	return fmt.Sprintf("%d passed, %d failed, %s of the program, %d skipped%s, %d not run (of %s)",
		c.Passed, c.Failed, plural(c.Errors, "failure"), c.Skipped, unimpl, c.NotRun, plural(c.Vectors, "vector"))
}

// made says which toolnorm made the report and when, for a footer.
func made(r *check.Report) string {
	s := "toolnorm"
	if r.Toolnorm != "" {
		s += " " + r.Toolnorm
	}
	if !r.Started.IsZero() {
		s += ", " + r.Started.UTC().Format("2006-01-02 15:04 MST")
	}
	return s
}
