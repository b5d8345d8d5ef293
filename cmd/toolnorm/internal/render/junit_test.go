package render

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
)

// onePassCrashing declares the default options (so that vectors for other
// options that mean something else are skipped), crashes on arguments
// that hold "Ember", and otherwise decodes one pass only: it fails
// vectors, breaks properties and is found by fuzzing.
type onePassCrashing struct{}

func (onePassCrashing) Name() string { return "one pass, crashing" }
func (onePassCrashing) Options() impl.Options {
	return impl.Options{}
}
func (onePassCrashing) Normalize(ctx context.Context, c impl.Case) impl.Result {
	schema, args, o := c.Schema, c.Args, c.Options
	if bytes.Contains(args, []byte("Ember")) {
		return impl.Fail(impl.ErrCrash, "exit status 2")
	}
	o.MaxPasses = 1
	return impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
}

// Events and Restarts are what a harness would have seen: one crash, with
// standard error that a report must show exactly.
func (onePassCrashing) Events() []harness.Event {
	return []harness.Event{{Kind: impl.KindCrash.String(), Request: 7, Detail: "it exited: exit status 2",
		Stderr: "Traceback (most recent call last):\n  File \"adapter.py\", line 3\nValueError: <b>&amp;</b>\u00a0\n"}}
}
func (onePassCrashing) Restarts() int { return 1 }

// junitDoc is the JUnit document as a reader sees it.
type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Error   *struct{} `xml:"error"`
			Skipped *struct{} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// checkCounts asserts that every count in a JUnit document is the count
// of its elements.
func checkCounts(t *testing.T, data []byte) junitDoc {
	t.Helper()
	var d junitDoc
	if err := xml.Unmarshal(data, &d); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	var tests, failures, errs, skipped int
	for _, s := range d.Suites {
		var f, e, k int
		for _, c := range s.Cases {
			if c.Failure != nil {
				f++
			}
			if c.Error != nil {
				e++
			}
			if c.Skipped != nil {
				k++
			}
		}
		if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e || s.Skipped != k {
			t.Errorf("suite %s says tests=%d failures=%d errors=%d skipped=%d; its elements: %d, %d, %d, %d",
				s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, len(s.Cases), f, e, k)
		}
		tests, failures, errs, skipped = tests+s.Tests, failures+s.Failures, errs+s.Errors, skipped+s.Skipped
	}
	if d.Tests != tests || d.Failures != failures || d.Errors != errs || d.Skipped != skipped {
		t.Errorf("testsuites says %d/%d/%d/%d, its suites add up to %d/%d/%d/%d", d.Tests, d.Failures, d.Errors, d.Skipped, tests, failures, errs, skipped)
	}
	return d
}

// validate checks data against the JUnit XML schema with xmllint. Where
// xmllint is missing the test is skipped, except in CI (.ci/run installs
// it and sets TOOLNORM_CI), where that is a failure.
func validate(t *testing.T, data []byte) {
	t.Helper()
	if err := xmllint(t, data); err != nil {
		t.Errorf("the JUnit report does not validate: %v", err)
	}
}

// xmllint validates data against testdata/junit.xsd.
func xmllint(t *testing.T, data []byte) error {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		if os.Getenv("TOOLNORM_CI") != "" {
			t.Fatal("xmllint is not installed (Debian: libxml2-utils); CI must install it")
		}
		t.Skip("xmllint is not installed (Debian: libxml2-utils)")
	}
	file := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--schema", "testdata/junit.xsd", file).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v\n%s", err, out)
	}
	return nil
}

// TestJUnitSchemaRejects: the schema check can fail.
func TestJUnitSchemaRejects(t *testing.T) {
	for _, bad := range []string{
		`<testsuites><testsuite name="x" tests="one"/></testsuites>`,
		`<testsuites><testsuite tests="1"><testcase name="a"/></testsuite></testsuites>`,
		`<testsuites><testsuite name="x" tests="1"><testcase name="a"><failure/><error/></testcase></testsuite></testsuites>`,
		`<testsuites><testsuite name="x" tests="1" time="1,5"/></testsuites>`,
	} {
		if xmllint(t, []byte(bad)) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}

func TestJUnit(t *testing.T) {
	r := check.Run(context.Background(), check.Config{Impl: onePassCrashing{}, Command: "./one-pass", Vectors: vectors(t), Checks: 32, Seed: 5})
	c := r.Corpus
	if c.Failed == 0 || c.Errors == 0 || c.Skipped == 0 || r.Violations() == 0 {
		t.Fatalf("the fixture does not fail, crash and skip: %s", CorpusSummary(c))
	}
	var b bytes.Buffer
	if err := Write(r, &b, "junit"); err != nil {
		t.Fatal(err)
	}
	d := checkCounts(t, b.Bytes())
	// One test case per vector, per property, per fuzzing bucket.
	want := map[string][4]int{
		"corpus":     {c.Vectors, c.Failed, c.Errors, c.Skipped + c.NotRun},
		"properties": {len(r.Properties), 0, 0, 0},
	}
	for _, s := range d.Suites {
		if w, ok := want[s.Name]; ok && s.Name == "corpus" && [4]int{s.Tests, s.Failures, s.Errors, s.Skipped} != w {
			t.Errorf("corpus suite: %d/%d/%d/%d, want %v", s.Tests, s.Failures, s.Errors, s.Skipped, w)
		}
		if s.Name == "properties" && s.Tests != len(r.Properties) {
			t.Errorf("properties suite: %d tests for %d properties", s.Tests, len(r.Properties))
		}
		if s.Name == "fuzzing" && s.Failures != len(r.Fuzz.Findings) {
			t.Errorf("fuzzing suite: %d failures for %d findings", s.Failures, len(r.Fuzz.Findings))
		}
	}
	if !strings.Contains(b.String(), `type="failure of the program"`) {
		t.Error("no failure of the program is an <error>")
	}
	validate(t, b.Bytes())
}

// TestJUnitCannotStart: an adapter that does not start still gives a
// valid document, with one <error> that says why.
func TestJUnitCannotStart(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnitError(&b, "./missing", errors.New("start ./missing: no such file or directory")); err != nil {
		t.Fatal(err)
	}
	d := checkCounts(t, b.Bytes())
	if d.Tests != 1 || d.Errors != 1 {
		t.Errorf("%d tests, %d errors, want 1 and 1:\n%s", d.Tests, d.Errors, b.String())
	}
	if !strings.Contains(b.String(), "no such file or directory") {
		t.Errorf("the error does not say why:\n%s", b.String())
	}
	validate(t, b.Bytes())
}

// TestJUnitFailuresNeverGreen: failures of the program that no vector or
// property shows (a request answered once sent again, cases of a property
// that still holds) still give an <error>: the test report is not green
// while the verdict fails.
func TestJUnitFailuresNeverGreen(t *testing.T) {
	r := &check.Report{Implementation: "x", Verdict: check.Fail, Repeat: "toolnorm check --seed 1 --checks 1",
		Properties: []check.PropResult{{ID: "keys-unchanged", Clause: "rule/5", Status: check.StatusHolds, Checks: 15, Cases: 16, Failures: 1}},
		Events:     []harness.Event{{Kind: "crash", Request: 9, Detail: "exit status 2", Answered: true}}}
	var b bytes.Buffer
	if err := Write(r, &b, "junit"); err != nil {
		t.Fatal(err)
	}
	d := checkCounts(t, b.Bytes())
	if d.Errors == 0 {
		t.Fatalf("no <error> while the verdict fails for failures of the program:\n%s", b.String())
	}
	for _, want := range []string{"property keys-unchanged: 1 of 16 cases", "crash (answered when sent again): exit status 2"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the error does not say %q:\n%s", want, b.String())
		}
	}
	validate(t, b.Bytes())
}
