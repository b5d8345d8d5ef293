package check

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/schemagen"
)

// CodeCoverage is what fuzzing learnt of the implementation's own code, when
// its adapter offers coverage (impl.Coverer): how much of it the cases
// reached, and how that grew, so that a maintainer sees when more fuzzing
// stops paying.
type CodeCoverage struct {
	Unit    string `json:"unit"`    // what the ids count, as the adapter says: "lines", "arcs", ...
	Reached int    `json:"reached"` // distinct ids reached by the cases run
	Queued  int    `json:"queued"`  // cases kept for reaching ids no case before them had
	// Growth is how Reached grew: the cases run and the ids reached, at
	// the first batch, at each batch that reached more, and at the end
	// (at most maxGrowth points: thinned evenly when there are more).
	Growth []GrowthPoint `json:"growth"`
}

// A GrowthPoint is the ids reached once Cases cases had run.
type GrowthPoint struct {
	Cases   int `json:"cases"`
	Reached int `json:"reached"`
}

// The queue's bounds: the cases kept, the largest kept (its schema and
// arguments together), and all of them together. Past them a case that
// reaches new ids still counts them, but is not kept. maxGrowth bounds
// the points of the growth.
//
// maxIDs bounds the ids counted: an adapter may send 65,536 new ones an
// answer, and past maxIDs an id not counted yet is not new (each id counted
// costs some 40 bytes; each is some case's first once, so the queue's ids
// are bounded too).
const (
	maxQueued      = 4096
	maxQueuedBytes = 64 << 10
	maxQueueBytes  = 32 << 20
	maxGrowth      = 128
	maxIDs         = 1 << 20
)

// guide is a fuzzing run steered by the implementation's coverage: the
// cases that reached ids no case had before are kept (the queue), and
// some of the cases drawn are mutants of them, chosen toward the rarest
// ids (as libFuzzer weighs its inputs by the rarity of their features).
//
// How many is a bandit's choice between the two sources of cases: the
// share of mutants follows how many new ids each source found per case
// lately. While the generators keep reaching new code, as they do early
// in a run, few cases are mutants, and a bug they find comes as soon as
// without coverage; once they reach nothing new and the mutants do, up
// to three cases in four are mutants.
type guide struct {
	cover impl.Coverer
	unit  string
	hits  map[uint32]int // the cases that reached each id
	queue []queued
	bytes int // of the queue's schemas and arguments
	// weights are the queue's cumulative weights, as of the start of the
	// batch being drawn: a case's draw depends on the batches before it.
	weights []float64
	growth  []GrowthPoint
	// share is the part of a batch drawn as mutants; gain holds, for the
	// generated cases and the mutants, the new ids found per case lately
	// (a moving average over batches); fromQueue says which cases of the
	// batch being run are mutants.
	share     float64
	gain      [2]float64
	fromQueue []bool
}

// The bandit's bounds: the least and the most of a batch drawn as
// mutants, and the weight of the last batch in the averages. gainPrior
// is what each source is credited with beside what it found, in new ids
// a case (one in 10,000 cases): once neither has found anything for some
// batches, the batch is split evenly, rather than left to whichever found
// the last id (the generators, mostly, whose cases cannot climb to a
// branch behind several conditions as mutants of the queue can).
const (
	minShare  = 1.0 / 16
	maxShare  = 3.0 / 4
	gainDecay = 0.25
	gainPrior = 1e-4
)

// queued is a case kept, and the ids it reached first: what it is kept
// for, and what its weight follows.
type queued struct {
	c   impl.Case
	ids []uint32
}

func newGuide(c impl.Coverer, unit string) *guide {
	return &guide{cover: c, unit: unit, hits: map[uint32]int{}, share: 1.0 / 8}
}

// run runs a batch, asking for each case's coverage.
func (g *guide) run(ctx context.Context, cases []impl.Case) []impl.Result {
	return g.cover.RunCovered(ctx, cases)
}

// learn counts what each case of a batch reached, keeps those that
// reached an id first, and notes the growth: after is the cases run once
// the batch is judged. It returns the cases kept.
func (g *guide) learn(cases []impl.Case, got []impl.Result, after int) (kept []impl.Case) {
	grew := false
	var found, ran [2]float64 // new ids and cases, generated and mutants
	for j, r := range got {
		if r.Failed() || r.Coverage == nil {
			continue
		}
		src := 0
		if j < len(g.fromQueue) && g.fromQueue[j] {
			src = 1
		}
		ran[src]++
		var first []uint32
		for _, id := range r.Coverage {
			h, ok := g.hits[id]
			switch {
			case ok:
				g.hits[id] = h + 1
			case len(g.hits) < maxIDs:
				g.hits[id] = 1
				first = append(first, id)
			}
		}
		if len(first) == 0 {
			continue
		}
		found[src] += float64(len(first))
		grew = true
		c := cases[j]
		if n := len(c.Schema) + len(c.Args); len(g.queue) < maxQueued && n <= maxQueuedBytes && g.bytes+n <= maxQueueBytes {
			g.bytes += n
			g.queue = append(g.queue, queued{c: c, ids: first})
			kept = append(kept, c)
		}
	}
	if grew || len(g.growth) == 0 {
		g.growth = append(g.growth, GrowthPoint{after, len(g.hits)})
		if len(g.growth) > maxGrowth {
			g.growth = thin(g.growth)
		}
	}
	for src := range ran {
		if ran[src] > 0 {
			g.gain[src] += gainDecay * (found[src]/ran[src] - g.gain[src])
		}
	}
	if ran[1] > 0 {
		// Mutants ran (none do while the queue is empty): the share
		// follows their gain against the generators'.
		g.share = min(max((g.gain[1]+gainPrior)/(g.gain[0]+g.gain[1]+2*gainPrior), minShare), maxShare)
	}
	return kept
}

// thin keeps every other point of a growth, its first and last kept.
func thin(ps []GrowthPoint) []GrowthPoint {
	out := ps[:0:0]
	for i, p := range ps {
		if i%2 == 0 || i == len(ps)-1 {
			out = append(out, p)
		}
	}
	return out
}

// prepare readies the draws of a batch of n: it weighs the queue (a
// case weighs 1/k, k the fewest cases that reached any of the ids it
// reached first, so that the cases that hold what is rare are mutated
// most).
func (g *guide) prepare(n int) {
	g.fromQueue = make([]bool, n)
	g.weights = g.weights[:0]
	sum := 0.0
	for _, q := range g.queue {
		n := 0
		for _, id := range q.ids {
			if h := g.hits[id]; n == 0 || h < n {
				n = h
			}
		}
		sum += 1 / float64(max(n, 1))
		g.weights = append(g.weights, sum)
	}
}

// instead draws case j of the batch as a mutant of the queue, by the
// share, or reports false: then the case is the generators'.
func (g *guide) instead(r *rand.Rand, j int) (impl.Case, bool) {
	if len(g.queue) == 0 || r.Float64() >= g.share {
		return impl.Case{}, false
	}
	c, ok := g.mutant(r)
	g.fromQueue[j] = ok
	return c, ok
}

// mutant draws a case of the queue, toward the rare, and mutates it: one
// to four changes, structure-aware (schemagen.Mutate) or of one value.
func (g *guide) mutant(r *rand.Rand) (impl.Case, bool) {
	if len(g.weights) == 0 {
		return impl.Case{}, false
	}
	x := r.Float64() * g.weights[len(g.weights)-1]
	i, _ := slices.BinarySearch(g.weights, x)
	base := g.queue[min(i, len(g.queue)-1)].c
	schema, err1 := jsonvalue.Parse(base.Schema)
	args, err2 := jsonvalue.Parse(base.Args)
	if err1 != nil || err2 != nil {
		return base, true
	}
	for range 1 + r.IntN(4) {
		g.mutate(r, schema, args)
	}
	return impl.Case{Schema: schema.Append(nil), Args: args.Append(nil), Options: base.Options}, true
}

// tokens are what a string edit inserts: the pieces of character
// references and of JSON text, and a few letters.
var tokens = []string{"&", ";", "#", "x", "amp;", "lt;", "quot;", "&#", "&amp;", "[", "]", "{", "}", `"`, ",", ":", "0", "1", "a", "Z", " ", "\\", "é", "\u2028"}

// mutate makes one change to a queued case's schema and arguments.
func (g *guide) mutate(r *rand.Rand, schema, args *jsonvalue.Value) {
	values := valuesOf(args)
	x := values[r.IntN(len(values))]
	switch op := r.IntN(6); {
	case op == 0 && args.Kind == jsonvalue.Object:
		schemagen.Mutate(r, schema, args)
	case op == 1 && x.Kind == jsonvalue.String:
		x.Str = escapeOnce.Replace(x.Str)
	case op == 2 && x.Kind == jsonvalue.String:
		x.Str = editString(r, x.Str)
	case op == 3 && x != args && (x.Kind == jsonvalue.Array || x.Kind == jsonvalue.Object):
		*x = jsonvalue.Value{Kind: jsonvalue.String, Str: string(x.Append(nil))}
	case op == 4 && x.Kind == jsonvalue.Object && len(x.Members) > 0:
		m := &x.Members[r.IntN(len(x.Members))]
		m.Key = editString(r, m.Key)
	case op == 4 && x.Kind == jsonvalue.Number:
		x.Number = strconv.Itoa(r.IntN(1<<20) - 1<<19)
	default:
		// A value of another queued case in its place (a splice).
		if x != args && len(g.queue) > 1 {
			o, err := jsonvalue.Parse(g.queue[r.IntN(len(g.queue))].c.Args)
			if err == nil {
				others := valuesOf(o)
				*x = *others[r.IntN(len(others))]
				return
			}
		}
		if x.Kind == jsonvalue.String {
			x.Str += tokens[r.IntN(len(tokens))]
		}
	}
}

// editString inserts a token, deletes a run of characters or repeats
// one, at a place in s.
func editString(r *rand.Rand, s string) string {
	rs := []rune(s)
	at := r.IntN(len(rs) + 1)
	switch r.IntN(3) {
	case 0:
		return string(rs[:at]) + tokens[r.IntN(len(tokens))] + string(rs[at:])
	case 1:
		if at < len(rs) {
			return string(rs[:at]) + string(rs[min(at+1+r.IntN(4), len(rs)):])
		}
	}
	if at < len(rs) {
		end := min(at+1+r.IntN(8), len(rs))
		return string(rs[:end]) + string(rs[at:])
	}
	return s + tokens[r.IntN(len(tokens))]
}

// valuesOf lists v and every value in it, in the order of their text.
func valuesOf(v *jsonvalue.Value) []*jsonvalue.Value {
	return appendValues(nil, v)
}

func appendValues(values []*jsonvalue.Value, v *jsonvalue.Value) []*jsonvalue.Value {
	values = append(values, v)
	for _, e := range v.Elems {
		values = appendValues(values, e)
	}
	for _, m := range v.Members {
		values = appendValues(values, m.Value)
	}
	return values
}

// result is what the run learnt, for the report.
func (g *guide) result() *CodeCoverage {
	return &CodeCoverage{Unit: g.unit, Reached: len(g.hits), Queued: len(g.queue), Growth: slices.Clone(g.growth)}
}
