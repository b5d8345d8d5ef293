package check

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

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

// schemaBlind decodes every string that is JSON, whatever the schema
// declares (the reference's answer edited).
var schemaBlind = impltest.Edited("schema-blind", func(v *jsonvalue.Value) { decodeAll(v) })

func decodeAll(v *jsonvalue.Value) {
	for _, e := range v.Elems {
		decodeAll(e)
	}
	for _, m := range v.Members {
		decodeAll(m.Value)
	}
	if v.Kind == jsonvalue.String {
		if d, err := jsonvalue.Parse([]byte(v.Str)); err == nil {
			*v = *d
		}
	}
}

// fuzzTitled fuzzes im from seed as toolnorm fuzz does (Titled), known
// the buckets of findings written before, until n cases have run.
func fuzzTitled(t *testing.T, im impl.Impl, known map[string]bool, seed uint64, n int) *Fuzzer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &Fuzzer{Impl: im, Titled: true, Known: known}
	if err := f.Run(ctx, seed, time.Now().Add(time.Hour), func(s Stats) {
		if s.Cases >= n {
			cancel()
		}
	}); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestLongTitleVectors: a schema-blind normalizer (every string that is
// JSON decoded, whatever the schema) has a root cause whose title and
// bucket are longer than a vector's description may be; the fuzzer's
// vectors are valid all the same, their descriptions the title clipped,
// and the check's root cause keeps its whole title, which fits.
func TestLongTitleVectors(t *testing.T) {
	r := runChecked(t, context.Background(), Config{Impl: schemaBlind, Vectors: vectors(t)[:200], Checks: 32, Seed: 1})
	for _, rc := range r.RootCauses {
		if rc.Vector.Description != rc.Title {
			t.Errorf("title %q, description %q", rc.Title, rc.Vector.Description)
		}
	}
	f := fuzzTitled(t, schemaBlind, nil, 1, 1024)
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

// TestFuzzOneFindingACause: a run of toolnorm fuzz writes one finding for
// each root cause a deviation explains, however many buckets show it,
// and counts the others; a later run, knowing the buckets written, writes
// one of those it finds again, so that a fix of the first never hides
// the rest.
func TestFuzzOneFindingACause(t *testing.T) {
	first := fuzzTitled(t, schemaBlind, nil, 1, 2048)
	titles := map[string]bool{}
	known := map[string]bool{}
	for _, fd := range first.Findings {
		title, _, _ := strings.Cut(fd.Vector.Description, " (fuzzing bucket ")
		if titles[title] {
			t.Errorf("two findings of one root cause: %q", title)
		}
		titles[title] = true
		known[fd.Bucket] = true
	}
	if first.SameCause == 0 {
		t.Fatalf("%d findings and no bucket of the same root cause: the test shows nothing", len(first.Findings))
	}
	again := fuzzTitled(t, schemaBlind, maps.Clone(known), 1, 2048) // Run adds to Known
	shownBefore := 0
	for _, fd := range again.Findings {
		title, _, _ := strings.Cut(fd.Vector.Description, " (fuzzing bucket ")
		if known[fd.Bucket] {
			t.Errorf("bucket %s written again", fd.Bucket)
		}
		if titles[title] {
			shownBefore++
		}
	}
	if shownBefore == 0 {
		t.Errorf("the second run wrote none of the %d buckets the first counted under its root causes", first.SameCause)
	}
}
