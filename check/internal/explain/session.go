package explain

import (
	"context"
	"errors"
	"sync"

	"github.com/toolnorm/toolnorm/check/internal/coalesce"
	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// A session is one explanation of a check's findings: the implementation
// and the reference, each run once on a case however often the steps ask
// for it.
//
// The implementation is run through a coalesce.Impl, which keeps the
// results and, for an implementation that takes batches, is the lockstep
// of the shrinking workers: each joins with the index of its job as its
// rank, and the cases they ask for go out as one batch once every worker
// under way waits for answers (or is done), so the batches depend only on
// the findings and the answers, however the workers are scheduled. A
// crash is kept like an answer: within one check, the program is taken to
// crash on that exact case again. Any other failure is not kept (a timeout
// may come from a loaded machine, a check stopped says nothing of the
// case).
type session struct {
	ctx  context.Context
	cfg  Config
	k    *coalesce.Impl // nil without an implementation
	jobs int            // how many workers shrink at once

	mu    sync.Mutex
	wants map[string]impl.Result
	kept  int // bytes of the answers kept (keep)
}

// workers is how many findings are minimized at once when the
// implementation takes batches (a program behind the protocol).
const workers = 16

func newSession(ctx context.Context, cfg Config) *session {
	s := &session{ctx: ctx, cfg: cfg, jobs: 1, wants: map[string]impl.Result{}}
	if cfg.Impl != nil && cfg.Want != nil {
		s.k = coalesce.New(ctx, cfg.Impl, s.keep)
		if _, ok := cfg.Impl.(impl.Batcher); ok {
			s.jobs = workers
		}
	}
	return s
}

func (s *session) close() {
	if s.k != nil {
		s.k.Release()
	}
}

// keep reports whether the session keeps a result: an answer while the
// answers kept are within maxKept bytes, or a crash of the program that
// is not the harness giving up on it. Past maxKept an answer is asked for
// again when a step needs it: minimizing sends many cases, and an
// implementation that answers each with a megabyte would otherwise have
// them all held at once. coalesce calls it with its lock held, in the
// order of the batch (the workers' ranks), so what is kept depends only
// on the findings and the answers.
func (s *session) keep(r impl.Result) bool {
	if r.Failure == nil {
		if s.kept+len(r.Output) > maxKept {
			return false
		}
		s.kept += len(r.Output)
		return true
	}
	return r.Kind() == impl.KindCrash && !errors.Is(r.Failure, impl.ErrGaveUp)
}

// maxKept bounds the bytes of the answers a session keeps.
const maxKept = 64 << 20

// live reports whether the steps may go on sending cases.
func (s *session) live() bool { return s.k != nil && s.timeLeft() }

// timeLeft reports whether the check's time is not up.
func (s *session) timeLeft() bool {
	return s.ctx.Err() == nil && (s.cfg.Keep == nil || s.cfg.Keep())
}

// want is the reference's result on c, computed once.
func (s *session) want(c impl.Case) impl.Result {
	k := c.Key()
	s.mu.Lock()
	r, ok := s.wants[k]
	s.mu.Unlock()
	if !ok {
		r = s.cfg.Want(c)
		s.mu.Lock()
		s.wants[k] = r
		s.mu.Unlock()
	}
	return r
}

// ask returns the implementation's results on cases, those not kept yet
// sent in the next batch, which it waits for. ctx names the worker
// asking, if any.
func (s *session) ask(ctx context.Context, cases []impl.Case) []impl.Result {
	return s.k.RunBatch(ctx, cases)
}

// each runs do(ctx, i) for each of is, s.jobs at a time, each in turn as
// a worker of the lockstep: a worker takes the next job as soon as it is
// done with one, and its rank is the job's index.
func (s *session) each(is []int, do func(ctx context.Context, i int)) {
	n := min(s.jobs, len(is))
	if n <= 1 || s.k == nil {
		for _, i := range is {
			do(s.ctx, i)
		}
		return
	}
	var mu sync.Mutex
	next := 0
	ws := make([]*coalesce.Worker, n)
	for j := range ws {
		ws[j] = s.k.Join(-1)
	}
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Go(func() {
			ctx := w.Context(s.ctx)
			defer w.Leave()
			for {
				mu.Lock()
				if next == len(is) {
					mu.Unlock()
					return
				}
				i := is[next]
				next++
				mu.Unlock()
				w.Rank(i)
				do(ctx, i)
			}
		})
	}
	wg.Wait()
}

// classify is what differs in a case (package diagnose).
func classify(c impl.Case, want, got impl.Result) diagnose.Diagnosis {
	return diagnose.Classify(diagnose.Case{Schema: c.Schema, Args: c.Args, Attribute: c.Options.Profile == normalize.Attribute,
		MaxPasses: c.Options.MaxPasses, Want: want, Got: got})
}

func size(c impl.Case) int { return len(c.Schema) + len(c.Args) }
