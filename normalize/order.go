package normalize

import (
	"encoding/json"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
)

// Members of a schema object are read in document order, so that the
// first error of a broken schema is the same on every run (Go's map order
// is not), and a key given twice is refused rather than the last one
// silently winning (docs/readings.md section 4).

// duplicateKey is a member named twice in one object of a schema document.
type duplicateKey struct {
	key string
	ptr string // canonical JSON Pointer of the object
}

// memberOrder scans text, which encoding/json has decoded into v, and
// returns the keys of each object of two or more members that is the
// value of a keyword whose members are schemas (ordered), in document
// order, by the object's map in v (objectID); or the first duplicate key
// in document order.
func memberOrder(text []byte, v any) (map[uintptr][]string, *duplicateKey) {
	s := orderScanner{b: text}
	s.value(jsonraw.SkipSpace(text, 0), v, "")
	return s.order, s.dup
}

type orderScanner struct {
	b     []byte
	path  []loc // the value being scanned, for the pointer of a duplicate key
	order map[uintptr][]string
	dup   *duplicateKey
}

// pointer returns the pointer of the value being scanned.
func (s *orderScanner) pointer() string {
	var l *loc
	for i := range s.path {
		p := s.path[i]
		p.parent = l
		l = &p
	}
	return l.pointer()
}

// value scans the value at b[i], which is v, the value of the member
// named token (unescaped), and returns the index past it.
func (s *orderScanner) value(i int, v any, token string) int {
	if s.dup != nil || i >= len(s.b) {
		return len(s.b)
	}
	switch c := s.b[i]; {
	case c == '{':
		m, _ := v.(map[string]any)
		return s.object(i, m, token)
	case c == '[':
		a, _ := v.([]any)
		i = jsonraw.SkipSpace(s.b, i+1)
		for n := 0; i < len(s.b) && s.b[i] != ']'; n++ {
			var e any
			if n < len(a) {
				e = a[n]
			}
			s.path = append(s.path, loc{index: n})
			i = jsonraw.SkipSpace(s.b, s.value(i, e, ""))
			s.path = s.path[:len(s.path)-1]
			if i < len(s.b) && s.b[i] == ',' {
				i = jsonraw.SkipSpace(s.b, i+1)
			}
		}
		return i + 1
	case c == '"':
		end, _, _ := jsonraw.ScanString(s.b, i)
		return end
	case c == '-' || '0' <= c && c <= '9':
		end, _ := jsonraw.ScanNumber(s.b, i)
		return end
	default:
		end, _ := jsonraw.ScanLiteral(s.b, i)
		return end
	}
}

func (s *orderScanner) object(i int, m map[string]any, token string) int {
	var keys []string
	var seen map[string]bool // once there are many keys
	i = jsonraw.SkipSpace(s.b, i+1)
	for i < len(s.b) && s.b[i] == '"' && s.dup == nil {
		end, f, _ := jsonraw.ScanString(s.b, i)
		var key string
		if f&jsonraw.Escaped == 0 {
			key = string(s.b[i+1 : end-1])
		} else {
			// As encoding/json reads it, which the schema's maps hold.
			_ = json.Unmarshal(s.b[i:end], &key)
		}
		if seen != nil && seen[key] || seen == nil && slices.Contains(keys, key) {
			s.dup = &duplicateKey{key: key, ptr: s.pointer()}
			return len(s.b)
		}
		keys = append(keys, key)
		if len(keys) == 16 {
			seen = make(map[string]bool, 32)
			for _, k := range keys {
				seen[k] = true
			}
		} else if seen != nil {
			seen[key] = true
		}
		i = jsonraw.SkipSpace(s.b, end)
		i = jsonraw.SkipSpace(s.b, i+1) // past ':'
		s.path = append(s.path, loc{key: key, index: -1})
		i = jsonraw.SkipSpace(s.b, s.value(i, m[key], key))
		s.path = s.path[:len(s.path)-1]
		if i < len(s.b) && s.b[i] == ',' {
			i = jsonraw.SkipSpace(s.b, i+1)
		}
	}
	if len(keys) > 1 && s.dup == nil && m != nil && ordered(token) {
		if s.order == nil {
			s.order = map[uintptr][]string{}
		}
		s.order[objectID(m)] = keys
	}
	return i + 1
}

// ordered reports whether the members of an object that is the value of
// the member named token are read in document order: those of
// the keywords whose members are schemas (schemaMaps), the only objects
// whose members Compile walks. The order of no other object is kept: it
// would cost every object of a schema a map entry and a copy of its keys.
func ordered(token string) bool {
	switch token {
	case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
		return true
	}
	return false
}

// members returns the keys of m, an object of d that is the value of a
// keyword that is ordered, in document order.
func (d *document) members(m map[string]any) []string {
	if len(m) == 1 {
		for k := range m {
			return []string{k}
		}
	}
	if keys, ok := d.order[objectID(m)]; ok && len(keys) == len(m) {
		return keys
	}
	// Not from JSON text: in the order of the keys' bytes, still the same
	// on every run.
	return slices.Sorted(maps.Keys(m))
}

// maxFastDepth is how deeply decodeOrdered lets arrays and objects nest
// before it leaves the text to encoding/json: as deeply as encoding/json
// reads them (its limit, 10,000), so that a text nested deeper gets its
// error, and one as deep is read once (a deeply nested schema read twice
// cost twice the memory).
const maxFastDepth = 10000

// decodeOrdered reads text in one pass: the value encoding/json gives
// with UseNumber, and the member order memberOrder gives. It reports
// false, having decided nothing, when the text is not plain: not JSON,
// data after the value, nested deeper than maxFastDepth, a key given
// twice, or a string with a lone surrogate escape. Then the caller reads
// the text with encoding/json and memberOrder, for their errors.
func decodeOrdered(text []byte) (v any, order map[uintptr][]string, ok bool) {
	v, order, _, ok = decodeOrderedSkipping(text, skipNone)
	return v, order, ok
}

// skipMode says which members of schema objects decodeOrderedSkipping
// leaves undecoded: none, those neither compile nor the index of
// identifiers reads, or those compile does not read (for a schema with no
// identifier, which is not indexed).
type skipMode uint8

const (
	skipNone skipMode = iota
	skipUnindexed
	skipUncompiled
)

// skipped stands in the decoded value for a member decodeOrderedSkipping
// left undecoded: its text was checked as decodeOrdered checks it, and
// what a JSON Pointer reaches of it is decoded then (resolver.follow,
// document.decoded). It is of size zero, so it costs no allocation.
type skipped struct{}

// decodeOrderedSkipping is decodeOrdered, but for the members of schema
// objects that mode leaves: most of a schema's text is such keywords
// (enum, const, default, required, description, minimum and the other
// validation keywords), which Compile never reads, and decoding them was
// much of its cost. Their text is checked all the same (JSON, duplicate
// keys, depth), so that it reports false exactly where decodeOrdered does,
// but for a lone surrogate escape in a string that is no key of an object
// (which decodeOrdered leaves to encoding/json, which replaces it: where a
// pointer reaches such a string, it is decoded the same way then).
//
// It also returns how many objects it decoded but those whose members are
// schemas: about the nodes Compile makes (but for the scopes, and what
// pointers reach of the members left).
func decodeOrderedSkipping(text []byte, mode skipMode) (v any, order map[uintptr][]string, objects int, ok bool) {
	// Room for the keys and values of a small schema: they grow from
	// there, but most schemas need no more.
	d := orderedDecoder{b: text, keys: make([]string, 0, 32), vals: make([]any, 0, 32), mode: mode}
	i := jsonraw.SkipSpace(text, 0)
	v, i, ok = d.value(i, 0, "")
	if !ok || jsonraw.SkipSpace(text, i) != len(text) {
		return nil, nil, 0, false
	}
	return v, d.order, d.objects, true
}

type orderedDecoder struct {
	b       []byte
	keys    []string // keys of the objects being read, a stack
	vals    []any    // their values, a stack
	buf     []byte   // scratch for unquoting
	order   map[uintptr][]string
	mode    skipMode
	raw     [][]byte // keys of the objects being skipped, unquoted, a stack
	objects int      // decoded
}

// value reads the value at b[i], the value of the member named token
// ("" in an array), nested in depth arrays and objects.
func (d *orderedDecoder) value(i, depth int, token string) (any, int, bool) {
	b := d.b
	if i >= len(b) {
		return nil, 0, false
	}
	switch c := b[i]; {
	case c == '"':
		end, f, err := jsonraw.ScanString(b, i)
		if err != nil {
			return nil, 0, false
		}
		if f&jsonraw.Escaped != 0 {
			s, end, ok := d.str(i)
			return s, end, ok
		}
		if v := typeName(b[i+1 : end-1]); v != nil {
			return v, end, true
		}
		return intern(b[i+1 : end-1]), end, true
	case c == '-' || '0' <= c && c <= '9':
		end, err := jsonraw.ScanNumber(b, i)
		if err != nil {
			return nil, 0, false
		}
		return json.Number(b[i:end]), end, true
	case c == '{':
		if depth >= maxFastDepth {
			return nil, 0, false
		}
		return d.object(i, depth+1, token)
	case c == '[':
		if depth >= maxFastDepth {
			return nil, 0, false
		}
		return d.array(i, depth+1)
	}
	end, err := jsonraw.ScanLiteral(b, i)
	if err != nil {
		return nil, 0, false
	}
	switch b[i] {
	case 't':
		return true, end, true
	case 'f':
		return false, end, true
	}
	return nil, end, true
}

// str reads the string at b[i] as encoding/json does.
func (d *orderedDecoder) str(i int) (string, int, bool) {
	end, f, err := jsonraw.ScanString(d.b, i)
	if err != nil {
		return "", 0, false
	}
	if f&jsonraw.Escaped == 0 {
		return intern(d.b[i+1 : end-1]), end, true
	}
	d.buf = jsonraw.Unquote(d.buf[:0], d.b[i+1:end-1])
	if !utf8.Valid(d.buf) {
		// A lone surrogate, which jsonraw keeps and encoding/json
		// replaces with U+FFFD.
		return "", 0, false
	}
	return string(d.buf), end, true
}

// typeName returns b, a type's name, as a value, or nil: the value a
// constant, which costs no allocation, where a string made a value costs
// one.
func typeName(b []byte) any {
	switch string(b) { // no allocation: the cases are constants
	case "object":
		return "object"
	case "array":
		return "array"
	case "string":
		return "string"
	case "null":
		return "null"
	case "number":
		return "number"
	case "integer":
		return "integer"
	case "boolean":
		return "boolean"
	}
	return nil
}

// intern returns b as a string, without a copy for the keywords and type
// names most schemas are made of.
func intern(b []byte) string {
	switch string(b) { // no allocation: the cases are constants
	case "type":
		return "type"
	case "object":
		return "object"
	case "array":
		return "array"
	case "string":
		return "string"
	case "null":
		return "null"
	case "number":
		return "number"
	case "integer":
		return "integer"
	case "boolean":
		return "boolean"
	case "properties":
		return "properties"
	case "items":
		return "items"
	case "description":
		return "description"
	case "required":
		return "required"
	case "enum":
		return "enum"
	case "$ref":
		return "$ref"
	case "$defs":
		return "$defs"
	case "anyOf":
		return "anyOf"
	case "allOf":
		return "allOf"
	case "oneOf":
		return "oneOf"
	case "patternProperties":
		return "patternProperties"
	case "additionalProperties":
		return "additionalProperties"
	case "nullable":
		return "nullable"
	}
	return string(b)
}

func (d *orderedDecoder) object(i, depth int, token string) (any, int, bool) {
	b := d.b
	kbase, vbase := len(d.keys), len(d.vals)
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return map[string]any{}, i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, 0, false
		}
		key, end, ok := d.str(i)
		if !ok {
			return nil, 0, false
		}
		i = jsonraw.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, 0, false
		}
		var v any
		if d.mode != skipNone && !ordered(token) && !d.reads(key) {
			v = skipped{}
			end, ok = d.skip(jsonraw.SkipSpace(b, i+1), depth)
		} else {
			v, end, ok = d.value(jsonraw.SkipSpace(b, i+1), depth, key)
		}
		if !ok {
			return nil, 0, false
		}
		d.keys = append(d.keys, key)
		d.vals = append(d.vals, v)
		i = jsonraw.SkipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			break
		}
		return nil, 0, false
	}
	keys, vals := d.keys[kbase:], d.vals[vbase:]
	if !ordered(token) {
		d.objects++ // a schema's, not a keyword's whose members are schemas
	}
	m := make(map[string]any, len(keys))
	for k, key := range keys {
		m[key] = vals[k]
	}
	if len(m) != len(keys) {
		return nil, 0, false // a key given twice
	}
	if len(keys) > 1 && ordered(token) {
		if d.order == nil {
			d.order = map[uintptr][]string{}
		}
		d.order[objectID(m)] = slices.Clone(keys)
	}
	clear(d.vals[vbase:])
	d.keys, d.vals = d.keys[:kbase], d.vals[:vbase]
	return m, i + 1, true
}

func (d *orderedDecoder) array(i, depth int) (any, int, bool) {
	b := d.b
	base := len(d.vals)
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return []any{}, i + 1, true
	}
	for {
		v, end, ok := d.value(i, depth, "")
		if !ok {
			return nil, 0, false
		}
		d.vals = append(d.vals, v)
		i = jsonraw.SkipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			break
		}
		return nil, 0, false
	}
	a := slices.Clone(d.vals[base:])
	clear(d.vals[base:])
	d.vals = d.vals[:base]
	return a, i + 1, true
}

// reads reports whether the member key of a schema object is decoded
// under d's mode: a keyword compile reads (keywords.gather), $schema, and
// unless the mode is skipUncompiled the keywords the index of identifiers
// reads (resolver.index: identifiers, anchors, and every keyword whose
// value holds schemas). TestSkippedNotRead holds it to them.
func (d *orderedDecoder) reads(key string) bool {
	switch key {
	case "$ref", "$dynamicRef", "$recursiveRef", "type", "nullable", "allOf", "anyOf", "oneOf",
		"properties", "patternProperties", "additionalProperties", "prefixItems", "items",
		"additionalItems", "$defs", "definitions", "$schema":
		return true
	case "$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor",
		"not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems",
		"unevaluatedProperties", "contentSchema", "dependentSchemas", "dependencies":
		return d.mode != skipUncompiled
	}
	return false
}

// skip checks the value at b[i], nested in depth arrays and objects, as
// value reads it, and returns the index past it, decoding nothing.
func (d *orderedDecoder) skip(i, depth int) (int, bool) {
	b := d.b
	if i >= len(b) {
		return 0, false
	}
	var end int
	var err error
	switch c := b[i]; {
	case c == '"':
		end, _, err = jsonraw.ScanString(b, i)
	case c == '-' || '0' <= c && c <= '9':
		end, err = jsonraw.ScanNumber(b, i)
	case c == '{':
		if depth >= maxFastDepth {
			return 0, false
		}
		return d.skipObject(i, depth+1)
	case c == '[':
		if depth >= maxFastDepth {
			return 0, false
		}
		return d.skipArray(i, depth+1)
	default:
		end, err = jsonraw.ScanLiteral(b, i)
	}
	return end, err == nil
}

// skipObject is skip for an object: it refuses a key given twice, as
// object does, comparing the keys as encoding/json reads them.
func (d *orderedDecoder) skipObject(i, depth int) (int, bool) {
	b := d.b
	base := len(d.raw)
	defer func() {
		clear(d.raw[base:])
		d.raw = d.raw[:base]
	}()
	var seen map[string]bool // once there are many keys
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, false
		}
		end, f, err := jsonraw.ScanString(b, i)
		if err != nil {
			return 0, false
		}
		key := b[i+1 : end-1]
		if f&jsonraw.Escaped != 0 {
			key = jsonraw.Unquote(nil, key)
			if !utf8.Valid(key) {
				return 0, false // a lone surrogate: left to encoding/json, as str does
			}
		}
		keys := d.raw[base:]
		switch {
		case seen != nil:
			if seen[string(key)] {
				return 0, false
			}
			seen[string(key)] = true
		case len(keys) < 16:
			for _, k := range keys {
				if string(k) == string(key) {
					return 0, false
				}
			}
		default:
			seen = make(map[string]bool, 32)
			for _, k := range keys {
				seen[string(k)] = true
			}
			if seen[string(key)] {
				return 0, false
			}
			seen[string(key)] = true
		}
		if seen == nil {
			d.raw = append(d.raw, key)
		}
		i = jsonraw.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return 0, false
		}
		end, ok := d.skip(jsonraw.SkipSpace(b, i+1), depth)
		if !ok {
			return 0, false
		}
		i = jsonraw.SkipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return i + 1, true
		}
		return 0, false
	}
}

// skipArray is skip for an array.
func (d *orderedDecoder) skipArray(i, depth int) (int, bool) {
	b := d.b
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		end, ok := d.skip(i, depth)
		if !ok {
			return 0, false
		}
		i = jsonraw.SkipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return i + 1, true
		}
		return 0, false
	}
}
