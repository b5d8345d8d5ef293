package schemaview

import (
	"slices"
	"strconv"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// Locate parses schema and args, and returns a view of the schema and
// the steps to where, a JSON Pointer into args; false when either does
// not parse, or args hold nothing at where.
func Locate(schema, args []byte, where string) (*View, []Step, bool) {
	root, err := jsonvalue.Parse(schema)
	if err != nil {
		return nil, nil, false
	}
	v, err := jsonvalue.Parse(args)
	if err != nil {
		return nil, nil, false
	}
	var path []Step
	for _, tok := range jsonvalue.PointerTokens(where) {
		st := Member(tok)
		if v.Kind == jsonvalue.Array {
			i, _ := strconv.Atoi(tok) // Step below checks it
			st = Element(i)
		}
		if v = v.Step(tok); v == nil {
			return nil, nil, false
		}
		path = append(path, st)
	}
	return New(root), path, true
}

// DeclaresString reports whether schema lets the value at where, a JSON
// Pointer into args, be a string, as this reading names a string decoded
// where one is declared: a subschema that applies there names `string`,
// or a branch of anyOf or oneOf there admits any type. False when schema
// or args do not parse, or args hold nothing at where.
func DeclaresString(schema, args []byte, where string) bool {
	v, path, ok := Locate(schema, args, where)
	if !ok {
		return false
	}
	rs := v.At(path)
	_, str := Declaring(rs, "string")
	return str || AnyBranch(rs)
}

// Declares reports whether a subschema that applies at where, a JSON
// Pointer into args, names the type name ("array", "object") in its
// `type`, as this reading names a wrong shape substituted. False when
// schema or args do not parse, or args hold nothing at where.
func Declares(schema, args []byte, where, name string) bool {
	v, path, ok := Locate(schema, args, where)
	if !ok {
		return false
	}
	_, ok = Declaring(v.At(path), name)
	return ok
}

// Stringed is schema with each subschema that declares shape ("array",
// "object") at where, a JSON Pointer into args, declaring "string" in
// its place: where the keyword that reaches it is followed, the string
// there is then kept. It reports false when no subschema declares the
// shape there, or schema or args do not parse.
func Stringed(schema, args []byte, where, shape string) ([]byte, bool) {
	v, path, ok := Locate(schema, args, where)
	if !ok {
		return nil, false
	}
	changed := false
	for _, r := range v.At(path) {
		if t := r.Schema.Member("type"); t != nil && slices.Contains(Types(r.Schema), shape) {
			*t, changed = jsonvalue.Value{Kind: jsonvalue.String, Str: "string"}, true
		}
	}
	if !changed {
		return nil, false
	}
	return v.root.Append(nil), true
}

// WithoutAt is schema with the keywords kws taken out of each subschema
// that applies at where, a JSON Pointer into args (the subschemas its
// references and combinators reach there too), and the keywords of kws
// it took out, in the order of kws. It takes out nothing, and returns
// none, when schema or args do not parse, or args hold nothing at where.
func WithoutAt(schema, args []byte, where string, kws []string) ([]byte, []string) {
	v, path, ok := Locate(schema, args, where)
	if !ok {
		return schema, nil
	}
	var taken []string
	for _, r := range v.At(path) {
		if r.Schema == nil || r.Schema.Kind != jsonvalue.Object {
			continue
		}
		r.Schema.Members = slices.DeleteFunc(r.Schema.Members, func(m jsonvalue.Member) bool {
			if !slices.Contains(kws, m.Key) {
				return false
			}
			if !slices.Contains(taken, m.Key) {
				taken = append(taken, m.Key)
			}
			return true
		})
	}
	if len(taken) == 0 {
		return schema, nil
	}
	slices.SortStableFunc(taken, func(a, b string) int { return slices.Index(kws, a) - slices.Index(kws, b) })
	return v.root.Append(nil), taken
}
