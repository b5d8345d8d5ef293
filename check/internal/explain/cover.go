package explain

import (
	"cmp"
	"slices"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/check/internal/diagnose"
)

// A cause is one root cause while the steps build it: a deviation (or a
// pair) and the findings it explains, or a class of the fallback.
type cause struct {
	x     explanation // nil for a class
	class diagnose.Diagnosis
	fs    []*finding
	// with are the explanations of the findings filed under x that need
	// a second deviation (x and another, together), by finding.
	with map[*finding]explanation
	// The counterexample, once shrunk.
	shown *shrunk
}

// cover is the fourth step: the smallest set of explanations that covers
// the explainable findings, chosen greedily, the one that explains most
// of the findings left first (in the catalogue's order on a tie: a single
// deviation before a pair). A finding that only a pair explains, one of
// whose deviations is a root cause on its own, is filed under the other:
// a validator that rejects what a missed `$ref` left is the `$ref`'s bug,
// not the validator's.
func cover(fs []*finding) []*cause {
	left := slices.DeleteFunc(slices.Clone(fs), func(f *finding) bool { return !f.explainable || len(f.cands) == 0 })
	var causes []*cause
	for len(left) > 0 {
		x := mostExplaining(left)
		c := &cause{x: x}
		left = slices.DeleteFunc(left, func(f *finding) bool {
			if slices.ContainsFunc(f.cands, func(y explanation) bool { return y.id() == x.id() }) {
				c.fs = append(c.fs, f)
				return true
			}
			return false
		})
		causes = append(causes, c)
	}
	return splitPairs(causes)
}

// mostExplaining returns the explanation that explains the most of fs.
func mostExplaining(fs []*finding) explanation {
	count := map[string]int{}
	var all []explanation
	for _, f := range fs {
		for _, x := range f.cands {
			if count[x.id()] == 0 {
				all = append(all, x)
			}
			count[x.id()]++
		}
	}
	slices.SortStableFunc(all, func(a, b explanation) int {
		return cmp.Or(cmp.Compare(count[b.id()], count[a.id()]), cmp.Compare(len(a), len(b)), cmp.Compare(rank(a), rank(b)))
	})
	return all[0]
}

// rank orders explanations as the catalogue does.
func rank(x explanation) int {
	r := 0
	for _, d := range x {
		r = r*1000 + index(d)
	}
	return r
}

// splitPairs files the findings of a pair one of whose deviations is a
// cause of its own under the other deviation, with the pair kept as what
// explains them.
func splitPairs(causes []*cause) []*cause {
	single := map[*deviation.Deviation]*cause{}
	for _, c := range causes {
		if len(c.x) == 1 {
			single[c.x[0]] = c
		}
	}
	var out []*cause
	for _, c := range causes {
		if len(c.x) != 2 || single[c.x[0]] == nil && single[c.x[1]] == nil {
			out = append(out, c)
			continue
		}
		other := c.x[1]
		if single[other] != nil {
			other = c.x[0]
		}
		into := single[other]
		if into == nil {
			into = &cause{x: explanation{other}}
			single[other] = into
			out = append(out, into)
		}
		if into.with == nil {
			into.with = map[*finding]explanation{}
		}
		for _, f := range c.fs {
			into.fs = append(into.fs, f)
			into.with[f] = c.x
		}
	}
	return out
}
