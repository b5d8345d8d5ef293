// Package render writes what toolnorm check found, a check.Report, in
// each report format: text (this file), JSON, JUnit XML, Markdown and HTML
// (Write), several reports as a compliance matrix and badges (Matrix,
// Badges), and corpus replay's failed vectors (ReplayFailures). Every
// format shows a violation, a failed vector or a finding as an Issue. A
// new format is a file here and its name in Formats.
package render

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/internal/display"
)

// Formats are the report formats.
var Formats = []string{"text", "json", "junit", "markdown", "html"}

// Write renders the report in a format.
func Write(r *check.Report, w io.Writer, format string) error {
	return WriteWith(r, w, format, Options{})
}

// Options are how WriteWith renders a report, beyond its format.
type Options struct {
	// MaxMarkdown, if above 0, cuts a Markdown report longer than this
	// many bytes, such as a CI job's summary (GitHub takes at most 1 MiB),
	// where a section begins, never inside a code block: the verdict and
	// the counts at its top stay whole, and a last line says what was left
	// out and where the whole report is. Other formats are never cut.
	MaxMarkdown int
	// Whole is where the whole report is, for that last line: a file or
	// an artifact's name. Empty: the same check with --format html.
	Whole string
}

// WriteWith renders the report in a format, with the options.
func WriteWith(r *check.Report, w io.Writer, format string, o Options) error {
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
		return writeMarkdown(r, w, o.MaxMarkdown, o.Whole)
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
	writeFields(w, is.Case)
	if is.Cut {
		fmt.Fprintf(w, "  (the budget stopped its minimizing: a repeat may give a smaller case)\n")
	}
	if is.Command != "" {
		fmt.Fprintf(w, "  reproduce: %s\n", is.Command)
	}
}

// writeFields writes named values one a line, aligned, as the text
// report shows a finding's case and corpus replay a vector's exchange.
func writeFields(w io.Writer, fields []Field) {
	for _, f := range fields {
		fmt.Fprintf(w, "  %-10s %s\n", f.Name+":", f.Value)
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
	fmt.Fprintf(w, "seed %d, %s, %s, %.1fs\n", r.Seed, casesRun(r), budget, r.Seconds)
	if r.Stopped != "" {
		fmt.Fprintln(w, stoppedLine(r))
	}
	fmt.Fprintf(w, "%s: %s\n\n", repeatLabel(r), r.Repeat)
	c := r.Corpus
	fmt.Fprintf(w, "corpus: %s\n", CorpusSummary(c))
	if c.Adapted > 0 {
		fmt.Fprintf(w, "  %s\n", adaptedLine(c))
	}
	count := map[check.Status]int{}
	var na []string
	for _, p := range r.Properties {
		count[p.Status]++
		if p.Status == check.StatusNotApplicable {
			na = append(na, p.ID)
		}
	}
	fmt.Fprintf(w, "properties: %s\n", propertiesLine(r))
	if len(na) > 0 {
		fmt.Fprintf(w, "  not applicable under the declared reading: %s\n", strings.Join(na, ", "))
	}
	for _, p := range r.Properties {
		if p.Status == check.StatusNotChecked {
			fmt.Fprintf(w, "  not checked: %s (%s)\n", p.ID, p.Reason)
		}
	}
	fmt.Fprintf(w, "fuzzing: %s\n", FuzzSummary(r.Fuzz))
	if r.Searched != nil {
		fmt.Fprintf(w, "searched: %s\n", SearchedSummary(*r.Searched))
	}
	if len(r.Unsupported) > 0 {
		fmt.Fprintln(w, "unsupported, not judged, and why (what a reason quotes of a case as …):")
		for _, u := range r.Unsupported {
			fmt.Fprintf(w, "  %d %s\n", u.Cases, display.Text(u.Why))
		}
	}
	if r.Incomplete != nil {
		fmt.Fprintf(w, "incomplete: %s\n", ShortfallSummary(*r.Incomplete, applicable(r)))
		for _, l := range remedies(r) {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if r.Failures() > 0 {
		fmt.Fprintf(w, "failures of the program (timeouts, crashes, protocol errors; not violations): %s\n", failureTally(r))
	}
	if l := baselineLine(r); l != "" {
		fmt.Fprintln(w, l)
	}
	if len(r.RootCauses) > 0 {
		writeRootCauses(w, r)
	}
	for _, g := range groups(r) {
		if len(r.RootCauses) > 0 {
			break // each finding is under its root cause
		}
		fmt.Fprintf(w, "\n== %s\n", g.title)
		for i, is := range g.issues {
			if i == 3 && len(g.issues) > 4 {
				fmt.Fprintf(w, "  ... and %d more\n", len(g.issues)-3)
				break
			}
			writeIssue(w, is)
		}
	}
	loose := r.LooseEvents()
	if s := underCauses(r, len(loose)); s != "" {
		fmt.Fprintf(w, "\n(%s)\n", s)
	}
	shown, more := looseShown(loose)
	for _, e := range shown {
		fmt.Fprintf(w, "\n== %s\n", e.Line)
		if e.Stderr != "" {
			fmt.Fprintf(w, "  stderr:\n%s", indent(e.Stderr, "    "))
		}
	}
	if more > 0 {
		fmt.Fprintf(w, "\n== ... and %d more failures of the program\n", more)
	}
	fmt.Fprintf(w, "\nverdict: %s%s\n", strings.ToUpper(string(r.Verdict)), verdictNote(r))
	return nil
}

// stderrLines is the end of an adapter's standard error, where it says why
// it died: its lines as they came, each shown exactly (display.Lines, as
// the error of an adapter that cannot start shows it).
func stderrLines(stderr string) string {
	return display.Lines(strings.TrimRight(display.Tail(stderr, 2000), "\n"))
}

// UnsupportedSummary says why cases did not reach the implementation, in
// one line: each reason with its cases, most first ("21 a number a float
// cannot hold exactly; 17 a duplicate key").
func UnsupportedSummary(rs []check.Reason) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%d %s", r.Cases, display.Quote(r.Why))
	}
	return strings.Join(parts, "; ")
}

// details are the parts of the report the matrix has no cell for, for
// the HTML page of one check.
func details(r *check.Report) *RunDetails {
	d := &RunDetails{Cases: casesRun(r), RepeatLabel: repeatLabel(r), Repeat: r.Repeat,
		Counts: []string{"corpus: " + CorpusSummary(r.Corpus) + adapted(r.Corpus), "properties: " + propertiesLine(r), "fuzzing: " + FuzzSummary(r.Fuzz)}}
	if len(r.Unsupported) > 0 {
		d.Counts = append(d.Counts, "unsupported, not judged: "+UnsupportedSummary(r.Unsupported))
	}
	if r.Stopped != "" {
		d.Stopped = r.Stopped + inFlight(r)
	}
	if r.Incomplete != nil {
		d.Incomplete, d.Remedies = ShortfallSummary(*r.Incomplete, applicable(r)), remedies(r)
	}
	if r.Failures() > 0 {
		d.FailureCount = failureTally(r)
	}
	d.Baseline = baselineLine(r)
	// A vector the program failed on is under its root cause, with its
	// command: the failures listed here are the harness's, each once.
	if len(r.RootCauses) == 0 {
		for _, v := range r.Corpus.ErrorList {
			d.Failures = append(d.Failures, FailureDetail{Line: display.Text(v.Label()) + ": " + v.Message, Command: v.Command})
		}
	}
	if len(d.Failures) > maxLoose {
		d.Failures, d.More = d.Failures[:maxLoose], len(d.Failures)-maxLoose
	}
	loose := r.LooseEvents()
	d.UnderCauses = underCauses(r, len(loose))
	if n := maxLoose - len(d.Failures); n > 0 {
		shown, more := looseShown(loose)
		if len(shown) > n {
			for _, e := range shown[n:] {
				more += e.N
			}
			shown = shown[:n]
		}
		d.Failures = append(d.Failures, shown...)
		d.More += more
	} else {
		d.More += len(loose)
	}
	return d
}

// maxLoose is how many failures of the program a report lists one by
// one, those under no root cause.
const maxLoose = 10

// looseShown are the first maxLoose kinds of failures of the program
// loose are (events alike, one after the other, once, with how many:
// "(10 times)"), and how many failures are left out.
func looseShown(loose []harness.Event) (shown []FailureDetail, more int) {
	for i, e := range loose {
		f := FailureDetail{Line: eventLine(e), N: 1}
		if e.Stderr != "" {
			f.Stderr = stderrLines(e.Stderr)
		}
		if i > 0 && len(shown) > 0 && eventLine(loose[i-1]) == eventLine(e) && loose[i-1].Stderr == e.Stderr && more == 0 {
			last := &shown[len(shown)-1]
			last.N++
			last.Line = fmt.Sprintf("%s (%d times)", f.Line, last.N)
			continue
		}
		if len(shown) == maxLoose {
			more++
			continue
		}
		shown = append(shown, f)
	}
	return shown, more
}

// applicable counts the properties that apply.
func applicable(r *check.Report) int {
	n := 0
	for _, p := range r.Properties {
		if p.Status != check.StatusNotApplicable {
			n++
		}
	}
	return n
}

// propertiesLine counts the properties by status.
func propertiesLine(r *check.Report) string {
	count := map[check.Status]int{}
	for _, p := range r.Properties {
		count[p.Status]++
	}
	line := fmt.Sprintf("%s, %d broken, %d not checked, %d not applicable (of %d)", holds(count[check.StatusHolds]), count[check.StatusViolated], count[check.StatusNotChecked], count[check.StatusNotApplicable], len(r.Properties))
	if n := r.PropertyFailures(); n > 0 {
		line += ", " + plural(n, "failure") + " of the program"
	}
	return line
}

// failureTally is the count of failures of the program and its parts,
// which add up to it, and the restarts: "54 (corpus 8, properties 36,
// fuzzing 8, while minimizing findings 2), 4 restarts".
func failureTally(r *check.Report) string {
	var parts []string
	for _, p := range []struct {
		name string
		n    int
	}{{"corpus", r.Corpus.Errors}, {"properties", r.PropertyFailures()}, {"fuzzing", r.Fuzz.Failures}, {"while minimizing findings", r.FailuresMinimizing()}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", p.name, p.n))
		}
	}
	return fmt.Sprintf("%d (%s), %s", r.Failures(), strings.Join(parts, ", "), plural(r.Restarts, "restart"))
}

// casesRun says how many cases of each property and of fuzzing ran.
func casesRun(r *check.Report) string {
	if r.Checks == 0 {
		return "no case of a property or of fuzzing run"
	}
	return plural(r.Checks, "case") + " of each property and of fuzzing"
}

// inFlight says what request was under way when the check stopped: sent,
// or waiting for the adapter to start again to be sent.
func inFlight(r *check.Report) string {
	if r.Incomplete == nil || r.Incomplete.InFlight == nil {
		return ""
	}
	f := r.Incomplete.InFlight
	if f.Restarting {
		return fmt.Sprintf(" (waiting for the adapter to start again for %.1fs, to send %s)", f.Waited, display.Text(f.Case))
	}
	return fmt.Sprintf(" (a request in flight for %.1fs: %s)", f.Waited, display.Text(f.Case))
}

// repeatLabel names the repeat command: it repeats a check that ran all
// it drew exactly, and runs one cut short in full, which is more.
func repeatLabel(r *check.Report) string {
	if r.Incomplete != nil && r.Incomplete.RanShort() {
		return "run in full"
	}
	return "repeat exactly"
}

// remedies say what would make an incomplete check complete, each in a
// line: "to run it all: ..." when it was cut short, "to judge enough:
// ..." when a part of it judged too little of what it ran.
func remedies(r *check.Report) []string {
	var out []string
	if r.Incomplete.RanShort() {
		out = append(out, "to run it all: "+toRunItAll(r))
	}
	if len(r.Incomplete.Judged) > 0 {
		out = append(out, "to judge enough: "+toJudgeEnough)
	}
	return out
}

// sentence is a line of remedies as a sentence begins: "To run it all:
// ...".
func sentence(l string) string {
	if l == "" {
		return l
	}
	return strings.ToUpper(l[:1]) + l[1:]
}

// toJudgeEnough says what makes a check that judged too little complete.
var toJudgeEnough = fmt.Sprintf("an implementation that answers at least %d%% of the corpus vectors that apply, and of each property's and fuzzing's cases (an adapter answers unsupported only for what its language cannot hold: docs/protocol.md)", check.MinJudged)

// toRunItAll says what runs an incomplete check in full.
func toRunItAll(r *check.Report) string {
	s := ""
	if b := r.Incomplete.Budget; b != "" {
		s = "--budget " + b + " or more (an estimate from this run's speed), or "
	}
	return s + fmt.Sprintf("--seed %d --checks %d, with no time limit", r.Seed, r.Incomplete.Checks)
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
	return fmt.Sprintf("%s%s: %s", e.Kind, again, display.Text(e.Detail))
}

// holds counts the properties that hold: "1 holds", "5 hold".
func holds(n int) string {
	if n == 1 {
		return "1 holds"
	}
	return fmt.Sprintf("%d hold", n)
}

// verdictNote says what makes a failing verdict when no violation and no
// failure of the program does: a repair not implemented; and, with a
// baseline, what the verdict is judged on: the root causes not in it, or
// the known ones it passes with.
func verdictNote(r *check.Report) string {
	if b := r.Baseline; b != nil {
		switch {
		case len(b.New) > 0:
			return fmt.Sprintf(" (%s, not in the baseline: %s)", plural(len(b.New), "new root cause"), strings.Join(b.New, ", "))
		case r.Verdict == check.Fail && r.Failures() > 0:
			return " (failures of the program, which a baseline never holds)"
		case len(b.Known) > 0:
			return fmt.Sprintf(" (%s, in the baseline %s)", plural(len(b.Known), "known root cause"), b.File)
		}
		return ""
	}
	if r.NotImplemented != "" && r.Violations() == 0 && r.Failures() == 0 {
		return " (" + r.NotImplemented + " is not implemented)"
	}
	return ""
}

// FuzzSummary counts the fuzzing in one line; the counts add up to Cases.
func FuzzSummary(f check.FuzzResult) string {
	unsupported := ""
	if f.Unsupported > 0 {
		unsupported = fmt.Sprintf(", %d unsupported", f.Unsupported)
	}
	return fmt.Sprintf("%d agreed with the reference, %d differed (%s), %s of the program%s (of %s)", f.Agreed(), f.Differed, plural(len(f.Findings), "finding"), plural(f.Failures, "failure"), unsupported, plural(f.Cases, "case"))
}

// ShortfallSummary says in one line what did not run, of the properties that
// apply.
func ShortfallSummary(s check.Shortfall, apply int) string {
	var parts []string
	if s.Vectors > 0 {
		parts = append(parts, plural(s.Vectors, "vector")+" that apply not replayed")
	}
	var short []string
	if n := len(s.Properties); n > 0 {
		switch {
		case n == apply && n > 1:
			short = append(short, fmt.Sprintf("all %d properties that apply", n))
		case n == 1:
			short = append(short, "1 property ("+s.Properties[0]+")")
		default:
			short = append(short, fmt.Sprintf("%d properties (%s)", n, strings.Join(s.Properties, ", ")))
		}
	}
	if s.Fuzzing {
		short = append(short, "fuzzing")
	}
	if len(short) > 0 {
		parts = append(parts, strings.Join(short, " and ")+fmt.Sprintf(" short of a full round (%d cases)", s.Round))
	}
	if len(s.Judged) > 0 {
		parts = append(parts, JudgedSummary(s.Judged))
	}
	return strings.Join(parts, "; ")
}

// stoppedLine says why the check ended before it ran all it would have.
// A budget that ends a complete check (the corpus and a full round of
// each property and of fuzzing all run) is how a budget ends one, not a
// shortfall: two new users read "stopped early" beside PASS as a fault.
func stoppedLine(r *check.Report) string {
	if r.Stopped == check.StoppedBudget && r.Incomplete == nil && r.Verdict != check.Incomplete {
		return "ended by the budget, as a budget ends a check: the corpus and a full round of each property and of fuzzing ran (--budget for more rounds)" + inFlight(r)
	}
	return "stopped early: " + r.Stopped + inFlight(r)
}

// JudgedSummary says in one line which parts of a check judged too
// little of what they ran, how much and why: "judged under 90% of what
// ran: corpus 4 of 5080 vectors (5076 unsupported), deterministic 0 of
// 64 cases (64 unsupported), fuzzing 1 of 64 cases (63 unsupported)".
func JudgedSummary(cs []check.Coverage) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		what := "cases"
		if c.Part == "corpus" {
			what = "vectors"
		}
		var why []string
		for _, n := range []struct {
			n    int
			what string
		}{{c.Unsupported, "unsupported"}, {c.Failures, "failures of the program"}, {c.Moot, "moot"}} {
			if n.n > 0 {
				why = append(why, fmt.Sprintf("%d %s", n.n, n.what))
			}
		}
		parts[i] = fmt.Sprintf("%s %d of %d %s (%s)", c.Part, c.Judged, c.Ran, what, strings.Join(why, ", "))
	}
	return fmt.Sprintf("judged under %d%% of what ran: %s", check.MinJudged, strings.Join(parts, ", "))
}

// adaptedLine counts the vectors written for other options and judged
// under the declared ones.
func adaptedLine(c check.CorpusResult) string {
	return fmt.Sprintf("%d of them written for other options, and meaning the same under the declared ones", c.Adapted)
}

// adapted is adaptedLine after a corpus summary, when there are any.
func adapted(c check.CorpusResult) string {
	if c.Adapted == 0 {
		return ""
	}
	return "; " + adaptedLine(c)
}

// CorpusSummary counts a corpus replay in one line; the counts add up to
// its Vectors.
func CorpusSummary(c check.CorpusResult) string {
	unimpl := ""
	if c.Unimplemented > 0 {
		unimpl = fmt.Sprintf(", %d needing a repair not implemented", c.Unimplemented)
	}
	// The skipped vectors that apply and were not taken (unsupported) are
	// said apart from those written for other options, so that a count
	// is not read as the adapter's doing.
	unsupported := ""
	if c.Unsupported > 0 {
		unsupported = fmt.Sprintf(" (%d for other options, %d unsupported)", c.Skipped-c.Unsupported, c.Unsupported)
	}
	return fmt.Sprintf("%d passed, %d failed, %s of the program, %d skipped%s%s, %d not run (of %s)",
		c.Passed, c.Failed, plural(c.Errors, "failure"), c.Skipped, unsupported, unimpl, c.NotRun, plural(c.Vectors, "vector"))
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

// baselineLine says how a check compares with its baseline, in one line:
// how many root causes are known and new, and the known ones not found
// ("" without a baseline).
func baselineLine(r *check.Report) string {
	b := r.Baseline
	if b == nil {
		return ""
	}
	known := plural(len(b.Known), "known root cause")
	if len(b.Known) == 0 {
		known = "0 known root causes"
	}
	s := fmt.Sprintf("baseline %s: %s, %d new", b.File, known, len(b.New))
	if len(b.Fixed) > 0 {
		ids := make([]string, len(b.Fixed))
		for i, k := range b.Fixed {
			ids[i] = k.ID
		}
		s += "; not found this time (fixed?): " + strings.Join(ids, ", ")
	}
	return display.Text(s)
}

// baselineMark is how the text report marks a root cause checked against
// a baseline, before its line: "NEW: ", "known: ", or "".
func baselineMark(rc check.RootCause) string { return byBaseline(rc, "NEW: ", "known: ") }

// byBaseline is ifNew or ifKnown as rc was found new or known against a
// baseline, "" when it was not checked against one.
func byBaseline(rc check.RootCause, ifNew, ifKnown string) string {
	switch rc.Baseline {
	case check.BaselineNew:
		return ifNew
	case check.BaselineKnown:
		return ifKnown
	}
	return ""
}

// baselineNote follows a root cause's id when it was checked against a
// baseline.
func baselineNote(rc check.RootCause) string {
	return byBaseline(rc, " (NEW: not in the baseline)", " (known: in the baseline)")
}

// rootCauseLine is a root cause in one line: its clause, its title, how
// many findings show it.
func rootCauseLine(rc check.RootCause) string {
	s := fmt.Sprintf("[%s] %s (%s)", rc.Clause, display.Text(rc.Title), shownBy(rc))
	if saysArtefact(rc) {
		s += ", " + artefactNote
	}
	return s
}

// notMinimized says that a root cause's counterexample is a case as found.
const notMinimized = "not minimized: the case as found (a failure of the program is not run again)"

// artefactNote follows the title of a root cause that is probably the
// adapter's.
const artefactNote = "probably the adapter's"

// saysArtefact reports whether a root cause's line must say it is
// probably the adapter's: it is one, and its title does not say so
// already.
func saysArtefact(rc check.RootCause) bool {
	return rc.Artefact && !strings.Contains(rc.Title, artefactNote)
}

// shownBy counts a root cause's findings: "3 vectors, 1 property".
func shownBy(rc check.RootCause) string {
	var parts []string
	for _, p := range []struct {
		n          int
		one, other string
	}{{len(rc.Vectors), "vector", "vectors"}, {len(rc.Properties), "property", "properties"}, {len(rc.Buckets), "fuzzing bucket", "fuzzing buckets"}} {
		switch {
		case p.n == 1:
			parts = append(parts, "1 "+p.one)
		case p.n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.other))
		}
	}
	if rc.FailedCases > 0 {
		parts = append(parts, plural(rc.FailedCases, "failed case")+" of "+failedWhere(rc))
	}
	if rc.FailedMinimizing > 0 {
		parts = append(parts, fmt.Sprintf("%d while minimizing findings", rc.FailedMinimizing))
	}
	return strings.Join(parts, ", ")
}

// failedWhere says where a root cause's failed cases were: "properties",
// "fuzzing", or both.
func failedWhere(rc check.RootCause) string {
	props, fuzz := false, false
	for _, f := range rc.FailedIn {
		if f.ID == check.FuzzingID {
			fuzz = true
		} else {
			props = true
		}
	}
	switch {
	case props && fuzz:
		return "properties and fuzzing"
	case fuzz:
		return "fuzzing"
	}
	return "properties"
}

// failedCasesLabel introduces the list of a root cause's failed cases.
func failedCasesLabel(n int) string {
	return fmt.Sprintf("failed cases (%d, failures of the program)", n)
}

// stderrLabel introduces a root cause's standard error.
const stderrLabel = "stderr (the end, at its first failure)"

// underCauses says how many failures of the program are counted under
// their root causes, not listed again: "" when none is.
func underCauses(r *check.Report, loose int) string {
	n := len(r.Events) - loose
	if n == 0 {
		return ""
	}
	if n == 1 {
		return "1 failure of the program is under its root cause above"
	}
	return fmt.Sprintf("%d failures of the program are under their root causes above", n)
}

// failedInLine lists a root cause's failed cases by where they were:
// "deterministic 14, fuzzing 10".
func failedInLine(rc check.RootCause) string {
	parts := make([]string, len(rc.FailedIn))
	for i, f := range rc.FailedIn {
		parts[i] = fmt.Sprintf("%s %d", f.ID, f.Cases)
	}
	return strings.Join(parts, ", ")
}

// writeRootCauses writes the list of root causes, one line each, then
// each in full with every finding it accounts for.
func writeRootCauses(w io.Writer, r *check.Report) {
	cs := causes(r)
	fmt.Fprintf(w, "\n%s\n", plural(len(cs), "root cause"))
	for _, c := range cs {
		fmt.Fprintf(w, "%3d. %s%s\n", c.N, baselineMark(c.RootCause), rootCauseLine(c.RootCause))
	}
	for _, c := range cs {
		fmt.Fprintf(w, "\n== %d. %s (%s)\n", c.N, display.Text(c.Title), c.Clause)
		fmt.Fprintf(w, "  %-10s %s%s\n", "id:", display.Text(c.ID), baselineNote(c.RootCause))
		for _, f := range c.Example {
			fmt.Fprintf(w, "  %-10s %s\n", f.Name+":", f.Value)
		}
		if c.Cut {
			fmt.Fprintf(w, "  (the budget stopped its minimizing: a repeat may give a smaller case)\n")
		}
		if c.NotMinimized {
			fmt.Fprintf(w, "  %s\n", notMinimized)
		}
		fmt.Fprintf(w, "  reproduce: %s\n", c.Command)
		if c.CommandNote != "" {
			fmt.Fprintf(w, "  (%s)\n", c.CommandNote)
		}
		if c.Artefact {
			fmt.Fprintf(w, "  probably the adapter's, not the implementation's: %s\n", c.Fix)
		}
		if len(c.VectorLines) > 0 {
			fmt.Fprintf(w, "  vectors (%d):\n", len(c.VectorLines))
			for _, l := range c.VectorLines {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
		for _, l := range []struct {
			what string
			ids  []string
		}{{"properties", c.Properties}, {"fuzzing buckets", c.Buckets}} {
			if len(l.ids) > 0 {
				fmt.Fprintf(w, "  %s (%d): %s\n", l.what, len(l.ids), strings.Join(l.ids, ", "))
			}
		}
		if c.Failed != "" {
			fmt.Fprintf(w, "  %s\n", c.Failed)
		}
		if c.StderrLines != "" {
			fmt.Fprintf(w, "  %s:\n%s", stderrLabel, indent(c.StderrLines, "    "))
		}
	}
}

// vectorLine names a failing vector by its id: its label and description.
func vectorLine(r *check.Report, id string) string {
	for _, v := range append(r.Corpus.Failures, r.Corpus.ErrorList...) {
		if v.ID == id {
			return display.Text(v.Label() + ": " + v.Description)
		}
	}
	return display.Text(id)
}

// Cause is a root cause as the reports show it.
type Cause struct {
	check.RootCause
	N     int    // its place in the list, from 1
	Shown string // how many findings show it: "3 vectors, 1 property"
	// SaysArtefact is true when its line adds that it is probably the
	// adapter's (its title does not say so).
	SaysArtefact bool
	Example      []Field
	// VectorLines name its vectors, each with its description.
	VectorLines []string
	// Failed counts its failed cases, by where they were ("failed cases
	// (24, failures of the program): deterministic 14, fuzzing 10");
	// StderrLines, the end of standard error at its
	// first failure, line by line as shown.
	Failed, StderrLines string
}

// whereShown is a root cause's place, a JSON Pointer into the arguments,
// said to pass through a member named "" when it does: "/" reads as the
// arguments themselves otherwise.
func whereShown(where string) string {
	if where == "/" || strings.HasSuffix(where, "/") || strings.Contains(where, "//") {
		return where + ` (a member named "" on the way)`
	}
	return where
}

// causes are r's root causes as the reports show them.
func causes(r *check.Report) []Cause {
	var out []Cause
	for i, rc := range r.RootCauses {
		c := rc.Counterexample
		cs := Cause{RootCause: rc, N: i + 1, Shown: shownBy(rc), SaysArtefact: saysArtefact(rc)}
		for _, f := range []Field{{"schema", c.Schema}, {"arguments", c.Arguments}, {"options", c.Options}, {"expected", c.Expected}, {"got", c.Got}, {"where", whereShown(rc.Where)}} {
			if f.Value != "" {
				cs.Example = append(cs.Example, f)
			}
		}
		for _, id := range rc.Vectors {
			cs.VectorLines = append(cs.VectorLines, vectorLine(r, id))
		}
		if rc.FailedCases > 0 {
			cs.Failed = failedCasesLabel(rc.FailedCases) + ": " + failedInLine(rc)
		}
		if rc.Stderr != "" {
			cs.StderrLines = stderrLines(rc.Stderr)
		}
		out = append(out, cs)
	}
	return out
}

// SearchedSummary is what a check searched, in one line: of the cases the
// properties and fuzzing ran, how many single features of the schema
// vocabulary some case exercised, and those none did (the counts per
// feature are in the JSON report's searched).
func SearchedSummary(s check.Searched) string {
	single, exercised := 0, 0
	for _, f := range s.Features {
		if f.Group == "beside" || f.Group == "under" {
			continue
		}
		single++
		if f.Cases > 0 {
			exercised++
		}
	}
	line := fmt.Sprintf("%d of %d schema features exercised by the %d cases of the properties and fuzzing (counts per feature: --format json)", exercised, single, s.Cases)
	if len(s.NotExercised) > 0 {
		line += "; none exercised " + strings.Join(s.NotExercised, ", ")
	}
	return line
}
