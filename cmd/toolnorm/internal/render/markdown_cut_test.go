package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
)

// bigReport is a failing report whose Markdown is over a megabyte, as a
// first-try normalizer's was (0.56 to 0.94 MB): many root causes with long
// cases, commands that hold backticks (fenced by more of them), and a note
// for every failed vector.
func bigReport() *check.Report {
	r := &check.Report{Implementation: "big", Verdict: check.Fail, Seed: 42, Checks: 16,
		Repeat: "toolnorm check --impl './big' --seed 42 --checks 16"}
	long := strings.Repeat(`{"q":"a &amp;amp; b"},`, 80)
	for i := range 300 {
		id := fmt.Sprintf("v%04d", i)
		r.RootCauses = append(r.RootCauses, check.RootCause{ID: fmt.Sprintf("cause-%d", i), Title: fmt.Sprintf("Cause %d is decoded in one pass", i),
			Clause: "rule/4", Class: "entities-one-pass",
			Counterexample: check.Counterexample{Schema: "{}", Arguments: "[" + long + "1]", Expected: "[" + long + "2]", Got: "[" + long + "3]"},
			Command:        "printf '%s\\n' '```\n" + long + "' | toolnorm corpus replay -", Vectors: []string{id}})
		r.Corpus.Vectors++
		r.Corpus.Failed++
		r.Corpus.Failures = append(r.Corpus.Failures, check.VectorFailure{File: "vectors/rule/" + id + ".json", ID: id, Description: "vector " + id,
			Clause: "rule/4", Message: "wrong output: " + long, Command: "toolnorm corpus replay --only " + id})
	}
	// The second root cause has thousands of vectors (one of 2,778 made
	// half a report): it is cut between two of them.
	for j := range 3000 {
		r.RootCauses[1].Vectors = append(r.RootCauses[1].Vectors, fmt.Sprintf("w%05d-%s", j, strings.Repeat("x", 200)))
	}
	return r
}

// TestMarkdownCut: a Markdown report over the limit is cut to it at a
// section's end: the verdict and counts at the top, whole; no code block
// or details left open; a last line that says what was left out and where
// the whole report is.
func TestMarkdownCut(t *testing.T) {
	r := bigReport()
	var whole strings.Builder
	if err := Write(r, &whole, "markdown"); err != nil {
		t.Fatal(err)
	}
	if whole.Len() < 1<<20 {
		t.Fatalf("the synthetic report is %d bytes, want over 1 MiB", whole.Len())
	}
	head := whole.String()[:strings.Index(whole.String(), "### 300 root causes")]
	for _, limit := range []int{900 << 10, 100 << 10, 20 << 10} {
		var b strings.Builder
		if err := WriteWith(r, &b, "markdown", Options{MaxMarkdown: limit, Whole: "toolnorm-report/toolnorm.html"}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if len(out) > limit {
			t.Errorf("limit %d: %d bytes", limit, len(out))
		}
		if !strings.HasPrefix(out, head) || !strings.HasPrefix(out, "## toolnorm check: big: ❌ FAIL\n") {
			t.Errorf("limit %d: the verdict and counts are not at the top, whole:\n%.2000s", limit, out)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		last := lines[len(lines)-1]
		m := regexp.MustCompile(`^Cut to fit \d+ bytes: left out (?:the rest of root cause 2 \(after \d+ vectors\), (\d+) more|(\d+)) of 300 root causes' sections and (\d+) more lines\. The whole report: ` + "`toolnorm-report/toolnorm\\.html`" + `\.$`).FindStringSubmatch(last)
		if m == nil {
			t.Fatalf("limit %d: the last line is %q", limit, last)
		}
		shown, partial := strings.Count(out, "\n#### "), m[1] != ""
		if limit == 100<<10 && !partial {
			t.Errorf("limit %d: not cut inside the root cause of 3,000 vectors, where it is:\n%s", limit, last)
		}
		if fmt.Sprint(300-shown) != m[1]+m[2] {
			t.Errorf("limit %d: %d sections shown, and the last line says %s%s more of 300 left out", limit, shown, m[1], m[2])
		}
		// What precedes the closing line is a prefix of the whole report,
		// cut where a section ends, or between two vectors of a root
		// cause, its list then closed.
		kept := out[:strings.LastIndex(out, "\n---\n")]
		if partial {
			kept = strings.TrimSuffix(kept, "\n</details>\n")
		}
		if !strings.HasPrefix(whole.String(), kept) {
			t.Errorf("limit %d: what is kept is not the whole report's beginning", limit)
		}
		if left := strings.Count(whole.String()[len(kept):], "\n"); fmt.Sprint(left) != m[3] {
			t.Errorf("limit %d: %d lines left out, and the last line says %s", limit, left, m[3])
		}
		if rest := whole.String()[len(kept):]; !regexp.MustCompile("^(\n#### |### |\\| property|\n## Broken|\\d+\\. \\*\\*|\n<sub>)").MatchString(rest) && !(partial && strings.HasPrefix(rest, "- w")) {
			t.Errorf("limit %d: cut before %.80q, not where a section begins", limit, rest)
		}
		if err := fencesBalanced(out); err != nil {
			t.Errorf("limit %d: %v", limit, err)
		}
		if strings.Count(out, "<details>") != strings.Count(out, "</details>") {
			t.Errorf("limit %d: a <details> is left open", limit)
		}
	}

	// Under the limit: the whole report, as Write gives it.
	var b strings.Builder
	if err := WriteWith(r, &b, "markdown", Options{MaxMarkdown: 4 << 20}); err != nil {
		t.Fatal(err)
	}
	if b.String() != whole.String() {
		t.Error("a report under the limit is not written whole")
	}
	// A limit under the head's size: the head, whole, and the closing line,
	// which names no file when none is given.
	b.Reset()
	if err := WriteWith(r, &b, "markdown", Options{MaxMarkdown: 100}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), head) || !strings.HasSuffix(b.String(), "left out 300 of 300 root causes' sections and "+fmt.Sprint(strings.Count(whole.String()[len(head):], "\n"))+" more lines. The whole report: the same check (the command above) with --format html.\n") {
		t.Errorf("limit 100:\n%s", b.String()[max(0, b.Len()-300):])
	}
}

// fencesBalanced reports a fenced code block left open.
func fencesBalanced(s string) error {
	open, at := "", 0
	for i, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		run := len(l) - len(strings.TrimLeft(l, "`"))
		switch {
		case open == "" && run >= 3:
			open, at = l[:run], i+1
		case open != "" && run >= len(open) && strings.Trim(l, "`") == "":
			open = ""
		}
	}
	if open != "" {
		return fmt.Errorf("the code block opened on line %d is not closed", at)
	}
	return nil
}
