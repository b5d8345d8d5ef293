package normalize

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name, schema string
		want         string // the whole message
	}{
		{"not-json", `{"type":`, `normalize: invalid schema: not JSON: unexpected EOF (offset 8)`},
		{"trailing-data", `{} []`, `normalize: invalid schema: not JSON: data after the schema (offset 3)`},
		{"invalid-utf8", "{\"\xff\":{}}", `normalize: invalid schema: not JSON: invalid UTF-8 (offset 2)`},
		{"trailing-garbage", "{}A", `normalize: invalid schema: not JSON: data after the schema (offset 2)`},
		{"not-a-schema", `[]`, `normalize: invalid schema: a schema must be an object or a boolean, not an array at (root)`},
		{"unknown-type", `{"properties":{"a":{"type":"lisst"}}}`, `normalize: invalid schema: unknown type "lisst" at /properties/a/type`},
		{"type-not-string", `{"type":["array",1]}`, `normalize: invalid schema: a type must be a string, not a number at /type/1`},
		{"nullable-not-bool", `{"type":"array","nullable":"yes"}`, `normalize: invalid schema: nullable must be a boolean, not a string at /nullable`},
		{"properties-not-object", `{"properties":[]}`, `normalize: invalid schema: properties must be an object, not an array at /properties`},
		{"allof-not-array", `{"allOf":{}}`, `normalize: invalid schema: allOf must be an array, not an object at /allOf`},
		{"sub-schema-number", `{"items":3}`, `normalize: invalid schema: a schema must be an object or a boolean, not a number at /items`},
		{"ref-remote", `{"$ref":"other.json#/x"}`, `normalize: invalid schema: $ref "other.json#/x" does not resolve: other.json is another document, and none was supplied for it (WithDocuments, WithLoader; --ref-doc) at /$ref`},
		{"ref-remote-absolute", `{"$id":"http://x.test/a/root","properties":{"p":{"$ref":"b#/y"}}}`, `normalize: invalid schema: $ref "b#/y" does not resolve: http://x.test/a/b is another document, and none was supplied for it (WithDocuments, WithLoader; --ref-doc) at /properties/p/$ref`},
		{"anchor-missing", `{"$defs":{"a":{"$anchor":"foo"}},"$ref":"#bar"}`, `normalize: invalid schema: $ref "#bar" does not resolve: no anchor "bar" in the schema at /$ref`},
		{"anchor-in-other-resource", `{"$defs":{"a":{"$id":"http://x.test/a","$anchor":"foo"}},"$ref":"#foo"}`, `normalize: invalid schema: $ref "#foo" does not resolve: no anchor "foo" in the schema at /$ref`},
		{"pointer-in-resource", `{"$defs":{"x":{"type":"array"},"a":{"$id":"http://x.test/a","$ref":"#/$defs/x"}}}`, `normalize: invalid schema: $ref "#/$defs/x" does not resolve: no member "$defs" at /$defs/a/$ref`},
		{"dynamic-ref-dangling", `{"$dynamicRef":"#nope"}`, `normalize: invalid schema: $dynamicRef "#nope" does not resolve: no anchor "nope" in the schema at /$dynamicRef`},
		{"recursive-ref-not-string", `{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveRef":true}`, `normalize: invalid schema: $recursiveRef must be a string, not a boolean at /$recursiveRef`},
		{"id-not-uri", `{"$defs":{"a":{"$id":"http://x y/%zz"}}}`, `normalize: invalid schema: $id "http://x y/%zz" is not a URI reference: parse "http://x y/%zz": invalid character " " in host name at /$defs/a/$id`},
		{"ref-missing", `{"$defs":{},"properties":{"a":{"$ref":"#/$defs/x"}}}`, `normalize: invalid schema: $ref "#/$defs/x" does not resolve: no member "x" at /properties/a/$ref`},
		{"ref-anchor", `{"$ref":"#foo"}`, `normalize: invalid schema: $ref "#foo" does not resolve: no anchor "foo" in the schema at /$ref`},
		{"ref-not-string", `{"$ref":1}`, `normalize: invalid schema: $ref must be a string, not a number at /$ref`},
		{"ref-into-number", `{"$defs":{"a":1},"$ref":"#/$defs/a"}`, `normalize: invalid schema: a schema must be an object or a boolean, not a number at /$defs/a`},
		{"ref-bad-index", `{"allOf":[{}],"$ref":"#/allOf/01"}`, `normalize: invalid schema: $ref "#/allOf/01" does not resolve: no element "01" at /$ref`},
		{"pattern-not-ecma", `{"patternProperties":{"(?<x":{}}}`, `normalize: invalid schema: pattern "(?<x" is not an ECMA-262 regular expression (u flag): invalid capture group name at byte 3 at /patternProperties/(?<x`},
		{"pattern-re2-only", `{"patternProperties":{"\\Aabc":{}}}`, `normalize: invalid schema: pattern "\\Aabc" is not an ECMA-262 regular expression (u flag): invalid escape at byte 0 at /patternProperties/\Aabc`},
		{"empty-anyof", `{"properties":{"a":{"anyOf":[]}}}`, `normalize: invalid schema: anyOf must not be empty at /properties/a/anyOf`},
		{"escaped-pointer", `{"properties":{"a/b":{"type":"x"}}}`, `normalize: invalid schema: unknown type "x" at /properties/a~1b/type`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Compile([]byte(tt.schema))
			var se *SchemaError
			if s != nil || !errors.As(err, &se) || !errors.Is(err, ErrSchema) {
				t.Fatalf("Compile(%s) = %v, %v; want a *SchemaError", tt.schema, s, err)
			}
			if err.Error() != tt.want {
				t.Errorf("Compile(%s) error\n got %s\nwant %s", tt.schema, err, tt.want)
			}
		})
	}
}

func TestCompileAccepts(t *testing.T) {
	for _, schema := range []string{
		`true`, `false`, `{}`,
		`{"$ref":"#"}`,
		`{"$ref":"#/"}`[:0] + `{"properties":{"":{"type":"array"}},"$ref":"#/properties/"}`,
		`{"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		`{"oneOf":[{}]}`,
		" {} \n\t",
		`{"definitions":{"x":{"type":["array","null"],"nullable":false}}}`,
		`{"$defs":{"~/":{"type":"array"}},"properties":{"a":{"$ref":"#/$defs/~0~1"}}}`,
	} {
		if _, err := Compile([]byte(schema)); err != nil {
			t.Errorf("Compile(%s): %v", schema, err)
		}
	}
}

// TestDeclaredTypes checks the type set read at a position (NOTES 4).
func TestDeclaredTypes(t *testing.T) {
	tests := []struct {
		schema string
		want   typeSet
	}{
		{`{}`, tAll},
		{`true`, tAll},
		{`false`, 0},
		{`{"type":"array"}`, tArray},
		{`{"type":["array","null"]}`, tArray | tNull},
		{`{"type":"array","nullable":true}`, tArray | tNull},
		{`{"nullable":true}`, tAll},
		{`{"allOf":[{"type":["array","string"]},{"type":["array","object"]}]}`, tArray},
		{`{"allOf":[{"type":"array"},{}]}`, tArray},
		{`{"anyOf":[{"type":"array"},{"type":"object"}]}`, tArray | tObject},
		{`{"anyOf":[{"type":"array"},{}]}`, tAll},
		{`{"anyOf":[{"type":"array"},false]}`, tArray},
		{`{"oneOf":[{"type":"array"}],"anyOf":[{"type":["array","string"]}]}`, tArray},
		{`{"type":"object","$ref":"#/$defs/a","$defs":{"a":{"type":["object","null"]}}}`, tObject},
		{`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b","type":"array"},"b":{"$ref":"#/$defs/a"}}}`, tAll},
		{`{"$ref":"#"}`, tAll},

		// Every schema a tool can ship: references by URI to embedded
		// resources, anchors, pointers inside resources, dynamic scope.
		{`{"allOf":[{"$ref":"http://example.com/ref/else"},{"else":{"$id":"http://example.com/ref/else","type":"array"}}]}`, tArray},
		{`{"allOf":[{"$ref":"http://example.com/a"}],"$defs":{"a":{"$id":"http://example.com/a","type":"array"}}}`, tArray},
		{`{"$id":"http://example.com/root","allOf":[{"$ref":"sub"}],"$defs":{"a":{"$id":"sub","type":"array"}}}`, tArray},
		{`{"$id":"http://example.com/root","type":["array","null"],"$defs":{"a":{"allOf":[{"$ref":"http://example.com/root"}]}}}`, tArray | tNull},
		{`{"allOf":[{"$ref":"urn:uuid:deadbeef-1234-0000-0000-4321feebdaed"}],"$defs":{"a":{"$id":"urn:uuid:deadbeef-1234-0000-0000-4321feebdaed","type":"object"}}}`, tObject},
		{`{"$ref":"#foo","$defs":{"A":{"$anchor":"foo","type":"integer"}}}`, tInteger},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","allOf":[{"$ref":"#foo"}],"definitions":{"A":{"$id":"#foo","type":"array"}}}`, tArray},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","allOf":[{"$ref":"#foo"}],"definitions":{"A":{"id":"#foo","type":"array"}}}`, tArray},
		{`{"allOf":[{"$ref":"http://x.test/a"}],"$defs":{"x":{"type":"string"},"a":{"$id":"http://x.test/a","$ref":"#/$defs/x","$defs":{"x":{"type":"array"}}}}}`, tArray},
		{`{"type":["array","object"],"allOf":[{"$ref":"http://x.test/a#/$defs/r"}],"$defs":{"a":{"$id":"http://x.test/a","$defs":{"r":{"$ref":"#","type":"array"}},"type":["array","null"]}}}`, tArray},
		// A key may spell its letters as escapes.
		{`{"allOf":[{"$ref":"http://x.test/a"}],"$defs":{"a":{"\u0024id":"http://x.test/a","type":"array"}}}`, tArray},
		{`{"allOf":[{"$ref":"#l"}],"$defs":{"a":{"$\u0061nchor":"l","type":"array"}}}`, tArray},
		// Drafts 4 to 7: $ref makes its siblings ignored.
		{`{"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/a","type":"array","definitions":{"a":{}}}`, tAll},
		{`{"$ref":"#/definitions/a","type":"array","definitions":{"a":{}}}`, tArray},
		// $dynamicRef: the outermost $dynamicAnchor in scope.
		{`{"$id":"http://x.test/root","$ref":"list","$defs":{"foo":{"$dynamicAnchor":"items","type":"string"},"list":{"$id":"list","allOf":[{"$dynamicRef":"#items"}],"$defs":{"items":{"$dynamicAnchor":"items","type":["string","array"]}}}}}`, tString},
		{`{"$id":"http://x.test/root","$ref":"list","$defs":{"list":{"$id":"list","allOf":[{"$dynamicRef":"#items"}],"$defs":{"items":{"$dynamicAnchor":"items","type":["string","array"]}}}}}`, tString | tArray},
		// Only an initial target with the $dynamicAnchor makes it dynamic.
		{`{"$id":"http://x.test/root","$ref":"list","$defs":{"foo":{"$dynamicAnchor":"items","type":"string"},"list":{"$id":"list","allOf":[{"$dynamicRef":"#items"}],"$defs":{"items":{"$anchor":"items","type":["string","array"]}}}}}`, tString | tArray},
		{`{"$dynamicRef":"#/$defs/a","$defs":{"a":{"type":"array"}}}`, tArray},
		// $recursiveRef (2019-09): the outermost $recursiveAnchor.
		{`{"$schema":"https://json-schema.org/draft/2019-09/schema","$id":"http://x.test/root","$recursiveAnchor":true,"type":["object","null"],"$ref":"tree","$defs":{"t":{"$id":"tree","$recursiveAnchor":true,"type":["object","array"],"$defs":{"n":{"allOf":[{"$recursiveRef":"#"}]}}}}}`, tObject},
		// In another draft, these are unknown keywords.
		{`{"$schema":"http://json-schema.org/draft-07/schema#","$dynamicRef":"#/definitions/a","definitions":{"a":{"type":"array"}}}`, tAll},
	}
	for _, tt := range tests {
		s, err := Compile([]byte(tt.schema))
		if err != nil {
			t.Fatalf("Compile(%s): %v", tt.schema, err)
		}
		if got := s.root.types; got != tt.want {
			t.Errorf("types(%s) = %07b, want %07b", tt.schema, got, tt.want)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	s, err := Compile([]byte(`{"properties":{"a":{"type":"array"}}}`), WithMaxDepth(2))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ args, want string }{
		{`{"a":[1,}`, `normalize: invalid JSON: invalid character '}' looking for beginning of value at offset 8 within "/a/1"`},
		{`{"a":"[[[1]]]"}`, `normalize: nesting too deep: more than 2 nested arrays and objects at offset 5 within "/a/0"`},
		{`{"x~/":[[1]]}`, `normalize: nesting too deep: more than 2 nested arrays and objects at offset 8 within "/x~0~1/0"`},
		{`{"a" 1}`, `normalize: invalid JSON: invalid character '1' after object key at offset 5 within "/a"`},
		{`{"a":1 "b":2}`, `normalize: invalid JSON: invalid character '"' after object member at offset 7 within "/a"`},
		{`{"a":tru}`, `normalize: invalid JSON: invalid literal (want true) at offset 5 within "/a"`},
		{`{"a":"x`, `normalize: invalid JSON: unterminated string at offset 5 within "/a"`},
		{`{1:2}`, `normalize: invalid JSON: invalid character '1' looking for beginning of object key string at offset 1`},
		{"{\"a\":\"\\ud800\\u00\"}", `normalize: invalid JSON: invalid \u escape in string at offset 12 within "/a"`},
		{`{"a":-}`, `normalize: invalid JSON: invalid character '}' in number at offset 6 within "/a"`},
		{`{"a":1.}`, `normalize: invalid JSON: invalid character '}' after decimal point in number at offset 7 within "/a"`},
		{`   `, `normalize: invalid JSON: unexpected end of input at offset 3`},
		{`true`, `normalize: arguments must be a JSON object, not a boolean at offset 0`},
		{`{}x`, `normalize: invalid JSON: character 'x' after the top-level value at offset 2`},
	}
	for _, tt := range tests {
		out, err := s.Normalize([]byte(tt.args))
		if err == nil || out != nil {
			t.Errorf("Normalize(%q) = %q, %v; want an error", tt.args, out, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), "normalize: ") || err.Error() != tt.want {
			t.Errorf("Normalize(%q) error\n got %s\nwant %s", tt.args, err, tt.want)
		}
	}
}

// TestSharedSubschemas: subschemas shared through $ref form a DAG whose
// paths are exponential in number (2^60 here); finding a child must not
// walk them one by one.
func TestSharedSubschemas(t *testing.T) {
	const n = 60
	var defs []string
	for i := range n {
		defs = append(defs, fmt.Sprintf(`"a%d":{"allOf":[{"$ref":"#/$defs/a%d"},{"$ref":"#/$defs/a%d"}],"anyOf":[{"$ref":"#/$defs/a%d"},{"$ref":"#/$defs/a%d"}]}`, i, i+1, i+1, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"a%d":{"type":"array","items":{"type":"array"}}`, n))
	schema := `{"$defs":{` + strings.Join(defs, ",") + `},"properties":{"x":{"$ref":"#/$defs/a0"}}}`
	s, err := Compile([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Normalize([]byte(`{"x":"[\"[1]\"]"}`))
	if want := `{"x":[[1]]}`; err != nil || string(out) != want {
		t.Fatalf("Normalize = %s, %v; want %s", out, err, want)
	}
}
