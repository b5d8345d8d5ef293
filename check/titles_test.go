package check

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/check/internal/explain"
	"github.com/toolnorm/toolnorm/impl"
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
