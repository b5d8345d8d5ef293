package explain

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// skipping is an implementation that repairs as the reference does, but
// reads each schema object as drop leaves it: a keyword not read, in some
// company.
func skipping(name string, drop func(obj *jsonvalue.Value)) impl.Impl {
	return impl.Func(name, func(ctx context.Context, c impl.Case) impl.Result {
		schema, err := jsonvalue.Parse(c.Schema)
		if err != nil {
			return impl.Reference.Normalize(ctx, c)
		}
		var walk func(v *jsonvalue.Value)
		walk = func(v *jsonvalue.Value) {
			if v.Kind == jsonvalue.Object {
				drop(v)
			}
			for _, m := range v.Members {
				walk(m.Value)
			}
			for _, e := range v.Elems {
				walk(e)
			}
		}
		walk(schema)
		c.Schema = schema.Append(nil)
		return impl.Reference.Normalize(ctx, c)
	})
}

func has(v *jsonvalue.Value, key string) bool { return v.Member(key) != nil }

func without(v *jsonvalue.Value, key string) {
	v.Members = slices.DeleteFunc(v.Members, func(m jsonvalue.Member) bool { return m.Key == key })
}

var (
	// typeBesideAnyOf takes a union's branches for the whole declaration:
	// a `type` beside `anyOf` or `oneOf` is not read.
	typeBesideAnyOf = skipping("type beside anyOf", func(v *jsonvalue.Value) {
		if has(v, "anyOf") || has(v, "oneOf") {
			without(v, "type")
		}
	})
	// patternsBesideProperties looks a member up in properties, or else
	// in patternProperties: with both, the patterns are not read.
	patternsBesideProperties = skipping("patterns beside properties", func(v *jsonvalue.Value) {
		if has(v, "properties") {
			without(v, "patternProperties")
		}
	})
	// noJSON never decodes JSON text: a bug of the rule, not of a keyword.
	noJSON = impl.Func("no JSON repair", func(ctx context.Context, c impl.Case) impl.Result {
		c.Options.Repairs = normalize.EntityRepair
		return impl.Reference.Normalize(ctx, c)
	})
)

// TestKeywordNotRead: a keyword the implementation does not read is named
// as such, beside the keyword that makes it so, whatever class each case
// of it shows (a decoding missed, a string decoded); a keyword that is
// the only one of its object, or a bug that is no keyword's, is not
// claimed.
func TestKeywordNotRead(t *testing.T) {
	tests := []struct {
		name  string
		im    impl.Impl
		cases [][2]string // schema, arguments
		class string      // "": not a keyword's
		title string
	}{
		{"type beside anyOf", typeBesideAnyOf, [][2]string{
			{`{"properties":{"a":{"type":"array","anyOf":[{"type":"string"},{"type":"array"}]}}}`, `{"a":"[1]"}`},
		}, "not-read/type", "`type` is not read where `anyOf` is beside it"},
		// Three cases, three classes of what differs (a decoding missed,
		// a string decoded where the reference declares a string, where
		// it declares nothing), one bug.
		{"patterns beside properties", patternsBesideProperties, [][2]string{
			{`{"properties":{"a":{}},"patternProperties":{"^a":{"type":"array"}}}`, `{"a":"[1]"}`},
			{`{"properties":{"a":{"type":"array"}},"patternProperties":{"^a":{"type":"string"}}}`, `{"a":"[1]"}`},
			{`{"properties":{"a":{"type":"array"}},"patternProperties":{"^a":{"type":"boolean"}}}`, `{"a":"[2]"}`},
		}, "not-read/patternProperties", "`patternProperties` is not read where `properties` is beside it"},
		{"the only route", prefixRefSkipped, [][2]string{
			{`{"properties":{"a":{"prefixItems":[{"$ref":"#/$defs/o"}]}},"$defs":{"o":{"type":"object"}}}`, `{"a":["{}"]}`},
		}, "", ""},
		{"no JSON repair", noJSON, [][2]string{
			{`{"properties":{"a":{"type":"array"}}}`, `{"a":"[1]"}`},
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fs []Finding
			for i, sc := range tt.cases {
				c := impl.Case{Schema: []byte(sc[0]), Args: []byte(sc[1])}
				got, w := tt.im.Normalize(ctx, c), want(c)
				if impl.Compare(got, w).Same() {
					t.Fatalf("%s on %s: no difference to explain", tt.im.Name(), sc[1])
				}
				fs = append(fs, Finding{Source: Vector, ID: string(rune('a' + i)), Case: c, Want: w, Got: got, Clause: "rule/2"})
			}
			rcs := Explain(ctx, Config{Impl: tt.im, Want: want, Keep: func() bool { return true }}, fs)
			var classes []string
			for _, rc := range rcs {
				classes = append(classes, rc.Class)
				if err := CheckTitle(ctx, tt.im, want, rc); err != nil {
					t.Error(err)
				}
			}
			if tt.class == "" {
				for _, rc := range rcs {
					if strings.HasPrefix(rc.Class, "not-read/") {
						t.Errorf("%s claimed: %q", rc.Class, rc.Title)
					}
				}
				return
			}
			if len(rcs) != 1 || rcs[0].Class != tt.class || !strings.HasPrefix(rcs[0].Title, tt.title) || rcs[0].Count() != len(tt.cases) {
				t.Fatalf("root causes %v, want one %s of %d findings titled %q…; the first: %q", classes, tt.class, len(tt.cases), tt.title, rcs[0].Title)
			}
		})
	}
}

// TestCuts: each keyword of each schema object but one alone in its
// object is taken out, shallowest first; never a property's name or a
// member of data.
func TestCuts(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"enum":{"const":1,"type":"string"}},"enum":[{"x":1,"y":2}]}`
	var got []string
	for _, k := range cuts([]byte(schema)) {
		got = append(got, k.key+"@"+string(rune('0'+k.depth))+":"+string(k.schema))
	}
	want := []string{
		`type@0:{"properties":{"a":{"type":"array","items":{"type":"string"}},"enum":{"const":1,"type":"string"}},"enum":[{"x":1,"y":2}]}`,
		`properties@0:{"type":"object","enum":[{"x":1,"y":2}]}`,
		`enum@0:{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"enum":{"const":1,"type":"string"}}}`,
		`type@1:{"type":"object","properties":{"a":{"items":{"type":"string"}},"enum":{"const":1,"type":"string"}},"enum":[{"x":1,"y":2}]}`,
		`items@1:{"type":"object","properties":{"a":{"type":"array"},"enum":{"const":1,"type":"string"}},"enum":[{"x":1,"y":2}]}`,
		`const@1:{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"enum":{"type":"string"}},"enum":[{"x":1,"y":2}]}`,
		`type@1:{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}},"enum":{"const":1}},"enum":[{"x":1,"y":2}]}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("cuts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, bad := range []string{`[]`, `{`, `true`} {
		if k := cuts([]byte(bad)); k != nil {
			t.Errorf("cuts(%s) = %d cuts", bad, len(k))
		}
	}
}

// prefixRefSkipped skips a prefixItems entry that is only a $ref: a bug
// whose case, minimized, loses the schema's whole route to the member
// when `properties` is taken out, which gives the answer and proves
// nothing of `properties`.
var prefixRefSkipped = skipping("prefixItems' $ref entries skipped", func(v *jsonvalue.Value) {
	if p := v.Member("prefixItems"); p != nil && p.Kind == jsonvalue.Array {
		for i, e := range p.Elems {
			if e.Kind == jsonvalue.Object && len(e.Members) == 1 && e.Members[0].Key == "$ref" {
				p.Elems[i] = &jsonvalue.Value{Kind: jsonvalue.Object}
			}
		}
	}
})
