package render

import (
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/harness"
)

// TestShownExactly: what an adapter says reaches every format on one
// line, with what one cannot see escaped.
func TestShownExactly(t *testing.T) {
	r := &check.Report{Implementation: "x", Verdict: check.Fail, Repeat: "toolnorm check --seed 1 --checks 1",
		Events:   []harness.Event{{Kind: "crash", Request: 3, Detail: "exit status 2\npanic: \u00a0bad\ufeff", Stderr: "line one\x07\nline two \xed\xa0\x80\n"}},
		Restarts: 1,
		Corpus:   check.CorpusResult{Vectors: 1, Errors: 1, ErrorList: []check.VectorFailure{{File: "vectors/rule/a.json", ID: "a", Description: "two\nlines", Clause: "rule/4", Message: "crash (exit status 2)"}}},
	}
	for _, format := range []string{"text", "markdown", "html"} {
		var b strings.Builder
		if err := Write(r, &b, format); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, bad := range []string{"\u00a0", "\ufeff", "\x07", "\xed\xa0\x80", "panic: \n", "exit status 2\n"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: %q reaches the report raw:\n%s", format, bad, out)
			}
		}
		if format == "text" {
			for _, w := range []string{`== crash: exit status 2\npanic: \u00a0bad\ufeff`, "    line one\\u0007\n    line two \\ud800\n", "- two\\nlines\n"} {
				if !strings.Contains(out, w) {
					t.Errorf("text lacks %q:\n%s", w, out)
				}
			}
		}
		// The adapter's standard error, in every format, each line shown
		// exactly.
		if !strings.Contains(out, "line one\\u0007") || !strings.Contains(out, "line two \\ud800") {
			t.Errorf("%s does not show the adapter's stderr:\n%s", format, out)
		}
		if format == "markdown" && !strings.Contains(out, `- crash: exit status 2\\npanic: \\u00a0bad\\ufeff`) {
			t.Errorf("markdown does not list the failure on one line:\n%s", out)
		}
		if format == "html" && !strings.Contains(out, `crash: exit status 2\npanic: \u00a0bad\ufeff`) {
			t.Errorf("html does not list the failure on one line:\n%s", out)
		}
	}
}

// TestCorpusTextShownEscaped: a vector's file name, description and
// reproduce command come from someone else's corpus; no format shows a
// control or bidi character of theirs raw (the JSON report carries the
// values themselves, for programs).
func TestCorpusTextShownEscaped(t *testing.T) {
	hostile := "\x1b[2J\x1b]0;pwned\x07\u202etxt.exe"
	r := &check.Report{Implementation: "x", Verdict: check.Fail, Repeat: "toolnorm check --seed 1 --checks 1",
		Corpus: check.CorpusResult{Vectors: 1, Failed: 1, Failures: []check.VectorFailure{{File: "vectors/rule/" + hostile + ".json", ID: "a",
			Description: "A title " + hostile, Clause: "rule/4", Message: "wrong output", Command: "toolnorm corpus replay 'vectors/rule/" + hostile + ".json'"}}},
	}
	for _, format := range []string{"text", "markdown", "html"} {
		var b strings.Builder
		if err := Write(r, &b, format); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, bad := range []string{"\x1b", "\x07", "\u202e"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s: %q reaches the report raw:\n%s", format, bad, out)
			}
		}
		if !strings.Contains(strings.ReplaceAll(out, `\\`, `\`), `\u001b[2J`) {
			t.Errorf("%s: the escaped text is not shown:\n%s", format, out)
		}
	}
}

// TestIncompleteInEveryFormat: a check short of complete says INCOMPLETE
// in its own word in every format, with what did not run, the request in
// flight, and what would run it all; its repeat command is not "exact".
func TestIncompleteInEveryFormat(t *testing.T) {
	r := &check.Report{FormatVersion: check.FormatVersion, Implementation: "hangs", Seed: 1, Budget: "3s", Verdict: check.Incomplete,
		Stopped: "the budget was spent", Repeat: "toolnorm check --impl './a' --seed 1 --checks 16",
		Corpus: check.CorpusResult{Vectors: 5057, Passed: 4689, NotRun: 368},
		Properties: []check.PropResult{{ID: "deterministic", Clause: "rule/1", Status: check.StatusNotChecked, Reason: "no case ran: the budget was spent"},
			{ID: "idempotent", Clause: "reading/6", Status: check.StatusNotApplicable, Reason: "a pass bound"}},
		Incomplete: &check.Shortfall{Vectors: 368, Properties: []string{"deterministic"}, Fuzzing: true, Round: 16,
			InFlight: &check.InFlight{Case: "vector ede4b0054c05f0c3 vectors/reading/a.json", Waited: 2.94}, Budget: "59s", Checks: 16},
	}
	want := map[string][]string{
		"text": {"verdict: INCOMPLETE\n", "stopped early: the budget was spent (a request in flight for 2.9s: vector ede4b0054c05f0c3 vectors/reading/a.json)\n",
			"incomplete: 368 vectors that apply not replayed; 1 property (deterministic) and fuzzing short of a full round (16 cases)\n",
			"  to run it all: --budget 59s or more (an estimate from this run's speed), or --seed 1 --checks 16, with no time limit\n",
			"run in full: toolnorm check --impl './a' --seed 1 --checks 16\n"},
		"json":     {`"verdict": "incomplete"`, `"in_flight": {`, `"waited_seconds": 2.94`, `"budget": "59s"`},
		"junit":    {`type="incomplete"`, `message="incomplete: 368 vectors that apply not replayed;`, `<property name="verdict" value="incomplete">`},
		"markdown": {"INCOMPLETE", "Incomplete: 368 vectors that apply not replayed", "--budget 59s or more", "Run in full:"},
		"html":     {`<div class="verdict incomplete">`, `<p class="verdict incomplete">Incomplete: 368 vectors that apply not replayed`, "<p>run in full:</p>", "a request in flight for 2.9s"},
	}
	for _, format := range Formats {
		var b strings.Builder
		if err := Write(r, &b, format); err != nil {
			t.Fatal(err)
		}
		for _, w := range want[format] {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s lacks %q:\n%s", format, w, b.String())
			}
		}
		if strings.Contains(b.String(), "repeat exactly") {
			t.Errorf("%s calls the run in full an exact repeat", format)
		}
	}
}

// TestWaitingForRestart: a request that was waiting for the adapter to
// start again when the check stopped was never sent: every format says so,
// and none calls it a request in flight.
func TestWaitingForRestart(t *testing.T) {
	r := &check.Report{FormatVersion: check.FormatVersion, Implementation: "crashes", Seed: 1, Budget: "3s", Verdict: check.Incomplete,
		Stopped: "the budget was spent", Repeat: "toolnorm check --impl './a' --seed 1 --checks 16",
		Corpus: check.CorpusResult{Vectors: 5057, Passed: 4689, NotRun: 368},
		Incomplete: &check.Shortfall{Vectors: 368, Round: 16, Checks: 16,
			InFlight: &check.InFlight{Case: "vector ede4b0054c05f0c3 vectors/reading/a.json", Waited: 0.52, Restarting: true}},
	}
	for _, format := range Formats {
		var b strings.Builder
		if err := Write(r, &b, format); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		want := "waiting for the adapter to start again for 0.5s, to send vector ede4b0054c05f0c3 vectors/reading/a.json"
		if format == "json" {
			want = `"waiting_for_restart": true`
		}
		if !strings.Contains(out, want) {
			t.Errorf("%s lacks %q:\n%s", format, want, out)
		}
		if strings.Contains(out, "in flight for") {
			t.Errorf("%s calls a request never sent in flight:\n%s", format, out)
		}
	}
}

// An artefact's line says once that it is probably the adapter's, whether
// its title says so or not.
func TestArtefactSaidOnce(t *testing.T) {
	for _, title := range []string{"The arguments are read lossily", "The arguments are read lossily (duplicates collapsed): probably the adapter's"} {
		r := &check.Report{FormatVersion: check.FormatVersion, Implementation: "lossy", Seed: 1, Checks: 16, Verdict: check.Fail,
			Corpus: check.CorpusResult{Vectors: 1, Failed: 1},
			RootCauses: []check.RootCause{{Title: title, Clause: "reading/7", Class: "artefact/lossy-json", Artefact: true, Fix: "read it losslessly",
				Counterexample: check.Counterexample{Schema: "{}", Arguments: `{"a":"","a":""}`, Expected: `{"a":"","a":""}`, Got: `{"a":""}`},
				Command:        "true", Vectors: []string{"3b8fdc476c1c4200"}, Properties: []string{}, Buckets: []string{}}}}
		for _, format := range []string{"text", "markdown", "html"} {
			var b strings.Builder
			if err := Write(r, &b, format); err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(b.String(), "\n") {
				// The list's line: the details' summary below it repeats no note.
				if strings.Contains(line, "(1 vector)") && !strings.Contains(line, "<summary>") && strings.Count(line, "probably the adapter") != 1 {
					t.Errorf("%s, title %q: the root cause's line says %d times that it is probably the adapter's: %s", format, title, strings.Count(line, "probably the adapter"), line)
				}
			}
		}
	}
}

// TestRootCausesFirst: the text, Markdown and HTML reports open with the
// list of root causes, after the header with the counts and the repeat
// command, and before the failures of the program; and each failure is
// shown once (the HTML used to list a vector's failure under it and again
// as the harness saw it).
func TestRootCausesFirst(t *testing.T) {
	r := &check.Report{Implementation: "x", Verdict: check.Fail, Repeat: "toolnorm check --seed 1 --checks 1",
		Events:   []harness.Event{{Kind: "protocol-error", Detail: "the answer is not a JSON object: Infinity"}},
		Restarts: 1,
		Corpus: check.CorpusResult{Vectors: 1, Errors: 1, ErrorList: []check.VectorFailure{{File: "vectors/rule/a.json", ID: "a1", Description: "one",
			Clause: "rule/4", Message: "protocol-error (the answer is not a JSON object: Infinity)", Command: "toolnorm corpus replay --only a1"}}},
		RootCauses: []check.RootCause{{Title: "The program's answer breaks the protocol", Clause: "failure", Class: "failure/protocol-error",
			Counterexample: check.Counterexample{Schema: "{}", Arguments: `{"":1e400}`, Expected: `{"":1e400}`, Got: "protocol-error (the answer is not a JSON object: Infinity)"},
			Command:        "toolnorm corpus replay --only a1", Vectors: []string{"a1"}, Properties: []string{}, Buckets: []string{}}},
	}
	for _, tt := range []struct{ format, causes, failures string }{
		{"text", "\n1 root cause\n", "\n== protocol-error"},
		{"markdown", "### 1 root cause", "of the program (timeouts"},
		{"html", "<h2>1 root cause</h2>", "Failures of the program (timeouts"},
	} {
		var b strings.Builder
		if err := Write(r, &b, tt.format); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		repeat, causes, failures := strings.Index(out, r.Repeat), strings.Index(out, tt.causes), strings.Index(out, tt.failures)
		if repeat < 0 || causes < 0 || failures < 0 || !(repeat < causes && causes < failures) {
			t.Errorf("%s: repeat at %d, root causes at %d, failures of the program at %d: want them in that order:\n%s", tt.format, repeat, causes, failures, out)
		}
		// The failure's own message appears in the counterexample's got
		// and once among the failures of the program, never more.
		if n := strings.Count(out, "not a JSON object: Infinity"); n != 2 {
			t.Errorf("%s shows the failure %d times, want twice (the counterexample, the failure):\n%s", tt.format, n, out)
		}
	}
}

// TestNotMinimizedSaid: a root cause whose counterexample is a case as
// found (a failure of the program) says it is not minimized, in every
// format that shows root causes.
func TestNotMinimizedSaid(t *testing.T) {
	rc := check.RootCause{Title: "The program crashes", Clause: "failure", Class: "failure/crash", NotMinimized: true,
		Counterexample: check.Counterexample{Schema: `{"type":"object"}`, Arguments: `{"a":[[[]]]}`, Got: "crash"}, Command: "toolnorm corpus replay --only a1",
		Vectors: []string{"a1"}, Properties: []string{}, Buckets: []string{}}
	r := &check.Report{Implementation: "x", Verdict: check.Fail, Repeat: "toolnorm check --seed 1 --checks 1", RootCauses: []check.RootCause{rc}}
	for _, format := range []string{"text", "markdown", "html"} {
		var b strings.Builder
		if err := Write(r, &b, format); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.ToLower(b.String()), "not minimized") {
			t.Errorf("%s does not say the counterexample is not minimized:\n%s", format, b.String())
		}
	}
	rc.NotMinimized = false
	r.RootCauses = []check.RootCause{rc}
	var b strings.Builder
	if err := Write(r, &b, "text"); err != nil || strings.Contains(b.String(), "not minimized") {
		t.Errorf("a minimized one says not minimized (%v):\n%s", err, b.String())
	}
}

// TestFailuresAddUp: the count of failures of the program is the sum of
// the parts every format shows: the corpus's, the properties' (on their
// line too), fuzzing's, and those met while minimizing findings, which
// are counted in no phase (the Python example's check with --seed 11
// --checks 256 said 54 where its lines gave 8 and 8).
func TestFailuresAddUp(t *testing.T) {
	events := make([]harness.Event, 54)
	for i := range events {
		events[i] = harness.Event{Kind: "protocol-error", Request: i + 1, Detail: "Infinity"}
	}
	r := &check.Report{Implementation: "x", Verdict: check.Fail, Repeat: "toolnorm check --seed 1 --checks 1", Checks: 1,
		Events: events, Restarts: 4,
		Corpus: check.CorpusResult{Vectors: 8, Errors: 8},
		Fuzz:   check.FuzzResult{Cases: 20, Failures: 8},
		Properties: []check.PropResult{{ID: "a", Status: check.StatusHolds, Cases: 40, Failures: 30, Checks: 10},
			{ID: "b", Status: check.StatusHolds, Cases: 40, Failures: 6, Checks: 34}},
	}
	const parts = "54 (corpus 8, properties 36, fuzzing 8, while minimizing findings 2), 4 restarts"
	for format, want := range map[string][]string{
		"text":     {"properties: 2 hold, 0 broken, 0 not checked, 0 not applicable (of 2), 36 failures of the program\n", "failures of the program (timeouts, crashes, protocol errors; not violations): " + parts + "\n"},
		"markdown": {parts},
		"html":     {parts},
		"junit":    {parts, "while minimizing findings: 2&#xA;"},
	} {
		written(t, r, format, want...)
	}
}

// TestWhereReadsRight: a root cause's place is a JSON Pointer into the
// arguments, and "/" is the member named "", not the arguments
// themselves: the reports say so where a key on the way is empty.
func TestWhereReadsRight(t *testing.T) {
	for where, want := range map[string]string{
		"/p":    "/p",
		"/":     `/ (a member named "" on the way)`,
		"//0":   `//0 (a member named "" on the way)`,
		"/a//b": `/a//b (a member named "" on the way)`,
		"/a/0":  "/a/0",
	} {
		if got := whereShown(where); got != want {
			t.Errorf("whereShown(%q) = %q, want %q", where, got, want)
		}
	}
}

// TestAdaptedInEveryFormat: the vectors written for other options and
// judged under the declared ones are counted in every format, as the
// text counts them (the Markdown and HTML reports left the line out).
func TestAdaptedInEveryFormat(t *testing.T) {
	r := &check.Report{Implementation: "x", Verdict: check.Pass, Repeat: "toolnorm check --seed 1 --checks 1", Checks: 1,
		Corpus: check.CorpusResult{Vectors: 10, Passed: 10, Adapted: 7}}
	for _, format := range []string{"text", "markdown", "html"} {
		var b strings.Builder
		if err := Write(r, &b, format); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "7 of them written for other options, and meaning the same under the declared ones") {
			t.Errorf("%s does not count the 7 vectors written for other options:\n%s", format, b.String())
		}
	}
}

// TestLooseFailuresAlike: failures of the program no root cause accounts
// for are listed once for each run of alike ones, with how many: ten
// restarts that each answered when sent again were ten lines the same.
// Those under a root cause are counted, not listed again.
func TestLooseFailuresAlike(t *testing.T) {
	var events []harness.Event
	for range 12 {
		events = append(events, harness.Event{Kind: "crash", Detail: "it exited with status 0", Answered: true})
	}
	events = append(events, harness.Event{Kind: "timeout", Detail: "no answer within 1s", Answered: true})
	for range 3 {
		events = append(events, harness.Event{Kind: "crash", Detail: "it exited with status 1"})
	}
	r := &check.Report{Implementation: "x", Verdict: check.Fail, Repeat: "toolnorm check --seed 1 --checks 1", Checks: 1,
		Events: events, Fuzz: check.FuzzResult{Cases: 16, Failures: 16},
		RootCauses: []check.RootCause{{Title: "The program crashes", Clause: "failure", Class: "failure/crash", Command: "x", FailedCases: 3,
			FailedIn: []check.FailedIn{{ID: check.FuzzingID, Cases: 3}}}}}
	for format, want := range map[string][]string{
		"text":     {"== crash (answered when sent again): it exited with status 0 (12 times)\n", "== timeout (answered when sent again): no answer within 1s\n", "(3 failures of the program are under their root causes above)"},
		"markdown": {"- crash (answered when sent again): it exited with status 0 (12 times)\n", "3 failures of the program are under their root causes above."},
		"html":     {"<p>crash (answered when sent again): it exited with status 0 (12 times)</p>", "<p>3 failures of the program are under their root causes above.</p>"},
	} {
		if out := written(t, r, format, want...); strings.Contains(out, "exited with status 1") || strings.Contains(out, "more") {
			t.Errorf("%s lists a failure under its root cause, or says more:\n%s", format, out)
		}
	}
}

// written is r written in format; t fails unless it holds each of want.
func written(t *testing.T, r *check.Report, format string, want ...string) string {
	t.Helper()
	var b strings.Builder
	if err := Write(r, &b, format); err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(b.String(), w) {
			t.Errorf("%s lacks %q:\n%s", format, w, b.String())
		}
	}
	return b.String()
}
