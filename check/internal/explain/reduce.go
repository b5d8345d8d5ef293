package explain

import (
	"context"
	"strings"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
)

// reduce is the step after candidates: each explainable finding that no
// deviation explains as found is minimized while it fails the same broad
// way (an error where the reference answers, a reference left undecoded:
// the class of what differs, its detail aside), and its candidates are
// sought again on the case minimized. A case found with several bugs at
// once (a reference of a name an old table lacks, without its `;`, in a
// string below the top level) is then cut down to one of them, which a
// deviation may explain; and one that no deviation explains is classified
// on its smallest case, so that what a title names is what the failure
// needs, not what the case found happened to hold (an error for every
// input is not "an error for arguments nested 100 levels deep"). The
// finding is explained by its minimized case from then on.
func (s *session) reduce(fs []*finding) {
	var jobs []job
	for _, f := range fs {
		if f.explainable && len(f.cands) == 0 {
			d := classify(f.Case, f.Want, f.Got)
			jobs = append(jobs, job{c: &cause{class: diagnose.Diagnosis{Class: broad(d.Class)}}, f: f})
		}
	}
	out := make([]*shrunk, len(jobs))
	is := make([]int, len(jobs))
	for i := range is {
		is[i] = i
	}
	s.each(is, func(ctx context.Context, i int) {
		out[i] = s.shrinkOne(ctx, jobs[i])
	})
	for i, j := range jobs {
		sh := out[i]
		j.f.Case, j.f.Want, j.f.Got = sh.c, sh.want, sh.got
	}
	s.explainCases(fs)
}

// broad is a class without its detail: "error-for-valid-input/depth" is
// an error for valid input, whatever made it.
func broad(class string) string {
	b, _, _ := strings.Cut(class, "/")
	return b
}
