package explain

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/minimize"
)

// Sample is how many findings of one cause are minimized: the smallest,
// by the size of the case found. The others are explained already (a
// deviation gives exactly their answers), or of the class already: they
// are counted under the cause as they are.
const Sample = 3

// A shrunk is a finding minimized: the smallest case that still fails
// the same way, what is expected on it and what came.
type shrunk struct {
	f         *finding
	c         impl.Case
	want, got impl.Result
	cut       bool
}

// A job is one finding of a cause to minimize.
type job struct {
	c *cause
	f *finding
}

// shrink is the sixth step: a sample of each cause minimized, keeping
// what makes it that cause (its explanation, or its class), and the
// smallest shown. A failure of the program, and a property's violation
// its case does not show, are shown as found.
func (s *session) shrink(causes []*cause) {
	var jobs []job
	for _, c := range causes {
		for _, f := range sample(c) {
			jobs = append(jobs, job{c, f})
		}
	}
	out := make([]*shrunk, len(jobs))
	is := make([]int, len(jobs))
	for i := range is {
		is[i] = i
	}
	s.each(is, func(ctx context.Context, i int) {
		out[i] = s.shrinkOne(ctx, jobs[i])
	})
	for i, j := range jobs {
		if j.c.shown == nil || better(j.c, out[i], j.c.shown) {
			j.c.shown = out[i]
		}
	}
	// The causes none of whose findings was minimized, each a job of the
	// lockstep as a minimization is (its requests then go out the same
	// whatever --jobs is).
	var bare []int
	for i, c := range causes {
		if c.shown == nil {
			bare = append(bare, i)
		}
	}
	s.each(bare, func(ctx context.Context, i int) {
		f := s.asFound(ctx, causes[i].fs)
		causes[i].shown = &shrunk{f: f, c: f.Case, want: f.Want, got: f.Got}
	})
}

// reproduceTries is how many of a failure cause's smallest findings
// asFound sends again, at most, to find one that fails so alone.
const reproduceTries = 3

// asFound is the finding that shows a cause none of whose findings is
// minimized (failures of the program, violations their case does not
// show). Whether a failure was charged for certain or by elimination
// depends on where its case fell among the adapter's runs (--jobs), and
// what a report shows must not; so the smallest findings, in turn, are
// sent again alone, and the first whose case fails so again is shown.
// A timeout is not sent again (it would cost the timeout), nor is
// anything where the session cannot ask: then a finding charged for
// certain comes before one charged by elimination (a buffering program
// can have that one wrong), then the smallest.
func (s *session) asFound(ctx context.Context, fs []*finding) *finding {
	bySize := slices.SortedStableFunc(slices.Values(fs), func(a, b *finding) int {
		return cmp.Or(cmp.Compare(size(a.Case), size(b.Case)), cmp.Compare(a.Case.Key(), b.Case.Key()))
	})
	if s.k != nil && bySize[0].Got.Failure != nil && bySize[0].Got.Kind() != impl.KindTimeout {
		for _, f := range bySize[:min(reproduceTries, len(bySize))] {
			if !s.live() {
				break
			}
			if got := s.ask(ctx, []impl.Case{f.Case})[0]; got.Failure != nil && got.Kind() == f.Got.Kind() {
				return f
			}
		}
	}
	if i := slices.IndexFunc(bySize, func(f *finding) bool { return !errors.Is(f.Got.Failure, impl.ErrDeduced) }); i >= 0 {
		return bySize[i]
	}
	return bySize[0]
}

// sample returns the findings of c to minimize: the Sample smallest that
// are answers differing from the reference; those explained by c's
// deviation alone before those that need a second one.
func sample(c *cause) []*finding {
	var fs []*finding
	for _, f := range c.fs {
		if f.explainable && !f.counted {
			fs = append(fs, f)
		}
	}
	slices.SortStableFunc(fs, func(a, b *finding) int {
		_, wa := c.with[a]
		_, wb := c.with[b]
		return cmp.Or(cmpBool(wa, wb), cmp.Compare(size(a.Case), size(b.Case)))
	})
	return fs[:min(Sample, len(fs))]
}

// better reports whether a is a better counterexample of c than b: one
// its deviation explains alone, then the smaller.
func better(c *cause, a, b *shrunk) bool {
	_, wa := c.with[a.f]
	_, wb := c.with[b.f]
	return cmp.Or(cmpBool(wa, wb), cmp.Compare(size(a.c), size(b.c))) < 0
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// shrinkOne minimizes j's finding while it fails the way that makes it
// j's cause: explained by the same deviations, or of the same class.
func (s *session) shrinkOne(ctx context.Context, j job) *shrunk {
	f := j.f
	same := s.sameFailure(j)
	fails := func(cs []minimize.Candidate) int {
		if !s.live() {
			return -1
		}
		cases := make([]impl.Case, len(cs))
		for i, x := range cs {
			cases[i] = f.Case
			cases[i].Schema, cases[i].Args = x.Schema, x.Args
		}
		for i, got := range s.ask(ctx, cases) {
			if same(cases[i], s.want(cases[i]), got) {
				return i
			}
		}
		return -1
	}
	out := &shrunk{f: f, c: f.Case, want: f.Want, got: f.Got}
	if !s.live() {
		out.cut = true
		return out
	}
	schema, args, cut := minimize.MinimizeBatch(ctx, f.Case.Schema, f.Case.Args, fails)
	c := f.Case
	c.Schema, c.Args = schema, args
	want, got := s.want(c), s.ask(ctx, []impl.Case{c})[0]
	if !same(c, want, got) {
		return out // a flaky implementation: the case found stands
	}
	out.c, out.want, out.got, out.cut = c, want, got, cut || !s.live()
	return out
}

// sameFailure is what a smaller case must show to stand for j's finding:
// an answer that differs from the reference's, explained by the same
// deviations, or, for a class of the fallback, of the same class.
func (s *session) sameFailure(j job) func(c impl.Case, want, got impl.Result) bool {
	x := j.c.x
	if with, ok := j.c.with[j.f]; ok {
		x = with
	}
	return func(c impl.Case, want, got impl.Result) bool {
		if !impl.Compare(got, want).Violation() {
			return false
		}
		if x != nil {
			return x.explains(s.ctx, c, got)
		}
		class := classify(c, want, got).Class
		return class == j.c.class.Class || broad(class) == j.c.class.Class
	}
}
