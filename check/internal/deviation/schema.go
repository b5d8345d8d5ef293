package deviation

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/schemaview"
	"github.com/toolnorm/toolnorm/normalize"
)

// A rewrite changes the schema document before the normalizer reads it:
// how a deviation leaves a keyword unread. It is called with the document's
// root; most rewrites change every object in it (objects that are no
// schema, such as enum values, too: the normalizer does not read those).
type rewrite func(doc *jsonvalue.Value)

// everySchema makes a rewrite of f applied to every object in a schema
// position of the document, an object before what it holds, as
// schemaview.Walk visits them: the values of keywords, the members of
// properties, patternProperties, $defs, definitions, dependentSchemas and
// dependencies (their names are no keywords), the elements of an array
// (allOf, a list of items); never inside const, enum, default or
// examples, which hold data. root is true for the document's root. f may
// change the members of the object it is given; what f leaves is walked.
func everySchema(f func(obj *jsonvalue.Value, root bool)) rewrite {
	return func(doc *jsonvalue.Value) { schemaview.Walk(doc, f) }
}

// dropMembers leaves out the members named key whose value is of one of
// kinds (any kind when none is given).
func dropMembers(key string, kinds ...jsonvalue.Kind) rewrite {
	return everySchema(func(obj *jsonvalue.Value, _ bool) {
		obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool {
			return m.Key == key && (len(kinds) == 0 || slices.Contains(kinds, m.Value.Kind))
		})
	})
}

// neutralize appends the branch true to every union named key. A union
// with a branch that says nothing says nothing, about the type and about
// children (docs/readings.md section 4): the keyword then contributes
// nothing, as if it were not read, while its branches are still compiled
// and $refs into them still resolve.
func neutralize(key string) rewrite {
	return everySchema(func(obj *jsonvalue.Value, _ bool) {
		for _, m := range obj.Members {
			if m.Key == key && m.Value.Kind == jsonvalue.Array {
				m.Value.Elems = append(m.Value.Elems, &jsonvalue.Value{Kind: jsonvalue.Bool, Bool: true})
			}
		}
	})
}

// additionalOverPatterns reads additionalProperties for the members a
// pattern matches too (an implementation whose test for "additional" is
// "not in properties", the patterns forgotten): each pattern's schema is
// read together with additionalProperties' (allOf).
var additionalOverPatterns = everySchema(func(obj *jsonvalue.Value, _ bool) {
	ap, pp := obj.Member("additionalProperties"), obj.Member("patternProperties")
	if ap == nil || pp == nil || pp.Kind != jsonvalue.Object || ap.Kind != jsonvalue.Object && ap.Kind != jsonvalue.Bool {
		return
	}
	for i, m := range pp.Members {
		both, err := jsonvalue.Parse(fmt.Appendf(nil, `{"allOf":[%s,%s]}`, m.Value.Append(nil), ap.Append(nil)))
		if err == nil {
			pp.Members[i].Value = both
		}
	}
})

// anchoredPatterns matches every patternProperties pattern at the start
// of the key only (Python's re.match), or, whole, against the whole key
// (Java's Matcher.matches, Python's re.fullmatch), where ECMA-262's test
// finds it anywhere: the pattern p becomes ^(?:p) or ^(?:p)$.
func anchoredPatterns(whole bool) rewrite {
	return everySchema(func(obj *jsonvalue.Value, _ bool) {
		pp := obj.Member("patternProperties")
		if pp == nil || pp.Kind != jsonvalue.Object {
			return
		}
		for i, m := range pp.Members {
			k := "^(?:" + m.Key + ")"
			if whole {
				k += "$"
			}
			pp.Members[i].Key = k
		}
	})
}

// dropStringType removes "string" from every type: "string" becomes [],
// ["string","array"] becomes ["array"]. Whether string is admitted matters
// to nothing but the JSON repair (a string value has no children), so
// this changes nothing else.
var dropStringType = everySchema(func(obj *jsonvalue.Value, _ bool) {
	isString := func(v *jsonvalue.Value) bool { return v.Kind == jsonvalue.String && v.Str == "string" }
	for _, m := range obj.Members {
		if m.Key != "type" {
			continue
		}
		switch {
		case isString(m.Value):
			*m.Value = jsonvalue.Value{Kind: jsonvalue.Array, Elems: []*jsonvalue.Value{}}
		case m.Value.Kind == jsonvalue.Array:
			m.Value.Elems = slices.DeleteFunc(m.Value.Elems, isString)
		}
	}
})

// dropTypeLists leaves out every type given as a list: only a type named
// by a string is read.
var dropTypeLists = dropMembers("type", jsonvalue.Array)

// firstBranchOnly keeps the first branch of every allOf.
var firstBranchOnly = everySchema(func(obj *jsonvalue.Value, _ bool) {
	for _, m := range obj.Members {
		if m.Key == "allOf" && m.Value.Kind == jsonvalue.Array && len(m.Value.Elems) > 1 {
			m.Value.Elems = m.Value.Elems[:1]
		}
	}
})

// nestedProperties reads properties only for the arguments' own members:
// in the schemas that apply to the arguments themselves (the root and
// what it reaches by $ref, allOf, anyOf, oneOf, if, then, else and
// dependentSchemas), properties stay; every schema of a nested value
// (below properties, patternProperties, additionalProperties, items and
// the like of those) is a copy without properties, and a $ref in it names
// a copy of the whole document without properties (in $defs), so that a
// schema the root reaches for its own members and a nested value reaches
// again, recursively, is read with its properties at the top only.
func nestedProperties(doc *jsonvalue.Value) {
	if doc.Kind != jsonvalue.Object {
		return
	}
	b := bareOf(doc)
	bare := b.copy(doc, "")
	in := b.resources(doc, doc)
	for _, s := range b.topSchemas(doc) {
		for _, m := range s.Members {
			switch m.Key {
			case "properties", "patternProperties":
				if m.Value.Kind == jsonvalue.Object {
					for i := range m.Value.Members {
						m.Value.Members[i].Value = b.copy(m.Value.Members[i].Value, in[s])
					}
				}
			case "additionalProperties", "unevaluatedProperties", "items", "prefixItems", "additionalItems", "unevaluatedItems", "contains":
				*m.Value = *b.copy(m.Value, in[s])
			}
		}
	}
	defs := doc.Member("$defs")
	if defs == nil || defs.Kind != jsonvalue.Object {
		defs = &jsonvalue.Value{Kind: jsonvalue.Object}
		doc.Members = append(doc.Members, jsonvalue.Member{Key: "$defs", Value: defs})
	}
	defs.Members = append(defs.Members, jsonvalue.Member{Key: nestedRoot, Value: bare})
}

// bare makes the copies of nestedProperties: schemas without properties
// whose references name the copy of the document without them.
type bare struct {
	base    *url.URL                    // the root's $id, resolved against nothing
	ids     map[string]bool             // every $id of the document, resolved against base
	byID    map[string]*jsonvalue.Value // the schema of each of ids
	anchors map[string]*jsonvalue.Value // the plain names ($anchor, $dynamicAnchor) of the document's own resource
}

func bareOf(doc *jsonvalue.Value) bare {
	b := bare{base: &url.URL{}, ids: map[string]bool{}, byID: map[string]*jsonvalue.Value{}, anchors: map[string]*jsonvalue.Value{}}
	if id := doc.Member("$id"); id != nil && id.Kind == jsonvalue.String {
		if u, err := url.Parse(id.Str); err == nil {
			b.base = u
		}
	}
	schemaview.Walk(doc, func(obj *jsonvalue.Value, _ bool) {
		if id := obj.Member("$id"); id != nil && id.Kind == jsonvalue.String {
			if u, ok := b.resolve(id.Str); ok {
				b.ids[u] = true
				b.byID[u] = obj
			}
		}
	})
	in := b.resources(doc, doc)
	schemaview.Walk(doc, func(obj *jsonvalue.Value, _ bool) {
		for _, k := range []string{"$anchor", "$dynamicAnchor"} {
			if a := obj.Member(k); a != nil && a.Kind == jsonvalue.String && in[obj] == "" {
				b.anchors[a.Str] = obj
			}
		}
	})
	return b
}

// resources maps each schema of v that sits in a resource of v (a schema
// with an $id, other than skip) to that resource's URI, resolved: the
// innermost one. A schema it does not map is in the resource v sits in.
func (b bare) resources(v, skip *jsonvalue.Value) map[*jsonvalue.Value]string {
	out := map[*jsonvalue.Value]string{}
	schemaview.Walk(v, func(obj *jsonvalue.Value, _ bool) {
		id := obj.Member("$id")
		if obj == skip || id == nil || id.Kind != jsonvalue.String {
			return
		}
		if u, ok := b.resolve(id.Str); ok {
			schemaview.Walk(obj, func(o *jsonvalue.Value, _ bool) { out[o] = u })
		}
	})
	return out
}

// target is the schema of doc a reference names, or nil when it names
// none this reading finds: a JSON Pointer, a plain name of the document's
// own resource, or an $id (with a JSON Pointer after it).
func (b bare) target(doc *jsonvalue.Value, ref string) *jsonvalue.Value {
	switch {
	case ref == "#" || strings.HasPrefix(ref, "#/"):
		return doc.Resolve(ref)
	case strings.HasPrefix(ref, "#"):
		return b.anchors[ref[1:]]
	}
	base, frag, _ := strings.Cut(ref, "#")
	u, ok := b.resolve(base)
	if !ok || b.byID[u] == nil {
		return nil
	}
	return b.byID[u].Resolve("#" + frag)
}

// resolve is ref's URI without its fragment, resolved against the root's.
func (b bare) resolve(ref string) (string, bool) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", false
	}
	u = b.base.ResolveReference(u)
	u.Fragment, u.RawFragment = "", ""
	return u.String(), true
}

// copy is a copy of v, stripped, for the resource res (its URI, "" for
// the document's own) that v sits in.
func (b bare) copy(v *jsonvalue.Value, res string) *jsonvalue.Value {
	c := copyValue(v)
	b.strip(c, res)
	return c
}

// bareSuffix renames the resources of the copy without properties: one
// document may not hold an $id twice.
const bareSuffix = ".toolnorm-bare"

// strip leaves out properties in every schema of v, which sits in the
// resource res; an $id of the document, and a $ref to one, name its copy
// (renamed); a $ref by JSON Pointer ("#", "#/...") or by plain name
// outside any resource of v's own names the same place in the copy of
// res, or of the document.
func (b bare) strip(v *jsonvalue.Value, res string) {
	inner := b.resources(v, nil) // schemas inside a resource of their own: "#" is theirs
	schemaview.Walk(v, func(obj *jsonvalue.Value, _ bool) {
		obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool {
			return m.Key == "properties" && m.Value.Kind == jsonvalue.Object
		})
		if id := obj.Member("$id"); id != nil && id.Kind == jsonvalue.String {
			if u, ok := b.resolve(id.Str); ok && b.ids[u] {
				id.Str = u + bareSuffix
			}
		}
		_, isInner := inner[obj]
		staticAnchors(obj, !isInner)
		r := obj.Member("$ref")
		if r == nil || r.Kind != jsonvalue.String {
			return
		}
		switch {
		case isInner:
			if !strings.HasPrefix(r.Str, "#") {
				b.renameRef(r)
			}
		case res != "" && strings.HasPrefix(r.Str, "#"):
			r.Str = res + bareSuffix + r.Str
		case r.Str == "#" || strings.HasPrefix(r.Str, "#/"):
			r.Str = "#/$defs/" + nestedRoot + r.Str[1:]
		case strings.HasPrefix(r.Str, "#"):
			r.Str += anchorSuffix
		default:
			b.renameRef(r)
		}
	})
}

// renameRef makes r, a reference by URI, name the copy of the resource it
// names, when that is one of the document's.
func (b bare) renameRef(r *jsonvalue.Value) {
	base, frag, hasFrag := strings.Cut(r.Str, "#")
	if u, ok := b.resolve(base); ok && b.ids[u] {
		r.Str = u + bareSuffix
		if hasFrag {
			r.Str += "#" + frag
		}
	}
}

// anchorSuffix renames the plain names ($anchor) of the copy without
// properties that sit in the document's own resource: it may not hold a
// name twice.
const anchorSuffix = "-toolnorm-bare"

// staticAnchors makes the references of obj, a schema of the copy without
// properties, static: a $dynamicRef or $recursiveRef becomes a $ref, a
// $dynamicAnchor an $anchor, so that a nested value reaches the copy
// again, never the root that keeps its properties, which is where the
// dynamic scope of a nested value leads; rename says obj is in the
// document's own resource, where the copy's names are renamed.
func staticAnchors(obj *jsonvalue.Value, rename bool) {
	for i := range obj.Members {
		m := &obj.Members[i]
		switch {
		case (m.Key == "$dynamicRef" || m.Key == "$recursiveRef") && obj.Member("$ref") == nil:
			m.Key = "$ref"
		case m.Key == "$dynamicAnchor" && obj.Member("$anchor") == nil:
			m.Key = "$anchor"
		}
	}
	if a := obj.Member("$anchor"); rename && a != nil && a.Kind == jsonvalue.String {
		a.Str += anchorSuffix
	}
}

// topSchemas are the schemas of the document that apply to the value at
// its root: the root, and what it reaches by a reference (static or
// dynamic, as target finds it), allOf, anyOf, oneOf, if, then, else and
// dependentSchemas, each once.
func (b bare) topSchemas(doc *jsonvalue.Value) []*jsonvalue.Value {
	var out []*jsonvalue.Value
	var visit func(s *jsonvalue.Value)
	visit = func(s *jsonvalue.Value) {
		if s == nil || s.Kind != jsonvalue.Object || slices.Contains(out, s) {
			return
		}
		out = append(out, s)
		for _, m := range s.Members {
			switch m.Key {
			case "$ref", "$dynamicRef", "$recursiveRef":
				if m.Value.Kind == jsonvalue.String {
					visit(b.target(doc, m.Value.Str))
				}
			case "allOf", "anyOf", "oneOf":
				if m.Value.Kind == jsonvalue.Array {
					for _, e := range m.Value.Elems {
						visit(e)
					}
				}
			case "if", "then", "else":
				visit(m.Value)
			case "dependentSchemas":
				if m.Value.Kind == jsonvalue.Object {
					for _, d := range m.Value.Members {
						visit(d.Value)
					}
				}
			}
		}
	}
	visit(doc)
	return out
}

// nestedRoot names the copy of the root that nestedProperties makes.
const nestedRoot = "toolnorm-nested-root"

// copyValue is a deep copy of v.
func copyValue(v *jsonvalue.Value) *jsonvalue.Value {
	c := *v
	c.Elems = make([]*jsonvalue.Value, len(v.Elems))
	for i, e := range v.Elems {
		c.Elems[i] = copyValue(e)
	}
	c.Members = make([]jsonvalue.Member, len(v.Members))
	for i, m := range v.Members {
		c.Members[i] = jsonvalue.Member{Key: m.Key, Value: copyValue(m.Value)}
	}
	return &c
}

// keptBesideRef are the keywords a schema that is a $ref keeps when its
// other keywords are dropped: those that other references may lead
// through.
var keptBesideRef = []string{"$ref", "$defs", "definitions", "$id", "id", "$schema", "$anchor", "$dynamicAnchor"}

// refSiblings drops what stands beside a $ref, as draft 7 and earlier
// read it, whatever the draft.
var refSiblings = everySchema(func(obj *jsonvalue.Value, _ bool) {
	if obj.Member("$ref") == nil || obj.Member("$ref").Kind != jsonvalue.String {
		return
	}
	obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool { return !slices.Contains(keptBesideRef, m.Key) })
})

// refSiblingsIn2019 drops what stands beside a $ref in a resource whose
// `$schema` is 2019-09 (an off-by-one in the draft from which they are
// read: 2019-09 read as drafts 4 to 7 read them).
func refSiblingsIn2019(doc *jsonvalue.Value) {
	inDraft(doc, "2019-09", func(v *jsonvalue.Value) {
		if ref := v.Member("$ref"); ref != nil && ref.Kind == jsonvalue.String {
			v.Members = slices.DeleteFunc(v.Members, func(m jsonvalue.Member) bool { return !slices.Contains(keptBesideRef, m.Key) })
		}
	})
}

// noDrafts drops every $schema: each resource is read as 2020-12.
var noDrafts = dropMembers("$schema", jsonvalue.String)

// documentDraft reads every resource as its document's root is read: an
// embedded resource's own $schema is taken for the root's (or dropped,
// where the root names none), as an implementation that keeps one draft
// a document does.
func documentDraft(doc *jsonvalue.Value) {
	if doc.Kind != jsonvalue.Object {
		return
	}
	root := doc.Member("$schema")
	schemaview.Walk(doc, func(obj *jsonvalue.Value, isRoot bool) {
		if isRoot {
			return
		}
		for i := 0; i < len(obj.Members); i++ {
			if obj.Members[i].Key != "$schema" || obj.Members[i].Value.Kind != jsonvalue.String {
				continue
			}
			if root != nil && root.Kind == jsonvalue.String {
				obj.Members[i].Value = &jsonvalue.Value{Kind: jsonvalue.String, Str: root.Str}
				continue
			}
			obj.Members = slices.Delete(obj.Members, i, i+1)
			i--
		}
	})
}

// plainTypes keeps, in every object, only what a reader of plain types
// reads: a type named by a string, properties, and items given as one
// schema (and $defs, which only references would read).
var plainTypes = everySchema(func(obj *jsonvalue.Value, _ bool) {
	obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool {
		switch m.Key {
		case "type":
			return m.Value.Kind != jsonvalue.String
		case "properties", "$defs", "definitions":
			return false
		case "items":
			return m.Value.Kind != jsonvalue.Object && m.Value.Kind != jsonvalue.Bool
		}
		return true
	})
})

// all is the rewrites one after the other.
func all(rs ...rewrite) rewrite {
	return func(doc *jsonvalue.Value) {
		for _, r := range rs {
			r(doc)
		}
	}
}

// refTypeOnly replaces every local $ref by the type of the schema it names
// (through a chain of $refs): what a $ref names is read for its type
// alone, not for what it declares below (items, properties).
func refTypeOnly(doc *jsonvalue.Value) {
	typeOf := func(ref string) *jsonvalue.Value {
		for range 64 {
			t := doc.Resolve(ref)
			if t == nil || t.Kind != jsonvalue.Object {
				return nil
			}
			if ty := t.Member("type"); ty != nil {
				return ty
			}
			next := t.Member("$ref")
			if next == nil || next.Kind != jsonvalue.String {
				return nil
			}
			ref = next.Str
		}
		return nil
	}
	var found []*jsonvalue.Value
	everySchema(func(obj *jsonvalue.Value, _ bool) {
		if r := obj.Member("$ref"); r != nil && r.Kind == jsonvalue.String {
			found = append(found, obj)
		}
	})(doc)
	types := make([]*jsonvalue.Value, len(found))
	for i, obj := range found {
		types[i] = typeOf(obj.Member("$ref").Str)
	}
	for i, obj := range found {
		obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool { return m.Key == "$ref" })
		if types[i] != nil && obj.Member("type") == nil {
			t := *types[i]
			obj.Members = append(obj.Members, jsonvalue.Member{Key: "type", Value: &t})
		}
	}
}

// containerBranches leaves, in every anyOf and oneOf one of whose
// branches declares array or object, only the branches that do: the
// others, which admit a string or anything, are not read.
var containerBranches = everySchema(func(obj *jsonvalue.Value, _ bool) {
	for _, m := range obj.Members {
		if (m.Key != "anyOf" && m.Key != "oneOf") || m.Value.Kind != jsonvalue.Array {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(m.Value.Elems), func(b *jsonvalue.Value) bool { return !declaresContainer(b) })
		if len(kept) > 0 {
			m.Value.Elems = kept
		}
	}
})

// refBranchesSkipped leaves out of every anyOf and oneOf the branches
// that are a $ref (a string $ref among the branch's own members), as a
// normalizer does that checks each branch with a validator compiled from
// the branch alone: the $ref names nothing there, the branch takes no
// value, and the union reads as its other branches. A union left with no
// branch declares nothing.
var refBranchesSkipped = everySchema(func(obj *jsonvalue.Value, _ bool) {
	obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool {
		if (m.Key != "anyOf" && m.Key != "oneOf") || m.Value.Kind != jsonvalue.Array {
			return false
		}
		m.Value.Elems = slices.DeleteFunc(m.Value.Elems, func(b *jsonvalue.Value) bool {
			r := b.Member("$ref")
			return b.Kind == jsonvalue.Object && r != nil && r.Kind == jsonvalue.String
		})
		return len(m.Value.Elems) == 0
	})
})

// allOfInTurn reads every allOf as its branches applied one after
// another, each decoding the shapes it declares: an anyOf of the branches
// whose type names array or object, without string, and none of the
// others. An allOf none of whose branches declares a container is kept.
var allOfInTurn = everySchema(func(obj *jsonvalue.Value, _ bool) {
	if obj.Member("anyOf") != nil {
		return // one anyOf an object may have
	}
	for i, m := range obj.Members {
		if m.Key != "allOf" || m.Value.Kind != jsonvalue.Array {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(m.Value.Elems), func(b *jsonvalue.Value) bool { return b.Kind != jsonvalue.Object || !declaresContainer(b) })
		if len(kept) == 0 {
			continue
		}
		for _, b := range kept {
			for _, bm := range b.Members {
				if bm.Key == "type" && bm.Value.Kind == jsonvalue.Array {
					bm.Value.Elems = slices.DeleteFunc(bm.Value.Elems, func(v *jsonvalue.Value) bool { return v.Kind == jsonvalue.String && v.Str == "string" })
				}
			}
		}
		m.Value.Elems = kept
		obj.Members[i].Key = "anyOf"
	}
})

// prototypeNames leaves out of every properties the declarations of
// members named __proto__, constructor or prototype, as a guard against
// prototype pollution skips them.
var prototypeNames = everySchema(func(obj *jsonvalue.Value, _ bool) {
	for _, m := range obj.Members {
		if m.Key == "properties" && m.Value.Kind == jsonvalue.Object {
			m.Value.Members = slices.DeleteFunc(m.Value.Members, func(p jsonvalue.Member) bool {
				return p.Key == "__proto__" || p.Key == "constructor" || p.Key == "prototype"
			})
		}
	}
})

// declaresContainer reports whether a schema's own type names array or
// object.
func declaresContainer(s *jsonvalue.Value) bool {
	t := s.Member("type")
	if t == nil {
		return false
	}
	isContainer := func(v *jsonvalue.Value) bool {
		return v.Kind == jsonvalue.String && (v.Str == "array" || v.Str == "object")
	}
	return isContainer(t) || slices.ContainsFunc(t.Elems, isContainer)
}

// allOfAsAnyOf reads every allOf as an anyOf.
var allOfAsAnyOf = everySchema(func(obj *jsonvalue.Value, _ bool) {
	if obj.Member("anyOf") != nil {
		return // one anyOf an object may have
	}
	for i, m := range obj.Members {
		if m.Key == "allOf" && m.Value.Kind == jsonvalue.Array {
			obj.Members[i].Key = "anyOf"
		}
	}
})

// unionsMergedIntoAllOf puts the alternatives of an allOf branch that is
// only an anyOf or a oneOf (annotations aside) in the allOf, in its place,
// as a schema flattener that hoists nested combinators does without
// telling a union from a conjunction.
var unionsMergedIntoAllOf = everySchema(func(obj *jsonvalue.Value, _ bool) {
	a := obj.Member("allOf")
	if a == nil || a.Kind != jsonvalue.Array {
		return
	}
	var elems []*jsonvalue.Value
	for _, b := range a.Elems {
		alts, only := unionOnly(b)
		if !only {
			elems = append(elems, b)
			continue
		}
		elems = append(elems, alts...)
	}
	a.Elems = elems
})

// unionOnly returns the alternatives of b when b is a schema object whose
// members are anyOf or oneOf arrays, and annotations, and one at least.
func unionOnly(b *jsonvalue.Value) ([]*jsonvalue.Value, bool) {
	if b.Kind != jsonvalue.Object {
		return nil, false
	}
	var alts []*jsonvalue.Value
	unions := 0
	for _, m := range b.Members {
		switch m.Key {
		case "anyOf", "oneOf":
			if m.Value.Kind != jsonvalue.Array {
				return nil, false
			}
			alts = append(alts, m.Value.Elems...)
			unions++
		case "title", "description", "$comment", "examples", "default":
		default:
			return nil, false
		}
	}
	return alts, unions > 0
}

// allOfMembersFirst reads one declaration of each member of an object
// where JSON Schema intersects several: the object's own properties, else
// the first allOf branch that declares it. The declarations of the member
// in the other allOf branches are left out, so nothing narrows the one
// read (a normalizer that merges the branches' properties into one map,
// first come kept, the object's own over them).
var allOfMembersFirst = everySchema(func(obj *jsonvalue.Value, _ bool) {
	a := obj.Member("allOf")
	if a == nil || a.Kind != jsonvalue.Array {
		return
	}
	var seen []string
	props := func(s *jsonvalue.Value) *jsonvalue.Value {
		if p := s.Member("properties"); p != nil && p.Kind == jsonvalue.Object {
			return p
		}
		return nil
	}
	if p := props(obj); p != nil {
		for _, m := range p.Members {
			seen = append(seen, m.Key)
		}
	}
	for _, b := range a.Elems {
		if b.Kind != jsonvalue.Object {
			continue
		}
		p := props(b)
		if p == nil {
			continue
		}
		p.Members = slices.DeleteFunc(p.Members, func(m jsonvalue.Member) bool { return slices.Contains(seen, m.Key) })
		for _, m := range p.Members {
			seen = append(seen, m.Key)
		}
	}
})

// untypedLevels leaves out what a schema declares of an object's members
// unless its own type names object, and of an array's elements unless it
// names array: a level whose type is unsaid is not walked.
var untypedLevels = everySchema(func(obj *jsonvalue.Value, _ bool) {
	names := func(name string) bool {
		t := obj.Member("type")
		if t == nil {
			return false
		}
		is := func(v *jsonvalue.Value) bool { return v.Kind == jsonvalue.String && v.Str == name }
		return is(t) || slices.ContainsFunc(t.Elems, is)
	}
	object, array := names("object"), names("array")
	obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool {
		switch m.Key {
		case "properties", "patternProperties", "additionalProperties":
			return !object
		case "items", "prefixItems", "additionalItems":
			return !array
		}
		return false
	})
})

// refItems leaves out, of every schema a local $ref names, what it
// declares of an array's elements (items, prefixItems, additionalItems),
// there and in what it holds through its own $ref, allOf, anyOf and
// oneOf: an array's elements are declared by nothing behind a $ref.
func refItems(doc *jsonvalue.Value) {
	view := schemaview.New(doc)
	var targets []*jsonvalue.Value
	everySchema(func(obj *jsonvalue.Value, _ bool) {
		if r := obj.Member("$ref"); r != nil && r.Kind == jsonvalue.String {
			if t := view.Resolve(r.Str); t != nil && t.Kind == jsonvalue.Object {
				targets = append(targets, t)
			}
		}
	})(doc)
	seen := map[*jsonvalue.Value]bool{}
	var strip func(t *jsonvalue.Value, depth int)
	strip = func(t *jsonvalue.Value, depth int) {
		if t == nil || t.Kind != jsonvalue.Object || seen[t] || depth > 64 {
			return
		}
		seen[t] = true
		t.Members = slices.DeleteFunc(t.Members, func(m jsonvalue.Member) bool {
			return m.Key == "items" || m.Key == "prefixItems" || m.Key == "additionalItems"
		})
		if r := t.Member("$ref"); r != nil && r.Kind == jsonvalue.String {
			strip(view.Resolve(r.Str), depth+1)
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if b := t.Member(k); b != nil {
				for _, e := range b.Elems {
					strip(e, depth+1)
				}
			}
		}
	}
	for _, t := range targets {
		strip(t, 0)
	}
}

// pointerRefsOnly leaves out every $ref that is not a JSON Pointer into
// its document ("#", "#/..."): a plain-name anchor, an $id or a relative
// URI names nothing.
var pointerRefsOnly = everySchema(func(obj *jsonvalue.Value, _ bool) {
	obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool {
		return m.Key == "$ref" && m.Value.Kind == jsonvalue.String && m.Value.Str != "#" && !strings.HasPrefix(m.Value.Str, "#/")
	})
})

// readAs reads a schema that names no draft as the draft uri names: it
// gets "$schema": uri.
func readAs(uri string) rewrite {
	return func(doc *jsonvalue.Value) {
		if doc.Kind != jsonvalue.Object || doc.Member("$schema") != nil {
			return
		}
		doc.Members = append([]jsonvalue.Member{{Key: "$schema", Value: &jsonvalue.Value{Kind: jsonvalue.String, Str: uri}}}, doc.Members...)
	}
}

// prefixItemsIn2020Only leaves out prefixItems, at any depth, unless the
// document's $schema names 2020-12 as the reference reads it
// (normalize.DraftOf): a validator that reads draft 7 where no draft is
// named (Ajv's default) does not know it there.
func prefixItemsIn2020Only(doc *jsonvalue.Value) {
	if doc.Kind == jsonvalue.Object {
		if s := doc.Member("$schema"); s != nil && s.Kind == jsonvalue.String {
			if d, ok := normalize.DraftOf(s.Str); ok && d == normalize.Draft2020 {
				return
			}
		}
	}
	dropMembers("prefixItems", jsonvalue.Array)(doc)
}

// rawPointerRefsOnly leaves out every $ref that is not a pointer "#/..."
// read as written, split at "/" with "~0" and "~1" unescaped and no
// URI decoding: "#" alone, a "%"-escape, a plain-name anchor, an $id and
// a relative URI name nothing.
var rawPointerRefsOnly = everySchema(func(obj *jsonvalue.Value, _ bool) {
	obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool {
		return m.Key == "$ref" && m.Value.Kind == jsonvalue.String && (!strings.HasPrefix(m.Value.Str, "#/") || strings.Contains(m.Value.Str, "%"))
	})
})

// pointerTildeOrder rewrites every `$ref` pointer "#/..." to name what
// a reader names that unescapes each token's ~0 before its ~1 (so that
// "~01" is "/", where RFC 6901 makes it "~1").
var pointerTildeOrder = everySchema(func(obj *jsonvalue.Value, _ bool) {
	for _, m := range obj.Members {
		if m.Key != "$ref" || m.Value.Kind != jsonvalue.String || !strings.HasPrefix(m.Value.Str, "#/") {
			continue
		}
		toks := strings.Split(m.Value.Str[2:], "/")
		for i, t := range toks {
			wrong := strings.ReplaceAll(strings.ReplaceAll(t, "~0", "~"), "~1", "/")
			toks[i] = strings.ReplaceAll(strings.ReplaceAll(wrong, "~", "~0"), "/", "~1")
		}
		m.Value.Str = "#/" + strings.Join(toks, "/")
	}
})

// propertiesInherited adds to every properties object an entry that
// declares nothing for each name a JavaScript object inherits from
// Object.prototype that it does not list: a normalizer that looks a
// member up as props[key] finds the inherited value there, takes the
// member for one properties declares, and reads no keyword of it.
var propertiesInherited = everySchema(func(obj *jsonvalue.Value, _ bool) {
	p := obj.Member("properties")
	if p == nil || p.Kind != jsonvalue.Object {
		return
	}
	for _, n := range append(slices.Clone(InheritedNames), "__proto__") {
		if p.Member(n) == nil {
			p.Members = append(p.Members, jsonvalue.Member{Key: n, Value: &jsonvalue.Value{Kind: jsonvalue.Object}})
		}
	}
})

// untypedBranchesSkipped leaves out of every anyOf and oneOf the branches
// that declare no type (no `type`, nor a local `$ref` to a schema that
// declares one, nor anything else that may: a composition, `const`,
// `enum`), where another branch declares one: the union's type is then its
// typed branches', where the rule makes it unknown.
func untypedBranchesSkipped(doc *jsonvalue.Value) {
	var untyped func(b *jsonvalue.Value, depth int) bool
	untyped = func(b *jsonvalue.Value, depth int) bool {
		switch {
		case b.Kind == jsonvalue.Bool:
			return b.Bool
		case b.Kind != jsonvalue.Object || depth > 16:
			return false
		}
		for _, m := range b.Members {
			switch m.Key {
			case "type", "allOf", "anyOf", "oneOf", "const", "enum", "not", "if", "$dynamicRef", "$recursiveRef":
				return false
			case "$ref":
				r := m.Value
				if r.Kind != jsonvalue.String || !strings.HasPrefix(r.Str, "#") {
					return false
				}
				t := doc.Resolve(r.Str)
				if t == nil || !untyped(t, depth+1) {
					return false
				}
			}
		}
		return true
	}
	schemaview.Walk(doc, func(obj *jsonvalue.Value, _ bool) {
		for _, m := range obj.Members {
			if (m.Key != "anyOf" && m.Key != "oneOf") || m.Value.Kind != jsonvalue.Array {
				continue
			}
			kept := slices.DeleteFunc(slices.Clone(m.Value.Elems), func(b *jsonvalue.Value) bool { return untyped(b, 0) })
			if len(kept) > 0 {
				m.Value.Elems = kept
			}
		}
	})
}

// refSiblingsInDraft7 reads, in a resource whose `$schema` is draft-07
// (the document, or a resource embedded in it), the keywords beside each
// `$ref` together with it, as 2019-09 and later read them: the object
// becomes an allOf of the `$ref` and of its siblings (identifiers,
// definitions and annotations stay where they are). Values that are data
// (`enum`, `const`, `default`, `examples`) are not entered.
func refSiblingsInDraft7(doc *jsonvalue.Value) {
	inDraft(doc, "draft-07", func(v *jsonvalue.Value) {
		ref := v.Member("$ref")
		if ref == nil || ref.Kind != jsonvalue.String {
			return
		}
		var kept, moved []jsonvalue.Member
		for _, m := range v.Members {
			switch m.Key {
			case "$ref":
			case "$schema", "$id", "definitions", "$comment", "title", "description":
				kept = append(kept, m)
			default:
				moved = append(moved, m)
			}
		}
		if len(moved) == 0 {
			return
		}
		branches := &jsonvalue.Value{Kind: jsonvalue.Array, Elems: []*jsonvalue.Value{
			{Kind: jsonvalue.Object, Members: []jsonvalue.Member{{Key: "$ref", Value: ref}}},
			{Kind: jsonvalue.Object, Members: moved},
		}}
		v.Members = append(kept, jsonvalue.Member{Key: "allOf", Value: branches})
	})
}

// inDraft calls f, bottom up, with every object of doc in a resource
// whose `$schema` names draft (the document, or a resource embedded in
// it, by its own `$schema`). Values that are data (`enum`, `const`,
// `default`, `examples`) are not entered.
func inDraft(doc *jsonvalue.Value, draft string, f func(v *jsonvalue.Value)) {
	var walk func(v *jsonvalue.Value, in bool, depth int)
	walk = func(v *jsonvalue.Value, in bool, depth int) {
		if depth > jsonvalue.MaxDepth {
			return
		}
		for _, e := range v.Elems {
			walk(e, in, depth+1)
		}
		if v.Kind != jsonvalue.Object {
			return
		}
		if d := v.Member("$schema"); d != nil && d.Kind == jsonvalue.String {
			in = strings.Contains(d.Str, draft)
		}
		for _, m := range v.Members {
			switch m.Key {
			case "enum", "const", "default", "examples":
			default:
				walk(m.Value, in, depth+1)
			}
		}
		if in {
			f(v)
		}
	}
	walk(doc, false, 0)
}

// unevaluatedAsAdditional reads every unevaluatedProperties as
// additionalProperties where the schema has none of its own.
var unevaluatedAsAdditional = everySchema(func(obj *jsonvalue.Value, _ bool) {
	if obj.Member("additionalProperties") != nil {
		return
	}
	for i, m := range obj.Members {
		if m.Key == "unevaluatedProperties" {
			obj.Members[i].Key = "additionalProperties"
		}
	}
})

// compositions are the keywords whose branches a schema is made of, in
// the order a normalizer that merges them reads them.
var compositions = []string{"allOf", "anyOf", "oneOf"}

// branches are the object branches of obj's allOf, anyOf and oneOf, in
// that order.
func branches(obj *jsonvalue.Value) []*jsonvalue.Value {
	var out []*jsonvalue.Value
	for _, k := range compositions {
		if c := obj.Member(k); c != nil && c.Kind == jsonvalue.Array {
			for _, b := range c.Elems {
				if b.Kind == jsonvalue.Object {
					out = append(out, b)
				}
			}
		}
	}
	return out
}

// typesAdded reads the types a schema's own type and its branches name
// (theirs, and their branches', down) as one set, added up where JSON
// Schema intersects them: where any of them admits a string, every type
// among them does, so that a string stays wherever one of them admits
// it; else every allOf branch's type names the whole set, so that a shape
// any of them names is decoded. Only the types change: what the branches
// declare of members and elements stays as it was.
var typesAdded = everySchema(func(obj *jsonvalue.Value, _ bool) {
	if len(branches(obj)) == 0 {
		return
	}
	var types []*jsonvalue.Value // the type members, own and the branches'
	var allOf []*jsonvalue.Value // the allOf branches, down
	var set []string
	var collect func(s *jsonvalue.Value, depth int)
	collect = func(s *jsonvalue.Value, depth int) {
		if t := s.Member("type"); t != nil {
			types = append(types, t)
			for _, v := range append([]*jsonvalue.Value{t}, t.Elems...) {
				if v.Kind == jsonvalue.String && !slices.Contains(set, v.Str) {
					set = append(set, v.Str)
				}
			}
		}
		if depth >= 64 {
			return
		}
		if a := s.Member("allOf"); a != nil {
			for _, b := range a.Elems {
				if b.Kind == jsonvalue.Object {
					allOf = append(allOf, b)
				}
			}
		}
		for _, b := range branches(s) {
			collect(b, depth+1)
		}
	}
	collect(obj, 0)
	typeList := func(names ...string) jsonvalue.Value {
		l := jsonvalue.Value{Kind: jsonvalue.Array}
		for _, n := range names {
			l.Elems = append(l.Elems, &jsonvalue.Value{Kind: jsonvalue.String, Str: n})
		}
		return l
	}
	if slices.Contains(set, "string") {
		for _, t := range types {
			switch {
			case t.Kind == jsonvalue.String && t.Str != "string":
				*t = typeList(t.Str, "string")
			case t.Kind == jsonvalue.Array && !slices.ContainsFunc(t.Elems, func(v *jsonvalue.Value) bool { return v.Kind == jsonvalue.String && v.Str == "string" }):
				t.Elems = append(t.Elems, &jsonvalue.Value{Kind: jsonvalue.String, Str: "string"})
			}
		}
		return
	}
	for _, b := range allOf {
		if t := b.Member("type"); t != nil {
			*t = typeList(set...)
		}
	}
})

// unknownDraftsUnread reads a schema whose $schema names draft 4, draft 6
// or 2019-09 as declaring nothing, as a normalizer does whose validator
// knows draft 7 and 2020-12 alone and that repairs nothing where it
// cannot compile the schema.
func unknownDraftsUnread(doc *jsonvalue.Value) {
	if doc.Kind != jsonvalue.Object {
		return
	}
	s := doc.Member("$schema")
	if s == nil || s.Kind != jsonvalue.String {
		return
	}
	for _, d := range []string{"draft-04", "draft-06", "2019-09"} {
		if strings.Contains(s.Str, d) {
			*doc = jsonvalue.Value{Kind: jsonvalue.Object}
			return
		}
	}
}
