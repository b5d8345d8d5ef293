package corpus

import "github.com/toolnorm/toolnorm/impl"

// The types and values of package impl, which the corpus replays vectors
// on, under the names the corpus has always used.
type (
	Options = impl.Options
	Result  = impl.Result
	Impl    = impl.Impl
)

// Reference is the reference normalizer (impl.Reference).
var Reference = impl.Reference

// The kinds of expected errors.
const (
	ErrInvalidJSON   = impl.ErrInvalidJSON
	ErrNotObject     = impl.ErrNotObject
	ErrTooDeep       = impl.ErrTooDeep
	ErrInvalidSchema = impl.ErrInvalidSchema
)

// Failure says how impl fails a case, compared with ref: "" when it gives
// the same result. Minimize keeps a case failing the same way.
func Failure(impl, ref Impl, schema, args []byte, o Options) string {
	return compare(impl.Normalize(schema, args, o), ref.Normalize(schema, args, o))
}

var compare = impl.Compare

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
