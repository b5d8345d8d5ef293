package render

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/impl"
)

// TestJudgedTooLittleEveryFormat: a check that judged under 90% of what
// it ran (an adapter that answers unsupported to every case whose
// arguments' length is odd) is INCOMPLETE in every format, which says
// which part judged how much and why, and what would judge it; the JSON
// form is valid under docs/report.schema.json. Nothing was cut short:
// the repeat command repeats the check exactly.
func TestJudgedTooLittleEveryFormat(t *testing.T) {
	half := impl.Func("half unsupported", func(ctx context.Context, c impl.Case) impl.Result {
		if len(c.Args)%2 == 1 {
			return impl.Fail(impl.ErrNotSendable, "the adapter cannot hold it as it is: unsupported")
		}
		return impl.Reference.Normalize(ctx, c)
	})
	r := check.Run(context.Background(), check.Config{Impl: half, Command: "./half", Vectors: vectors(t)[:200], Checks: 16, Seed: 3})
	if r.Verdict != check.Incomplete || r.Incomplete == nil || len(r.Incomplete.Judged) == 0 || r.Incomplete.RanShort() {
		t.Fatalf("verdict %s, incomplete %+v", r.Verdict, r.Incomplete)
	}
	for format, want := range map[string][]string{
		"text":     {"\nincomplete: judged under 90% of what ran: corpus ", "\n  to judge enough: an implementation that answers at least 90% ", "\nrepeat exactly: toolnorm check --impl './half' --seed 3 --checks 16\n", "\nverdict: INCOMPLETE\n"},
		"json":     {`"judged_too_little": [`, `"part": "corpus"`, `"verdict": "incomplete"`},
		"junit":    {`<error message="incomplete: judged under 90% of what ran: corpus `, `type="incomplete">to judge enough: `},
		"markdown": {"Incomplete: judged under 90% of what ran: corpus ", ". To judge enough: an implementation that answers at least 90% "},
		"html":     {`<p class="verdict incomplete">Incomplete: judged under 90% of what ran: corpus `, "<p>To judge enough: an implementation that answers at least 90% "},
	} {
		var b bytes.Buffer
		if err := Write(r, &b, format); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%.3000s", format, w, b.String())
			}
		}
		if strings.Contains(b.String(), "to run it all") || strings.Contains(b.String(), "To run it all") {
			t.Errorf("%s: says how to run it all, though all ran", format)
		}
		if format == "json" {
			if err := validReport(reportSchema(t), b.Bytes()); err != nil {
				t.Errorf("the JSON report is not valid under docs/report.schema.json: %v", err)
			}
		}
	}
}
