package explain

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/impl"
)

// An explanation is one or two deviations that, made together to the
// reference, give the implementation's answer on a case; in the
// catalogue's order.
type explanation []*deviation.Deviation

// id is the explanation's id: its deviations' ids, joined by "+".
func (x explanation) id() string {
	ids := make([]string, len(x))
	for i, d := range x {
		ids[i] = d.ID
	}
	return strings.Join(ids, "+")
}

// explains reports whether the reference with x gives got on c.
func (x explanation) explains(ctx context.Context, c impl.Case, got impl.Result) bool {
	return deviation.Explains(ctx, c, got, x...)
}

// A finding is one finding as the steps see it.
type finding struct {
	Finding
	// explainable: an answer that differs from what is expected on the
	// case; else a failure of the program, or a property's violation
	// that the case alone does not show, which class names.
	explainable bool
	cands       []explanation
	class       diagnose.Diagnosis
	// counted is true for a finding counted under the class its sample
	// ended in, not minimized (reduce): class is that class.
	counted bool
}

// collect is the first step: the findings, each marked explainable or
// classified at once.
func (s *session) collect(findings []Finding) []*finding {
	fs := make([]*finding, len(findings))
	for i, f := range findings {
		x := &finding{Finding: f}
		fs[i] = x
		switch {
		case f.Got.Failure != nil:
			x.class = classify(f.Case, f.Want, f.Got)
		case impl.Same(f.Got, f.Want):
			x.class = diagnose.Diagnosis{Class: "property/" + f.ID, Title: f.Statement, Clause: f.Clause}
		default:
			x.explainable = true
		}
	}
	return fs
}

// candidates is the second step: for each explainable finding, the
// deviations that explain it on its case, one at a time (pairs=false),
// or, for those none of which is left, two together (pairs=true). It
// sends nothing: the deviations run here. A case larger than bigCase is
// explained as found only where a deviation that shows on large cases
// alone (Large) explains it, and then by any deviation (one that explains
// more, json-none, may hold it); else it is left to the reduce step, which
// minimizes it first. None is looked at once the check's time is up.
func (s *session) candidates(fs []*finding, pairs bool) {
	var wg sync.WaitGroup
	next := make(chan *finding)
	for range 2 {
		wg.Go(func() {
			for f := range next {
				if !s.timeLeft() {
					continue
				}
				if size(f.Case) > bigCase {
					if !pairs && len(largeOf(s.ctx, f.Case, f.Got)) > 0 {
						f.cands = singlesOf(s.ctx, f.Case, f.Want, f.Got)
					}
					continue
				}
				if pairs {
					f.cands = pairsOf(s.ctx, f.Case, f.Want, f.Got)
				} else {
					f.cands = singlesOf(s.ctx, f.Case, f.Want, f.Got)
				}
			}
		})
	}
	for _, f := range fs {
		if f.explainable && len(f.cands) == 0 {
			next <- f
		}
	}
	close(next)
	wg.Wait()
}

// bigCase is the size past which a case found is minimized before any
// deviation is run on it: each runs the whole case again, several times.
const bigCase = 16 << 10

// largeOf returns the deviations that show only on a large case and
// explain got on c: a large case is minimized before the deviations are
// run on it, which would cut it below what these need.
func largeOf(ctx context.Context, c impl.Case, got impl.Result) []explanation {
	var out []explanation
	f := deviation.FeaturesOf(c)
	for _, d := range deviation.Catalogue() {
		if d.Large() && d.Relevant(f) && (explanation{d}).explains(ctx, c, got) {
			out = append(out, explanation{d})
		}
	}
	return out
}

// singlesOf returns the deviations that explain got on c, where want is
// expected.
func singlesOf(ctx context.Context, c impl.Case, want, got impl.Result) []explanation {
	var out []explanation
	f := deviation.FeaturesOf(c)
	for _, d := range deviation.Catalogue() {
		if d.Relevant(f) && (explanation{d}).explains(ctx, c, got) {
			out = append(out, explanation{d})
		}
	}
	return out
}

// pairsOf returns the pairs of deviations that explain got on c together,
// where want is expected. One deviation of a pair at least changes
// something on c alone (touches it); the other may change something only
// with it (a validator after a repair missed).
func pairsOf(ctx context.Context, c impl.Case, want, got impl.Result) []explanation {
	f := deviation.FeaturesOf(c)
	var touching []*deviation.Deviation
	for _, d := range deviation.Catalogue() {
		if d.Relevant(f) && !impl.Same(deviation.Apply(ctx, c, d), want) {
			touching = append(touching, d)
		}
	}
	var out []explanation
	for _, a := range touching {
		for _, b := range deviation.Catalogue() {
			if a == b || slices.Contains(touching, b) && index(b) < index(a) || !deviation.Compatible(a, b) {
				continue // each pair of touching deviations once; none that undo one another
			}
			if x := pair(a, b); x.explains(ctx, c, got) {
				out = append(out, x)
			}
		}
	}
	return out
}

// index is d's place in the catalogue.
func index(d *deviation.Deviation) int { return slices.Index(deviation.Catalogue(), d) }
