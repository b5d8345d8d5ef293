package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
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

// Icon is the status as one symbol.
func (s Status) Icon() string {
	switch s {
	case Holds:
		return "✅"
	case Broken:
		return "❌"
	}
	return "—"
}

// Table is a compliance matrix.
type Table struct {
	Columns  []Column
	Sections []Section
}

// Column is one implementation: one report.
type Column struct {
	Name           string // the implementation's own name, or the report's
	Implementation string // as the report names it
	Language       string
	Version        string
	Homepage       string
	Choices        []string // declared choices: the reading it implements, not violations
	Verdict        string   // "pass" or "fail"
	Seed           uint64
	Budget         string
	Started        time.Time
	Failures       int // implementation failures: crashes, timeouts, protocol errors
	Restarts       int
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

// Issue is one violation, failed vector or fuzzing finding.
type Issue struct {
	What    string // the vector file or the fuzzing bucket; "" for a property
	Message string // truncated
	Command string // reproduces it
}

// The section titles.
const (
	SectionRequired = "required by the rule"
	SectionReadings = "our readings"
	SectionCorpus   = "corpus replay"
	SectionFuzz     = "fuzzing against the reference"
)

const (
	maxIssues  = 5   // issues kept per cell
	maxMessage = 500 // characters of a message kept
)

// Matrix combines check reports into a compliance matrix, one column per
// report, in their order.
func Matrix(reports []*Report) *Table {
	t := &Table{}
	for _, r := range reports {
		c := Column{Name: r.Implementation, Implementation: r.Implementation, Choices: r.Choices, Verdict: r.Verdict,
			Seed: r.Seed, Budget: r.Budget, Started: r.Started, Failures: len(r.Events), Restarts: r.Restarts}
		if i := r.Info; i != nil {
			if i.Name != "" {
				c.Name = i.Name
			}
			c.Language, c.Version, c.Homepage = i.Language, i.Version, i.Homepage
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
		row := Row{ID: "corpus", Clause: label, Statement: "The corpus vectors of " + label}
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

func findProperty(r *Report, id string) (PropResult, bool) {
	for _, p := range r.Properties {
		if p.ID == id {
			return p, true
		}
	}
	return PropResult{}, false
}

func propertyCell(p PropResult, ok bool) Cell {
	switch {
	case !ok:
		return Cell{Status: NotRun}
	case p.Violation != nil:
		return Cell{Status: Broken, Summary: plural(p.Checks, "check"), Issues: []Issue{{Message: clip(p.Violation.Message, maxMessage), Command: p.Violation.Command}}}
	case p.Checks == 0:
		return Cell{Status: NotRun, Summary: "0 checks"}
	}
	return Cell{Status: Holds, Summary: plural(p.Checks, "check")}
}

// corpusRan says whether any vector was replayed.
func corpusRan(r *Report) bool { return r.Corpus.Passed+r.Corpus.Failed > 0 }

func corpusCell(r *Report) Cell {
	c := r.Corpus
	summary := fmt.Sprintf("%d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
	switch {
	case c.Failed > 0:
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

func clauseCell(r *Report, clause string) Cell {
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
			msg := f.Message
			if f.Description != "" {
				msg = f.Description + ": " + msg
			}
			cell.Issues = append(cell.Issues, Issue{What: f.File, Message: clip(msg, maxMessage), Command: f.Command})
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

func fuzzCell(r *Report) Cell {
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
		what := ""
		if fd.Bucket != "" {
			what = "bucket " + fd.Bucket
		}
		cell.Issues = append(cell.Issues, Issue{What: what, Message: clip(fd.Message, maxMessage), Command: fd.Command})
	}
	return cell
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

// clip shortens s to at most n characters (not bytes), on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
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

// WriteMarkdown renders the matrix as GitHub-flavoured Markdown: a table of
// the implementations, the matrix, and numbered notes with each broken
// cell's messages and reproduction commands.
func (t *Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# toolnorm compliance matrix: RT-TOOL-8\n\n")
	fmt.Fprintf(&b, "%s. ✅ holds, ❌ broken, — not run. Declared choices are the reading an implementation says it implements: it is compared with the reference configured the same way, and they are not violations.\n\n",
		plural(len(t.Columns), "implementation"))
	b.WriteString("| implementation | language | version | declared choices | verdict | seed | budget |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, c := range t.Columns {
		choices := "none"
		if len(c.Choices) > 0 {
			choices = mdText(strings.Join(c.Choices, ", "))
		}
		verdict := verdictIcon(c.Verdict) + " " + mdText(orDash(c.Verdict))
		if c.Failures > 0 {
			verdict += fmt.Sprintf(" (%s, %d restarts)", plural(c.Failures, "implementation failure"), c.Restarts)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | `%d` | %s |\n", mdText(c.Name), mdText(orDash(c.Language)), mdText(orDash(c.Version)), choices, verdict, c.Seed, mdText(orDash(c.Budget)))
	}

	b.WriteString("\n| property | clause |")
	for _, c := range t.Columns {
		fmt.Fprintf(&b, " %s |", mdText(c.Name))
	}
	b.WriteString("\n| --- | --- |")
	b.WriteString(strings.Repeat(" --- |", len(t.Columns)))
	b.WriteString("\n")
	var notes strings.Builder
	note := 0
	for _, s := range t.Sections {
		fmt.Fprintf(&b, "| **%s** | |%s\n", mdText(s.Title), strings.Repeat(" |", len(t.Columns)))
		for _, r := range s.Rows {
			fmt.Fprintf(&b, "| %s: %s | %s |", mdCode(r.ID), mdText(r.Statement), mdText(orDash(r.Clause)))
			for i, c := range r.Cells {
				text := c.Status.Icon()
				if c.Status == Broken && len(c.Issues) > 0 {
					note++
					text += " " + mdText(clip(c.Issues[0].Message, 100))
					if c.Summary != "" {
						text += " (" + mdText(c.Summary) + ")"
					}
					text += fmt.Sprintf(" [%d]", note)
					writeNote(&notes, note, t.Columns[i].Name, r, c)
				} else if c.Summary != "" {
					text += " " + mdText(c.Summary)
				}
				fmt.Fprintf(&b, " %s |", text)
			}
			b.WriteString("\n")
		}
	}
	if notes.Len() > 0 {
		b.WriteString("\n## Broken, with commands that reproduce it\n\n")
		b.WriteString(notes.String())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeNote(b *strings.Builder, n int, impl string, r Row, c Cell) {
	row := mdCode(r.ID)
	if r.Clause != "" {
		row += " (" + mdText(r.Clause) + ")"
	}
	fmt.Fprintf(b, "%d. **%s**, %s:\n", n, mdText(impl), row)
	for _, is := range c.Issues {
		what := ""
		if is.What != "" {
			what = mdCode(is.What) + ": "
		}
		fmt.Fprintf(b, "   - %s%s\n", what, mdText(is.Message))
		if is.Command != "" {
			fence := codeFence(is.Command)
			cmd := strings.ReplaceAll(strings.ReplaceAll(is.Command, "\r", ""), "\n", "\n     ")
			fmt.Fprintf(b, "\n     %ssh\n     %s\n     %s\n\n", fence, cmd, fence)
		}
	}
	if c.More > 0 {
		fmt.Fprintf(b, "   - and %d more\n", c.More)
	}
}

// codeFence is a run of backticks longer than any in s.
func codeFence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// mdText escapes text for a Markdown table cell or list item: nothing in it
// is markup, character references included, and it stays on one line.
var mdText = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "~", `\~`, "#", `\#`,
	"\r\n", " ", "\n", " ", "\r", " ",
).Replace

// mdCode is s as inline code, or as escaped text where it holds what a
// code span in a table cannot.
func mdCode(s string) string {
	if s == "" || strings.ContainsAny(s, "`|\r\n") {
		return mdText(s)
	}
	return "`" + s + "`"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func verdictIcon(v string) string {
	switch v {
	case "pass":
		return Holds.Icon()
	case "fail":
		return Broken.Icon()
	}
	return NotRun.Icon()
}

// WriteHTML renders the matrix as one static HTML page: inline CSS, no
// script, nothing fetched, so that it opens from disk.
func (t *Table) WriteHTML(w io.Writer) error {
	var b bytes.Buffer
	if err := htmlPage.Execute(&b, t); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

var htmlPage = template.Must(template.New("matrix").Funcs(template.FuncMap{
	"clip":    clip,
	"verdict": verdictIcon,
	"plural":  plural,
	"date": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04 MST")
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolnorm compliance matrix: RT-TOOL-8</title>
<style>
body { margin: 1.2rem; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
h1 { font-size: 1.35rem; margin: 0 0 .3rem; }
p.legend { margin: 0 0 .8rem; color: #57606a; max-width: 60rem; }
table { border-collapse: separate; border-spacing: 0; border-top: 1px solid #d0d7de; border-left: 1px solid #d0d7de; }
th, td { border-right: 1px solid #d0d7de; border-bottom: 1px solid #d0d7de; padding: .3rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #f6f8fa; min-width: 10rem; max-width: 22rem; }
thead tr.names th { position: sticky; top: 0; z-index: 2; }
thead th.corner { position: sticky; left: 0; z-index: 3; }
thead tr.about th { font-weight: normal; font-size: .85em; color: #424a53; }
.name { font-size: 1.05em; }
.verdict { white-space: nowrap; font-weight: 600; }
.verdict.pass { color: #1a7f37; }
.verdict.fail { color: #cf222e; }
.choice { display: inline-block; margin: .1rem .15rem 0 0; padding: 0 .45em; border: 1px solid #54aeff; border-radius: 1em; background: #ddf4ff; color: #0550ae; white-space: nowrap; }
.muted { color: #6e7781; }
tbody th { position: sticky; left: 0; z-index: 1; background: #fff; font-weight: normal; min-width: 16rem; max-width: 28rem; }
tbody th code { font-weight: 600; }
.clause { color: #57606a; font-size: .85em; white-space: nowrap; }
.stmt { color: #424a53; font-size: .85em; }
tr.group th { background: #eaeef2; font-weight: 600; text-transform: uppercase; letter-spacing: .03em; font-size: .8em; }
tr.group td { background: #eaeef2; }
td { min-width: 10rem; max-width: 22rem; font-size: .9em; }
td.holds { background: #dafbe1; }
td.broken { background: #ffebe9; }
td.not-run { background: #f6f8fa; color: #8c959f; }
.sum { color: #424a53; }
summary { cursor: pointer; }
details p { margin: .3rem 0 .1rem; overflow-wrap: anywhere; }
pre { margin: .1rem 0 .3rem; padding: .25rem .4rem; max-height: 12rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; background: #fff; border: 1px solid #d0d7de; border-radius: 4px; font-size: .85em; }
</style>
</head>
<body>
<h1>toolnorm compliance matrix: RT-TOOL-8</h1>
<p class="legend">{{plural (len .Columns) "implementation"}}. ✅ holds · ❌ broken (open the cell for the message and a command that reproduces it) · — not run. Declared choices are the reading an implementation says it implements: it is compared with the reference configured the same way, and they are not violations.</p>
<table>
<thead>
<tr class="names"><th class="corner" scope="col">property</th>{{range .Columns}}<th scope="col"><div class="name">{{.Name}}</div><div class="verdict {{.Verdict}}">{{verdict .Verdict}} {{or .Verdict "no verdict"}}</div></th>{{end}}</tr>
<tr class="about"><th class="corner" scope="row">implementation</th>{{range .Columns}}<th>
<div>{{with .Language}}{{.}}{{else}}<span class="muted">language —</span>{{end}} · {{with .Version}}{{.}}{{else}}<span class="muted">version —</span>{{end}}</div>
<div>{{if .Choices}}declared choices: {{range .Choices}}<span class="choice">{{.}}</span>{{end}}{{else}}<span class="muted">no declared choices</span>{{end}}</div>
<div>seed {{.Seed}} · budget {{.Budget}}</div>
{{with date .Started}}<div class="muted">{{.}}</div>{{end}}{{if .Failures}}<div>{{plural .Failures "implementation failure"}}, {{.Restarts}} restarts</div>{{end}}
</th>{{end}}</tr>
</thead>
{{$n := len .Columns}}{{range .Sections}}<tbody>
<tr class="group"><th scope="rowgroup">{{.Title}}</th><td colspan="{{$n}}"></td></tr>
{{range .Rows}}<tr><th scope="row"><code>{{.ID}}</code>{{with .Clause}} <span class="clause">{{.}}</span>{{end}}<div class="stmt">{{.Statement}}</div></th>
{{range .Cells}}<td class="{{.Status}}"{{with .Issues}} title="{{clip (index . 0).Message 300}}"{{end}}>{{if and (eq .Status "broken") .Issues}}<details><summary>{{.Status.Icon}} {{clip (index .Issues 0).Message 90}}{{with .Summary}} <span class="sum">({{.}})</span>{{end}}</summary>
{{range .Issues}}<p>{{with .What}}<code>{{.}}</code>: {{end}}{{.Message}}</p>{{with .Command}}<pre><code>{{.}}</code></pre>{{end}}
{{end}}{{with .More}}<p>and {{.}} more</p>{{end}}</details>{{else}}{{.Status.Icon}}{{with .Summary}} <span class="sum">{{.}}</span>{{end}}{{end}}</td>
{{end}}</tr>
{{end}}</tbody>
{{end}}</table>
</body>
</html>
`))
