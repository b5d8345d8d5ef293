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
	return got.Failure == nil && impl.Compare(got, deviation.Apply(ctx, c, x...)).Same()
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
		case impl.Compare(f.Got, f.Want).Same():
			x.class = diagnose.Diagnosis{Class: "property/" + f.ID, Title: f.Statement, Clause: f.Clause}
		default:
			x.explainable = true
		}
	}
	return fs
}

// candidates is the second step: for each explainable finding, the
// deviations that explain it on its case, one at a time; where none
// does, the pairs that do. It sends nothing: the deviations run here.
func (s *session) candidates(fs []*finding) {
	var wg sync.WaitGroup
	next := make(chan *finding)
	for range 2 {
		wg.Go(func() {
			for f := range next {
				f.cands = candidatesOf(s.ctx, f.Case, f.Want, f.Got)
			}
		})
	}
	for _, f := range fs {
		if f.explainable {
			next <- f
		}
	}
	close(next)
	wg.Wait()
}

// candidatesOf returns the explanations of got on c, where want is
// expected: the single deviations that explain it, else the pairs. Of a
// pair, one deviation at least changes something on c alone (touches
// it); the other may change something only with it (a validator after
// a repair missed).
func candidatesOf(ctx context.Context, c impl.Case, want, got impl.Result) []explanation {
	var singles []explanation
	var touching []*deviation.Deviation
	for _, d := range deviation.Catalogue() {
		r := deviation.Apply(ctx, c, d)
		if impl.Compare(r, want).Same() {
			continue
		}
		touching = append(touching, d)
		if impl.Compare(got, r).Same() {
			singles = append(singles, explanation{d})
		}
	}
	if len(singles) > 0 {
		return singles
	}
	var pairs []explanation
	all := deviation.Catalogue()
	for _, a := range touching {
		for _, b := range all {
			if a == b || slices.Contains(touching, b) && index(b) < index(a) || !deviation.Compatible(a, b) {
				continue // each pair of touching deviations once; none that undo one another
			}
			x := explanation{a, b}
			if index(b) < index(a) {
				x = explanation{b, a}
			}
			if x.explains(ctx, c, got) {
				pairs = append(pairs, x)
			}
		}
	}
	return pairs
}

// index is d's place in the catalogue.
func index(d *deviation.Deviation) int { return slices.Index(deviation.Catalogue(), d) }
