package schemaview

import (
	"slices"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// Types is the set of types a subschema's own "type" names.
func Types(s *jsonvalue.Value) []string {
	t := s.Member("type")
	switch {
	case t == nil:
		return nil
	case t.Kind == jsonvalue.String:
		return []string{t.Str}
	case t.Kind == jsonvalue.Array:
		var out []string
		for _, e := range t.Elems {
			if e.Kind == jsonvalue.String {
				out = append(out, e.Str)
			}
		}
		return out
	}
	return nil
}

// Declaring returns the first reach among rs whose own "type" names the
// type name, and whether there is one.
func Declaring(rs []Reach, name string) (Reach, bool) {
	for _, r := range rs {
		if slices.Contains(Types(r.Schema), name) {
			return r, true
		}
	}
	return Reach{}, false
}

// Shaping returns the reach among rs that makes the position declare
// type name and not string, as the rule needs to decode: the first that
// names name and not string (the reaches at a position intersect, so its
// keyword is what narrows a `type` list that admits a string, as a
// matching pattern does beside `properties`), else the first that names
// name; and whether there is one.
func Shaping(rs []Reach, name string) (Reach, bool) {
	for _, r := range rs {
		if ts := Types(r.Schema); slices.Contains(ts, name) && !slices.Contains(ts, "string") {
			return r, true
		}
	}
	return Declaring(rs, name)
}

// AnyBranch reports whether a branch of anyOf or oneOf among rs admits
// any type: true, or a schema with no type, no combinator and no value
// constraint (reached directly or through a reference).
func AnyBranch(rs []Reach) bool {
	for _, r := range rs {
		via := r.Via
		for len(via) > 0 && via[len(via)-1] == "$ref" {
			via = via[:len(via)-1]
		}
		if len(via) == 0 || r.Schema == nil || via[len(via)-1] != "anyOf" && via[len(via)-1] != "oneOf" {
			continue
		}
		if r.Schema.Kind == jsonvalue.Bool && r.Schema.Bool {
			return true
		}
		if r.Schema.Kind != jsonvalue.Object {
			continue
		}
		free := true
		for _, kw := range []string{"type", "$ref", "$dynamicRef", "anyOf", "oneOf", "allOf", "not", "const", "enum"} {
			if r.Schema.Member(kw) != nil {
				free = false
			}
		}
		if free {
			return true
		}
	}
	return false
}
