package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/harness"
)

const evil = `/a: the string <script>alert("x")</script> & more was not decoded`

// reference passes everything but was not fuzzed.
func reference() *check.Report {
	return &check.Report{
		Implementation: "toolnorm reference", Seed: 1, Budget: "1s", Verdict: "pass",
		Corpus: check.CorpusResult{Vectors: 10, Passed: 10},
		Properties: []check.PropResult{
			{ID: "deterministic", Statement: "The same input gives the same result", Clause: "rule/1", Required: true, Checks: 800},
			{ID: "shape-match-decoded", Statement: "A string of the declared shape is decoded", Clause: "rule/2", Required: true, Checks: 900},
			{ID: "idempotent", Statement: "Normalizing again changes nothing", Clause: "reading/6", Checks: 700},
		},
	}
}

// python declares a choice, breaks a property with a message that holds
// markup, fails corpus vectors of two clauses, has a fuzzing finding, and
// was run by a toolnorm without the idempotent property but with another.
func python() *check.Report {
	return &check.Report{
		Implementation: "pyjson 1.2 (Python)",
		Info:           &harness.Info{Name: "pyjson", Language: "Python", Version: "1.2"},
		Choices:        []string{"profile attribute"},
		Seed:           7, Budget: "30s", Verdict: "fail",
		RootCauses: []check.RootCause{{Class: "decode-missed", Clause: "rule/2", Title: "A stringified array is not decoded"},
			{Class: "artefact/lossy-json", Clause: "reading/7", Title: "The arguments are read lossily", Artefact: true}},
		Corpus: check.CorpusResult{Vectors: 10, Passed: 5, Failed: 3, Skipped: 2, Failures: []check.VectorFailure{
			{File: "vectors/reading/c.json", Description: "Arrays are not arguments", Clause: "reading/8", Message: "got {}, want error not-object", Command: "toolnorm corpus replay --only c"},
			{File: "vectors/rule/a.json", Description: "A title escaped twice", Clause: "rule/4", Message: "got &amp;, want &", Command: "toolnorm corpus replay --only a"},
			{File: "vectors/rule/b.json", Description: "Another", Clause: "rule/4", Message: "differs", Command: "toolnorm corpus replay --only b"},
		}},
		Properties: []check.PropResult{
			{ID: "deterministic", Statement: "The same input gives the same result", Clause: "rule/1", Required: true, Checks: 500},
			{ID: "shape-match-decoded", Statement: "A string of the declared shape is decoded", Clause: "rule/2", Required: true, Checks: 12,
				Violation: &check.Finding{Property: "shape-match-decoded", Clause: "rule/2", Message: evil, Command: "toolnorm normalize --args <(printf %s '{\"a\":\"[1]\"}')"}},
			{ID: "non-object-rejected", Statement: "Arguments that are not an object are an error", Clause: "reading/8", Checks: 40},
		},
		Fuzz: check.FuzzResult{Cases: 4000, Findings: []check.Finding{{Property: "agrees-with-reference", Clause: "reading/1", Message: "output differs", Bucket: "abc123", Command: "toolnorm normalize --schema x"}}},
	}
}

// cellAt finds the cell of a row (by id and clause) in a column.
func cellAt(t *testing.T, m *Table, section, id, clause string, col int) Cell {
	t.Helper()
	for _, s := range m.Sections {
		if s.Title != section {
			continue
		}
		for _, r := range s.Rows {
			if r.ID == id && r.Clause == clause {
				if len(r.Cells) != len(m.Columns) {
					t.Fatalf("row %s %s: %d cells for %d columns", id, clause, len(r.Cells), len(m.Columns))
				}
				return r.Cells[col]
			}
		}
	}
	t.Fatalf("no row %s (%s) in section %q", id, clause, section)
	return Cell{}
}

func TestMatrixCells(t *testing.T) {
	m := Matrix([]*check.Report{reference(), python()})
	tests := []struct {
		section, id, clause string
		col                 int
		status              Status
		summary             string
		message             string // the first issue's message holds this
		command             string // and its command this
		issues              int
	}{
		{SectionRequired, "deterministic", "rule/1", 0, Holds, "800 checks", "", "", 0},
		{SectionRequired, "deterministic", "rule/1", 1, Holds, "500 checks", "", "", 0},
		{SectionRequired, "shape-match-decoded", "rule/2", 0, Holds, "900 checks", "", "", 0},
		{SectionRequired, "shape-match-decoded", "rule/2", 1, Broken, "after 12 cases that held", "<script>", "printf %s", 1},
		{SectionReadings, "idempotent", "reading/6", 0, Holds, "700 checks", "", "", 0},
		{SectionReadings, "idempotent", "reading/6", 1, NotRun, "", "", "", 0},
		{SectionReadings, "non-object-rejected", "reading/8", 0, NotRun, "", "", "", 0},
		{SectionReadings, "non-object-rejected", "reading/8", 1, Holds, "40 checks", "", "", 0},
		{SectionCorpus, "corpus", "all", 0, Holds, "10 passed, 0 failed, 0 skipped", "", "", 0},
		{SectionCorpus, "corpus", "all", 1, Broken, "5 passed, 3 failed, 2 skipped", "", "", 0},
		{SectionCorpus, "corpus", "rule/4", 0, Holds, "0 failed", "", "", 0},
		{SectionCorpus, "corpus", "rule/4", 1, Broken, "2 failed", "A title escaped twice: got &amp;, want &", "--only a", 2},
		{SectionCorpus, "corpus", "reading/8", 1, Broken, "1 failed", "Arrays are not arguments", "--only c", 1},
		{SectionFuzz, "fuzzing", "", 0, NotRun, "", "", "", 0},
		{SectionFuzz, "fuzzing", "", 1, Broken, "4000 cases, 1 finding", "output differs", "--schema x", 1},
	}
	for _, tt := range tests {
		c := cellAt(t, m, tt.section, tt.id, tt.clause, tt.col)
		name := tt.id + " " + tt.clause + " " + m.Columns[tt.col].Name
		if c.Status != tt.status || c.Summary != tt.summary || len(c.Issues) != tt.issues {
			t.Errorf("%s: got %s %q with %d issues, want %s %q with %d", name, c.Status, c.Summary, len(c.Issues), tt.status, tt.summary, tt.issues)
			continue
		}
		if tt.issues > 0 {
			if is := c.Issues[0]; !strings.Contains(is.Title+": "+is.Message, tt.message) || !strings.Contains(is.Command, tt.command) {
				t.Errorf("%s: issue %+v, want message with %q and command with %q", name, c.Issues[0], tt.message, tt.command)
			}
		}
	}
}

func TestMatrixGrouping(t *testing.T) {
	m := Matrix([]*check.Report{reference(), python()})
	var got []string
	for _, s := range m.Sections {
		var ids []string
		for _, r := range s.Rows {
			ids = append(ids, r.ID+"@"+r.Clause)
		}
		got = append(got, s.Title+": "+strings.Join(ids, " "))
	}
	want := []string{
		SectionRequired + ": deterministic@rule/1 shape-match-decoded@rule/2",
		SectionReadings + ": idempotent@reading/6 non-object-rejected@reading/8",
		SectionCorpus + ": corpus@all corpus@rule/4 corpus@reading/8",
		SectionFuzz + ": fuzzing@",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sections:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	r := m.Sections[0].Rows[1]
	if r.Statement != "A string of the declared shape is decoded" {
		t.Errorf("statement %q", r.Statement)
	}
}

func TestMatrixColumns(t *testing.T) {
	m := Matrix([]*check.Report{reference(), python()})
	if len(m.Columns) != 2 {
		t.Fatalf("%d columns", len(m.Columns))
	}
	ref, py := m.Columns[0], m.Columns[1]
	if ref.Name != "toolnorm reference" || ref.Language != "" || len(ref.Choices) != 0 || ref.Verdict != "pass" || ref.Seed != 1 || ref.Budget != "1s" {
		t.Errorf("reference column %+v", ref)
	}
	if py.Name != "pyjson" || py.Language != "Python" || py.Version != "1.2" || py.Verdict != "fail" || py.Seed != 7 || py.Budget != "30s" ||
		len(py.Choices) != 1 || py.Choices[0] != "profile attribute" {
		t.Errorf("python column %+v", py)
	}
	// A declared choice is not a violation: no cell says it.
	for _, s := range m.Sections {
		for _, r := range s.Rows {
			for _, is := range r.Cells[1].Issues {
				if strings.Contains(is.Message, "profile attribute") {
					t.Errorf("%s: the declared choice is reported as a violation", r.ID)
				}
			}
		}
	}
}

func TestMatrixMarkdown(t *testing.T) {
	var b strings.Builder
	if err := Matrix([]*check.Report{reference(), python()}).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"| implementation | language | version | declared choices | verdict | root causes | seed | budget |",
		"| toolnorm reference | — | — | none | ✅ pass | — | `1` | 1s |",
		"| pyjson | Python | 1.2 | profile attribute | ❌ fail | 2 (1 probably the adapter's) | `7` | 30s |",
		"| property | clause | toolnorm reference | pyjson |",
		"| **required by the rule** | | | |",
		"| **our readings** | | | |",
		// Every status in words beside its symbol.
		"| `deterministic`: The same input gives the same result | rule/1 | ✅ holds: 800 checks | ✅ holds: 500 checks |",
		"| `idempotent`: Normalizing again changes nothing | reading/6 | ✅ holds: 700 checks | — not run |",
		"| ❌ broken: after 12 cases that held [1] |",
		"| ❌ broken: 5 passed, 3 failed, 2 skipped |",
		"| `corpus`: The corpus vectors written to test rule/4 (by their own clause, not by root cause) | rule/4 | ✅ holds: 0 failed | ❌ broken: 2 failed [2] |",
		"| — not run | ❌ broken: 4000 cases, 1 finding [4] |",
		// The notes: each message escaped, each command a code block.
		"1. **pyjson**, `shape-match-decoded` (rule/2):\n   - /a: the string &lt;script&gt;alert(\"x\")&lt;/script&gt; &amp; more was not decoded\n",
		"     ```sh\n     toolnorm normalize --args <(printf %s '{\"a\":\"[1]\"}')\n     ```\n",
		"   - `vectors/rule/a.json`: A title escaped twice\n\n     got &amp;amp;, want &amp;\n",
		"   - `vectors/rule/b.json`: Another\n\n     differs\n",
		"     toolnorm corpus replay --only b\n",
		"4. **pyjson**, `fuzzing`:\n   - `bucket abc123`: output differs",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "<script>") {
		t.Errorf("markdown holds an unescaped <script>:\n%s", md)
	}
	// Every table line has as many cells as the header.
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| `") || strings.HasPrefix(line, "| **") {
			if n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|"); n != 5 {
				t.Errorf("%d pipes in %q", n, line)
			}
		}
	}
}

func TestMatrixHTML(t *testing.T) {
	var b strings.Builder
	m := Matrix([]*check.Report{reference(), python()})
	m.Made = "toolnorm v9.9.9, 2026-12-01 09:30 UTC"
	if err := m.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"<!DOCTYPE html>",
		`<meta charset="utf-8">`,
		"<style>",
		"position: sticky",
		"overflow-wrap: anywhere",
		`<th scope="rowgroup">required by the rule</th>`,
		`<th scope="rowgroup">our readings</th>`,
		`<th scope="rowgroup">corpus replay</th>`,
		`<th scope="rowgroup">fuzzing against the reference</th>`,
		`<div class="name">pyjson</div><div class="verdict fail"><span aria-hidden="true">❌</span> fail</div>`,
		`<div>Python · 1.2</div>`,
		`declared choices: <span class="choice">profile attribute</span>`,
		`<span class="muted">no declared choices</span>`,
		"seed 7 · budget 30s",
		// The status in words beside its symbol.
		`<td class="holds"><span aria-hidden="true">✅</span> <span class="status">holds</span> <span class="sum">800 checks</span></td>`,
		`<td class="not-run"><span aria-hidden="true">—</span> <span class="status">not run</span></td>`,
		// An opened cell: the status in its summary, each message once below.
		`<td class="broken"><details><summary><span aria-hidden="true">❌</span> <span class="status">broken</span> <span class="sum">(after 12 cases that held)</span></summary>`,
		`<p>/a: the string &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; more was not decoded</p>`,
		`<pre><code>toolnorm normalize --args &lt;(printf %s &#39;{&#34;a&#34;:&#34;[1]&#34;}&#39;)</code></pre>`,
		`<p><code>vectors/rule/a.json</code></p><p>A title escaped twice</p><p>got &amp;amp;, want &amp;</p>`,
		`<code>corpus</code> <span class="clause">rule/4</span>`,
		`<footer>Made by toolnorm v9.9.9, 2026-12-01 09:30 UTC.</footer>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	// An opened cell shows its message once (not in a title, not in its
	// summary as well).
	if n := strings.Count(page, "more was not decoded"); n != 1 {
		t.Errorf("the message appears %d times in the page, want once", n)
	}
	// Static and self-contained: no script, nothing fetched.
	for _, bad := range []string{"<script", "src=", "<link", "http://", "https://", "@import", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("HTML holds %q", bad)
		}
	}
}

func TestMatrixManyFailures(t *testing.T) {
	r := python()
	r.Corpus.Failures = nil
	for range 8 {
		r.Corpus.Failures = append(r.Corpus.Failures, check.VectorFailure{File: "f", Clause: "rule/4", Message: "m"})
	}
	r.Corpus.Failed = 8
	c := cellAt(t, Matrix([]*check.Report{r}), SectionCorpus, "corpus", "rule/4", 0)
	if c.Summary != "8 failed" || len(c.Issues) != maxIssues || c.More != 8-maxIssues {
		t.Errorf("cell %+v", c)
	}
}

func TestParseReport(t *testing.T) {
	good, err := json.Marshal(python())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, data, err string
	}{
		{"report", string(good), ""},
		{"not JSON", "corpus: 3 passed", "not a check report: invalid JSON"},
		{"truncated", `{"implementation": "x"`, "not a check report: invalid JSON"},
		{"array", `[1]`, "not a check report: not a JSON object"},
		{"null", `null`, "not a check report: not a JSON object"},
		{"no implementation", `{"properties": []}`, `not a check report: no "implementation"`},
		{"no properties", `{"implementation": "x"}`, `not a check report: no "properties"`},
		{"null properties", `{"implementation": "x", "properties": null}`, `not a check report: no "properties"`},
		{"empty name", `{"implementation": "", "properties": []}`, "not a check report: the implementation has no name"},
		{"wrong type", `{"implementation": "x", "properties": {}}`, "not a check report: json: cannot unmarshal"},
	}
	for _, tt := range tests {
		r, err := check.ParseReport([]byte(tt.data))
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.err == "" && (r.Implementation != "pyjson 1.2 (Python)" || len(r.Properties) != 3 || r.Properties[1].Violation.Message != evil):
			t.Errorf("%s: read back %+v", tt.name, r)
		case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		}
	}
}

func TestClauseLess(t *testing.T) {
	in := []string{"found", "reading/10", "rule/5", "reading/2", "", "rule/1"}
	want := []string{"rule/1", "rule/5", "reading/2", "reading/10", "", "found"}
	got := append([]string(nil), in...)
	for i := range got {
		for j := i + 1; j < len(got); j++ {
			if clauseLess(got[j], got[i]) {
				got[i], got[j] = got[j], got[i]
			}
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestMarkdownShowsValues: GitHub decodes character references outside
// code, so a value under test must reach the reader as it is: escaped in
// text, literal in code.
func TestMarkdownShowsValues(t *testing.T) {
	v := &corpus.Vector{Schema: []byte(`{}`), Arguments: []byte(`{"x&amp;y":"[1]"}`), Expected: []byte(`{"x&amp;y":"[1]"}`)}
	r := &check.Report{Implementation: "amp|impl", Verdict: check.Fail, Seed: 3, Checks: 16, Repeat: "toolnorm check --seed 3 --checks 16",
		Corpus: check.CorpusResult{Vectors: 2, Passed: 1, Skipped: 1},
		Properties: []check.PropResult{{ID: "keys-unchanged", Clause: "rule/5", Required: true, Status: check.StatusViolated,
			Violation: &check.Finding{Message: `at  member 0 has the key "x&y", not "x&amp;y"`, Vector: v, Command: `printf '%s\n' '{}' | toolnorm corpus replay -`}}},
		Fuzz: check.FuzzResult{Cases: 16, Differed: 2, Failures: 1},
	}
	var b strings.Builder
	if err := Write(r, &b, "markdown"); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"## toolnorm check: amp\\|impl: ❌ FAIL\n",
		"```sh\ntoolnorm check --seed 3 --checks 16\n```",
		"| corpus vectors | 1 | 0 | 0 | 1 | 0 | 2 |",
		"| fuzzing cases | 13 agreed | 2 differed (0 findings) | 1 | | | 16 |",
		// In text, the reference is escaped so that it shows as written.
		`the key "x&amp;y", not "x&amp;amp;y"`,
		// In code, it is literal.
		"- arguments: `{\"x&amp;y\":\"[1]\"}`",
		"- reference: `{\"x&amp;y\":\"[1]\"}`",
		"     printf '%s\\n' '{}' | toolnorm corpus replay -\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestMdCode(t *testing.T) {
	tests := []struct {
		in      string
		inTable bool
		want    string
	}{
		{"a&amp;b", false, "`a&amp;b`"},
		{"a`b", false, "``a`b``"},
		{"`a", false, "`` `a ``"},
		{"a|b", false, "`a|b`"},
		{"a|b", true, `a\|b`},
		{"", false, ""},
	}
	for _, tt := range tests {
		if got := mdCode(tt.in, tt.inTable); got != tt.want {
			t.Errorf("mdCode(%q, %v) = %q, want %q", tt.in, tt.inTable, got, tt.want)
		}
	}
}
