package check

import (
	"context"
	"sync"

	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
)

// The phases of a check that send requests to the program, in the order
// --jobs 1 sends them: with --jobs N and --checks, the corpus is replayed
// beside the rounds.
const (
	phaseCorpus = iota
	phaseRounds
	phaseRootCauses
	phases
)

// ledger records, for a check whose program runs as a harness.Pool of
// several runs, which requests failed, batch by batch, phase by phase,
// each batch in the order of its cases: what one run of the program would
// have kept its rules of giving up over (docs/protocol.md, "Giving up").
// Each run of a pool keeps them over the requests it took, in the order
// they came, so when one run would have given up on something, or a run
// did, the check is run again on one run (serial): the report is then
// the same whatever --jobs is, as when nothing was given up on.
type ledger struct {
	pool *harness.Pool
	// stop stops the check under way, once a run gave up on something:
	// it is run again on one run.
	stop    func()
	mu      sync.Mutex
	batches [phases][][]bool
}

// newLedger returns a ledger for the check cfg, or nil when its reports
// are the same whatever --jobs is without one: it runs under a budget (how
// much runs depends on time), or not on several runs of a program.
func newLedger(cfg Config, stop func()) *ledger {
	p, ok := cfg.Impl.(*harness.Pool)
	if !ok || p.Size() < 2 || cfg.Checks <= 0 {
		return nil
	}
	return &ledger{pool: p, stop: stop}
}

// add records a batch of phase, its results in the order of its cases.
// A case not sent (not sendable, not run) is no request.
func (l *ledger) add(phase int, got []impl.Result) {
	if l == nil {
		return
	}
	b := make([]bool, 0, len(got))
	for _, r := range got {
		switch r.Kind() {
		case impl.KindNotSendable, impl.KindNotRun:
		case impl.KindTimeout, impl.KindCrash, impl.KindProtocol:
			b = append(b, true)
		default:
			b = append(b, false)
		}
	}
	l.mu.Lock()
	l.batches[phase] = append(l.batches[phase], b)
	l.mu.Unlock()
	if l.pool.Ruled() {
		l.stop()
	}
}

// serial reports whether the check must run again on one run of the
// program: a run gave up on something, or one run would have.
func (l *ledger) serial() bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var all [][]bool
	for _, p := range l.batches {
		all = append(all, p...)
	}
	return l.pool.Ruled() || l.pool.WouldGiveUp(all)
}

// sends is the implementation the requests of phase go to: cfg.Impl,
// recorded in the ledger if there is one.
func (e *run) sends(phase int) impl.Impl {
	if e.ledger == nil {
		return e.cfg.Impl
	}
	return &recorded{Pool: e.ledger.pool, l: e.ledger, phase: phase}
}

// recorded is a pool whose batches are recorded in a ledger.
type recorded struct {
	*harness.Pool
	l     *ledger
	phase int
}

func (r *recorded) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return r.RunBatch(ctx, []impl.Case{c})[0]
}

func (r *recorded) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	got := r.Pool.RunBatch(ctx, cases)
	r.l.add(r.phase, got)
	return got
}
