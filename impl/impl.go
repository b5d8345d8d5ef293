// Package impl is the hub of toolnorm's checks: the one small interface an
// implementation of RT-TOOL-8 is checked through (the reference, a Go
// function, or, with package harness, a program in another language), and
// the types every check shares: a Case, its Options, the Result of running
// it, and the one Compare that judges a result.
//
// Every other package of the checks imports impl; impl imports only the
// reference normalizer and the JSON tree (see the layer test, deps_test.go).
package impl

import (
	"context"
	"errors"

	"github.com/toolnorm/toolnorm/normalize"
)

// A Case is one input: a schema, arguments, and the options to run them
// under.
type Case struct {
	Schema, Args []byte
	Options      Options
}

// Key tells cases apart: two cases of the same key are one (the same
// options, schema text and arguments text).
func (c Case) Key() string {
	return c.Options.String() + "\x00" + string(c.Schema) + "\x00" + string(c.Args)
}

// An Impl is an implementation of RT-TOOL-8. Normalize runs one case;
// when ctx is done before it has an answer it returns a result that wraps
// ErrNotRun (an implementation that answers at once may ignore ctx).
type Impl interface {
	Name() string
	Normalize(ctx context.Context, c Case) Result
}

// Configured is implemented by an Impl that runs in one configuration
// whatever the options of a case, such as a program behind the protocol,
// which declares its configuration once. Checks of such an Impl draw only
// cases with these options.
type Configured interface {
	Options() Options
}

// A Batcher runs many cases at once (a program behind the protocol
// pipelines them). RunBatch returns one result per case, in order; when ctx
// is done it stops sending and the cases not run get a result that wraps
// ErrNotRun.
type Batcher interface {
	RunBatch(ctx context.Context, cases []Case) []Result
}

// A Coverer is an Impl that can say which parts of its own code each case
// reached (the protocol's coverage, an addition to version 1): an adapter
// whose kit collects it. Coverage steers fuzzing toward the code random
// cases rarely reach.
type Coverer interface {
	// CoverageUnit names what the ids count, as the implementation says
	// ("lines", "arcs", "blocks", "edges"), or is "" when it offers no
	// coverage.
	CoverageUnit() string
	// RunCovered is RunBatch with each case's coverage asked for: an
	// answer's Result.Coverage holds the ids of what its case reached.
	RunCovered(ctx context.Context, cases []Case) []Result
}

// CoverageOf returns im as a Coverer and the unit of its ids, or nil and
// "" when it offers no coverage.
func CoverageOf(im Impl) (Coverer, string) {
	if c, ok := im.(Coverer); ok {
		if unit := c.CoverageUnit(); unit != "" {
			return c, unit
		}
	}
	return nil, ""
}

// Run runs cases on im: as one batch when im is a Batcher, else one at a
// time, stopping between cases when ctx is done.
func Run(ctx context.Context, im Impl, cases []Case) []Result {
	if b, ok := im.(Batcher); ok {
		return b.RunBatch(ctx, cases)
	}
	out := make([]Result, len(cases))
	for i, c := range cases {
		if err := ctx.Err(); err != nil {
			out[i] = Fail(ErrNotRun, err.Error())
			continue
		}
		out[i] = im.Normalize(ctx, c)
	}
	return out
}

// Options of im: its declared configuration, or ok false when it takes
// the options of each case.
func OptionsOf(im Impl) (o Options, ok bool) {
	if c, ok := im.(Configured); ok {
		return c.Options(), true
	}
	return Options{}, false
}

// Func makes an Impl of a function.
func Func(name string, f func(ctx context.Context, c Case) Result) Impl { return funcImpl{name, f} }

type funcImpl struct {
	name string
	f    func(ctx context.Context, c Case) Result
}

func (f funcImpl) Name() string                                 { return f.name }
func (f funcImpl) Normalize(ctx context.Context, c Case) Result { return f.f(ctx, c) }

// Reference is toolnorm's reference normalizer, package normalize.
var Reference Impl = ReferenceWith()

// ReferenceWith is the reference with options of package normalize that
// are no case's (the documents its schemas' references may name, the draft
// of a schema that names none), after each case's own.
func ReferenceWith(extra ...normalize.Option) Impl {
	c := &schemas{extra: extra}
	return Func("toolnorm reference", func(ctx context.Context, cs Case) Result {
		return reference(ctx, c, cs.Schema, cs.Args, cs.Options)
	})
}

// reference is the reference's result on one case. Compiling and
// normalizing stop when ctx is done (a check's budget, an interrupt): the
// result is then the failure ErrNotRun, not an answer, for the case was
// not run to its end.
func reference(ctx context.Context, c *schemas, schema, args []byte, o Options) Result {
	s, err := c.compile(ctx, schema, o)
	if stopped(ctx, err) {
		return Fail(ErrNotRun, err.Error())
	}
	if err != nil {
		return Reject(ErrInvalidSchema, err.Error())
	}
	out, err := s.NormalizeContext(ctx, args)
	switch {
	case stopped(ctx, err):
		return Fail(ErrNotRun, err.Error())
	case err == nil:
		return OK(out)
	case errors.Is(err, normalize.ErrNotObject):
		return Reject(ErrNotObject, err.Error())
	case errors.Is(err, normalize.ErrTooDeep):
		return Reject(ErrTooDeep, err.Error())
	case errors.Is(err, normalize.ErrPattern):
		return Reject(ErrInvalidSchema, err.Error()) // a pattern it cannot evaluate on this key
	}
	return Reject(ErrInvalidJSON, err.Error())
}

// stopped reports whether err is ctx's, done: no answer of the reference.
func stopped(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}

// Configure returns the reference running in the configuration o whatever
// the options of a case, as a program that declares o would: an Impl and
// a Configured.
func Configure(o Options) Impl { return configured{o} }

type configured struct{ o Options }

func (c configured) Name() string     { return Reference.Name() }
func (c configured) Options() Options { return c.o }
func (c configured) Normalize(ctx context.Context, k Case) Result {
	k.Options = c.o
	return Reference.Normalize(ctx, k)
}
