package explain

import (
	"slices"
	"strings"

	"github.com/toolnorm/toolnorm/check/internal/coalesce"
	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
)

// A lab runs the experiments of one explanation: the witnesses of the
// candidate deviations (small cases on which each differs from the
// reference, the example of its title first), sent to the implementation
// as one batch, under the options the findings declare.
type lab struct {
	s   *session
	got map[string]impl.Result // the implementation's answers, by case
	// witnesses are each deviation's witnesses that differ from the
	// reference under the declared options, by deviation and options.
	witnesses map[labKey][]impl.Case
	suspects  []*deviation.Deviation // every candidate deviation
	// borne is whether the implementation bears out a deviation on its
	// witnesses, once found; best, the candidates kept of a set.
	borne map[labKey]bool
	best  map[string][]explanation
}

type labKey struct {
	d *deviation.Deviation
	o impl.Options
}

// declared is the part of a case's options that the implementation
// declares (which repairs, at which depth): the witnesses take it on.
func declared(o impl.Options) impl.Options {
	return impl.Options{Repairs: o.Repairs, Depth: o.Depth}
}

// experiments is the third step. A deviation is kept as a finding's
// explanation only if the implementation shows it on the example of its
// title too (alone, or with another deviation that explains some
// finding): a title claims its example. Where several candidates are left,
// those kept are the ones whose predictions agree most often with what
// the implementation answers on the witnesses of them all: a deviation
// whose witness the implementation does not show loses to one whose
// witness it does.
func (s *session) experiments(fs []*finding) {
	if !s.live() {
		return
	}
	l := &lab{s: s, got: map[string]impl.Result{}, witnesses: map[labKey][]impl.Case{}, borne: map[labKey]bool{}, best: map[string][]explanation{}}
	var cases []impl.Case
	for _, f := range fs {
		for _, x := range f.cands {
			for _, d := range x {
				if !slices.Contains(l.suspects, d) {
					l.suspects = append(l.suspects, d)
				}
				k := labKey{d, declared(f.Case.Options)}
				if _, ok := l.witnesses[k]; !ok {
					l.witnesses[k] = s.witnesses(d, k.o)
					cases = append(cases, l.witnesses[k]...)
				}
			}
		}
	}
	if len(cases) == 0 {
		return
	}
	for i, r := range s.ask(s.ctx, cases) {
		l.got[coalesce.Key(cases[i])] = r
	}
	for _, f := range fs {
		o := declared(f.Case.Options)
		f.cands = slices.DeleteFunc(f.cands, func(x explanation) bool { return !l.confirmed(x, o) })
		if len(f.cands) > 1 {
			f.cands = l.bestOf(f.cands, o)
		}
	}
}

// witnesses are d's witnesses with the options o declares; none when the
// example of its title no longer differs from the reference under them
// (the entity repair's deviations, for an implementation that declares
// it does only the JSON repair).
func (s *session) witnesses(d *deviation.Deviation, o impl.Options) []impl.Case {
	out := make([]impl.Case, len(d.Witnesses))
	for i, w := range d.Witnesses {
		w.Options.Repairs, w.Options.Depth = o.Repairs, o.Depth
		out[i] = w
	}
	if impl.Compare(deviation.Apply(s.ctx, out[0], d), s.want(out[0])).Same() {
		return nil
	}
	return out
}

// confirmed reports whether the implementation bears out each deviation
// of x on every witness of it: the example of its title, the other cases
// its title claims, the controls where it claims nothing changes. On each
// it answers as the deviation does, alone, or with another suspect (where
// the deviation changes the case, what that one alone gives must not be
// the answer: the deviation must count).
func (l *lab) confirmed(x explanation, o impl.Options) bool {
	for _, d := range x {
		k := labKey{d, o}
		borne, ok := l.borne[k]
		if !ok {
			ws := l.witnesses[k]
			borne = len(ws) > 0 && !slices.ContainsFunc(ws, func(w impl.Case) bool { return !l.bearsOut(d, w) })
			l.borne[k] = borne
		}
		if !borne {
			return false
		}
	}
	return true
}

// bearsOut reports whether the implementation's answer on w is d's, alone
// or with another suspect.
func (l *lab) bearsOut(d *deviation.Deviation, w impl.Case) bool {
	got := l.got[coalesce.Key(w)]
	if (explanation{d}).explains(l.s.ctx, w, got) {
		return true
	}
	control := impl.Compare(deviation.Apply(l.s.ctx, w, d), l.s.want(w)).Same()
	return slices.ContainsFunc(l.suspects, func(e *deviation.Deviation) bool {
		return e != d && deviation.Compatible(d, e) && pair(d, e).explains(l.s.ctx, w, got) &&
			(control || !(explanation{e}).explains(l.s.ctx, w, got))
	})
}

// pair is the explanation of d and e together, in the catalogue's order.
func pair(d, e *deviation.Deviation) explanation {
	if index(e) < index(d) {
		return explanation{e, d}
	}
	return explanation{d, e}
}

// bestOf returns the candidates that agree with the implementation on
// the most of the witnesses of them all, found once for a set.
func (l *lab) bestOf(cands []explanation, o impl.Options) []explanation {
	k := trialKey(cands, o)
	if b, ok := l.best[k]; ok {
		return b
	}
	b := l.agreeMost(cands, o)
	l.best[k] = b
	return b
}

func trialKey(cands []explanation, o impl.Options) string {
	ids := make([]string, len(cands))
	for i, x := range cands {
		ids[i] = x.id()
	}
	return strings.Join(ids, " ") + "\x00" + o.Repairs.String() + o.Depth.String()
}

// agreeMost returns the candidates that agree with the implementation on
// the most of the witnesses of them all.
func (l *lab) agreeMost(cands []explanation, o impl.Options) []explanation {
	var ws []impl.Case
	seen := map[string]bool{}
	for _, x := range cands {
		for _, d := range x {
			for _, w := range l.witnesses[labKey{d, o}] {
				if k := coalesce.Key(w); !seen[k] {
					seen[k] = true
					ws = append(ws, w)
				}
			}
		}
	}
	var best []explanation
	top := -1
	for _, x := range cands {
		n := 0
		for _, w := range ws {
			if x.explains(l.s.ctx, w, l.got[coalesce.Key(w)]) {
				n++
			}
		}
		switch {
		case n > top:
			best, top = []explanation{x}, n
		case n == top:
			best = append(best, x)
		}
	}
	return best
}
