package explain

import (
	"slices"
	"strings"
	"unicode"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// contexts is the step after shrinking (and distinct): it checks a class's claim
// against the context of its counterexample. A class names what differs
// on one case ("a named reference missing from the implementation's
// table"), and an implementation that treats some members apart (x-
// extensions, reserved words, a schema it reads wrong around them) shows
// any class there: the title would claim of the whole implementation
// what holds in one place. So where the counterexample fails at a member
// of the arguments:
//
//   - renamed (its declaration in the schema's properties renamed with
//     it), the member is answered as the reference answers: a bug of the
//     member's name (class member-name/...);
//   - else, for a difference in the repair of a string's text (textClass),
//     with nothing declared for it (its properties entry made {}), it is:
//     a bug of how its declaration is read (member-declaration/...).
//
// A probe counts only where the reference gives the same answer, but for
// the name: a name the schema reads otherwise (a pattern it matches), or
// a declaration the rule needs (an array that decodes the string), is not
// taken away.
func (s *session) contexts(causes []*cause) {
	// The class causes whose counterexample fails at a member a title can
	// name, and that member.
	type probed struct {
		c   *cause
		key string
	}
	var cands []probed
	for _, c := range causes {
		sh := c.shown
		if c.x != nil || sh == nil || !sh.f.explainable || sh.got.Failure != nil || sh.want.Error != "" {
			continue
		}
		if key, ok := memberAt(classify(sh.c, sh.want, sh.got).Where); ok {
			cands = append(cands, probed{c, key})
		}
	}
	steps := []struct {
		applies func(class string) bool
		probe   func(c impl.Case, want impl.Result, key string, ref func(impl.Case) impl.Result) (impl.Case, impl.Result, bool)
		class   func(d diagnose.Diagnosis, key string) diagnose.Diagnosis
	}{{func(string) bool { return true }, renameProbe, memberName}, {textClass, undeclareProbe, memberDeclaration}, {refClass, fromAmpProbe, inContext}, {isNoFixpoint, twiceEscapedProbe, someFixpoints}}
	for _, step := range steps {
		if !s.live() {
			return
		}
		var runs []probed
		var wants []impl.Result // the reference's answer on each probe
		var cases []impl.Case
		for _, p := range cands {
			if strings.HasPrefix(p.c.class.Class, "member-") || strings.HasPrefix(p.c.class.Class, "in-context/") || strings.HasSuffix(p.c.class.Class, "/some") || !step.applies(p.c.class.Class) {
				continue // retitled by an earlier step, or not this step's
			}
			c, want, ok := step.probe(p.c.shown.c, p.c.shown.want, p.key, s.want)
			if ok {
				runs, wants, cases = append(runs, p), append(wants, want), append(cases, c)
			}
		}
		if len(cases) == 0 {
			continue
		}
		for i, got := range s.ask(s.ctx, cases) {
			if got.Failure != nil || !impl.Same(got, wants[i]) {
				continue // it fails there too: the class stands
			}
			runs[i].c.class = step.class(runs[i].c.class, runs[i].key)
		}
	}
	s.errorNames(causes)
}

// maxNamesProbed is how many names errorNames renames in one case at
// most, and maxErrorFindings how many findings of a cause it probes (a
// cause with more keeps its class).
const (
	maxNamesProbed   = 6
	maxErrorFindings = 16
)

// errorNames is the contexts step for an error the implementation gives
// where the reference answers: an error has no place in the output to
// point at, so in each case of the cause (its counterexample and each of
// its findings) each name (a member of the arguments, a declaration in
// the schema's properties) is renamed in turn, and, where a case holds
// several of the names every JavaScript object inherits, those together.
// A case is the names' where exactly one rename of one name cures it (the
// implementation answers as the reference does), else where the rename of
// its inherited names together does. Where every case of the cause is
// some names', all inherited, or all the one same name, the error is the
// names' (member-name/...); else the class stands.
func (s *session) errorNames(causes []*cause) {
	type probed struct {
		c     *cause
		k     int      // the case of the cause
		names []string // renamed
		want  impl.Result
	}
	var runs []probed
	var cases []impl.Case
	nCases := map[*cause]int{}
	for _, c := range causes {
		sh := c.shown
		if c.x != nil || sh == nil || !sh.f.explainable || sh.got.Failure != nil || sh.got.Error == "" || !sh.want.Answered() || strings.HasPrefix(c.class.Class, "member-") || len(c.fs) > maxErrorFindings {
			continue
		}
		all := []impl.Case{sh.c}
		for _, f := range c.fs {
			if !f.explainable || f.Got.Error == "" || !f.Want.Answered() {
				all = nil // a finding of another kind under the class
				break
			}
			all = append(all, f.Case)
		}
		nCases[c] = len(all)
		for k, kc := range all {
			want := s.want(kc)
			names := namesOf(kc)
			var inherited []string
			for _, key := range names {
				if pc, pw, ok := renameProbe(kc, want, key, s.want); ok {
					runs, cases = append(runs, probed{c, k, []string{key}, pw}), append(cases, pc)
				}
				if isInherited(key) {
					inherited = append(inherited, key)
				}
			}
			if len(inherited) > 1 {
				if pc, pw, ok := renameAll(kc, want, inherited, s.want); ok {
					runs, cases = append(runs, probed{c, k, inherited, pw}), append(cases, pc)
				}
			}
		}
	}
	if len(cases) == 0 || !s.live() {
		return
	}
	byCase := map[*cause]map[int]*cured{}
	for i, got := range s.ask(s.ctx, cases) {
		if got.Failure != nil || !impl.Same(got, runs[i].want) {
			continue
		}
		r := runs[i]
		if byCase[r.c] == nil {
			byCase[r.c] = map[int]*cured{}
		}
		cu := byCase[r.c][r.k]
		if cu == nil {
			cu = &cured{}
			byCase[r.c][r.k] = cu
		}
		if len(r.names) == 1 {
			cu.alone = append(cu.alone, r.names)
		} else {
			cu.together = append(cu.together, r.names)
		}
	}
	for _, c := range causes {
		names, ok := namesCuring(byCase[c], nCases[c])
		switch {
		case !ok:
		case !slices.ContainsFunc(names, func(n string) bool { return !isInherited(n) }):
			c.class = prototypeError(c.class, names)
		case len(names) == 1:
			c.class = errorName(c.class, names[0])
		}
	}
}

// cured are the renames that cured one case: of one name alone, and of
// several names together.
type cured struct{ alone, together [][]string }

// namesCuring is the names whose renames cure each of n cases (cs, by
// case), each once; false where a case is cured by no rename, or by two
// (the implementation fails there for more than one name, or for none in
// particular), or where there are no cases.
func namesCuring(cs map[int]*cured, n int) ([]string, bool) {
	var names []string
	for k := range n {
		cu := cs[k]
		var ns []string
		switch {
		case cu == nil:
			return nil, false
		case len(cu.alone) == 1:
			ns = cu.alone[0]
		case len(cu.alone) == 0 && len(cu.together) == 1:
			ns = cu.together[0]
		default:
			return nil, false
		}
		for _, name := range ns {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	return names, len(names) > 0
}

// isInherited reports whether key names a member every JavaScript
// object inherits from Object.prototype, `__proto__` included.
func isInherited(key string) bool {
	return key == "__proto__" || slices.Contains(deviation.InheritedNames, key)
}

// prototypeError is the class of an error shown under names every
// JavaScript object inherits, sent or declared: one class whatever the
// names, its title naming each (diagnose.PrototypeErrorTitle).
func prototypeError(d diagnose.Diagnosis, names []string) diagnose.Diagnosis {
	names = diagnose.OrderDetails(slices.Clone(names))
	return diagnose.Diagnosis{Class: diagnose.PrototypeErrorClass, Detail: strings.Join(names, ", "), Title: diagnose.PrototypeErrorTitle(names), Clause: d.Clause, Where: d.Where, Shape: d.Shape}
}

// namesOf are the names of c a title can quote, at most maxNamesProbed:
// the members of the arguments, then the schema's properties not among
// them, each once.
func namesOf(c impl.Case) []string {
	var names []string
	add := func(v *jsonvalue.Value) {
		if v == nil || v.Kind != jsonvalue.Object {
			return
		}
		for _, m := range v.Members {
			if quotable(m.Key) && !slices.Contains(names, m.Key) && len(names) < maxNamesProbed {
				names = append(names, m.Key)
			}
		}
	}
	if args, err := jsonvalue.Parse(c.Args); err == nil {
		add(args)
	}
	if schema, err := jsonvalue.Parse(c.Schema); err == nil && schema.Kind == jsonvalue.Object {
		add(schema.Member("properties"))
	}
	return names
}

// errorName is the class of an error shown under the name key only,
// sent or declared.
func errorName(d diagnose.Diagnosis, key string) diagnose.Diagnosis {
	return diagnose.Diagnosis{
		Class:  "member-name/" + d.Class,
		Title:  "An error for arguments with a member named " + quoteKey(key) + ", sent or declared, which under another name are answered as the rule says",
		Clause: d.Clause, Where: d.Where, Shape: d.Shape,
	}
}

// memberAt is the member of the arguments the JSON pointer where points
// into, when a title can quote its name.
func memberAt(where string) (string, bool) {
	if !strings.HasPrefix(where, "/") {
		return "", false
	}
	key := jsonvalue.PointerTokens(where)[0]
	return key, quotable(key)
}

// renameProbe is the case c with the arguments' member key renamed, and
// what the reference gives on it (ref): its answer on c (want) with the
// member renamed. It is not ok where there is no such member, or the
// reference gives anything else on the renamed case (the schema reads
// the new name otherwise: a pattern the old one matched).
func renameProbe(c impl.Case, want impl.Result, key string, ref func(impl.Case) impl.Result) (renamed impl.Case, renamedWant impl.Result, ok bool) {
	return renameAll(c, want, []string{key}, ref)
}

// renameAll is renameProbe for the names keys at once, each renamed to a
// name of its own.
func renameAll(c impl.Case, want impl.Result, keys []string, ref func(impl.Case) impl.Result) (renamed impl.Case, renamedWant impl.Result, ok bool) {
	renamed, out := c, want.Output
	for _, key := range keys {
		var name string
		var sent bool
		renamed, name, sent, ok = renameMember(renamed, key)
		if !ok {
			return c, impl.Result{}, false
		}
		if sent { // else declared only: no such member in the output
			if out, ok = renamedOutput(out, key, name); !ok {
				return c, impl.Result{}, false
			}
		}
	}
	if !impl.Same(ref(renamed), impl.OK(out)) {
		return c, impl.Result{}, false
	}
	return renamed, impl.OK(out), true
}

// textClass reports whether class is a difference in the repair of a
// string's text (references decoded, not decoded, decoded otherwise),
// which the rule makes whatever the schema declares: an implementation
// that repairs such a string once nothing is declared for it misreads the
// declaration. Not a class of the JSON repair: a declaration of array or
// object is what lets an implementation try JSON at all, so one that
// decodes what is not JSON only where an array is declared would be
// "fixed" by taking the declaration away.
func textClass(class string) bool {
	return hasAnyPrefix(class, "undecoded", "misdecoded", "overdecoded", "no-fixpoint", "past-pass-bound", "text-")
}

// hasAnyPrefix reports whether s begins with one of prefixes.
func hasAnyPrefix(s string, prefixes ...string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(s, p) })
}

// undeclareProbe is the case c with nothing declared for the arguments'
// member key (its entry in the schema's properties made {}), and what the
// reference gives on it: the same as on c (want), or it is not ok (the
// rule needs the declaration: an array the member's string decodes to).
func undeclareProbe(c impl.Case, want impl.Result, key string, ref func(impl.Case) impl.Result) (probed impl.Case, probedWant impl.Result, ok bool) {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil || schema.Kind != jsonvalue.Object {
		return c, impl.Result{}, false
	}
	props := schema.Member("properties")
	if props == nil || props.Kind != jsonvalue.Object {
		return c, impl.Result{}, false
	}
	decl := props.Member(key)
	if decl == nil || decl.Kind == jsonvalue.Object && len(decl.Members) == 0 {
		return c, impl.Result{}, false
	}
	*decl = jsonvalue.Value{Kind: jsonvalue.Object}
	probed = c
	probed.Schema = schema.Append(nil)
	if !impl.Same(ref(probed), want) {
		return c, impl.Result{}, false
	}
	return probed, want, true
}

// refClass reports whether class is a reference decoded otherwise than
// HTML decodes it (left, decoded to other text, decoded where HTML keeps
// it).
func refClass(class string) bool {
	return hasAnyPrefix(class, "undecoded", "misdecoded", "overdecoded")
}

// fromAmpProbe is the case c with the arguments' member key, a string
// with text before its first '&', cut to begin there, and what the
// reference gives on it. It is not ok where the member is no such
// string, or the reference does not answer it.
func fromAmpProbe(c impl.Case, _ impl.Result, key string, ref func(impl.Case) impl.Result) (probed impl.Case, probedWant impl.Result, ok bool) {
	return withString(c, key, ref, func(s string) (string, bool) {
		at := strings.IndexByte(s, '&')
		return s[max(at, 0):], at > 0
	})
}

// withString is the case c with the arguments' member key, a string,
// made what edit gives (ok false: no probe), and what the reference
// gives on it, which must be an answer.
func withString(c impl.Case, key string, ref func(impl.Case) impl.Result, edit func(string) (string, bool)) (probed impl.Case, probedWant impl.Result, ok bool) {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil || args.Kind != jsonvalue.Object {
		return c, impl.Result{}, false
	}
	m := args.Member(key)
	if m == nil || m.Kind != jsonvalue.String {
		return c, impl.Result{}, false
	}
	if m.Str, ok = edit(m.Str); !ok {
		return c, impl.Result{}, false
	}
	probed = c
	probed.Args = args.Append(nil)
	w := ref(probed)
	if !w.Answered() {
		return c, impl.Result{}, false
	}
	return probed, w, true
}

// inContext is the class of a reference decoded wrong in some strings
// only: the same string from its first '&' on is answered right, so what
// comes before the reference decides (a string that looks like a URL
// decoded as an attribute value). d's title is what the case shows.
func inContext(d diagnose.Diagnosis, key string) diagnose.Diagnosis {
	return diagnose.Diagnosis{
		Class:  "in-context/" + d.Class,
		Title:  "Character references are decoded otherwise than HTML decodes them in some strings only, by the text before them: the member " + quoteKey(key) + " from its first `&` on is answered right (the case: " + lowerFirst(d.Title) + ")",
		Clause: d.Clause, Where: d.Where, Shape: d.Shape,
	}
}

// isNoFixpoint reports whether class is decoding stopped short of the
// fixpoint, whose title claims that references are decoded once.
func isNoFixpoint(class string) bool { return class == "no-fixpoint" }

// twiceEscapedProbe is the case c with the arguments' member key, a
// string, made `&amp;amp;` (the title's example of no-fixpoint), and what
// the reference gives on it.
func twiceEscapedProbe(c impl.Case, _ impl.Result, key string, ref func(impl.Case) impl.Result) (probed impl.Case, probedWant impl.Result, ok bool) {
	return withString(c, key, ref, func(s string) (string, bool) { return "&amp;amp;", s != "&amp;amp;" })
}

// someFixpoints is the class of decoding stopped short of the fixpoint
// in some text, where `&amp;amp;` is decoded to `&`: not "decoded once".
func someFixpoints(d diagnose.Diagnosis, key string) diagnose.Diagnosis {
	return diagnose.Diagnosis{
		Class:  d.Class + "/some",
		Title:  "Decoding stops short of the value that no longer changes in some text, though `&amp;amp;` is decoded to `&`: the member " + quoteKey(key) + " of the case is left a pass or more short",
		Clause: d.Clause, Where: d.Where, Shape: d.Shape,
	}
}

// memberDeclaration is the class of a bug shown under what the schema
// declares for the member key only: d's clause, its class under
// member-declaration/.
func memberDeclaration(d diagnose.Diagnosis, key string) diagnose.Diagnosis {
	return diagnose.Diagnosis{
		Class:  "member-declaration/" + d.Class,
		Title:  "The member " + quoteKey(key) + " is not answered as it is with nothing declared for it, though the rule gives both the same answer: the schema's declaration of it is misread",
		Clause: d.Clause, Where: d.Where, Shape: d.Shape,
	}
}

// memberName is the class of a bug shown under the member key only: d's
// clause, its class's first part under member-name/ (a member whose
// declaration comes through a keyword, decode-missed/keyword, and one
// whose does not, decode-missed, are one bug of its name). The title says
// no more than the probe showed: d's title, a class of what differs,
// claimed something of the whole implementation that the other name
// refutes.
func memberName(d diagnose.Diagnosis, key string) diagnose.Diagnosis {
	base, _, _ := strings.Cut(d.Class, "/")
	return diagnose.Diagnosis{
		Class:  "member-name/" + base,
		Title:  "The member named " + quoteKey(key) + " is not answered as the same member under another name is",
		Clause: d.Clause, Where: d.Where, Shape: d.Shape,
	}
}

// quoteKey is key as a title quotes it.
func quoteKey(key string) string {
	if key == "" {
		return "`\"\"` (the empty name)"
	}
	return "`" + key + "`"
}

// quotable reports whether a title can quote key as it is: short,
// printable, and without a backquote.
func quotable(key string) bool {
	if len(key) > 40 || strings.ContainsRune(key, '`') {
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
// declaration in the schema's properties, renamed to a name neither
// holds, that name, and whether the member was sent (else it was only
// declared).
func renameMember(c impl.Case, key string) (_ impl.Case, _ string, sent, ok bool) {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil || args.Kind != jsonvalue.Object {
		return c, "", false, false
	}
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return c, "", false, false
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
	if namedElsewhere(schema, props, key, false) {
		// A declaration of the member that the rename would not follow
		// (an embedded resource's properties, a $defs entry reached by
		// reference): renamed, the member could lose it, and answer
		// right for that reason alone.
		return c, "", false, false
	}
	name := ""
	for _, n := range []string{"k", "k1", "k2", "k3", "member"} {
		if !taken(n) {
			name = n
			break
		}
	}
	if name == "" {
		return c, "", false, false
	}
	// The member sent, or declared only (a name an error can depend on).
	sent = rename(args, key, name)
	if declared := props != nil && rename(props, key, name); !sent && !declared {
		return c, "", false, false
	}
	c.Args, c.Schema = args.Append(nil), schema.Append(nil)
	return c, name, sent, true
}

// namedElsewhere reports whether a member named key is in the schema v
// anywhere but in props, the root's properties. The keys of a
// patternProperties object (patterns, when v is one) are no names: what a
// pattern declares under the new name, the reference's answer on the
// renamed case says (renameAll).
func namedElsewhere(v, props *jsonvalue.Value, key string, patterns bool) bool {
	if v == nil {
		return false
	}
	for _, m := range v.Members {
		if m.Key == key && v != props && !patterns || namedElsewhere(m.Value, props, key, m.Key == "patternProperties" && !patterns) {
			return true
		}
	}
	for _, e := range v.Elems {
		if namedElsewhere(e, props, key, false) {
			return true
		}
	}
	return false
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
