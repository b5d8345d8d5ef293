package coalesce

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// crashy records the batches it is sent and, as a program behind the
// protocol that crashes on a case does, fails the case whose arguments
// hold "crash" and every case after it in the batch.
type crashy struct {
	mu      sync.Mutex
	batches [][]string
}

func (*crashy) Name() string { return "crashy" }

func (p *crashy) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return p.RunBatch(ctx, []impl.Case{c})[0]
}

func (p *crashy) RunBatch(_ context.Context, cases []impl.Case) []impl.Result {
	batch := make([]string, len(cases))
	out := make([]impl.Result, len(cases))
	down := false
	for i, c := range cases {
		batch[i] = string(c.Args)
		down = down || strings.Contains(string(c.Args), "crash")
		if down {
			out[i] = impl.Fail(impl.ErrCrash, "exit status 1")
		} else {
			out[i] = impl.Result{Output: c.Args}
		}
	}
	p.mu.Lock()
	p.batches = append(p.batches, batch)
	p.mu.Unlock()
	return out
}

// lockstepRun has workers take tasks one after the other, each asking
// for cases that depend on the answers to the ones before (as a
// minimizer does), with goroutines yielding at random; it returns the
// batches the program got.
func lockstepRun(t *testing.T, seed uint64, keep func(impl.Result) bool) [][]string {
	p := &crashy{}
	k := New(context.Background(), p, keep)
	defer k.Release()
	const workers, tasks = 6, 20
	rnd := rand.New(rand.NewPCG(seed, 0))
	var rmu sync.Mutex
	yield := func() {
		rmu.Lock()
		n := rnd.IntN(4)
		rmu.Unlock()
		for range n {
			runtime.Gosched()
		}
	}
	var next sync.Mutex
	task := 0
	var wg sync.WaitGroup
	ws := make([]*Worker, workers)
	for i := range ws {
		ws[i] = k.Join(-1)
	}
	for _, w := range ws {
		wg.Go(func() {
			defer w.Leave()
			ctx := w.Context(context.Background())
			for {
				next.Lock()
				i := task
				task++
				next.Unlock()
				if i >= tasks {
					return
				}
				w.Rank(i)
				yield()
				// Task i asks for i%4+1 steps of i%3+1 cases; a crash
				// among the answers changes the next step's cases.
				crashed := 0
				for s := range i%4 + 1 {
					cases := make([]impl.Case, i%3+1)
					for j := range cases {
						a := fmt.Sprintf("t%d.s%d.c%d.x%d", i, s, j, crashed)
						if (i+s+j)%7 == 0 {
							a += ".crash"
						}
						if j == 0 && s > 0 {
							a = fmt.Sprintf("shared.s%d.x%d", s, crashed%2)
						}
						cases[j] = impl.Case{Schema: []byte(`{}`), Args: []byte(a)}
					}
					yield()
					var rs []impl.Result
					if len(cases) == 1 && i%2 == 0 {
						rs = []impl.Result{k.Normalize(ctx, cases[0])}
					} else {
						rs = k.RunBatch(ctx, cases)
					}
					for j, r := range rs {
						if r.Failure != nil {
							crashed++
						} else if string(r.Output) != string(cases[j].Args) {
							t.Errorf("task %d got %s for %s", i, r.Output, cases[j].Args)
						}
					}
					yield()
				}
			}
		})
	}
	wg.Wait()
	return p.batches
}

// TestLockstep: the batches a program gets, which cases and in which
// order, are the same however the workers are scheduled, with results
// kept or not.
func TestLockstep(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, keep := range []struct {
		name string
		f    func(impl.Result) bool
	}{{"none kept", nil}, {"all kept", func(impl.Result) bool { return true }}} {
		t.Run(keep.name, func(t *testing.T) {
			var first [][]string
			for rep := range 20 {
				runtime.GOMAXPROCS(1 + rep%4)
				got := lockstepRun(t, uint64(rep), keep.f)
				if rep == 0 {
					first = got
					if len(got) < 5 {
						t.Fatalf("%d batches: the workers did not meet", len(got))
					}
					continue
				}
				for i := range max(len(got), len(first)) {
					if i >= len(got) || i >= len(first) || !slices.Equal(got[i], first[i]) {
						t.Fatalf("repetition %d (GOMAXPROCS %d): %d batches, %d the first time; batch %d differs:\n%v\nwant\n%v", rep, 1+rep%4, len(got), len(first), i, got[i:min(i+1, len(got))], first[i:min(i+1, len(first))])
					}
				}
			}
		})
	}
}

// TestAlone: a caller that did not join is sent at once, and a kept
// result is not asked again.
func TestAlone(t *testing.T) {
	p := &crashy{}
	k := New(context.Background(), p, func(r impl.Result) bool { return r.Failure == nil })
	defer k.Release()
	c := impl.Case{Args: []byte("a")}
	for range 2 {
		if r := k.Normalize(context.Background(), c); string(r.Output) != "a" {
			t.Fatalf("got %s", r.Output)
		}
	}
	if len(p.batches) != 1 {
		t.Errorf("%d batches, want 1: %v", len(p.batches), p.batches)
	}
}

// TestStopped: once the context is done, a worker's cases go out without
// waiting for a worker that does not ask.
func TestStopped(t *testing.T) {
	p := &crashy{}
	ctx, cancel := context.WithCancel(context.Background())
	k := New(ctx, p, nil)
	defer k.Release()
	a, b := k.Join(0), k.Join(1)
	defer b.Leave()
	done := make(chan impl.Result)
	go func() {
		defer a.Leave()
		done <- k.Normalize(a.Context(ctx), impl.Case{Args: []byte("a")})
	}()
	cancel()
	if r := <-done; string(r.Output) != "a" {
		t.Errorf("got %s", r.Output)
	}
}

// givingUp is a program behind the protocol as a harness.Adapter sends a
// batch to it: after 3 failures in a row, the rest of the batch is given
// up (impl.ErrNotRun), and the next batch tries again. It fails every
// case whose arguments hold "bad".
type givingUp struct {
	mu      sync.Mutex
	batches int
}

func (*givingUp) Name() string { return "giving up" }

func (p *givingUp) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return p.RunBatch(ctx, []impl.Case{c})[0]
}

func (p *givingUp) RunBatch(_ context.Context, cases []impl.Case) []impl.Result {
	p.mu.Lock()
	p.batches++
	p.mu.Unlock()
	out := make([]impl.Result, len(cases))
	inARow := 0
	for i, c := range cases {
		switch {
		case inARow >= 3:
			out[i] = impl.Fail(impl.ErrNotRun, "gave up on the rest of this batch")
		case strings.Contains(string(c.Args), "bad"):
			out[i] = impl.Fail(impl.ErrCrash, "exit status 1")
			inARow++
		default:
			out[i] = impl.Result{Output: c.Args}
			inARow = 0
		}
	}
	return out
}

// TestLockstepGivenUp: a batch whose rest the program gave up on (after
// failures in a row, as a harness.Adapter does) has what was given up
// sent again, each worker's part as a batch of its own: every worker gets
// the results it would have had asking alone, none is left not run
// because the others' cases shared its batch.
func TestLockstepGivenUp(t *testing.T) {
	p := &givingUp{}
	k := New(context.Background(), p, nil)
	defer k.Release()
	asks := [][]string{
		{`"bad 1"`, `"bad 2"`},
		{`"bad 3"`, `"ok 2"`, `"ok 3"`},
		{`"ok 4"`, `"bad 4"`},
	}
	ws := make([]*Worker, len(asks))
	for i := range asks {
		ws[i] = k.Join(i)
	}
	got := make([][]impl.Result, len(asks))
	var wg sync.WaitGroup
	for i, args := range asks {
		wg.Go(func() {
			defer ws[i].Leave()
			cases := make([]impl.Case, len(args))
			for j, a := range args {
				cases[j] = impl.Case{Schema: []byte(`{}`), Args: []byte(a)}
			}
			got[i] = k.RunBatch(ws[i].Context(context.Background()), cases)
		})
	}
	wg.Wait()
	for i, args := range asks {
		for j, a := range args {
			r := got[i][j]
			switch {
			case strings.Contains(a, "bad") && r.Kind() != impl.KindCrash,
				!strings.Contains(a, "bad") && (r.Failed() || string(r.Output) != a):
				t.Errorf("worker %d, case %s: %v", i, a, r)
			}
		}
	}
	// One batch, given up after bad 1, bad 2 and bad 3 in a row, then the
	// rest again: worker 1's part from ok 2, and worker 2's.
	if p.batches != 3 {
		t.Errorf("%d batches, want 3 (the shared one, then the rest of worker 1's and worker 2's)", p.batches)
	}
}
