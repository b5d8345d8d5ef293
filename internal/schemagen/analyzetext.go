package schemagen

import (
	"strconv"
	"strings"
	"sync"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// AnalyzeText returns the features the JSON texts schema and args hold
// (either may be nil): the keywords, type forms, references and draft of
// the schema, the pairs of them that matter, and the special keys of the
// arguments. A text that does not parse (as jsonvalue.Parse reads it)
// says nothing. A check counts every case it runs, so the text is read
// where it lies, without a tree: a tree of each schema cost as much as
// drawing the case.
func AnalyzeText(schema, args []byte) Set {
	var s Set
	a := analyzers.Get().(*textAnalyzer)
	if len(schema) > maxPooled || len(args) > maxPooled {
		a = new(textAnalyzer) // its buffers, four bytes per byte of text, are not kept
	} else {
		defer analyzers.Put(a)
	}
	if schema != nil && a.read(schema) {
		a.set = &s
		i := jsonraw.SkipSpace(schema, 0)
		if d := a.member(i, "$schema"); d >= 0 && schema[d] == '"' {
			s.Add(draftFeature(string(a.unquote(d))))
		} else {
			s.Add(firstDraft + Feature(len(drafts)-1))
		}
		a.walk(i, -1, true)
	}
	if args != nil && a.read(args) {
		a.set = &s
		a.keys(jsonraw.SkipSpace(args, 0), 0)
	}
	a.set, a.b = nil, nil
	return s
}

// maxPooled is the longest text whose analyzer goes back to the pool.
const maxPooled = 64 << 10

var analyzers = sync.Pool{New: func() any { return new(textAnalyzer) }}

// read readies a to read b, and reports whether jsonvalue.Parse parses it
// (one JSON value, nested no deeper than jsonvalue.MaxDepth): where each
// string and container of b ends, so that skipping a value costs nothing
// however often the walk passes it.
func (a *textAnalyzer) read(b []byte) bool {
	if !jsonraw.Valid(b) {
		return false
	}
	a.b, a.nodes = b, 0
	a.path, a.mem = a.path[:0], a.mem[:0]
	if cap(a.ends) < len(b) {
		a.ends = make([]int32, len(b))
	}
	a.ends = a.ends[:len(b)]
	open := a.open[:0]
	defer func() { a.open = open[:0] }()
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			end := skipString(b, i)
			a.ends[i] = int32(end)
			i = end - 1
		case '{', '[':
			if open = append(open, int32(i)); len(open) > jsonvalue.MaxDepth {
				return false
			}
		case '}', ']':
			a.ends[open[len(open)-1]] = int32(i + 1)
			open = open[:len(open)-1]
		}
	}
	return true
}

// skipString is the end of the valid string whose quote is b[i].
func skipString(b []byte, i int) int {
	for i++; b[i] != '"'; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// skip is the end of the value at b[i].
func (a *textAnalyzer) skip(i int) int {
	b := a.b
	switch b[i] {
	case '"', '{', '[':
		return int(a.ends[i])
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !jsonraw.IsSpace(b[i]) {
		i++ // a number or a literal
	}
	return i
}

// textAnalyzer is analyzer reading valid text in place.
type textAnalyzer struct {
	b    []byte
	ends []int32 // where the string or container at each offset ends
	open []int32 // the containers open, while reading
	set  *Set
	path []step
	// embedded counts the resources with an $id below the root that the
	// subschema walked sits in.
	embedded int
	nodes    int
	mem      []memberAt // the members of the objects being walked, a stack
	buf      []byte     // scratch for unquoting
}

// A step is a key of the path to the schema walked, or an array index
// (index >= 0).
type step struct {
	key   []byte
	index int
}

// is reports whether the step is the reference token t.
func (s step) is(t string) bool {
	if s.index >= 0 {
		var d [20]byte
		return string(strconv.AppendInt(d[:0], int64(s.index), 10)) == t
	}
	return string(s.key) == t
}

type memberAt struct {
	key   []byte // unquoted
	value int    // where the value starts
}

// unquote is the value of the string at b[i], in scratch space when it
// has an escape.
func (a *textAnalyzer) unquote(i int) []byte {
	raw := a.b[i+1 : a.ends[i]-1]
	if !hasBackslash(raw) {
		return raw
	}
	a.buf = jsonraw.Unquote(a.buf[:0], raw)
	return a.buf
}

// hasScheme reports whether an $id is an absolute URI: a scheme, then ':'.
func hasScheme(s []byte) bool {
	for i, c := range s {
		switch {
		case c == ':':
			return i > 0
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return false
}

func hasBackslash(raw []byte) bool {
	for _, c := range raw {
		if c == '\\' {
			return true
		}
	}
	return false
}

// members pushes the members of the object at b[i] onto a.mem; the keys
// with an escape are unquoted into their own memory.
func (a *textAnalyzer) members(i int) {
	b := a.b
	i = jsonraw.SkipSpace(b, i+1)
	if b[i] == '}' {
		return
	}
	for {
		end := int(a.ends[i])
		key := b[i+1 : end-1]
		if hasBackslash(key) {
			key = jsonraw.Unquote(nil, key)
		}
		i = jsonraw.SkipSpace(b, end)       // at ':'
		v := jsonraw.SkipSpace(b, i+1)      // the value
		i = jsonraw.SkipSpace(b, a.skip(v)) // at ',' or '}'
		a.mem = append(a.mem, memberAt{key, v})
		if b[i] == '}' {
			return
		}
		i = jsonraw.SkipSpace(b, i+1)
	}
}

// elems calls f with where each element of the array at b[i] starts.
func (a *textAnalyzer) elems(i int, f func(n, at int)) {
	b := a.b
	i = jsonraw.SkipSpace(b, i+1)
	for n := 0; b[i] != ']'; n++ {
		f(n, i)
		i = jsonraw.SkipSpace(b, a.skip(i))
		if b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
		}
	}
}

// member is where the value of the object at b[i]'s first member key
// starts, or -1.
func (a *textAnalyzer) member(i int, key string) int {
	if a.b[i] != '{' {
		return -1
	}
	from := len(a.mem)
	a.members(i)
	at := -1
	for _, m := range a.mem[from:] {
		if string(m.key) == key {
			at = m.value
			break
		}
	}
	a.mem = a.mem[:from]
	return at
}

// walk is analyzer.walk on the subschema at b[i].
func (a *textAnalyzer) walk(i, parent int, root bool) {
	a.nodes++
	if a.nodes > maxAnalyzed || len(a.path) > maxAnalyzedDepth {
		return
	}
	b := a.b
	if b[i] == 't' || b[i] == 'f' {
		a.set.Add(featBooleanSchema)
		return
	}
	if b[i] != '{' {
		return
	}
	from := len(a.mem)
	a.members(i)
	to := len(a.mem)
	embedded := a.embedded
	defer func() { a.mem, a.embedded = a.mem[:from], embedded }()
	first := func(key string) int {
		for _, m := range a.mem[from:to] {
			if string(m.key) == key {
				return m.value
			}
		}
		return -1
	}
	for _, k := range [...]string{"$id", "id"} {
		if v := first(k); v >= 0 {
			if b[v] != '"' {
				break
			}
			if s := a.unquote(v); len(s) > 0 && s[0] != '#' {
				if a.embedded > 0 && !hasScheme(s) {
					a.set.Add(featIDRelative)
				}
				if !root {
					a.embedded++ // for the subschemas below
				}
			}
			break
		}
	}
	form := -1
	if t := first("type"); t >= 0 {
		form = a.typeForm(t)
		if form >= 0 {
			a.set.Add(firstType + Feature(form))
			if form == 1 {
				a.under("type-list-string-container", parent)
			}
		}
		if nb := first("nullable"); nb >= 0 && b[nb] == 't' {
			a.set.Add(firstType + 4)
			a.under("nullable", parent)
			if form < 0 || form == 0 {
				form = 4 // the pair counts nullable as the form
			}
		}
	}
	for m := from; m < to; m++ {
		k, v := a.mem[m].key, a.mem[m].value
		if i, ok := validationIndex[string(k)]; ok {
			if ks := string(k); ks != "dependencies" && ks != "items" {
				a.validation(i, form)
			}
		}
		switch string(k) {
		case "maxLength", "minLength", "enum", "const":
			a.under(string(k), parent)
		case "$schema":
			if !root {
				a.set.Add(featEmbeddedSchema)
			}
		case "$ref":
			a.set.Add(featRef)
			a.under("$ref", parent)
			if b[v] == '"' {
				a.ref(string(a.unquote(v)))
			}
		case "$dynamicRef", "$recursiveRef":
			a.set.Add(featDynamicRef)
		case "$anchor", "$dynamicAnchor":
			a.set.Add(featAnchor)
		case "$id", "id":
			if b[v] == '"' {
				if s := a.unquote(v); len(s) > 0 && s[0] == '#' {
					a.set.Add(featAnchor)
				} else {
					a.set.Add(featID)
				}
			}
		case "properties", "patternProperties", "dependentSchemas":
			a.set.addName(GroupApplicator, string(k))
			a.under(string(k), parent)
			a.each(v, k, parentIndex[string(k)])
		case "$defs", "definitions":
			a.set.Add(featDefs)
			a.each(v, k, parentIndex["$ref"])
		case "dependencies":
			a.dependencies(v, k, form)
		case "additionalProperties", "additionalItems", "not", "if", "then", "else",
			"unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames":
			if _, isValidation := validationIndex[string(k)]; !isValidation {
				a.set.addName(GroupApplicator, string(k))
				a.under(string(k), parent)
			}
			p := -1
			switch string(k) {
			case "additionalProperties", "not":
				p = parentIndex[string(k)]
			case "if", "then", "else":
				p = parentIndex["if-then-else"]
			case "additionalItems":
				p = parentIndex["items"]
			}
			a.child(v, k, p)
		case "items":
			if b[v] == '[' {
				a.set.addName(GroupApplicator, "items-list")
				a.under("items-list", parent)
				a.list(v, k, parentIndex["items"])
			} else {
				a.set.addName(GroupApplicator, "items")
				a.under("items", parent)
				a.child(v, k, parentIndex["items"])
			}
		case "prefixItems", "allOf", "anyOf", "oneOf":
			a.set.addName(GroupApplicator, string(k))
			a.under(string(k), parent)
			a.list(v, k, parentIndex[string(k)])
		}
	}
}

func (a *textAnalyzer) validation(i, form int) { a.set.addValidation(i, form) }

func (a *textAnalyzer) under(k string, parent int) { a.set.addUnder(k, parent) }

func (a *textAnalyzer) dependencies(v int, k []byte, form int) {
	if a.b[v] != '{' {
		return
	}
	a.validation(validationIndex["dependencies"], form)
	a.path = append(a.path, step{k, -1})
	from := len(a.mem)
	a.members(v)
	for m := from; m < len(a.mem); m++ {
		if c := a.b[a.mem[m].value]; c == '{' || c == 't' || c == 'f' {
			a.path = append(a.path, step{a.mem[m].key, -1})
			a.walk(a.mem[m].value, parentIndex["dependentSchemas"], false)
			a.path = a.path[:len(a.path)-1]
		}
	}
	a.mem = a.mem[:from]
	a.path = a.path[:len(a.path)-1]
}

func (a *textAnalyzer) child(v int, k []byte, parent int) {
	a.path = append(a.path, step{k, -1})
	a.walk(v, parent, false)
	a.path = a.path[:len(a.path)-1]
}

// each walks the values of the object at b[v] (analyzer.members).
func (a *textAnalyzer) each(v int, k []byte, parent int) {
	if a.b[v] != '{' {
		return
	}
	a.path = append(a.path, step{k, -1})
	from := len(a.mem)
	a.members(v)
	for m := from; m < len(a.mem); m++ {
		a.path = append(a.path, step{a.mem[m].key, -1})
		a.walk(a.mem[m].value, parent, false)
		a.path = a.path[:len(a.path)-1]
	}
	a.mem = a.mem[:from]
	a.path = a.path[:len(a.path)-1]
}

func (a *textAnalyzer) list(v int, k []byte, parent int) {
	if a.b[v] != '[' {
		return
	}
	a.path = append(a.path, step{k, -1})
	a.elems(v, func(n, at int) {
		a.path = append(a.path, step{nil, n})
		a.walk(at, parent, false)
		a.path = a.path[:len(a.path)-1]
	})
	a.path = a.path[:len(a.path)-1]
}

// ref is analyzer.ref.
func (a *textAnalyzer) ref(ref string) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return
	}
	if frag == "" {
		a.set.Add(featRecursion)
		return
	}
	if !strings.HasPrefix(frag, "/") {
		return // an anchor
	}
	toks := jsonvalue.PointerTokens(frag)
	defs := 0
	for _, t := range toks {
		if t == "$defs" || t == "definitions" {
			defs++
		}
	}
	if defs > 0 && (len(toks) > 2 || toks[0] != "$defs" && toks[0] != "definitions") {
		a.set.Add(featRefDeep)
	}
	if len(toks) <= len(a.path) {
		for i, t := range toks {
			if !a.path[i].is(t) {
				return
			}
		}
		a.set.Add(featRecursion)
	}
}

// typeForm is typeForm of the value at b[t].
func (a *textAnalyzer) typeForm(t int) int {
	switch a.b[t] {
	case '"':
		return 0
	case '[':
		var str, container, null bool
		a.elems(t, func(_, at int) {
			if a.b[at] != '"' {
				return
			}
			switch string(a.unquote(at)) {
			case "string":
				str = true
			case "array", "object":
				container = true
			case "null":
				null = true
			}
		})
		return listForm(str, container, null)
	}
	return -1
}

// keys is keysOf of the value at b[i], nested depth deep; it returns
// where the value ends.
func (a *textAnalyzer) keys(i, depth int) int {
	b := a.b
	if depth > maxAnalyzedDepth || b[i] != '{' && b[i] != '[' {
		return a.skip(i)
	}
	close := b[i] + 2 // '}' or ']'
	i = jsonraw.SkipSpace(b, i+1)
	for b[i] != close {
		if close == '}' {
			end := int(a.ends[i])
			key := b[i+1 : end-1]
			if hasBackslash(key) {
				a.buf = jsonraw.Unquote(a.buf[:0], key)
				key = a.buf
			}
			if f, ok := keyFeatureBytes(key); ok {
				a.set.Add(f)
			}
			i = jsonraw.SkipSpace(b, end) // at ':'
			i = jsonraw.SkipSpace(b, i+1) // the value
		}
		i = jsonraw.SkipSpace(b, a.keys(i, depth+1))
		if b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
		}
	}
	return i + 1
}
