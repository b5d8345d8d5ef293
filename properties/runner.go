package properties

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
)

// Violation is a minimal input on which an implementation breaks a
// property.
type Violation struct {
	Property Property
	// Vector is the input, shrunk by rapid, as a corpus vector that
	// expects what the reference gives.
	Vector *corpus.Vector
	// Got is what the implementation gave.
	Got impl.Result
	// Message says what broke.
	Message string
	// Checks is how many inputs passed before the first failing one.
	Checks int
	// Seed reproduces the run: Run(im, RunOptions{Seed: Seed}).
	Seed uint64
}

// recorder keeps the last violation a check reports: rapid runs the
// shrunk input once more at the end, so the last one is the minimal one.
var recorder struct {
	sync.Mutex // one Run at a time: rapid's settings are global
	last       *Violation
	active     bool
}

func record(v *Violation) {
	if recorder.active {
		recorder.last = v
	}
}

var initOnce sync.Once

// RunOptions say how long a Run may go on.
type RunOptions struct {
	Checks int    // inputs to try (default 100)
	Seed   uint64 // 0: a random one
	// ShrinkTime bounds the shrinking of a failing input (default: rapid's
	// own, 30 seconds).
	ShrinkTime time.Duration
}

// Run checks p on im outside go test. It returns the shrunk violation, or
// nil, and how many inputs passed. Runs take turns: rapid's settings are
// global.
func (p Property) Run(im impl.Impl, o RunOptions) (*Violation, int) {
	checks, seed := o.Checks, o.Seed
	if checks <= 0 {
		checks = 100
	}
	recorder.Lock()
	defer recorder.Unlock()
	initOnce.Do(func() {
		// rapid asks testing.Short, which wants testing's flags registered
		// and parsed: outside go test, and in a test binary that runs
		// toolnorm's main before parsing them (testscript). The program's
		// own arguments are not for them.
		if !testing.Testing() {
			testing.Init()
		}
		if !flag.Parsed() {
			flag.CommandLine.Parse(nil)
		}
	})
	set := func(name, value string) {
		if err := flag.Set(name, value); err != nil {
			panic(fmt.Sprintf("properties: cannot set %s: %v", name, err))
		}
	}
	for _, name := range []string{"rapid.checks", "rapid.seed", "rapid.nofailfile", "rapid.shrinktime"} {
		old := flag.Lookup(name).Value.String()
		defer set(name, old)
	}
	set("rapid.checks", strconv.Itoa(checks))
	set("rapid.seed", strconv.FormatUint(seed, 10))
	set("rapid.nofailfile", "true")
	if o.ShrinkTime > 0 {
		set("rapid.shrinktime", o.ShrinkTime.String())
	}

	recorder.last, recorder.active = nil, true
	defer func() { recorder.active = false }()
	tb := &runTB{name: p.ID}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errFailNow {
				panic(r)
			}
		}()
		rapid.Check(tb, func(t *rapid.T) { p.check(t, im) })
	}()
	if !tb.failed {
		return nil, checks
	}
	v := recorder.last
	if v == nil { // a panic in the implementation, not a reported violation
		v = &Violation{Property: p, Message: tb.message()}
	}
	v.Checks, v.Seed = tb.checks(), tb.seed()
	return v, v.Checks
}

var errFailNow = new(int)

// runTB is the rapid.TB of a Run: it keeps what rapid reports.
type runTB struct {
	name   string
	failed bool
	logs   []string
}

func (t *runTB) Helper()      {}
func (t *runTB) Name() string { return t.name }
func (t *runTB) Logf(format string, args ...any) {
	t.logs = append(t.logs, fmt.Sprintf(format, args...))
}
func (t *runTB) Log(args ...any) { t.logs = append(t.logs, fmt.Sprint(args...)) }
func (t *runTB) Skipf(format string, args ...any) {
	t.Logf(format, args...)
	t.SkipNow()
}
func (t *runTB) Skip(args ...any) {
	t.Log(args...)
	t.SkipNow()
}
func (t *runTB) SkipNow()                          { panic(errFailNow) }
func (t *runTB) Errorf(format string, args ...any) { t.Logf(format, args...); t.failed = true }
func (t *runTB) Error(args ...any)                 { t.Log(args...); t.failed = true }
func (t *runTB) Fatalf(format string, args ...any) { t.Errorf(format, args...); t.FailNow() }
func (t *runTB) Fatal(args ...any)                 { t.Error(args...); t.FailNow() }
func (t *runTB) FailNow()                          { t.failed = true; panic(errFailNow) }
func (t *runTB) Fail()                             { t.failed = true }
func (t *runTB) Failed() bool                      { return t.failed }

func (t *runTB) message() string { return strings.Join(t.logs, "\n") }

var (
	afterRE = regexp.MustCompile(`\[rapid\] (?:failed|panic) after (\d+) tests`)
	seedRE  = regexp.MustCompile(`-rapid\.seed=(\d+)`)
)

func (t *runTB) checks() int {
	if m := afterRE.FindStringSubmatch(t.message()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

func (t *runTB) seed() uint64 {
	if m := seedRE.FindStringSubmatch(t.message()); m != nil {
		n, _ := strconv.ParseUint(m[1], 10, 64)
		return n
	}
	return 0
}
