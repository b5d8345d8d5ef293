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
	if p.witness == nil {
		return v
	}
	replay := impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options}
	var once impl.Result
	if _, ok := im.(impl.Batcher); ok {
		// Both requests in one round trip: the second is needed when the
		// first gives the reference's answer.
		got := impl.Run(ctx, im, []impl.Case{replay, c.Case})
		if !impl.Same(got[0], v.Want()) {
			return v
		}
		once = got[1]
	} else {
		if !impl.Same(im.Normalize(ctx, replay), v.Want()) {
			return v
		}
		once = im.Normalize(ctx, c.Case)
	}
	if args := p.witness(once); args != nil {
		w := c
		w.Args = args
		return p.Vector(w)
	}
	return v
}

// JudgeBatch judges cases on im as Judge judges each, in order, and gives
// the outcomes Judge gives for an implementation that answers the same way
// each time. first, if not nil, holds each case's first run, as for Judge.
// last, if not nil, says which outcome ends the judging: the outcomes end
// with the first such one.
//
// When im is an impl.Batcher, the requests the cases make after their
// first go out as batches (impl.Run), one round trip for many cases: each
// case is judged on the answers it has, and the next request of every case
// that needs one (known by the case and its ordinal within the case, not
// by its content: a case that runs the same input twice gets two runs)
// goes out in the next batch, until no case needs more. No request goes
// out for a case after one whose outcome is last; requests of such a case
// already sent are run besides and counted nowhere. Otherwise the cases
// are judged one at a time.
func (p Property) JudgeBatch(ctx context.Context, im impl.Impl, cs []Case, first []impl.Result, last func(Outcome) bool) []Outcome {
	firstOf := func(i int) *impl.Result {
		if first == nil {
			return nil
		}
		f := first[i]
		return &f
	}
	outs := make([]Outcome, 0, len(cs))
	if _, ok := im.(impl.Batcher); !ok {
		for i, c := range cs {
			o := p.Judge(ctx, im, c, firstOf(i))
			outs = append(outs, o)
			if last != nil && last(o) {
				break
			}
		}
		return outs
	}
	outs = outs[:len(cs)]
	scripts := make([]script, len(cs))
	pending := make([]bool, len(cs))
	for i := range pending {
		pending[i] = true
	}
	end := len(cs) // the cases judged: cs[:end]
	var need []impl.Case
	var who []int
	for {
		need, who = need[:0], who[:0]
		for i := 0; i < end; i++ {
			if !pending[i] {
				continue
			}
			s := &scripts[i]
			o, more := p.judge(ctx, im, cs[i], firstOf(i), s.rewind())
			if more {
				need, who = append(need, s.need), append(who, i)
				continue
			}
			outs[i], pending[i] = o, false
			if last != nil && last(o) {
				end = i + 1
			}
		}
		if len(need) == 0 {
			return outs[:end]
		}
		for k, res := range impl.Run(ctx, im, need) {
			s := &scripts[who[k]]
			s.sent, s.got = append(s.sent, need[k]), append(s.got, res)
		}
	}
}

// A script holds the requests one case of JudgeBatch made after its first
// run, by ordinal, and their answers.
type script struct {
	sent []impl.Case
	got  []impl.Result
	next int       // the ordinal of the next request
	need impl.Case // the request with no answer yet
}

// needed ends a Judge whose script has no answer for its next request.
type needed struct{}

func (s *script) rewind() *script {
	s.next = 0
	return s
}

// answer is the answer to the script's next request, or panic(needed)
// when it has none yet. A request other than the one sent at its ordinal
// (which a judge that depends on its answers alone never makes) drops the
// answers from there.
func (s *script) answer(c impl.Case) impl.Result {
	k := s.next
	s.next++
	if k < len(s.sent) && sameCase(s.sent[k], c) {
		return s.got[k]
	}
	s.sent, s.got = s.sent[:k], s.got[:k]
	s.need = c
	panic(needed{})
}
