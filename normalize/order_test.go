package normalize

import (
	"errors"
	"testing"
)

// TestCompileErrorIsRepeatable compiles a schema with two broken members
// many times: the error must name the first in document order every time,
// never whichever Go's map order meets first.
func TestCompileErrorIsRepeatable(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":"float"},"b":{"type":"dict"}}}`,
			`normalize: invalid schema: unknown type "float" at /properties/a/type`},
		{`{"type":"object","properties":{"b":{"type":"dict"},"a":{"type":"float"}}}`,
			`normalize: invalid schema: unknown type "dict" at /properties/b/type`},
		{`{"patternProperties":{"^z":{"type":"x1"},"^a":{"type":"x2"}}}`,
			`normalize: invalid schema: unknown type "x1" at /patternProperties/^z/type`},
		{`{"$defs":{"z":{"type":"x1"},"a":{"type":"x2"}}}`,
			`normalize: invalid schema: unknown type "x1" at /$defs/z/type`},
		{`{"definitions":{"z":{"$ref":"#/nope1"},"a":{"$ref":"#/nope2"}}}`,
			`normalize: invalid schema: $ref "#/nope1" does not resolve: no member "nope1" at /definitions/z/$ref`},
	}
	for _, tt := range tests {
		for range 200 {
			_, err := Compile([]byte(tt.schema))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Compile(%s) = %v\nwant %s", tt.schema, err, tt.want)
			}
		}
	}
}

// TestDuplicateKeys: a schema with a member named twice is refused, naming
// the key and where, whichever of the two would have won.
func TestDuplicateKeys(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"string","type":"array"}`,
			`normalize: invalid schema: duplicate key "type" at (root)`},
		{`{"type":"array","type":"string"}`,
			`normalize: invalid schema: duplicate key "type" at (root)`},
		{`{"properties":{"a/b":{"items":{},"x":1,"items":true}}}`,
			`normalize: invalid schema: duplicate key "items" at /properties/a~1b`},
		{`{"properties":{"a":{},"\u0061":{}}}`,
			`normalize: invalid schema: duplicate key "a" at /properties`},
		{`{"enum":[{"k":1,"k":2}]}`,
			`normalize: invalid schema: duplicate key "k" at /enum/0`},
	}
	for _, tt := range tests {
		_, err := Compile([]byte(tt.schema))
		var se *SchemaError
		if !errors.As(err, &se) || err.Error() != tt.want {
			t.Errorf("Compile(%s) = %v\nwant %s", tt.schema, err, tt.want)
		}
	}
	// A supplied document is held to the same.
	_, err := Compile([]byte(`{"$ref":"other.json"}`), WithDocuments(map[string][]byte{"other.json": []byte(`{"type":"array","type":"string"}`)}))
	if want := `normalize: invalid schema: $ref "other.json": document other.json has a duplicate key "type" at (root) at /$ref`; err == nil || err.Error() != want {
		t.Errorf("duplicate key in a supplied document: %v\nwant %s", err, want)
	}
}
