package render

import (
	"bytes"
	"context"
	"html"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/impl"
)

// twoBugs decodes one pass only (a bug most vectors show) and also
// decodes `&Amp;` to `&`, which HTML does not (a bug one vector shows).
type twoBugs struct{}

func (twoBugs) Name() string { return "one pass, and &Amp;" }
func (twoBugs) Normalize(ctx context.Context, c impl.Case) impl.Result {
	c.Options.MaxPasses = 1
	r := impl.Reference.Normalize(ctx, c)
	if r.Error == "" && r.Failure == nil {
		r.Output = bytes.ReplaceAll(r.Output, []byte("&Amp;"), []byte("&"))
	}
	return r
}

// TestRareCauseShown: a real distinct bug is never hidden behind a
// common one: every report format lists both root causes, and the text
// report cuts no root cause ("... and N more" is for nothing that is a
// root cause of its own).
func TestRareCauseShown(t *testing.T) {
	r := check.Run(context.Background(), check.Config{Impl: twoBugs{}, Vectors: vectors(t), Checks: 32, Seed: 1})
	var ids []string
	for _, rc := range r.RootCauses {
		ids = append(ids, rc.ID)
	}
	var common, rare *check.RootCause
	for i, rc := range r.RootCauses {
		switch rc.ID {
		case "entities-one-pass":
			common = &r.RootCauses[i]
		case "entities-case-insensitive", "overdecoded/case-insensitive":
			// twoBugs decodes `&Amp;` alone, not every name without
			// regard to case (`&Nbsp;` stays): no deviation is exactly
			// it, and it may be filed by the class of what differs.
			rare = &r.RootCauses[i]
		}
	}
	if common == nil || rare == nil {
		t.Fatalf("root causes %v: want entities-one-pass and the case-insensitive &Amp;", ids)
	}
	if rare.Count() >= common.Count() {
		t.Fatalf("the rare bug shows %d times, the common one %d: the case does not test hiding", rare.Count(), common.Count())
	}
	for _, format := range []string{"text", "markdown", "html"} {
		var b bytes.Buffer
		if err := Write(r, &b, format); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, rc := range r.RootCauses {
			if title := titleIn(format, rc.Title); !strings.Contains(out, title) {
				t.Errorf("%s report: root cause %s (%q) is not listed", format, rc.Class, title)
			}
		}
		if format == "text" && strings.Contains(out, "more root cause") {
			t.Errorf("text report cuts root causes:\n%s", out)
		}
	}
}

// titleIn is the start of a root cause's title as the format writes it:
// up to its first code span, reference or parenthesis, escaped for HTML.
func titleIn(format, title string) string {
	if i := strings.IndexAny(title, "`&(:"); i > 0 {
		title = title[:i]
	}
	title = strings.TrimSpace(title)
	if format == "html" {
		title = html.EscapeString(title)
	}
	return title
}
