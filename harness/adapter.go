package harness

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/toolnorm/toolnorm/impl"
)

// Config says how to start and watch an adapter.
type Config struct {
	// Command is the adapter's command line, run by sh -c.
	Command string
	// Dir is the directory it runs in ("": the current one).
	Dir string
	// Timeout is how long one request may take (default 10s).
	Timeout time.Duration
	// StartTimeout is how long the answer to start may take (default 30s).
	StartTimeout time.Duration
	// MaxRestarts is how many requests of one Run may fail in a row (each
	// a crash, a timeout or a protocol error, each followed by a restart)
	// before the rest of that Run is given up (default 20). The next Run
	// tries again. An adapter that cannot be started three times in a row
	// is given up for good.
	MaxRestarts int
	// MaxLine is the longest answer line accepted (default 64 MiB).
	MaxLine int
	// StderrLimit is how much of the adapter's standard error is kept,
	// its last bytes (default 64 KiB).
	StderrLimit int
	// Window is how many requests are in flight at once (default 128).
	Window int
	// Trace, if set, gets every line sent ("> ") and received ("< ").
	Trace io.Writer
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
	if c.MaxLine <= 0 {
		c.MaxLine = 64 << 20
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
	Kind    string `json:"kind"`    // impl.ErrTimeout, impl.ErrCrash or impl.ErrProtocol
	Request int    `json:"request"` // the request's id
	Detail  string `json:"detail"`
	Stderr  string `json:"stderr,omitempty"` // the end of what the adapter wrote to standard error
}

// Adapter is a running implementation behind protocol version 1. It is an
// impl.Impl and an impl.Configured. Its methods are safe for concurrent
// use, one request batch at a time.
type Adapter struct {
	cfg      Config
	info     Info
	declares Declares

	mu       sync.Mutex
	proc     *process
	nextID   int
	restarts int // in all
	inARow   int // failed requests in a row, in this Run
	startErr int // failed starts in a row
	gaveUp   error
	events   []Event
	trace    sync.Mutex
}

// Start starts the adapter and reads its answer to start. It fails, with
// what the adapter wrote to standard error, if the adapter cannot be
// started at all.
func Start(cfg Config) (*Adapter, error) {
	cfg.defaults()
	if strings.TrimSpace(cfg.Command) == "" {
		return nil, errors.New("harness: no command")
	}
	a := &Adapter{cfg: cfg}
	p, info, declares, err := a.launch()
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

// Normalize sends one request. The options must be the adapter's own
// (impl.Configured); a case whose schema or arguments are not JSON cannot
// be sent and gets an error result saying so.
func (a *Adapter) Normalize(schema, args []byte, o impl.Options) impl.Result {
	return a.Run([]Request{{schema, args}})[0]
}

// Request is one case to send.
type Request struct{ Schema, Args []byte }

// ErrDead is wrapped in the detail of every result once the adapter could
// not be started three times in a row: it is given up for good.
var ErrDead = errors.New("the adapter cannot be restarted")

// ErrNotSendable is the kind of result of a case that cannot go over the
// protocol because its schema or arguments are not JSON.
const ErrNotSendable = "not-sendable"

// Run sends the requests, pipelined, and returns one result each, in
// order. A request the adapter fails on (no answer in time, a crash, an
// answer that breaks the protocol) gets that failure; the adapter is
// restarted and the requests after it are sent again.
func (a *Adapter) Run(reqs []Request) []impl.Result {
	a.mu.Lock()
	defer a.mu.Unlock()
	results := make([]impl.Result, len(reqs))
	lines := make([][]byte, len(reqs))
	ids := make([]int, len(reqs))
	var todo []int // indexes of the requests that can be sent
	for i, r := range reqs {
		line, err := request(0, r.Schema, r.Args)
		if err != nil {
			results[i] = impl.Result{Error: ErrNotSendable, Detail: err.Error() + ", so no JSON line carries it"}
			continue
		}
		lines[i] = line
		todo = append(todo, i)
	}
	// After a failure among requests in flight together, the request that
	// caused it is not known (an adapter may buffer its answers), so they
	// are sent again one at a time: the failure then falls on its cause.
	serial := 0
	a.inARow = 0
	for len(todo) > 0 {
		giveUp := a.gaveUp
		if giveUp == nil && a.inARow >= a.cfg.MaxRestarts {
			giveUp = fmt.Errorf("gave up on the %d requests left of this batch after %d failures in a row", len(todo), a.inARow)
		}
		if giveUp != nil {
			for _, i := range todo {
				results[i] = impl.Result{Error: impl.ErrCrash, Detail: giveUp.Error()}
			}
			return results
		}
		if a.proc == nil {
			if err := a.restart(); err != nil {
				if a.startErr++; a.startErr >= 3 {
					a.gaveUp = fmt.Errorf("%w: %v", ErrDead, err)
				}
				a.inARow++
				continue
			}
			a.startErr = 0
		}
		size := a.cfg.Window
		if serial > 0 {
			size = 1
			serial--
		}
		window := todo[:min(len(todo), size)]
		var batch bytes.Buffer
		for _, i := range window {
			a.nextID++
			ids[i] = a.nextID
			batch.Write(withID(lines[i], ids[i]))
		}
		a.traceLines("> ", batch.Bytes())
		go a.proc.write(batch.Bytes())
		done := 0
		for _, i := range window {
			r, ok := a.receive(ids[i])
			if ok {
				results[i] = r
				done++
				a.inARow = 0
				continue
			}
			if len(window) == 1 {
				results[i] = r
				done++
				a.inARow++
				a.record(r, ids[i])
			} else {
				serial = len(window) - done
			}
			a.proc.kill()
			a.proc = nil
			break
		}
		todo = todo[done:]
	}
	return results
}

// receive waits for the answer to request id.
func (a *Adapter) receive(id int) (impl.Result, bool) {
	timer := time.NewTimer(a.cfg.Timeout)
	defer timer.Stop()
	select {
	case l := <-a.proc.lines:
		switch {
		case errors.Is(l.err, errTooLong):
			return protocolError("the answer is longer than %d bytes", a.cfg.MaxLine), false
		case l.err != nil:
			return impl.Result{Error: impl.ErrCrash, Detail: a.proc.exitDetail()}, false
		}
		a.traceLines("< ", append(l.data, '\n'))
		r := parseAnswer(l.data, id)
		return r, r.Error != impl.ErrProtocol
	case <-timer.C:
		return impl.Result{Error: impl.ErrTimeout, Detail: fmt.Sprintf("no answer within %v", a.cfg.Timeout)}, false
	}
}

func (a *Adapter) record(r impl.Result, id int) {
	stderr := ""
	if a.proc != nil {
		stderr = a.proc.stderr.String()
	}
	a.events = append(a.events, Event{Kind: r.Error, Request: id, Detail: r.Detail, Stderr: stderr})
}

// restart starts the adapter again and replays start.
func (a *Adapter) restart() error {
	a.restarts++
	p, info, _, err := a.launch()
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

// launch starts the program and reads its answer to start.
func (a *Adapter) launch() (*process, Info, Declares, error) {
	p, err := startProcess(a.cfg)
	if err != nil {
		return nil, Info{}, Declares{}, fmt.Errorf("harness: cannot start %q: %v", a.cfg.Command, err)
	}
	start := fmt.Appendf(nil, `{"cmd":"start","version":%d}`+"\n", Version)
	a.traceLines("> ", start)
	go p.write(start)
	timer := time.NewTimer(a.cfg.StartTimeout)
	defer timer.Stop()
	fail := func(format string, args ...any) (*process, Info, Declares, error) {
		p.kill()
		msg := fmt.Sprintf(format, args...)
		if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
			msg += "; its standard error ends:\n" + tail
		}
		return nil, Info{}, Declares{}, fmt.Errorf("harness: %q: %s", a.cfg.Command, msg)
	}
	select {
	case l := <-p.lines:
		if l.err != nil {
			return fail("no answer to start: %s", p.exitDetail())
		}
		a.traceLines("< ", append(l.data, '\n'))
		info, declares, err := parseStart(l.data)
		if err != nil {
			return fail("%v", err)
		}
		return p, info, declares, nil
	case <-timer.C:
		return fail("no answer to start within %v", a.cfg.StartTimeout)
	}
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
// second.
func (a *Adapter) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.proc == nil {
		return nil
	}
	p := a.proc
	a.proc = nil
	p.write([]byte(`{"cmd":"stop"}` + "\n"))
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
	}
	p.kill()
	return nil
}

// process is one run of the adapter's program.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan line
	stderr *tail
	exited chan struct{}
	quit   chan struct{} // closed by kill: the reader stops
	wmu    sync.Mutex
	err    error // the exit error, once exited is closed
}

type line struct {
	data []byte
	err  error
}

var errTooLong = errors.New("line too long")

func startProcess(cfg Config) (*process, error) {
	cmd := exec.Command("sh", "-c", cfg.Command)
	cmd.Dir = cfg.Dir
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, stdin: stdin, lines: make(chan line, 1024), stderr: newTail(cfg.StderrLimit), exited: make(chan struct{}), quit: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go p.read(bufio.NewReaderSize(stdout, 64<<10), cfg.MaxLine)
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// read sends each line of standard output, and then the error that ended
// them, until the process is killed.
func (p *process) read(r *bufio.Reader, maxLine int) {
	send := func(l line) bool {
		select {
		case p.lines <- l:
			return true
		case <-p.quit:
			return false
		}
	}
	for {
		var buf []byte
		for {
			chunk, err := r.ReadSlice('\n')
			if len(buf)+len(chunk) > maxLine+1 {
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
		if !send(line{data: bytes.TrimRight(buf, "\r\n")}) {
			return
		}
	}
}

func (p *process) write(b []byte) {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	p.stdin.Write(b) // a dead adapter shows as the end of its output
}

func (p *process) kill() {
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
	killProcessGroup(p.cmd)
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
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
