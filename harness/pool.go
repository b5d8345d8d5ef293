package harness

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/toolnorm/toolnorm/impl"
)

// Pool is n runs of one adapter, each case sent to one of them: a batch
// is cut into as many runs of consecutive cases, sent at once, and the
// results come back in the order of the cases. Like an Adapter, it is an
// impl.Impl, an impl.Configured and an impl.Batcher; unlike one, batches
// may be sent from several goroutines at once.
type Pool struct {
	cfg      Config
	adapters []*Adapter
	free     chan *Adapter
}

// minShare is the fewest cases of a batch worth a run of their own.
const minShare = 4

// StartPool starts n runs of the adapter (at least one) at once. They must
// name the same implementation and declare the same reading. It fails as
// Start does if one cannot be started (each distinct failure said once),
// and then stops the others.
func StartPool(cfg Config, n int) (*Pool, error) {
	return StartPoolContext(context.Background(), cfg, n)
}

// StartPoolContext is StartPool whose starts wait only until ctx is done,
// as StartContext's do.
func StartPoolContext(ctx context.Context, cfg Config, n int) (*Pool, error) {
	n = max(n, 1)
	adapters := make([]*Adapter, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { adapters[i], errs[i] = StartContext(ctx, cfg) })
	}
	wg.Wait()
	cfg.defaults()
	p := &Pool{cfg: cfg, free: make(chan *Adapter, n)}
	for i, a := range adapters {
		if a == nil {
			continue
		}
		if len(p.adapters) > 0 {
			if first := p.adapters[0]; a.Name() != first.Name() || !a.Options().Same(first.Options()) {
				errs[i] = fmt.Errorf("harness: %q: one run names itself %q declaring %v, another %q declaring %v", cfg.Command, a.Name(), a.Declares().Options(), first.Name(), first.Declares().Options())
			}
		}
		p.adapters = append(p.adapters, a)
	}
	if err := errors.Join(distinct(errs)...); err != nil {
		p.Close()
		return nil, err
	}
	for _, a := range p.adapters {
		p.free <- a
	}
	return p, nil
}

// distinct returns errs without those that say what an earlier one said:
// an adapter that cannot start fails so in every run, and is said once.
func distinct(errs []error) []error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err)
		}
	}
	return out
}

// Size is how many runs of the adapter the pool has.
func (p *Pool) Size() int { return len(p.adapters) }

// Name names the implementation, as Adapter.Name.
func (p *Pool) Name() string { return p.adapters[0].Name() }

// Info is what the adapter said of its implementation.
func (p *Pool) Info() Info { return p.adapters[0].Info() }

// Declares is the reading the adapter declared.
func (p *Pool) Declares() Declares { return p.adapters[0].Declares() }

// Options are the options the adapter runs under, as it declared them.
func (p *Pool) Options() impl.Options { return p.adapters[0].Options() }

// Normalize sends one request to a run that is free.
func (p *Pool) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return p.RunBatch(ctx, []impl.Case{c})[0]
}

// RunBatch cuts cases into runs of consecutive cases, one per run of the
// adapter (none shorter than minShare), sends each to a free run, and
// returns the results in the order of the cases (see Adapter.RunBatch).
func (p *Pool) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	return p.runBatch(ctx, cases, (*Adapter).RunBatch)
}

// CoverageUnit is what the ids of the runs' coverage count, or "" when
// they offer none (impl.Coverer): every run must offer it for the pool to.
func (p *Pool) CoverageUnit() string {
	unit := p.adapters[0].CoverageUnit()
	for _, a := range p.adapters[1:] {
		if a.CoverageUnit() != unit {
			return ""
		}
	}
	return unit
}

// RunCovered is RunBatch with each request asking for its coverage
// (impl.Coverer), as Adapter.RunCovered does.
func (p *Pool) RunCovered(ctx context.Context, cases []impl.Case) []impl.Result {
	if p.CoverageUnit() == "" {
		return p.RunBatch(ctx, cases)
	}
	return p.runBatch(ctx, cases, (*Adapter).RunCovered)
}

func (p *Pool) runBatch(ctx context.Context, cases []impl.Case, run func(*Adapter, context.Context, []impl.Case) []impl.Result) []impl.Result {
	parts := min(len(p.adapters), max(len(cases)/minShare, 1))
	if parts <= 1 {
		a := <-p.free
		defer func() { p.free <- a }()
		return run(a, ctx, cases)
	}
	results := make([]impl.Result, len(cases))
	var wg sync.WaitGroup
	for k := range parts {
		lo, hi := k*len(cases)/parts, (k+1)*len(cases)/parts
		wg.Go(func() {
			a := <-p.free
			defer func() { p.free <- a }()
			copy(results[lo:hi], run(a, ctx, cases[lo:hi]))
		})
	}
	wg.Wait()
	return results
}

// Events returns the misbehaviours recorded so far by every run, in the
// order of their requests' ids (each run numbers its own requests).
func (p *Pool) Events() []Event {
	var all []Event
	for _, a := range p.adapters {
		all = append(all, a.Events()...)
	}
	slices.SortStableFunc(all, func(x, y Event) int { return x.Request - y.Request })
	return all
}

// Confirm sends the requests charged by elimination again, alone, the
// first n at most (n <= 0: all), as Adapter.Confirm does: which n does not
// depend on which run took which request, for they are taken in the order
// of their requests' text across the runs. Each run sends again those it
// charged, the runs at once. It returns how many were sent.
func (p *Pool) Confirm(ctx context.Context, n int) int {
	type held struct {
		charge
		run int
	}
	var all []held
	for k, a := range p.adapters {
		for _, c := range a.charges() {
			all = append(all, held{c, k})
		}
	}
	slices.SortFunc(all, func(x, y held) int {
		return cmp.Or(compareCharges(x.charge, y.charge), cmp.Compare(x.run, y.run))
	})
	if n > 0 && len(all) > n {
		all = all[:n]
	}
	byRun := make([][]charge, len(p.adapters))
	for _, h := range all {
		byRun[h.run] = append(byRun[h.run], h.charge)
	}
	sent := make([]int, len(p.adapters))
	var wg sync.WaitGroup
	for k, a := range p.adapters {
		if len(byRun[k]) > 0 {
			wg.Go(func() { sent[k] = a.confirm(ctx, byRun[k]) })
		}
	}
	wg.Wait()
	total := 0
	for _, s := range sent {
		total += s
	}
	return total
}

// Restarts returns how often the runs were restarted, in all.
func (p *Pool) Restarts() int {
	n := 0
	for _, a := range p.adapters {
		n += a.Restarts()
	}
	return n
}

// GaveUp returns why a run was given up for good, or nil.
func (p *Pool) GaveUp() error {
	for _, a := range p.adapters {
		if err := a.GaveUp(); err != nil {
			return err
		}
	}
	return nil
}

// Serial starts the adapter again, afresh, as a pool of one run: what a
// check needs to be sent one run's way, when Ruled or WouldGiveUp says
// that the runs of p may have given up on other requests than one run.
func (p *Pool) Serial() (*Pool, error) { return p.SerialContext(context.Background()) }

// SerialContext is Serial whose start waits only until ctx is done, as
// StartContext's does.
func (p *Pool) SerialContext(ctx context.Context) (*Pool, error) {
	return StartPoolContext(ctx, p.cfg, 1)
}

// Ruled reports whether a run applied a rule of giving up (on the rest of
// a batch, or on the adapter for good) or failed to start. Each run keeps
// the rules over the requests it took, in the order they came: what it
// gave up on depends on which run took which part of a batch, and on the
// order batches sent at once came in.
func (p *Pool) Ruled() bool {
	for _, a := range p.adapters {
		a.mu.Lock()
		ruled := a.ruled
		a.mu.Unlock()
		if ruled {
			return true
		}
	}
	return false
}

// WouldGiveUp reports whether one run of the adapter, sent batches one
// after the other and failing (a timeout, a crash, a protocol error) on
// the requests marked true, would give up on the rest of a batch or on the
// adapter for good (Config.MaxRestarts, Config.MaxFailures), as a run
// keeps these rules. It errs on the side of yes: a batch whose last
// requests fail MaxRestarts times in a row counts as given up on, though
// nothing of it was left; and a failure charged to a request that was
// answered when sent again alone (Event.Answered: the adapter died
// holding answers), which a run counts and no mark shows, is counted as
// falling in every batch and in every 100 requests.
func (p *Pool) WouldGiveUp(batches [][]bool) bool {
	slack := 0
	for _, e := range p.Events() {
		if e.Answered {
			slack++
		}
	}
	var recent [100]bool
	failures, next := 0, 0
	for _, b := range batches {
		inARow, inBatch := 0, 0
		for _, failed := range b {
			i := next % len(recent)
			if next >= len(recent) && recent[i] {
				failures--
			}
			recent[i] = failed
			next++
			if !failed {
				inARow = 0
				continue
			}
			failures++
			inBatch++
			inARow++
			if inARow >= p.cfg.MaxRestarts || slack > 0 && inBatch+slack >= p.cfg.MaxRestarts || failures+slack >= p.cfg.MaxFailures {
				return true
			}
		}
	}
	return false
}

// Close stops every run.
func (p *Pool) Close() error {
	var wg sync.WaitGroup
	for _, a := range p.adapters {
		wg.Go(func() { a.Close() })
	}
	wg.Wait()
	return nil
}
