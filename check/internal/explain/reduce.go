package explain

import "context"

// reduce is the step after candidates: each explainable finding that no
// deviation explains as found is minimized while the class of what
// differs stays the same, and its candidates are sought again on the case
// minimized. A case found with several bugs at once (a reference of a
// name an old table lacks, without its `;`, in a string below the top
// level) is then cut down to one of them, which a deviation may explain;
// the finding is explained by its minimized case from then on.
func (s *session) reduce(fs []*finding) {
	var jobs []job
	for _, f := range fs {
		if f.explainable && len(f.cands) == 0 {
			jobs = append(jobs, job{c: &cause{class: classify(f.Case, f.Want, f.Got)}, f: f})
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
		if size(sh.c) >= size(j.f.Case) {
			continue
		}
		if cands := candidatesOf(s.ctx, sh.c, sh.want, sh.got); len(cands) > 0 {
			j.f.Case, j.f.Want, j.f.Got, j.f.cands = sh.c, sh.want, sh.got, cands
		}
	}
}
