package fuzz

import (
	"fmt"
	"strings"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// Shape is what FuzzStructured has the fuzzer fill (with randfill): a
// tool's parameters, each a schema tree and the choices that make a value
// for it. Render turns it into a schema and arguments that fit it, so that
// the fuzzer explores schemas and stringified values together instead of
// bytes that rarely parse.
type Shape struct {
	Params    []Param
	Attribute bool
	Bound     uint8
}

// Param is one parameter: its key, schema and value.
type Param struct {
	Key    uint8
	Schema Schema
	Value  Value
}

// Schema is a schema tree.
type Schema struct {
	Kind     uint8 // leaf, array, object
	Types    uint8 // for leaves: a bit set over leafTypes
	Nullable bool
	Wrap     uint8 // none, $ref, allOf, anyOf with null, anyOf with string
	Items    *Schema
	Props    []Prop
}

// Prop is one property of an object schema.
type Prop struct {
	Key    uint8
	Schema Schema
}

// Value says how to make a value for a schema.
type Value struct {
	Kind   uint8 // as declared, its JSON in a string, text
	Text   string
	Escape uint8 // how many times the string's text is HTML-escaped
	Pad    bool
	Elems  []Value
}

var (
	shapeKeys = []string{"title", "tags", "ops", "filter", "q", "&amp;", "k&lt;", ""}
	leafTypes = []string{"string", "number", "integer", "boolean", "null", "array", "object"}
	texts     = []string{"Ember &amp;amp; Oak", "&l&#116;;", "?a=1&region=eu&not=2", "&#4294967356;", "[&quot;a&quot;]", "&amp;notin&#59;", "12345678901234567890"}
)

// Render returns the schema and the arguments the shape describes.
func (s *Shape) Render() (schema, args []byte) {
	var props, defs []string
	obj := &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}}
	for i, p := range s.Params {
		if i >= 6 {
			break
		}
		key := shapeKeys[int(p.Key)%len(shapeKeys)]
		props = append(props, string(quoteString(key))+":"+p.Schema.render(&defs, 0))
		obj.Members = append(obj.Members, jsonvalue.Member{Key: key, Value: p.Value.make(&p.Schema, 0)})
	}
	doc := `{"type":"object","properties":{` + strings.Join(props, ",") + `}`
	if len(defs) > 0 {
		doc += `,"$defs":{` + strings.Join(defs, ",") + `}`
	}
	return []byte(doc + "}"), obj.Append(nil)
}

func quoteString(s string) []byte {
	return (&jsonvalue.Value{Kind: jsonvalue.String, Str: s}).Append(nil)
}

func (s *Schema) render(defs *[]string, depth int) string {
	var core string
	switch {
	case s.Kind%3 == 1 && depth < 5:
		items := `{}`
		if s.Items != nil {
			items = s.Items.render(defs, depth+1)
		}
		core = `{"type":` + s.typeJSON("array") + `,"items":` + items + `}`
	case s.Kind%3 == 2 && depth < 5:
		var members []string
		for i, p := range s.Props {
			if i < 4 {
				members = append(members, string(quoteString(shapeKeys[int(p.Key)%len(shapeKeys)]))+":"+p.Schema.render(defs, depth+1))
			}
		}
		core = `{"type":` + s.typeJSON("object") + `,"properties":{` + strings.Join(members, ",") + `}}`
	default:
		var types []string
		for i, t := range leafTypes {
			if s.Types&(1<<i) != 0 {
				types = append(types, `"`+t+`"`)
			}
		}
		switch len(types) {
		case 0:
			core = `{}`
		case 1:
			core = `{"type":` + types[0] + `}`
		default:
			core = `{"type":[` + strings.Join(types, ",") + `]}`
		}
	}
	if s.Nullable && strings.HasPrefix(core, `{"type"`) {
		core = core[:len(core)-1] + `,"nullable":true}`
	}
	switch s.Wrap % 5 {
	case 1:
		name := fmt.Sprintf("d%d", len(*defs))
		*defs = append(*defs, fmt.Sprintf("%q:%s", name, core))
		return `{"$ref":"#/$defs/` + name + `"}`
	case 2:
		return `{"allOf":[` + core + `,{"description":"x"}]}`
	case 3:
		return `{"anyOf":[` + core + `,{"type":"null"}]}`
	case 4:
		return `{"anyOf":[` + core + `,{"type":"string"}]}`
	}
	return core
}

func (s *Schema) typeJSON(t string) string {
	if s.Types&1 != 0 {
		return `["` + t + `","null"]`
	}
	return `"` + t + `"`
}

// make makes the value v describes for schema s.
func (v *Value) make(s *Schema, depth int) *jsonvalue.Value {
	switch v.Kind % 4 {
	case 1: // the JSON of a value for s, in a string
		if depth < 4 {
			inner := Value{Kind: 0, Text: v.Text, Elems: v.Elems}
			text := string(inner.make(s, depth+1).Append(nil))
			if v.Pad {
				text = " " + text + "\n"
			}
			return &jsonvalue.Value{Kind: jsonvalue.String, Str: escapeHTML(text, int(v.Escape%3))}
		}
	case 2: // text
		t := v.Text
		if len(v.Elems) > 0 {
			t = texts[len(v.Elems)%len(texts)] + t
		}
		return &jsonvalue.Value{Kind: jsonvalue.String, Str: escapeHTML(t, int(v.Escape%3))}
	case 3:
		return &jsonvalue.Value{Kind: jsonvalue.Number, Number: []string{"1.0", "12345678901234567890", "1e400", "-0"}[int(v.Escape)%4]}
	}
	switch {
	case s.Kind%3 == 1 && depth < 6:
		arr := &jsonvalue.Value{Kind: jsonvalue.Array, Elems: []*jsonvalue.Value{}}
		items := s.Items
		if items == nil {
			items = &Schema{}
		}
		for i := range v.Elems {
			if i < 4 {
				arr.Elems = append(arr.Elems, v.Elems[i].make(items, depth+1))
			}
		}
		return arr
	case s.Kind%3 == 2 && depth < 6:
		obj := &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}}
		for i, p := range s.Props {
			if i < 4 && i < len(v.Elems) {
				obj.Members = append(obj.Members, jsonvalue.Member{Key: shapeKeys[int(p.Key)%len(shapeKeys)], Value: v.Elems[i].make(&p.Schema, depth+1)})
			}
		}
		return obj
	}
	return &jsonvalue.Value{Kind: jsonvalue.String, Str: v.Text}
}

func escapeHTML(s string, times int) string {
	for range times {
		s = htmlEscaper.Replace(s)
	}
	return s
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;")
