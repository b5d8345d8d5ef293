// Package impl is the one small interface toolnorm checks implementations
// of RT-TOOL-8 through: the reference, a Go function, or (with package
// harness) a program in another language. The corpus replays vectors on an
// Impl, the properties check one, the fuzzers compare one with the
// reference.
package impl

import (
	"errors"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// Options are the readings of the rule a case is run under.
type Options struct {
	// Profile is "text" (the default; empty means text) or "attribute".
	Profile string `json:"profile,omitempty"`
	// MaxPasses bounds the decoding passes; 0 means none.
	MaxPasses int `json:"max_passes,omitempty"`
	// MaxDepth is the nesting limit; 0 means the default, 1000.
	MaxDepth int `json:"max_depth,omitempty"`
	// Depth is where the JSON repair applies: "all" (the default; empty
	// means all) or "top", top-level parameters only (a reading an
	// implementation may declare; see normalize.WithTopLevelOnly).
	Depth string `json:"depth,omitempty"`
}

// Configured is implemented by an Impl that runs in one configuration
// whatever the options of a case, such as a program behind the protocol,
// which declares its configuration once. Checks of such an Impl draw only
// cases with these options.
type Configured interface {
	Options() Options
}

// The kinds of errors an implementation reports.
const (
	ErrInvalidJSON   = "invalid-json"   // arguments are not JSON, or not UTF-8
	ErrNotObject     = "not-object"     // arguments are JSON but not an object
	ErrTooDeep       = "too-deep"       // nesting past the limit
	ErrInvalidSchema = "invalid-schema" // the schema is broken

	// ErrUnspecified is an error whose kind the implementation does not
	// say (the protocol carries only a message): it matches any kind.
	ErrUnspecified = "error"

	// Failures of the implementation itself, recorded by the harness.
	ErrTimeout  = "timeout"        // no answer within the time limit
	ErrCrash    = "crash"          // the program exited or could not start
	ErrProtocol = "protocol-error" // an answer that breaks the protocol
)

// IsFailure reports whether kind is a failure of the implementation (a
// timeout, a crash, a protocol error) rather than an error it reported.
func IsFailure(kind string) bool {
	return kind == ErrTimeout || kind == ErrCrash || kind == ErrProtocol
}

// Result is what an implementation did with one case: the output, or the
// kind of error it reported.
type Result struct {
	Output []byte
	Error  string // one of the Err* kinds, or "" when there is output
	Detail string // the implementation's own message
}

// An Impl is an implementation of RT-TOOL-8.
type Impl interface {
	Name() string
	Normalize(schema, args []byte, o Options) Result
}

// Func makes an Impl of a function.
func Func(name string, f func(schema, args []byte, o Options) Result) Impl { return funcImpl{name, f} }

type funcImpl struct {
	name string
	f    func(schema, args []byte, o Options) Result
}

func (f funcImpl) Name() string                                    { return f.name }
func (f funcImpl) Normalize(schema, args []byte, o Options) Result { return f.f(schema, args, o) }

// Reference is toolnorm's reference normalizer, package normalize.
var Reference Impl = Func("toolnorm reference", reference)

func reference(schema, args []byte, o Options) Result {
	opts := []normalize.Option{normalize.WithMaxPasses(o.MaxPasses)}
	if o.Profile == "attribute" {
		opts = append(opts, normalize.WithProfile(normalize.Attribute))
	}
	if o.MaxDepth > 0 {
		opts = append(opts, normalize.WithMaxDepth(o.MaxDepth))
	}
	if o.Depth == "top" {
		opts = append(opts, normalize.WithTopLevelOnly(true))
	}
	s, err := normalize.Compile(schema, opts...)
	if err != nil {
		return Result{Error: ErrInvalidSchema, Detail: err.Error()}
	}
	out, err := s.Normalize(args)
	switch {
	case err == nil:
		return Result{Output: out}
	case errors.Is(err, normalize.ErrNotObject):
		return Result{Error: ErrNotObject, Detail: err.Error()}
	case errors.Is(err, normalize.ErrTooDeep):
		return Result{Error: ErrTooDeep, Detail: err.Error()}
	}
	return Result{Error: ErrInvalidJSON, Detail: err.Error()}
}

// Compare says how got differs from want: "" when they are the same
// result (outputs equal as JSON values, see jsonvalue.Equal, or errors of
// one kind). The description is short and stable, so that failures can be
// told apart and bucketed by it.
func Compare(got, want Result) string {
	switch {
	case IsFailure(got.Error):
		return got.Error
	case want.Error != "" && (got.Error == want.Error || got.Error == ErrUnspecified):
		return ""
	case want.Error != "" && got.Error != "":
		return "error " + got.Error + ", want error " + want.Error
	case want.Error != "":
		return "output, want error " + want.Error
	case got.Error != "":
		return "error " + got.Error + ", want output"
	}
	if eq, err := jsonvalue.EqualJSON(got.Output, want.Output); err != nil {
		return "output that is not JSON"
	} else if !eq {
		return "wrong output"
	}
	return ""
}
