// Package coalesce sends the cases that several goroutines ask an
// implementation for at the same time as shared batches: minimizing
// several findings at once then costs the round trips of one.
package coalesce

import (
	"context"
	"sync"

	"github.com/toolnorm/toolnorm/impl"
)

// An Impl sends the cases asked for at the same time, from several
// goroutines, as one batch: the first caller sends the batch, and the
// next, made of the cases asked for in the meantime, until none is left.
// As many batches are under way at a time as the implementation has
// processes (one, but for a harness.Pool of several), so an
// implementation that takes one batch at a time (a harness.Adapter) gets
// one at a time. Each caller gets the results of its own cases, in their
// order.
type Impl struct {
	impl.Impl
	b       impl.Batcher
	slots   int
	mu      sync.Mutex
	pending []*call
	sending int
}

type call struct {
	c    impl.Case
	r    impl.Result
	done chan struct{}
}

// sized is an implementation of several processes, each of which takes
// batches of its own (harness.Pool).
type sized interface{ Size() int }

// New coalesces the requests to im, which is b.
func New(im impl.Impl, b impl.Batcher) *Impl {
	k := &Impl{Impl: im, b: b, slots: 1}
	if s, ok := im.(sized); ok {
		k.slots = max(s.Size(), 1)
	}
	return k
}

// Normalize sends c with the others asked for at the same time.
func (k *Impl) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return k.RunBatch(ctx, []impl.Case{c})[0]
}

// RunBatch sends cases with the others asked for at the same time, and
// returns their results in their order.
func (k *Impl) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	calls := make([]*call, len(cases))
	for i, c := range cases {
		calls[i] = &call{c: c, done: make(chan struct{})}
	}
	k.mu.Lock()
	k.pending = append(k.pending, calls...)
	if k.sending < k.slots {
		k.sending++
		for len(k.pending) > 0 {
			batch := k.pending
			k.pending = nil
			k.mu.Unlock()
			cases := make([]impl.Case, len(batch))
			for i, b := range batch {
				cases[i] = b.c
			}
			rs := k.b.RunBatch(ctx, cases)
			for i, b := range batch {
				b.r = rs[i]
				close(b.done)
			}
			k.mu.Lock()
		}
		k.sending--
	}
	k.mu.Unlock()
	out := make([]impl.Result, len(calls))
	for i, cl := range calls {
		<-cl.done
		out[i] = cl.r
	}
	return out
}
