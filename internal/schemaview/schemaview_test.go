package schemaview_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/schemaview"
)

func parse(t *testing.T, s string) *jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestAt: the subschemas that apply at a place, each with the way that
// reaches it from its first keyword: through references (a pointer, an
// anchor, an $id), combinators, the branches of if, patterns, lists of
// items; none past what the schema declares.
func TestAt(t *testing.T) {
	for _, tt := range []struct {
		schema string
		path   []schemaview.Step
		types  []string // the type each reach names, "-" for none
		ways   []string
	}{
		{`{"type":"object"}`, nil, []string{"object"}, []string{""}},
		{`{"properties":{"p":{"type":"array"}}}`, []schemaview.Step{schemaview.Member("p")}, []string{"array"}, []string{""}},
		{`{"properties":{"p":{"items":{"type":"string"}}}}`, []schemaview.Step{schemaview.Member("p"), schemaview.Element(3)}, []string{"string"}, []string{""}},
		{`{"$defs":{"l":{"type":"array"}},"properties":{"p":{"$ref":"#/$defs/l"}}}`, []schemaview.Step{schemaview.Member("p")}, []string{"-", "array"}, []string{"", "$ref"}},
		{`{"$defs":{"l":{"$anchor":"l","type":"array"}},"properties":{"p":{"$ref":"#l"}}}`, []schemaview.Step{schemaview.Member("p")}, []string{"-", "array"}, []string{"", "$ref"}},
		{`{"anyOf":[{"properties":{"p":{"type":"array"}}}]}`, []schemaview.Step{schemaview.Member("p")}, []string{"array"}, []string{"anyOf/properties"}},
		{`{"if":true,"then":{"type":"array"}}`, nil, []string{"-", "array"}, []string{"", "if"}},
		{`{"patternProperties":{"^a":{"type":"array"}},"additionalProperties":{"type":"object"}}`, []schemaview.Step{schemaview.Member("ab")}, []string{"array"}, []string{"patternProperties"}},
		{`{"patternProperties":{"^a":{"type":"array"}},"additionalProperties":{"type":"object"}}`, []schemaview.Step{schemaview.Member("b")}, []string{"object"}, []string{"additionalProperties"}},
		{`{"items":[{"type":"array"}],"additionalItems":{"type":"object"}}`, []schemaview.Step{schemaview.Element(0)}, []string{"array"}, []string{"items[]"}},
		{`{"items":[{"type":"array"}],"additionalItems":{"type":"object"}}`, []schemaview.Step{schemaview.Element(1)}, []string{"object"}, []string{"additionalItems"}},
		{`{"prefixItems":[{"type":"array"}],"items":{"type":"object"}}`, []schemaview.Step{schemaview.Element(1)}, []string{"object"}, []string{""}},
		{`{"properties":{"p":{}}}`, []schemaview.Step{schemaview.Member("q")}, nil, nil},
		// A cycle ends.
		{`{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, nil, nil, nil},
	} {
		rs := schemaview.New(parse(t, tt.schema)).At(tt.path)
		var types, ways []string
		for _, r := range rs {
			ts := schemaview.Types(r.Schema)
			if len(ts) == 0 {
				if tt.types == nil {
					continue // the cycle's: how many is the bound's
				}
				ts = []string{"-"}
			}
			types, ways = append(types, strings.Join(ts, ",")), append(ways, r.Way())
		}
		if !slices.Equal(types, tt.types) || !slices.Equal(ways, tt.ways) {
			t.Errorf("At(%s, %s): types %q, ways %q; want %q, %q", tt.schema, schemaview.Pointer(tt.path), types, ways, tt.types, tt.ways)
		}
	}
}

// TestShaping: of the subschemas at a place, the one that narrows a type
// list that admits a string to the shape.
func TestShaping(t *testing.T) {
	v := schemaview.New(parse(t, `{"properties":{"p":{"type":["string","array"]}},"patternProperties":{"p":{"type":"array"}}}`))
	rs := v.At([]schemaview.Step{schemaview.Member("p")})
	if d, ok := schemaview.Declaring(rs, "array"); !ok || len(d.Via) != 0 {
		t.Errorf("Declaring: %v via %v, want the type list", ok, d.Via)
	}
	if s, ok := schemaview.Shaping(rs, "array"); !ok || !slices.Equal(s.Via, []string{"patternProperties"}) {
		t.Errorf("Shaping: %v via %v, want the pattern", ok, s.Via)
	}
}

// TestWalk: every object in a schema position, the root first and said
// to be the root, never data, and what the function leaves walked.
func TestWalk(t *testing.T) {
	doc := parse(t, `{"properties":{"const":{"type":"string","enum":[{"x":1}]}},"allOf":[{"a":1},{"b":{}}],"default":{"d":1},"$defs":{"properties":{"c":1}}}`)
	var seen []string
	schemaview.Walk(doc, func(s *jsonvalue.Value, root bool) {
		if root {
			seen = append(seen, "root")
			s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "$defs" })
			return
		}
		seen = append(seen, string(s.Append(nil)))
	})
	want := []string{"root", `{"type":"string","enum":[{"x":1}]}`, `{"a":1}`, `{"b":{}}`, `{}`}
	if !slices.Equal(seen, want) {
		t.Errorf("walked %q, want %q", seen, want)
	}
}

func TestKeywords(t *testing.T) {
	for _, tt := range []struct {
		schema string
		want   []string
	}{
		{`{"anyOf":[{"$ref":"#"}],"properties":{"allOf":{}}}`, []string{"$ref", "anyOf"}},
		{`{"enum":[{"$ref":"x"}]}`, nil},
		{`{`, nil},
	} {
		if got := schemaview.Keywords([]byte(tt.schema)); !slices.Equal(got, tt.want) {
			t.Errorf("Keywords(%s) = %q, want %q", tt.schema, got, tt.want)
		}
	}
}

func TestRefCycle(t *testing.T) {
	for _, tt := range []struct {
		schema string
		want   bool
	}{
		{`{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/a"}]}},"properties":{"":{"$ref":"#/$defs/a"}}}`, true},
		{`{"$defs":{"a":{"items":{"$ref":"#/$defs/b"}},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, true},
		{`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{}},"$ref":"#/$defs/a"}`, false},
		{`{`, false},
	} {
		if got := schemaview.RefCycle([]byte(tt.schema)); got != tt.want {
			t.Errorf("RefCycle(%s) = %v, want %v", tt.schema, got, tt.want)
		}
	}
}

// TestDeclares: what a subschema at a JSON Pointer into the arguments
// declares; a string admitted by a branch of any type too.
func TestDeclares(t *testing.T) {
	const schema = `{"properties":{"p":{"anyOf":[{"type":"array"},{}]},"q":{"type":"object"},"l":{"items":{"type":"string"}}}}`
	args := []byte(`{"p":"[]","q":"{}","l":["a"]}`)
	for _, tt := range []struct {
		where, name string
		declares    bool
		str         bool
	}{
		{"/p", "array", true, true},
		{"/q", "object", true, false},
		{"/q", "array", false, false},
		{"/l/0", "string", true, true},
		{"/x", "array", false, false},
	} {
		if got := schemaview.Declares([]byte(schema), args, tt.where, tt.name); got != tt.declares {
			t.Errorf("Declares(%s, %q) = %v, want %v", tt.where, tt.name, got, tt.declares)
		}
		if got := schemaview.DeclaresString([]byte(schema), args, tt.where); got != tt.str {
			t.Errorf("DeclaresString(%s) = %v, want %v", tt.where, got, tt.str)
		}
	}
}

// TestStringed: the subschemas that declare the shape at a place, found
// through properties, patterns, items and references as a decode there
// follows them, declare "string" instead; none, no schema.
func TestStringed(t *testing.T) {
	for _, tt := range []struct{ schema, args, where, want string }{
		{`{"patternProperties":{"":{"type":"array"}}}`, `{"":"[]"}`, "/", `{"patternProperties":{"":{"type":"string"}}}`},
		{`{"$defs":{"l":{"type":"array"}},"properties":{"p":{"$ref":"#/$defs/l"}}}`, `{"p":"[]"}`, "/p", `{"$defs":{"l":{"type":"string"}},"properties":{"p":{"$ref":"#/$defs/l"}}}`},
		{`{"properties":{"l":{"items":{"type":"object"}}}}`, `{"l":["{}"]}`, "/l/0", `{"properties":{"l":{"items":{"type":"string"}}}}`},
		{`{"properties":{"p":{"type":"integer"}}}`, `{"p":"[]"}`, "/p", ""},
	} {
		got, ok := schemaview.Stringed([]byte(tt.schema), []byte(tt.args), tt.where, map[bool]string{true: "object", false: "array"}[strings.Contains(tt.where, "/0")])
		if string(got) != tt.want || ok != (tt.want != "") {
			t.Errorf("Stringed(%s, %s, %q) = %s, %v; want %s", tt.schema, tt.args, tt.where, got, ok, tt.want)
		}
	}
}

// TestWithoutAt: the keywords are taken out of the subschemas that apply
// at the place (through references and combinators too), not of those on
// the way to it, and named in the order asked.
func TestWithoutAt(t *testing.T) {
	kws := []string{"items", "properties"}
	for _, tt := range []struct {
		schema, args, where, want string
		taken                     []string
	}{
		{`{"properties":{"p":{"description":"a list","items":{}}}}`, `{"p":"[1]"}`, "/p", `{"properties":{"p":{"description":"a list"}}}`, []string{"items"}},
		{`{"properties":{"p":{"properties":{},"allOf":[{"items":{}}]}}}`, `{"p":"[1]"}`, "/p", `{"properties":{"p":{"allOf":[{}]}}}`, []string{"items", "properties"}},
		{`{"$defs":{"l":{"items":{}}},"properties":{"p":{"$ref":"#/$defs/l"}}}`, `{"p":"[]"}`, "/p", `{"$defs":{"l":{}},"properties":{"p":{"$ref":"#/$defs/l"}}}`, []string{"items"}},
		// On the way only: the root's properties stay.
		{`{"properties":{}}`, `{"q":"0"}`, "/q", `{"properties":{}}`, nil},
		{`{"properties":{"p":{"items":{}}}}`, `{"p":"[1]"}`, "/x", `{"properties":{"p":{"items":{}}}}`, nil},
		{`{`, `{"p":"[1]"}`, "/p", `{`, nil},
	} {
		got, taken := schemaview.WithoutAt([]byte(tt.schema), []byte(tt.args), tt.where, kws)
		if string(got) != tt.want || !slices.Equal(taken, tt.taken) {
			t.Errorf("WithoutAt(%s, %s, %q) = %s, %q; want %s, %q", tt.schema, tt.args, tt.where, got, taken, tt.want, tt.taken)
		}
	}
}
