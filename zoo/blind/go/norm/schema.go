package norm

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Drafts of JSON Schema, as $schema names them.
const (
	draft4    = 4
	draft6    = 6
	draft7    = 7
	draft2019 = 2019
	draft2020 = 2020
)

func draftOf(uri string) (int, bool) {
	u := strings.TrimSuffix(strings.TrimSuffix(uri, "#"), "/")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	switch u {
	case "json-schema.org/draft-04/schema", "json-schema.org/schema":
		if u == "json-schema.org/schema" {
			return draft2020, true
		}
		return draft4, true
	case "json-schema.org/draft-06/schema":
		return draft6, true
	case "json-schema.org/draft-07/schema":
		return draft7, true
	case "json-schema.org/draft/2019-09/schema":
		return draft2019, true
	case "json-schema.org/draft/2020-12/schema":
		return draft2020, true
	}
	return 0, false
}

// JSON types as bits.
const (
	tNull uint8 = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tString
	tInteger
)

var typeNames = map[string]uint8{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "string": tString, "integer": tInteger,
}

// A resource is a schema with a base URI of its own: the document, or an
// embedded schema with an $id.
type resource struct {
	idx             int
	uri             string
	root            *value
	anchors         map[string]*value
	dynAnchors      map[string]*value
	recursiveAnchor bool
}

// where a value at a schema position belongs.
type place struct {
	res   *resource
	draft int
	ptr   string
}

type patProp struct {
	re *pattern
	s  *schema
}

// A schema is one compiled subschema.
type schema struct {
	v     *value
	boolv int8 // 1: true, 2: false, 0: an object
	at    place

	hasType  bool
	types    uint8
	nullable bool
	refOnly  bool // drafts 4 to 7: $ref with its siblings ignored

	ref     *schema
	dynRef  *schema
	dynName string // the $dynamicAnchor the $dynamicRef is bound to, if any
	recRef  *schema
	recDyn  bool

	allOf, anyOf, oneOf []*schema

	props    map[string]*schema
	pats     []patProp
	addProps *schema

	minLen, maxLen int // -1 when absent

	items        *schema
	itemsList    []*schema
	hasItemsList bool
	addItems     *schema
	prefix       []*schema
	hasPrefix    bool
}

type compiler struct {
	doc       *value
	places    map[*value]place
	order     []*value
	resources map[string]*resource
	resList   []*resource
	nodes     map[*value]*schema
	valid     map[*value]bool
	pending   []*schema
}

const defaultBase = "https://blindnorm.invalid/schema.json"

type schemaError struct {
	msg string
	ptr string
}

func (e *schemaError) Error() string {
	p := e.ptr
	if p == "" {
		p = "(root)"
	}
	return fmt.Sprintf("invalid schema: %s at %s", e.msg, p)
}

func errAt(ptr, format string, a ...any) error {
	return &schemaError{fmt.Sprintf(format, a...), ptr}
}

func escPtr(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func (v *value) get(key string) *value {
	if v == nil || v.kind != '{' {
		return nil
	}
	for _, m := range v.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// checkDuplicates refuses an object that names a key twice, anywhere.
func checkDuplicates(v *value, ptr string) error {
	switch v.kind {
	case '{':
		seen := make(map[string]bool, len(v.members))
		for _, m := range v.members {
			if seen[m.key] {
				return errAt(ptr, "duplicate key %q", m.key)
			}
			seen[m.key] = true
		}
		for _, m := range v.members {
			if err := checkDuplicates(m.val, ptr+"/"+escPtr(m.key)); err != nil {
				return err
			}
		}
	case '[':
		for i, e := range v.elems {
			if err := checkDuplicates(e, ptr+"/"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func compileSchema(text []byte) (*schema, *compiler, error) {
	doc, err := parse(text)
	if err != nil {
		return nil, nil, fmt.Errorf("invalid schema: not JSON: %v", err)
	}
	if err := checkDuplicates(doc, ""); err != nil {
		return nil, nil, err
	}
	if doc.kind != '{' && doc.kind != 't' && doc.kind != 'f' {
		return nil, nil, errAt("", "a schema must be an object or a boolean")
	}
	c := &compiler{
		doc:       doc,
		places:    map[*value]place{},
		resources: map[string]*resource{},
		nodes:     map[*value]*schema{},
		valid:     map[*value]bool{},
	}
	root := c.newResource(defaultBase, doc)
	c.index(doc, "", root, draft2020, defaultBase, true, true)
	if err := c.validate(doc, ""); err != nil {
		return nil, nil, err
	}
	// Compile every schema position, the unused definitions too.
	for _, v := range c.order {
		if _, err := c.node(v); err != nil {
			return nil, nil, err
		}
	}
	for len(c.pending) > 0 {
		s := c.pending[len(c.pending)-1]
		c.pending = c.pending[:len(c.pending)-1]
		if err := c.fill(s); err != nil {
			return nil, nil, err
		}
	}
	rs, _ := c.node(doc)
	return rs, c, nil
}

func (c *compiler) newResource(uri string, root *value) *resource {
	r := &resource{idx: len(c.resList), uri: uri, root: root, anchors: map[string]*value{}, dynAnchors: map[string]*value{}}
	c.resList = append(c.resList, r)
	if _, ok := c.resources[uri]; !ok {
		c.resources[uri] = r
	}
	return r
}

func resolveURI(base, ref string) (string, error) {
	if strings.HasPrefix(ref, "#") {
		b, _, _ := strings.Cut(base, "#")
		return b + ref, nil
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	if r.IsAbs() {
		return r.String(), nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	if b.Opaque != "" {
		return "", fmt.Errorf("cannot resolve %q against %q", ref, base)
	}
	return b.ResolveReference(r).String(), nil
}

// The keywords that hold subschemas.
var (
	oneSchemaKeys = map[string]bool{"additionalProperties": true, "additionalItems": true, "not": true, "if": true, "then": true, "else": true, "contains": true, "propertyNames": true, "unevaluatedProperties": true, "unevaluatedItems": true, "contentSchema": true}
	mapSchemaKeys = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true}
	listKeys      = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
)

func isSchemaValue(v *value) bool { return v.kind == '{' || v.kind == 't' || v.kind == 'f' }

// The keywords read here; subschemas under other keywords are walked for
// identifiers only, and compiled only when a reference names them.
var readKeys = map[string]bool{
	"additionalProperties": true, "additionalItems": true, "properties": true, "patternProperties": true,
	"$defs": true, "definitions": true, "allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true,
}

// index walks the schema positions, noting for each its resource and draft,
// and collecting $id resources and anchors. Positions reached through the
// keywords read (checked) are compiled, whether used or not.
func (c *compiler) index(v *value, ptr string, res *resource, draft int, base string, isRoot, checked bool) {
	if !isSchemaValue(v) {
		return
	}
	if _, ok := c.places[v]; ok {
		return
	}
	if v.kind == 't' || v.kind == 'f' {
		c.places[v] = place{res, draft, ptr}
		if checked {
			c.order = append(c.order, v)
		}
		return
	}
	if sv := v.get("$schema"); sv != nil && sv.kind == '"' {
		if d, ok := draftOf(sv.str); ok && (isRoot || v.get(idKey(d)) != nil) {
			draft = d
		}
	}
	hasRef := v.get("$ref") != nil
	if idv := v.get(idKey(draft)); idv != nil && idv.kind == '"' && !(hasRef && draft <= draft7) {
		if strings.HasPrefix(idv.str, "#") {
			if len(idv.str) > 1 {
				res.anchors[idv.str[1:]] = v
			}
		} else if abs, err := resolveURI(base, idv.str); err == nil {
			abs, frag, _ := strings.Cut(abs, "#")
			base = abs
			if isRoot {
				res.uri = abs
				c.resources[abs] = res
			} else {
				res = c.newResource(abs, v)
			}
			if frag != "" && draft <= draft7 {
				res.anchors[frag] = v
			}
		}
	}
	if draft >= draft2019 {
		if a := v.get("$anchor"); a != nil && a.kind == '"' {
			res.anchors[a.str] = v
		}
	}
	if draft == draft2020 {
		if a := v.get("$dynamicAnchor"); a != nil && a.kind == '"' {
			res.anchors[a.str] = v
			res.dynAnchors[a.str] = v
		}
	}
	if draft == draft2019 && res.root == v {
		if a := v.get("$recursiveAnchor"); a != nil && a.kind == 't' {
			res.recursiveAnchor = true
		}
	}
	c.places[v] = place{res, draft, ptr}
	if checked {
		c.order = append(c.order, v)
	}
	for _, m := range v.members {
		k := m.key
		sub := m.val
		chk := checked && readKeys[k] && !(hasRef && draft <= draft7 && k != "$defs" && k != "definitions")
		switch {
		case k == "items" && sub.kind == '[', listKeys[k]:
			if sub.kind != '[' {
				continue
			}
			for i, e := range sub.elems {
				c.index(e, ptr+"/"+k+"/"+strconv.Itoa(i), res, draft, base, false, chk)
			}
		case mapSchemaKeys[k]:
			if sub.kind != '{' {
				continue
			}
			for _, mm := range sub.members {
				c.index(mm.val, ptr+"/"+k+"/"+escPtr(mm.key), res, draft, base, false, chk)
			}
		case oneSchemaKeys[k] || k == "items":
			c.index(sub, ptr+"/"+k, res, draft, base, false, chk)
		}
	}
}

// validate checks the keywords read at schema v, and below it through them.
func (c *compiler) validate(v *value, ptr string) error {
	if c.valid[v] {
		return nil
	}
	if v.kind == 't' || v.kind == 'f' {
		return nil
	}
	if v.kind != '{' {
		return errAt(ptr, "a subschema must be an object or a boolean")
	}
	c.valid[v] = true
	draft := draft2020
	if p, ok := c.places[v]; ok {
		draft = p.draft
	}
	// Keywords beside $ref are ignored in drafts 4 to 7; only the
	// definitions they hold are still schemas.
	refOnly := draft <= draft7 && v.get("$ref") != nil
	for _, m := range v.members {
		k, sub := m.key, m.val
		if !readKeys[k] || refOnly && k != "$defs" && k != "definitions" {
			continue
		}
		p := ptr + "/" + escPtr(k)
		switch {
		case k == "items" && sub.kind == '[', listKeys[k]:
			if sub.kind != '[' {
				return errAt(p, "%s must be an array", k)
			}
			if len(sub.elems) == 0 && k != "prefixItems" && k != "items" {
				return errAt(p, "%s must not be empty", k)
			}
			for i, e := range sub.elems {
				if err := c.validate(e, p+"/"+strconv.Itoa(i)); err != nil {
					return err
				}
			}
		case mapSchemaKeys[k]:
			if sub.kind != '{' {
				return errAt(p, "%s must be an object", k)
			}
			for _, mm := range sub.members {
				if err := c.validate(mm.val, p+"/"+escPtr(mm.key)); err != nil {
					return err
				}
			}
		default:
			if err := c.validate(sub, p); err != nil {
				return err
			}
		}
	}
	return nil
}

func idKey(draft int) string {
	if draft == draft4 {
		return "id"
	}
	return "$id"
}

// node gives the compiled schema of the value v (compiled once).
func (c *compiler) node(v *value) (*schema, error) {
	if s, ok := c.nodes[v]; ok {
		return s, nil
	}
	at, ok := c.places[v]
	if !ok {
		return nil, fmt.Errorf("internal: no place for a schema")
	}
	s := &schema{v: v, at: at, minLen: -1, maxLen: -1}
	c.nodes[v] = s
	switch v.kind {
	case 't':
		s.boolv = 1
		return s, nil
	case 'f':
		s.boolv = 2
		return s, nil
	}
	c.pending = append(c.pending, s)
	return s, nil
}

// fill reads the keywords of s.
func (c *compiler) fill(s *schema) error {
	v, ptr, draft := s.v, s.at.ptr, s.at.draft
	sub := func(x *value) (*schema, error) { return c.node(x) }
	if r := v.get("$ref"); r != nil && draft <= draft7 {
		// Its siblings are ignored in these drafts.
		if r.kind != '"' {
			return errAt(ptr+"/$ref", "$ref must be a string")
		}
		t, err := c.resolve(r.str, s.at, ptr+"/$ref")
		if err != nil {
			return err
		}
		s.ref = t
		s.refOnly = true
		return nil
	}

	if t := v.get("type"); t != nil {
		s.hasType = true
		switch t.kind {
		case '"':
			b, ok := typeNames[t.str]
			if !ok {
				return errAt(ptr+"/type", "unknown type %q", t.str)
			}
			s.types = b
		case '[':
			for i, e := range t.elems {
				if e.kind != '"' {
					return errAt(ptr+"/type/"+strconv.Itoa(i), "a type name must be a string")
				}
				b, ok := typeNames[e.str]
				if !ok {
					return errAt(ptr+"/type/"+strconv.Itoa(i), "unknown type %q", e.str)
				}
				s.types |= b
			}
		default:
			return errAt(ptr+"/type", "type must be a string or an array")
		}
	}
	s.minLen = lengthBound(v.get("minLength"))
	s.maxLen = lengthBound(v.get("maxLength"))
	if n := v.get("nullable"); n != nil && s.hasType {
		switch n.kind {
		case 't':
			s.nullable = true
		case 'f':
		default:
			return errAt(ptr+"/nullable", "nullable must be a boolean")
		}
	}
	if r := v.get("$ref"); r != nil {
		if r.kind != '"' {
			return errAt(ptr+"/$ref", "$ref must be a string")
		}
		t, err := c.resolve(r.str, s.at, ptr+"/$ref")
		if err != nil {
			return err
		}
		s.ref = t
		if draft <= draft7 {
			s.refOnly = true
		}
	}
	if draft == draft2020 {
		if r := v.get("$dynamicRef"); r != nil {
			if r.kind != '"' {
				return errAt(ptr+"/$dynamicRef", "$dynamicRef must be a string")
			}
			t, err := c.resolve(r.str, s.at, ptr+"/$dynamicRef")
			if err != nil {
				return err
			}
			s.dynRef = t
			if _, frag, _ := strings.Cut(r.str, "#"); frag != "" && !strings.HasPrefix(frag, "/") {
				if a := t.v.get("$dynamicAnchor"); a != nil && a.kind == '"' && a.str == frag {
					s.dynName = frag
				}
			}
		}
	}
	if draft == draft2019 {
		if r := v.get("$recursiveRef"); r != nil {
			if r.kind != '"' {
				return errAt(ptr+"/$recursiveRef", "$recursiveRef must be a string")
			}
			t, err := c.resolve(r.str, s.at, ptr+"/$recursiveRef")
			if err != nil {
				return err
			}
			s.recRef = t
			if a := t.v.get("$recursiveAnchor"); a != nil && a.kind == 't' {
				s.recDyn = true
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		l := v.get(k)
		if l == nil {
			continue
		}
		var out []*schema
		for _, e := range l.elems {
			x, err := sub(e)
			if err != nil {
				return err
			}
			out = append(out, x)
		}
		switch k {
		case "allOf":
			s.allOf = out
		case "anyOf":
			s.anyOf = out
		default:
			s.oneOf = out
		}
	}
	if p := v.get("properties"); p != nil {
		s.props = map[string]*schema{}
		for _, m := range p.members {
			x, err := sub(m.val)
			if err != nil {
				return err
			}
			s.props[m.key] = x
		}
	}
	if p := v.get("patternProperties"); p != nil {
		for _, m := range p.members {
			re, err := compilePattern(m.key)
			if err != nil {
				return errAt(ptr+"/patternProperties/"+escPtr(m.key), "%v", err)
			}
			x, err := sub(m.val)
			if err != nil {
				return err
			}
			s.pats = append(s.pats, patProp{re, x})
		}
	}
	if a := v.get("additionalProperties"); a != nil {
		x, err := sub(a)
		if err != nil {
			return err
		}
		s.addProps = x
	}
	if it := v.get("items"); it != nil {
		if it.kind == '[' {
			s.hasItemsList = true
			for _, e := range it.elems {
				x, err := sub(e)
				if err != nil {
					return err
				}
				s.itemsList = append(s.itemsList, x)
			}
		} else {
			x, err := sub(it)
			if err != nil {
				return err
			}
			s.items = x
		}
	}
	if a := v.get("additionalItems"); a != nil {
		x, err := sub(a)
		if err != nil {
			return err
		}
		s.addItems = x
	}
	{
		if p := v.get("prefixItems"); p != nil {
			s.hasPrefix = true
			for _, e := range p.elems {
				x, err := sub(e)
				if err != nil {
					return err
				}
				s.prefix = append(s.prefix, x)
			}
		}
	}
	return nil
}

// resolve finds the schema a reference written at place at names.
func (c *compiler) resolve(ref string, at place, where string) (*schema, error) {
	abs, err := resolveURI(at.res.uri, ref)
	if err != nil {
		return nil, errAt(where, "$ref %q does not resolve: %v", ref, err)
	}
	docURI, frag, _ := strings.Cut(abs, "#")
	res := at.res
	if docURI != at.res.uri {
		r, ok := c.resources[docURI]
		if !ok {
			return nil, errAt(where, "$ref %q does not resolve: no document %q", ref, docURI)
		}
		res = r
	}
	if frag == "" {
		return c.target(res.root, where)
	}
	if !strings.HasPrefix(frag, "/") {
		name, err := url.PathUnescape(frag)
		if err != nil {
			name = frag
		}
		a, ok := res.anchors[name]
		if !ok {
			return nil, errAt(where, "$ref %q does not resolve: no anchor %q", ref, name)
		}
		return c.target(a, where)
	}
	un, err := url.PathUnescape(frag)
	if err != nil {
		return nil, errAt(where, "$ref %q does not resolve: %v", ref, err)
	}
	cur := res.root
	last := c.places[res.root]
	for _, tok := range strings.Split(un[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch cur.kind {
		case '{':
			next := cur.get(tok)
			if next == nil {
				return nil, errAt(where, "$ref %q does not resolve: no member %q", ref, tok)
			}
			cur = next
		case '[':
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur.elems) || (len(tok) > 1 && tok[0] == '0') {
				return nil, errAt(where, "$ref %q does not resolve: no element %q", ref, tok)
			}
			cur = cur.elems[i]
		default:
			return nil, errAt(where, "$ref %q does not resolve: %q is not in an object or array", ref, tok)
		}
		if p, ok := c.places[cur]; ok {
			last = p
		}
	}
	if !isSchemaValue(cur) {
		return nil, errAt(where, "$ref %q names a value that is not a schema", ref)
	}
	if _, ok := c.places[cur]; !ok {
		// A position the walk did not reach: index it now, in the
		// resource of the schema around it.
		c.index(cur, un, last.res, last.draft, last.res.uri, false, false)
	}
	return c.target(cur, where)
}

// lengthBound reads minLength or maxLength: a non-negative integer, or -1.
func lengthBound(v *value) int {
	if v == nil || v.kind != '0' {
		return -1
	}
	n, err := strconv.ParseFloat(string(v.raw), 64)
	if err != nil || n < 0 || n != float64(int(n)) || n > 1<<31 {
		return -1
	}
	return int(n)
}

// informative says whether a subschema declares anything by its own
// keywords; {} and true entries (common in prefixItems) do not.
func informative(x *schema) bool {
	if x.boolv != 0 {
		return x.boolv == 2
	}
	return x.hasType || x.props != nil || x.pats != nil || x.addProps != nil ||
		x.items != nil || x.hasItemsList || x.hasPrefix
}

// alternativesOnly says whether a subschema is nothing but an anyOf or a
// oneOf, which can be merged into the schema around it.
func alternativesOnly(x *schema) bool {
	return x.boolv == 0 && (x.anyOf != nil || x.oneOf != nil) && !x.hasType && x.ref == nil &&
		x.dynRef == nil && x.recRef == nil && x.allOf == nil && x.props == nil && x.pats == nil &&
		x.addProps == nil && x.items == nil && !x.hasItemsList && !x.hasPrefix
}

// target compiles the schema a reference names, checking it first.
func (c *compiler) target(v *value, where string) (*schema, error) {
	p := c.places[v].ptr
	if err := c.validate(v, p); err != nil {
		return nil, err
	}
	return c.node(v)
}
