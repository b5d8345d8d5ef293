package normalize

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/ecma"
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

// node is one compiled schema (an object or a boolean schema). Compile
// makes one node for each object in each scope it is compiled in, and
// shares one for true and every object without a keyword it reads, and one
// for false.
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
	resolved   bool
	index, low int // Tarjan's algorithm (finish)
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

// newPropTab lays out the properties keys, whose nodes are nodes, with no
// two in a slot, in a table up to sixteen times as large (4,096 slots at
// most), or returns nil: then the map is used. When there are dynamic
// scopes, the layout found for the properties obj is kept, and obj's table
// in another scope is laid out in one pass.
func (c *compiler) newPropTab(obj map[string]any, keys []string, nodes []*node) *propTab {
	if len(keys) == 0 || 2*len(keys) > 1<<12 {
		return nil
	}
	if !c.r.scoping {
		return c.searchPropTab(keys, nodes)
	}
	id := objectID(obj)
	if l, ok := c.layouts[id]; ok {
		c.r.step(len(keys))
		if l.bits == 0 {
			return nil
		}
		t := &propTab{slots: make([]propSlot, 1<<l.bits), mul: l.mul, shift: 64 - l.bits}
		for i, k := range keys {
			kb := []byte(k)
			w := word.Of(kb)
			t.slots[propHash(w, kb, l.mul)>>t.shift] = propSlot{w, k, nodes[i]}
		}
		return t
	}
	t := c.searchPropTab(keys, nodes)
	var l propLayout
	if t != nil {
		l = propLayout{mul: t.mul, bits: 64 - t.shift}
	}
	if c.layouts == nil {
		c.layouts = map[uintptr]propLayout{}
	}
	c.layouts[id] = l
	return t
}

// searchPropTab is newPropTab's search: 32 multipliers a size, each tried
// in the same scratch table, where a try that fails costs the keys it
// placed. A schema with hundreds of properties, which rarely fit, costs a
// few hundred steps a property at most, not a table allocated and cleared
// for each try.
func (c *compiler) searchPropTab(keys []string, nodes []*node) *propTab {
	// Each key's word, and its hash with the multiplier 1: its hash with
	// another is that times the multiplier.
	words, hashes := c.words[:0], c.hashes[:0]
	for _, k := range keys {
		kb := []byte(k)
		w := word.Of(kb)
		words, hashes = append(words, w), append(hashes, propHash(w, kb, 1))
	}
	c.words, c.hashes = words, hashes
	bits := 2
	for 1<<bits < 2*len(keys) {
		bits++
	}
	mul := uint64(0x9E3779B97F4A7C15)
	for ; 1<<bits <= 16*len(keys) && bits <= 12; bits++ {
		if len(c.slots) < 1<<bits {
			c.slots = make([]propSlot, 1<<bits)
		}
		slots, shift := c.slots[:1<<bits], 64-bits
	try:
		for range 32 {
			mul = mul*6364136223846793005 + 1442695040888963407 | 1
			for i, h := range hashes {
				s := &slots[h*mul>>shift]
				if s.n != nil {
					c.r.step(i + 1)
					for _, h := range hashes[:i] {
						slots[h*mul>>shift] = propSlot{}
					}
					continue try
				}
				*s = propSlot{words[i], keys[i], nodes[i]}
			}
			c.r.step(len(keys) + len(slots)/16)
			t := &propTab{slots: slots, mul: mul, shift: uint8(shift)}
			if len(c.slots) == len(slots) {
				c.slots = nil // the table is the scratch table, as large
			} else {
				t.slots = slices.Clone(slots)
				clear(slots)
			}
			return t
		}
	}
	return nil
}

// propLayout is how newPropTab laid out a properties object: its
// multiplier and the table's size in bits, 0 for no table.
type propLayout struct {
	mul  uint64
	bits uint8
}

// Schema is a compiled tool input schema. It is safe for concurrent use.
type Schema struct {
	root *node
	cfg  config
}

// SchemaError reports a schema that was not compiled: an invalid one (Err
// wraps [ErrSchema]), or one whose [CompileContext] was stopped by its
// context (Err wraps the context's error, not ErrSchema).
type SchemaError struct {
	Pointer string // JSON Pointer into the schema, "" for the whole schema
	// URI is the document Pointer is in: "" for the schema given to
	// Compile, else the URI of a document supplied for a reference.
	URI    string
	Offset int   // byte offset, for a schema that is not JSON; else -1
	Err    error // ErrSchema, or the context's error, wrapped with the detail
}

func (e *SchemaError) Error() string {
	if e.Offset >= 0 || !errors.Is(e.Err, ErrSchema) {
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

// ErrSchema is wrapped by every [SchemaError] but the one of a
// [CompileContext] stopped by its context.
var ErrSchema = errors.New("invalid schema")

// stoppedError is the error of a Compile stopped by its context, which
// returned err: a SchemaError, as every error of Compile is, that is not
// ErrSchema, for the schema may be valid.
func stoppedError(err error) *SchemaError {
	return &SchemaError{Offset: -1, Err: fmt.Errorf("compiling the schema: stopped: %w", err)}
}

type compiler struct {
	r       *resolver
	all     []*node
	pending []refSite
	nodes   map[nodeKey]*node // the objects compiled, by object and scope
	objects map[uintptr]bool  // the objects compiled in some scope, when there are scopes
	yes, no *node             // true and false, and every object with no keyword Compile reads (yes)

	patterns map[string]compiledPattern // this Compile's, by source
	layouts  map[uintptr]propLayout     // newPropTab's, by properties object, when there are scopes
	free     []node                     // newNode's, allocated a few at a time
	chunk    int                        // how many it allocated last
	slots    []propSlot                 // newPropTab's scratch table
	words    []uint64                   // and its keys' words
	hashes   []uint64                   // and their hashes
}

// maxFirstNodes bounds the nodes Compile allocates at once at the start:
// a node for each object of the schema, up to that.
const maxFirstNodes = 1024

// newNode returns a node that admits every type: from an array of them,
// twice as long as the last up to 64, once those Compile allocated for
// the schema's objects are taken.
func (c *compiler) newNode() *node {
	if len(c.free) == 0 {
		c.chunk = min(max(2*c.chunk, 4), 64)
		c.free = make([]node, c.chunk)
	}
	n := &c.free[0]
	c.free = c.free[1:]
	n.own = tAll
	return n
}

// nodeKey is an object of a document, compiled in a scope.
type nodeKey struct {
	obj   uintptr // objectID
	scope *scope
}

// refSite is a reference to resolve once the schemas around it are
// compiled: Compile finds every identifier first.
type refSite struct {
	n     *node
	kw    string // $ref, $dynamicRef or $recursiveRef
	ref   string
	doc   *document
	res   *resource // the resource it is written in, which gives its base URI
	at    *loc      // the schema it is in
	scope *scope
}

func (c *compiler) fail(doc *document, at *loc, format string, args ...any) {
	c.r.fail(doc, at, format, args...)
}

// Compile compiles a tool's input schema (JSON Schema, drafts 4 to
// 2020-12, with OpenAPI's nullable) for [Schema.Normalize]. The options
// apply to every use of the returned Schema. It is [CompileContext] with
// a context that is never done.
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
// or has a reference that does not resolve to a schema; and when it asks
// for more than Compile follows: dynamic scopes past maxScopes (64) or
// whose work passes a budget proportional to the schema's size, or URIs of
// identifiers and references that add up to more than 8 bytes per byte of
// schema (and 1 MiB). Its cost is linear in the size of the schema and the
// documents supplied (docs/performance.md, "Bounded on every input:
// compile").
//
// With [WithRepairs] leaving out the JSON repair, the schema is not read at
// all: only the JSON repair asks what a position declares, so a broken
// schema is no error there.
func Compile(schema []byte, opts ...Option) (*Schema, error) {
	return CompileContext(context.Background(), schema, opts...)
}

// CompileContext is [Compile], stopped when ctx is done: it asks ctx every
// few thousand steps of its work (a schema compiles at tens of megabytes
// a second), and then returns a [*SchemaError] whose Err wraps ctx.Err(),
// so that errors.Is(err, context.DeadlineExceeded) or context.Canceled
// holds, and errors.Is(err, [ErrSchema]) does not: the schema was not
// found invalid, only not compiled in time. A caller that refuses a tool
// for an invalid schema asks ErrSchema, not the error's type. The work
// before Compile reads the schema (decoding its JSON, loading documents
// with [WithLoader]) is not interrupted; it is linear in their size.
func CompileContext(ctx context.Context, schema []byte, opts ...Option) (*Schema, error) {
	s, _, err := compileCounted(ctx, schema, opts)
	return s, err
}

// compileCounted is CompileContext, which also returns the steps of work it
// counted (see work.go).
func compileCounted(ctx context.Context, schema []byte, opts []Option) (*Schema, int64, error) {
	cfg := newConfig(opts)
	if !cfg.repairs.JSON() {
		schema = []byte("true") // declares nothing, as the schema is to the entity repair
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, stoppedError(err)
	}
	var rc resolveConfig
	for _, o := range opts {
		if ro, ok := o.(resolveOption); ok {
			ro(&rc)
		}
	}
	if !utf8.Valid(schema) {
		off := invalidUTF8(schema)
		return nil, 0, &SchemaError{Offset: off, Err: fmt.Errorf("%w: not JSON: invalid UTF-8 (offset %d)", ErrSchema, off)}
	}
	// The members of schema objects that Compile does not read are left
	// undecoded; the index of identifiers reads more, where there may be
	// identifiers.
	identify := mayIdentify(schema, &rc)
	mode := skipUncompiled
	switch {
	case !skipMembers:
		mode = skipNone
	case identify:
		mode = skipUnindexed
	}
	doc, order, objects, lazy := decodeOrderedSkipping(schema, mode)
	if !lazy {
		var err error
		if doc, order, err = decodeSchema(schema); err != nil {
			return nil, 0, err
		}
	}
	r := &resolver{cfg: rc, docs: map[string]*document{}, resources: map[string]*resource{}}
	r.start(ctx)
	d := r.addDocumentIndexed(baseless, doc, order, len(schema), identify)
	if lazy {
		d.text = schema // for what a pointer reaches of the members left
	}
	r.loadAll()
	if r.err != nil {
		return nil, r.spent, r.err
	}
	c := &compiler{r: r, nodes: map[nodeKey]*node{}}
	if lazy {
		// A node for each object, most schemas' count, and true and
		// false, in one allocation (past maxFirstNodes, a few at a time).
		c.free = make([]node, min(objects, maxFirstNodes)+2)
	}
	c.yes, c.no = c.newNode(), c.newNode()
	c.no.own = 0
	if r.scoping = r.mayScope(); r.scoping {
		c.objects = map[uintptr]bool{}
	}
	c.all = append(c.all, c.yes, c.no)
	root := c.compile(d.res.root, nil)
	for i := 0; i < len(c.pending) && r.err == nil; i++ {
		c.resolveRef(c.pending[i])
	}
	if r.err == nil {
		c.finish()
	}
	if r.err != nil {
		return nil, r.spent, r.err
	}
	return &Schema{root: root, cfg: cfg}, r.spent, nil
}

// skipMembers is whether Compile leaves the members of schema objects it
// does not read undecoded (decodeOrderedSkipping): false only in a test
// that compares it with decoding them.
var skipMembers = true

// decodeSchema reads a schema's text that decodeOrdered leaves, with
// encoding/json and memberOrder: for the error, or the value where the
// text is JSON all the same.
func decodeSchema(schema []byte) (any, map[uintptr][]string, error) {
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
	order, dup := memberOrder(schema, doc)
	if dup != nil {
		return nil, nil, &SchemaError{Pointer: dup.ptr, Offset: -1, Err: fmt.Errorf("%w: duplicate key %q", ErrSchema, dup.key)}
	}
	return doc, order, nil
}

// resolveRef finds the schema a reference names and compiles it in the
// scope of the reference.
func (c *compiler) resolveRef(rs refSite) {
	target, frag, ok := c.r.lookup(rs.res, rs.ref, rs.doc, rs.at, rs.kw)
	if !ok {
		return
	}
	switch rs.kw {
	case "$ref":
		rs.n.ref = c.compile(target, rs.scope)
		return
	case "$dynamicRef":
		target = c.r.dynamicTarget(rs.scope, frag, target)
	case "$recursiveRef":
		target = c.r.recursiveTarget(rs.scope, target)
	}
	// Beside $ref, a dynamic reference applies as an allOf branch does.
	rs.n.allOf = append(rs.n.allOf, c.compile(target, rs.scope))
}

// compile compiles the schema at p in the dynamic scope s, once per object
// and scope. Once Compile has failed, it compiles nothing more.
func (c *compiler) compile(p place, s *scope) *node {
	r := c.r
	if r.err != nil {
		return c.yes
	}
	r.step(1)
	m, isObject := p.v.(map[string]any)
	if !isObject {
		switch v := p.v.(type) {
		case bool:
			if v {
				return c.yes
			}
			return c.no
		}
		c.fail(p.doc, p.at, "a schema must be an object or a boolean, not %s", jsonKind(p.v))
		return c.yes
	}
	var kw keywords
	if !kw.gather(m) {
		// Nothing below it depends on the scope, or is compiled.
		return c.yes
	}
	s = r.enter(s, p.res, p)
	key := nodeKey{objectID(m), s}
	if n, ok := c.nodes[key]; ok {
		return n
	}
	if r.scoping {
		// Compiled again, in another scope: the scopes' work, which
		// pays for the object and each of its subschemas.
		if c.objects[key.obj] {
			if !r.spendScope(1+kw.subschemas(), p) {
				return c.yes
			}
		} else {
			c.objects[key.obj] = true
		}
	}
	n := c.newNode()
	c.nodes[key] = n
	c.all = append(c.all, n)
	c.compileObject(n, &kw, p, s)
	return n
}

// keywords holds the members of a schema object that compileObject reads,
// found in one pass over the object: a lookup in the object's map for
// each of them, most of them absent, cost more than the object has members.
type keywords struct {
	has                                       keywordSet
	ref, dynamicRef, recursiveRef             any
	typ, nullable                             any
	allOf, anyOf, oneOf                       any
	properties, patternProperties, additional any
	prefixItems, items, additionalItems       any
	defs, definitions                         any
}

// keywordSet is a set of the keywords compileObject reads, a bit each.
type keywordSet uint32

const (
	kwRef keywordSet = 1 << iota
	kwDynamicRef
	kwRecursiveRef
	kwType
	kwNullable
	kwAllOf
	kwAnyOf
	kwOneOf
	kwProperties
	kwPatternProperties
	kwAdditionalProperties
	kwPrefixItems
	kwItems
	kwAdditionalItems
	kwDefs
	kwDefinitions
)

// gather records the keywords of m that compileObject reads, and reports
// whether m has one beside nullable (which is read only beside type): an
// object without is the schema true to Compile.
func (kw *keywords) gather(m map[string]any) bool {
	for k, v := range m {
		switch k {
		case "$ref":
			kw.ref, kw.has = v, kw.has|kwRef
		case "$dynamicRef":
			kw.dynamicRef, kw.has = v, kw.has|kwDynamicRef
		case "$recursiveRef":
			kw.recursiveRef, kw.has = v, kw.has|kwRecursiveRef
		case "type":
			kw.typ, kw.has = v, kw.has|kwType
		case "nullable":
			kw.nullable, kw.has = v, kw.has|kwNullable
		case "allOf":
			kw.allOf, kw.has = v, kw.has|kwAllOf
		case "anyOf":
			kw.anyOf, kw.has = v, kw.has|kwAnyOf
		case "oneOf":
			kw.oneOf, kw.has = v, kw.has|kwOneOf
		case "properties":
			kw.properties, kw.has = v, kw.has|kwProperties
		case "patternProperties":
			kw.patternProperties, kw.has = v, kw.has|kwPatternProperties
		case "additionalProperties":
			kw.additional, kw.has = v, kw.has|kwAdditionalProperties
		case "prefixItems":
			kw.prefixItems, kw.has = v, kw.has|kwPrefixItems
		case "items":
			kw.items, kw.has = v, kw.has|kwItems
		case "additionalItems":
			kw.additionalItems, kw.has = v, kw.has|kwAdditionalItems
		case "$defs":
			kw.defs, kw.has = v, kw.has|kwDefs
		case "definitions":
			kw.definitions, kw.has = v, kw.has|kwDefinitions
		}
	}
	return kw.has&^kwNullable != 0
}

// subschemas returns how many subschemas the keywords hold, at most: the
// calls of compile that compiling their object makes.
func (kw *keywords) subschemas() int {
	n := 4 // additionalProperties, items, additionalItems, a reference
	for _, v := range [...]any{kw.properties, kw.patternProperties, kw.defs, kw.definitions} {
		if o, ok := v.(map[string]any); ok {
			n += len(o)
		}
	}
	for _, v := range [...]any{kw.allOf, kw.anyOf, kw.oneOf, kw.prefixItems, kw.items} {
		if a, ok := v.([]any); ok {
			n += len(a)
		}
	}
	return n
}

func (c *compiler) compileObject(n *node, kw *keywords, p place, s *scope) {
	draft := p.res.draft
	for _, r := range [...]struct {
		name string
		v    any
		has  bool
	}{
		{"$ref", kw.ref, kw.has&kwRef != 0},
		{"$dynamicRef", kw.dynamicRef, kw.has&kwDynamicRef != 0 && draft == Draft2020},
		{"$recursiveRef", kw.recursiveRef, kw.has&kwRecursiveRef != 0 && draft == Draft2019},
	} {
		if !r.has {
			continue
		}
		str, isString := r.v.(string)
		if !isString {
			c.fail(p.doc, p.at.member(r.name), "%s must be a string, not %s", r.name, jsonKind(r.v))
			continue
		}
		c.pending = append(c.pending, refSite{n: n, kw: r.name, ref: str, doc: p.doc, res: p.res, at: p.at, scope: s})
	}
	if kw.has&kwRef != 0 && !draft.modern() {
		// Drafts 4 to 7: the other keywords beside $ref are ignored;
		// definitions are still compiled, for their errors.
		c.definitions(kw, p, s)
		return
	}
	if kw.has&kwType != 0 {
		n.own = c.types(kw.typ, p.doc, p.at)
		if kw.has&kwNullable != 0 {
			b, isBool := kw.nullable.(bool)
			if !isBool {
				c.fail(p.doc, p.at.member("nullable"), "nullable must be a boolean, not %s", jsonKind(kw.nullable))
			} else if b {
				n.own |= tNull
			}
		}
	}
	n.allOf = c.list(kw.allOf, kw.has&kwAllOf != 0, "allOf", p, s)
	n.anyOf = c.list(kw.anyOf, kw.has&kwAnyOf != 0, "anyOf", p, s)
	n.oneOf = c.list(kw.oneOf, kw.has&kwOneOf != 0, "oneOf", p, s)
	n.hasAnyOf = kw.has&kwAnyOf != 0
	n.hasOneOf = kw.has&kwOneOf != 0

	if kw.has&kwProperties != 0 {
		pr := kw.properties
		obj, isObj := pr.(map[string]any)
		if !isObj {
			c.fail(p.doc, p.at.member("properties"), "properties must be an object, not %s", jsonKind(pr))
		}
		keys := p.doc.members(obj)
		locs := p.at.member("properties").members(keys)
		n.props = make(map[string]*node, len(obj))
		nodes := make([]*node, len(keys))
		for i, k := range keys {
			nodes[i] = c.compile(p.child(obj[k], &locs[i]), s)
			n.props[k] = nodes[i]
		}
		n.propTab = c.newPropTab(obj, keys, nodes)
	}
	if kw.has&kwPatternProperties != 0 {
		pp := kw.patternProperties
		obj, isObj := pp.(map[string]any)
		if !isObj {
			c.fail(p.doc, p.at.member("patternProperties"), "patternProperties must be an object, not %s", jsonKind(pp))
		}
		keys := p.doc.members(obj)
		locs := p.at.member("patternProperties").members(keys)
		for i, k := range keys {
			re, err := c.compilePattern(k)
			if err != nil {
				c.fail(p.doc, &locs[i], "%v", err)
				continue
			}
			n.patterns = append(n.patterns, pattern{re, c.compile(p.child(obj[k], &locs[i]), s)})
		}
	}
	if kw.has&kwAdditionalProperties != 0 {
		n.additional = c.compile(p.child(kw.additional, p.at.member("additionalProperties")), s)
	}
	if kw.has&kwPrefixItems != 0 {
		n.prefixItems = c.listOf(kw.prefixItems, p, "prefixItems", s)
		n.hasPrefixItems = true
	}
	if kw.has&kwItems != 0 {
		if arr, isArr := kw.items.([]any); isArr {
			n.tupleItems = c.listOf(arr, p, "items", s)
			n.hasTupleItems = true
		} else {
			n.items = c.compile(p.child(kw.items, p.at.member("items")), s)
		}
	}
	if kw.has&kwAdditionalItems != 0 {
		n.additionalItems = c.compile(p.child(kw.additionalItems, p.at.member("additionalItems")), s)
	}
	c.definitions(kw, p, s)
}

// compilePattern is compilePattern, once per source in a Compile: a
// pattern too long for the shared cache is compiled once, not once per
// scope that compiles its schema.
func (c *compiler) compilePattern(src string) (*ecma.Regexp, error) {
	if got, ok := c.patterns[src]; ok {
		return got.re, got.err
	}
	c.r.step(1 + len(src)/64)
	re, err := compilePattern(src)
	if c.patterns == nil {
		c.patterns = map[string]compiledPattern{}
	}
	c.patterns[src] = compiledPattern{re, err}
	return re, err
}

// definitions compiles $defs and definitions even when nothing refers to
// them, so that a broken one is reported.
func (c *compiler) definitions(kw *keywords, p place, s *scope) {
	for _, d := range [...]struct {
		name string
		v    any
		has  bool
	}{{"$defs", kw.defs, kw.has&kwDefs != 0}, {"definitions", kw.definitions, kw.has&kwDefinitions != 0}} {
		if !d.has {
			continue
		}
		defs, isObj := d.v.(map[string]any)
		if !isObj {
			c.fail(p.doc, p.at.member(d.name), "%s must be an object, not %s", d.name, jsonKind(d.v))
		}
		keys := p.doc.members(defs)
		locs := p.at.member(d.name).members(keys)
		for i, k := range keys {
			c.compile(p.child(defs[k], &locs[i]), s)
		}
	}
}

// list compiles allOf, anyOf or oneOf, v if has, which must be a
// non-empty array.
func (c *compiler) list(v any, has bool, kw string, p place, s *scope) []*node {
	if !has {
		return nil
	}
	if arr, isArr := v.([]any); isArr && len(arr) == 0 {
		c.fail(p.doc, p.at.member(kw), "%s must not be empty", kw)
	}
	return c.listOf(v, p, kw, s)
}

func (c *compiler) listOf(v any, p place, kw string, s *scope) []*node {
	arr, ok := v.([]any)
	if !ok {
		c.fail(p.doc, p.at.member(kw), "%s must be an array, not %s", kw, jsonKind(v))
		return nil
	}
	out := make([]*node, len(arr))
	locs := p.at.member(kw).elements(len(arr))
	for i, sub := range arr {
		out[i] = c.compile(p.child(sub, &locs[i]), s)
	}
	return out
}

// types reads the type keyword v of the schema at at. The pointer of a
// type is built only for an error: most schemas have none.
func (c *compiler) types(v any, doc *document, at *loc) typeSet {
	one := func(v any, i int) typeSet {
		where := func() *loc {
			if i < 0 {
				return at.member("type")
			}
			return &loc{parent: at.member("type"), index: i}
		}
		s, ok := v.(string)
		if !ok {
			c.fail(doc, where(), "a type must be a string, not %s", jsonKind(v))
			return 0
		}
		t, ok := typeNames[s]
		if !ok {
			c.fail(doc, where(), "unknown type %q", s)
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

// finish marks the nodes that lie on a cycle of $ref, allOf, anyOf and
// oneOf edges (Tarjan's strongly connected components; such a schema says
// nothing definite, so it is read as unknown), and computes every node's
// types, flat and simple, in one pass with a stack of its own: a
// component is complete only after every component it reaches, so each
// node's successors are done when it is, and a chain of $refs is followed
// once, not from each of its hops.
func (c *compiler) finish() {
	type frame struct {
		n    *node
		next int // the edge to follow next
	}
	index := 1
	var calls []frame
	var stack []*node
	visit := func(n *node) {
		n.index, n.low = index, index
		index++
		stack = append(stack, n)
		n.onStack = true
		calls = append(calls, frame{n: n})
	}
	for _, root := range c.all {
		if root.index != 0 {
			continue
		}
		visit(root)
		for len(calls) > 0 && c.r.err == nil {
			f := &calls[len(calls)-1]
			n := f.n
			if m := n.edge(f.next); m != nil {
				f.next++
				c.r.step(1)
				if m.index == 0 {
					visit(m)
				} else if m.onStack {
					n.low = min(n.low, m.index)
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				up := calls[len(calls)-1].n
				up.low = min(up.low, n.low)
			}
			if n.low != n.index {
				continue
			}
			i := len(stack) - 1
			for stack[i] != n {
				i--
			}
			scc := stack[i:]
			stack = stack[:i]
			cyclic := len(scc) > 1
			for k := 0; !cyclic && n.edge(k) != nil; k++ {
				cyclic = n.edge(k) == n
			}
			for _, m := range scc {
				m.onStack = false
				m.cyclic = cyclic
			}
			for _, m := range scc {
				c.resolve(m)
			}
		}
	}
}

// edge returns the i'th of n's $ref, allOf, anyOf and oneOf edges, or nil
// past the last.
func (n *node) edge(i int) *node {
	if n.ref != nil {
		if i == 0 {
			return n.ref
		}
		i--
	}
	for _, l := range [...][]*node{n.allOf, n.anyOf, n.oneOf} {
		if i < len(l) {
			return l[i]
		}
		i -= len(l)
	}
	return nil
}

// resolve computes n.types: its own types, intersected with its $ref's,
// each allOf branch's, and the unions of its anyOf and oneOf branches (a
// cyclic node admits everything); and n.flat and n.simple, for the walk.
// Every node n reaches and is not on a cycle with is resolved.
func (c *compiler) resolve(n *node) {
	t := tAll
	if !n.cyclic {
		t = n.own
		if n.ref != nil {
			t &= n.ref.types
		}
		for _, b := range n.allOf {
			t &= b.types
		}
		if n.hasAnyOf {
			t &= unionTypes(n.anyOf)
		}
		if n.hasOneOf {
			t &= unionTypes(n.oneOf)
		}
	}
	n.types, n.resolved = t, true
	f := n
	if n.pureRef() {
		f = n.ref.flat // not cyclic, so n.ref is resolved
	}
	n.flat = f
	n.simple = f.ref == nil && f.allOf == nil && !f.hasAnyOf && !f.hasOneOf && !f.cyclic
}

// unionTypes is the types one of branches admits.
func unionTypes(branches []*node) typeSet {
	var u typeSet
	for _, b := range branches {
		u |= b.types
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
