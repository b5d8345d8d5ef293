package corpus

import (
	"errors"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// Result is what an implementation did with one vector's input: the
// output, or the kind of error it reported.
type Result struct {
	Output []byte
	Error  string // one of the Err* kinds, or "" when there is output
	Detail string // the implementation's own error message
}

// An Impl is an implementation of RT-TOOL-8 that vectors are replayed on.
type Impl interface {
	Name() string
	Normalize(schema, args []byte, o Options) Result
}

// Reference is toolnorm's reference normalizer, package normalize.
var Reference Impl = reference{}

type reference struct{}

func (reference) Name() string { return "toolnorm reference" }

func (reference) Normalize(schema, args []byte, o Options) Result {
	opts := []normalize.Option{normalize.WithMaxPasses(o.MaxPasses)}
	if o.Profile == "attribute" {
		opts = append(opts, normalize.WithProfile(normalize.Attribute))
	}
	if o.MaxDepth > 0 {
		opts = append(opts, normalize.WithMaxDepth(o.MaxDepth))
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

// Failure says how impl fails a case, compared with ref: "" when it gives
// the same result. Minimize keeps a case failing the same way.
func Failure(impl, ref Impl, schema, args []byte, o Options) string {
	got, want := impl.Normalize(schema, args, o), ref.Normalize(schema, args, o)
	switch {
	case want.Error != "" && got.Error == want.Error:
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

// NewFinding minimizes a case that impl fails (as Failure says) while it
// fails the same way, and returns it as a vector that expects what ref
// gives. It returns nil if impl does not fail the case.
func NewFinding(impl, ref Impl, description, clause, origin string, tags []string, schema, args []byte, o Options) *Vector {
	failure := Failure(impl, ref, schema, args, o)
	if failure == "" {
		return nil
	}
	schema, args = Minimize(schema, args, func(s, a []byte) bool {
		return Failure(impl, ref, s, a, o) == failure
	})
	return New(description, clause, origin, tags, schema, args, o, ref)
}
