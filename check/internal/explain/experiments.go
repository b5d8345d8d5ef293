package explain

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

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
	// excusers are the deviations that may excuse a witness another
	// contradicts, in the order tried: the suspects, then the rest of the
	// catalogue.
	excusers []*deviation.Deviation
	// borne is whether the implementation bears out a deviation on its
	// witnesses, once found; seen, whether it shows a deviation on the
	// example of its title; best, the candidates kept of a set.
	borne, seen map[labKey]bool
	best        map[string][]explanation
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
	l := &lab{s: s, got: map[string]impl.Result{}, witnesses: map[labKey][]impl.Case{}, borne: map[labKey]bool{}, seen: map[labKey]bool{},
		best: map[string][]explanation{}}
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
	l.excusers = slices.Clone(l.suspects)
	for _, e := range deviation.Catalogue() {
		if !slices.Contains(l.suspects, e) {
			l.excusers = append(l.excusers, e)
		}
	}
	// The example of every deviation's title too: only one the
	// implementation shows may excuse a witness (shown).
	for _, o := range l.options() {
		for _, e := range deviation.Catalogue() {
			if ws := s.witnesses(e, o); len(ws) > 0 {
				cases = append(cases, ws[0])
			}
		}
	}
	for i, r := range s.ask(s.ctx, cases) {
		l.got[cases[i].Key()] = r
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
	if impl.Same(deviation.Apply(s.ctx, out[0], d), s.want(out[0])) {
		return nil
	}
	return out
}

// confirmed reports whether the implementation bears out each deviation
// of x on its witnesses: the example of its title, the other cases its
// title claims, the controls where it claims nothing changes. No witness
// may contradict it (the implementation's answer is neither the
// deviation's, nor that of the deviation with another), and one at least,
// not a control, must show it: the answer is the deviation's, alone, or
// with another where that one alone does not give it.
func (l *lab) confirmed(x explanation, o impl.Options) bool {
	for _, d := range x {
		k := labKey{d, o}
		borne, ok := l.borne[k]
		if !ok {
			borne = l.bornOut(d, l.witnesses[k])
			l.borne[k] = borne
		}
		if !borne {
			return false
		}
	}
	return true
}

func (l *lab) bornOut(d *deviation.Deviation, ws []impl.Case) bool {
	shown := false
	for _, w := range ws {
		switch l.witness(d, w) {
		case contradicts:
			return false
		case shows:
			shown = true
		}
	}
	return shown
}

// A verdict is what one witness says of a deviation.
type verdict uint8

const (
	contradicts verdict = iota
	consistent          // a control agreed with, or an answer another deviation gives alone
	shows
)

// witness judges d on w: the implementation's answer against d's,
// alone or with another deviation (a suspect first, then any that may
// change w) that the implementation shows on the example of its own
// title: another bug of the implementation may change the witness too,
// but not one it does not have. A witness the implementation answers
// with no result it can show (not sendable: "unsupported") is
// consistent with any deviation; one it answers as the reference does
// shows none.
func (l *lab) witness(d *deviation.Deviation, w impl.Case) verdict {
	got := l.got[w.Key()]
	if errors.Is(got.Failure, impl.ErrNotSendable) {
		// An answer the implementation cannot show (an adapter's
		// "unsupported": a validator after the repair refused what it
		// made) says nothing of the deviation.
		return consistent
	}
	// A control (d gives the reference's answer), or a witness the
	// implementation answers as the reference does, shows nothing: at
	// most it is consistent with d (a variant of d may give the
	// reference's answer where d does not: a draft that reads what 2020-12
	// reads there).
	// It is asked only where d, alone or with another, explains w.
	control := sync.OnceValue(func() bool {
		want := l.s.want(w)
		return impl.Same(got, want) || impl.Same(deviation.Apply(l.s.ctx, w, d), want)
	})
	if (explanation{d}).explains(l.s.ctx, w, got) {
		if control() {
			return consistent
		}
		return shows
	}
	// No deviation is left out for what w lacks (Relevant): what e needs
	// may be made by d (a "null" decoded to null, then dropped).
	v := contradicts
	for _, e := range l.excusers {
		if e == d || !deviation.Compatible(d, e) || !l.shown(e, w.Options) || !pair(d, e).explains(l.s.ctx, w, got) {
			continue
		}
		if control() || (explanation{e}).explains(l.s.ctx, w, got) {
			v = consistent
			continue
		}
		return shows
	}
	return v
}

// options are the declared options the lab's witnesses take.
func (l *lab) options() []impl.Options {
	var out []impl.Options
	for k := range l.witnesses {
		if !slices.Contains(out, k.o) {
			out = append(out, k.o)
		}
	}
	return out
}

// shown reports whether the implementation shows e on the example of its
// title: only a deviation it has may excuse a witness that contradicts
// another (a deviation that decodes every string would excuse any
// witness where a string is decoded).
func (l *lab) shown(e *deviation.Deviation, o impl.Options) bool {
	k := labKey{e, declared(o)}
	if v, ok := l.seen[k]; ok {
		return v
	}
	v := showsOnExample(l.s.ctx, e, k.o, l.s.want, func(c impl.Case) (impl.Result, bool) {
		got, ok := l.got[c.Key()]
		return got, ok
	})
	l.seen[k] = v
	return v
}

// showsOnExample reports whether an implementation shows e on the
// example of e's title under o's repairs and depth: e changes the
// reference's answer there (want), and explains the implementation's
// (answer, false when there is none), which is not the reference's. Only
// a deviation an implementation shows may excuse a witness of another
// that it contradicts; the experiments (lab.shown) and the title check
// (excused) ask it alike.
func showsOnExample(ctx context.Context, e *deviation.Deviation, o impl.Options, want func(impl.Case) impl.Result, answer func(impl.Case) (impl.Result, bool)) bool {
	ex := example(e, o)
	w := want(ex)
	if impl.Same(deviation.Apply(ctx, ex, e), w) {
		return false
	}
	got, ok := answer(ex)
	return ok && !impl.Same(got, w) && (explanation{e}).explains(ctx, ex, got)
}

// example is the example of d's title, its first witness, under o's
// repairs and depth.
func example(d *deviation.Deviation, o impl.Options) impl.Case {
	w := d.Witnesses[0]
	w.Options.Repairs, w.Options.Depth = o.Repairs, o.Depth
	return w
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
				if k := w.Key(); !seen[k] {
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
			if x.explains(l.s.ctx, w, l.got[w.Key()]) {
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
