// Package impltest provides implementations for the tests of what drives
// one: a Recorder, which stands for a program behind the protocol as the
// check sees one (an impl.Batcher) and records every round trip, and a
// Declaring implementation, which declares the repairs it does and has a
// bug of its own. It is for tests only, as net/http/httptest is: no
// program links it (deps_test.go holds the module to that).
package impltest

import (
	"context"
	"sync"
	"time"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// A Trip is one round trip to a Recorder: a batch, or a case sent alone
// (Normalize).
type Trip struct {
	Cases []impl.Case
	Alone bool
}

// A Recorder runs each case on Impl, one after the other, and records the
// round trips it was sent. Its methods are safe to call at once.
type Recorder struct {
	impl.Impl
	// Delay is how long each batch takes on top of its cases, so that
	// batches sent at once overlap and MostAtOnce shows it.
	Delay time.Duration

	mu        sync.Mutex
	trips     []Trip
	now, most int
}

// RunBatch records the batch and runs its cases in order.
func (r *Recorder) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	r.mu.Lock()
	r.trips = append(r.trips, Trip{Cases: cases})
	r.now++
	r.most = max(r.most, r.now)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.now--
		r.mu.Unlock()
	}()
	if r.Delay > 0 {
		time.Sleep(r.Delay)
	}
	out := make([]impl.Result, len(cases))
	for i, c := range cases {
		out[i] = r.Impl.Normalize(ctx, c)
	}
	return out
}

// Normalize records c as sent alone and runs it.
func (r *Recorder) Normalize(ctx context.Context, c impl.Case) impl.Result {
	r.mu.Lock()
	r.trips = append(r.trips, Trip{Cases: []impl.Case{c}, Alone: true})
	r.mu.Unlock()
	return r.Impl.Normalize(ctx, c)
}

// Trips are the round trips so far, in the order they were sent.
func (r *Recorder) Trips() []Trip {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Trip(nil), r.trips...)
}

// Batches is how many batches were sent (RunBatch).
func (r *Recorder) Batches() int { return r.count(func(t Trip) int { return b2i(!t.Alone) }) }

// Alone is how many cases were sent alone (Normalize).
func (r *Recorder) Alone() int { return r.count(func(t Trip) int { return b2i(t.Alone) }) }

// Requests is how many cases were sent in all.
func (r *Recorder) Requests() int { return r.count(func(t Trip) int { return len(t.Cases) }) }

// Largest is the size of the largest batch.
func (r *Recorder) Largest() int {
	n := 0
	for _, t := range r.Trips() {
		if !t.Alone {
			n = max(n, len(t.Cases))
		}
	}
	return n
}

// MostAtOnce is the most batches that were under way at the same time.
func (r *Recorder) MostAtOnce() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.most
}

// Sent is how many times each case was sent, by Key.
func (r *Recorder) Sent() map[string]int {
	m := map[string]int{}
	for _, t := range r.Trips() {
		for _, c := range t.Cases {
			m[c.Key()]++
		}
	}
	return m
}

func (r *Recorder) count(f func(Trip) int) int {
	n := 0
	for _, t := range r.Trips() {
		n += f(t)
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A Declaring implementation declares the repairs it does (it is an
// impl.Configured) and runs the reference with a bug of its own: Bug
// changes the options each case is run under (nil: none).
type Declaring struct {
	Called  string
	Repairs normalize.Repairs
	Bug     func(impl.Options) impl.Options
}

// Name is what it is called.
func (d Declaring) Name() string { return d.Called }

// Options declares its repairs.
func (d Declaring) Options() impl.Options { return impl.Options{Repairs: d.Repairs} }

// Normalize runs the reference on c under the options Bug gives.
func (d Declaring) Normalize(ctx context.Context, c impl.Case) impl.Result {
	if d.Bug != nil {
		c.Options = d.Bug(c.Options)
	}
	return impl.Reference.Normalize(ctx, c)
}

// Edited is the reference with its answer edited, for a test's made-up
// bug: edit gets the arguments as the reference gives them (an object)
// and changes them in place. An answer that is not an object, or a
// failure, is given as it is.
func Edited(name string, edit func(args *jsonvalue.Value)) impl.Impl {
	return impl.Func(name, func(ctx context.Context, c impl.Case) impl.Result {
		r := impl.Reference.Normalize(ctx, c)
		v, err := jsonvalue.Parse(r.Output)
		if !r.Answered() || err != nil || v.Kind != jsonvalue.Object {
			return r
		}
		edit(v)
		return impl.OK(v.Append(nil))
	})
}

// ReadsSchema is the reference reading the schema as edit leaves it, for
// a test's made-up bug in reading schemas: edit gets the schema parsed
// and changes it in place. A schema that does not parse is read as it is.
func ReadsSchema(name string, edit func(schema *jsonvalue.Value)) impl.Impl {
	return impl.Func(name, func(ctx context.Context, c impl.Case) impl.Result {
		if s, err := jsonvalue.Parse(c.Schema); err == nil {
			edit(s)
			c.Schema = s.Append(nil)
		}
		return impl.Reference.Normalize(ctx, c)
	})
}
