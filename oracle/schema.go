package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file answers docs/readings.md section 4: what the schema declares at
// a position of the arguments.
//
// A schema is kept as encoding/json decodes it into an any: objects are
// map[string]any, arrays []any. Every schema position must hold an object or
// a boolean. A schema node is identified by its canonical JSON Pointer in the
// document (RFC 6901, "" for the root); a $ref target by the pointer it
// resolves to, so a node reached through a $ref and the same node reached
// through the document are one node.
//
// The boolean schemas: true declares nothing (its type is unknown, and it
// says nothing about children). false admits nothing: its type set is known
// and empty, so it adds nothing to an anyOf union and empties an allOf
// intersection; it says nothing about children either.
//
// A node that can reach itself through $ref, allOf, anyOf and oneOf edges
// alone is cyclic, and declares nothing: its type is unknown and it says
// nothing about children, its own properties and items included. A node
// that merely leads into a cycle is computed as usual, with the cyclic node
// declaring nothing. Recursion through properties or items is no such edge.

// A schema is a parsed tool input schema, with what has been computed about
// it. It lives for one call of Normalize.
type schema struct {
	res     *resolution
	rootID  string                       // the node of the schema's root
	regexps map[string]func(string) bool // the compiled patternProperties patterns
	steps   int64                        // backtracking steps left to them (PatternSteps)

	// Filled by check: every schema node Normalize may use, by pointer, and
	// the pointer each $ref resolves to, by the pointer of the node that
	// holds it.
	nodes map[string]any
	refs  map[string][]string

	// Memos: a schema shared through many $ref paths is computed once per
	// node, not once per path.
	cyclicMemo   map[string]bool
	typesMemo    map[string]types
	positionMemo map[*position]types
	unionMemo    map[*union]types
}

// parseSchema parses and checks a tool's input schema. It is an error if the
// schema is not JSON (or not valid UTF-8), or is broken anywhere Normalize
// may look (see check).
func parseSchema(data []byte, opts Options) (*schema, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("oracle: schema: invalid UTF-8 at offset %d", invalidUTF8Offset(data))
	}
	d, err := parseDraft(opts.Draft)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	s := &schema{
		res:          newResolution(d, opts.Documents),
		regexps:      make(map[string]func(string) bool),
		steps:        PatternSteps,
		nodes:        make(map[string]any),
		refs:         make(map[string][]string),
		cyclicMemo:   make(map[string]bool),
		typesMemo:    make(map[string]types),
		positionMemo: make(map[*position]types),
		unionMemo:    make(map[*union]types),
	}
	root, err := decodeSchema(data)
	if err != nil {
		return nil, fmt.Errorf("oracle: schema: not JSON: %w", err)
	}
	if err := noDuplicateKeys(data); err != nil {
		return nil, fmt.Errorf("oracle: schema: %w", err)
	}
	if err := s.res.load(noBase, root); err != nil {
		return nil, fmt.Errorf("oracle: schema: %w", err)
	}
	if err := s.res.loadReferenced(); err != nil {
		return nil, fmt.Errorf("oracle: schema: %w", err)
	}
	top := loc{noBase, ""}
	s.rootID = nodeID(s.res.enter("", top), top)
	if err := s.check(root, s.rootID); err != nil {
		return nil, fmt.Errorf("oracle: schema: %w", err)
	}
	return s, nil
}

// sub returns the node at suffix below the node id: in the same scope,
// unless the schema there is a resource of its own, which enters it.
func (s *schema) sub(id, suffix string) string {
	scope, l := splitID(id)
	l.ptr += suffix
	if _, ok := s.res.roots[l]; ok {
		scope = s.res.enter(scope, l)
	}
	return nodeID(scope, l)
}

// where names a node in an error: its pointer, and its document unless
// it is the schema's own.
func where(id string) string {
	_, l := splitID(id)
	if l.doc == noBase {
		return l.ptr
	}
	return relativeURI(l.doc) + "#" + l.ptr
}

// reference resolves the reference keyword kw (value ref) of the node id,
// and returns the node it leads to in id's scope.
func (s *schema) reference(id, kw string, ref any) (string, error) {
	str, ok := ref.(string)
	if !ok {
		return "", fmt.Errorf("%s %v is not a string", kw, ref)
	}
	scope, l := splitID(id)
	_, info := s.res.resourceOf(l)
	t, err := s.res.find(info.uri, str)
	if err != nil {
		return "", fmt.Errorf("%s %q does not resolve: %v", kw, str, err)
	}
	bind := s.res.scopes[scope]
	switch kw {
	case "$dynamicRef":
		_, frag, _ := join(info.uri, str)
		_, tinfo := s.res.resourceOf(t)
		if b, ok := bind["#"+frag]; ok && frag != "" && frag[0] != '/' && tinfo.dynamic[frag] == t.ptr {
			t = b
		}
	case "$recursiveRef":
		if b, ok := bind[""]; ok && s.res.roots[t] != nil && s.res.roots[t].recursive {
			t = b
		}
	}
	troot, _ := s.res.resourceOf(t)
	return nodeID(s.res.enter(scope, troot), t), nil
}

// check checks the schema v found at the JSON Pointer ptr, and every schema
// below it that Normalize may use (those of properties, patternProperties,
// additionalProperties, items, additionalItems, prefixItems, allOf, anyOf,
// oneOf, $defs and definitions, used or not), and the targets of $ref. It
// records each node it checks in s.nodes and each $ref in s.refs.
//
// It is an error if a schema position holds anything but an object or a
// boolean; if properties, patternProperties, $defs or definitions is not an
// object; if allOf, anyOf, oneOf or prefixItems is not an array; if nullable
// is not a boolean; if type is not a known type name or an array of them; if
// $ref is not a string or does not resolve to a schema; or if a
// patternProperties pattern is not a valid Go regular expression.
func (s *schema) check(v any, id string) error {
	if _, done := s.nodes[id]; done {
		return nil
	}
	ptr := where(id)
	var m map[string]any
	switch v := v.(type) {
	case bool:
		s.nodes[id] = v
		return nil
	case map[string]any:
		s.nodes[id] = v
		m = v
	default:
		return fmt.Errorf("%s: a schema must be an object or a boolean, not %s", showPointer(ptr), jsonType(v))
	}
	_, l := splitID(id)
	_, info := s.res.resourceOf(l)
	for _, kw := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
		ref, ok := m[kw]
		if !ok || kw == "$dynamicRef" && info.draft != draft2020 || kw == "$recursiveRef" && info.draft != draft2019 {
			continue
		}
		target, err := s.reference(id, kw, ref)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", ptr, kw, err)
		}
		_, tl := splitID(target)
		tv, _ := pointerValue(s.res.docs[tl.doc], tl.ptr)
		switch tv.(type) {
		case bool, map[string]any:
		default:
			return fmt.Errorf("%s/%s: %s %q resolves to %s, not a schema (an object or a boolean)", ptr, kw, kw, ref, jsonType(tv))
		}
		s.refs[id] = append(s.refs[id], target)
		if err := s.check(tv, target); err != nil {
			return err
		}
	}
	if _, ok := m["$ref"]; ok && info.draft >= draft7 {
		// Drafts 4 to 7: beside $ref, the other keywords are ignored; the
		// definitions are checked all the same.
		only := map[string]any{"$ref": m["$ref"]}
		s.nodes[id] = only
		for _, kw := range []string{"$defs", "definitions"} {
			if sub, ok := m[kw]; ok {
				obj, ok := sub.(map[string]any)
				if !ok {
					return fmt.Errorf("%s/%s: %s must be an object, not %s", ptr, kw, kw, jsonType(sub))
				}
				for _, name := range slices.Sorted(maps.Keys(obj)) {
					if err := s.check(obj[name], s.sub(id, "/"+kw+"/"+escapePointerToken(name))); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}

	if t, ok := m["type"]; ok {
		if _, err := typeSetOf(t); err != nil {
			return fmt.Errorf("%s/type: %w", ptr, err)
		}
	}
	if nullable, ok := m["nullable"]; ok {
		if _, ok := nullable.(bool); !ok {
			return fmt.Errorf("%s/nullable: nullable must be a boolean, not %s", ptr, jsonType(nullable))
		}
	}

	// Keywords that hold an object of schemas.
	for _, kw := range []string{"properties", "patternProperties", "$defs", "definitions"} {
		sub, ok := m[kw]
		if !ok {
			continue
		}
		obj, ok := sub.(map[string]any)
		if !ok {
			return fmt.Errorf("%s/%s: %s must be an object, not %s", ptr, kw, kw, jsonType(sub))
		}
		for _, name := range slices.Sorted(maps.Keys(obj)) {
			if kw == "patternProperties" {
				re, err := ecmaPattern(name, &s.steps)
				if err != nil {
					return fmt.Errorf("%s/patternProperties: pattern %q: %w", ptr, name, err)
				}
				s.regexps[name] = re
			}
			if err := s.check(obj[name], s.sub(id, "/"+kw+"/"+escapePointerToken(name))); err != nil {
				return err
			}
		}
	}

	// Keywords that hold an array of schemas; items may be one too (draft 4).
	for _, kw := range []string{"items", "prefixItems", "allOf", "anyOf", "oneOf"} {
		sub, ok := m[kw]
		if !ok {
			continue
		}
		list, ok := sub.([]any)
		if !ok {
			if kw == "items" {
				continue // a single schema, checked below
			}
			return fmt.Errorf("%s/%s: %s must be an array, not %s", ptr, kw, kw, jsonType(sub))
		}
		if len(list) == 0 && (kw == "allOf" || kw == "anyOf" || kw == "oneOf") {
			return fmt.Errorf("%s/%s: %s must not be empty", ptr, kw, kw)
		}
		for i, elem := range list {
			if err := s.check(elem, s.sub(id, "/"+kw+"/"+strconv.Itoa(i))); err != nil {
				return err
			}
		}
	}

	// Keywords that hold one schema.
	for _, kw := range []string{"additionalProperties", "items", "additionalItems"} {
		sub, ok := m[kw]
		if !ok {
			continue
		}
		if _, isList := sub.([]any); kw == "items" && isList {
			continue // checked above
		}
		if err := s.check(sub, s.sub(id, "/"+kw)); err != nil {
			return err
		}
	}
	return nil
}

// showPointer returns the JSON Pointer ptr for an error message: the root's,
// the empty string, is named as such.
func showPointer(ptr string) string {
	if ptr == "" {
		return `"" (the root)`
	}
	return ptr
}

// decodeSchema decodes a schema document as encoding/json does, its
// numbers as json.Number: a schema may hold a number past float64 (an
// `enum` of `1e400`), which the rule reads like any other.
func decodeSchema(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON value")
	}
	return v, nil
}

// jsonType names the JSON type of v, a value decoded by encoding/json.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// unescapePointerToken undoes RFC 6901's escapes: ~1 is '/', ~0 is '~', and
// any other '~' is an error.
func unescapePointerToken(tok string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			b.WriteByte(tok[i])
			continue
		}
		if i+1 == len(tok) {
			return "", false
		}
		switch tok[i+1] {
		case '0':
			b.WriteByte('~')
		case '1':
			b.WriteByte('/')
		default:
			return "", false
		}
		i++
	}
	return b.String(), true
}

func escapePointerToken(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

// arrayIndex parses an RFC 6901 array index: "0", or digits without a
// leading zero, less than n.
func arrayIndex(tok string, n int) (int, bool) {
	if tok == "" || len(tok) > 1 && tok[0] == '0' {
		return 0, false
	}
	for _, c := range []byte(tok) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	i, err := strconv.Atoi(tok)
	if err != nil || i >= n {
		return 0, false
	}
	return i, true
}

// A typeSet is a set of JSON Schema type names.
type typeSet uint8

const (
	typeNull typeSet = 1 << iota
	typeBoolean
	typeObject
	typeArray
	typeFraction // numbers that are not integers: "number" is typeFraction|typeInteger
	typeInteger
	typeString
)

var typeNames = map[string]typeSet{
	"null":    typeNull,
	"boolean": typeBoolean,
	"object":  typeObject,
	"array":   typeArray,
	"number":  typeFraction | typeInteger,
	"integer": typeInteger,
	"string":  typeString,
}

// typeSetOf returns the set a `type` keyword's value names: a type name or a
// list of them.
func typeSetOf(t any) (typeSet, error) {
	switch t := t.(type) {
	case string:
		set, ok := typeNames[t]
		if !ok {
			return 0, fmt.Errorf("unknown type %q", t)
		}
		return set, nil
	case []any:
		var set typeSet
		for _, name := range t {
			str, ok := name.(string)
			if !ok {
				return 0, fmt.Errorf("type %v is not a string", name)
			}
			s, ok := typeNames[str]
			if !ok {
				return 0, fmt.Errorf("unknown type %q", str)
			}
			set |= s
		}
		return set, nil
	}
	return 0, fmt.Errorf("type %v is neither a string nor a list", t)
}

// kindType is the typeSet bit of a value of kind k, for the two kinds that
// have children.
func kindType(k kind) typeSet {
	if k == kindArray {
		return typeArray
	}
	return typeObject
}

// types is a declared type set that may be unknown.
type types struct {
	set   typeSet
	known bool
}

var (
	unknown = types{}            // declares nothing: true, {}, a cycle
	nothing = types{known: true} // admits nothing: false
)

// intersect returns the intersection of the known sets of list, and unknown
// if none is known.
func intersect(list []types) types {
	out := unknown
	for _, t := range list {
		switch {
		case !t.known:
		case !out.known:
			out = t
		default:
			out.set &= t.set
		}
	}
	return out
}

// unionOf returns the union of list, and unknown if list is empty or any of
// its sets is unknown.
func unionOf(list []types) types {
	if len(list) == 0 {
		return unknown
	}
	out := types{known: true}
	for _, t := range list {
		if !t.known {
			return unknown
		}
		out.set |= t.set
	}
	return out
}

// ownTypes returns what a schema object's own `type` and `nullable` say.
// nullable: true adds null to a known type; on its own it says nothing.
func ownTypes(m map[string]any) types {
	t, ok := m["type"]
	if !ok {
		return unknown
	}
	set, err := typeSetOf(t)
	if err != nil { // rejected by parseSchema
		return unknown
	}
	if m["nullable"] == true {
		set |= typeNull
	}
	return types{set, true}
}

// successors returns the pointers of the nodes the node at ptr leads to
// through $ref, allOf, anyOf and oneOf: the edges along which a cycle
// declares nothing.
func (s *schema) successors(ptr string) []string {
	m, ok := s.nodes[ptr].(map[string]any)
	if !ok {
		return nil
	}
	var out []string
	out = append(out, s.refs[ptr]...)
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := m[kw].([]any)
		for i := range list {
			out = append(out, s.sub(ptr, "/"+kw+"/"+strconv.Itoa(i)))
		}
	}
	return out
}

// cyclic reports whether the node at ptr can reach itself through one or
// more successors edges: a depth-first search from its successors.
func (s *schema) cyclic(ptr string) bool {
	if c, ok := s.cyclicMemo[ptr]; ok {
		return c
	}
	seen := make(map[string]bool)
	var reaches func(from string) bool
	reaches = func(from string) bool {
		for _, next := range s.successors(from) {
			if next == ptr {
				return true
			}
			if !seen[next] {
				seen[next] = true
				if reaches(next) {
					return true
				}
			}
		}
		return false
	}
	c := reaches(ptr)
	s.cyclicMemo[ptr] = c
	return c
}

// schemaTypes returns the type set the node at ptr declares: unknown for
// true and for a cyclic node, known and empty for false, and otherwise the
// intersection of the known sets among its own type, its $ref target's,
// each allOf branch's, its anyOf union and its oneOf union.
//
// The recursion ends: it only goes on from a node that is not cyclic, and
// a path of such nodes along successors edges never comes back to a node.
func (s *schema) schemaTypes(ptr string) types {
	if t, ok := s.typesMemo[ptr]; ok {
		return t
	}
	var t types
	switch v := s.nodes[ptr].(type) {
	case bool:
		if v {
			t = unknown
		} else {
			t = nothing
		}
	case map[string]any:
		if s.cyclic(ptr) {
			t = unknown
			break
		}
		list := []types{ownTypes(v)}
		for _, target := range s.refs[ptr] {
			list = append(list, s.schemaTypes(target))
		}
		if branches, ok := v["allOf"].([]any); ok {
			for i := range branches {
				list = append(list, s.schemaTypes(s.sub(ptr, "/allOf/"+strconv.Itoa(i))))
			}
		}
		for _, kw := range []string{"anyOf", "oneOf"} {
			if branches, ok := v[kw].([]any); ok {
				var alts []types
				for i := range branches {
					alts = append(alts, s.schemaTypes(s.sub(ptr, "/"+kw+"/"+strconv.Itoa(i))))
				}
				list = append(list, unionOf(alts))
			}
		}
		t = intersect(list)
	}
	s.typesMemo[ptr] = t
	return t
}

// A position is what the schema says about one place in the arguments: every
// schema node in schemas applies, and for each union, one of its
// alternatives does. Unions come from anyOf and oneOf once the walk has gone
// below the value they were written for. A position with neither says
// nothing.
//
// Positions are never modified once built, and they share their parts:
// below a schema that reaches a node through many paths, the same union or
// alternative appears many times over. So a position's schemas and unions
// are each listed once, and what is computed about a position or a union is
// memoized by its address.
type position struct {
	schemas []string // JSON Pointers of schema nodes
	unions  []*union
}

// A union is a choice between alternative positions.
type union struct {
	alts []*position
}

func (p *position) empty() bool {
	return len(p.schemas) == 0 && len(p.unions) == 0
}

// conjunction returns the position where all of parts apply.
func conjunction(parts []*position) *position {
	var nonEmpty []*position
	for _, p := range parts {
		if !p.empty() {
			nonEmpty = append(nonEmpty, p)
		}
	}
	if len(nonEmpty) == 1 {
		return nonEmpty[0]
	}
	out := &position{}
	for _, p := range nonEmpty {
		for _, ptr := range p.schemas {
			if !slices.Contains(out.schemas, ptr) {
				out.schemas = append(out.schemas, ptr)
			}
		}
		for _, u := range p.unions {
			if !slices.Contains(out.unions, u) {
				out.unions = append(out.unions, u)
			}
		}
	}
	return out
}

// types returns the type set declared at p: the intersection of the known
// sets of its schemas and of its unions.
func (s *schema) types(p *position) types {
	if t, ok := s.positionMemo[p]; ok {
		return t
	}
	var list []types
	for _, ptr := range p.schemas {
		list = append(list, s.schemaTypes(ptr))
	}
	for _, u := range p.unions {
		list = append(list, s.unionTypes(u))
	}
	t := intersect(list)
	s.positionMemo[p] = t
	return t
}

// unionTypes returns the union of the type sets of u's alternatives.
func (s *schema) unionTypes(u *union) types {
	if t, ok := s.unionMemo[u]; ok {
		return t
	}
	var alts []types
	for _, alt := range u.alts {
		alts = append(alts, s.types(alt))
	}
	t := unionOf(alts)
	s.unionMemo[u] = t
	return t
}

// admits reports whether a place declaring t may hold a value of kind k: t
// is unknown or includes k.
func admits(t types, k kind) bool {
	return !t.known || t.set&kindType(k) != 0
}

// A step goes from an array or object value to one of its children.
type step struct {
	parent kind   // kindObject or kindArray
	key    string // the member's key, in an object
	index  int    // the element's index, in an array
}

// child returns the position of the child that st leads to, from a value at
// p.
func (s *schema) child(p *position, st step) *position {
	f := &childFinder{
		s:         s,
		st:        st,
		schemas:   make(map[string]*position),
		positions: make(map[*position]*position),
		unions:    make(map[*union]*union),
	}
	return f.position(p)
}

// A childFinder finds the positions of the child one step leads to, from
// schema nodes, positions and unions, each once.
type childFinder struct {
	s         *schema
	st        step
	schemas   map[string]*position
	positions map[*position]*position
	unions    map[*union]*union // nil: the union says nothing about the child
}

// position returns the child position from a value at p: the conjunction of
// what its schemas and its unions say.
func (f *childFinder) position(p *position) *position {
	if c, ok := f.positions[p]; ok {
		return c
	}
	var parts []*position
	for _, ptr := range p.schemas {
		parts = append(parts, f.schema(ptr))
	}
	for _, u := range p.unions {
		if cu := f.union(u); cu != nil {
			parts = append(parts, &position{unions: []*union{cu}})
		}
	}
	c := conjunction(parts)
	f.positions[p] = c
	return c
}

// union returns the union of the child positions of u's alternatives that
// admit the parent's kind.
func (f *childFinder) union(u *union) *union {
	if c, ok := f.unions[u]; ok {
		return c
	}
	c := f.alternatives(u.alts)
	f.unions[u] = c
	return c
}

// alternatives returns the union of the child positions of the alternatives
// that admit the parent's kind. It returns nil, no information, when no
// alternative admits the parent or when one of them says nothing about the
// child.
func (f *childFinder) alternatives(alts []*position) *union {
	var out []*position
	for _, alt := range alts {
		if !admits(f.s.types(alt), f.st.parent) {
			continue
		}
		c := f.position(alt)
		if c.empty() {
			return nil
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil
	}
	return &union{alts: out}
}

// schema returns the position of the child, from a value that the node at
// ptr applies to. true, false and a cyclic node say nothing. Otherwise it is
// what the node's own keywords say (properties, patternProperties,
// additionalProperties; or prefixItems, items, additionalItems), and what
// its $ref target and allOf branches say, in conjunction, and its anyOf and
// oneOf branches as unions. The recursion ends as schemaTypes' does.
func (f *childFinder) schema(ptr string) *position {
	if c, ok := f.schemas[ptr]; ok {
		return c
	}
	c := &position{}
	if m, ok := f.s.nodes[ptr].(map[string]any); ok && !f.s.cyclic(ptr) {
		var own []string
		if f.st.parent == kindObject {
			own = f.s.memberSchemas(m, ptr, f.st.key)
		} else {
			own = f.s.itemSchemas(m, ptr, f.st.index)
		}
		parts := []*position{{schemas: own}}
		for _, target := range f.s.refs[ptr] {
			parts = append(parts, f.schema(target))
		}
		if branches, ok := m["allOf"].([]any); ok {
			for i := range branches {
				parts = append(parts, f.schema(f.s.sub(ptr, "/allOf/"+strconv.Itoa(i))))
			}
		}
		for _, kw := range []string{"anyOf", "oneOf"} {
			if branches, ok := m[kw].([]any); ok {
				var alts []*position
				for i := range branches {
					alts = append(alts, &position{schemas: []string{f.s.sub(ptr, "/"+kw+"/"+strconv.Itoa(i))}})
				}
				if u := f.alternatives(alts); u != nil {
					parts = append(parts, &position{unions: []*union{u}})
				}
			}
		}
		c = conjunction(parts)
	}
	f.schemas[ptr] = c
	return c
}

// memberSchemas returns the pointers of the schemas that the own keywords of
// m, the node at ptr, give the member key: properties[key] and every
// patternProperties schema whose pattern matches key; additionalProperties
// only when none of those applies.
func (s *schema) memberSchemas(m map[string]any, ptr, key string) []string {
	var out []string
	if props, ok := m["properties"].(map[string]any); ok {
		if _, ok := props[key]; ok {
			out = append(out, s.sub(ptr, "/properties/"+escapePointerToken(key)))
		}
	}
	if pats, ok := m["patternProperties"].(map[string]any); ok {
		for _, pat := range slices.Sorted(maps.Keys(pats)) {
			if s.regexps[pat](key) {
				out = append(out, s.sub(ptr, "/patternProperties/"+escapePointerToken(pat)))
			}
		}
	}
	if len(out) == 0 {
		if _, ok := m["additionalProperties"]; ok {
			out = append(out, s.sub(ptr, "/additionalProperties"))
		}
	}
	return out
}

// itemSchemas returns the pointers of the schemas that the own keywords of
// m, the node at ptr, give the element at index: prefixItems[index], or
// after the prefix items a schema-valued items; or else, for a draft-4
// list-valued items, items[index] and after it additionalItems; or else a
// schema-valued items.
func (s *schema) itemSchemas(m map[string]any, ptr string, index int) []string {
	items, hasItems := m["items"]
	list, itemsIsList := items.([]any)
	if prefix, ok := m["prefixItems"].([]any); ok {
		if index < len(prefix) {
			return []string{s.sub(ptr, "/prefixItems/"+strconv.Itoa(index))}
		}
		if hasItems && !itemsIsList {
			return []string{s.sub(ptr, "/items")}
		}
		return nil
	}
	if itemsIsList {
		if index < len(list) {
			return []string{s.sub(ptr, "/items/"+strconv.Itoa(index))}
		}
		if _, ok := m["additionalItems"]; ok {
			return []string{s.sub(ptr, "/additionalItems")}
		}
		return nil
	}
	if hasItems {
		return []string{s.sub(ptr, "/items")}
	}
	return nil
}
