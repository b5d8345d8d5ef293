package render

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/internal/display"
)

// The JUnit XML report, as Jenkins, GitLab and GitHub's test reporters
// read it (the schema is testdata/junit.xsd): one <testsuite> each for the
// corpus, the properties and the fuzzing; one <testcase> per vector, per
// property, and per fuzzing bucket, with the cases that agreed and the
// failures of the program as cases of their own. Every count is the count
// of its elements: a violation is a <failure>, a failure of the program an
// <error>, a vector or property that does not apply or did not run
// <skipped>.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string      `xml:"name,attr"`
	Tests      int         `xml:"tests,attr"`
	Failures   int         `xml:"failures,attr"`
	Errors     int         `xml:"errors,attr"`
	Skipped    int         `xml:"skipped,attr"`
	Time       string      `xml:"time,attr"`
	Timestamp  string      `xml:"timestamp,attr,omitempty"`
	Properties *junitProps `xml:"properties,omitempty"`
	Cases      []junitCase `xml:"testcase"`
}

type junitProps struct {
	Props []junitProp `xml:"property"`
}

type junitProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	Failure   *junitFailure `xml:"failure,omitempty"`
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// add appends a case and counts what it holds.
func (s *junitSuite) add(c junitCase) {
	s.Cases = append(s.Cases, c)
	s.Tests++
	switch {
	case c.Failure != nil:
		s.Failures++
	case c.Error != nil:
		s.Errors++
	case c.Skipped != nil:
		s.Skipped++
	}
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }

// classname is a clause as a JUnit class name: toolnorm.corpus.rule.4.
func classname(kind, clause string) string {
	if clause == "" {
		return "toolnorm." + kind
	}
	return "toolnorm." + kind + "." + strings.ReplaceAll(clause, "/", ".")
}

// junitMessage is a message for an attribute: one line, cut.
func junitMessage(s string) string { return display.ClipText(s, 500) }

func writeReportJUnit(r *check.Report, w io.Writer) error {
	stamp := ""
	if !r.Started.IsZero() {
		stamp = r.Started.UTC().Format(time.RFC3339)
	}
	corp := junitSuite{Name: "corpus", Time: seconds(r.Corpus.Seconds), Timestamp: stamp}
	known := knownIn(r)
	byFile := map[string]check.VectorFailure{}
	for _, f := range append(append([]check.VectorFailure(nil), r.Corpus.Failures...), r.Corpus.ErrorList...) {
		byFile[f.ID] = f
	}
	for _, o := range r.Corpus.Outcomes {
		c := junitCase{Name: orDash(o.File), Classname: classname("corpus", o.Clause)}
		if c.Name == "—" {
			c.Name = o.ID
		}
		f := byFile[o.ID]
		detail := fmt.Sprintf("%s\nschema:    %s\narguments: %s\nwant:      %s\ngot:       %s\nreproduce: %s\n", display.Text(f.Description), f.Schema, f.Arguments, f.Want, f.Got, f.Command)
		switch {
		case o.Outcome == check.OutcomeFailed && known.vectors[o.ID] != "":
			c.Skipped = &junitSkipped{Message: junitMessage(known.say(known.vectors[o.ID], o.Reason))}
		case o.Outcome == check.OutcomeFailed:
			c.Failure = &junitFailure{Message: junitMessage(o.Reason), Type: "violation", Text: detail}
		case o.Outcome == check.OutcomeError:
			c.Error = &junitFailure{Message: junitMessage(o.Reason), Type: "failure of the program", Text: detail}
		case o.Outcome == check.OutcomeSkipped, o.Outcome == check.OutcomeNotRun, o.Outcome == check.OutcomeUnimplemented:
			c.Skipped = &junitSkipped{Message: junitMessage(string(o.Outcome) + ": " + o.Reason)}
		}
		corp.add(c)
	}
	if r.NotImplemented != "" {
		// Said once, as what it is: a clause not implemented.
		msg := fmt.Sprintf("not implemented, as declared: %d vectors need it", r.Corpus.Unimplemented)
		c := junitCase{Name: r.NotImplemented, Classname: "toolnorm.corpus"}
		if b := r.Baseline; b != nil && slices.Contains(b.Known, r.NotImplementedID) {
			c.Skipped = &junitSkipped{Message: junitMessage(known.say(r.NotImplementedID, msg))}
		} else {
			c.Failure = &junitFailure{Message: junitMessage(msg), Type: "not implemented"}
		}
		corp.add(c)
	}

	props := junitSuite{Name: "properties", Timestamp: stamp}
	total := 0.0
	for _, p := range r.Properties {
		total += p.Seconds
		c := junitCase{Name: p.ID, Classname: classname("properties", p.Clause), Time: seconds(p.Seconds)}
		switch v := p.Violation; {
		case v != nil && known.properties[p.ID] != "":
			c.Skipped = &junitSkipped{Message: junitMessage(known.say(known.properties[p.ID], v.Message))}
		case v != nil:
			c.Failure = &junitFailure{Message: junitMessage(v.Message), Type: "violation", Text: issueText(findingIssue(*v))}
		case p.Status == check.StatusNotApplicable:
			c.Skipped = &junitSkipped{Message: junitMessage("not applicable: " + p.Reason)}
		case p.Status == check.StatusNotChecked && p.Failures > 0:
			c.Error = &junitFailure{Message: junitMessage("not checked: " + p.Reason), Type: "failure of the program"}
		case p.Status == check.StatusNotChecked:
			c.Skipped = &junitSkipped{Message: junitMessage("not checked: " + p.Reason)}
		}
		props.add(c)
	}
	props.Time = seconds(total)

	fz := junitSuite{Name: "fuzzing", Time: seconds(r.Fuzz.Seconds), Timestamp: stamp}
	fz.add(junitCase{Name: fmt.Sprintf("%s agreed with the reference", plural(r.Fuzz.Agreed(), "case")), Classname: "toolnorm.fuzzing"})
	for _, f := range r.Fuzz.Findings {
		c := junitCase{Name: "bucket " + f.Bucket, Classname: classname("fuzzing", f.Clause)}
		if id := known.buckets[f.Bucket]; id != "" {
			c.Skipped = &junitSkipped{Message: junitMessage(known.say(id, f.Message))}
		} else {
			c.Failure = &junitFailure{Message: junitMessage(f.Message), Type: "violation", Text: issueText(findingIssue(f))}
		}
		fz.add(c)
	}
	if n := r.Fuzz.Failures; n > 0 {
		fz.add(junitCase{Name: fmt.Sprintf("%s the implementation failed on", plural(n, "case")), Classname: "toolnorm.fuzzing",
			Error: &junitFailure{Message: fmt.Sprintf("%s of the program (not judged)", plural(n, "failure")), Type: "failure of the program"}})
	}
	if n := r.Fuzz.Unsupported; n > 0 {
		fz.add(junitCase{Name: fmt.Sprintf("%s unsupported", plural(n, "case")), Classname: "toolnorm.fuzzing",
			Skipped: &junitSkipped{Message: "not sendable, or answered unsupported by the adapter: not judged"}})
	}
	suites := []junitSuite{corp, props, fz}
	if b := r.Baseline; b != nil {
		suites = append(suites, baselineSuite(r, stamp))
	}
	if in := r.Incomplete; in != nil {
		// An incomplete check exits 3: one <error> says what did not run,
		// so that a CI test report is not all green.
		whole := junitSuite{Name: "completeness", Time: seconds(0), Timestamp: stamp}
		text := ""
		if r.Stopped != "" {
			text = "stopped early: " + r.Stopped + inFlight(r) + "\n"
		}
		text += strings.Join(remedies(r), "\n") + "\n" + repeatLabel(r) + ": " + r.Repeat + "\n"
		whole.add(junitCase{Name: fmt.Sprintf("the whole corpus and a full round of each property and of fuzzing, each %d%% judged", check.MinJudged), Classname: "toolnorm.completeness",
			Error: &junitFailure{Message: junitMessage("incomplete: " + ShortfallSummary(*in, applicable(r))), Type: "incomplete", Text: text}})
		suites = append(suites, whole)
	}
	if n := r.Failures(); n > 0 {
		// Whenever failures of the program make the verdict fail, one
		// <error> says so, with each failure the harness saw: a CI test
		// report is never all green while toolnorm exits 1.
		var b strings.Builder
		fmt.Fprintf(&b, "corpus: %d vectors; fuzzing: %d cases\n", r.Corpus.Errors, r.Fuzz.Failures)
		for _, p := range r.Properties {
			if p.Failures > 0 {
				fmt.Fprintf(&b, "property %s: %d of %d cases\n", p.ID, p.Failures, p.Cases)
			}
		}
		if m := r.FailuresMinimizing(); m > 0 {
			fmt.Fprintf(&b, "while minimizing findings: %d\n", m)
		}
		for _, e := range r.Events {
			fmt.Fprintf(&b, "%s\n", eventLine(e))
		}
		prog := junitSuite{Name: "program", Time: seconds(0), Timestamp: stamp}
		prog.add(junitCase{Name: "failures of the program", Classname: "toolnorm.program",
			Error: &junitFailure{Message: "failures of the program (timeouts, crashes, protocol errors; not violations): " + failureTally(r),
				Type: "failure of the program", Text: b.String()}})
		suites = append(suites, prog)
	}
	doc := junitSuites{Name: "toolnorm check: " + display.Text(r.Implementation), Time: seconds(r.Seconds), Suites: suites}
	if r.Repeat != "" {
		corp := &doc.Suites[0]
		corp.Properties = &junitProps{Props: []junitProp{{"seed", fmt.Sprint(r.Seed)}, {"checks", fmt.Sprint(r.Checks)}, {"repeat", r.Repeat}, {"verdict", string(r.Verdict)}}}
	}
	return writeJUnit(w, doc)
}

func writeJUnit(w io.Writer, doc junitSuites) error {
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
	}
	if doc.Time == "" {
		doc.Time = seconds(0)
	}
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// issueText is an issue as plain text, for a <failure>'s body.
func issueText(is Issue) string {
	var b strings.Builder
	writeIssue(&b, is)
	return b.String()
}

// WriteJUnitError writes a JUnit document that says the check could not
// run at all (an adapter that does not start): one suite, one test case,
// one <error>, so that a CI test report shows why instead of nothing.
func WriteJUnitError(w io.Writer, implementation string, err error) error {
	s := junitSuite{Name: "toolnorm check", Time: seconds(0)}
	s.add(junitCase{Name: "start the implementation", Classname: "toolnorm.check",
		Error: &junitFailure{Message: junitMessage(err.Error()), Type: "cannot run", Text: err.Error()}})
	return writeJUnit(w, junitSuites{Name: "toolnorm check: " + implementation, Suites: []junitSuite{s}})
}

// knownFindings are the findings of a report checked against a baseline
// that are under a known root cause, by vector, property and bucket, each
// to the root cause's id: the JUnit report shows them skipped, so that a
// CI test report is green when the check passes with its baseline.
type knownFindings struct {
	file                         string
	vectors, properties, buckets map[string]string
}

func knownIn(r *check.Report) knownFindings {
	k := knownFindings{vectors: map[string]string{}, properties: map[string]string{}, buckets: map[string]string{}}
	if r.Baseline != nil {
		k.file = r.Baseline.File
	}
	for _, rc := range r.RootCauses {
		if rc.Baseline != check.BaselineKnown {
			continue
		}
		for _, l := range []struct {
			m   map[string]string
			ids []string
		}{{k.vectors, rc.Vectors}, {k.properties, rc.Properties}, {k.buckets, rc.Buckets}} {
			for _, id := range l.ids {
				l.m[id] = rc.ID
			}
		}
	}
	return k
}

// say is a known finding's message: its root cause, in the baseline.
func (k knownFindings) say(id, message string) string {
	return fmt.Sprintf("known root cause %s, in the baseline %s: %s", id, k.file, message)
}

// baselineSuite has a test case for each root cause of a report checked
// against a baseline: a new one fails, a known one is skipped, one of the
// baseline not found passes.
func baselineSuite(r *check.Report, stamp string) junitSuite {
	b := r.Baseline
	s := junitSuite{Name: "baseline", Time: seconds(0), Timestamp: stamp}
	for _, rc := range r.RootCauses {
		switch rc.Baseline {
		case check.BaselineNew:
			s.add(junitCase{Name: "root cause " + rc.ID + " (new)", Classname: "toolnorm.baseline",
				Failure: &junitFailure{Message: junitMessage("not in the baseline " + b.File + ": " + display.Text(rc.Title)), Type: "new root cause"}})
		case check.BaselineKnown:
			s.add(junitCase{Name: "root cause " + rc.ID + " (known, in the baseline)", Classname: "toolnorm.baseline",
				Skipped: &junitSkipped{Message: junitMessage("in the baseline " + b.File + ": " + display.Text(rc.Title))}})
		}
	}
	for _, k := range b.Fixed {
		s.add(junitCase{Name: "root cause " + k.ID + " (not found: fixed?)", Classname: "toolnorm.baseline"})
	}
	return s
}
