package schemaview

import (
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// MaxWalkDepth is how deeply Walk goes into a document, counting every
// level of its JSON; what lies deeper is not visited.
const MaxWalkDepth = 1000

// Walk calls f on every object in a schema position of the schema
// document doc, an object before what it holds: the values of keywords,
// the members of properties, patternProperties, $defs, definitions,
// dependentSchemas and dependencies (their names are no keywords), the
// elements of an array (allOf, a list of items); never inside const,
// enum, default or examples, which hold data. root is true for the
// document's root. f may change the members of the object it is given;
// Walk walks them as f leaves them.
func Walk(doc *jsonvalue.Value, f func(s *jsonvalue.Value, root bool)) {
	var walk func(v *jsonvalue.Value, names bool, depth int)
	walk = func(v *jsonvalue.Value, names bool, depth int) {
		if v == nil || depth > MaxWalkDepth {
			return
		}
		switch v.Kind {
		case jsonvalue.Object:
			if !names {
				f(v, depth == 0)
			}
			for _, m := range v.Members {
				switch {
				case names:
					walk(m.Value, false, depth+1)
				case m.Key == "const" || m.Key == "enum" || m.Key == "default" || m.Key == "examples":
				default:
					walk(m.Value, namesSchemas[m.Key], depth+1)
				}
			}
		case jsonvalue.Array:
			for _, e := range v.Elems {
				walk(e, false, depth+1)
			}
		}
	}
	walk(doc, false, 0)
}

// namesSchemas are the keywords whose value maps names to subschemas.
var namesSchemas = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true}

// Notable are the keywords that shape what a position declares beyond
// `type`, `properties` and `items`, in the order Keywords names them:
// the ones an implementation most often does not follow first.
var Notable = []string{"$dynamicRef", "$recursiveRef", "$ref", "$schema", "patternProperties", "additionalProperties",
	"prefixItems", "additionalItems", "allOf", "anyOf", "oneOf", "if", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems", "not"}

// Keywords are the Notable keywords the schema holds in schema positions
// (not a property's name, not inside const or enum), in Notable's order;
// none when it does not parse.
func Keywords(schema []byte) []string {
	v, err := jsonvalue.Parse(schema)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	Walk(v, func(s *jsonvalue.Value, _ bool) {
		for _, m := range s.Members {
			seen[m.Key] = true
		}
	})
	var out []string
	for _, k := range Notable {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// RefCycle reports whether the schema's local references make a cycle: a
// `$ref` inside the value another `$ref` names that leads, through
// further ones, back to a value on the way. False when it does not parse.
func RefCycle(schema []byte) bool {
	root, err := jsonvalue.Parse(schema)
	if err != nil {
		return false
	}
	const (
		unseen = iota
		onPath
		done
	)
	state := map[*jsonvalue.Value]int{}
	var cyclic func(t *jsonvalue.Value) bool
	cyclic = func(t *jsonvalue.Value) bool {
		switch state[t] {
		case onPath:
			return true
		case done:
			return false
		}
		state[t] = onPath
		for _, n := range refsIn(root, t) {
			if cyclic(n) {
				return true
			}
		}
		state[t] = done
		return false
	}
	for _, t := range refsIn(root, root) {
		if cyclic(t) {
			return true
		}
	}
	return false
}

// refsIn are the values of root that the `$ref`s inside v name.
func refsIn(root, v *jsonvalue.Value) []*jsonvalue.Value {
	var out []*jsonvalue.Value
	var walk func(v *jsonvalue.Value, depth int)
	walk = func(v *jsonvalue.Value, depth int) {
		if depth > 200 {
			return
		}
		if r := v.Member("$ref"); r != nil && r.Kind == jsonvalue.String {
			if t := root.Resolve(r.Str); t != nil {
				out = append(out, t)
			}
		}
		for _, m := range v.Members {
			walk(m.Value, depth+1)
		}
		for _, e := range v.Elems {
			walk(e, depth+1)
		}
	}
	walk(v, 0)
	return out
}
