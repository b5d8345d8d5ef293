package schemagen

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// The mutations of a case, structure-aware: they change the schema and
// the arguments together.
const (
	mAddKeyword  = iota // add a validation keyword or an applicator to a subschema
	mDropKeyword        // drop a keyword of a subschema
	mWrap               // wrap a subschema in allOf, anyOf or oneOf
	mMoveToDefs         // move a subschema into $defs, a $ref where it was
	mTypeForm           // change a type form: a name, a list with string or null, nullable
	mBreak              // add a constraint the value at its position breaks
	mDraft              // change the draft ($schema)
	mSpecialKey         // rename a member of the arguments to a special key
	mJSONText           // send a container of the arguments as its JSON text
	mReference          // escape a string once more, or add a reference to it
	numMutations
)

// Mutation names, for tests and reports.
var mutationNames = [numMutations]string{"add-keyword", "drop-keyword", "wrap", "move-to-defs", "type-form", "break", "draft", "special-key", "json-text", "reference"}

// Mutate changes schema and args in place, one to three times, each time
// by one of the mutations this case enables (swarm testing: each case
// enables a random subset of them). It reports whether a mutation added a
// constraint the arguments break (for Of), and whether it changed
// anything. Both must be parsed JSON (args an object: an argument of
// another kind is left as it is).
func Mutate(r *rand.Rand, schema, args *jsonvalue.Value) (broke, changed bool) {
	m := mutator{r: r, schema: schema, args: args}
	enabled := r.Uint32() & (1<<numMutations - 1)
	if enabled == 0 {
		enabled = 1 << r.IntN(numMutations)
	}
	for range 1 + r.IntN(3) {
		var ops []int
		for op := range numMutations {
			if enabled&(1<<op) != 0 {
				ops = append(ops, op)
			}
		}
		// A mutation that finds nothing to change gives way to another.
		for tries := 0; tries < 4; tries++ {
			if m.apply(pick(r, ops)) {
				changed = true
				break
			}
		}
	}
	return m.broke, changed
}

// MutationNames are the names of the mutations, in their order.
func MutationNames() []string { return mutationNames[:] }

type mutator struct {
	r            *rand.Rand
	schema, args *jsonvalue.Value
	broke        bool
	defs         int
}

func (m *mutator) chance(n int) bool { return m.r.IntN(n) == 0 }

func (m *mutator) apply(op int) bool {
	switch op {
	case mAddKeyword:
		return m.addKeyword()
	case mDropKeyword:
		return m.dropKeyword()
	case mWrap:
		return m.wrap()
	case mMoveToDefs:
		return m.moveToDefs()
	case mTypeForm:
		return m.typeForm()
	case mBreak:
		return m.breakValue()
	case mDraft:
		return m.changeDraft()
	case mSpecialKey:
		return m.specialKey()
	case mJSONText:
		return m.jsonText()
	case mReference:
		return m.reference()
	}
	return false
}

// A slot is a place that holds a subschema: the value, and how to put
// another there.
type slot struct {
	v    *jsonvalue.Value
	path []string // JSON Pointer tokens from the root
	set  func(*jsonvalue.Value)
}

// maxSlots bounds the subschemas a mutation looks at.
const maxSlots = 512

// slots lists the subschemas of the schema, the root first.
func (m *mutator) slots() []slot {
	out := []slot{{v: m.schema, set: func(v *jsonvalue.Value) { *m.schema = *v }}}
	var walk func(v *jsonvalue.Value, path []string, depth int)
	add := func(v *jsonvalue.Value, path []string, set func(*jsonvalue.Value), depth int) {
		if len(out) >= maxSlots || v.Kind != jsonvalue.Object && v.Kind != jsonvalue.Bool {
			return
		}
		out = append(out, slot{v: v, path: path, set: set})
		walk(v, path, depth+1)
	}
	walk = func(v *jsonvalue.Value, path []string, depth int) {
		if v.Kind != jsonvalue.Object || depth > maxAnalyzedDepth {
			return
		}
		for i := range v.Members {
			mem := &v.Members[i]
			if !holdsSchemas[mem.Key] {
				continue // (the path below built only for what is added)
			}
			p := append(append([]string(nil), path...), mem.Key)
			switch mem.Key {
			case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas":
				if mem.Value.Kind != jsonvalue.Object {
					continue
				}
				for j := range mem.Value.Members {
					c := &mem.Value.Members[j]
					add(c.Value, append(append([]string(nil), p...), c.Key), func(n *jsonvalue.Value) { c.Value = n }, depth)
				}
			case "allOf", "anyOf", "oneOf", "prefixItems", "items":
				if mem.Value.Kind == jsonvalue.Array {
					for j := range mem.Value.Elems {
						e := mem.Value.Elems
						add(e[j], append(append([]string(nil), p...), strconv.Itoa(j)), func(n *jsonvalue.Value) { e[j] = n }, depth)
					}
					continue
				}
				if mem.Key != "items" {
					continue
				}
				fallthrough
			case "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames",
				"unevaluatedProperties", "unevaluatedItems":
				add(mem.Value, p, func(n *jsonvalue.Value) { mem.Value = n }, depth)
			}
		}
	}
	walk(m.schema, nil, 0)
	return out
}

// holdsSchemas are the keywords slots looks under.
var holdsSchemas = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true,
	"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true,
	"additionalProperties": true, "additionalItems": true, "not": true, "if": true, "then": true, "else": true, "contains": true, "propertyNames": true,
	"unevaluatedProperties": true, "unevaluatedItems": true,
}

// objectSlots are the slots that hold a schema object.
func (m *mutator) objectSlots() []slot {
	var out []slot
	for _, s := range m.slots() {
		if s.v.Kind == jsonvalue.Object {
			out = append(out, s)
		}
	}
	return out
}

// keywords a mutation may add, each with a value.
var addable = []func(r *rand.Rand) (string, *jsonvalue.Value){
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "maxLength", intv(r.IntN(4)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "minLength", intv(1 + r.IntN(6)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "pattern", str(pick(r, patterns).re) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "format", str(pick(r, formatSpec).name) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "enum", arr(str("[1]"), str("x"), intv(1)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "const", str("{}") },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "minimum", intv(r.IntN(3)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "maximum", intv(r.IntN(10)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "multipleOf", intv(2 + r.IntN(2)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "minItems", intv(1 + r.IntN(3)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "maxItems", intv(r.IntN(2)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "uniqueItems", boolean(true) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "contains", typed("string") },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "required", arr(str(pick(r, plainKeys))) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "minProperties", intv(1 + r.IntN(2)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "propertyNames", maxLengthSchema(3 + r.IntN(6)) },
	func(r *rand.Rand) (string, *jsonvalue.Value) {
		return "dependentRequired", objWith(pick(r, plainKeys), arr(str(pick(r, plainKeys))))
	},
	func(r *rand.Rand) (string, *jsonvalue.Value) {
		return "items", typed(pick(r, []string{"array", "object"}))
	},
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "prefixItems", arr(typed("array")) },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "additionalItems", typed("object") },
	func(r *rand.Rand) (string, *jsonvalue.Value) {
		return "additionalProperties", typed(pick(r, []string{"array", "object", "string"}))
	},
	func(r *rand.Rand) (string, *jsonvalue.Value) {
		return "patternProperties", objWith(pick(r, keyPatterns).re, typed("array"))
	},
	func(r *rand.Rand) (string, *jsonvalue.Value) {
		return "not", typed(pick(r, []string{"array", "string"}))
	},
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "if", typed("string") },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "then", typed("array") },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "else", typed("object") },
	func(r *rand.Rand) (string, *jsonvalue.Value) {
		return "dependentSchemas", objWith(pick(r, plainKeys), objWith("properties", objWith(pick(r, plainKeys), typed("array"))))
	},
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "unevaluatedProperties", typed("array") },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "unevaluatedItems", typed("object") },
	func(r *rand.Rand) (string, *jsonvalue.Value) { return "nullable", boolean(true) },
}

func typed(t string) *jsonvalue.Value { return objWith("type", str(t)) }

func maxLengthSchema(n int) *jsonvalue.Value { return objWith("maxLength", intv(n)) }

func objWith(k string, v *jsonvalue.Value) *jsonvalue.Value {
	o := obj()
	o.Members = append(o.Members, jsonvalue.Member{Key: k, Value: v})
	return o
}

// setMember sets member k of an object, replacing the first one there.
func setMember(o *jsonvalue.Value, k string, v *jsonvalue.Value) {
	for i, m := range o.Members {
		if m.Key == k {
			o.Members[i].Value = v
			return
		}
	}
	o.Members = append(o.Members, jsonvalue.Member{Key: k, Value: v})
}

func (m *mutator) addKeyword() bool {
	ss := m.objectSlots()
	if len(ss) == 0 {
		return false // a boolean schema, nothing of it an object
	}
	s := pick(m.r, ss)
	k, v := pick(m.r, addable)(m.r)
	setMember(s.v, k, v)
	return true
}

func (m *mutator) dropKeyword() bool {
	ss := m.objectSlots()
	if len(ss) == 0 {
		return false
	}
	s := pick(m.r, ss)
	if len(s.v.Members) == 0 {
		return false
	}
	i := m.r.IntN(len(s.v.Members))
	if k := s.v.Members[i].Key; k == "$defs" || k == "definitions" || k == "$id" || k == "id" || k == "$anchor" || k == "$dynamicAnchor" || k == "$recursiveAnchor" {
		return false // a reference to what it holds would no longer resolve
	}
	s.v.Members = append(s.v.Members[:i:i], s.v.Members[i+1:]...)
	return true
}

func (m *mutator) wrap() bool {
	ss := m.slots()[1:]
	if len(ss) == 0 {
		return false
	}
	s := pick(m.r, ss)
	if m.pointedInto(s.path) {
		return false
	}
	var w *jsonvalue.Value
	switch m.r.IntN(3) {
	case 0:
		w = objWith("allOf", arr(s.v, objWith("description", str("wrapped"))))
	case 1:
		w = objWith("anyOf", arr(s.v, typed("null")))
	default:
		w = objWith("oneOf", arr(s.v))
	}
	s.set(w)
	return true
}

// pointedInto reports whether a $ref of the schema points at or into the
// subschema at path: moving it would break the reference.
func (m *mutator) pointedInto(path []string) bool {
	prefix := "#"
	for _, t := range path {
		prefix += "/" + escapeToken(t)
	}
	found := false
	var walk func(v *jsonvalue.Value, depth int)
	walk = func(v *jsonvalue.Value, depth int) {
		if found || depth > maxAnalyzedDepth {
			return
		}
		switch v.Kind {
		case jsonvalue.Array:
			for _, e := range v.Elems {
				walk(e, depth+1)
			}
		case jsonvalue.Object:
			for _, mem := range v.Members {
				if (mem.Key == "$ref" || mem.Key == "$dynamicRef") && mem.Value.Kind == jsonvalue.String {
					r := mem.Value.Str
					if r == prefix || strings.HasPrefix(r, prefix+"/") || !strings.HasPrefix(r, "#/") && r != "#" {
						found = true // or by URI or anchor: not worth the risk
					}
				}
				walk(mem.Value, depth+1)
			}
		}
	}
	walk(m.schema, 0)
	return found
}

func (m *mutator) moveToDefs() bool {
	ss := m.slots()[1:]
	if len(ss) == 0 {
		return false
	}
	s := pick(m.r, ss)
	if m.pointedInto(s.path) || inDefs(s.path) || m.schema.Kind != jsonvalue.Object {
		return false
	}
	kw := "$defs"
	if d := draftOfSchema(m.schema); d != DraftNone && d < Draft2019 {
		kw = "definitions"
	}
	defs := m.schema.Member(kw)
	if defs == nil || defs.Kind != jsonvalue.Object {
		defs = obj()
		setMember(m.schema, kw, defs)
	}
	m.defs++
	name := "moved" + strconv.Itoa(m.defs)
	for defs.Member(name) != nil {
		m.defs++
		name = "moved" + strconv.Itoa(m.defs)
	}
	defs.Members = append(defs.Members, jsonvalue.Member{Key: name, Value: s.v})
	s.set(objWith("$ref", str("#/"+kw+"/"+name)))
	return true
}

func inDefs(path []string) bool {
	for _, t := range path {
		if t == "$defs" || t == "definitions" {
			return true
		}
	}
	return false
}

func draftOfSchema(schema *jsonvalue.Value) Draft {
	if d := schema.Member("$schema"); d != nil && d.Kind == jsonvalue.String {
		return draftOf(d.Str)
	}
	return DraftNone
}

func (m *mutator) typeForm() bool {
	var withType []slot
	for _, s := range m.objectSlots() {
		if s.v.Member("type") != nil {
			withType = append(withType, s)
		}
	}
	if len(withType) == 0 {
		ss := m.objectSlots()
		if len(ss) == 0 {
			return false
		}
		s := pick(m.r, ss)
		setMember(s.v, "type", str(pick(m.r, []string{"array", "object", "string"})))
		return true
	}
	s := pick(m.r, withType)
	t := s.v.Member("type")
	name := "array"
	if t.Kind == jsonvalue.String {
		name = t.Str
	} else if t.Kind == jsonvalue.Array && len(t.Elems) > 0 && t.Elems[0].Kind == jsonvalue.String {
		name = t.Elems[0].Str
	}
	container := name
	if name != "array" && name != "object" {
		container = pick(m.r, []string{"array", "object"})
	}
	switch m.r.IntN(5) {
	case 0:
		setMember(s.v, "type", arr(str("string"), str(container)))
	case 1:
		setMember(s.v, "type", arr(str(container), str("string"), str("null")))
	case 2:
		setMember(s.v, "type", arr(str(name), str("null")))
	case 3:
		setMember(s.v, "type", str(name))
		setMember(s.v, "nullable", boolean(true))
	default:
		setMember(s.v, "type", str(container))
	}
	return true
}

func (m *mutator) changeDraft() bool {
	if m.schema.Kind != jsonvalue.Object || holdsIdentifier(m.schema, 0) {
		// Drafts spell identifiers differently ($id "#a" is an anchor in
		// draft 7 only, $anchor is 2019-09's): a reference by one would
		// no longer resolve.
		return false
	}
	d := Draft(m.r.IntN(int(Draft2020) + 1))
	if d == DraftNone {
		for i, mem := range m.schema.Members {
			if mem.Key == "$schema" {
				m.schema.Members = append(m.schema.Members[:i:i], m.schema.Members[i+1:]...)
				return true
			}
		}
		return false
	}
	if old := m.schema.Member("$schema"); old == nil {
		m.schema.Members = append([]jsonvalue.Member{{Key: "$schema", Value: str(d.URI())}}, m.schema.Members...)
	} else {
		setMember(m.schema, "$schema", str(d.URI()))
	}
	return true
}

// A position is a value of the arguments and the schema object that
// declares it (as far as a walk by properties, items and local $ref
// finds it).
type position struct {
	v, schema *jsonvalue.Value
	key       string           // the member's key, for an object's member
	parent    *jsonvalue.Value // the container holding v
}

// positions walks the arguments beside the schema.
func (m *mutator) positions() []position {
	var out []position
	var walk func(v, s, parent *jsonvalue.Value, key string, depth int)
	walk = func(v, s, parent *jsonvalue.Value, key string, depth int) {
		if depth > maxAnalyzedDepth || len(out) > maxSlots {
			return
		}
		s = m.deref(s)
		out = append(out, position{v: v, schema: s, key: key, parent: parent})
		switch v.Kind {
		case jsonvalue.Object:
			for _, mem := range v.Members {
				walk(mem.Value, childSchema(s, mem.Key, -1), v, mem.Key, depth+1)
			}
		case jsonvalue.Array:
			for i, e := range v.Elems {
				walk(e, childSchema(s, "", i), v, "", depth+1)
			}
		}
	}
	walk(m.args, m.schema, nil, "", 0)
	return out
}

// deref follows local $ref pointers, a few hops; nil stays nil.
func (m *mutator) deref(s *jsonvalue.Value) *jsonvalue.Value {
	for hops := 0; s != nil && hops < maxHops; hops++ {
		r := s.Member("$ref")
		if r == nil || r.Kind != jsonvalue.String {
			return s
		}
		t := m.schema.Resolve(r.Str)
		if t == nil {
			return s
		}
		s = t
	}
	return s
}

// childSchema is the subschema of s for member key (or element i): by
// properties, additionalProperties, prefixItems, items; through the
// first allOf, anyOf or oneOf branch that has one.
func childSchema(s *jsonvalue.Value, key string, i int) *jsonvalue.Value {
	if s == nil || s.Kind != jsonvalue.Object {
		return nil
	}
	if i < 0 {
		if p := s.Member("properties").Member(key); p != nil {
			return p
		}
		if a := s.Member("additionalProperties"); a != nil && a.Kind == jsonvalue.Object {
			return a
		}
	} else {
		if p := s.Member("prefixItems"); p != nil && p.Kind == jsonvalue.Array {
			if i < len(p.Elems) {
				return p.Elems[i]
			}
		} else if p := s.Member("items"); p != nil && p.Kind == jsonvalue.Array && i < len(p.Elems) {
			return p.Elems[i]
		}
		if it := s.Member("items"); it != nil && it.Kind == jsonvalue.Object {
			return it
		}
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if l := s.Member(kw); l != nil && l.Kind == jsonvalue.Array {
			for _, b := range l.Elems {
				if c := childSchema(b, key, i); c != nil {
					return c
				}
			}
		}
	}
	return nil
}

// breakValue adds, where a value of the arguments is declared, a
// keyword the value breaks.
func (m *mutator) breakValue() bool {
	var ps []position
	for _, p := range m.positions() {
		if p.schema != nil && p.schema.Kind == jsonvalue.Object {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return false
	}
	p := pick(m.r, ps)
	s, v := p.schema, p.v
	switch v.Kind {
	case jsonvalue.String:
		l := utf8.RuneCountInString(v.Str)
		switch {
		case l > 0 && m.chance(2):
			setMember(s, "maxLength", intv(m.r.IntN(l)))
		case m.chance(2):
			setMember(s, "minLength", intv(l+1+m.r.IntN(3)))
		default:
			setMember(s, "enum", arr(str(v.Str+"x"), intv(1)))
		}
	case jsonvalue.Number:
		if f, err := strconv.ParseFloat(v.Number, 64); err == nil && f > -1e9 && f < 1e9 {
			if m.chance(2) {
				setMember(s, "maximum", intv(int(f)-1))
			} else {
				setMember(s, "minimum", intv(int(f)+1))
			}
		} else {
			setMember(s, "const", intv(0))
		}
	case jsonvalue.Array:
		if len(v.Elems) > 0 && m.chance(2) {
			setMember(s, "maxItems", intv(len(v.Elems)-1))
		} else {
			setMember(s, "minItems", intv(len(v.Elems)+1))
		}
	case jsonvalue.Object:
		switch {
		case len(v.Members) > 0 && m.chance(2):
			setMember(s, "maxProperties", intv(len(v.Members)-1))
		default:
			k := pick(m.r, specialKeys)
			if v.Member(k) != nil {
				return false
			}
			setMember(s, "required", arr(str(k)))
		}
	default:
		setMember(s, "const", str("other"))
	}
	m.broke = true
	return true
}

// keyed lists the objects of the arguments with their members.
func (m *mutator) members() []position {
	var out []position
	for _, p := range m.positions() {
		if p.v.Kind == jsonvalue.Object && len(p.v.Members) > 0 {
			out = append(out, p)
		}
	}
	return out
}

func (m *mutator) specialKey() bool {
	ps := m.members()
	if len(ps) == 0 {
		return false
	}
	o := pick(m.r, ps).v
	k := pick(m.r, specialKeys)
	if o.Member(k) != nil {
		return false
	}
	i := m.r.IntN(len(o.Members))
	if m.chance(2) {
		// A new member beside the others, under a special key: the
		// others (some of them repaired) must keep theirs.
		o.Members = append(o.Members, jsonvalue.Member{Key: k, Value: clone(o.Members[i].Value)})
	} else {
		o.Members[i].Key = k
	}
	if isIndexKey(k) {
		indexKeysFirst(o)
	}
	return true
}

func (m *mutator) jsonText() bool {
	var cs []position
	for _, p := range m.positions() {
		if p.parent != nil && (p.v.Kind == jsonvalue.Array || p.v.Kind == jsonvalue.Object) {
			cs = append(cs, p)
		}
	}
	if len(cs) == 0 {
		return false
	}
	p := pick(m.r, cs)
	text := string(p.v.Append(nil))
	switch m.r.IntN(4) {
	case 0:
		text = " " + text + "\n"
	case 1:
		text = htmlEscaper.Replace(text)
	}
	*p.v = *str(text)
	return true
}

func (m *mutator) reference() bool {
	var ss []position
	for _, p := range m.positions() {
		if p.v.Kind == jsonvalue.String {
			ss = append(ss, p)
		}
	}
	if len(ss) == 0 {
		return false
	}
	v := pick(m.r, ss).v
	if m.chance(2) {
		v.Str = htmlEscaper.Replace(v.Str)
	} else {
		v.Str += pick(m.r, []string{"&amp;", "&lt", "&#38;amp;", "&notin;", "&#x26;lt;", "&"})
	}
	return true
}

// holdsIdentifier reports whether a schema holds an $id, id, $anchor or
// $dynamicAnchor anywhere (a property named so too: the answer errs on
// the safe side).
func holdsIdentifier(v *jsonvalue.Value, depth int) bool {
	if depth > maxAnalyzedDepth {
		return true
	}
	switch v.Kind {
	case jsonvalue.Array:
		for _, e := range v.Elems {
			if holdsIdentifier(e, depth+1) {
				return true
			}
		}
	case jsonvalue.Object:
		for _, m := range v.Members {
			switch m.Key {
			case "$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor":
				return true
			}
			if holdsIdentifier(m.Value, depth+1) {
				return true
			}
		}
	}
	return false
}
