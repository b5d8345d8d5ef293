package harness

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
)

// Config says how to start and watch an adapter.
type Config struct {
	// Command is the adapter's command line, run by sh -c.
	Command string
	// Dir is the directory it runs in ("": the current one).
	Dir string
	// Timeout is how long one request may take (default 10s).
	Timeout time.Duration
	// StartTimeout is how long the answer to start may take (default 30s);
	// StartContext waits no longer than its context either.
	StartTimeout time.Duration
	// MaxRestarts is how many requests of one batch may fail in a row
	// before the rest of that batch is given up (default 20): those get a
	// result that wraps impl.ErrNotRun. The next batch tries again.
	MaxRestarts int
	// MaxFailures is how many of the last 100 requests may fail (time out,
	// crash, break the protocol) before the adapter is given up for good
	// (default 50, half): every request after that gets a crash that wraps
	// impl.ErrGaveUp. An adapter that cannot be started three times in a
	// row is given up for good too.
	MaxFailures int
	// MaxLine, if more than 0, is the longest answer line accepted. An
	// answer to normalize is refused once it is longer than 8 times its
	// request and 1 MiB more (no normalizer's output is that much larger
	// than its input), whatever the request's length; the answer to start,
	// at 64 MiB. Either way it is refused as soon as it passes the limit,
	// without being read whole.
	MaxLine int
	// StderrLimit is how much of the adapter's standard error is kept,
	// its last bytes (default 64 KiB).
	StderrLimit int
	// Window is how many requests are in flight at once (default 128).
	Window int
	// Trace, if set, gets every line sent ("> ") and received ("< ").
	Trace io.Writer
	// Coverage says that the run will ask for coverage (toolnorm fuzz):
	// the start request says so ("coverage":true), for an adapter that
	// must prepare before its code runs (V8 counts the blocks only of
	// functions compiled once its coverage started). It asks for none.
	Coverage bool
}

func (c *Config) defaults() {
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = 30 * time.Second
	}
	if c.MaxRestarts <= 0 {
		c.MaxRestarts = 20
	}
	if c.MaxFailures <= 0 {
		c.MaxFailures = 50
	}
	if c.StderrLimit <= 0 {
		c.StderrLimit = 64 << 10
	}
	if c.Window <= 0 {
		c.Window = 128
	}
}

// Event is one misbehaviour of the adapter, recorded against the request
// that caused it.
type Event struct {
	Kind    string `json:"kind"`    // impl.KindTimeout, KindCrash or KindProtocol, as text
	Request int    `json:"request"` // the request's id
	Detail  string `json:"detail"`
	Stderr  string `json:"stderr,omitempty"` // the end of what the adapter wrote to standard error
	// Answered is true when the request was answered once sent again, on a
	// fresh start of the adapter: the failure did not depend on it.
	Answered bool `json:"answered_when_resent,omitempty"`
	// Deduced is true when the request was blamed without being sent
	// again alone: it was the oldest without an answer when the adapter
	// failed, and every request in flight behind it was answered when sent
	// again to the next run. A failure that depends on what the run did
	// before (not on this request) would be put on it all the same.
	Deduced bool `json:"blamed_by_elimination,omitempty"`
}

// Adapter is a running implementation behind protocol version 1. It is an
// impl.Impl, an impl.Configured and an impl.Batcher. Its methods are safe
// for concurrent use, one batch at a time.
type Adapter struct {
	cfg      Config
	info     Info
	declares Declares

	mu       sync.Mutex
	proc     *process
	nextID   int
	restarts int       // in all
	inARow   int       // failed requests in a row, in this batch
	startErr int       // failed starts in a row
	recent   [100]bool // whether each of the last 100 requests failed, a ring
	next     int       // where the next request goes in recent
	failures int       // in recent
	gaveUp   error
	events   []Event
	sent     map[int][]byte // the request of each event charged by elimination, by the event's index
	trace    sync.Mutex
	// ruled is set once a rule of giving up was applied (the rest of a
	// batch, or the adapter for good) or a start failed: what a run of a
	// Pool gave up on then may differ from what one run alone would have.
	ruled bool
	// spares, once the adapter was restarted, are the next runs being
	// started while the current one works, oldest first, so that the next
	// restart does not wait for the program to start. There are wantSpares
	// of them after a restart: one, and one more (up to maxSpares) each
	// time a restart had to wait for the oldest, the failures coming
	// faster than the program starts.
	spares     []chan spareRun
	wantSpares int
	closing    chan struct{} // closed by Close: a start under way stops
	closeOnce  sync.Once
}

// spareRun is a run of the adapter started ahead of need.
type spareRun struct {
	p     *process
	info  Info
	err   error
	trace []traced // its start, traced when it is taken into use
}

type traced struct {
	prefix string
	b      []byte
}

// Start starts the adapter and reads its answer to start. It fails, with
// what the adapter wrote to standard error, if the adapter cannot be
// started at all.
func Start(cfg Config) (*Adapter, error) { return StartContext(context.Background(), cfg) }

// StartContext is Start that waits for the answer to start only until ctx
// is done (a check's budget spent, an interrupt), if that comes before
// StartTimeout: then the program is killed, and the error says why
// (context.Cause). Once started, the adapter runs until Close, whatever
// becomes of ctx.
func StartContext(ctx context.Context, cfg Config) (*Adapter, error) {
	cfg.defaults()
	if strings.TrimSpace(cfg.Command) == "" {
		return nil, errors.New("harness: no command")
	}
	a := &Adapter{cfg: cfg, closing: make(chan struct{}), sent: map[int][]byte{}, wantSpares: 1}
	p, info, declares, err := a.launch(ctx)
	if err != nil {
		return nil, err
	}
	a.proc, a.info, a.declares = p, info, declares
	return a, nil
}

// Info is what the adapter said of its implementation.
func (a *Adapter) Info() Info { return a.info }

// Declares is the reading the adapter declared.
func (a *Adapter) Declares() Declares { return a.declares }

// Name names the implementation, with its version and language.
func (a *Adapter) Name() string {
	n := a.info.Name
	if a.info.Version != "" {
		n += " " + a.info.Version
	}
	if a.info.Language != "" {
		n += " (" + a.info.Language + ")"
	}
	return n
}

// Options are the options the adapter runs under, as it declared them.
func (a *Adapter) Options() impl.Options { return a.declares.Options() }

// Events returns the misbehaviours recorded so far.
func (a *Adapter) Events() []Event {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Event(nil), a.events...)
}

// Restarts returns how often the adapter was restarted.
func (a *Adapter) Restarts() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.restarts
}

// GaveUp returns why the adapter was given up for good, or nil.
func (a *Adapter) GaveUp() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.gaveUp
}

// Normalize sends one request (see RunBatch).
func (a *Adapter) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return a.RunBatch(ctx, []impl.Case{c})[0]
}

// RunBatch sends the cases, pipelined, and returns one result each, in
// order. A case whose options are not the adapter's own, or whose schema
// or arguments are not JSON, cannot be sent: its result wraps
// impl.ErrNotSendable. A request the adapter fails on (no answer in time,
// a crash, an answer that breaks the protocol) gets that failure; the
// adapter is restarted and the requests after it are sent again. When ctx
// is done, nothing more is sent: the requests without an answer get a
// result that wraps impl.ErrNotRun, and the adapter is stopped.
func (a *Adapter) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	return a.runBatch(ctx, cases, false)
}

// CoverageUnit is what the ids of the adapter's coverage count, or "" when
// it offers none (impl.Coverer).
func (a *Adapter) CoverageUnit() string { return a.info.Coverage }

// RunCovered is RunBatch with each request asking for its coverage, when
// the adapter offers it (impl.Coverer): an answer's Result.Coverage holds
// the ids it gave.
func (a *Adapter) RunCovered(ctx context.Context, cases []impl.Case) []impl.Result {
	return a.runBatch(ctx, cases, a.info.Coverage != "")
}

func (a *Adapter) runBatch(ctx context.Context, cases []impl.Case, cover bool) []impl.Result {
	a.mu.Lock()
	defer a.mu.Unlock()
	results := make([]impl.Result, len(cases))
	lines := make([][]byte, len(cases))
	ids := make([]int, len(cases))
	var todo []int // indexes of the requests that can be sent
	own := a.declares.Options()
	for i, c := range cases {
		if !c.Options.Same(own) {
			results[i] = impl.Fail(impl.ErrNotSendable, fmt.Sprintf("the case is for options %v, the adapter declares %v", c.Options, own))
			continue
		}
		line, err := request(0, c.Schema, c.Args)
		if err != nil {
			results[i] = impl.Fail(impl.ErrNotSendable, err.Error()+", so no JSON line carries it")
			continue
		}
		if cover {
			line = askCoverage(line)
		}
		lines[i] = line
		todo = append(todo, i)
	}
	// An answer line that breaks the protocol but names its request's id
	// (a line with Infinity in it) is that request's failure: the lines
	// are intact, so the adapter goes on. After any other failure (a crash,
	// a line that is not an answer, a timeout), the oldest request without
	// an answer is charged with it, and the requests in flight behind it
	// are sent again to the next run: for an adapter that answers each
	// request before it reads the next, the oldest is the one it was
	// handling, and the failure costs one start. The charge is by
	// elimination (Event.Deduced) unless the request was alone on a start
	// made for it after a failure in this batch: a batch of one is charged
	// by elimination whatever run takes it (brand new, started again or
	// worn), since which run of a Pool takes it depends on timing. If one of those behind it fails on the next run before that
	// run answered anything, the charge is in doubt (an adapter may buffer its answers, and die holding
	// several): the request charged is sent again alone to a fresh start,
	// and the others after it one at a time. Answered then, its failure is
	// recorded as answered when sent again; failing again, the charge
	// stands. Confirm sends charges by elimination again alone, later.
	serial := 0 // while > 0, requests are sent one at a time
	// charged are the requests charged by elimination, each with the index
	// of its event; behind maps a request to those charged while it was in
	// flight behind them; again is the request charged that is sent again
	// alone (-1: none).
	charged := map[int]int{}
	behind := map[int][]int{}
	again := -1
	// fresh is true while the run was started in this batch, after a
	// failure in it; sent, once a window was sent.
	fresh, sent := false, false
	a.inARow = 0
	for len(todo) > 0 {
		if err := ctx.Err(); err != nil {
			for _, i := range todo {
				results[i] = impl.Fail(impl.ErrNotRun, "the check stopped: "+err.Error())
			}
			return results
		}
		giveUp := a.gaveUp
		if giveUp == nil && a.inARow >= a.cfg.MaxRestarts {
			giveUp = fmt.Errorf("%w: gave up on the %d requests left of this batch after %d failures in a row", impl.ErrNotRun, len(todo), a.inARow)
		}
		if giveUp != nil {
			a.ruled = true
			for _, i := range todo {
				results[i] = impl.Fail(giveUp, giveUp.Error())
			}
			return results
		}
		if again >= 0 && a.proc != nil && a.proc.answered > 0 {
			a.proc.kill() // the request charged goes to a fresh start
			a.proc = nil
		}
		if a.proc == nil {
			began := time.Now()
			if err := a.restart(ctx, maxSpares); err != nil {
				if ctx.Err() != nil {
					// Cut short by ctx: not a failure of the program. The
					// request it was for, not sent, had waited since the
					// restart began.
					waited := time.Since(began)
					results[todo[0]] = impl.Fail(&impl.InFlight{Waited: waited, NotSent: true}, fmt.Sprintf("waiting for the adapter to start again for %v when the check stopped (%v)", waited.Round(time.Millisecond), context.Cause(ctx)))
					for _, i := range todo[1:] {
						results[i] = impl.Fail(impl.ErrNotRun, "the check stopped: "+ctx.Err().Error())
					}
					return results
				}
				a.ruled = true
				if a.startErr++; a.startErr >= 3 {
					a.gaveUp = fmt.Errorf("%w: %w: %v", impl.ErrCrash, impl.ErrGaveUp, err)
				}
				a.inARow++
				continue
			}
			a.startErr = 0
			fresh = sent
		}
		size := a.cfg.Window
		if serial > 0 {
			size = 1
		}
		window := todo[:min(len(todo), size)]
		limit, size := 0, 0
		for _, i := range window {
			size += len(lines[i]) + 20
		}
		batch := make([]byte, 0, size)
		for _, i := range window {
			a.nextID++
			ids[i] = a.nextID
			batch = appendWithID(batch, lines[i], ids[i])
			limit = max(limit, 8*len(lines[i])+1<<20)
		}
		a.proc.limit.Store(int64(a.lineLimit(limit)))
		a.traceLines("> ", batch)
		a.proc.send(batch)
		sent = true
		done := 0
		for k, i := range window {
			r, ok, named := a.receive(ctx, ids[i], k == len(window)-1)
			if ok || named {
				// An answer, or a line that names its request: no restart,
				// and the answers behind it are read. A named line says
				// it all: standard error, which the run may be writing
				// for the requests behind it, is not kept.
				results[i] = r
				done++
				if serial > 0 {
					serial--
				}
				a.proc.answered++
				if i == again {
					delete(a.sent, charged[i])
					ev := &a.events[charged[i]]
					ev.Answered, ev.Deduced = true, false
					delete(charged, i)
					again = -1
					if named {
						a.recordLine(r, ids[i])
					}
					continue
				}
				if named {
					a.recordLine(r, ids[i])
					a.inARow++
				} else {
					a.inARow = 0
					a.outcome(false)
				}
				continue
			}
			if r.Kind() == impl.KindNotRun {
				// Answers still on their way would be read as the answers
				// of the next batch: this run of the adapter ends here.
				a.proc.kill()
				a.proc = nil
				results[i] = r // in flight, for so long
				done++
				break // the loop's first check ends the batch
			}
			// A run that failed before it answered anything, on a request
			// in flight behind one charged before: the failure that
			// charged it may have been this request's, with answers lost
			// in a buffer.
			var doubted []int
			for _, k := range behind[i] {
				if a.proc.answered > 0 {
					break
				}
				if _, ok := charged[k]; ok && !slices.Contains(doubted, k) {
					doubted = append(doubted, k)
				}
			}
			delete(behind, i)
			switch {
			case i == again:
				// Alone on a fresh start, it failed again: the charge
				// stands, for certain.
				a.events[charged[i]].Deduced = false
				results[i] = r
				delete(a.sent, charged[i])
				delete(charged, i)
				again = -1
				done++
				if serial > 0 {
					serial--
				}
			case len(doubted) > 0:
				// It was in flight behind a request charged before: that
				// charge is in doubt. The first of them goes again alone
				// to a fresh start, then this one and the rest one at a
				// time (the others stay in doubt: Confirm).
				k := doubted[0]
				again = k
				rest := append([]int{k}, todo[done:]...)
				serial = len(window) - done + 1
				for _, j := range window[done:] {
					behind[j] = slices.DeleteFunc(behind[j], func(x int) bool { return x == k })
				}
				todo = rest
				done = 0
			default:
				// The oldest without an answer: charged with it, the
				// requests behind it sent again to the next run.
				a.record(r, ids[i])
				if done < len(window)-1 || a.proc.answered > 0 || !fresh {
					ev := len(a.events) - 1
					a.events[ev].Deduced = true
					charged[i] = ev
					a.sent[ev] = lines[i]
					for _, j := range window[done+1:] {
						behind[j] = append(behind[j], i)
					}
					r.Failure = fmt.Errorf("%w (%w)", r.Failure, impl.ErrDeduced)
				}
				results[i] = r
				done++
				a.inARow++
				if serial > 0 {
					serial--
				}
			}
			a.proc.kill()
			a.proc = nil
			break
		}
		todo = todo[done:]
	}
	return results
}

// Confirm sends the requests charged by elimination (Event.Deduced)
// again, each alone to a fresh start of the adapter, the first n of them
// at most (n <= 0: all), until ctx is done: one that fails again is
// charged for certain; one answered has its failure recorded as answered
// when sent again, a failure of the adapter that did not depend on it.
// The results already returned stay as they were. It returns how many it
// sent.
func (a *Adapter) Confirm(ctx context.Context, n int) int {
	evs := a.charges()
	if n > 0 && len(evs) > n {
		evs = evs[:n]
	}
	return a.confirm(ctx, evs)
}

// charge is an event charged by elimination, not yet sent again.
type charge struct {
	ev   int    // its index in events
	line []byte // its request, without an id
}

// charges returns the events charged by elimination, in the order of
// their requests' text (then of the events): the order Confirm takes
// them in, which does not depend on the ids or on when they were sent.
func (a *Adapter) charges() []charge {
	a.mu.Lock()
	defer a.mu.Unlock()
	cs := make([]charge, 0, len(a.sent))
	for ev, line := range a.sent {
		cs = append(cs, charge{ev, line})
	}
	slices.SortFunc(cs, compareCharges)
	return cs
}

func compareCharges(x, y charge) int {
	return cmp.Or(bytes.Compare(x.line, y.line), cmp.Compare(x.ev, y.ev))
}

// confirm is Confirm for the charges given.
func (a *Adapter) confirm(ctx context.Context, evs []charge) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	sent := 0
	for k, c := range evs {
		ev := c.ev
		line, ok := a.sent[ev]
		if !ok {
			continue // sent again meanwhile
		}
		if ctx.Err() != nil || a.gaveUp != nil {
			break
		}
		if a.proc != nil && a.proc.answered > 0 {
			a.proc.kill()
			a.proc = nil
		}
		if a.proc == nil {
			// No spare is started that no confirmation left can take:
			// the last confirmation's run, or the last spare, is the last
			// start.
			if err := a.restart(ctx, len(evs)-k-1); err != nil {
				break // the charges stand, by elimination (or ctx is done)
			}
		}
		sent++
		delete(a.sent, ev)
		a.nextID++
		id := a.nextID
		a.proc.limit.Store(int64(a.lineLimit(8*len(line) + 1<<20)))
		b := withID(line, id)
		a.traceLines("> ", b)
		a.proc.send(b)
		r, answered, named := a.receive(ctx, id, true)
		e := &a.events[ev]
		switch {
		case answered || named:
			e.Answered, e.Deduced = true, false
			a.proc.answered++
		case r.Kind() == impl.KindNotRun:
			a.proc.kill()
			a.proc = nil
			return sent
		default:
			e.Deduced = false
			a.proc.kill()
			a.proc = nil
		}
	}
	return sent
}

// receive waits for the answer to request id, until the time limit or
// until ctx is done (so never past the check's deadline). A request ctx
// stops is in flight: its result says how long it had waited (since the
// answer before it, the requests being pipelined). It reports whether it
// is an answer (ok), and whether a line that breaks the protocol names id
// as its request's (named).
//
// When id is the last request sent (last), its answer says the adapter
// read every request: the write of them has ended, or ends at once. If it
// has not ended within the time limit, the answer came before its request
// was read (an adapter that answers without reading its input): a
// protocol error, and the write is left to the kill that follows.
func (a *Adapter) receive(ctx context.Context, id int, last bool) (r impl.Result, ok, named bool) {
	l, r, got := a.nextLine(ctx)
	if !got {
		return r, false, false
	}
	if last && l.err == nil && a.proc.pending() {
		began := time.Now()
		switch err := a.proc.written(ctx, a.cfg.Timeout); {
		case err == errNotRead:
			a.traceLines("< ", append(l.data, '\n'))
			return protocolError("the answer came before the adapter read its request: the requests sent were still not all read %v after it (does the adapter read its input?)", a.cfg.Timeout), false, false
		case err != nil:
			return a.stopped(ctx, began), false, false
		}
	}
	return a.answer(l, id)
}

// nextLine waits for the next line of the adapter's output, until the time
// limit or ctx is done (then got is false and r says which). A line read
// already, the adapter working ahead of toolnorm, is taken without a
// timer.
func (a *Adapter) nextLine(ctx context.Context) (l line, r impl.Result, got bool) {
	select {
	case l := <-a.proc.lines:
		a.proc.took(l)
		return l, impl.Result{}, true
	default:
	}
	start := time.Now()
	timer := time.NewTimer(a.cfg.Timeout)
	defer timer.Stop()
	select {
	case l := <-a.proc.lines:
		a.proc.took(l)
		return l, impl.Result{}, true
	case <-timer.C:
		return line{}, impl.Fail(impl.ErrTimeout, fmt.Sprintf("no answer within %v", a.cfg.Timeout)), false
	case <-ctx.Done():
		return line{}, a.stopped(ctx, start), false
	}
}

// stopped is the result of a request in flight since start when ctx was
// done.
func (a *Adapter) stopped(ctx context.Context, start time.Time) impl.Result {
	waited := time.Since(start)
	return impl.Fail(&impl.InFlight{Waited: waited}, fmt.Sprintf("in flight for %v when the check stopped (%v)", waited.Round(time.Millisecond), context.Cause(ctx)))
}

// answer is receive's reading of the line l.
func (a *Adapter) answer(l line, id int) (r impl.Result, ok, named bool) {
	switch {
	case errors.Is(l.err, errTooLong):
		return protocolError("the answer is longer than %d bytes (the limit for this request)", a.proc.limit.Load()), false, false
	case l.err != nil:
		return impl.Fail(impl.ErrCrash, a.proc.exitDetail()), false, false
	}
	a.traceLines("< ", append(l.data, '\n'))
	r = parseAnswer(l.data, id)
	if r.Kind() == impl.KindProtocol {
		return r, false, namesID(l.data, id)
	}
	return r, !r.Failed() || r.Kind() == impl.KindNotSendable, false // an answer all the same
}

func (a *Adapter) record(r impl.Result, id int) {
	stderr := ""
	if a.proc != nil {
		stderr = a.proc.stderr.String()
	}
	a.recordEvent(Event{Kind: r.Kind().String(), Request: id, Detail: r.Detail, Stderr: stderr})
}

// recordLine records a failure shown by its answer line alone.
func (a *Adapter) recordLine(r impl.Result, id int) {
	a.recordEvent(Event{Kind: r.Kind().String(), Request: id, Detail: r.Detail})
}

func (a *Adapter) recordEvent(e Event) {
	a.events = append(a.events, e)
	a.outcome(true)
	if a.failures >= a.cfg.MaxFailures && a.gaveUp == nil {
		a.ruled = true
		a.gaveUp = fmt.Errorf("%w: %w: %d of the last %d requests failed, so nothing more was sent to the adapter", impl.ErrCrash, impl.ErrGaveUp, a.failures, min(a.next, len(a.recent)))
	}
}

// outcome records whether a request failed, in the ring of the last 100.
func (a *Adapter) outcome(failed bool) {
	i := a.next % len(a.recent)
	if a.next >= len(a.recent) && a.recent[i] {
		a.failures--
	}
	a.recent[i] = failed
	if failed {
		a.failures++
	}
	a.next++
}

// maxSpares is the most spares an adapter keeps: one per core (a start
// is mostly the program's own work on a core), at most 4.
var maxSpares = max(1, min(runtime.NumCPU(), 4))

// restart starts the adapter again and replays start: it takes a spare
// run if one was started (the first that is ready, else the oldest, and
// then it keeps one spare more, up to maxSpares), and starts spares until
// there are wantSpares of them, or limit. It waits for the start only until ctx is done:
// then it returns an error, and the restart is not counted (the spares
// under way are left for the next restart, or for Close).
func (a *Adapter) restart(ctx context.Context, limit int) error {
	var p *process
	var info Info
	var err error
	if len(a.spares) > 0 {
		i := slices.IndexFunc(a.spares, func(s chan spareRun) bool { return len(s) > 0 })
		if i < 0 {
			i = 0 // none ready: the oldest
			a.wantSpares = min(a.wantSpares+1, maxSpares)
		}
		var r spareRun
		select {
		case r = <-a.spares[i]:
		case <-ctx.Done():
			return fmt.Errorf("restart %d: cut short: %w", a.restarts+1, context.Cause(ctx))
		}
		a.spares = slices.Delete(a.spares, i, i+1)
		p, info, err = r.p, r.info, r.err
		for _, t := range r.trace {
			a.traceLines(t.prefix, t.b)
		}
		if p != nil && p.hasExited() {
			p.kill()
			p = nil
		}
	}
	if p == nil && err == nil {
		a.startSpares(limit)
		p, info, _, err = a.launch(ctx)
		if err != nil && ctx.Err() != nil {
			return fmt.Errorf("restart %d: cut short: %w", a.restarts+1, err)
		}
	}
	a.restarts++
	a.startSpares(limit)
	if err != nil {
		return fmt.Errorf("restart %d failed: %v", a.restarts, err)
	}
	if info.Name != a.info.Name {
		p.kill()
		return fmt.Errorf("restart %d: the adapter now names itself %q, not %q", a.restarts, info.Name, a.info.Name)
	}
	a.proc = p
	return nil
}

// startSpares starts spares until there are wantSpares of them, at most
// limit.
func (a *Adapter) startSpares(limit int) {
	for len(a.spares) < min(a.wantSpares, limit) {
		next := make(chan spareRun, 1)
		a.spares = append(a.spares, next)
		go func() {
			var lines []traced
			// Started ahead of need, for no request: only Close stops it.
			p, info, _, err := a.launchTraced(context.Background(), func(prefix string, b []byte) {
				lines = append(lines, traced{prefix, bytes.Clone(b)})
			})
			next <- spareRun{p, info, err, lines}
		}()
	}
}

// launch starts the program and reads its answer to start, until
// StartTimeout, Close or ctx is done.
func (a *Adapter) launch(ctx context.Context) (*process, Info, Declares, error) {
	return a.launchTraced(ctx, a.traceLines)
}

// launchTraced is launch with the start's lines traced by trace.
func (a *Adapter) launchTraced(ctx context.Context, trace func(prefix string, b []byte)) (*process, Info, Declares, error) {
	p, err := startProcess(a.cfg)
	if err != nil {
		return nil, Info{}, Declares{}, fmt.Errorf("harness: cannot start %q: %v", a.cfg.Command, err)
	}
	hint := ""
	if a.cfg.Coverage {
		hint = `,"coverage":true`
	}
	start := fmt.Appendf(nil, `{"cmd":"start","version":%d%s}`+"\n", Version, hint)
	trace("> ", start)
	p.send(start)
	timer := time.NewTimer(a.cfg.StartTimeout)
	defer timer.Stop()
	fail := func(format string, args ...any) (*process, Info, Declares, error) {
		p.kill()
		return nil, Info{}, Declares{}, startFailure(a.cfg.Command, fmt.Sprintf(format, args...), p.stderr.String())
	}
	select {
	case <-a.closing:
		return fail("the adapter was closed while it started")
	case <-ctx.Done():
		return fail("the start was cut short: %v", context.Cause(ctx))
	case l := <-p.lines:
		p.took(l)
		if l.err != nil {
			return fail("no answer to start: %s", p.exitDetail())
		}
		trace("< ", append(l.data, '\n'))
		info, declares, err := parseStart(l.data)
		if err != nil {
			return fail("%v", err)
		}
		return p, info, declares, nil
	case <-timer.C:
		return fail("no answer to start within %v", a.cfg.StartTimeout)
	}
}

// stderrShown is how much of the end of its standard error the error of
// an adapter that cannot start shows, as a report does.
const stderrShown = 2000

// startFailure is the error of an adapter that cannot start: why, and the
// end of its standard error, shown as every report shows an adapter's
// text (display.Lines): escaped, so that no control character reaches
// the terminal and no line acts as a CI workflow command.
func startFailure(command, why, stderr string) error {
	msg := display.Lines(fmt.Sprintf("harness: %q: %s", command, why))
	if tail := strings.TrimSpace(stderr); tail != "" {
		msg += "; its standard error ends:\n" + display.Lines(display.Tail(tail, stderrShown))
	}
	return errors.New(msg)
}

func (a *Adapter) traceLines(prefix string, b []byte) {
	if a.cfg.Trace == nil {
		return
	}
	a.trace.Lock()
	defer a.trace.Unlock()
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(line) > 0 {
			a.cfg.Trace.Write(append([]byte(prefix), line...))
		}
	}
}

// Close asks the adapter to stop, and kills it if it does not within a
// second. An adapter that has not read all it was sent is killed at once.
func (a *Adapter) Close() error {
	a.closeOnce.Do(func() { close(a.closing) })
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range a.spares {
		if r := <-s; r.p != nil {
			r.p.kill()
		}
	}
	a.spares = nil
	if a.proc == nil {
		return nil
	}
	p := a.proc
	a.proc = nil
	p.stop()
	return nil
}

// process is one run of the adapter's program.
//
// Nothing waits on the program without a bound. Requests are written by
// a goroutine of their own (send), one write at a time, so that answers
// are read while the program reads its requests; no lock is held while
// writing, and what waits for a write to end (written, stop) has a
// deadline. Killing the program closes its standard input, which ends a
// write under way. Answers are read ahead of the harness into lines, at
// most maxAhead bytes of them.
type process struct {
	cmd    *exec.Cmd
	stdin  *os.File // non-blocking (os.Pipe): writes take deadlines, and Close ends one under way
	lines  chan line
	ahead  atomic.Int64  // the bytes of the lines read and not yet taken
	room   chan struct{} // a line was taken: the reader checks ahead again
	stderr *tail
	exited chan struct{}
	quit   chan struct{} // closed by kill: the reader and the writer stop
	limit  atomic.Int64  // the longest answer line accepted now
	// writing is closed when the last write sent ended (nil: none sent).
	// Only the goroutine that holds the Adapter's lock sends and waits.
	writing chan struct{}
	// answered counts the lines read for requests in this run: 0 while it
	// is a fresh start.
	answered int
	err      error // the exit error, once exited is closed
}

type line struct {
	data []byte
	err  error
}

var errTooLong = errors.New("line too long")

// errNotRead says that a write was not read within its time.
var errNotRead = errors.New("not read")

// waitDelay is how long, once the adapter exited, toolnorm waits for
// the programs it started to close its standard error.
const waitDelay = 200 * time.Millisecond

// drainDelay is how long, once the adapter exited, toolnorm goes on
// reading its standard output before it closes it (held open by a
// program the adapter started).
const drainDelay = time.Second

// stopDelay is how long an adapter has to read stop and exit before it
// is killed.
const stopDelay = time.Second

// maxStartLine is the longest answer to start accepted.
const maxStartLine = 64 << 20

// maxAhead bounds the answers read ahead of the harness, in bytes: once
// the lines read and not yet taken hold that much, nothing more is read
// until one is taken. With the line being read, a run of the adapter
// holds at most maxAhead and one line's limit of its answers (a window of
// 128 answers to small requests is some 10 KB).
const maxAhead = 4 << 20

// maxLinesAhead bounds the lines read ahead, whatever their size.
const maxLinesAhead = 1024

// lineLimit is the limit n for an answer line, under MaxLine if set.
func (a *Adapter) lineLimit(n int) int {
	if a.cfg.MaxLine > 0 {
		return min(n, a.cfg.MaxLine)
	}
	return n
}

// newProcess is a process not started yet, its line limit the start's.
func newProcess(cfg Config) *process {
	p := &process{lines: make(chan line, maxLinesAhead), room: make(chan struct{}, 1), stderr: newTail(cfg.StderrLimit), exited: make(chan struct{}), quit: make(chan struct{})}
	p.limit.Store(int64(maxStartLine))
	if cfg.MaxLine > 0 {
		p.limit.Store(int64(min(maxStartLine, cfg.MaxLine)))
	}
	return p
}

func startProcess(cfg Config) (*process, error) {
	cmd := exec.Command("sh", "-c", cfg.Command)
	cmd.Dir = cfg.Dir
	newSession(cmd)
	// A program the adapter starts that leaves its process group (setsid,
	// a daemon) outlives the kill and holds standard error open: Wait
	// would wait for it, and each stop and restart with it.
	cmd.WaitDelay = waitDelay
	// Standard input is a pipe of its own, not cmd.StdinPipe: this end
	// is an *os.File in non-blocking mode, so that a write to an adapter
	// that does not read takes a deadline, and closing it (a kill) ends
	// the write.
	in, stdin, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin = in
	// Standard output is a pipe of its own, not cmd.StdoutPipe, which
	// Wait closes as soon as the program exits: the answers it wrote just
	// before (those before the request it crashed on) would be lost
	// unread now and then, and the crash charged to one of them. It is
	// read to its end; only a program the adapter started that outlives
	// it and holds it open has it closed, drainDelay after the exit.
	stdout, w, err := os.Pipe()
	if err != nil {
		in.Close()
		stdin.Close()
		return nil, err
	}
	cmd.Stdout = w
	p := newProcess(cfg)
	p.cmd, p.stdin = cmd, stdin
	cmd.Stderr = p.stderr
	err = cmd.Start()
	in.Close()
	w.Close()
	if err != nil {
		stdout.Close()
		stdin.Close()
		return nil, err
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer stdout.Close()
		p.read(bufio.NewReaderSize(stdout, 64<<10))
	}()
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
		select {
		case <-read:
		case <-time.After(drainDelay):
			stdout.Close()
		}
	}()
	return p, nil
}

// read sends each line of standard output, and then the error that ended
// them, until the process is killed. It reads on only while the lines not
// yet taken hold less than maxAhead bytes.
func (p *process) read(r *bufio.Reader) {
	send := func(l line) bool {
		select {
		case p.lines <- l:
			return true
		case <-p.quit:
			return false
		}
	}
	for {
		for p.ahead.Load() >= maxAhead {
			select {
			case <-p.room:
			case <-p.quit:
				return
			}
		}
		var buf []byte
		for {
			chunk, err := r.ReadSlice('\n')
			if int64(len(buf)+len(chunk)) > p.limit.Load()+1 {
				send(line{err: errTooLong})
				return
			}
			buf = append(buf, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				send(line{err: err})
				return
			}
			break
		}
		data := bytes.TrimRight(buf, "\r\n")
		p.ahead.Add(int64(len(data)))
		if !send(line{data: data}) {
			return
		}
	}
}

// took says that the line l was taken from lines: the reader may read on.
func (p *process) took(l line) {
	if len(l.data) == 0 {
		return
	}
	p.ahead.Add(-int64(len(l.data)))
	select {
	case p.room <- struct{}{}:
	default:
	}
}

// next takes the next line, waiting for it.
func (p *process) next() line {
	l := <-p.lines
	p.took(l)
	return l
}

// send writes b to the program's standard input, from a goroutine of its
// own, after the write sent before it. The caller waits for that one to
// end (written) before it sends another, or kills the program: a program
// that does not read its input holds up one write at most.
func (p *process) send(b []byte) {
	prev, done := p.writing, make(chan struct{})
	p.writing = done
	go func() {
		defer close(done)
		if prev != nil {
			select {
			case <-prev:
			case <-p.quit:
				return
			}
		}
		p.stdin.Write(b) // a dead adapter shows as the end of its output
	}()
}

// pending reports whether a write sent has not ended.
func (p *process) pending() bool {
	if p.writing == nil {
		return false
	}
	select {
	case <-p.writing:
		return false
	default:
		return true
	}
}

// written waits for the writes sent to end, for d at most (then it
// returns errNotRead) or until ctx is done (then ctx's error).
func (p *process) written(ctx context.Context, d time.Duration) error {
	if !p.pending() {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-p.writing:
		return nil
	case <-timer.C:
		return errNotRead
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stop asks the program to stop: it writes stop and closes the standard
// input, and kills the process group if the program has not exited
// stopDelay later. A program that has not read what it was sent (a write
// under way) is killed at once: stop would wait behind that write.
func (p *process) stop() {
	if p.pending() {
		p.kill()
		return
	}
	// Written from a goroutine, and with a deadline where pipes take
	// one: a full pipe holds up neither Close nor the kill.
	deadline := time.Now().Add(stopDelay)
	p.stdin.SetWriteDeadline(deadline)
	go func() {
		p.stdin.Write([]byte(`{"cmd":"stop"}` + "\n"))
		p.stdin.Close()
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case <-p.exited:
	case <-timer.C:
	}
	p.kill()
}

func (p *process) kill() {
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
	killProcessGroup(p.cmd)
	p.stdin.Close() // ends a write under way
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
	}
}

// hasExited reports whether the program has ended already.
func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// exitDetail says how the program ended, waiting a moment for it to.
func (p *process) exitDetail() string {
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		return "its output ended but it is still running"
	}
	if p.err != nil {
		return "it exited: " + p.err.Error()
	}
	return "it exited with status 0"
}

// tail keeps the last bytes written to it.
type tail struct {
	mu    sync.Mutex
	limit int
	buf   []byte
	lost  bool
}

func newTail(limit int) *tail { return &tail{limit: limit} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.limit; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.lost = true
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.lost {
		return "[...]" + string(t.buf)
	}
	return string(t.buf)
}
