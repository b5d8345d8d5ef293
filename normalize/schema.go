package normalize

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/word"
)

// typeSet is a set of JSON Schema types. A position whose type is not
// known admits every type, which gives the readings of docs/readings.md
// section 4 by plain set algebra: allOf intersects (unknown branches change
// nothing), anyOf and oneOf unite (one unknown branch makes the union
// unknown), and the JSON repair never fires where "string" is admitted.
type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tInteger
	tString

	tAll typeSet = 1<<iota - 1
)

var typeNames = map[string]typeSet{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "integer": tInteger, "string": tString,
}

// admits reports whether a value of JSON type t (one of tNull, tBoolean,
// tObject, tArray, tNumber, tString) may stand where s is declared.
func (s typeSet) admits(t typeSet) bool {
	if t == tNumber {
		return s&(tNumber|tInteger) != 0
	}
	return s&t != 0
}

// node is one compiled schema (an object or a boolean schema).
type node struct {
	types typeSet // declared types, with $ref, allOf, anyOf and oneOf folded in

	own                 typeSet // from type and nullable
	ref                 *node
	allOf, anyOf, oneOf []*node
	hasAnyOf, hasOneOf  bool
	cyclic              bool // lies on a cycle of $ref/allOf/anyOf/oneOf edges
	props               map[string]*node
	propTab             *propTab // props again, faster; nil if they do not fit one
	patterns            []pattern
	additional          *node
	prefixItems         []*node
	hasPrefixItems      bool
	items               *node
	tupleItems          []*node // draft-4 "items": [...]
	hasTupleItems       bool
	additionalItems     *node

	// For the walk, set by Compile (nil in the nodes child makes): the
	// node that gives n's children, n itself or where its $refs lead when
	// n is nothing but a $ref (see child), and whether that node's own
	// keywords alone give them.
	flat   *node
	simple bool

	// Compilation state.
	compiled   bool
	resolved   bool
	index, low int // Tarjan's algorithm
	onStack    bool
}

// propSlot is one slot of a node's table of properties.
type propSlot struct {
	word uint64 // word.Of(key)
	key  string
	n    *node
}

// propTab finds a node's properties by name with a multiplicative hash of
// the name's first eight bytes, its length and its last byte, with a
// multiplier chosen so that no two properties share a slot; and it tells
// a name of up to eight bytes by a comparison of words.
type propTab struct {
	slots []propSlot
	mul   uint64
	shift uint8
}

func propHash(word uint64, k []byte, mul uint64) uint64 {
	x := uint64(len(k))
	if len(k) > 0 {
		x |= uint64(k[len(k)-1]) << 8
	}
	return (word + x*0x9E3779B97F4A7C15) * mul
}

// lookup returns the property named k, or nil.
func (t *propTab) lookup(k []byte) *node {
	w := word.Of(k)
	s := &t.slots[propHash(w, k, t.mul)>>t.shift]
	if s.word != w || len(s.key) != len(k) {
		return nil
	}
	if len(k) > 8 && s.key[8:] != string(k[8:]) {
		return nil
	}
	return s.n
}

// newPropTab lays props out with no two in a slot, in a table up to
// sixteen times as large, or returns nil: then the map is used.
func newPropTab(props map[string]*node) *propTab {
	if len(props) == 0 {
		return nil
	}
	bits := 2
	for 1<<bits < 2*len(props) {
		bits++
	}
	mul := uint64(0x9E3779B97F4A7C15)
	for ; 1<<bits <= 16*len(props) && bits <= 12; bits++ {
	try:
		for range 32 {
			mul = mul*6364136223846793005 + 1442695040888963407 | 1
			t := &propTab{slots: make([]propSlot, 1<<bits), mul: mul, shift: uint8(64 - bits)}
			for k, c := range props {
				kb := []byte(k)
				w := word.Of(kb)
				s := &t.slots[propHash(w, kb, mul)>>t.shift]
				if s.n != nil {
					continue try
				}
				*s = propSlot{w, k, c}
			}
			return t
		}
	}
	return nil
}

// Schema is a compiled tool input schema. It is safe for concurrent use.
type Schema struct {
	root *node
	cfg  config
}

// SchemaError reports a schema that cannot be compiled.
type SchemaError struct {
	Pointer string // JSON Pointer into the schema, "" for the whole schema
	// URI is the document Pointer is in: "" for the schema given to
	// Compile, else the URI of a document supplied for a reference.
	URI    string
	Offset int   // byte offset, for a schema that is not JSON; else -1
	Err    error // ErrSchema, wrapped with the detail
}

func (e *SchemaError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("normalize: %v", e.Err)
	}
	where := e.Pointer
	if where == "" && e.URI == "" {
		where = "(root)"
	}
	if e.URI != "" {
		where = e.URI + "#" + where
	}
	return fmt.Sprintf("normalize: %v at %s", e.Err, where)
}

func (e *SchemaError) Unwrap() error { return e.Err }

// ErrSchema is wrapped by every [SchemaError].
var ErrSchema = errors.New("invalid schema")

type compiler struct {
	r       *resolver
	all     []*node
	pending []refSite
}

// refSite is a reference to resolve once the schemas around it are
// compiled: Compile finds every identifier first.
type refSite struct {
	n     *node
	kw    string // $ref, $dynamicRef or $recursiveRef
	ref   string
	base  string // the base URI it is resolved against
	doc   *document
	at    string // pointer of the keyword
	scope *scope
}

func (c *compiler) fail(doc *document, ptr, format string, args ...any) {
	c.r.fail(doc, ptr, format, args...)
}

// Compile compiles a tool's input schema (JSON Schema, drafts 4 to
// 2020-12, with OpenAPI's nullable) for [Schema.Normalize]. The options
// apply to every use of the returned Schema.
//
// References ($ref, and $dynamicRef in 2020-12 and $recursiveRef in
// 2019-09, with the dynamic scope) resolve against base URIs as the
// schema's draft defines them ($schema decides, else [WithDraft]): JSON
// Pointers, plain-name anchors ($anchor, $dynamicAnchor, and "id"/"$id":
// "#name" in drafts 4 to 7), embedded resources with an $id of their own
// (id in draft 4). A reference to another document is an error unless the
// caller supplies it ([WithDocuments], [WithLoader]).
//
// It fails with a [*SchemaError] when the schema is not JSON, is neither an
// object nor a boolean, has a keyword of the wrong JSON type, names an
// unknown type, has a pattern that is not an ECMA-262 regular expression,
// or has a reference that does not resolve to a schema.
//
// With [WithRepairs] leaving out the JSON repair, the schema is not read at
// all: only the JSON repair asks what a position declares, so a broken
// schema is no error there.
func Compile(schema []byte, opts ...Option) (*Schema, error) {
	cfg := newConfig(opts)
	if !cfg.repairs.JSON() {
		schema = []byte("true") // declares nothing, as the schema is to the entity repair
	}
	var rc resolveConfig
	for _, o := range opts {
		if ro, ok := o.(resolveOption); ok {
			ro(&rc)
		}
	}
	if !utf8.Valid(schema) {
		off := invalidUTF8(schema)
		return nil, &SchemaError{Offset: off, Err: fmt.Errorf("%w: not JSON: invalid UTF-8 (offset %d)", ErrSchema, off)}
	}
	doc, order, ok := decodeOrdered(schema)
	if !ok {
		var err error
		if doc, order, err = decodeSchema(schema); err != nil {
			return nil, err
		}
	}
	r := &resolver{cfg: rc, docs: map[string]*document{}, resources: map[string]*resource{}}
	d := r.addDocumentIndexed(baseless, doc, order, mayIdentify(schema, &rc))
	r.loadAll()
	if r.err != nil {
		return nil, r.err
	}
	c := &compiler{r: r}
	root := c.compile(place{doc: d, v: doc, res: d.resources[""]}, nil)
	for i := 0; i < len(c.pending) && r.err == nil; i++ {
		c.resolveRef(c.pending[i])
	}
	if r.err != nil {
		return nil, r.err
	}
	c.markCycles()
	for _, n := range c.all {
		c.resolveTypes(n)
		f := n
		for f.pureRef() {
			f = f.ref
		}
		n.flat = f
		n.simple = f.ref == nil && f.allOf == nil && !f.hasAnyOf && !f.hasOneOf && !f.cyclic
	}
	return &Schema{root: root, cfg: cfg}, nil
}

// decodeSchema reads a schema's text that decodeOrdered leaves, with
// encoding/json and memberOrder: for the error, or the value where the
// text is JSON all the same.
func decodeSchema(schema []byte) (any, map[string][]string, error) {
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		off := int(dec.InputOffset())
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = int(se.Offset)
		} else if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			off = len(schema)
		}
		return nil, nil, &SchemaError{Offset: off, Err: fmt.Errorf("%w: not JSON: %v (offset %d)", ErrSchema, err, off)}
	}
	if off := jsonraw.SkipSpace(schema, int(dec.InputOffset())); off < len(schema) {
		return nil, nil, &SchemaError{Offset: off, Err: fmt.Errorf("%w: not JSON: data after the schema (offset %d)", ErrSchema, off)}
	}
	order, dup := memberOrder(schema)
	if dup != nil {
		return nil, nil, &SchemaError{Pointer: dup.ptr, Offset: -1, Err: fmt.Errorf("%w: duplicate key %q", ErrSchema, dup.key)}
	}
	return doc, order, nil
}

// resolveRef finds the schema a reference names and compiles it in the
// scope of the reference.
func (c *compiler) resolveRef(rs refSite) {
	target, ok := c.r.lookup(rs.base, rs.ref, rs.doc, rs.at)
	if !ok {
		return
	}
	switch rs.kw {
	case "$ref":
		rs.n.ref = c.compile(target, rs.scope)
		return
	case "$dynamicRef":
		_, frag, _ := resolveURI(rs.base, rs.ref)
		target = c.r.dynamicTarget(rs.scope, frag, target)
	case "$recursiveRef":
		target = c.r.recursiveTarget(rs.scope, target)
	}
	// Beside $ref, a dynamic reference applies as an allOf branch does.
	rs.n.allOf = append(rs.n.allOf, c.compile(target, rs.scope))
}

// sub is the place of the subschema v at suffix below p.
func (p place) sub(v any, suffix string) place { return p.at(v, p.ptr+suffix) }

// at is the place of the subschema v at ptr, below p.
func (p place) at(v any, ptr string) place {
	res := p.res
	if len(p.doc.resources) > 1 {
		if r, ok := p.doc.resources[ptr]; ok {
			res = r
		}
	}
	return place{doc: p.doc, ptr: ptr, v: v, res: res}
}

// node returns the node of the schema at p in the scope s, new or not.
func (c *compiler) node(p place, s *scope) *node {
	if s == nil {
		n, ok := p.doc.nodes[p.ptr]
		if !ok {
			n = &node{own: tAll}
			p.doc.nodes[p.ptr] = n
		}
		return n
	}
	key := nodeKey{p.ptr, s}
	n, ok := p.doc.scoped[key]
	if !ok {
		if p.doc.scoped == nil {
			p.doc.scoped = map[nodeKey]*node{}
		}
		n = &node{own: tAll}
		p.doc.scoped[key] = n
	}
	return n
}

// compile compiles the schema at p in the dynamic scope s, once per place
// and scope.
func (c *compiler) compile(p place, s *scope) *node {
	s = c.r.enter(s, p.res, p)
	n := c.node(p, s)
	if n.compiled {
		return n
	}
	n.compiled = true
	c.all = append(c.all, n)
	switch v := p.v.(type) {
	case bool:
		if !v {
			n.own = 0
		}
		return n
	case map[string]any:
		c.compileObject(n, v, p, s)
	default:
		c.fail(p.doc, p.ptr, "a schema must be an object or a boolean, not %s", jsonKind(v))
	}
	return n
}

func (c *compiler) compileObject(n *node, m map[string]any, p place, s *scope) {
	ptr := p.ptr
	draft := p.res.draft
	for _, kw := range [...]string{"$ref", "$dynamicRef", "$recursiveRef"} {
		r, ok := m[kw]
		if !ok || kw == "$dynamicRef" && draft != Draft2020 || kw == "$recursiveRef" && draft != Draft2019 {
			continue
		}
		str, isString := r.(string)
		if !isString {
			c.fail(p.doc, ptr+"/"+kw, "%s must be a string, not %s", kw, jsonKind(r))
			continue
		}
		c.pending = append(c.pending, refSite{n: n, kw: kw, ref: str, base: p.res.uri, doc: p.doc, at: ptr + "/" + kw, scope: s})
	}
	_, hasRef := m["$ref"]
	if hasRef && !draft.modern() {
		// Drafts 4 to 7: the other keywords beside $ref are ignored;
		// definitions are still compiled, for their errors.
		c.definitions(m, p, s)
		return
	}
	if t, ok := m["type"]; ok {
		n.own = c.types(t, p.doc, ptr)
		if nb, ok := m["nullable"]; ok {
			b, isBool := nb.(bool)
			if !isBool {
				c.fail(p.doc, ptr+"/nullable", "nullable must be a boolean, not %s", jsonKind(nb))
			} else if b {
				n.own |= tNull
			}
		}
	}
	n.allOf = c.list(m, "allOf", p, s)
	n.anyOf = c.list(m, "anyOf", p, s)
	n.oneOf = c.list(m, "oneOf", p, s)
	_, n.hasAnyOf = m["anyOf"]
	_, n.hasOneOf = m["oneOf"]

	if pr, ok := m["properties"]; ok {
		obj, isObj := pr.(map[string]any)
		if !isObj {
			c.fail(p.doc, ptr+"/properties", "properties must be an object, not %s", jsonKind(pr))
		}
		n.props = make(map[string]*node, len(obj))
		for _, k := range p.doc.members(ptr+"/properties", obj) {
			n.props[k] = c.compile(p.at(obj[k], ptr+"/properties/"+escapeToken(k)), s)
		}
		n.propTab = newPropTab(n.props)
	}
	if pp, ok := m["patternProperties"]; ok {
		obj, isObj := pp.(map[string]any)
		if !isObj {
			c.fail(p.doc, ptr+"/patternProperties", "patternProperties must be an object, not %s", jsonKind(pp))
		}
		for _, k := range p.doc.members(ptr+"/patternProperties", obj) {
			sub := obj[k]
			suffix := "/patternProperties/" + escapeToken(k)
			re, err := compilePattern(k)
			if err != nil {
				c.fail(p.doc, ptr+suffix, "%v", err)
				continue
			}
			n.patterns = append(n.patterns, pattern{re, c.compile(p.sub(sub, suffix), s)})
		}
	}
	if a, ok := m["additionalProperties"]; ok {
		n.additional = c.compile(p.sub(a, "/additionalProperties"), s)
	}
	if pi, ok := m["prefixItems"]; ok {
		n.prefixItems = c.listOf(pi, p, "/prefixItems", "prefixItems", s)
		n.hasPrefixItems = true
	}
	if it, ok := m["items"]; ok {
		if arr, isArr := it.([]any); isArr {
			n.tupleItems = c.listOf(arr, p, "/items", "items", s)
			n.hasTupleItems = true
		} else {
			n.items = c.compile(p.sub(it, "/items"), s)
		}
	}
	if a, ok := m["additionalItems"]; ok {
		n.additionalItems = c.compile(p.sub(a, "/additionalItems"), s)
	}
	c.definitions(m, p, s)
}

// definitions compiles $defs and definitions even when nothing refers to
// them, so that a broken one is reported.
func (c *compiler) definitions(m map[string]any, p place, s *scope) {
	for _, kw := range [...]string{"$defs", "definitions"} {
		if d, ok := m[kw]; ok {
			defs, isObj := d.(map[string]any)
			if !isObj {
				c.fail(p.doc, p.ptr+"/"+kw, "%s must be an object, not %s", kw, jsonKind(d))
			}
			for _, k := range p.doc.members(p.ptr+"/"+kw, defs) {
				c.compile(p.at(defs[k], p.ptr+"/"+kw+"/"+escapeToken(k)), s)
			}
		}
	}
}

// list compiles allOf, anyOf or oneOf, which must be a non-empty array.
func (c *compiler) list(m map[string]any, kw string, p place, s *scope) []*node {
	v, ok := m[kw]
	if !ok {
		return nil
	}
	if arr, isArr := v.([]any); isArr && len(arr) == 0 {
		c.fail(p.doc, p.ptr+"/"+kw, "%s must not be empty", kw)
	}
	return c.listOf(v, p, "/"+kw, kw, s)
}

func (c *compiler) listOf(v any, p place, suffix, kw string, s *scope) []*node {
	arr, ok := v.([]any)
	if !ok {
		c.fail(p.doc, p.ptr+suffix, "%s must be an array, not %s", kw, jsonKind(v))
		return nil
	}
	out := make([]*node, len(arr))
	for i, sub := range arr {
		out[i] = c.compile(p.at(sub, p.ptr+suffix+"/"+strconv.Itoa(i)), s)
	}
	return out
}

// types reads the type keyword v of the schema at ptr. The pointer of a
// type is built only for an error: most schemas have none.
func (c *compiler) types(v any, doc *document, ptr string) typeSet {
	one := func(v any, i int) typeSet {
		at := func() string {
			if i < 0 {
				return ptr + "/type"
			}
			return ptr + "/type/" + strconv.Itoa(i)
		}
		s, ok := v.(string)
		if !ok {
			c.fail(doc, at(), "a type must be a string, not %s", jsonKind(v))
			return 0
		}
		t, ok := typeNames[s]
		if !ok {
			c.fail(doc, at(), "unknown type %q", s)
		}
		return t
	}
	if list, ok := v.([]any); ok {
		var t typeSet
		for i, e := range list {
			t |= one(e, i)
		}
		return t
	}
	return one(v, -1)
}

// markCycles marks the nodes that lie on a cycle of $ref, allOf, anyOf
// and oneOf edges (Tarjan's strongly connected components): such a
// schema says nothing definite, so it is read as unknown.
func (c *compiler) markCycles() {
	index := 1
	var stack []*node
	var visit func(n *node)
	visit = func(n *node) {
		n.index, n.low = index, index
		index++
		stack = append(stack, n)
		n.onStack = true
		for _, m := range n.edges() {
			if m.index == 0 {
				visit(m)
				n.low = min(n.low, m.low)
			} else if m.onStack {
				n.low = min(n.low, m.index)
			}
		}
		if n.low == n.index {
			var scc []*node
			for {
				m := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				m.onStack = false
				scc = append(scc, m)
				if m == n {
					break
				}
			}
			selfLoop := false
			for _, m := range n.edges() {
				selfLoop = selfLoop || m == n
			}
			if len(scc) > 1 || selfLoop {
				for _, m := range scc {
					m.cyclic = true
				}
			}
		}
	}
	for _, n := range c.all {
		if n.index == 0 {
			visit(n)
		}
	}
}

func (n *node) edges() []*node {
	var e []*node
	if n.ref != nil {
		e = append(e, n.ref)
	}
	e = append(e, n.allOf...)
	e = append(e, n.anyOf...)
	return append(e, n.oneOf...)
}

// resolveTypes computes n.types: its own types, intersected with its
// $ref's, each allOf branch's, and the unions of its anyOf and oneOf
// branches. A cyclic node admits everything.
func (c *compiler) resolveTypes(n *node) typeSet {
	if n.resolved {
		return n.types
	}
	if n.cyclic {
		n.types, n.resolved = tAll, true
		return tAll
	}
	t := n.own
	if n.ref != nil {
		t &= c.resolveTypes(n.ref)
	}
	for _, b := range n.allOf {
		t &= c.resolveTypes(b)
	}
	if n.hasAnyOf {
		t &= c.union(n.anyOf)
	}
	if n.hasOneOf {
		t &= c.union(n.oneOf)
	}
	n.types, n.resolved = t, true
	return t
}

func (c *compiler) union(branches []*node) typeSet {
	var u typeSet
	for _, b := range branches {
		u |= c.resolveTypes(b)
	}
	return u
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
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

func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return pointerEscaper.Replace(s)
}

// pointerEscaper escapes a JSON Pointer token.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// invalidUTF8 returns the offset of the first byte of b that is not part
// of valid UTF-8.
func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}
