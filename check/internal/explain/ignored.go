package explain

import (
	"cmp"
	"slices"
	"strings"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// ignored is the step after contexts: for a class whose
// counterexample the schema decides (a string decoded or left, a shape
// substituted; not an error), it asks whether the implementation answers
// as if one keyword of the schema were not there. A class of what
// differs guesses at the keyword from the schema's text ("read through
// `$ref`", where the `$ref` had nothing to do with it), and an
// implementation that skips one keyword shows several classes (a
// decoding missed here, a string decoded there), each filed apart.
//
// So each keyword of each schema object of the counterexample (but for
// one alone in its object) is taken out in turn. Where the reference on
// the schema without it gives exactly the implementation's answer, and
// the implementation answers the same without it (the keyword changes
// nothing for it), the keyword may be one not read. Then each keyword
// beside it is taken out instead: where the implementation then answers
// as the reference does (and the keyword still matters there), it is
// not read beside that one ("`type` is not read where `anyOf` is beside
// it"), and the cause is that keyword not read (class not-read/K). A
// keyword is claimed only where some case shows that company: taking
// out what is the only route to the member leaves it undeclared, which
// "gives the answer" of any bug there and proves nothing; a cause whose
// case shows no company takes the claim another cause shows for the
// same keyword. Causes left of one class are then one (mergeClasses).
func (s *session) ignored(causes []*cause) {
	type probed struct {
		c    *cause
		cut  cut
		want impl.Result // the reference's answer without the keyword
	}
	var runs []probed
	var cases []impl.Case
	for _, c := range causes {
		sh := c.shown
		if c.x != nil || sh == nil || !sh.f.explainable || sh.got.Failure != nil || sh.want.Error != "" || sh.got.Error != "" ||
			textClass(c.class.Class) || strings.HasPrefix(c.class.Class, "member-") {
			continue
		}
		n := 0
		for _, k := range cuts(sh.c.Schema) {
			probe := sh.c
			probe.Schema = k.schema
			if want := s.want(probe); want.Failure == nil && want.Error == "" && impl.Same(want, sh.got) {
				runs = append(runs, probed{c, k, want})
				cases = append(cases, probe)
				if n++; n == maxClaims {
					break
				}
			}
		}
	}
	if len(cases) == 0 || !s.live() {
		return
	}
	// The implementation answers the same without the keyword.
	var confirmed []probed
	for i, got := range s.ask(s.ctx, cases) {
		if got.Failure == nil && impl.Same(got, runs[i].want) {
			confirmed = append(confirmed, runs[i])
		}
	}
	// Beside which keyword it is not read: each sibling taken out instead,
	// where the keyword still matters.
	type beside struct {
		p       int // in confirmed
		sibling string
		want    impl.Result
	}
	var besides []beside
	cases = cases[:0]
	for i, p := range confirmed {
		for _, sib := range p.cut.siblings {
			probe := p.c.shown.c
			probe.Schema = p.cut.without(sib, false)
			without := probe
			without.Schema = p.cut.without(sib, true)
			want := s.want(probe)
			if want.Failure != nil || want.Error != "" || impl.Same(want, s.want(without)) {
				continue // the keyword does not matter there
			}
			besides = append(besides, beside{i, sib, want})
			cases = append(cases, probe)
		}
	}
	context := make([]string, len(confirmed))
	if len(cases) > 0 && s.live() {
		for i, got := range s.ask(s.ctx, cases) {
			b := besides[i]
			if context[b.p] == "" && got.Failure == nil && impl.Same(got, b.want) {
				context[b.p] = b.sibling
			}
		}
	}
	// A keyword is claimed only where a case shows the company it is not
	// read in: taking out what makes its whole schema (the only route to
	// the member) always "gives the answer", and says nothing. Of a
	// cause's keywords, the one shown beside another, the deepest first;
	// else one that another cause shows so (the same bug, on a case whose
	// siblings happen not to matter).
	shown := map[string]bool{}
	for i, p := range confirmed {
		if context[i] != "" {
			shown[p.cut.key] = true
		}
	}
	best := map[*cause]int{}
	better := func(i, j int) bool {
		if (context[i] != "") != (context[j] != "") {
			return context[i] != ""
		}
		return confirmed[i].cut.depth > confirmed[j].cut.depth
	}
	for i, p := range confirmed {
		if context[i] == "" && !shown[p.cut.key] {
			continue
		}
		if j, ok := best[p.c]; !ok || better(i, j) {
			best[p.c] = i
		}
	}
	for _, c := range causes { // in order: the same classes at every run
		if i, ok := best[c]; ok {
			c.class = ignoredClass(c.class, confirmed[i].cut.key, context[i])
		}
	}
}

// maxClaims bounds the keywords whose absence gives the answer found that
// are put to the implementation, for one cause.
const maxClaims = 8

// ignoredClass is the class of the keyword key not read, beside the
// keyword sibling ("" when none was shown to matter): d's where and shape.
func ignoredClass(d diagnose.Diagnosis, key, sibling string) diagnose.Diagnosis {
	title := "`" + key + "` is not read: the answer is the one the schema gives without it"
	if sibling != "" {
		title = "`" + key + "` is not read where `" + sibling + "` is beside it: the answer is the one the schema gives without it, and without `" + sibling + "` it is read"
	}
	return diagnose.Diagnosis{Class: "not-read/" + key, Detail: sibling, Title: title, Clause: "reading/4", Where: d.Where, Shape: d.Shape}
}

// mergeClasses makes the class causes of one class one cause, shown by
// the counterexample of the first with a context (Detail), else of the
// first: the contexts and ignored steps retitle causes one at a time,
// and one behaviour shown several ways ends in one class.
func mergeClasses(causes []*cause) []*cause {
	byClass := map[string]*cause{}
	out := causes[:0:0]
	for _, c := range causes {
		if c.x != nil {
			out = append(out, c)
			continue
		}
		first, ok := byClass[c.class.Class]
		if !ok {
			byClass[c.class.Class] = c
			out = append(out, c)
			continue
		}
		first.fs = append(first.fs, c.fs...)
		if first.class.Detail == "" && c.class.Detail != "" {
			first.class, first.shown = c.class, c.shown
		}
		first.shown.cut = first.shown.cut || c.shown.cut
	}
	return out
}

// A cut is a schema with one keyword of one of its schema objects taken
// out: key, at depth, beside siblings.
type cut struct {
	schema   []byte
	key      string
	depth    int
	siblings []string
	root     *jsonvalue.Value
	obj      *jsonvalue.Value
}

// without is the schema with the keyword sibling of the cut's object
// taken out instead of the cut's, or (both) with both.
func (k cut) without(sibling string, both bool) []byte {
	saved := k.obj.Members
	k.obj.Members = slices.DeleteFunc(slices.Clone(saved), func(m jsonvalue.Member) bool {
		return m.Key == sibling || both && m.Key == k.key
	})
	out := k.root.Append(nil)
	k.obj.Members = saved
	return out
}

// maxCuts bounds the keywords taken out of one counterexample's schema
// (a minimized schema holds a few).
const maxCuts = 64

// cuts are the schema with each keyword of each of its schema objects
// taken out in turn, shallowest first, in the text's order: the keywords
// a title can quote, never a member of a keyword that holds data (enum,
// const, default, examples) or a name of properties and the like.
func cuts(schema []byte) []cut {
	root, err := jsonvalue.Parse(schema)
	if err != nil || root.Kind != jsonvalue.Object {
		return nil
	}
	var out []cut
	var walk func(v *jsonvalue.Value, depth int)
	walk = func(v *jsonvalue.Value, depth int) {
		if len(out) >= maxCuts {
			return
		}
		switch v.Kind {
		case jsonvalue.Array:
			for _, e := range v.Elems {
				walk(e, depth+1)
			}
			return
		case jsonvalue.Object:
		default:
			return
		}
		for i, m := range v.Members {
			if len(out) == maxCuts {
				break
			}
			if !quotable(m.Key) || m.Key == "" || len(v.Members) == 1 {
				// The only keyword of its object: taking it out is taking
				// out what its parent holds there, which is the claim to
				// put (a `type` alone in a pattern's schema is not read
				// because the pattern is not).
				continue
			}
			saved := v.Members
			v.Members = slices.Delete(slices.Clone(saved), i, i+1)
			text := root.Append(nil)
			v.Members = saved
			var sibs []string
			for _, o := range v.Members {
				if o.Key != m.Key && quotable(o.Key) && o.Key != "" && !slices.Contains(sibs, o.Key) {
					sibs = append(sibs, o.Key)
				}
			}
			out = append(out, cut{schema: text, key: m.Key, depth: depth, siblings: sibs, root: root, obj: v})
		}
		for _, m := range v.Members {
			switch m.Key {
			case "enum", "const", "default", "examples", "required":
				continue // data, not schemas
			case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
				if m.Value.Kind == jsonvalue.Object {
					for _, e := range m.Value.Members {
						walk(e.Value, depth+1)
					}
				}
				continue
			}
			walk(m.Value, depth+1)
		}
	}
	walk(root, 0)
	slices.SortStableFunc(out, func(a, b cut) int { return cmp.Compare(a.depth, b.depth) })
	return out
}
