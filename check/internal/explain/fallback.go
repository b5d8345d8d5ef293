package explain

import "github.com/toolnorm/toolnorm/check/internal/diagnose"

// fallback is the fifth step: the findings no deviation explains, by
// the class of what differs on the case as found (package diagnose), and
// the failures of the program and the properties' violations their case
// does not show, by theirs. Findings of one class are one cause, titled
// by what they all show (diagnose.Merge), not by the first of them.
func (s *session) fallback(fs []*finding) []*cause {
	byClass := map[string]*cause{}
	var out []*cause
	for _, f := range fs {
		if f.explainable && len(f.cands) > 0 {
			continue
		}
		if f.explainable && !f.counted {
			f.class = classify(f.Case, f.Want, f.Got)
		}
		k := f.class.Class
		c := byClass[k]
		if c == nil {
			c = &cause{class: f.class}
			byClass[k] = c
			out = append(out, c)
		}
		c.fs = append(c.fs, f)
	}
	for _, c := range out {
		ds := make([]diagnose.Diagnosis, len(c.fs))
		for i, f := range c.fs {
			ds[i] = f.class
		}
		c.class = diagnose.Merge(ds)
	}
	return out
}
