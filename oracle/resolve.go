package oracle

// How references find their schemas (docs/readings.md section 4, "Every
// schema a tool can ship"), written for this oracle on its own: a schema
// node is named by a string that says which document, which JSON Pointer
// in it, and which dynamic scope (nodeID); references are resolved against
// the base URI of the resource they are written in.

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/toolnorm/toolnorm/internal/ecma"
)

// Drafts, oldest last; the zero value is 2020-12, the default.
type draft int

const (
	draft2020 draft = iota
	draft2019
	draft7
	draft6
	draft4
)

func parseDraft(s string) (draft, error) {
	switch strings.TrimPrefix(strings.TrimPrefix(s, "draft"), "0") {
	case "", "2020-12":
		return draft2020, nil
	case "2019-09":
		return draft2019, nil
	case "7":
		return draft7, nil
	case "6":
		return draft6, nil
	case "4":
		return draft4, nil
	}
	return 0, fmt.Errorf("unknown draft %q", s)
}

// schemaDraft is the draft a $schema value names.
func schemaDraft(v any) (draft, bool) {
	s, ok := v.(string)
	if !ok {
		return 0, false
	}
	s = strings.TrimSuffix(s, "#")
	for _, prefix := range []string{"http://", "https://"} {
		s = strings.TrimPrefix(s, prefix)
	}
	known := map[string]draft{
		"json-schema.org/schema":               draft2020,
		"json-schema.org/draft/2020-12/schema": draft2020,
		"json-schema.org/draft/2019-09/schema": draft2019,
		"json-schema.org/draft-07/schema":      draft7,
		"json-schema.org/draft-06/schema":      draft6,
		"json-schema.org/draft-04/schema":      draft4,
	}
	d, ok := known[s]
	return d, ok
}

// noBase is the URI of a document without one: URIs below it are the
// relative ones a schema without a base writes ("other.json").
const noBase = "https://oracle.invalid/"

func relativeURI(u string) string {
	if u == noBase {
		return "the schema"
	}
	return strings.TrimPrefix(u, noBase)
}

// join resolves ref against base (RFC 3986): the URI without fragment, and
// the fragment.
func join(base, ref string) (string, string, error) {
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

// A loc is a place in a document: its URI and a canonical JSON Pointer.
type loc struct{ doc, ptr string }

// A resourceInfo is what is known of a schema resource.
type resourceInfo struct {
	uri       string
	draft     draft
	dynamic   map[string]string // $dynamicAnchor name -> pointer
	recursive bool
}

// nodeID names a schema node: the dynamic scope (see scopeOf), the
// document and the pointer, "scope\x00doc#ptr". Appending to a node's ID
// gives a pointer below it, which sub does.
func nodeID(scope string, l loc) string { return scope + "\x00" + l.doc + "#" + l.ptr }

func splitID(id string) (scope string, l loc) {
	scope, rest, _ := strings.Cut(id, "\x00")
	i := strings.IndexByte(rest, '#')
	return scope, loc{rest[:i], rest[i+1:]}
}

// resolution is the part of a schema that references need.
type resolution struct {
	defaultDraft draft
	supplied     map[string][]byte
	docs         map[string]any               // by URI, once loaded
	byURI        map[string]loc               // resource URI -> its root
	roots        map[loc]*resourceInfo        // resource roots
	anchors      map[string]loc               // resource URI + "#" + name
	refs         []struct{ base, ref string } // every reference seen, for loading
	dynNames     map[string]bool
	recursive    bool
	scopes       map[string]map[string]loc // scope key -> bindings ("" -> the recursive one)
}

func newResolution(d draft, supplied map[string][]byte) *resolution {
	return &resolution{
		defaultDraft: d,
		supplied:     supplied,
		docs:         map[string]any{},
		byURI:        map[string]loc{},
		roots:        map[loc]*resourceInfo{},
		anchors:      map[string]loc{},
		dynNames:     map[string]bool{},
		scopes:       map[string]map[string]loc{"": {}},
	}
}

// load adds the document root at uri and everything it identifies.
func (r *resolution) load(uri string, root any) error {
	r.docs[uri] = root
	info := &resourceInfo{uri: uri, draft: r.defaultDraft}
	if m, ok := root.(map[string]any); ok {
		if d, ok := schemaDraft(m["$schema"]); ok {
			info.draft = d
		}
	}
	r.roots[loc{uri, ""}] = info
	if _, ok := r.byURI[uri]; !ok {
		r.byURI[uri] = loc{uri, ""}
	}
	return r.identify(loc{uri, ""}, root, info)
}

// identify walks the schemas of v, at l in resource info, for their
// identifiers and references. It goes through schema keywords only.
func (r *resolution) identify(l loc, v any, info *resourceInfo) error {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	idWord := "$id"
	if info.draft == draft4 {
		idWord = "id"
	}
	_, hasRef := m["$ref"]
	old := info.draft >= draft7
	if id, ok := m[idWord].(string); ok && !(old && hasRef) {
		uri, frag, err := join(info.uri, id)
		if err != nil {
			return fmt.Errorf("%s/%s: %s %q is not a URI reference: %v", l.ptr, idWord, idWord, id, err)
		}
		if uri != info.uri {
			if l.ptr == "" {
				info.uri = uri
			} else {
				d := info.draft
				if sd, ok := schemaDraft(m["$schema"]); ok {
					d = sd
				}
				info = &resourceInfo{uri: uri, draft: d}
				r.roots[l] = info
			}
			if _, ok := r.byURI[uri]; !ok {
				r.byURI[uri] = l
			}
		}
		if frag != "" && frag[0] != '/' && info.draft >= draft7 {
			r.anchor(info, frag, l) // drafts 4 to 7 only
		}
	}
	old = info.draft >= draft7 // an embedded resource's own $schema
	if !old {
		if a, ok := m["$anchor"].(string); ok {
			r.anchor(info, a, l)
		}
		if a, ok := m["$dynamicAnchor"].(string); ok && info.draft == draft2020 {
			r.anchor(info, a, l)
			if info.dynamic == nil {
				info.dynamic = map[string]string{}
			}
			if _, ok := info.dynamic[a]; !ok {
				info.dynamic[a] = l.ptr
			}
		}
		if m["$recursiveAnchor"] == true && info.draft == draft2019 && r.roots[l] == info {
			info.recursive = true
		}
	}
	if s, ok := m["$ref"].(string); ok {
		r.refs = append(r.refs, struct{ base, ref string }{info.uri, s})
	}
	if s, ok := m["$dynamicRef"].(string); ok && info.draft == draft2020 {
		r.refs = append(r.refs, struct{ base, ref string }{info.uri, s})
		if _, frag, err := join(info.uri, s); err == nil && frag != "" && frag[0] != '/' {
			r.dynNames[frag] = true
		}
	}
	if s, ok := m["$recursiveRef"].(string); ok && info.draft == draft2019 {
		r.refs = append(r.refs, struct{ base, ref string }{info.uri, s})
		r.recursive = true
	}
	var subs []string
	for _, kw := range []string{"additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "items"} {
		if _, ok := m[kw]; ok {
			subs = append(subs, "/"+kw)
		}
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"} {
		if list, ok := m[kw].([]any); ok {
			subs = slices.DeleteFunc(subs, func(s string) bool { return s == "/"+kw })
			for i := range list {
				subs = append(subs, fmt.Sprintf("/%s/%d", kw, i))
			}
		}
	}
	for _, kw := range []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"} {
		if obj, ok := m[kw].(map[string]any); ok {
			for name := range obj {
				subs = append(subs, "/"+kw+"/"+escapePointerToken(name))
			}
		}
	}
	slices.Sort(subs)
	for _, sub := range subs {
		child, _ := pointerValue(v, sub)
		if err := r.identify(loc{l.doc, l.ptr + sub}, child, info); err != nil {
			return err
		}
	}
	return nil
}

func (r *resolution) anchor(info *resourceInfo, name string, l loc) {
	key := info.uri + "#" + name
	if _, ok := r.anchors[key]; !ok {
		r.anchors[key] = l
	}
}

// loadReferenced loads, from the supplied documents, every document that
// a reference names and that is not loaded yet, and those they name.
func (r *resolution) loadReferenced() error {
	tried := map[string]bool{}
	for i := 0; i < len(r.refs); i++ {
		uri, _, err := join(r.refs[i].base, r.refs[i].ref)
		if err != nil || tried[uri] {
			continue
		}
		tried[uri] = true
		if _, ok := r.byURI[uri]; ok {
			continue
		}
		for key, data := range r.supplied {
			if k, _, err := join(noBase, key); err != nil || k != uri {
				continue
			}
			root, err := decodeSchema(data)
			if err != nil {
				return fmt.Errorf("document %s is not JSON: %w", relativeURI(uri), err)
			}
			if err := noDuplicateKeys(data); err != nil {
				return fmt.Errorf("document %s: %w", relativeURI(uri), err)
			}
			if err := r.load(uri, root); err != nil {
				return fmt.Errorf("document %s: %w", relativeURI(uri), err)
			}
			break
		}
	}
	return nil
}

// resourceOf returns the root of the innermost resource l is in.
func (r *resolution) resourceOf(l loc) (loc, *resourceInfo) {
	p := l.ptr
	for {
		if info, ok := r.roots[loc{l.doc, p}]; ok {
			return loc{l.doc, p}, info
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			root := loc{l.doc, ""}
			return root, r.roots[root]
		}
		p = p[:i]
	}
}

// pointerValue follows the JSON Pointer ptr from v.
func pointerValue(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		name, ok := unescapePointerToken(tok)
		if !ok {
			return nil, false
		}
		switch c := v.(type) {
		case map[string]any:
			v, ok = c[name]
		case []any:
			var i int
			i, ok = arrayIndex(name, len(c))
			if ok {
				v = c[i]
			}
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
	}
	return v, true
}

// find resolves the reference ref written in a resource whose URI is base:
// the place it names.
func (r *resolution) find(base, ref string) (loc, error) {
	uri, frag, err := join(base, ref)
	if err != nil {
		return loc{}, fmt.Errorf("%q is not a URI reference: %v", ref, err)
	}
	root, ok := r.byURI[uri]
	if !ok {
		return loc{}, fmt.Errorf("%s is another document, not supplied", relativeURI(uri))
	}
	if frag != "" && frag[0] != '/' {
		l, ok := r.anchors[uri+"#"+frag]
		if !ok {
			return loc{}, fmt.Errorf("no anchor %q", frag)
		}
		return l, nil
	}
	// A JSON Pointer, from the resource's root: canonicalized token by
	// token.
	ptr := root.ptr
	v, _ := pointerValue(r.docs[root.doc], root.ptr)
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			name, ok := unescapePointerToken(tok)
			if !ok {
				return loc{}, fmt.Errorf("bad escape in %q", tok)
			}
			switch c := v.(type) {
			case map[string]any:
				v, ok = c[name]
			case []any:
				var i int
				i, ok = arrayIndex(name, len(c))
				if ok {
					v = c[i]
				}
			default:
				ok = false
			}
			if !ok {
				return loc{}, fmt.Errorf("no %q", name)
			}
			ptr += "/" + escapePointerToken(name)
		}
	}
	return loc{root.doc, ptr}, nil
}

// enter returns the scope key once the resource rooted at root is in the
// dynamic scope: a binding for each name a $dynamicRef looks up that it
// has a $dynamicAnchor for and that nothing outer binds yet, and the
// recursive anchor (key "") if it has one and nothing outer does.
func (r *resolution) enter(scope string, root loc) string {
	info := r.roots[root]
	bind := r.scopes[scope]
	next := map[string]loc{}
	for k, v := range bind {
		next[k] = v
	}
	for name, ptr := range info.dynamic {
		if _, bound := next["#"+name]; r.dynNames[name] && !bound {
			next["#"+name] = loc{root.doc, ptr}
		}
	}
	if _, bound := next[""]; info.recursive && r.recursive && !bound {
		next[""] = root
	}
	if len(next) == len(bind) {
		return scope
	}
	var keys []string
	for k, v := range next {
		keys = append(keys, fmt.Sprintf("%q:%q", k, v.doc+"#"+v.ptr))
	}
	slices.Sort(keys)
	key := strings.Join(keys, ",")
	r.scopes[key] = next
	return key
}

// ecmaPattern compiles a pattern as ECMA-262 with the u flag, with
// internal/ecma: what `new RegExp(pat, "u")` refuses is refused, and a
// match spends backtracking steps from the call's budget, a count like
// the reference's, not a clock, so that whether a call ends in an error
// does not depend on the machine. Each key is matched once per pattern
// (memo), whatever the walk; when the budget is spent the match panics
// with a patternSpent, which Normalize turns into an error.
//
// The matcher is the reference's own. regexp2, which this package used
// before, bounds a match only by a wall clock (MatchTimeout), so whether
// the oracle and the reference agreed on a hostile key depended on the
// machine. The second opinion on matching is now Node.js's RegExp, which
// internal/ecma's tests (TestDifferentialNode, TestCorpusPatternsAgainstNode)
// hold it to.
func ecmaPattern(pat string, budget *int64) (func(string) bool, error) {
	re, err := ecma.Compile(pat)
	if err != nil {
		return nil, err
	}
	memo := map[string]bool{}
	return func(s string) bool {
		if ok, seen := memo[s]; seen {
			return ok
		}
		ok, err := re.Match(s, budget)
		if err != nil {
			// Not a match nor a miss: Normalize turns it into an error, as
			// the reference does.
			panic(patternSpent{fmt.Errorf("oracle: the pattern %q on the key %q: the call's %d backtracking steps are spent", pat, s, PatternSteps)})
		}
		memo[s] = ok
		return ok
	}, nil
}

// PatternSteps is the budget of backtracking steps of one Normalize call,
// for all its patterns and keys: the reference's (normalize/pattern.go).
const PatternSteps = 10_000_000

// patternSpent is an ECMA-262 match that spent the call's budget.
type patternSpent struct{ err error }
