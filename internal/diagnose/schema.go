package diagnose

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolnorm/toolnorm/internal/ecma"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// schemaInfo answers, roughly, what a schema declares at a position of
// the arguments and through which keywords. It is a reading for naming a
// difference, not the reference's: a case is minimized first, so its
// schema is small, and a keyword this reading does not follow still names
// the class through keyword.
type schemaInfo struct {
	root *jsonvalue.Value
}

func newSchema(root *jsonvalue.Value) *schemaInfo { return &schemaInfo{root: root} }

// A reach is a subschema that applies at a position, with the keywords
// other than properties and items that led to it (via), and every step
// that led to it (route: via's keywords, "properties" and "items" for a
// member and an element, "items[]" for a list of items, where via has
// "items").
type reach struct {
	s     *jsonvalue.Value
	via   []string
	route []string
}

// by is r's subschema s, reached through the keyword kw.
func (r reach) by(s *jsonvalue.Value, kw string) reach {
	return reach{s, with(r.via, kw), with(r.route, kw)}
}

// under is r's subschema s, reached through properties or items (step),
// which are no keyword of via.
func (r reach) under(s *jsonvalue.Value, step string) reach {
	return reach{s, r.via, with(r.route, step)}
}

// way is the way from the first keyword of via to r's subschema: the
// keywords and the members and elements after it, each step once where
// it repeats ("$ref/properties"); "" when via is empty.
func (r reach) way() string {
	i := slices.IndexFunc(r.route, func(st string) bool { return st != "properties" && st != "items" })
	if i < 0 {
		return ""
	}
	return strings.Join(slices.Compact(slices.Clone(r.route[i:])), "/")
}

// maxExpand bounds how many references and combinators one expansion
// follows, so that a cycle ends.
const maxExpand = 64

// at returns the subschemas that apply at path.
func (si *schemaInfo) at(path []step) []reach {
	if si == nil || si.root == nil {
		return nil
	}
	cur := si.expand([]reach{{s: si.root}})
	for _, st := range path {
		var next []reach
		for _, r := range cur {
			next = append(next, child(r, st)...)
		}
		cur = si.expand(next)
	}
	return cur
}

// expand adds to rs what their references and combinators apply.
func (si *schemaInfo) expand(rs []reach) []reach {
	out := slices.Clone(rs)
	for i := 0; i < len(out) && i < maxExpand; i++ {
		r := out[i]
		if r.s == nil || r.s.Kind != jsonvalue.Object {
			continue
		}
		for _, m := range r.s.Members {
			switch m.Key {
			case "$ref", "$dynamicRef", "$recursiveRef":
				if m.Value.Kind == jsonvalue.String {
					if t := si.resolve(m.Value.Str); t != nil {
						out = append(out, r.by(t, m.Key))
					}
				}
			case "allOf", "anyOf", "oneOf":
				if m.Value.Kind == jsonvalue.Array {
					for _, e := range m.Value.Elems {
						out = append(out, r.by(e, m.Key))
					}
				}
			case "then", "else":
				out = append(out, r.by(m.Value, "if"))
			}
		}
	}
	return out
}

func with(via []string, kw string) []string { return append(slices.Clip(via), kw) }

// resolve finds the target of a local reference: "#", a JSON pointer, an
// anchor, or an $id.
func (si *schemaInfo) resolve(ref string) *jsonvalue.Value {
	frag, isFrag := strings.CutPrefix(ref, "#")
	if isFrag && (frag == "" || strings.HasPrefix(frag, "/")) {
		return si.root.Resolve(ref)
	}
	var found *jsonvalue.Value
	var search func(v *jsonvalue.Value, depth int)
	search = func(v *jsonvalue.Value, depth int) {
		if v == nil || found != nil || depth > 100 {
			return
		}
		switch v.Kind {
		case jsonvalue.Object:
			for _, m := range v.Members {
				if m.Value.Kind == jsonvalue.String && (isFrag && (m.Key == "$anchor" || m.Key == "$dynamicAnchor") && m.Value.Str == frag ||
					m.Key == "$id" && (m.Value.Str == ref || strings.HasSuffix(m.Value.Str, "/"+ref))) {
					found = v
					return
				}
			}
			for _, m := range v.Members {
				search(m.Value, depth+1)
			}
		case jsonvalue.Array:
			for _, e := range v.Elems {
				search(e, depth+1)
			}
		}
	}
	search(si.root, 0)
	return found
}

// child returns the subschemas of r that apply to the member or element st.
func child(r reach, st step) []reach {
	s := r.s
	if s == nil || s.Kind != jsonvalue.Object {
		return nil
	}
	var out []reach
	if st.index < 0 {
		matched := false
		if p := s.Member("properties").Member(st.key); p != nil {
			out, matched = append(out, r.under(p, "properties")), true
		}
		if pp := s.Member("patternProperties"); pp != nil && pp.Kind == jsonvalue.Object {
			for _, m := range pp.Members {
				if patternMatches(m.Key, st.key) {
					out, matched = append(out, r.by(m.Value, "patternProperties")), true
				}
			}
		}
		if ap := s.Member("additionalProperties"); ap != nil && !matched {
			out = append(out, r.by(ap, "additionalProperties"))
		}
		return out
	}
	items := s.Member("items")
	if pi := s.Member("prefixItems"); pi != nil && pi.Kind == jsonvalue.Array {
		if st.index < len(pi.Elems) {
			return []reach{r.by(pi.Elems[st.index], "prefixItems")}
		}
		if items != nil {
			return []reach{r.under(items, "items")}
		}
		return nil
	}
	if items != nil && items.Kind == jsonvalue.Array {
		if st.index < len(items.Elems) {
			return []reach{{items.Elems[st.index], with(r.via, "items"), with(r.route, "items[]")}}
		}
		if ai := s.Member("additionalItems"); ai != nil {
			return []reach{r.by(ai, "additionalItems")}
		}
		return nil
	}
	if items != nil {
		return []reach{r.under(items, "items")}
	}
	return nil
}

// types is the set of types a subschema's own "type" names.
func types(s *jsonvalue.Value) []string {
	t := s.Member("type")
	switch {
	case t == nil:
		return nil
	case t.Kind == jsonvalue.String:
		return []string{t.Str}
	case t.Kind == jsonvalue.Array:
		var out []string
		for _, e := range t.Elems {
			if e.Kind == jsonvalue.String {
				out = append(out, e.Str)
			}
		}
		return out
	}
	return nil
}

// declaring returns the first reach among rs that names type name, and
// whether there is one.
func declaring(rs []reach, name string) (reach, bool) {
	for _, r := range rs {
		if slices.Contains(types(r.s), name) {
			return r, true
		}
	}
	return reach{}, false
}

// shaping returns the reach among rs that makes the position declare
// type name and not string, as the rule needs to decode: the first that
// names name and not string (the reaches at a position intersect, so its
// keyword is what narrows a `type` list that admits a string, as a
// matching pattern does beside `properties`), else the first that names
// name; and whether there is one.
func shaping(rs []reach, name string) (reach, bool) {
	for _, r := range rs {
		if ts := types(r.s); slices.Contains(ts, name) && !slices.Contains(ts, "string") {
			return r, true
		}
	}
	return declaring(rs, name)
}

// notable are the keywords that name a class when a schema needs them, in
// the order they are preferred: the ones an implementation most often
// does not follow first.
var notable = []string{"$dynamicRef", "$recursiveRef", "$ref", "$schema", "patternProperties", "additionalProperties",
	"prefixItems", "additionalItems", "allOf", "anyOf", "oneOf", "if", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "not"}

// keyword is the most notable keyword a schema holds in a schema
// position, or "".
func keyword(schema []byte) string {
	if ks := Keywords(schema); len(ks) > 0 {
		return ks[0]
	}
	return ""
}

// Keywords are the notable keywords a schema holds in schema positions
// (not a property's name, not inside const or enum), most notable first.
func Keywords(schema []byte) []string {
	v, err := jsonvalue.Parse(schema)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	WalkSchemas(v, func(s *jsonvalue.Value) {
		for _, m := range s.Members {
			seen[m.Key] = true
		}
	})
	var out []string
	for _, k := range notable {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// WalkSchemas calls f on every object in a schema position of schema,
// the root first, then what each holds: the values of keywords, the
// members of properties, patternProperties, $defs, definitions,
// dependentSchemas and dependencies (their names are no keywords), the
// elements of an array (allOf, a list of items); never inside const,
// enum, default or examples, which hold data. f may change the members
// of the object it is given; WalkSchemas walks them as f leaves them.
func WalkSchemas(schema *jsonvalue.Value, f func(s *jsonvalue.Value)) {
	var walk func(v *jsonvalue.Value, names bool, depth int)
	walk = func(v *jsonvalue.Value, names bool, depth int) {
		if v == nil || depth > 200 {
			return
		}
		switch v.Kind {
		case jsonvalue.Object:
			if !names {
				f(v)
			}
			for _, m := range v.Members {
				switch {
				case names:
					walk(m.Value, false, depth+1)
				case m.Key == "const" || m.Key == "enum" || m.Key == "default" || m.Key == "examples":
				default:
					walk(m.Value, namesSchemas[m.Key], depth+1)
				}
			}
		case jsonvalue.Array:
			for _, e := range v.Elems {
				walk(e, false, depth+1)
			}
		}
	}
	walk(schema, false, 0)
}

// namesSchemas are the keywords whose value maps names to subschemas.
var namesSchemas = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true}

// patternBudget bounds the steps of one pattern match.
const patternBudget = 1 << 16

// patternMatches reports whether the ECMA-262 pattern src, as
// patternProperties reads it, matches key; a pattern that does not compile
// or runs out of its budget matches nothing.
func patternMatches(src, key string) bool {
	re, err := ecma.Compile(src)
	if err != nil {
		return false
	}
	budget := int64(patternBudget)
	ok, err := re.Match(key, &budget)
	return err == nil && ok
}

// refCycle reports whether the schema's local references make a cycle: a
// `$ref` inside the value another `$ref` names that leads, through
// further ones, back to a value on the way.
func refCycle(schema []byte) bool {
	root, err := jsonvalue.Parse(schema)
	if err != nil {
		return false
	}
	// refs are the values the `$ref`s inside v name.
	refs := func(v *jsonvalue.Value) []*jsonvalue.Value {
		var out []*jsonvalue.Value
		var walk func(v *jsonvalue.Value, depth int)
		walk = func(v *jsonvalue.Value, depth int) {
			if depth > 200 {
				return
			}
			if r := v.Member("$ref"); r != nil && r.Kind == jsonvalue.String {
				if t := root.Resolve(r.Str); t != nil {
					out = append(out, t)
				}
			}
			for _, m := range v.Members {
				walk(m.Value, depth+1)
			}
			for _, e := range v.Elems {
				walk(e, depth+1)
			}
		}
		walk(v, 0)
		return out
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := map[*jsonvalue.Value]int{}
	var cyclic func(t *jsonvalue.Value) bool
	cyclic = func(t *jsonvalue.Value) bool {
		switch state[t] {
		case onPath:
			return true
		case done:
			return false
		}
		state[t] = onPath
		for _, n := range refs(t) {
			if cyclic(n) {
				return true
			}
		}
		state[t] = done
		return false
	}
	for _, t := range refs(root) {
		if cyclic(t) {
			return true
		}
	}
	return false
}

// DeclaresString reports whether schema lets the value at where, a JSON
// Pointer into args, be a string, as this reading names a string decoded
// where one is declared: a subschema that applies there names `string`,
// or a branch of anyOf or oneOf there admits any type. False when schema
// or args do not parse, or args hold nothing at where.
func DeclaresString(schema, args []byte, where string) bool {
	root, path, ok := pathIn(schema, args, where)
	if !ok {
		return false
	}
	rs := newSchema(root).at(path)
	_, str := declaring(rs, "string")
	return str || anyBranch(rs)
}

// Declares reports whether a subschema that applies at where, a JSON
// Pointer into args, names the type name ("array", "object") in its
// `type`, as this reading names a wrong shape substituted. False when
// schema or args do not parse, or args hold nothing at where.
func Declares(schema, args []byte, where, name string) bool {
	root, path, ok := pathIn(schema, args, where)
	if !ok {
		return false
	}
	_, ok = declaring(newSchema(root).at(path), name)
	return ok
}

// pathIn parses schema and args, and returns the schema and the steps to
// where, a JSON Pointer into args; false when either does not parse, or
// args hold nothing at where.
func pathIn(schema, args []byte, where string) (*jsonvalue.Value, []step, bool) {
	root, err := jsonvalue.Parse(schema)
	if err != nil {
		return nil, nil, false
	}
	v, err := jsonvalue.Parse(args)
	if err != nil {
		return nil, nil, false
	}
	var path []step
	for _, tok := range jsonvalue.PointerTokens(where) {
		st := step{key: tok, index: -1}
		if v.Kind == jsonvalue.Array {
			st.index, _ = strconv.Atoi(tok) // Step below checks it
			st.key = ""
		}
		if v = v.Step(tok); v == nil {
			return nil, nil, false
		}
		path = append(path, st)
	}
	return root, path, true
}

// Stringed is schema with each subschema that declares shape ("array",
// "object") at where, a JSON Pointer into args, declaring "string" in
// its place: where the keyword that reaches it is followed, the string
// there is then kept. It reports false when no subschema declares the
// shape there, or schema or args do not parse.
func Stringed(schema, args []byte, where, shape string) ([]byte, bool) {
	root, path, ok := pathIn(schema, args, where)
	if !ok {
		return nil, false
	}
	changed := false
	for _, r := range newSchema(root).at(path) {
		if t := r.s.Member("type"); t != nil && slices.Contains(types(r.s), shape) {
			*t, changed = jsonvalue.Value{Kind: jsonvalue.String, Str: "string"}, true
		}
	}
	if !changed {
		return nil, false
	}
	return root.Append(nil), true
}

// WithoutAt is schema with the keywords kws taken out of each subschema
// that applies at where, a JSON Pointer into args (the subschemas its
// references and combinators reach there too), and the keywords of kws
// it took out, in the order of kws. It takes out nothing, and returns
// none, when schema or args do not parse, or args hold nothing at where.
func WithoutAt(schema, args []byte, where string, kws []string) ([]byte, []string) {
	root, path, ok := pathIn(schema, args, where)
	if !ok {
		return schema, nil
	}
	var taken []string
	for _, r := range newSchema(root).at(path) {
		if r.s == nil || r.s.Kind != jsonvalue.Object {
			continue
		}
		r.s.Members = slices.DeleteFunc(r.s.Members, func(m jsonvalue.Member) bool {
			if !slices.Contains(kws, m.Key) {
				return false
			}
			if !slices.Contains(taken, m.Key) {
				taken = append(taken, m.Key)
			}
			return true
		})
	}
	if len(taken) == 0 {
		return schema, nil
	}
	slices.SortStableFunc(taken, func(a, b string) int { return slices.Index(kws, a) - slices.Index(kws, b) })
	return root.Append(nil), taken
}
