package normalize

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/internal/schemagen"
)

// compileBoth compiles schema leaving the members Compile does not read
// undecoded, as it does, and decoding them all, and normalizes args with
// each: the two must give the same output, or the same error.
func compileBoth(t *testing.T, schema, args string) (got string) {
	t.Helper()
	run := func(skip bool) string {
		defer func(old bool) { skipMembers = old }(skipMembers)
		skipMembers = skip
		s, err := Compile([]byte(schema))
		if err != nil {
			return "compile: " + err.Error()
		}
		out, err := s.Normalize([]byte(args))
		if err != nil {
			return "normalize: " + err.Error()
		}
		return string(out)
	}
	got, want := run(true), run(false)
	if got != want {
		t.Errorf("%.200s on %.100s: members skipped: %s; decoded: %s", schema, args, got, want)
	}
	return got
}

// TestSkippedMembers: what Compile leaves undecoded (decodeOrderedSkipping)
// changes nothing it gives: a pointer into such a member, an error in one,
// a text with a lone surrogate escape where it was skipped.
func TestSkippedMembers(t *testing.T) {
	tests := []struct{ schema, args, want string }{
		// A pointer into a keyword Compile does not read, twice into
		// the same, once into what the first decoded.
		{`{"type":"object","properties":{"p":{"$ref":"#/x-defs/a"},"q":{"$ref":"#/x-defs"},"r":{"$ref":"#/x-defs/a/items"}},"x-defs":{"a":{"type":"array","items":{"type":"object"}},"type":"string"}}`,
			`{"p":"[1]","q":"[2]","r":"{}"}`, `{"p":[1],"q":"[2]","r":{}}`},
		// Into an enum's element, and into not (skipped where there is
		// no identifier, read by the index where there may be one).
		{`{"type":"object","properties":{"p":{"$ref":"#/properties/q/enum/0"},"q":{"enum":[{"type":"array"}]},"r":{"$ref":"#/properties/s/not"},"s":{"not":{"type":"object"}}}}`,
			`{"p":"[1]","r":"{}"}`, `{"p":[1],"r":{}}`},
		{`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"r":{"$ref":"#/properties/s/not"},"s":{"not":{"$anchor":"x","type":"object"}},"t":{"$ref":"#x"}}}`,
			`{"r":"{}","t":"{}"}`, `{"r":{},"t":{}}`},
		// Into a number, which is no schema.
		{`{"type":"object","properties":{"p":{"$ref":"#/properties/q/minLength"},"q":{"minLength":1}}}`,
			`{}`, `compile: normalize: invalid schema: a schema must be an object or a boolean, not a number at /properties/q/minLength`},
		// A pointer to what is not there in a skipped member.
		{`{"type":"object","properties":{"p":{"$ref":"#/x-defs/b"}},"x-defs":{"a":{}}}`,
			`{}`, `compile: normalize: invalid schema: $ref "#/x-defs/b" does not resolve: no member "b" at /properties/p/$ref`},
		// An identifier in a skipped member is none, as it was.
		{`{"type":"object","properties":{"p":{"$ref":"https://example.com/a"}},"x-defs":{"a":{"$id":"https://example.com/a","type":"array"}}}`,
			`{}`, `compile: normalize: invalid schema: $ref "https://example.com/a" does not resolve: https://example.com/a is another document, and none was supplied for it (WithDocuments, WithLoader; --ref-doc) at /properties/p/$ref`},
		// A lone surrogate in a skipped string, with a pointer into the
		// member it is in: read as encoding/json reads it.
		{`{"type":"object","properties":{"p":{"$ref":"#/x-defs/a"}},"x-defs":{"a":{"type":"object","properties":{"k":{"type":"array"}},"title":"\ud800"}}}`,
			`{"p":{"k":"[1]"}}`, `{"p":{"k":[1]}}`},
		// A key given twice in a skipped member, escaped or not.
		{`{"type":"object","enum":[{"a":1,"a":2}]}`, `{}`, `compile: normalize: invalid schema: duplicate key "a" at /enum/0`},
		{`{"type":"object","const":{"b":1,"\u0062":2}}`, `{}`, `compile: normalize: invalid schema: duplicate key "b" at /const`},
		{`{"type":"object","const":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}}`,
			`{}`, `compile: normalize: invalid schema: duplicate key "a" at /const`},
		// Text that is not JSON in a skipped member.
		{`{"type":"object","enum":[1,]}`, `{}`, ``},
		{`{"type":"object","default":{"a" 1}}`, `{}`, ``},
	}
	for _, tt := range tests {
		got := compileBoth(t, tt.schema, tt.args)
		if tt.want != "" && got != tt.want {
			t.Errorf("%.100s on %s: got %s, want %s", tt.schema, tt.args, got, tt.want)
		}
		if tt.want == "" && !strings.HasPrefix(got, "compile: normalize: invalid schema: not JSON") {
			t.Errorf("%.100s: got %s, want it refused as not JSON", tt.schema, got)
		}
	}
	deep := `{"type":"object","default":` + strings.Repeat("[", maxFastDepth+1) + strings.Repeat("]", maxFastDepth+1) + `}`
	if got := compileBoth(t, deep, `{}`); !strings.Contains(got, "exceeded max depth") {
		t.Errorf("a skipped member nested past %d: got %.200s", maxFastDepth, got)
	}
}

// TestSkippedMembersDrawn compiles the schema search's cases (drawn and
// mutated) both ways and wants the same outputs and errors.
func TestSkippedMembersDrawn(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 300
	}
	for seed := range uint64(n) {
		schema, args, _ := schemagen.DrawTrees(seed, schemagen.Options{})
		if seed%2 == 1 {
			schemagen.Mutate(rand.New(rand.NewPCG(seed, 1)), schema, args)
		}
		compileBoth(t, string(schema.Append(nil)), string(args.Append(nil)))
	}
}

// TestSkippedNotRead: every keyword Compile reads (keywords.gather) and
// every one the index of identifiers reads is decoded where it reads it.
func TestSkippedNotRead(t *testing.T) {
	var read []string
	for _, k := range []string{"$ref", "$dynamicRef", "$recursiveRef", "type", "nullable", "allOf", "anyOf", "oneOf",
		"properties", "patternProperties", "additionalProperties", "prefixItems", "items", "additionalItems",
		"$defs", "definitions", "$schema", "enum", "const", "required", "not", "if", "then", "else", "contains",
		"dependentSchemas", "dependencies", "propertyNames", "unevaluatedItems", "unevaluatedProperties",
		"contentSchema", "$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "description", "default"} {
		var kw keywords
		kw.gather(map[string]any{k: nil})
		if kw.has != 0 {
			read = append(read, k)
		}
	}
	indexed := append(append(append([]string{"$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor"}, oneSchema...), schemaMaps...), schemaList...)
	for _, mode := range []skipMode{skipUnindexed, skipUncompiled} {
		d := orderedDecoder{mode: mode}
		for _, k := range append(read, "$schema") {
			if !d.reads(k) {
				t.Errorf("mode %d: compile reads %q, which is skipped", mode, k)
			}
		}
		if mode == skipUnindexed {
			for _, k := range indexed {
				if !d.reads(k) {
					t.Errorf("the index reads %q, which is skipped", k)
				}
			}
		}
	}
}

// TestMayIdentifyEnds: the scan for identifiers stops at the end of any
// text, one that ends in a backslash too (FuzzDifferential found a panic
// on the schema `\`); such a text is not JSON, and Compile says so.
func TestMayIdentifyEnds(t *testing.T) {
	for _, s := range []string{`\`, `{"a\`, `"\u00`, `"\u002`, `\\`, `{"\u0024id":"x"}`} {
		_ = mayIdentify([]byte(s), &resolveConfig{})
		if _, err := Compile([]byte(s)); err == nil && s != `{"\u0024id":"x"}` {
			t.Errorf("Compile(%q) succeeded", s)
		}
	}
	if !mayIdentify([]byte(`{"\u0024id":"x"}`), &resolveConfig{}) {
		t.Error(`an escaped "$id" key is not taken to identify`)
	}
}

// TestIndexSlots: the index finds each keyword it reads in its slot, in
// the orders of oneSchema, schemaList and schemaMaps, items in both of
// its own, and nothing else.
func TestIndexSlots(t *testing.T) {
	want := map[string][]int{"$ref": {slotRef}, "$dynamicRef": {slotDynamicRef}, "$recursiveRef": {slotRecursiveRef},
		"$id": {slotID}, "id": {slotOldID}, "$schema": {slotSchema}, "$anchor": {slotAnchor},
		"$dynamicAnchor": {slotDynamicAnchor}, "$recursiveAnchor": {slotRecursiveAnchor}}
	for i, kw := range oneSchema {
		want[kw] = append(want[kw], slotOneSchema+i)
	}
	for i, kw := range schemaList {
		want[kw] = append(want[kw], slotSchemaList+i)
	}
	for i, kw := range schemaMaps {
		want[kw] = append(want[kw], slotSchemaMaps+i)
	}
	for kw, slots := range want {
		var k indexed
		k.gather(map[string]any{kw: kw})
		for _, s := range slots {
			if k.v[s] != kw || k.has&(1<<s) == 0 {
				t.Errorf("%q: not in slot %d", kw, s)
			}
		}
		if n := bits.OnesCount64(k.has); n != len(slots) {
			t.Errorf("%q: in %d slots, want %d", kw, n, len(slots))
		}
	}
	for _, kw := range []string{"type", "enum", "description", "$comment", "ref", "Items", ""} {
		var k indexed
		if k.gather(map[string]any{kw: 1}); k.has != 0 {
			t.Errorf("%q: read by the index", kw)
		}
	}
}
