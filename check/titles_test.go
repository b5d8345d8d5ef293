package check

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/check/internal/explain"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// runChecked is Run, then the invariant every root cause keeps held over
// the report (explain.CheckTitle): each test of the engine makes its
// reports through it, so that the invariant holds on every report they
// make.
func runChecked(t *testing.T, ctx context.Context, cfg Config) *Report {
	t.Helper()
	r := Run(ctx, cfg)
	if cfg.Impl == nil || ctx.Err() != nil {
		return r
	}
	for _, rc := range r.RootCauses {
		if rc.Vector != nil {
			if p := corpus.Check(rc.Vector); len(p) > 0 {
				t.Errorf("root cause %q: its vector is not valid: %v", rc.Title, p)
			}
		}
		if rc.Vector == nil || rc.ID == "unexplained" {
			continue
		}
		c := impl.Case{Schema: rc.Vector.SchemaText(), Args: rc.Vector.ArgumentsText(), Options: rc.Vector.Options}
		e := explain.RootCause{ID: rc.ID, With: rc.With, Case: c, Want: impl.Reference.Normalize(context.Background(), c)}
		e.Title, e.Class, e.Clause = rc.Title, rc.Class, rc.Clause
		e.Got = cfg.Impl.Normalize(context.Background(), c)
		if rc.NotMinimized && e.Got.Failure == nil && impl.Compare(e.Got, e.Want).Same() {
			continue // a property's violation its case does not show
		}
		if rc.Clause != "failure" {
			for _, id := range strings.Split(rc.ID, "+") {
				if deviation.ByID(id) != nil {
					e.Deviations = append(e.Deviations, id)
				}
			}
		}
		if err := explain.CheckTitle(context.Background(), cfg.Impl, func(c impl.Case) impl.Result {
			return impl.Reference.Normalize(context.Background(), c)
		}, e); err != nil {
			t.Errorf("root cause %d: %v", len(e.Deviations), err)
		}
	}
	return r
}

// TestVectorDescription: a finding's description is its root cause's
// title and its bucket, clipped so that the vector is valid however long
// the title (a title longer than a description may be once stopped
// toolnorm fuzz at its first finding).
func TestVectorDescription(t *testing.T) {
	long := strings.Repeat("Every string that parses as JSON is replaced é ", 30)
	for _, title := range []string{"Short", long[:150], long[:200], long, strings.Repeat("é", 5000)} {
		d := vectorDescription(title, " (fuzzing bucket 0edc68f16b)")
		v := corpus.New(d, "found", "found", nil, []byte(`{}`), []byte(`{}`), corpus.Options{}, impl.Reference)
		if p := corpus.Check(v); len(p) > 0 || !strings.HasSuffix(d, " (fuzzing bucket 0edc68f16b)") || !utf8.ValidString(d) {
			t.Errorf("title of %d bytes: %q: %v", len(title), d, p)
		}
		if len(title) < 150 && !strings.HasPrefix(d, title+" (") {
			t.Errorf("a short title is cut: %q", d)
		}
	}
}

// TestLongTitleVectors: a schema-blind normalizer (every string that is
// JSON decoded, whatever the schema) has a root cause whose title and
// bucket are longer than a vector's description may be; the fuzzer's
// vectors are valid all the same, their descriptions the title clipped,
// and the check's root cause keeps its whole title, which fits.
func TestLongTitleVectors(t *testing.T) {
	var decode func(v *jsonvalue.Value)
	decode = func(v *jsonvalue.Value) {
		for _, e := range v.Elems {
			decode(e)
		}
		for _, m := range v.Members {
			decode(m.Value)
		}
		if v.Kind == jsonvalue.String {
			if d, err := jsonvalue.Parse([]byte(v.Str)); err == nil {
				*v = *d
			}
		}
	}
	blind := impltest.Edited("schema-blind", decode)
	r := runChecked(t, context.Background(), Config{Impl: blind, Vectors: vectors(t)[:200], Checks: 32, Seed: 1})
	for _, rc := range r.RootCauses {
		if rc.Vector.Description != rc.Title {
			t.Errorf("title %q, description %q", rc.Title, rc.Vector.Description)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &Fuzzer{Impl: blind, Titled: true}
	if err := f.Run(ctx, 1, time.Now().Add(time.Hour), func(s Stats) {
		if len(f.Findings) > 0 || s.Cases > 4096 {
			cancel()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(f.Findings) == 0 {
		t.Fatal("no finding")
	}
	for _, fd := range f.Findings {
		d := fd.Vector.Description
		if p := corpus.Check(fd.Vector); len(p) > 0 || !strings.HasPrefix(d, "Every string that parses as JSON") || !strings.Contains(d, "more bytes) (fuzzing bucket ") {
			t.Errorf("description %q: %v", d, p)
		}
	}
}
