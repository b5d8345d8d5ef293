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

// draftOf returns the draft a $schema value names.
func draftOf(s string) (Draft, bool) {
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
	resources map[string]*resource // by the pointer of the resource's root
	order     map[string][]string  // keys in document order, by pointer (memberOrder)
	nodes     map[string]*node     // compiled in the empty scope, by pointer
	scoped    map[nodeKey]*node    // compiled in another scope
}

type nodeKey struct {
	ptr   string
	scope *scope
}

// A resource is a schema resource: a document's root, or a schema with an
// $id (id in draft 4) of its own.
type resource struct {
	uri       string // absolute, without fragment
	doc       *document
	ptr       string
	draft     Draft
	anchors   map[string]string // plain-name fragment -> pointer in doc
	dynamic   map[string]string // $dynamicAnchor name -> pointer (2020-12)
	recursive bool              // "$recursiveAnchor": true at its root (2019-09)
}

// A place is a schema's location: a document, a pointer in it (canonical
// JSON Pointer), the schema found there, and the resource it belongs to.
type place struct {
	doc *document
	ptr string
	v   any
	res *resource
}

// A scope is what the dynamic scope of a schema decides: for each name a
// $dynamicRef may look up, the schema of the outermost resource in scope
// that has that $dynamicAnchor; and the root of the outermost resource in
// scope with "$recursiveAnchor": true. Scopes are interned, so that a
// pointer compares them; nil is the empty scope.
type scope struct {
	key       string
	dyn       map[string]place
	recursive *place
}

// resolver holds the documents and resources of one Compile.
type resolver struct {
	cfg       resolveConfig
	docs      map[string]*document
	resources map[string]*resource // by absolute URI
	refs      []pendingRef         // every reference the index found
	dynNames  map[string]bool      // names some $dynamicRef looks up
	recursive bool                 // some $recursiveRef is there
	scopes    map[string]*scope
	steps     map[scopeStep]*scope // what enter returned
	found     map[[2]string]place  // what lookup found, by base and reference
	loadErrs  map[string]error     // by URI: what WithLoader said
	err       *SchemaError
}

type pendingRef struct {
	base, ref string
	doc       *document
	at        string
}

func (r *resolver) fail(doc *document, ptr, format string, args ...any) {
	if r.err == nil {
		r.err = &SchemaError{Pointer: ptr, URI: doc.shownURI(), Offset: -1, Err: fmt.Errorf("%w: "+format, append([]any{ErrSchema}, args...)...)}
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
	for i := 0; ; {
		j := bytes.IndexByte(text[i:], '\\')
		if j < 0 {
			return false
		}
		i += j + 1
		if bytes.HasPrefix(text[i:], []byte("u00")) && i+3 < len(text) && text[i+3] >= '2' && text[i+3] <= '7' {
			return true
		}
		i++ // past the escaped character
	}
}

// addDocument indexes the document root found at uri, whose objects have
// their keys in the order order gives.
func (r *resolver) addDocument(uri string, root any, order map[string][]string) *document {
	return r.addDocumentIndexed(uri, root, order, true)
}

// addDocumentIndexed adds the document root found at uri, and indexes it
// if index.
func (r *resolver) addDocumentIndexed(uri string, root any, order map[string][]string, index bool) *document {
	d := &document{uri: uri, root: root, order: order, resources: map[string]*resource{}, nodes: map[string]*node{}}
	r.docs[uri] = d
	res := &resource{uri: uri, doc: d, ptr: "", draft: r.cfg.draft}
	if m, ok := root.(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			if dr, ok := draftOf(s); ok {
				res.draft = dr
			}
		}
	}
	d.resources[""] = res
	if _, taken := r.resources[uri]; !taken {
		r.resources[uri] = res
	}
	if index {
		r.index(d, root, "", res, true)
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

// index records the resources and anchors of the schema v at ptr in d,
// which belongs to res unless it has an identifier of its own, and the
// references in it.
func (r *resolver) index(d *document, v any, ptr string, res *resource, isRoot bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	draft := res.draft
	_, hasRef := m["$ref"]
	idKey := "$id"
	if draft == Draft4 {
		idKey = "id"
	}
	// In drafts 4 to 7, $ref makes its siblings ignored, an id among them.
	if id, ok := m[idKey].(string); ok && (draft.modern() || !hasRef) {
		uri, frag, err := resolveURI(res.uri, id)
		switch {
		case err != nil:
			r.fail(d, ptr+"/"+idKey, "%s %q is not a URI reference: %v", idKey, id, err)
		case uri != res.uri && !isRoot:
			nr := &resource{uri: uri, doc: d, ptr: ptr, draft: draft}
			if s, ok := m["$schema"].(string); ok {
				if dr, ok := draftOf(s); ok {
					nr.draft, draft = dr, dr
				}
			}
			d.resources[ptr] = nr
			if _, taken := r.resources[uri]; !taken {
				r.resources[uri] = nr
			}
			res = nr
		case uri != res.uri && isRoot:
			// The root's own $id: the document is known by both URIs.
			res.uri = uri
			if _, taken := r.resources[uri]; !taken {
				r.resources[uri] = res
			}
		}
		if frag != "" && !strings.HasPrefix(frag, "/") {
			res.addAnchor(frag, ptr) // "id": "#foo", drafts 4 to 7
		}
	}
	if draft.modern() {
		if a, ok := m["$anchor"].(string); ok {
			res.addAnchor(a, ptr)
		}
		if a, ok := m["$dynamicAnchor"].(string); ok && draft == Draft2020 {
			res.addAnchor(a, ptr)
			if res.dynamic == nil {
				res.dynamic = map[string]string{}
			}
			if _, dup := res.dynamic[a]; !dup {
				res.dynamic[a] = ptr
			}
		}
		if b, ok := m["$recursiveAnchor"].(bool); ok && b && draft == Draft2019 && res.ptr == ptr {
			res.recursive = true
		}
	}
	for _, kw := range [...]string{"$ref", "$dynamicRef", "$recursiveRef"} {
		s, ok := m[kw].(string)
		if !ok {
			continue
		}
		switch {
		case kw == "$dynamicRef" && draft != Draft2020, kw == "$recursiveRef" && draft != Draft2019:
			continue
		case kw == "$dynamicRef":
			if _, frag, err := resolveURI(res.uri, s); err == nil && frag != "" && !strings.HasPrefix(frag, "/") {
				if r.dynNames == nil {
					r.dynNames = map[string]bool{}
				}
				r.dynNames[frag] = true
			}
		case kw == "$recursiveRef":
			r.recursive = true
		}
		r.refs = append(r.refs, pendingRef{base: res.uri, ref: s, doc: d, at: ptr + "/" + escapeToken(kw)})
	}
	for _, kw := range oneSchema {
		if sub, ok := m[kw]; ok {
			if _, isList := sub.([]any); !isList {
				r.index(d, sub, ptr+"/"+kw, res, false)
			}
		}
	}
	for _, kw := range schemaList {
		if list, ok := m[kw].([]any); ok {
			for i, sub := range list {
				p := ptr + "/" + kw + "/" + strconv.Itoa(i)
				r.index(d, sub, p, res, false)
			}
		}
	}
	for _, kw := range schemaMaps {
		if obj, ok := m[kw].(map[string]any); ok {
			for _, k := range d.members(ptr+"/"+kw, obj) {
				r.index(d, obj[k], ptr+"/"+kw+"/"+escapeToken(k), res, false)
			}
		}
	}
}

func (res *resource) addAnchor(name, ptr string) {
	if res.anchors == nil {
		res.anchors = map[string]string{}
	}
	if _, dup := res.anchors[name]; !dup {
		res.anchors[name] = ptr
	}
}

// containing returns the innermost resource of d whose root is ptr or an
// ancestor of it.
func (d *document) containing(ptr string) *resource {
	if len(d.resources) == 1 {
		return d.resources[""]
	}
	for p := ptr; ; {
		if res, ok := d.resources[p]; ok {
			return res
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return d.resources[""]
		}
		p = p[:i]
	}
}

// loadAll loads every other document the references name, where the
// caller supplies it, and indexes it, until none is left: so that every
// name a $dynamicRef looks up is known before the first scope is made.
// A document that is not supplied is left for lookup to report.
func (r *resolver) loadAll() {
	for i := 0; i < len(r.refs) && r.err == nil; i++ {
		p := r.refs[i]
		uri, _, err := resolveURI(p.base, p.ref)
		if err != nil {
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
				r.fail(p.doc, p.at, "%s %q: document %s is not JSON: %v", keywordOf(p.at), p.ref, showURI(uri), err)
				return
			}
			var dup *duplicateKey
			if order, dup = memberOrder(data); dup != nil {
				r.fail(p.doc, p.at, "%s %q: document %s has a duplicate key %q at %s", keywordOf(p.at), p.ref, showURI(uri), dup.key, showPointer(dup.ptr))
				return
			}
		}
		r.addDocument(uri, v, order)
	}
}

// supplied returns the document the caller supplies for uri: if two keys
// name it, the first in the order of their bytes.
func (r *resolver) supplied(uri string) ([]byte, bool) {
	for _, k := range slices.Sorted(maps.Keys(r.cfg.docs)) {
		ku, _, err := resolveURI(baseless, k)
		if err == nil && ku == uri {
			return r.cfg.docs[k], true
		}
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
	dec := json.NewDecoder(strings.NewReader(string(data)))
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

func keywordOf(at string) string { return at[strings.LastIndexByte(at, '/')+1:] }

// lookup finds the schema the reference ref, written in the resource of
// base at the pointer at of doc, names: by a JSON Pointer or a plain-name
// anchor, in this document or another. It reports what does not resolve.
func (r *resolver) lookup(base, ref string, doc *document, at string) (place, bool) {
	// A reference is looked up once however many scopes compile it.
	key := [2]string{base, ref}
	if p, ok := r.found[key]; ok {
		return p, true
	}
	p, ok := r.find(base, ref, doc, at)
	if ok {
		if r.found == nil {
			r.found = map[[2]string]place{}
		}
		r.found[key] = p
	}
	return p, ok
}

func (r *resolver) find(base, ref string, doc *document, at string) (place, bool) {
	kw := keywordOf(at)
	uri, frag, err := resolveURI(base, ref)
	if err != nil {
		r.fail(doc, at, "%s %q does not resolve: not a URI reference: %v", kw, ref, err)
		return place{}, false
	}
	res, ok := r.resources[uri]
	if !ok {
		if e := r.loadErrs[uri]; e != nil {
			r.fail(doc, at, "%s %q does not resolve: loading %s: %v", kw, ref, showURI(uri), e)
		} else {
			r.fail(doc, at, "%s %q does not resolve: %s is another document, and none was supplied for it (WithDocuments, WithLoader; --ref-doc)", kw, ref, showURI(uri))
		}
		return place{}, false
	}
	d := res.doc
	if frag == "" || frag[0] == '/' {
		v, ptr, msg := pointerIn(d.root, res.ptr, frag)
		if msg != "" {
			r.fail(doc, at, "%s %q does not resolve: %s", kw, ref, msg)
			return place{}, false
		}
		return place{doc: d, ptr: ptr, v: v, res: d.containing(ptr)}, true
	}
	ptr, ok := res.anchors[frag]
	if !ok {
		r.fail(doc, at, "%s %q does not resolve: no anchor %q in %s", kw, ref, frag, showURI(res.uri))
		return place{}, false
	}
	v, _, _ := pointerIn(d.root, ptr, "")
	return place{doc: d, ptr: ptr, v: v, res: d.containing(ptr)}, true
}

var unescapeToken = strings.NewReplacer("~1", "/", "~0", "~")

// pointerIn follows the JSON Pointer frag from the value at the canonical
// pointer from in root: the value, its canonical pointer, or why not.
func pointerIn(root any, from, frag string) (any, string, string) {
	v := root
	canon := ""
	walk := func(p string) string {
		for _, tok := range strings.Split(p[1:], "/") {
			if strings.IndexByte(tok, '~') >= 0 {
				tok = unescapeToken.Replace(tok)
			}
			switch cur := v.(type) {
			case map[string]any:
				next, ok := cur[tok]
				if !ok {
					return fmt.Sprintf("no member %q", tok)
				}
				v = next
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(cur) || strconv.Itoa(i) != tok {
					return fmt.Sprintf("no element %q", tok)
				}
				v = cur[i]
			default:
				return fmt.Sprintf("%q is inside %s", tok, jsonKind(cur))
			}
			canon += "/" + escapeToken(tok)
		}
		return ""
	}
	if from != "" {
		if msg := walk(from); msg != "" {
			return nil, "", msg
		}
	}
	if frag != "" {
		if msg := walk(frag); msg != "" {
			return nil, "", msg
		}
	}
	return v, canon, ""
}

// maxScopes bounds the dynamic scopes of one Compile. A schema is compiled
// once in each scope that reaches it, and paths through resources with
// $dynamicAnchors can bind the names in a number of ways exponential in
// the schema's size (issue 21: levels of two resources with the same
// $dynamicAnchor, chained to a leaf of $dynamicRefs). With the bound, the
// schemas compiled are at most maxScopes+1 times the schemas written, and
// a schema that needs more scopes is refused (docs/readings.md section 4).
const maxScopes = 64

// enter returns the scope s once the resource res, whose root is at p, is
// in it: res binds the names it has a $dynamicAnchor for that s does not
// bind yet, and is the recursive anchor if s has none yet and it has
// "$recursiveAnchor": true. Past maxScopes it fails and returns s.
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
	if r.err == nil {
		if r.steps == nil {
			r.steps = map[scopeStep]*scope{}
		}
		r.steps[step] = next
	}
	return next
}

// scopeStep is a scope and a resource entered in it.
type scopeStep struct {
	s   *scope
	res *resource
}

func (r *resolver) enterNew(s *scope, res *resource, p place) *scope {
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
	n := &scope{dyn: map[string]place{}}
	if s != nil {
		maps.Copy(n.dyn, s.dyn)
		n.recursive = s.recursive
	}
	for _, name := range add {
		ptr := res.dynamic[name]
		v, _, _ := pointerIn(res.doc.root, ptr, "")
		n.dyn[name] = place{doc: res.doc, ptr: ptr, v: v, res: res}
	}
	if rec {
		v, _, _ := pointerIn(res.doc.root, res.ptr, "")
		n.recursive = &place{doc: res.doc, ptr: res.ptr, v: v, res: res}
	}
	var key strings.Builder
	for _, name := range slices.Sorted(maps.Keys(n.dyn)) {
		p := n.dyn[name]
		fmt.Fprintf(&key, "%q=%s#%s;", name, p.doc.uri, p.ptr)
	}
	if n.recursive != nil {
		fmt.Fprintf(&key, "recursive=%s#%s", n.recursive.doc.uri, n.recursive.ptr)
	}
	n.key = key.String()
	if old, ok := r.scopes[n.key]; ok {
		return old
	}
	if len(r.scopes) == maxScopes {
		r.fail(p.doc, p.ptr, "more than %d dynamic scopes: the paths to this resource bind its $dynamicAnchor names (and those of the resources on the way) in more ways than toolnorm follows", maxScopes)
		return s
	}
	if r.scopes == nil {
		r.scopes = map[string]*scope{}
	}
	r.scopes[n.key] = n
	return n
}

// dynamicTarget returns where a $dynamicRef (2020-12) whose reference has
// the fragment frag and names first the schema at first leads in scope s:
// if first has "$dynamicAnchor" frag, the schema the outermost resource in
// scope has for that name; else first, as a $ref.
func (r *resolver) dynamicTarget(s *scope, frag string, first place) place {
	if frag == "" || frag[0] == '/' || first.res.dynamic[frag] != first.ptr || s == nil {
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
	if !first.res.recursive || first.ptr != first.res.ptr || s == nil || s.recursive == nil {
		return first
	}
	return *s.recursive
}
