package fuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"
	"sigs.k8s.io/randfill"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/schemagen"
	"github.com/toolnorm/toolnorm/normalize"
	"github.com/toolnorm/toolnorm/oracle"
	"github.com/toolnorm/toolnorm/properties"
)

// fuzzSeeds are schema and argument pairs that reach every repair.
var fuzzSeeds = [][2]string{
	{`{"properties":{"title":{"type":"string"}}}`, `{"title":"Ember &amp;amp; Oak"}`},
	{`{"properties":{"tags":{"type":"array","items":{"type":"array"}}}}`, `{"tags":"[\"[1]\", \"&quot;\"]"}`},
	{`{"properties":{"ops":{"type":"array"}}}`, `{"ops":"{\"op\":\"add\"}"}`},
	{`{"properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"anyOf":[{"type":"object","properties":{"y":{"type":"array"}}},{"type":"null"}]}}}`, `{"a":"{\"y\":\"[1]\"}"}`},
	{`{"patternProperties":{"^l":{"type":["array","null"]}},"additionalProperties":{"type":"object"}}`, `{"l":"[&quot;a&quot;]","o":" {} ","n":12345678901234567890}`},
	{`{"properties":{"t":{"prefixItems":[{"type":"string"},{"type":"array"}]}}}`, `{"t":["[1]","[2]","\ud800&amp;"]}`},
	{`{}`, `{"u":"?a=1&region=eu&not=2","k&amp;":"&l&#116;;","d":1e400}`},
	{`{"allOf":[{"type":"object"}],"oneOf":[{"properties":{"a":{"type":"object"}}}]}`, `{"a":"{\"b\":[[[]]]}"}`},
	{`{}`, `[1]`},
	{`{"type":`, `{}`},
}

// FuzzNormalize feeds arbitrary bytes as schema and arguments: the result
// is never a panic, errors are typed and come without output, and output
// is JSON that normalizing again leaves as it is.
func FuzzNormalize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s[0]), []byte(s[1]), false, uint8(0))
	}
	addCorpusSeeds(f)
	addSearchSeeds(f)
	f.Fuzz(func(t *testing.T, schemaText, args []byte, attribute bool, bound uint8) {
		profile := normalize.Text
		if attribute {
			profile = normalize.Attribute
		}
		s, err := normalize.Compile(schemaText, normalize.WithProfile(profile), normalize.WithMaxPasses(int(bound%3)), normalize.WithMaxDepth(50))
		if err != nil {
			var se *normalize.SchemaError
			if !errors.As(err, &se) || !errors.Is(err, normalize.ErrSchema) {
				t.Fatalf("Compile(%q) = %v, not a *SchemaError", schemaText, err)
			}
			return
		}
		out, repairs, err := s.NormalizeReport(args)
		if err != nil {
			var e *normalize.Error
			if out != nil || !errors.As(err, &e) ||
				!(errors.Is(err, normalize.ErrSyntax) || errors.Is(err, normalize.ErrNotObject) || errors.Is(err, normalize.ErrTooDeep)) {
				t.Fatalf("Normalize(%q) = %q, %v: want a typed *Error and no output", args, out, err)
			}
			if errors.Is(err, normalize.ErrSyntax) && json.Valid(args) && !bytes.ContainsRune(args, 0xFFFD) {
				// encoding/json accepts invalid UTF-8, which we reject; otherwise it agrees.
				t.Fatalf("Normalize(%q) says invalid JSON, encoding/json disagrees: %v", args, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Normalize(%q) = %q: not JSON", args, out)
		}
		if len(repairs) == 0 && !bytes.Equal(out, args) {
			t.Fatalf("Normalize(%q) = %q with no repair reported", args, out)
		}
		if bound%3 != 0 {
			return
		}
		again, err := s.Normalize(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n   args %q\n   once %q\n  twice %q, %v", args, out, again, err)
		}
	})
}

// FuzzDecode holds DecodeEntitiesWith to x/net's decoding iterated to a
// fixpoint (oracle.Fixpoint of oracle.Unescape, or of the tokenizer's
// attribute-value decoding), with and without a pass bound.
func FuzzDecode(f *testing.F) {
	for _, n := range entity.Names() {
		f.Add("x&"+n+"y", false, uint8(0))
	}
	for _, s := range []string{"Ember &amp;amp; Oak", "&l&#116;;", "&amp;notin&#59;", "?a=1&region=eu&not=2", "&#4294967356;", "&" + strings.Repeat("amp;", 50) + "lt;"} {
		f.Add(s, false, uint8(0))
		f.Add(s, true, uint8(1))
	}
	f.Fuzz(func(t *testing.T, s string, attribute bool, bound uint8) {
		opts := []normalize.Option{normalize.WithMaxPasses(int(bound % 4))}
		one := oracle.Unescape
		if attribute {
			opts = append(opts, normalize.WithProfile(normalize.Attribute))
			one = oracle.UnescapeAttribute
		}
		got, d := normalize.DecodeEntitiesWith(s, opts...)
		want, passes, fixpoint := oracle.Fixpoint(s, one, int(bound%4))
		if got != want || d.Passes != passes || d.Fixpoint != fixpoint {
			t.Fatalf("DecodeEntitiesWith(%q, attribute %v, bound %d) = %q, %+v; x/net gives %q in %d passes (fixpoint %v)", s, attribute, bound%4, got, d, want, passes, fixpoint)
		}
	})
}

// FuzzStructured fills a Shape from the fuzzer's bytes (randfill, the
// maintained fork of github.com/google/gofuzz) and compares the reference
// with the slow normalizer on the schema and arguments it renders.
func FuzzStructured(f *testing.F) {
	for _, seed := range []string{"", "\x01\x02\x03\x04", "tags&amp;[1,2]\x00\x01\x02\x7f\xff", strings.Repeat("\x02\x01", 40)} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Shape
		randfill.NewFromGoFuzz(data).NilChance(0.3).NumElements(0, 4).MaxDepth(8).Fill(&s)
		schema, args := s.Render()
		o := impl.Options{MaxPasses: int(s.Bound % 3)}
		if s.Attribute {
			o.Profile = normalize.Attribute
		}
		if err := Differ(schema, args, o); err != nil {
			t.Fatal(err)
		}
		if o.MaxPasses == 0 {
			once := impl.Reference.Normalize(context.Background(), impl.Case{Schema: schema, Args: args, Options: o})
			if once.Error == "" {
				if d := impl.Compare(impl.Reference.Normalize(context.Background(), impl.Case{Schema: schema, Args: once.Output, Options: o}), once).Diff; d != "" {
					t.Fatalf("not idempotent (%s) on schema %s args %s", d, schema, args)
				}
			}
		}
	})
}

// FuzzProperties runs the properties of package properties on the
// reference, their generators driven by the fuzzer's bytes.
func FuzzProperties(f *testing.F) {
	for i := range 16 {
		f.Add(bytes.Repeat([]byte{byte(i * 17)}, 64))
	}
	all := properties.All()
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		p := rapid.SampledFrom(all).Draw(t, "property")
		p.Fuzz(impl.Reference)(t)
	}))
}

// addCorpusSeeds adds every vector of the committed corpus that the
// (schema, args, attribute, bound) targets can take.
func addCorpusSeeds(f *testing.F) {
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		f.Fatal(err)
	}
	for _, v := range vectors {
		if in, ok := v.FuzzInput(); ok {
			f.Add(in.Schema, in.Args, in.Attribute, in.Bound)
		}
	}
}

// addSearchSeeds adds cases of the schema search (internal/schemagen,
// issue 36) as seeds: schemas over the whole vocabulary and every draft,
// with arguments drawn for them, half of them mutated together.
func addSearchSeeds(f *testing.F) {
	for i := range uint64(16) {
		schema, args, _ := schemagen.DrawTrees(i, schemagen.Options{})
		if i%2 == 1 {
			schemagen.Mutate(rand.New(rand.NewPCG(i, 36)), schema, args)
		}
		f.Add(schema.Append(nil), args.Append(nil), i%5 == 4, uint8(0))
	}
}
