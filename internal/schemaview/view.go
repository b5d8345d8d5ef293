package schemaview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolnorm/toolnorm/internal/ecma"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// A View is a schema document, read for what it declares at positions of
// the arguments. Its methods do not change the document.
type View struct {
	root *jsonvalue.Value
}

// New is a view of the schema document root; a nil root declares
// nothing.
func New(root *jsonvalue.Value) *View { return &View{root: root} }

// Root is the schema document.
func (v *View) Root() *jsonvalue.Value {
	if v == nil {
		return nil
	}
	return v.root
}

// A Step is one step of a path into the arguments: the member Key of an
// object, or, when Index >= 0, the element Index of an array.
type Step struct {
	Key   string
	Index int
}

// Member is the step to the member key of an object.
func Member(key string) Step { return Step{Key: key, Index: -1} }

// Element is the step to the element i of an array.
func Element(i int) Step { return Step{Index: i} }

// Pointer is the JSON Pointer of path ("" for the whole).
func Pointer(path []Step) string {
	var b strings.Builder
	for _, s := range path {
		b.WriteByte('/')
		if s.Index >= 0 {
			fmt.Fprint(&b, s.Index)
		} else {
			b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s.Key))
		}
	}
	return b.String()
}

// A Reach is a subschema that applies at a position, and how it was
// reached.
type Reach struct {
	Schema *jsonvalue.Value
	// Via are the keywords other than properties and items that led to
	// it, in order.
	Via []string
	// Route is every step that led to it: Via's keywords, "properties"
	// and "items" for a member and an element, "items[]" for a list of
	// items (where Via has "items").
	Route []string
}

// by is r's subschema s, reached through the keyword kw.
func (r Reach) by(s *jsonvalue.Value, kw string) Reach {
	return Reach{s, with(r.Via, kw), with(r.Route, kw)}
}

// under is r's subschema s, reached through properties or items (step),
// which are no keyword of Via.
func (r Reach) under(s *jsonvalue.Value, step string) Reach {
	return Reach{s, r.Via, with(r.Route, step)}
}

// Way is the way from the first keyword of Via to r's subschema: the
// keywords and the members and elements after it, each step once where
// it repeats ("$ref/properties"); "" when Via is empty.
func (r Reach) Way() string {
	i := slices.IndexFunc(r.Route, func(st string) bool { return st != "properties" && st != "items" })
	if i < 0 {
		return ""
	}
	return strings.Join(slices.Compact(slices.Clone(r.Route[i:])), "/")
}

func with(via []string, kw string) []string { return append(slices.Clip(via), kw) }

// maxExpand bounds how many references and combinators one expansion
// follows, so that a cycle ends.
const maxExpand = 64

// At returns the subschemas that apply at path: the root's, then, step
// by step, those of each subschema's child there, each with what its
// references and combinators apply.
func (v *View) At(path []Step) []Reach {
	if v == nil || v.root == nil {
		return nil
	}
	cur := v.expand([]Reach{{Schema: v.root}})
	for _, st := range path {
		var next []Reach
		for _, r := range cur {
			next = append(next, child(r, st)...)
		}
		cur = v.expand(next)
	}
	return cur
}

// expand adds to rs what their references and combinators apply.
func (v *View) expand(rs []Reach) []Reach {
	out := slices.Clone(rs)
	for i := 0; i < len(out) && i < maxExpand; i++ {
		r := out[i]
		if r.Schema == nil || r.Schema.Kind != jsonvalue.Object {
			continue
		}
		for _, m := range r.Schema.Members {
			switch m.Key {
			case "$ref", "$dynamicRef", "$recursiveRef":
				if m.Value.Kind == jsonvalue.String {
					if t := v.Resolve(m.Value.Str); t != nil {
						out = append(out, r.by(t, m.Key))
					}
				}
			case "allOf", "anyOf", "oneOf":
				if m.Value.Kind == jsonvalue.Array {
					for _, e := range m.Value.Elems {
						out = append(out, r.by(e, m.Key))
					}
				}
			case "then", "else":
				out = append(out, r.by(m.Value, "if"))
			}
		}
	}
	return out
}

// Resolve finds the target of a local reference: "#", a JSON pointer, an
// anchor, or an $id.
func (v *View) Resolve(ref string) *jsonvalue.Value {
	frag, isFrag := strings.CutPrefix(ref, "#")
	if isFrag && (frag == "" || strings.HasPrefix(frag, "/")) {
		return v.root.Resolve(ref)
	}
	var found *jsonvalue.Value
	var search func(s *jsonvalue.Value, depth int)
	search = func(s *jsonvalue.Value, depth int) {
		if s == nil || found != nil || depth > 100 {
			return
		}
		switch s.Kind {
		case jsonvalue.Object:
			for _, m := range s.Members {
				if m.Value.Kind == jsonvalue.String && (isFrag && (m.Key == "$anchor" || m.Key == "$dynamicAnchor") && m.Value.Str == frag ||
					m.Key == "$id" && (m.Value.Str == ref || strings.HasSuffix(m.Value.Str, "/"+ref))) {
					found = s
					return
				}
			}
			for _, m := range s.Members {
				search(m.Value, depth+1)
			}
		case jsonvalue.Array:
			for _, e := range s.Elems {
				search(e, depth+1)
			}
		}
	}
	search(v.root, 0)
	return found
}

// child returns the subschemas of r that apply to the member or element st.
func child(r Reach, st Step) []Reach {
	s := r.Schema
	if s == nil || s.Kind != jsonvalue.Object {
		return nil
	}
	if st.Index < 0 {
		return member(r, st.Key)
	}
	return element(r, st.Index)
}

// member returns the subschemas of r that apply to its member key.
func member(r Reach, key string) []Reach {
	s := r.Schema
	var out []Reach
	matched := false
	if p := s.Member("properties").Member(key); p != nil {
		out, matched = append(out, r.under(p, "properties")), true
	}
	if pp := s.Member("patternProperties"); pp != nil && pp.Kind == jsonvalue.Object {
		for _, m := range pp.Members {
			if patternMatches(m.Key, key) {
				out, matched = append(out, r.by(m.Value, "patternProperties")), true
			}
		}
	}
	if ap := s.Member("additionalProperties"); ap != nil && !matched {
		out = append(out, r.by(ap, "additionalProperties"))
	}
	return out
}

// element returns the subschemas of r that apply to its element i.
func element(r Reach, i int) []Reach {
	s := r.Schema
	items := s.Member("items")
	if pi := s.Member("prefixItems"); pi != nil && pi.Kind == jsonvalue.Array {
		if i < len(pi.Elems) {
			return []Reach{r.by(pi.Elems[i], "prefixItems")}
		}
		if items != nil {
			return []Reach{r.under(items, "items")}
		}
		return nil
	}
	if items != nil && items.Kind == jsonvalue.Array {
		if i < len(items.Elems) {
			return []Reach{{items.Elems[i], with(r.Via, "items"), with(r.Route, "items[]")}}
		}
		if ai := s.Member("additionalItems"); ai != nil {
			return []Reach{r.by(ai, "additionalItems")}
		}
		return nil
	}
	if items != nil {
		return []Reach{r.under(items, "items")}
	}
	return nil
}

// patternBudget bounds the steps of one pattern match.
const patternBudget = 1 << 16

// patternMatches reports whether the ECMA-262 pattern src, as
// patternProperties reads it, matches key; a pattern that does not compile
// or runs out of its budget matches nothing.
func patternMatches(src, key string) bool {
	re, err := ecma.Compile(src)
	if err != nil {
		return false
	}
	budget := int64(patternBudget)
	ok, err := re.Match(key, &budget)
	return err == nil && ok
}
