// Package coalesce sends the cases that several goroutines ask an
// implementation for at the same time as shared batches, in lockstep:
// minimizing several findings at once then costs the round trips of one,
// and the batches, which cases and in which order, depend only on what
// the goroutines ask and are answered, never on how they are scheduled.
// A program that crashes on a case, and takes the cases after it in the
// batch down with it, is then charged the same crashes run after run.
package coalesce

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/toolnorm/toolnorm/impl"
)

// An Impl sends the cases its workers ask for as one batch once every
// worker that joined waits for answers or has left, not before; the batch
// holds each case once, in the order of the workers' ranks and, for each
// rank, in the order it asked for them. Between two batches nothing
// changes what a worker is answered (the results kept change only as a
// batch comes back), so when what a worker asks depends only on its
// answers, so do the batches. One batch is under way at a time; a
// harness.Pool cuts it into runs for its processes. A caller that did
// not join is a worker of rank -1 while it waits: with no worker joined,
// its cases go out at once. Once the context given to New is done, the
// cases asked for go out without waiting for the others.
//
// An implementation that does not take batches (one in the process) gets
// a batch's cases one at a time.
type Impl struct {
	impl.Impl
	ctx  context.Context
	b    impl.Batcher // nil: one case at a time
	keep func(impl.Result) bool

	mu   sync.Mutex
	seen map[string]impl.Result // the results kept
	// live counts the workers joined and not left (and the callers that
	// did not join, while they wait); waiting, those of them waiting for
	// the next batch, each on one of waiters, for pending.
	live, waiting int
	waiters       []chan struct{}
	pending       []*request
	sending       bool
	stopped       bool
	release       func() bool
}

// A request is a case a worker waits for, with its place in the batch.
type request struct {
	rank, asked int
	key         string
	c           impl.Case
	got         impl.Result
}

// A Worker is a goroutine whose requests go out in lockstep with the
// others': it asks through a context made by Context.
type Worker struct {
	k           *Impl
	rank, asked int
}

type workerKey struct{}

// New coalesces the requests to im, until ctx is done. keep, when not
// nil, says which results are kept: a case whose result is kept is not
// run again, it is answered the kept result.
func New(ctx context.Context, im impl.Impl, keep func(impl.Result) bool) *Impl {
	k := &Impl{Impl: im, ctx: ctx, keep: keep, seen: map[string]impl.Result{}}
	k.b, _ = im.(impl.Batcher)
	k.release = context.AfterFunc(ctx, func() {
		k.mu.Lock()
		k.stopped = true
		k.send()
		k.mu.Unlock()
	})
	return k
}

// Release lets go of the context given to New, once every worker is done.
func (k *Impl) Release() { k.release() }

// Join counts a worker of the given rank under way. Every worker joins
// before any of them asks for a case (else a batch may go out without
// the cases of one joined late); a worker that is done leaves.
func (k *Impl) Join(rank int) *Worker {
	k.mu.Lock()
	k.live++
	k.mu.Unlock()
	return &Worker{k: k, rank: rank}
}

// Each runs f(ctx, i) for i from 0 to n-1, at once, each as the worker of
// rank i (every one joined before any of them asks, and leaving when f
// returns), and returns once all have. ctx, given to each f naming its
// worker, is what f asks through.
func (k *Impl) Each(ctx context.Context, n int, f func(ctx context.Context, i int)) {
	ws := make([]*Worker, n)
	for i := range ws {
		ws[i] = k.Join(i)
	}
	var wg sync.WaitGroup
	for i, w := range ws {
		wg.Go(func() {
			defer w.Leave()
			f(w.Context(ctx), i)
		})
	}
	wg.Wait()
}

// Rank gives w a new rank, for the next task it takes: its cases are
// ordered, among the others', by the rank and the order asked since.
func (w *Worker) Rank(rank int) { w.rank, w.asked = rank, 0 }

// Context is ctx naming w: the cases asked for with it are w's.
func (w *Worker) Context(ctx context.Context) context.Context {
	return context.WithValue(ctx, workerKey{}, w)
}

// Leave counts w done, which may leave the others all waiting.
func (w *Worker) Leave() {
	w.k.mu.Lock()
	w.k.live--
	w.k.send()
	w.k.mu.Unlock()
}

// Normalize returns im's result on c, sent in the next batch.
func (k *Impl) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return k.RunBatch(ctx, []impl.Case{c})[0]
}

// RunBatch returns im's results on cases, in their order: those kept
// at once, the others once the batch they go out in comes back. ctx
// names the worker asking, if any.
func (k *Impl) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	out := make([]impl.Result, len(cases))
	var reqs []*request
	var at []int
	w, _ := ctx.Value(workerKey{}).(*Worker)
	if w != nil && w.k != k {
		w = nil
	}
	k.mu.Lock()
	for i, c := range cases {
		key := c.Key()
		if got, ok := k.seen[key]; ok {
			out[i] = got
			continue
		}
		r := &request{rank: -1, key: key, c: c}
		if w != nil {
			r.rank, r.asked = w.rank, w.asked
			w.asked++
		}
		reqs, at = append(reqs, r), append(at, i)
	}
	if len(reqs) == 0 {
		k.mu.Unlock()
		return out
	}
	done := make(chan struct{})
	if w == nil {
		k.live++
	}
	k.pending = append(k.pending, reqs...)
	k.waiters = append(k.waiters, done)
	k.waiting++
	k.send()
	k.mu.Unlock()
	<-done
	if w == nil {
		k.mu.Lock()
		k.live--
		k.send()
		k.mu.Unlock()
	}
	for j, r := range reqs {
		out[at[j]] = r.got
	}
	return out
}

// again sends once more what the program gave up on in a batch (a
// harness.Adapter gives up the rest of a batch after 20 failures in a
// row), each worker's part as a batch of its own, so that a worker gets
// the results it would have had asking alone, as the batches it would
// have sent alone were no longer than that. got is updated.
func (k *Impl) again(cases []impl.Case, ranks []int, got []impl.Result) {
	if k.ctx.Err() != nil {
		return // not run because the check stopped: nothing is sent
	}
	first := slices.IndexFunc(got, func(r impl.Result) bool { return r.Kind() == impl.KindNotRun })
	for lo := first; lo >= 0 && lo < len(cases); {
		hi := lo + 1
		for hi < len(cases) && ranks[hi] == ranks[lo] {
			hi++
		}
		copy(got[lo:hi], k.b.RunBatch(k.ctx, cases[lo:hi]))
		lo = hi
	}
}

// send sends the cases asked for as one batch when every worker under
// way waits for answers (or the context is done), and hands the answers
// out; k.mu is held, and let go while the batch is under way (no worker
// asks for more then: all wait).
func (k *Impl) send() {
	for !k.sending && len(k.pending) > 0 && (k.waiting == k.live || k.stopped) {
		reqs, waiters := k.pending, k.waiters
		k.pending, k.waiters = nil, nil
		k.sending = true
		k.mu.Unlock()
		slices.SortStableFunc(reqs, func(a, b *request) int {
			return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.asked, b.asked))
		})
		index := map[string]int{}
		var cases []impl.Case
		var ranks []int // of the worker that asked for each case first
		for _, r := range reqs {
			if _, ok := index[r.key]; !ok {
				index[r.key] = len(cases)
				cases = append(cases, r.c)
				ranks = append(ranks, r.rank)
			}
		}
		var got []impl.Result
		if k.b != nil {
			got = k.b.RunBatch(k.ctx, cases)
			k.again(cases, ranks, got)
		} else {
			got = make([]impl.Result, len(cases))
			for i, c := range cases {
				got[i] = k.Impl.Normalize(k.ctx, c)
			}
		}
		k.mu.Lock()
		for _, r := range reqs {
			if r.got = got[index[r.key]]; k.keep != nil && k.keep(r.got) {
				k.seen[r.key] = r.got
			}
		}
		k.waiting -= len(waiters)
		k.sending = false
		for _, d := range waiters {
			close(d)
		}
	}
}
