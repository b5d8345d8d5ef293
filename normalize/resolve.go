package normalize

// How a $ref, $dynamicRef or $recursiveRef finds its schema
// (docs/readings.md section 4, "Every schema a tool can ship"): base URIs
// per draft, plain-name anchors, embedded resources, other documents when
// the caller supplies them, and the dynamic scope.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Draft is a JSON Schema draft. A schema resource is read by the draft its
// $schema names; [WithDraft] sets the draft of one that names none (or one
// Compile does not know).
type Draft uint8

const (
	Draft2020 Draft = iota // draft 2020-12, the default
	Draft2019              // draft 2019-09
	Draft7                 // draft-07
	Draft6                 // draft-06
	Draft4                 // draft-04
)

var draftNames = [...]string{Draft2020: "2020-12", Draft2019: "2019-09", Draft7: "7", Draft6: "6", Draft4: "4"}

func (d Draft) String() string {
	if int(d) < len(draftNames) {
		return draftNames[d]
	}
	return "Draft(" + strconv.Itoa(int(d)) + ")"
}

// ParseDraft returns the draft named "4", "6", "7", "2019-09" or "2020-12"
// (or "draft4" ... "draft2020-12", as the test suite names them).
func ParseDraft(s string) (Draft, error) {
	t := strings.TrimPrefix(s, "draft")
	t = strings.TrimPrefix(t, "-")
	t = strings.TrimPrefix(t, "0")
	for d, name := range draftNames {
		if t == name {
			return Draft(d), nil
		}
	}
	return 0, fmt.Errorf("normalize: unknown draft %q (want 4, 6, 7, 2019-09 or 2020-12)", s)
}

// modern reports whether d has $defs, $anchor and $ref beside other
// keywords (2019-09 and later).
func (d Draft) modern() bool { return d <= Draft2019 }

// DraftOf returns the draft a $schema value names: its URI, with http or
// https and with or without a final "#" ("https://json-schema.org/schema"
// is 2020-12); false for any other value.
func DraftOf(s string) (Draft, bool) {
	s = strings.TrimSuffix(s, "#")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "http://"), "https://")
	switch s {
	case "json-schema.org/draft/2020-12/schema", "json-schema.org/schema":
		return Draft2020, true
	case "json-schema.org/draft/2019-09/schema":
		return Draft2019, true
	case "json-schema.org/draft-07/schema":
		return Draft7, true
	case "json-schema.org/draft-06/schema":
		return Draft6, true
	case "json-schema.org/draft-04/schema":
		return Draft4, true
	}
	return 0, false
}

// resolveConfig is what the options of this file set. They apply to
// Compile only, so they live outside config.
type resolveConfig struct {
	draft Draft
	docs  map[string][]byte
	load  func(uri string) ([]byte, error)
}

type resolveOption func(*resolveConfig)

func (resolveOption) apply(*config) {}

// WithDraft sets the draft of a schema or document whose $schema names
// none. The default is [Draft2020].
func WithDraft(d Draft) Option { return resolveOption(func(r *resolveConfig) { r.draft = d }) }

// WithDocuments supplies documents that references to other documents may
// name, by URI: an absolute URI, or one relative to the schema's base
// (its $id, else none: then "other.json" is the document a
// "$ref":"other.json#/x" names). A fragment in a key is ignored. Without
// it (or [WithLoader]), such a reference is a [SchemaError].
func WithDocuments(docs map[string][]byte) Option {
	return resolveOption(func(r *resolveConfig) { r.docs = docs })
}

// WithLoader supplies documents on demand: Compile calls load once for
// each other document a reference names, with its absolute URI (or the
// URI as written, relative, when the schema has no base), after looking
// in [WithDocuments]. An error from load is reported with the reference.
func WithLoader(load func(uri string) ([]byte, error)) Option {
	return resolveOption(func(r *resolveConfig) { r.load = load })
}

// baseless is the base URI of a document without one of its own: URIs
// under it are shown and looked up relative ("other.json").
const baseless = "https://toolnorm.invalid/"

// showURI returns u as a message shows it.
func showURI(u string) string {
	if u == baseless {
		return "the schema"
	}
	return strings.TrimPrefix(u, baseless)
}

// resolveURI resolves ref against the absolute URI base: the absolute URI
// without its fragment, and the fragment (percent-decoded).
func resolveURI(base, ref string) (string, string, error) {
	if frag, ok := strings.CutPrefix(ref, "#"); ok {
		// Within the resource, the common case: no URI to parse.
		if strings.IndexByte(frag, '%') < 0 {
			return base, frag, nil
		}
		f, err := url.PathUnescape(frag)
		return base, f, err
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", "", err
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", "", err
	}
	u := b.ResolveReference(r)
	frag := u.Fragment
	u.Fragment, u.RawFragment = "", ""
	return u.String(), frag, nil
}

// A document is one JSON document of schemas: the schema given to
// Compile, or one supplied for a reference.
type document struct {
	uri       string // absolute, without fragment
	root      any
	res       *resource             // the resource of its root
	resources map[uintptr]*resource // the others, by their root (objectID)
	order     map[uintptr][]string  // keys in document order, by object (objectID)

	// For a document decodeOrderedSkipping read: its text, and once a
	// pointer reaches into a member it left, the whole text decoded.
	text []byte
	full any
}

// decoded returns the value at l in d decoded in full, for a member of a
// schema object that decodeOrderedSkipping left (skipped) and a pointer
// reaches: from d's text decoded once more, whole, on the first such
// pointer. Its objects' member order joins d's; they are kept while
// Compile runs, so that no other object has their objectID.
func (d *document) decoded(l *loc) any {
	if d.full == nil {
		v, order, ok := decodeOrdered(d.text)
		if !ok {
			// A lone surrogate escape in a string that was skipped:
			// read as encoding/json reads it (the text was checked).
			v, order, _ = decodeSchema(d.text)
		}
		if d.order == nil {
			d.order = map[uintptr][]string{}
		}
		maps.Copy(d.order, order)
		d.full = v
	}
	var path []*loc
	for ; l != nil; l = l.parent {
		path = append(path, l)
	}
	v := d.full
	for k := len(path) - 1; k >= 0; k-- {
		switch cur := v.(type) {
		case map[string]any:
			v = cur[path[k].key]
		case []any:
			v = cur[path[k].index]
		}
	}
	return v
}

// A resource is a schema resource: a document's root, or a schema with an
// $id (id in draft 4) of its own.
type resource struct {
	uri       string // absolute, without fragment
	root      place
	draft     Draft
	anchors   map[string]place // by plain-name fragment
	dynamic   map[string]place // by $dynamicAnchor name (2020-12)
	recursive bool             // "$recursiveAnchor": true at its root (2019-09)
	canon     *resource        // the resource its URI names (canonical)
}

// A place is a schema's location: a document, where in it, the value
// found there, and the resource it belongs to.
type place struct {
	doc *document
	at  *loc
	v   any
	res *resource
}

// A loc is where a value is in its document: the loc of its parent, and
// its key there or, for an element of an array, its index; nil is the
// document's root. Its JSON Pointer is built only when it is read, for an
// error: a pointer kept for every schema would cost the schema's depth
// times the length of its keys each, the square of the schema's size
// (issue 34).
type loc struct {
	parent *loc
	key    string
	index  int // -1 for a member
}

func (l *loc) member(key string) *loc { return &loc{parent: l, key: key, index: -1} }

// members returns the locs of the members keys of the object at l, with
// one allocation.
func (l *loc) members(keys []string) []loc {
	out := make([]loc, len(keys))
	for i, k := range keys {
		out[i] = loc{parent: l, key: k, index: -1}
	}
	return out
}

// elements returns the locs of the n elements of the array at l, with one
// allocation.
func (l *loc) elements(n int) []loc {
	out := make([]loc, n)
	for i := range out {
		out[i] = loc{parent: l, index: i}
	}
	return out
}

// pointer returns the canonical JSON Pointer of l.
func (l *loc) pointer() string {
	var tokens []string
	for ; l != nil; l = l.parent {
		if l.index >= 0 {
			tokens = append(tokens, strconv.Itoa(l.index))
		} else {
			tokens = append(tokens, escapeToken(l.key))
		}
	}
	var b strings.Builder
	for k := len(tokens) - 1; k >= 0; k-- {
		b.WriteByte('/')
		b.WriteString(tokens[k])
	}
	return b.String()
}

// objectID identifies a decoded object by its map, which no other value of
// any document shares: a word, where its pointer would cost its depth
// times the length of its keys. The documents hold their maps while
// Compile runs, so that no two of them have the same.
func objectID(m map[string]any) uintptr { return reflect.ValueOf(m).Pointer() }

// child is the place of v, at l below p: in the resource whose root v is,
// else in p's.
func (p place) child(v any, l *loc) place {
	res := p.res
	if len(p.doc.resources) > 0 {
		if m, ok := v.(map[string]any); ok {
			if r, ok := p.doc.resources[objectID(m)]; ok {
				res = r
			}
		}
	}
	return place{doc: p.doc, at: l, v: v, res: res}
}

// A scope is what the dynamic scope of a schema decides: for each name a
// $dynamicRef may look up, the schema of the outermost resource in scope
// that has that $dynamicAnchor; and the root of the outermost resource in
// scope with "$recursiveAnchor": true. Scopes are interned, so that a
// pointer compares them; nil is the empty scope.
type scope struct {
	dyn       map[string]place
	recursive *place
}

// resolver holds the documents and resources of one Compile, and counts
// its work.
type resolver struct {
	cfg          resolveConfig
	docs         map[string]*document
	resources    map[string]*resource // by absolute URI
	refs         []pendingRef         // every reference the index found
	dynNames     map[string]bool      // names some $dynamicRef looks up
	recursive    bool                 // some $recursiveRef is there
	scopes       map[string]*scope    // by the names they bind and where
	steps        map[scopeStep]*scope // what enter returned
	found        map[foundKey]found   // what lookup found
	loadErrs     map[string]error     // by URI: what WithLoader said
	suppliedURIs map[string]string    // WithDocuments' keys, by absolute URI
	err          *SchemaError

	work
}

// mayScope reports whether a dynamic scope may be made: whether some
// $dynamicRef or $recursiveRef is there.
func (r *resolver) mayScope() bool { return r.dynNames != nil || r.recursive }

type foundKey struct {
	res *resource // the resource the reference is written in
	ref string
}

type found struct {
	p    place
	frag string // the fragment of the reference, percent-decoded
}

type pendingRef struct {
	res *resource // the resource it is written in
	ref string
	doc *document
	at  *loc // the schema it is in
	kw  string
}

func (r *resolver) fail(doc *document, at *loc, format string, args ...any) {
	if r.err == nil {
		r.err = &SchemaError{Pointer: at.pointer(), URI: doc.shownURI(), Offset: -1, Err: fmt.Errorf("%w: "+format, append([]any{ErrSchema}, args...)...)}
	}
}

// shownURI is the URI of d for SchemaError: "" for the schema itself.
func (d *document) shownURI() string {
	if d == nil || d.uri == baseless {
		return ""
	}
	return showURI(d.uri)
}

// mayIdentify reports whether the JSON text of a schema may hold an
// identifier or a dynamic reference, or name another document the caller
// supplies: if not, Compile need not look for them. A key may spell its
// letters as escapes ("\u0024id"), which counts as may.
func mayIdentify(text []byte, rc *resolveConfig) bool {
	if rc.docs != nil || rc.load != nil {
		return true
	}
	// One pass for each byte that such a key starts with, which most
	// schemas hold few of.
	for i := 0; ; i++ {
		j := bytes.IndexByte(text[i:], '$')
		if j < 0 {
			break
		}
		i += j
		for _, kw := range [...]string{`$id"`, `$anchor"`, `$dynamicAnchor"`, `$recursiveAnchor"`, `$dynamicRef"`, `$recursiveRef"`, `$schema"`} {
			if bytes.HasPrefix(text[i:], []byte(kw)) {
				return true
			}
		}
	}
	if rc.draft == Draft4 && bytes.Contains(text, []byte(`"id"`)) {
		return true
	}
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], '\\')
		if j < 0 {
			return false
		}
		i += j + 1
		if bytes.HasPrefix(text[i:], []byte("u00")) && i+3 < len(text) && text[i+3] >= '2' && text[i+3] <= '7' {
			return true
		}
		i++ // past the escaped character (a backslash may end the text: it is not JSON then)
	}
	return false
}

// addDocument indexes the document root found at uri, whose objects have
// their keys in the order order gives, and which was size bytes of text.
func (r *resolver) addDocument(uri string, root any, order map[uintptr][]string, size int) *document {
	return r.addDocumentIndexed(uri, root, order, size, true)
}

// addDocumentIndexed adds the document root found at uri, and indexes it
// if index.
func (r *resolver) addDocumentIndexed(uri string, root any, order map[uintptr][]string, size int, index bool) *document {
	r.budget(size)
	d := &document{uri: uri, root: root, order: order}
	r.docs[uri] = d
	res := &resource{uri: uri, draft: r.cfg.draft}
	res.root = place{doc: d, v: root, res: res}
	if m, ok := root.(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			if dr, ok := DraftOf(s); ok {
				res.draft = dr
			}
		}
	}
	d.res = res
	if _, taken := r.resources[uri]; !taken {
		r.resources[uri] = res
	}
	if index {
		r.index(d, root, nil, res, true)
	}
	return d
}

// Keywords whose values are schemas, for finding identifiers: the index
// goes only through schemas, so that an "$id" in an enum or an unknown
// keyword is no identifier.
var (
	oneSchema  = []string{"additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "items"}
	schemaMaps = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
	schemaList = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
)

// index records the resources and anchors of the schema v at at in d,
// which belongs to res unless it has an identifier of its own, and the
// references in it.
func (r *resolver) index(d *document, v any, at *loc, res *resource, isRoot bool) {
	m, ok := v.(map[string]any)
	if !ok || r.err != nil {
		return
	}
	r.step(1)
	var k indexed
	k.gather(m)
	draft := res.draft
	hasRef := k.has&(1<<slotRef) != 0
	idSlot, idKey := slotID, "$id"
	if draft == Draft4 {
		idSlot, idKey = slotOldID, "id"
	}
	here := place{doc: d, at: at, v: m, res: res}
	// In drafts 4 to 7, $ref makes its siblings ignored, an id among them.
	if id, ok := k.v[idSlot].(string); ok && (draft.modern() || !hasRef) {
		uri, frag, err := r.resolveURI(res.uri, id, d, at, idKey)
		switch {
		case r.err != nil:
			return
		case err != nil:
			r.fail(d, at.member(idKey), "%s %q is not a URI reference: %v", idKey, id, err)
			return
		case uri != res.uri && !isRoot:
			nr := &resource{uri: uri, draft: draft}
			if s, ok := k.v[slotSchema].(string); ok {
				if dr, ok := DraftOf(s); ok {
					nr.draft, draft = dr, dr
				}
			}
			if d.resources == nil {
				d.resources = map[uintptr]*resource{}
			}
			d.resources[objectID(m)] = nr
			if _, taken := r.resources[uri]; !taken {
				r.resources[uri] = nr
			}
			res = nr
			here.res = nr
			nr.root = here
		case uri != res.uri && isRoot:
			// The root's own $id: the document is known by both URIs.
			res.uri = uri
			if _, taken := r.resources[uri]; !taken {
				r.resources[uri] = res
			}
		}
		if frag != "" && !strings.HasPrefix(frag, "/") && !draft.modern() {
			// "id": "#foo", drafts 4 to 7; from 2019-09 on an $id with
			// a fragment names no anchor (the drafts forbid it there).
			res.addAnchor(frag, here)
		}
	}
	if draft.modern() {
		if a, ok := k.v[slotAnchor].(string); ok {
			res.addAnchor(a, here)
		}
		if a, ok := k.v[slotDynamicAnchor].(string); ok && draft == Draft2020 {
			res.addAnchor(a, here)
			if res.dynamic == nil {
				res.dynamic = map[string]place{}
			}
			if _, dup := res.dynamic[a]; !dup {
				res.dynamic[a] = here
			}
		}
		if b, ok := k.v[slotRecursiveAnchor].(bool); ok && b && draft == Draft2019 && res.root.at == at {
			res.recursive = true
		}
	}
	for i, kw := range [...]string{"$ref", "$dynamicRef", "$recursiveRef"} {
		s, ok := k.v[slotRef+i].(string)
		if !ok {
			continue
		}
		switch {
		case kw == "$dynamicRef" && draft != Draft2020, kw == "$recursiveRef" && draft != Draft2019:
			continue
		case kw == "$dynamicRef":
			if _, frag, err := r.resolveURI(res.uri, s, d, at, kw); err == nil && frag != "" && !strings.HasPrefix(frag, "/") {
				if r.dynNames == nil {
					r.dynNames = map[string]bool{}
				}
				r.dynNames[frag] = true
			}
		case kw == "$recursiveRef":
			r.recursive = true
		}
		r.refs = append(r.refs, pendingRef{res: res, ref: s, doc: d, at: at, kw: kw})
	}
	if k.has&subschemas == 0 {
		return
	}
	for i, kw := range oneSchema {
		if sub := k.v[slotOneSchema+i]; sub != nil {
			if _, isList := sub.([]any); !isList {
				r.index(d, sub, at.member(kw), res, false)
			}
		}
	}
	for i, kw := range schemaList {
		if list, ok := k.v[slotSchemaList+i].([]any); ok {
			locs := at.member(kw).elements(len(list))
			for i, sub := range list {
				r.index(d, sub, &locs[i], res, false)
			}
		}
	}
	for i, kw := range schemaMaps {
		if obj, ok := k.v[slotSchemaMaps+i].(map[string]any); ok {
			keys := d.members(obj)
			locs := at.member(kw).members(keys)
			for i, k := range keys {
				r.index(d, obj[k], &locs[i], res, false)
			}
		}
	}
}

// indexed are the members of a schema object that the index reads, found
// in one pass over its members (a schema object has a few, and looking
// each of the thirty keywords up was most of what indexing cost): v by
// slot, has a bit for each slot present.
type indexed struct {
	v   [slots]any
	has uint64
}

// The slots of indexed: the identifiers and references, then oneSchema,
// schemaList (whose items shares oneSchema's) and schemaMaps, in their
// orders.
const (
	slotRef = iota
	slotDynamicRef
	slotRecursiveRef
	slotID
	slotOldID
	slotSchema
	slotAnchor
	slotDynamicAnchor
	slotRecursiveAnchor
	slotOneSchema
	slotSchemaList = slotOneSchema + 12
	slotSchemaMaps = slotSchemaList + 5
	slots          = slotSchemaMaps + 6

	// subschemas has the bits of the slots that hold schemas.
	subschemas = (1<<slots - 1) &^ (1<<slotOneSchema - 1)
)

func (k *indexed) gather(m map[string]any) {
	for key, v := range m {
		i := indexSlot(key)
		switch {
		case i < 0:
			continue
		case i == slotOneSchema+11: // items: one schema, or a list
			k.v[slotSchemaList+4] = v
			k.has |= 1 << (slotSchemaList + 4)
		}
		k.v[i] = v
		k.has |= 1 << i
	}
}

// indexSlot is key's slot in indexed, or -1 for a member the index does
// not read. TestIndexSlots holds it to oneSchema, schemaList and
// schemaMaps.
func indexSlot(key string) int {
	switch key {
	case "$ref":
		return slotRef
	case "$dynamicRef":
		return slotDynamicRef
	case "$recursiveRef":
		return slotRecursiveRef
	case "$id":
		return slotID
	case "id":
		return slotOldID
	case "$schema":
		return slotSchema
	case "$anchor":
		return slotAnchor
	case "$dynamicAnchor":
		return slotDynamicAnchor
	case "$recursiveAnchor":
		return slotRecursiveAnchor
	case "additionalProperties":
		return slotOneSchema
	case "additionalItems":
		return slotOneSchema + 1
	case "not":
		return slotOneSchema + 2
	case "if":
		return slotOneSchema + 3
	case "then":
		return slotOneSchema + 4
	case "else":
		return slotOneSchema + 5
	case "contains":
		return slotOneSchema + 6
	case "propertyNames":
		return slotOneSchema + 7
	case "unevaluatedItems":
		return slotOneSchema + 8
	case "unevaluatedProperties":
		return slotOneSchema + 9
	case "contentSchema":
		return slotOneSchema + 10
	case "items":
		return slotOneSchema + 11
	case "allOf":
		return slotSchemaList
	case "anyOf":
		return slotSchemaList + 1
	case "oneOf":
		return slotSchemaList + 2
	case "prefixItems":
		return slotSchemaList + 3
	case "properties":
		return slotSchemaMaps
	case "patternProperties":
		return slotSchemaMaps + 1
	case "$defs":
		return slotSchemaMaps + 2
	case "definitions":
		return slotSchemaMaps + 3
	case "dependentSchemas":
		return slotSchemaMaps + 4
	case "dependencies":
		return slotSchemaMaps + 5
	}
	return -1
}

func (res *resource) addAnchor(name string, p place) {
	if res.anchors == nil {
		res.anchors = map[string]place{}
	}
	if _, dup := res.anchors[name]; !dup {
		res.anchors[name] = p
	}
}

// loadAll loads every other document the references name, where the
// caller supplies it, and indexes it, until none is left: so that every
// name a $dynamicRef looks up is known before the first scope is made.
// A document that is not supplied is left for lookup to report.
func (r *resolver) loadAll() {
	for i := 0; i < len(r.refs) && r.err == nil; i++ {
		p := r.refs[i]
		if strings.HasPrefix(p.ref, "#") {
			continue // in its own document
		}
		uri, _, err := r.resolveURI(p.res.uri, p.ref, p.doc, p.at, p.kw)
		if err != nil || r.err != nil {
			continue
		}
		if _, ok := r.resources[uri]; ok {
			continue
		}
		if _, tried := r.docs[uri]; tried {
			continue
		}
		data, ok := r.supplied(uri)
		if !ok {
			r.docs[uri] = nil // not supplied: lookup reports it
			continue
		}
		v, order, ok := decodeOrdered(data)
		if !ok {
			var err error
			if v, err = decodeDocument(data); err != nil {
				r.fail(p.doc, p.at.member(p.kw), "%s %q: document %s is not JSON: %v", p.kw, p.ref, showURI(uri), err)
				return
			}
			var dup *duplicateKey
			if order, dup = memberOrder(data, v); dup != nil {
				r.fail(p.doc, p.at.member(p.kw), "%s %q: document %s has a duplicate key %q at %s", p.kw, p.ref, showURI(uri), dup.key, showPointer(dup.ptr))
				return
			}
		}
		r.addDocument(uri, v, order, len(data))
	}
}

// supplied returns the document the caller supplies for uri: if two keys
// name it, the first in the order of their bytes.
func (r *resolver) supplied(uri string) ([]byte, bool) {
	if r.suppliedURIs == nil && len(r.cfg.docs) > 0 {
		r.suppliedURIs = map[string]string{}
		for _, k := range slices.Sorted(maps.Keys(r.cfg.docs)) {
			ku, _, err := resolveURI(baseless, k)
			if _, taken := r.suppliedURIs[ku]; err == nil && !taken {
				r.suppliedURIs[ku] = k
			}
		}
	}
	if k, ok := r.suppliedURIs[uri]; ok {
		return r.cfg.docs[k], true
	}
	if r.cfg.load != nil {
		b, err := r.cfg.load(showURI(uri))
		if err != nil {
			if r.loadErrs == nil {
				r.loadErrs = map[string]error{}
			}
			r.loadErrs[uri] = err
			return nil, false
		}
		return b, true
	}
	return nil, false
}

func decodeDocument(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the document")
	}
	return v, nil
}

// showPointer is a pointer as a message shows it: "(root)" for "".
func showPointer(ptr string) string {
	if ptr == "" {
		return "(root)"
	}
	return ptr
}

// lookup finds the schema the reference ref, written in the resource res
// at the schema at of doc under the keyword kw, names: by a JSON Pointer
// or a plain-name anchor, in this document or another; and the
// reference's fragment. It reports what does not resolve.
func (r *resolver) lookup(res *resource, ref string, doc *document, at *loc, kw string) (place, string, bool) {
	// A reference is looked up once however many scopes compile it.
	key := foundKey{res, ref}
	if f, ok := r.found[key]; ok {
		return f.p, f.frag, true
	}
	p, frag, ok := r.find(res, ref, doc, at, kw)
	if ok {
		if r.found == nil {
			r.found = map[foundKey]found{}
		}
		r.found[key] = found{p, frag}
	}
	return p, frag, ok
}

func (r *resolver) find(from *resource, ref string, doc *document, at *loc, kw string) (place, string, bool) {
	uri, frag, err := r.resolveURI(from.uri, ref, doc, at, kw)
	if r.err != nil {
		return place{}, "", false
	}
	if err != nil {
		r.fail(doc, at.member(kw), "%s %q does not resolve: not a URI reference: %v", kw, ref, err)
		return place{}, "", false
	}
	var res *resource
	if strings.HasPrefix(ref, "#") {
		// The resource's own URI: found once per resource, not hashed
		// again for every reference in it.
		if from.canon == nil {
			from.canon = r.resources[from.uri]
		}
		res = from.canon
	} else {
		var ok bool
		if res, ok = r.resources[uri]; !ok {
			if e := r.loadErrs[uri]; e != nil {
				r.fail(doc, at.member(kw), "%s %q does not resolve: loading %s: %v", kw, ref, showURI(uri), e)
			} else {
				r.fail(doc, at.member(kw), "%s %q does not resolve: %s is another document, and none was supplied for it (WithDocuments, WithLoader; --ref-doc)", kw, ref, showURI(uri))
			}
			return place{}, "", false
		}
	}
	if frag == "" || frag[0] == '/' {
		p, msg := r.follow(res.root, frag)
		if msg != "" {
			r.fail(doc, at.member(kw), "%s %q does not resolve: %s", kw, ref, msg)
			return place{}, "", false
		}
		return p, frag, true
	}
	p, ok := res.anchors[frag]
	if !ok {
		r.fail(doc, at.member(kw), "%s %q does not resolve: no anchor %q in %s", kw, ref, frag, showURI(res.uri))
		return place{}, "", false
	}
	return p, frag, true
}

var unescapeToken = strings.NewReplacer("~1", "/", "~0", "~")

// follow follows the JSON Pointer frag from p, through any value: the
// place it leads to, in the innermost resource on the way, or why not.
func (r *resolver) follow(p place, frag string) (place, string) {
	if frag == "" {
		return p, ""
	}
	for rest := frag[1:]; ; {
		r.step(1)
		tok, more, cut := strings.Cut(rest, "/")
		if strings.IndexByte(tok, '~') >= 0 {
			tok = unescapeToken.Replace(tok)
		}
		switch cur := p.v.(type) {
		case map[string]any:
			next, ok := cur[tok]
			if !ok {
				return place{}, fmt.Sprintf("no member %q", tok)
			}
			at := p.at.member(tok)
			if _, ok := next.(skipped); ok {
				next = p.doc.decoded(at)
				cur[tok] = next // decoded once: the same objects each time
			}
			p = p.child(next, at)
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur) || !canonicalIndex(tok) {
				return place{}, fmt.Sprintf("no element %q", tok)
			}
			p = p.child(cur[i], &loc{parent: p.at, index: i})
		default:
			return place{}, fmt.Sprintf("%q is inside %s", tok, jsonKind(cur))
		}
		if !cut {
			return p, ""
		}
		rest = more
	}
}

// canonicalIndex reports whether tok, digits, is an index as JSON Pointer
// writes it: no leading zero.
func canonicalIndex(tok string) bool {
	return tok == "0" || tok != "" && tok[0] != '0' && tok[0] != '+' && tok[0] != '-'
}

// resolveURI is resolveURI, counting the bytes of URI text it reads and
// makes: past the budget (maxURIBytes), it fails at the keyword kw of the
// schema at at.
func (r *resolver) resolveURI(base, ref string, doc *document, at *loc, kw string) (string, string, error) {
	if strings.HasPrefix(ref, "#") {
		r.step(1)
		return resolveURI(base, ref)
	}
	uri, frag, err := resolveURI(base, ref)
	n := len(base) + len(ref) + len(uri)
	r.step(n / 64)
	r.uriBytes += n
	if r.uriBytes > r.maxURIBytes && r.err == nil {
		r.fail(doc, at.member(kw), "%s %q: the URIs of the schema's identifiers and references add up to more than %d bytes (8 per byte of schema, and 1 MiB), as deeply nested relative identifiers make them", kw, ref, r.maxURIBytes)
	}
	return uri, frag, err
}

// maxScopes bounds the dynamic scopes of one Compile. A schema is compiled
// once in each scope that reaches it, and paths through resources with
// $dynamicAnchors can bind the names in a number of ways exponential in
// the schema's size (issue 21: levels of two resources with the same
// $dynamicAnchor, chained to a leaf of $dynamicRefs). With the bound, the
// schemas compiled are at most maxScopes+1 times the schemas written, and
// a schema that needs more scopes is refused (docs/readings.md section 4).
// The work of the scopes is bounded too, and smaller (scopeWork).
const maxScopes = 64

// enter returns the scope s once the resource res, whose root is at p, is
// in it: res binds the names it has a $dynamicAnchor for that s does not
// bind yet, and is the recursive anchor if s has none yet and it has
// "$recursiveAnchor": true. Past maxScopes, or the budget of scope work,
// it fails and returns s.
func (r *resolver) enter(s *scope, res *resource, p place) *scope {
	if res.dynamic == nil && !res.recursive {
		return s
	}
	// Entering a resource is decided once per scope and resource.
	step := scopeStep{s, res}
	if next, ok := r.steps[step]; ok {
		return next
	}
	next := r.enterNew(s, res, p)
	if r.steps == nil {
		r.steps = map[scopeStep]*scope{}
	}
	r.steps[step] = next
	return next
}

// scopeStep is a scope and a resource entered in it.
type scopeStep struct {
	s   *scope
	res *resource
}

func (r *resolver) enterNew(s *scope, res *resource, p place) *scope {
	if !r.spendScope(len(res.dynamic), p) {
		return s
	}
	var add []string
	for name := range res.dynamic {
		if r.dynNames[name] && (s == nil || s.dyn[name].doc == nil) {
			add = append(add, name)
		}
	}
	rec := res.recursive && r.recursive && (s == nil || s.recursive == nil)
	if len(add) == 0 && !rec {
		return s
	}
	// The new scope's bindings are copied and its key made: work the
	// budget pays before it is done.
	size := len(add)
	if s != nil {
		size += len(s.dyn)
	}
	if !r.spendScope(size, p) {
		return s
	}
	n := &scope{dyn: make(map[string]place, size)}
	if s != nil {
		maps.Copy(n.dyn, s.dyn)
		n.recursive = s.recursive
	}
	for _, name := range add {
		n.dyn[name] = res.dynamic[name]
	}
	if rec {
		n.recursive = &res.root
	}
	// The key names each binding by its name and the identity of the
	// schema bound: the same bindings, the same key.
	var key []byte
	for _, name := range slices.Sorted(maps.Keys(n.dyn)) {
		key = strconv.AppendInt(key, int64(len(name)), 10)
		key = append(append(append(key, ':'), name...), '=')
		key = strconv.AppendUint(key, uint64(placeID(n.dyn[name])), 16)
		key = append(key, ';')
	}
	if n.recursive != nil {
		key = append(key, "recursive="...)
		key = strconv.AppendUint(key, uint64(placeID(*n.recursive)), 16)
	}
	if old, ok := r.scopes[string(key)]; ok {
		return old
	}
	if len(r.scopes) == maxScopes {
		r.fail(p.doc, p.at, "more than %d dynamic scopes: the paths to this resource bind its $dynamicAnchor names (and those of the resources on the way) in more ways than toolnorm follows", maxScopes)
		return s
	}
	if r.scopes == nil {
		r.scopes = map[string]*scope{}
	}
	r.scopes[string(key)] = n
	return n
}

// placeID identifies the schema at p: its object (a schema a scope binds
// has a $dynamicAnchor or "$recursiveAnchor", so it is an object).
func placeID(p place) uintptr {
	if m, ok := p.v.(map[string]any); ok {
		return objectID(m)
	}
	return 0
}

// dynamicTarget returns where a $dynamicRef (2020-12) whose reference has
// the fragment frag and names first the schema at first leads in scope s:
// if first has "$dynamicAnchor" frag, the schema the outermost resource in
// scope has for that name; else first, as a $ref.
func (r *resolver) dynamicTarget(s *scope, frag string, first place) place {
	if frag == "" || frag[0] == '/' || s == nil {
		return first
	}
	// first has "$dynamicAnchor" frag; or, as the oracle reads it too,
	// first is a document's root and its resource has no $dynamicAnchor
	// frag at all.
	if a, ok := first.res.dynamic[frag]; ok && placeID(a) != placeID(first) || !ok && first.at != nil {
		return first
	}
	if p, ok := s.dyn[frag]; ok {
		return p
	}
	return first
}

// recursiveTarget returns where a $recursiveRef (2019-09) that names first
// the schema at first leads in scope s: if first is a resource root with
// "$recursiveAnchor": true, the root of the outermost such resource in
// scope; else first, as a $ref.
func (r *resolver) recursiveTarget(s *scope, first place) place {
	if !first.res.recursive || placeID(first) != placeID(first.res.root) || s == nil || s.recursive == nil {
		return first
	}
	return *s.recursive
}
