package explain

import (
	"cmp"
	"slices"
	"strings"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
)

// rootCauses makes each cause a root cause: its id, title and clause
// (its deviation's, or its class's), its counterexample, and its
// findings by source.
func (s *session) rootCauses(causes []*cause) []RootCause {
	out := make([]RootCause, 0, len(causes))
	for _, c := range causes {
		sh := c.shown
		rc := RootCause{Case: sh.c, Want: sh.want, Got: sh.got, Cut: sh.cut}
		where := classify(sh.c, sh.want, sh.got)
		if c.x != nil {
			rc.ID = c.x.id()
			rc.Diagnosis = diagnose.Diagnosis{Class: rc.ID, Title: titleOf(c.x), Clause: c.x[0].Clause,
				Where: where.Where, Shape: where.Shape, Artefact: allArtefacts(c.x)}
			if rc.Artefact {
				rc.Fix = diagnose.FixLossyAdapter
			}
			for _, d := range c.x {
				rc.Deviations = append(rc.Deviations, d.ID)
			}
			rc.With = withOf(c)
		} else {
			rc.ID = c.class.Class
			rc.Diagnosis = c.class
			if sh.f.explainable {
				rc.Where, rc.Shape = where.Where, where.Shape
			}
		}
		for _, f := range c.fs {
			add(&rc, f)
		}
		out = append(out, rc)
	}
	return out
}

// titleOf is an explanation's title: its deviation's, or, for two
// together, both.
func titleOf(x explanation) string {
	if len(x) == 1 {
		return x[0].Title
	}
	return x[0].Title + "; and, together with it: " + lowerFirst(x[1].Title)
}

func lowerFirst(s string) string {
	if s == "" || strings.HasPrefix(s, "`") {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func allArtefacts(x explanation) bool {
	for _, d := range x {
		if !d.Artefact {
			return false
		}
	}
	return true
}

// withOf names the deviations that some of c's findings need beside c's
// own, each once, in the catalogue's order.
func withOf(c *cause) []string {
	var out []string
	for _, x := range c.with {
		for _, d := range x {
			if d != c.x[0] && !slices.Contains(out, d.ID) {
				out = append(out, d.ID)
			}
		}
	}
	slices.Sort(out)
	return out
}

// add counts f under rc, by its source.
func add(rc *RootCause, f *finding) {
	switch f.Source {
	case Vector:
		rc.Vectors = append(rc.Vectors, f.ID)
	case Property:
		rc.Properties = append(rc.Properties, f.ID)
	case Failed:
		rc.Failed = append(rc.Failed, f.ID)
	default:
		rc.Buckets = append(rc.Buckets, f.ID)
	}
}

// clauseOrder is the order of the rule's clauses: what a maintainer fixes
// first.
var clauseOrder = []string{"rule/2", "rule/3", "rule/5", "rule/4", "rule/1"}

// rankOf orders root causes: the rule's clauses, the readings, failures
// of the program, artefacts.
func rankOf(r RootCause) int {
	switch {
	case r.Artefact:
		return 300
	case r.Clause == "failure":
		return 200
	case strings.HasPrefix(r.Clause, "reading/"):
		return 100
	}
	if i := slices.Index(clauseOrder, r.Clause); i >= 0 {
		return i
	}
	return 50
}

// order is the last step: by rank, then by how many findings show each,
// then by id.
func order(rs []RootCause) []RootCause {
	Sort(rs)
	return rs
}

// Sort orders root causes: by rank, then by how many findings show each,
// then by id.
func Sort(rs []RootCause) {
	slices.SortStableFunc(rs, func(a, b RootCause) int {
		return cmp.Or(cmp.Compare(rankOf(a), rankOf(b)), cmp.Compare(b.Count(), a.Count()), cmp.Compare(a.ID, b.ID))
	})
}
