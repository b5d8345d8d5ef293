package rootcause

import (
	"context"
	"errors"
	"sync"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/coalesce"
)

// A pair is what is expected on a case and what the implementation gave.
type pair struct{ want, got impl.Result }

// A memo runs each case once on the implementation and the reference:
// the minimizations of many findings meet on the same small cases. A
// crash is kept like an answer: within one check, the program is taken
// to crash on that exact case again (each run of it would cost a start
// of the adapter). Any other failure is not kept (a timeout may come from
// a loaded machine, a give-up or a check stopped says nothing of the
// case): the case is run anew when it is asked for again.
//
// The implementation is run through a coalesce.Impl, which keeps the
// results and, for an implementation that takes batches, is the lockstep
// of Explain's workers: each joins with the index of the finding under
// way as its rank, and the cases they ask for go out as one batch once
// every worker under way waits for answers (or is done), so the batches
// depend only on the findings and the answers, however the workers are
// scheduled.
type memo struct {
	k   *coalesce.Impl
	b   bool // the implementation takes batches
	ref func(impl.Case) impl.Result

	mu    sync.Mutex
	wants map[string]impl.Result
}

func newMemo(ctx context.Context, cfg Config) *memo {
	m := &memo{k: coalesce.New(ctx, cfg.Impl, kept), ref: cfg.Want, wants: map[string]impl.Result{}}
	_, m.b = cfg.Impl.(impl.Batcher)
	return m
}

// config is cfg with the implementation and the reference run through m.
func (m *memo) config(cfg Config) Config {
	cfg.Want = m.want
	cfg.Impl = impl.Func(m.k.Name(), m.k.Normalize)
	return cfg
}

// want is the reference's result on c, computed once.
func (m *memo) want(c impl.Case) impl.Result {
	k := coalesce.Key(c)
	m.mu.Lock()
	r, ok := m.wants[k]
	m.mu.Unlock()
	if !ok {
		r = m.ref(c)
		m.mu.Lock()
		m.wants[k] = r
		m.mu.Unlock()
	}
	return r
}

// ask returns what is expected on each case and what the implementation
// gives, running the cases not kept yet in the next batch, which ask
// waits for. ctx names the worker asking, if any.
func (m *memo) ask(ctx context.Context, cases []impl.Case) []pair {
	out := make([]pair, len(cases))
	for i, c := range cases {
		out[i].want = m.want(c)
	}
	for i, r := range m.k.RunBatch(ctx, cases) {
		out[i].got = r
	}
	return out
}

// kept reports whether the memo keeps a result: an answer, or a crash of
// the program that is not the harness giving up on it.
func kept(r impl.Result) bool {
	return r.Failure == nil || r.Kind() == impl.KindCrash && !errors.Is(r.Failure, impl.ErrGaveUp)
}
