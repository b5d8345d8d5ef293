package explain

import (
	"strings"
	"unicode"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// names is the sixth step, after shrinking: a class's counterexample that
// fails at a member of the arguments, and that the implementation answers
// as the reference does once that member is renamed, shows a bug of the
// member's name, whatever the class said. A class names what differs on
// one case ("a named reference missing from the implementation's table"),
// and an implementation that treats some names apart (x- extensions,
// reserved words) shows any class under them: the title would claim of
// the whole implementation what holds under one name.
//
// The renamed member keeps its declaration (the schema's properties
// renamed with it), and the probe counts only where the reference gives
// the same answer but for the name: a name the schema reads otherwise (a
// pattern it matches) is not renamed away.
func (s *session) names(causes []*cause) {
	if !s.live() {
		return
	}
	type probe struct {
		c       *cause
		key     string
		renamed impl.Case
		want    impl.Result // the reference's answer on the shown case, the member renamed
	}
	var probes []probe
	var cases []impl.Case
	for _, c := range causes {
		sh := c.shown
		if c.x != nil || sh == nil || !sh.f.explainable || sh.got.Failure != nil || sh.want.Error != "" {
			continue
		}
		key, renamed, want, ok := renameProbe(sh.c, sh.want, classify(sh.c, sh.want, sh.got).Where, s.want)
		if !ok {
			continue
		}
		probes = append(probes, probe{c, key, renamed, want})
		cases = append(cases, renamed)
	}
	if len(cases) == 0 {
		return
	}
	for i, got := range s.ask(s.ctx, cases) {
		p := probes[i]
		if got.Failure != nil || !impl.Same(got, p.want) {
			continue // it fails under another name too: the class stands
		}
		p.c.class = memberName(p.c.class, p.key)
	}
}

// renameProbe is the case c with the member of the arguments where
// points into renamed, and what the reference gives on it (ref): its
// answer on c (want) with the member renamed. It is not ok where there
// is no such member, its name cannot be quoted, or the reference gives
// anything else on the renamed case (the schema reads the new name
// otherwise: a pattern the old one matched).
func renameProbe(c impl.Case, want impl.Result, where string, ref func(impl.Case) impl.Result) (key string, renamed impl.Case, renamedWant impl.Result, ok bool) {
	key, ok = topMember(where)
	if !ok || !quotable(key) || want.Error != "" {
		return "", c, impl.Result{}, false
	}
	renamed, name, ok := renameMember(c, key)
	if !ok {
		return "", c, impl.Result{}, false
	}
	out, ok := renamedOutput(want.Output, key, name)
	if !ok || !impl.Same(ref(renamed), impl.OK(out)) {
		return "", c, impl.Result{}, false
	}
	return key, renamed, impl.OK(out), true
}

// memberName is the class of a bug shown under the member key only: d's
// clause, its class under member-name/. The title says no more than the
// probe showed: d's title, a class of what differs, claimed something of
// the whole implementation that the other name refutes.
func memberName(d diagnose.Diagnosis, key string) diagnose.Diagnosis {
	return diagnose.Diagnosis{
		Class:  "member-name/" + d.Class,
		Title:  "The member named `" + key + "` is not answered as the same member under another name is",
		Clause: d.Clause, Where: d.Where, Shape: d.Shape,
	}
}

// topMember is the first member name of the JSON pointer where.
func topMember(where string) (string, bool) {
	if !strings.HasPrefix(where, "/") {
		return "", false
	}
	tok, _, _ := strings.Cut(where[1:], "/")
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(tok), true
}

// quotable reports whether a title can quote key as it is: short,
// printable, and without a backquote.
func quotable(key string) bool {
	if key == "" || len(key) > 40 || strings.ContainsRune(key, '`') {
		return false
	}
	for _, r := range key {
		if !unicode.IsPrint(r) || r == unicode.ReplacementChar {
			return false
		}
	}
	return true
}

// renameMember returns c with the arguments' member key, and its
// declaration in the schema's properties if any, renamed to a name
// neither holds, and that name.
func renameMember(c impl.Case, key string) (impl.Case, string, bool) {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil || args.Kind != jsonvalue.Object {
		return c, "", false
	}
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return c, "", false
	}
	var props *jsonvalue.Value
	if schema.Kind == jsonvalue.Object {
		if p := schema.Member("properties"); p != nil && p.Kind == jsonvalue.Object {
			props = p
		}
	}
	taken := func(n string) bool {
		return args.Member(n) != nil || props != nil && props.Member(n) != nil
	}
	name := ""
	for _, n := range []string{"k", "k1", "k2", "k3", "member"} {
		if !taken(n) {
			name = n
			break
		}
	}
	if name == "" || !rename(args, key, name) {
		return c, "", false
	}
	if props != nil {
		rename(props, key, name)
	}
	c.Args, c.Schema = args.Append(nil), schema.Append(nil)
	return c, name, true
}

// rename renames the members of the object v named key to name; it
// reports whether there was one.
func rename(v *jsonvalue.Value, key, name string) bool {
	found := false
	for i := range v.Members {
		if v.Members[i].Key == key {
			v.Members[i].Key = name
			found = true
		}
	}
	return found
}

// renamedOutput is the output out with its member key renamed to name.
func renamedOutput(out []byte, key, name string) ([]byte, bool) {
	v, err := jsonvalue.Parse(out)
	if err != nil || v.Kind != jsonvalue.Object || !rename(v, key, name) {
		return nil, false
	}
	return v.Append(nil), true
}
