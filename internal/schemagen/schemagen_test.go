package schemagen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// drawSeed draws the seed of a case.
var drawSeed = rapid.Uint64()

// TestDrawCompiles checks that every drawn schema compiles with the
// reference and that the arguments are a JSON object: a case the
// reference refuses searches nothing.
func TestDrawCompiles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := Draw(drawSeed.Draw(t, "seed"), Options{})
		if _, err := normalize.Compile(c.Schema); err != nil {
			t.Fatalf("schema does not compile: %v\n%s", err, c.Schema)
		}
		args, err := jsonvalue.Parse(c.Args)
		if err != nil || args.Kind != jsonvalue.Object {
			t.Fatalf("arguments are not a JSON object (%v): %s", err, c.Args)
		}
	})
}

// TestMutateCompiles checks that a mutated case's schema still compiles
// and that Mutate is deterministic for a seeded source.
func TestMutateCompiles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed, mseed := drawSeed.Draw(t, "seed"), drawSeed.Draw(t, "mutation")
		mutated := func() ([]byte, []byte, Set) {
			s, a, broke := DrawTrees(seed, Options{})
			broken, _ := Mutate(rand.New(rand.NewPCG(mseed, 1)), s, a)
			st, at := s.Append(nil), a.Append(nil)
			return st, at, Of(st, at, broke || broken)
		}
		s, a, f := mutated()
		if _, err := normalize.Compile(s); err != nil {
			t.Fatalf("mutated schema does not compile: %v\n%s\n%s", err, s, a)
		}
		if _, err := jsonvalue.Parse(a); err != nil {
			t.Fatalf("mutated arguments do not parse: %v\n%s", err, a)
		}
		s2, a2, f2 := mutated()
		if !bytes.Equal(s, s2) || !bytes.Equal(a, a2) || f != f2 {
			t.Fatalf("Mutate is not deterministic:\n%s\n%s", s, s2)
		}
	})
}

func TestDrawDeterministic(t *testing.T) {
	for seed := range uint64(50) {
		a, b := Draw(seed, Options{}), Draw(seed, Options{})
		if !bytes.Equal(a.Schema, b.Schema) || !bytes.Equal(a.Args, b.Args) || a.Features != b.Features {
			t.Fatalf("seed %d draws two cases:\n%s\n%s", seed, a.Schema, b.Schema)
		}
	}
}

// TestKeyPool checks that the key pool holds what languages treat
// specially (issue 36).
func TestKeyPool(t *testing.T) {
	for _, k := range []string{"__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__class__",
		"0", "01", "-0", "1e3", ""} {
		if !slices.Contains(specialKeys, k) {
			t.Errorf("the key pool lacks %q", k)
		}
	}
	var long, nonBMP bool
	for _, k := range specialKeys {
		long = long || len(k) >= LongKey
		for _, r := range k {
			nonBMP = nonBMP || r > 0xFFFF
		}
	}
	if !long || !nonBMP {
		t.Errorf("the key pool lacks a long key (%v) or a key outside the BMP (%v)", long, nonBMP)
	}
}

// drawn is the union of the features of the first n cases drawn and
// mutated.
func drawn(n int) Set {
	var all Set
	for i := range uint64(n) {
		all.Union(Draw(i, Options{}).Features)
		s, a, broke := DrawTrees(i, Options{})
		broken, _ := Mutate(rand.New(rand.NewPCG(i, 2)), s, a)
		all.Union(Of(s.Append(nil), a.Append(nil), broke || broken))
	}
	return all
}

// TestEveryFeatureDrawn checks that every feature the issue lists, and
// the pairs its bugs hide in, are drawn within a few thousand cases.
func TestEveryFeatureDrawn(t *testing.T) {
	all := drawn(2000)
	for _, f := range All() {
		if !f.Pair() && !all.Has(f) {
			t.Errorf("%s: never drawn in 2000 cases", f)
		}
	}
	for _, name := range []string{
		"beside maxLength beside type-list-string-container",
		"beside minLength beside type-list-string-container",
		"beside pattern beside type-list-string-container",
		"beside enum beside type-list-string-container",
		"beside format beside type-list-string-container",
		"under items under $ref",
		"under prefixItems under $ref",
		"under properties under $ref",
		"under type-list-string-container under anyOf",
	} {
		f, ok := ByName(name)
		if !ok {
			t.Errorf("no feature %q", name)
			continue
		}
		if !all.Has(f) {
			t.Errorf("%s: never drawn in 2000 cases", name)
		}
	}
}

// TestIssueFeatures checks that the catalogue names every keyword the
// issue lists.
func TestIssueFeatures(t *testing.T) {
	for _, name := range []string{
		"type form type-name", "type form type-list-string-container", "type form nullable",
		"validation maxLength", "validation minLength", "validation pattern", "validation format", "validation enum",
		"validation const", "validation minimum", "validation maximum", "validation multipleOf", "validation minItems",
		"validation maxItems", "validation uniqueItems", "validation contains", "validation required",
		"validation minProperties", "validation propertyNames", "validation dependentRequired",
		"applicator properties", "applicator patternProperties", "applicator additionalProperties", "applicator items",
		"applicator prefixItems", "applicator additionalItems", "applicator allOf", "applicator anyOf", "applicator oneOf",
		"applicator not", "applicator if", "applicator then", "applicator else", "applicator dependentSchemas",
		"applicator unevaluatedProperties", "applicator unevaluatedItems",
		"reference $ref", "reference $ref-deep", "reference $defs", "reference $id", "reference $anchor", "reference recursion",
		"draft draft-04", "draft draft-06", "draft draft-07", "draft draft-2019-09", "draft draft-2020-12",
		"key __proto__", "key constructor", "key prototype", "key toString", "key hasOwnProperty", "key __class__",
		"key 0", "key 01", "key -0", "key 1e3", "key empty", "key long", "key non-BMP",
		"arguments fit", "arguments broken-once",
	} {
		f, ok := ByName(name)
		if !ok {
			t.Errorf("no feature %q", name)
			continue
		}
		if f.String() != name {
			t.Errorf("ByName(%q).String() = %q", name, f)
		}
	}
}

// TestAnalyze checks what AnalyzeText reads from schemas and arguments.
func TestAnalyze(t *testing.T) {
	for _, tc := range []struct {
		schema, args string
		want, not    []string
	}{
		{`{"type":["string","array"],"maxLength":1}`, `{}`,
			[]string{"type form type-list-string-container", "validation maxLength", "beside maxLength beside type-list-string-container", "draft no-$schema"},
			[]string{"type form type-name", "beside maxLength beside type-name"}},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"l":{"type":"array","items":{"type":"object"}}},"properties":{"x":{"$ref":"#/definitions/l"}}}`, `{}`,
			[]string{"draft draft-07", "reference $defs", "reference $ref", "applicator items", "under items under $ref", "under $ref under properties"},
			[]string{"draft no-$schema", "reference $ref-deep", "reference recursion"}},
		{`{"$defs":{"t":{"properties":{"c":{"items":{"$ref":"#/$defs/t"}}}}}}`, `{}`,
			[]string{"reference recursion", "under properties under $ref"}, nil},
		{`{"$ref":"#"}`, `{}`, []string{"reference recursion"}, nil},
		{`{"$defs":{"a":{"$defs":{"b":{}}}},"$ref":"#/$defs/a/$defs/b"}`, `{}`, []string{"reference $ref-deep"}, nil},
		{`{"type":"string","nullable":true,"enum":["a"]}`, `{}`,
			[]string{"type form nullable", "beside enum beside nullable"}, []string{"beside enum beside type-name"}},
		{`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","dependencies":{"a":["b"],"c":{"properties":{"d":{"type":"array"}}}}}`, `{}`,
			[]string{"draft draft-04", "validation dependencies", "under properties under dependentSchemas"}, nil},
		{`{"items":[{"type":"array"}],"additionalItems":false}`, `{}`,
			[]string{"applicator items-list", "applicator additionalItems", "reference boolean-schema"}, []string{"applicator items"}},
		{`{"if":{"type":"string"},"then":{"maxLength":1},"else":{"$id":"https://x.test/a","$anchor":"x"}}`, `{}`,
			[]string{"applicator if", "applicator then", "applicator else", "reference $id", "reference $anchor", "under maxLength under if-then-else"}, nil},
		{`{"$id":"https://x.test/r.json","$defs":{"o":{"properties":{"a":{"$id":"sub/b.json"}},"$id":"https://x.test/o.json"}}}`, `{}`,
			[]string{"reference $id", "reference $id-relative"}, nil},
		{`{"$id":"https://x.test/r.json","$defs":{"a":{"$id":"sub/b.json","$defs":{"c":{"$id":"urn:x:c"}}}}}`, `{}`,
			[]string{"reference $id"}, []string{"reference $id-relative"}},
		{`{"$defs":{"o":{"$id":"https://x.test/o.json","$defs":{"n":{"$id":5},"m":{"$id":"#frag"}}}}}`, `{}`,
			[]string{"reference $id", "reference $anchor"}, []string{"reference $id-relative"}},
		{`{}`, `{"__proto__":{"constructor":1,"` + strings.Repeat("k", LongKey) + `":[{"":2,"\ud83d\ude00":3}]},"01":1,"-0":2,"1e3":3,"0":4}`,
			[]string{"key __proto__", "key constructor", "key long", "key empty", "key non-BMP", "key 01", "key -0", "key 1e3", "key 0"},
			[]string{"key prototype", "key toString"}},
	} {
		got := AnalyzeText([]byte(tc.schema), []byte(tc.args))
		for _, name := range tc.want {
			f, ok := ByName(name)
			if !ok {
				t.Errorf("no feature %q", name)
			} else if !got.Has(f) {
				t.Errorf("AnalyzeText(%s, %s) lacks %s", tc.schema, tc.args, name)
			}
		}
		for _, name := range tc.not {
			f, ok := ByName(name)
			if !ok {
				t.Errorf("no feature %q", name)
			} else if got.Has(f) {
				t.Errorf("AnalyzeText(%s, %s) holds %s", tc.schema, tc.args, name)
			}
		}
	}
}

// TestAnalyzeBadInput checks that text that does not parse, and a schema
// deeper than the walk goes, say nothing or what they can, never panic.
func TestAnalyzeBadInput(t *testing.T) {
	if s := AnalyzeText([]byte(`{"type":`), []byte(`[`)); s != (Set{}) {
		t.Errorf("unparsed text holds features: %v", s)
	}
	deep := strings.Repeat(`{"items":`, 500) + `{}` + strings.Repeat(`}`, 500)
	s := AnalyzeText([]byte(deep), nil)
	if f, _ := ByName("applicator items"); !s.Has(f) {
		t.Errorf("a deep schema's first items not counted")
	}
}

func TestCounts(t *testing.T) {
	var a, b Counts
	f, _ := ByName("validation maxLength")
	g, _ := ByName("key __proto__")
	var s Set
	s.Add(f)
	s.Add(g)
	a.Count(s)
	a.Count(Set{})
	b.Count(s)
	a.Add(b)
	if a.Cases != 3 || a.Of(f) != 2 || a.Of(g) != 2 {
		t.Errorf("counts: cases %d, %s %d, %s %d; want 3, 2, 2", a.Cases, f, a.Of(f), g, a.Of(g))
	}
	var none Counts
	if none.Of(f) != 0 {
		t.Errorf("an empty count counts")
	}
}

// TestMutationsApply checks that each mutation changes something on an
// ordinary case.
func TestMutationsApply(t *testing.T) {
	for op := range numMutations {
		applied := 0
		for i := range uint64(20) {
			s, a, _ := DrawTrees(i, Options{})
			m := mutator{r: rand.New(rand.NewPCG(i, 3)), schema: s, args: a}
			if m.apply(op) {
				applied++
			}
		}
		if applied == 0 {
			t.Errorf("mutation %s never applies in 20 cases", mutationNames[op])
		}
	}
}

// validator compiles schema with a JSON Schema validator of its own (not
// the reference's reading): as 2020-12 where it names no draft.
func validator(schema []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const loc = "https://toolnorm.invalid/schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// TestFitValidates checks that arguments drawn to fit (Options.Fit)
// are, as a rule, valid against their schema as a validator reads it, and
// that no fitting case says it broke its schema. The generator models
// the keywords only as far as drawing values for a differential search
// needs (the reference judges every case): an object's counts against
// its required members, oneOf branches that overlap, an allOf's branches
// drawn from the first are known to miss, so the test holds the share of
// 1000 fixed seeds that validate at 85% (87.8% when written).
func TestFitValidates(t *testing.T) {
	const n, want = 1000, 850
	valid, refused := 0, 0
	var first string
	for seed := range uint64(n) {
		c := Draw(seed, Options{Fit: true})
		if f, _ := ByName("arguments broken-once"); c.Features.Has(f) {
			t.Fatalf("seed %d: a fitting case says it broke its schema", seed)
		}
		s, err := validator(c.Schema)
		if err != nil {
			refused++
			continue
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.Args))
		if err != nil {
			t.Fatalf("seed %d: arguments do not parse: %v", seed, err)
		}
		if err := s.Validate(inst); err != nil {
			if first == "" {
				first = fmt.Sprintf("seed %d: %v\nschema %s\nargs   %s", seed, err, c.Schema, c.Args)
			}
			continue
		}
		valid++
	}
	if refused > n/20 {
		t.Errorf("the validator refuses %d of %d schemas drawn to fit", refused, n)
	}
	if valid < want {
		t.Errorf("%d of %d cases drawn to fit validate, want %d; the first that does not:\n%s", valid, n, want, first)
	}
	t.Logf("%d of %d validate, %d schemas refused", valid, n, refused)
}

// TestMutateAnySchema checks that Mutate never panics on schemas it did
// not draw: boolean schemas, schemas of no object, keywords of the wrong
// kind, a deep one.
func TestMutateAnySchema(t *testing.T) {
	for _, tc := range []struct{ schema, args string }{
		{`true`, `{"a":"[1]"}`},
		{`false`, `{}`},
		{`{}`, `{}`},
		{`{"properties":true,"items":1,"allOf":{},"$defs":[],"type":7,"required":"a"}`, `{"a":[{"b":"x"}]}`},
		{`{"properties":{"a":false,"b":true}}`, `{"a":1,"b":"&amp;"}`},
		{`{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/a"}}}`, `{"x":{"y":[]}}`},
		{strings.Repeat(`{"items":`, 300) + `{}` + strings.Repeat(`}`, 300), `{}`},
		{`{"properties":{"a":{"type":"string"}}}`, `{"a":` + strings.Repeat(`[`, 300) + strings.Repeat(`]`, 300) + `}`},
	} {
		for seed := range uint64(64) {
			s, err := jsonvalue.Parse([]byte(tc.schema))
			if err != nil {
				t.Fatal(err)
			}
			a, err := jsonvalue.Parse([]byte(tc.args))
			if err != nil {
				t.Fatal(err)
			}
			Mutate(rand.New(rand.NewPCG(seed, 5)), s, a)
			if _, err := jsonvalue.Parse(s.Append(nil)); err != nil {
				t.Fatalf("%s, seed %d: the mutated schema does not parse: %v", tc.schema, seed, err)
			}
		}
	}
}

// analyzedTexts are texts no generator draws (escaped keys and keywords,
// duplicates, whitespace, values of the wrong kind, deep and invalid
// text), each with the digest of what AnalyzeText reads from it alone,
// with its arguments, and of its arguments alone.
func analyzedTexts() []struct{ schema, args string } {
	deep := strings.Repeat(`{"items":`, 500) + `{}` + strings.Repeat(`}`, 500)
	return []struct{ schema, args string }{
		{`{"\u0074ype":["\u0073tring","array"],"max\u004cength":1,"nullable":true,"type":"x"}`, `{"\u005f_proto__":1,"a\ud83d\ude00":2}`},
		{`{"type":"string","nullable":false,"nullable":true}`, `{"":{"01":[{"-0":[]}]}}`},
		{`{"type":7,"nullable":true,"enum":[1]}`, `[{"1e3":1},"x",{"toString":{}}]`},
		{` { "$schema" : 7 , "$schema":"http://json-schema.org/draft-04/schema#" , "items" : [ true , { "$ref" : "#/items/1" } ] } `, ` { "constructor" : null } `},
		{`{"$schema":"https://json-schema.org/draft/2019-09/schema","$defs":{"a\/b":{"$ref":"#/$defs/a~1b"},"0":{"$ref":"#/$defs/0"}},"allOf":[{"$ref":"#/allOf/0"},{"$id":"#x","id":"\u0023y"}]}`, `{}`},
		{`{"dependencies":{"a":["b"],"c":{"$ref":"#/dependencies/c"},"d":true},"properties":{"p":{"properties":{"q":{"$ref":"#/properties/p"}}}}}`, `{}`},
		{`{"items":{"$ref":"#/items"},"prefixItems":[{"$ref":"#/prefixItems/0"},{"$ref":"#/prefixItems/00"}],"if":{"$dynamicRef":"#"},"then":false,"else":{"$schema":"x"}}`, `{}`},
		{`true`, `{}`}, {`false`, `1`}, {`[]`, `"x"`}, {`"s"`, `null`},
		{`{"properties":true,"items":1,"allOf":{},"$defs":[],"type":7,"required":"a"}`, `{"a":[{"b":"x"}]}`},
		{deep, `{}`},
		{strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001), strings.Repeat(`{"a":`, 10000) + `1` + strings.Repeat(`}`, 10000)},
		{strings.Repeat(`[`, 10000) + strings.Repeat(`]`, 10000), `{"` + strings.Repeat("k", LongKey) + `":` + strings.Repeat(`[`, 100) + `{"__proto__":1}` + strings.Repeat(`]`, 100) + `}`},
		{`{"type":`, `[`}, {``, ``}, {`{} {}`, `{"a":1}x`}, {`{"a":"\ud800"}`, `{"\ud800":1}`},
	}
}

// featureDigest is a digest of the features of each case, in order.
func featureDigest(cases [][2][]byte) string {
	h := sha256.New()
	for _, c := range cases {
		for _, in := range [][2][]byte{c, {c[0], nil}, {nil, c[1]}} {
			set := AnalyzeText(in[0], in[1])
			for _, f := range All() {
				if set.Has(f) {
					fmt.Fprintf(h, "%s,", f)
				}
			}
			h.Write([]byte{'\n'})
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// TestAnalyzeTextPinned pins what AnalyzeText reads from 3,000 drawn
// cases (half of them mutated), the same indented as a corpus vector's
// are, and texts no generator draws. The digests were taken when a
// second analyzer, over a tree of each text, read the same from every
// one of them; a change to them is a change in what a check counts as
// searched.
func TestAnalyzeTextPinned(t *testing.T) {
	var drawn, indented, odd [][2][]byte
	for seed := range uint64(3000) {
		s, a, _ := DrawTrees(seed, Options{})
		if seed%2 == 0 {
			Mutate(rand.New(rand.NewPCG(seed, 9)), s, a)
		}
		drawn = append(drawn, [2][]byte{s.Append(nil), a.Append(nil)})
		indented = append(indented, [2][]byte{indent(s.Append(nil)), indent(a.Append(nil))})
	}
	for _, tc := range analyzedTexts() {
		odd = append(odd, [2][]byte{[]byte(tc.schema), []byte(tc.args)})
	}
	for _, c := range []struct {
		name  string
		cases [][2][]byte
		want  string
	}{{"drawn", drawn, "882feeae8cba6c24"}, {"indented", indented, "882feeae8cba6c24"}, {"odd", odd, "8df262a9b95b60ea"}} {
		if got := featureDigest(c.cases); got != c.want {
			t.Errorf("%s: features digest %s, want %s", c.name, got, c.want)
		}
	}
}

func indent(b []byte) []byte {
	var out bytes.Buffer
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		out.WriteByte(c)
		switch {
		case inString && c == '\\':
			i++
			out.WriteByte(b[i])
		case c == '"':
			inString = !inString
		case !inString && (c == '{' || c == '[' || c == ',' || c == ':'):
			out.WriteString("\n  ")
		}
	}
	return out.Bytes()
}

// BenchmarkAnalyzeText reads the features of drawn cases, as a check
// counts each case it runs.
func BenchmarkAnalyzeText(b *testing.B) {
	var cases [][2][]byte
	for seed := range uint64(64) {
		s, a, _ := DrawTrees(seed, Options{})
		cases = append(cases, [2][]byte{s.Append(nil), a.Append(nil)})
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c := cases[i%len(cases)]
		AnalyzeText(c[0], c[1])
	}
}

// BenchmarkDrawTrees draws the search's cases, a schema and arguments
// each, as the fuzzer draws a sixth of its cases and the properties some
// of theirs.
func BenchmarkDrawTrees(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		DrawTrees(uint64(i%256), Options{})
	}
}
