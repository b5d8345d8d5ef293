package explain

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
)

// reduce is the step after candidates: the explainable findings that no
// deviation explains as found are minimized while they fail the same
// broad way (an error where the reference answers, a reference left
// undecoded: the class of what differs, its detail aside), and their
// candidates are sought again on the cases minimized. A case found with
// several bugs at once (a reference of a name an old table lacks, without
// its `;`, in a string below the top level) is then cut down to one of
// them, which a deviation may explain; and one that no deviation explains
// is classified on its smallest case, so that what a title names is what
// the failure needs, not what the case found happened to hold (an error
// for every input is not "an error for arguments nested 100 levels
// deep"). A minimized finding is explained by its minimized case from then
// on.
//
// Of the findings of one class as found, the Sample smallest are
// minimized first. Where they all end the same way (explained by one
// deviation, or of one class), each of the others is counted so without
// being minimized: under the deviation if it explains the case as found
// too, under the class if that is where the sample ended; the others are
// minimized each.
func (s *session) reduce(fs []*finding) {
	groups := map[string][]*finding{}
	var keys []string
	for _, f := range fs {
		if f.explainable && len(f.cands) == 0 {
			k := classify(f.Case, f.Want, f.Got).Class
			if groups[k] == nil {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], f)
		}
	}
	var rest []*finding
	for _, k := range keys {
		g := groups[k]
		slices.SortStableFunc(g, func(a, b *finding) int { return cmp.Compare(size(a.Case), size(b.Case)) })
		groups[k] = g
	}
	var sampled []*finding
	for _, k := range keys {
		sampled = append(sampled, groups[k][:min(Sample, len(groups[k]))]...)
	}
	s.minimizeEach(sampled)
	s.explainCases(sampled)
	for _, k := range keys {
		g := groups[k]
		if len(g) <= Sample {
			continue
		}
		rest = append(rest, s.countLike(g[:Sample], g[Sample:])...)
	}
	s.minimizeEach(rest)
	s.explainCases(rest)
}

// countLike counts the findings of others like samples, where the samples
// all ended the same way, and returns those it could not: an explanation
// is given to those whose case as found it explains, a class to all.
func (s *session) countLike(samples, others []*finding) []*finding {
	first := samples[0]
	same := !slices.ContainsFunc(samples[1:], func(f *finding) bool { return outcomeOf(f) != outcomeOf(first) })
	if !same {
		return others
	}
	var rest []*finding
	var class diagnose.Diagnosis // the samples' class, read once: an answer may be megabytes
	if len(first.cands) == 0 {
		class = classify(first.Case, first.Want, first.Got)
	}
	for _, f := range others {
		switch {
		case len(first.cands) > 0 && first.cands[0].explains(s.ctx, f.Case, f.Got):
			f.cands = first.cands[:1]
		case len(first.cands) == 0:
			f.class, f.counted = class, true
		default:
			rest = append(rest, f)
		}
	}
	return rest
}

// outcomeOf is how a finding minimized ended: the ids of its candidates,
// or the class of its smallest case.
func outcomeOf(f *finding) string {
	if len(f.cands) == 0 {
		return "class " + classify(f.Case, f.Want, f.Got).Class
	}
	ids := make([]string, len(f.cands))
	for i, x := range f.cands {
		ids[i] = x.id()
	}
	return strings.Join(ids, " ")
}

// minimizeEach minimizes each of fs while it keeps its broad class, in
// lockstep, and gives it its minimized case.
func (s *session) minimizeEach(fs []*finding) {
	out := make([]*shrunk, len(fs))
	is := make([]int, len(fs))
	for i := range is {
		is[i] = i
	}
	s.each(is, func(ctx context.Context, i int) {
		d := classify(fs[i].Case, fs[i].Want, fs[i].Got)
		out[i] = s.shrinkOne(ctx, job{c: &cause{class: diagnose.Diagnosis{Class: broad(d.Class)}}, f: fs[i]})
	})
	for i, f := range fs {
		f.Case, f.Want, f.Got = out[i].c, out[i].want, out[i].got
	}
}

// broad is a class without its detail: "error-for-valid-input/depth" is
// an error for valid input, whatever made it.
func broad(class string) string {
	b, _, _ := strings.Cut(class, "/")
	return b
}
