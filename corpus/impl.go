package corpus

import (
	"context"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/minimize"
)

// The types and values of package impl, which the corpus replays vectors
// on, under the names the corpus has always used.
type (
	Options   = impl.Options
	Result    = impl.Result
	Impl      = impl.Impl
	ErrorKind = impl.ErrorKind
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

// Difference compares what im gives for a case with what ref gives.
func Difference(ctx context.Context, im, ref Impl, c impl.Case) impl.Comparison {
	return impl.Compare(im.Normalize(ctx, c), ref.Normalize(ctx, c))
}

// NewFinding minimizes a case on which im violates the rule (gives an
// answer other than ref's, as impl.Compare says) while it differs the same
// way, and returns it as a vector that expects what ref gives. It returns
// nil if im gives ref's answer, or fails on the case: a failure of the
// program is no finding, and a candidate it fails on is not kept. When im
// is an impl.Batcher, the minimizer's candidates are sent several at a
// time (minimize.MinimizeBatch): the vector is the same, but im is also
// given the candidates after the first kept one of each batch.
func NewFinding(ctx context.Context, im, ref Impl, description, clause, origin string, tags []string, schema, args []byte, o Options) *Vector {
	first := Difference(ctx, im, ref, impl.Case{Schema: schema, Args: args, Options: o})
	if !first.Violation() {
		return nil
	}
	if _, ok := im.(impl.Batcher); ok {
		// A program behind the protocol: the candidates of a minimizing
		// step go out as one batch, judged in order up to the first that
		// still differs, so the vector is the one tried one at a time.
		schema, args, _ = minimize.MinimizeBatch(ctx, schema, args, func(cs []minimize.Candidate) int {
			cases := make([]impl.Case, len(cs))
			for i, x := range cs {
				cases[i] = impl.Case{Schema: x.Schema, Args: x.Args, Options: o}
			}
			for i, got := range impl.Run(ctx, im, cases) {
				if c := impl.Compare(got, ref.Normalize(ctx, cases[i])); c.Violation() && c.Diff == first.Diff {
					return i
				}
			}
			return -1
		})
		return New(description, clause, origin, tags, schema, args, o, ref)
	}
	schema, args = minimize.Minimize(ctx, schema, args, func(s, a []byte) bool {
		c := Difference(ctx, im, ref, impl.Case{Schema: s, Args: a, Options: o})
		return c.Violation() && c.Diff == first.Diff
	})
	return New(description, clause, origin, tags, schema, args, o, ref)
}
