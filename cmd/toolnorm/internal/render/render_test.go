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
	for _, format := range []string{"text", "markdown"} {
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
			for _, w := range []string{`== crash on request 3: exit status 2\npanic: \u00a0bad\ufeff`, "    line one\\u0007\n    line two \\ud800\n", "- two\\nlines\n"} {
				if !strings.Contains(out, w) {
					t.Errorf("text lacks %q:\n%s", w, out)
				}
			}
		} else if !strings.Contains(out, `- crash on request 3: exit status 2\\npanic: \\u00a0bad\\ufeff`) {
			t.Errorf("markdown does not list the failure on one line:\n%s", out)
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
