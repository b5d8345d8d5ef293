package check

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
)

// stopping is a program behind the protocol as a harness.Adapter is to
// the check: once ctx is done, nothing more is run (impl.ErrNotRun).
type stopping struct{ *impltest.Recorder }

func (s stopping) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	out := s.Recorder.RunBatch(ctx, cases)
	if ctx.Err() != nil {
		for i := range out {
			out[i] = impl.Fail(impl.ErrNotRun, "the check stopped: "+ctx.Err().Error())
		}
	}
	return out
}

func (s stopping) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return s.RunBatch(ctx, []impl.Case{c})[0]
}

// TestUnexplainedAtTheBudget: a violation found just before the budget
// runs out, which the check cannot run again to explain, is listed as an
// unexplained root cause of its property, never as "A case not run" (a
// failure of the program, which it is not), and every violated property
// is in a root cause.
func TestUnexplainedAtTheBudget(t *testing.T) {
	buggy := impl.Func("one pass", func(ctx context.Context, c impl.Case) impl.Result {
		o := c.Options
		o.MaxPasses = 1
		return impl.Reference.Normalize(ctx, impl.Case{Schema: c.Schema, Args: c.Args, Options: o})
	})
	unexplained := 0
	for ms := 100; ms <= 1000; ms += 100 {
		synctest.Test(t, func(t *testing.T) {
			b := &impltest.Recorder{Impl: buggy, Delay: 5 * time.Millisecond}
			r := runChecked(t, context.Background(), Config{Impl: stopping{b}, Budget: time.Duration(ms) * time.Millisecond, Seed: 5})
			in := map[string]bool{}
			for _, rc := range r.RootCauses {
				if rc.Class == "failure/not-run" {
					t.Errorf("budget %dms: root cause %q: %s", ms, rc.Title, rc.Counterexample.Got)
				}
				if rc.Class == "unexplained" {
					unexplained++
				}
				for _, p := range rc.Properties {
					in[p] = true
				}
			}
			for _, p := range r.Properties {
				if p.Violation != nil && !in[p.ID] {
					t.Errorf("budget %dms: %s is violated and in no root cause", ms, p.ID)
				}
			}
		})
	}
	if unexplained == 0 {
		t.Errorf("no budget left a violation unexplained: the test does not reach what it tests")
	}
}
