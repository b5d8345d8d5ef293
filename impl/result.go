package impl

import (
	"errors"
	"fmt"
	"time"

	"github.com/toolnorm/toolnorm/internal/display"
)

// ErrorKind is the kind of error an implementation reports for input it
// rejects. Its text is what vectors carry.
type ErrorKind string

// The kinds of rejected input.
const (
	ErrInvalidJSON   ErrorKind = "invalid-json"   // arguments are not JSON, or not UTF-8
	ErrNotObject     ErrorKind = "not-object"     // arguments are JSON but not an object
	ErrTooDeep       ErrorKind = "too-deep"       // nesting past the limit
	ErrInvalidSchema ErrorKind = "invalid-schema" // the schema is broken

	// ErrUnspecified is an error whose kind the implementation does not
	// say (the protocol carries only a message): it matches any kind.
	ErrUnspecified ErrorKind = "error"
)

// ErrorKinds are the kinds a vector may expect.
var ErrorKinds = []ErrorKind{ErrInvalidJSON, ErrNotObject, ErrTooDeep, ErrInvalidSchema}

// Failures of the program, as opposed to answers it gave. A Result that is
// a failure wraps one of these (see Result.Failure); test with errors.Is.
var (
	ErrTimeout     = errors.New("timeout")        // no answer within the time limit
	ErrCrash       = errors.New("crash")          // the program exited, or could not start
	ErrProtocol    = errors.New("protocol error") // an answer that breaks the protocol
	ErrNotSendable = errors.New("not sendable")   // the case has no JSON text, so no protocol line carries it
	ErrNotRun      = errors.New("not run")        // the check stopped (its budget, an interrupt) before the case ran
	// ErrGaveUp is wrapped, beside ErrCrash, once the harness has given up
	// on a program that keeps failing: nothing more is sent to it.
	ErrGaveUp = errors.New("given up")
	// ErrDeduced is wrapped, beside the failure's kind, in the result of
	// a request charged with a failure by elimination: it was the oldest
	// without an answer when the program failed, not sent again alone
	// (harness.Event.Deduced). A buffering program can have the charge
	// wrong; one sent again alone later may be answered.
	ErrDeduced = errors.New("charged by elimination")
)

// InFlight is the failure of a case under way when the check stopped (its
// budget spent, an interrupt): sent and still without an answer, or, when
// NotSent is true, waiting for the adapter to start again (after a crash)
// to be sent. It wraps ErrNotRun, and says how long the case had waited.
type InFlight struct {
	Waited  time.Duration
	NotSent bool
}

func (e *InFlight) Error() string {
	if e.NotSent {
		return fmt.Sprintf("%v: waiting for the adapter to start again for %v", ErrNotRun, e.Waited)
	}
	return fmt.Sprintf("%v: in flight for %v", ErrNotRun, e.Waited)
}

func (e *InFlight) Unwrap() error { return ErrNotRun }

// Kind is what became of a case.
type Kind uint8

// The kinds of results. The first two are answers; the others are failures
// of the program (or of the check), never violations of the rule.
const (
	KindOutput      Kind = iota // normalized arguments
	KindRejected                // an error the implementation reported
	KindTimeout                 // ErrTimeout
	KindCrash                   // ErrCrash
	KindProtocol                // ErrProtocol
	KindNotSendable             // ErrNotSendable
	KindNotRun                  // ErrNotRun
)

var kindNames = [...]string{"output", "error", "timeout", "crash", "protocol-error", "not-sendable", "not-run"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind %d", k)
}

// Result is what an implementation did with one case: output, an error it
// reported, or a failure.
type Result struct {
	Output []byte    // KindOutput: the normalized arguments
	Error  ErrorKind // KindRejected: the kind of error reported
	// Failure, when not nil, is a failure of the program: it wraps one of
	// ErrTimeout, ErrCrash, ErrProtocol, ErrNotSendable or ErrNotRun.
	Failure error
	Detail  string // the implementation's own message, or what went wrong
	// Coverage, when the case's coverage was asked for (Coverer), holds
	// the distinct ids of what the implementation's own code reached on
	// it, in increasing order. It is no part of the answer: Compare does
	// not read it.
	Coverage []uint32
}

// OK is a result with output.
func OK(out []byte) Result { return Result{Output: out} }

// Reject is a result with an error the implementation reported.
func Reject(kind ErrorKind, detail string) Result { return Result{Error: kind, Detail: detail} }

// Fail is a failure: err wraps one of the failure sentinels.
func Fail(err error, detail string) Result { return Result{Failure: err, Detail: detail} }

// Kind says what the result is.
func (r Result) Kind() Kind {
	switch {
	case r.Failure == nil && r.Error != "":
		return KindRejected
	case r.Failure == nil:
		return KindOutput
	case errors.Is(r.Failure, ErrNotRun):
		return KindNotRun
	case errors.Is(r.Failure, ErrNotSendable):
		return KindNotSendable
	case errors.Is(r.Failure, ErrTimeout):
		return KindTimeout
	case errors.Is(r.Failure, ErrProtocol):
		return KindProtocol
	}
	return KindCrash
}

// Failed reports whether r is a failure rather than an answer.
func (r Result) Failed() bool { return r.Failure != nil }

// Answered reports whether r is output.
func (r Result) Answered() bool { return r.Failure == nil && r.Error == "" }

// String describes r in one line, for a person: output as display.JSON
// shows it (what one cannot see escaped), an error by its kind ("an
// error" when the kind is not said) and detail.
func (r Result) String() string {
	var s string
	switch r.Kind() {
	case KindOutput:
		return display.JSON(r.Output)
	case KindRejected:
		s = r.Error.phrase()
	default:
		s = r.Kind().String()
	}
	if r.Detail != "" {
		s += " (" + display.Text(r.Detail) + ")"
	}
	return s
}

// Show is String cut at n bytes or so (as display.ClipText cuts), without
// escaping more of the output or the detail than it shows: an answer of
// megabytes costs what n does. Everything a report shows of a result goes
// through it.
func (r Result) Show(n int) string {
	var s string
	switch r.Kind() {
	case KindOutput:
		return display.ClipJSON(r.Output, n)
	case KindRejected:
		s = r.Error.phrase()
	default:
		s = r.Kind().String()
	}
	if r.Detail != "" {
		s += " (" + display.ClipText(r.Detail, max(n-len(s)-3, 0)) + ")"
	}
	return s
}

// phrase names an error in a sentence: "error invalid-json", or "an
// error" when its kind is not said.
func (k ErrorKind) phrase() string {
	if k == ErrUnspecified {
		return "an error"
	}
	return "error " + string(k)
}

// AdapterCannotHold begins the Detail of a case its adapter answered
// unsupported (not sendable), before the adapter's own words.
const AdapterCannotHold = "the adapter cannot hold it as it is: "
