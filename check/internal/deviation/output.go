package deviation

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/schemaview"
	"github.com/toolnorm/toolnorm/normalize"
)

// A post rewrites the output after the repairs: how a deviation changes
// what the rule says must not change. It may fail, which gives an error
// answer.
type post func(x *stage) error

// stage is what an output rewrite works on.
type stage struct {
	ctx    context.Context
	schema []byte           // the schema the normalizer read
	args   *jsonvalue.Value // the arguments as sent
	out    *jsonvalue.Value // the output, rewritten in place
	o      impl.Options
}

// everyValue makes a post of f applied to every value of the output, an
// object before its members.
func everyValue(f func(v *jsonvalue.Value, x *stage) error) post {
	return func(x *stage) error {
		var walk func(v *jsonvalue.Value) error
		walk = func(v *jsonvalue.Value) error {
			if err := f(v, x); err != nil {
				return err
			}
			for _, e := range v.Elems {
				if err := walk(e); err != nil {
					return err
				}
			}
			for _, m := range v.Members {
				if err := walk(m.Value); err != nil {
					return err
				}
			}
			return nil
		}
		return walk(x.out)
	}
}

// decodeKeys decodes the references in object keys as the reference does
// in string values.
var decodeKeys = everyValue(func(v *jsonvalue.Value, x *stage) error {
	for i, m := range v.Members {
		v.Members[i].Key, _ = normalize.DecodeEntitiesWith(m.Key, x.o.Normalize()...)
	}
	return nil
})

// viaFloat64 reads numbers into a float64 and writes them back as
// encoding/json does, failing as it does on numbers past float64.
var viaFloat64 = everyValue(func(v *jsonvalue.Value, _ *stage) error {
	if v.Kind != jsonvalue.Number {
		return nil
	}
	f, err := strconv.ParseFloat(v.Number, 64)
	if err != nil {
		return fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", v.Number)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	v.Number = string(b)
	return nil
})

// fractionsViaFloat64 reads numbers with a fraction or an exponent into
// a float64, as Python's json module does, failing on one past float64
// (an infinity, which no answer can carry).
var fractionsViaFloat64 = everyValue(func(v *jsonvalue.Value, _ *stage) error {
	if v.Kind != jsonvalue.Number {
		return nil
	}
	return pythonLoad.number(v)
})

// objectsAsLists gives an object whose keys are "0", "1", ... in order
// (the empty object too) as the array of its values, as a PHP array
// decoded from JSON and encoded again is.
var objectsAsLists = everyValue(func(v *jsonvalue.Value, _ *stage) error {
	if v.Kind != jsonvalue.Object {
		return nil
	}
	elems := make([]*jsonvalue.Value, len(v.Members))
	for i, m := range v.Members {
		if m.Key != strconv.Itoa(i) {
			return nil
		}
		elems[i] = m.Value
	}
	*v = jsonvalue.Value{Kind: jsonvalue.Array, Elems: elems}
	return nil
})

// trimStrings trims the whitespace around string values: what
// Unicode calls White_Space, and what JavaScript's trim and Python's strip
// trim besides (the byte order mark; U+001C to U+001F).
var trimStrings = everyValue(func(v *jsonvalue.Value, _ *stage) error {
	if v.Kind == jsonvalue.String {
		v.Str = strings.TrimFunc(v.Str, trimmed)
	}
	return nil
})

// trimmed are the characters trimStrings trims.
func trimmed(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' || 0x1C <= r && r <= 0x1F }

// sortMembers orders members by key and keeps only the last of duplicates,
// as a round trip through a Go map or a Python dict with sort_keys does.
var sortMembers = everyValue(func(v *jsonvalue.Value, _ *stage) error {
	if v.Kind != jsonvalue.Object {
		return nil
	}
	collapse(v)
	slices.SortStableFunc(v.Members, func(a, b jsonvalue.Member) int { return cmp.Compare(a.Key, b.Key) })
	return nil
})

// collapseDuplicates keeps one member of each key, where its first was,
// with the value of its last: what a JavaScript object or a Python dict
// makes of duplicates.
var collapseDuplicates = everyValue(func(v *jsonvalue.Value, _ *stage) error {
	if v.Kind == jsonvalue.Object {
		collapse(v)
	}
	return nil
})

func collapse(v *jsonvalue.Value) {
	last := map[string]*jsonvalue.Value{}
	for _, m := range v.Members {
		last[m.Key] = m.Value
	}
	kept := v.Members[:0]
	for _, m := range v.Members {
		if val, ok := last[m.Key]; ok {
			kept = append(kept, jsonvalue.Member{Key: m.Key, Value: val})
			delete(last, m.Key)
		}
	}
	v.Members = kept
}

// integerKeysFirst orders members as a JavaScript object does: keys that
// are array indexes first, ascending, then the others as they came; and
// duplicates collapsed.
var integerKeysFirst = everyValue(func(v *jsonvalue.Value, _ *stage) error {
	if v.Kind != jsonvalue.Object {
		return nil
	}
	collapse(v)
	slices.SortStableFunc(v.Members, func(a, b jsonvalue.Member) int {
		ia, oka := arrayIndex(a.Key)
		ib, okb := arrayIndex(b.Key)
		switch {
		case oka && okb:
			return cmp.Compare(ia, ib)
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	return nil
})

// arrayIndex reports whether k is a canonical array index, 0 to 2^32-2.
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 1 && k[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 32)
	return n, err == nil && n < 1<<32-1
}

// surrogatesToFFFD replaces lone surrogates (kept as WTF-8, three bytes
// starting 0xED 0xA0-0xBF) in strings and keys with U+FFFD.
var surrogatesToFFFD = everyValue(func(v *jsonvalue.Value, _ *stage) error {
	fix := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); {
			if s[i] == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 {
				b.WriteRune(utf8.RuneError)
				i += 3
				continue
			}
			b.WriteByte(s[i])
			i++
		}
		return b.String()
	}
	v.Str = fix(v.Str)
	for i, m := range v.Members {
		v.Members[i].Key = fix(m.Key)
	}
	return nil
})

// dropNull leaves out the members whose value is null, in every object.
var dropNull = everyValue(func(v *jsonvalue.Value, _ *stage) error {
	v.Members = slices.DeleteFunc(v.Members, func(m jsonvalue.Member) bool { return m.Value.Kind == jsonvalue.Null })
	return nil
})

// dropProto leaves out every member named __proto__, as building an
// object by assignment in JavaScript does; with onRepair, only when a
// repair changed the arguments (an implementation that returns what it
// was given when nothing needs repair).
func dropProto(onRepair bool) post {
	drop := everyValue(func(v *jsonvalue.Value, _ *stage) error {
		v.Members = slices.DeleteFunc(v.Members, func(m jsonvalue.Member) bool { return m.Key == "__proto__" })
		return nil
	})
	return func(x *stage) error {
		if onRepair && jsonvalue.Equal(x.out, x.args) {
			return nil
		}
		return drop(x)
	}
}

// coerceScalars converts a string where the schema declares a number or
// an integer and the string is one (JSON's number text, or what strconv
// reads as a finite number), and "true" or "false" where it declares a
// boolean.
func coerceScalars(x *stage) error {
	strs := paths(x.out, func(v *jsonvalue.Value) bool { return v.Kind == jsonvalue.String })
	if len(strs) == 0 {
		return nil
	}
	for _, t := range []string{"number", "integer", "boolean"} {
		at, ok := declaredType(x, strs, t)
		if !ok {
			return nil
		}
		for i, p := range strs {
			v := atPath(x.out, p)
			if !at[i] || v.Kind != jsonvalue.String {
				continue
			}
			switch {
			case t == "boolean" && (v.Str == "true" || v.Str == "false"):
				*v = jsonvalue.Value{Kind: jsonvalue.Bool, Bool: v.Str == "true"}
			case t != "boolean":
				if n, ok := numberText(v.Str); ok {
					*v = jsonvalue.Value{Kind: jsonvalue.Number, Number: n}
				}
			}
		}
	}
	return nil
}

// numberText returns the JSON text of the number s holds, trimmed.
func numberText(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if v, err := jsonvalue.Parse([]byte(s)); err == nil && v.Kind == jsonvalue.Number {
		return v.Number, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || s == "" || strings.ContainsAny(s, "nN_") {
		return "", false
	}
	return strconv.FormatFloat(f, 'g', -1, 64), true
}

// wrapInArray puts a value that is not an array, where the schema
// declares one, into an array of one element: the arguments' own members
// first, then, level by level, what they hold (an element wrapped is
// looked at below as the array's first).
func wrapInArray(x *stage) error {
	level := [][]int{nil}
	for len(level) > 0 {
		var children [][]int
		for _, p := range level {
			v := atPath(x.out, p)
			for i := range max(len(v.Elems), len(v.Members)) {
				children = append(children, append(p[:len(p):len(p)], i))
			}
		}
		var others [][]int
		for _, p := range children {
			if atPath(x.out, p).Kind != jsonvalue.Array {
				others = append(others, p)
			}
		}
		if len(others) > 0 {
			at, ok := declaredType(x, others, "array")
			if !ok {
				return nil
			}
			for i, p := range others {
				if at[i] {
					v := atPath(x.out, p)
					inner := *v
					*v = jsonvalue.Value{Kind: jsonvalue.Array, Elems: []*jsonvalue.Value{&inner}}
				}
			}
		}
		level = children
	}
	return nil
}

// paths returns the paths, in document order, of the values below the
// root that keep says to keep. A kept value's children are not looked at.
func paths(root *jsonvalue.Value, keep func(v *jsonvalue.Value) bool) [][]int {
	var out [][]int
	var walk func(v *jsonvalue.Value, path []int)
	walk = func(v *jsonvalue.Value, path []int) {
		if len(path) > 0 && keep(v) {
			out = append(out, path)
			return
		}
		for i, e := range v.Elems {
			walk(e, append(path[:len(path):len(path)], i))
		}
		for i, m := range v.Members {
			walk(m.Value, append(path[:len(path):len(path)], i))
		}
	}
	walk(root, nil)
	return out
}

func atPath(v *jsonvalue.Value, path []int) *jsonvalue.Value { return at(v, path) }

// declaredType reports, for each of paths in the output, whether the
// schema declares the type name there, as the reference reads
// declarations: with the schema's types renamed (name to "array", every
// other to "null"), a position is declared name where the JSON repair
// would give an array.
func declaredType(x *stage, ps [][]int, name string) ([]bool, bool) {
	doc, err := jsonvalue.Parse(x.schema)
	if err != nil {
		return nil, false
	}
	rename := func(v *jsonvalue.Value) {
		if v.Kind == jsonvalue.String {
			if v.Str == name || name == "number" && v.Str == "integer" {
				v.Str = "array"
			} else {
				v.Str = "null"
			}
		}
	}
	everySchema(func(obj *jsonvalue.Value, _ bool) {
		for _, m := range obj.Members {
			if m.Key != "type" {
				continue
			}
			rename(m.Value)
			for _, e := range m.Value.Elems {
				rename(e)
			}
		}
	})(doc)
	return declared(x.ctx, doc.Append(nil), x.out, ps, jsonvalue.Array, x.o)
}

// A coercion converts a scalar to a scalar type the schema declares where
// its own type is not declared, as a validator's coercion does; to is
// the declared type, and the result is false where it converts nothing.
type coercion func(v *jsonvalue.Value, to string) (jsonvalue.Value, bool)

// coerceTypes converts each scalar of the output by c, to the first type
// of string, number, integer, boolean and null that the schema declares
// at its place, as the reference reads declarations, where its own type
// is not declared there.
func coerceTypes(c coercion) post {
	types := []string{"string", "number", "integer", "boolean", "null"}
	return func(x *stage) error {
		ps := paths(x.out, func(v *jsonvalue.Value) bool { return v.Kind != jsonvalue.Array && v.Kind != jsonvalue.Object })
		if len(ps) == 0 {
			return nil
		}
		at := map[string][]bool{}
		for _, t := range types {
			d, ok := declaredType(x, ps, t)
			if !ok {
				return nil
			}
			at[t] = d
		}
		for i, p := range ps {
			v := atPath(x.out, p)
			if at[typeName(v)][i] {
				continue
			}
			for _, t := range types {
				if !at[t][i] || t == "number" && at["integer"][i] { // declaredType reads "number" where "integer" is declared
					continue
				}
				if nv, ok := c(v, t); ok {
					*v = nv
					break
				}
			}
		}
		return nil
	}
}

// typeName is the JSON Schema type of a scalar; "number" for an integer
// too (declaredType reads "number" as declared where "integer" is).
func typeName(v *jsonvalue.Value) string {
	switch v.Kind {
	case jsonvalue.String:
		return "string"
	case jsonvalue.Number:
		return "number"
	case jsonvalue.Bool:
		return "boolean"
	}
	return "null"
}

// bothWays converts a string to the number or boolean it spells, and a
// number or boolean to its text, as JavaScript's String writes it.
func bothWays(v *jsonvalue.Value, to string) (jsonvalue.Value, bool) {
	switch {
	case v.Kind == jsonvalue.String && to != "string":
		return fromString(v.Str, to)
	case (v.Kind == jsonvalue.Number || v.Kind == jsonvalue.Bool) && to == "string":
		return jsonvalue.Value{Kind: jsonvalue.String, Str: jsString(v)}, true
	}
	return jsonvalue.Value{}, false
}

// ajvCoercion is ajv's coerceTypes table: to a string, a number, a
// boolean, and null as ""; to a number, a numeric string, a boolean as
// 1 or 0, null as 0; to a boolean, "true", "false", 1, 0 and null as
// false; to null, "", 0 and false.
func ajvCoercion(v *jsonvalue.Value, to string) (jsonvalue.Value, bool) {
	num := func(s string) jsonvalue.Value { return jsonvalue.Value{Kind: jsonvalue.Number, Number: s} }
	boolean := func(b bool) jsonvalue.Value { return jsonvalue.Value{Kind: jsonvalue.Bool, Bool: b} }
	switch {
	case v.Kind == jsonvalue.String && to != "null":
		return fromString(v.Str, to)
	case to == "string" && v.Kind == jsonvalue.Null:
		return jsonvalue.Value{Kind: jsonvalue.String}, true
	case to == "string":
		return jsonvalue.Value{Kind: jsonvalue.String, Str: jsString(v)}, true
	case (to == "number" || to == "integer") && v.Kind == jsonvalue.Bool:
		return num(map[bool]string{true: "1", false: "0"}[v.Bool]), true
	case (to == "number" || to == "integer") && v.Kind == jsonvalue.Null:
		return num("0"), true
	case to == "boolean" && v.Kind == jsonvalue.Null:
		return boolean(false), true
	case to == "boolean" && v.Kind == jsonvalue.Number && (v.Number == "0" || v.Number == "1"):
		return boolean(v.Number == "1"), true
	case to == "null" && (v.Kind == jsonvalue.String && v.Str == "" || v.Kind == jsonvalue.Number && isZero(v.Number) || v.Kind == jsonvalue.Bool && !v.Bool):
		return jsonvalue.Value{Kind: jsonvalue.Null}, true
	}
	return jsonvalue.Value{}, false
}

// fromString is the number, integer or boolean s spells, if it spells
// one.
func fromString(s, to string) (jsonvalue.Value, bool) {
	switch to {
	case "boolean":
		if s == "true" || s == "false" {
			return jsonvalue.Value{Kind: jsonvalue.Bool, Bool: s == "true"}, true
		}
	case "number", "integer":
		if n, ok := numberText(s); ok && (to == "number" || isIntegral(n)) {
			return jsonvalue.Value{Kind: jsonvalue.Number, Number: n}, true
		}
	}
	return jsonvalue.Value{}, false
}

// jsString is a number's or boolean's text as JavaScript's String writes
// it: the shortest digits that read back, an exponent from 1e21 and below
// 1e-6, no negative zero.
func jsString(v *jsonvalue.Value) string {
	if v.Kind == jsonvalue.Bool {
		return strconv.FormatBool(v.Bool)
	}
	f, err := strconv.ParseFloat(v.Number, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return v.Number
	}
	switch {
	case f == 0:
		return "0"
	case math.IsInf(f, 0):
		return map[bool]string{true: "Infinity", false: "-Infinity"}[f > 0]
	}
	b, _ := json.Marshal(f) // encoding/json writes a float64 as ECMAScript does
	return string(b)
}

func isZero(n string) bool {
	f, err := strconv.ParseFloat(n, 64)
	return err == nil && f == 0
}

func isIntegral(n string) bool {
	f, err := strconv.ParseFloat(n, 64)
	return err == nil && f == math.Trunc(f)
}

// InheritedNames are the members every JavaScript object inherits from
// Object.prototype whose value is a function (`key in value` finds them
// in any object).
var InheritedNames = []string{"constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf",
	"propertyIsEnumerable", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__"}

// inheritedCopied fails where an object of the output lacks a member that
// properties declares under one of InheritedNames, and the schemas that
// apply to that member hold an anyOf or oneOf with a branch that is not
// `"type": "null"` alone: a normalizer that asks `key in value` takes the
// member for sent, with the inherited function as its value, and tries
// the union's branches on a copy of it, which cannot be made
// (structuredClone refuses a function). With converted, a `type` there
// fails too: a validator after the repair refuses the function, and the
// conversion it tries then copies the arguments.
func inheritedCopied(converted bool) post {
	return func(x *stage) error {
		doc, err := jsonvalue.Parse(x.schema)
		if err != nil {
			return nil
		}
		view := schemaview.New(doc)
		var walk func(v *jsonvalue.Value, path []schemaview.Step) error
		walk = func(v *jsonvalue.Value, path []schemaview.Step) error {
			switch v.Kind {
			case jsonvalue.Array:
				for i, e := range v.Elems {
					if err := walk(e, append(slices.Clip(path), schemaview.Element(i))); err != nil {
						return err
					}
				}
			case jsonvalue.Object:
				if name, ok := inheritedDeclared(view, v, path, converted); ok {
					return errors.New("the declared member " + name + ", not sent, is read from the object's prototype, and its function cannot be copied")
				}
				for _, m := range v.Members {
					if err := walk(m.Value, append(slices.Clip(path), schemaview.Member(m.Key))); err != nil {
						return err
					}
				}
			}
			return nil
		}
		return walk(x.out, nil)
	}
}

// inheritedDeclared returns a name of InheritedNames that the properties
// applying at path declare, that the object v lacks, and whose schemas
// hold a union tried on a copy (or, with converted, a type).
func inheritedDeclared(view *schemaview.View, v *jsonvalue.Value, path []schemaview.Step, converted bool) (string, bool) {
	for _, r := range view.At(path) {
		props := r.Schema.Member("properties")
		if props == nil || props.Kind != jsonvalue.Object {
			continue
		}
		for _, name := range InheritedNames {
			if props.Member(name) == nil || v.Member(name) != nil {
				continue
			}
			for _, rr := range view.At(append(slices.Clip(path), schemaview.Member(name))) {
				if copiedUnion(rr.Schema) || converted && rr.Schema.Member("type") != nil {
					return name, true
				}
			}
		}
	}
	return "", false
}

// copiedUnion reports whether s holds an anyOf or oneOf one of whose
// branches is not `"type": "null"` alone: a branch tried on a copy.
func copiedUnion(s *jsonvalue.Value) bool {
	if s == nil || s.Kind != jsonvalue.Object {
		return false
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		u := s.Member(k)
		if u == nil || u.Kind != jsonvalue.Array {
			continue
		}
		for _, b := range u.Elems {
			t := b.Member("type")
			if b.Kind != jsonvalue.Object || t == nil || t.Kind != jsonvalue.String || t.Str != "null" {
				return true
			}
		}
	}
	return false
}
