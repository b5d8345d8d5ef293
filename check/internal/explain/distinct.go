package explain

import (
	"strconv"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// distinct is the step before contexts: a class's counterexample whose
// arguments hold the same value twice (minimizing makes values alike:
// `[]` and `[]`) may show one behaviour as another: keys renumbered look
// like keys reordered where their values are the same. So such values
// (numbers, booleans, null, empty containers: none the rule repairs) are
// made different numbers; where the implementation still fails there,
// and what differs is of another class, the probe is the counterexample,
// and its class the cause's.
func (s *session) distinct(causes []*cause) {
	var runs []*cause
	var cases []impl.Case
	var wants []impl.Result
	for _, c := range causes {
		sh := c.shown
		if c.x != nil || sh == nil || !sh.f.explainable || sh.got.Failure != nil || sh.want.Error != "" || sh.got.Error != "" {
			continue
		}
		probe, ok := distinctValues(sh.c)
		if !ok {
			continue
		}
		w := s.want(probe)
		if w.Failure != nil || w.Error != "" {
			continue
		}
		runs, cases, wants = append(runs, c), append(cases, probe), append(wants, w)
	}
	if len(cases) == 0 || !s.live() {
		return
	}
	for i, got := range s.ask(s.ctx, cases) {
		c := runs[i]
		if got.Failure != nil || got.Error != "" || impl.Same(got, wants[i]) {
			continue // the values alike are what it needs
		}
		if d := classify(cases[i], wants[i], got); d.Class != c.class.Class {
			c.class = d
			c.shown = &shrunk{f: c.shown.f, c: cases[i], want: wants[i], got: got, cut: c.shown.cut}
		}
	}
}

// distinctValues is c with each value of its arguments that the rule
// never repairs and that is not a non-empty container made a number of
// its own (1, 2, ...); not ok where no two such values were the same.
func distinctValues(c impl.Case) (impl.Case, bool) {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil || args.Kind != jsonvalue.Object {
		return c, false
	}
	seen := map[string]bool{}
	alike := false
	n := 0
	var walk func(v *jsonvalue.Value)
	walk = func(v *jsonvalue.Value) {
		next := func(e *jsonvalue.Value) *jsonvalue.Value {
			switch {
			case e.Kind == jsonvalue.String:
				return e
			case e.Kind == jsonvalue.Object && len(e.Members) > 0, e.Kind == jsonvalue.Array && len(e.Elems) > 0:
				walk(e)
				return e
			}
			text := string(e.Append(nil))
			alike = alike || seen[text]
			seen[text] = true
			n++
			return &jsonvalue.Value{Kind: jsonvalue.Number, Number: strconv.Itoa(n)}
		}
		for i := range v.Members {
			v.Members[i].Value = next(v.Members[i].Value)
		}
		for i := range v.Elems {
			v.Elems[i] = next(v.Elems[i])
		}
	}
	walk(args)
	if !alike {
		return c, false
	}
	c.Args = args.Append(nil)
	return c, true
}
