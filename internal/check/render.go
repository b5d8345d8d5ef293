package check

import (
	"github.com/toolnorm/toolnorm/internal/display"

	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/toolnorm/toolnorm/corpus"
)

// Formats are the report formats.
var Formats = []string{"text", "json", "junit", "markdown"}

// Write renders the report in a format.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "text":
		return r.writeText(w)
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "junit":
		return r.writeJUnit(w)
	case "markdown":
		return r.writeMarkdown(w)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// group is the findings of one property or clause, for the text report.
type group struct {
	title    string
	findings []Finding
}

// groups puts every finding under its property, corpus failures under
// their clause.
func (r *Report) groups() []group {
	byKey := map[string]*group{}
	var keys []string
	add := func(key, title string, f Finding) {
		g, ok := byKey[key]
		if !ok {
			g = &group{title: title}
			byKey[key] = g
			keys = append(keys, key)
		}
		g.findings = append(g.findings, f)
	}
	for _, p := range r.Properties {
		if p.Violation != nil {
			kind := "our reading"
			if p.Required {
				kind = "required by the rule"
			}
			add("p:"+p.ID, fmt.Sprintf("property %s (%s, %s): %s", p.ID, p.Clause, kind, p.Statement), *p.Violation)
		}
	}
	for _, f := range r.Fuzz.Findings {
		add("f:"+f.Property, "fuzzing against the reference ("+f.Property+")", f)
	}
	for _, v := range r.Corpus.Failures {
		add("c:"+v.Clause, "corpus vectors of "+v.Clause, Finding{Property: "corpus", Clause: v.Clause, Message: v.Description + ": " + v.Message, Command: v.Command, Vector: &corpus.Vector{File: v.File, ID: v.ID}})
	}
	for _, v := range r.Corpus.ErrorList {
		add("e:corpus", "failures of the program on corpus vectors (not judged)", Finding{Property: "corpus", Clause: v.Clause, Message: v.Description + ": " + v.Message, Command: v.Command, Vector: &corpus.Vector{File: v.File, ID: v.ID}})
	}
	sort.Strings(keys)
	out := make([]group, len(keys))
	for i, k := range keys {
		out[i] = *byKey[k]
	}
	return out
}

func (r *Report) writeText(w io.Writer) error {
	fmt.Fprintf(w, "toolnorm check: %s\n", r.Implementation)
	if len(r.Choices) > 0 {
		fmt.Fprintf(w, "declared choices (not violations): %s\n", strings.Join(r.Choices, ", "))
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
	fmt.Fprintf(w, "corpus: %d passed, %d failed, %d failures of the program, %d skipped, %d not run (of %d vectors)\n", c.Passed, c.Failed, c.Errors, c.Skipped, c.NotRun, c.Vectors)
	if c.Adapted > 0 {
		fmt.Fprintf(w, "  %d of them written for other options, and meaning the same under the declared ones\n", c.Adapted)
	}
	count := map[string]int{}
	var na []string
	for _, p := range r.Properties {
		count[p.Status]++
		if p.Status == StatusNotApplicable {
			na = append(na, p.ID)
		}
	}
	fmt.Fprintf(w, "properties: %d hold, %d broken, %d not checked, %d not applicable (of %d)\n", count[StatusHolds], count[StatusViolated], count[StatusNotChecked], count[StatusNotApplicable], len(r.Properties))
	if len(na) > 0 {
		fmt.Fprintf(w, "  not applicable under the declared reading: %s\n", strings.Join(na, ", "))
	}
	for _, p := range r.Properties {
		if p.Status == StatusNotChecked {
			fmt.Fprintf(w, "  not checked: %s (%s)\n", p.ID, p.Reason)
		}
	}
	fmt.Fprintf(w, "fuzzing: %d cases, %d findings, %d failures of the program\n", r.Fuzz.Cases, len(r.Fuzz.Findings), r.Fuzz.Failures)
	if n := r.failures(); n > 0 {
		fmt.Fprintf(w, "failures of the program (timeouts, crashes, protocol errors; not violations): %d, %d restarts\n", n, r.Restarts)
	}
	for _, g := range r.groups() {
		fmt.Fprintf(w, "\n== %s\n", g.title)
		for i, f := range g.findings {
			if i == 3 && len(g.findings) > 4 {
				fmt.Fprintf(w, "  ... and %d more\n", len(g.findings)-3)
				break
			}
			fmt.Fprintf(w, "- %s\n", f.Message)
			if f.Vector != nil && f.Vector.File != "" {
				fmt.Fprintf(w, "  vector: %s\n", f.Vector.File)
			} else if f.Vector != nil {
				data, _ := corpus.Encode(f.Vector)
				fmt.Fprintf(w, "  minimal case, as a corpus vector:\n%s", indent(string(data), "    "))
			}
			if f.Command != "" {
				fmt.Fprintf(w, "  reproduce: %s\n", f.Command)
			}
		}
	}
	for i, e := range r.Events {
		if i == 10 && len(r.Events) > 11 {
			fmt.Fprintf(w, "\n== ... and %d more failures of the program\n", len(r.Events)-10)
			break
		}
		again := ""
		if e.Answered {
			again = " (answered when sent again)"
		}
		fmt.Fprintf(w, "\n== %s on request %d%s: %s\n", e.Kind, e.Request, again, e.Detail)
		if e.Stderr != "" {
			fmt.Fprintf(w, "  stderr:\n%s\n", indent(display.Clip(e.Stderr, 2000), "    "))
		}
	}
	fmt.Fprintf(w, "\nverdict: %s\n", strings.ToUpper(r.Verdict))
	return nil
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix) + "\n"
}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Name    string       `xml:"name,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func (r *Report) writeJUnit(w io.Writer) error {
	props := junitSuite{Name: "properties"}
	for _, p := range r.Properties {
		c := junitCase{Name: p.ID, Classname: "toolnorm.properties." + strings.ReplaceAll(p.Clause, "/", ".")}
		switch v := p.Violation; {
		case v != nil:
			c.Failure = &junitFailure{Message: v.Message, Text: v.Command}
			props.Failures++
		case p.Status == StatusNotApplicable:
			c.Skipped = &junitSkipped{Message: p.Reason}
			props.Skipped++
		case p.Status == StatusNotChecked:
			c.Error = &junitFailure{Message: p.Reason}
			props.Errors++
		}
		props.Cases = append(props.Cases, c)
	}
	props.Tests = len(props.Cases)
	corp := junitSuite{Name: "corpus", Tests: r.Corpus.Passed + r.Corpus.Failed, Failures: r.Corpus.Failed, Skipped: r.Corpus.Skipped}
	for _, f := range r.Corpus.Failures {
		corp.Cases = append(corp.Cases, junitCase{Name: f.File, Classname: "toolnorm.corpus." + strings.ReplaceAll(f.Clause, "/", "."), Failure: &junitFailure{Message: f.Message, Text: f.Command}})
	}
	if n := r.Corpus.Passed; n > 0 {
		corp.Cases = append(corp.Cases, junitCase{Name: fmt.Sprintf("%d vectors passed", n), Classname: "toolnorm.corpus"})
	}
	fz := junitSuite{Name: "fuzz", Tests: 1 + len(r.Fuzz.Findings), Failures: len(r.Fuzz.Findings)}
	fz.Cases = append(fz.Cases, junitCase{Name: fmt.Sprintf("%d cases against the reference", r.Fuzz.Cases), Classname: "toolnorm.fuzz"})
	for _, f := range r.Fuzz.Findings {
		fz.Cases = append(fz.Cases, junitCase{Name: "bucket " + f.Bucket, Classname: "toolnorm.fuzz", Failure: &junitFailure{Message: f.Message, Text: f.Command}})
	}
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Name: "toolnorm check: " + r.Implementation, Suites: []junitSuite{props, corp, fz}}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func (r *Report) writeMarkdown(w io.Writer) error {
	icon := map[bool]string{true: "✅", false: "❌"}
	fmt.Fprintf(w, "## toolnorm check: %s %s\n\n", r.Implementation, icon[r.Verdict == Pass])
	if len(r.Choices) > 0 {
		fmt.Fprintf(w, "Declared choices (not violations): %s.\n\n", strings.Join(r.Choices, ", "))
	}
	fmt.Fprintf(w, "Corpus: %d passed, %d failed, %d skipped. Fuzzing: %d cases, %d findings. Seed `%d`, budget %s.\n\n", r.Corpus.Passed, r.Corpus.Failed, r.Corpus.Skipped, r.Fuzz.Cases, len(r.Fuzz.Findings), r.Seed, r.Budget)
	fmt.Fprintf(w, "| property | clause | kind | checks | result |\n| --- | --- | --- | --- | --- |\n")
	for _, p := range r.Properties {
		kind := "reading"
		if p.Required {
			kind = "rule"
		}
		result := icon[true] + " holds"
		switch {
		case p.Violation != nil:
			result = icon[false] + " " + mdEscape(display.Clip(p.Violation.Message, 120))
		case p.Status != StatusHolds:
			result = "— " + p.Status
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %d | %s |\n", p.ID, p.Clause, kind, p.Checks, result)
	}
	if len(r.Corpus.Failures) > 0 {
		fmt.Fprintf(w, "\n<details><summary>%d corpus vectors failed</summary>\n\n", len(r.Corpus.Failures))
		for _, f := range r.Corpus.Failures {
			fmt.Fprintf(w, "- `%s` (%s): %s\n", f.File, f.Clause, mdEscape(display.Clip(f.Message, 200)))
		}
		fmt.Fprintf(w, "\n</details>\n")
	}
	for _, f := range r.Fuzz.Findings {
		fmt.Fprintf(w, "\n- fuzzing, bucket `%s`: %s\n", f.Bucket, mdEscape(display.Clip(f.Message, 200)))
	}
	return nil
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;").Replace(s)
}
