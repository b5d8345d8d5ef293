package properties

import (
	"context"
	"hash/fnv"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
)

// Violation is a minimal input on which an implementation breaks a
// property.
type Violation struct {
	Property Property
	// Case is the minimal input, and Vector the same as a corpus vector
	// that expects what the reference gives.
	Case   Case
	Vector *corpus.Vector
	// Message says what broke.
	Message string
	// Checks is how many inputs passed before the first failing one.
	Checks int
	// Index is the failing input's index: Draw(CaseSeed(seed, ID, Index))
	// draws it again.
	Index int
}

// RunOptions say how many inputs a Run tries.
type RunOptions struct {
	Checks int    // inputs to try (default 100)
	Seed   uint64 // the same seed, the same inputs
}

// CaseSeed is the seed of the i-th input of property id in a run with
// seed: each property's inputs are its own, whatever else runs.
func CaseSeed(seed uint64, id string, i int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	x := seed ^ h.Sum64() + uint64(i)*0x9e3779b97f4a7c15
	// splitmix64's finalizer: neighbouring indexes, unrelated seeds.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Run checks p on im outside go test: it draws o.Checks inputs, one after
// another, and returns the first violation, minimized, or nil, and how
// many inputs passed. Inputs on which the implementation fails (a crash, a
// timeout) are not judged and not counted. The same seed gives the same
// inputs and, for an implementation that answers the same way, the same
// violation. A property that does not apply to im (see Applies) holds
// with no checks.
func (p Property) Run(ctx context.Context, im impl.Impl, o RunOptions) (*Violation, int) {
	checks := o.Checks
	if checks <= 0 {
		checks = 100
	}
	if opts, ok := impl.OptionsOf(im); ok && !p.Applies(opts) {
		return nil, 0
	}
	passed := 0
	for i := range checks {
		c := p.Draw(CaseSeed(o.Seed, p.ID, i), im)
		out := p.Judge(ctx, im, c, nil)
		switch {
		case out.Failure != nil || out.Moot:
			continue
		case out.Message == "":
			passed++
			continue
		}
		return p.Violation(ctx, im, c, passed, i), passed
	}
	return nil, passed
}

// Violation minimizes a case on which p breaks and returns it as a
// Violation (see Minimize for ctx).
func (p Property) Violation(ctx context.Context, im impl.Impl, c Case, checks, index int) *Violation {
	m, out := p.Minimize(ctx, im, c)
	return &Violation{Property: p, Case: m, Vector: p.replayable(ctx, im, m), Message: out.Message, Checks: checks, Index: index}
}

// replayable is the vector of a violation: one the implementation fails
// when it is replayed, so that the command that replays it shows the
// violation. For most properties that is the case itself (a broken
// property is an answer other than the reference's); where the
// implementation can give the reference's answer and still break the
// property (normalizing its output again changes it), it is the input
// that shows it, when there is one.
func (p Property) replayable(ctx context.Context, im impl.Impl, c Case) *corpus.Vector {
	v := p.Vector(c)
	if p.witness == nil || !impl.Compare(im.Normalize(ctx, impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options}), v.Want()).Same() {
		return v
	}
	if args := p.witness(ctx, im, c); args != nil {
		w := c
		w.Args = args
		return p.Vector(w)
	}
	return v
}
