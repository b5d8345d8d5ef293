package normalize_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolnorm/toolnorm/normalize"
)

func Example() {
	schema, err := normalize.Compile([]byte(`{
		"type": "object",
		"properties": {
			"title": {"type": "string"},
			"tags":  {"type": "array", "items": {"type": "string"}},
			"query": {"type": "string"}
		}
	}`))
	if err != nil {
		panic(err)
	}
	out, err := schema.Normalize([]byte(`{"title":"Ember &amp;amp; Oak","tags":"[\"a\",\"b\"]","query":"[1,2]","n":1.0}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(out))
	// Output:
	// {"title":"Ember & Oak","tags":["a","b"],"query":"[1,2]","n":1.0}
}

func ExampleSchema_NormalizeReport() {
	schema, _ := normalize.Compile([]byte(`{"properties":{"ops":{"type":"array"}}}`))
	out, repairs, _ := schema.NormalizeReport([]byte(`{"ops":"[&quot;add&quot;]","note":"&amp;amp;"}`))
	fmt.Println(string(out))
	for _, r := range repairs {
		fmt.Println(r)
	}
	// Output:
	// {"ops":["add"],"note":"&"}
	// /ops: decoded character references in 1 pass
	// /ops: JSON-decoded the string into an array
	// /note: decoded character references in 2 passes
}

// A server that reports the repairs of calls it does not trust lists a
// few, and counts the rest.
func ExampleSchema_NormalizeReportN() {
	schema, _ := normalize.Compile([]byte(`{}`))
	out, repairs, total, _ := schema.NormalizeReportN(context.Background(), []byte(`{"l":["&amp;","&lt;","&gt;","&quot;"]}`), 2)
	fmt.Println(string(out))
	for _, r := range repairs {
		fmt.Println(r)
	}
	fmt.Printf("and %d more\n", total-len(repairs))
	// Output:
	// {"l":["&","<",">","\""]}
	// /l/0: decoded character references in 1 pass
	// /l/1: decoded character references in 1 pass
	// and 2 more
}

func ExampleDecodeEntities() {
	fmt.Println(normalize.DecodeEntities("Ember &amp;amp; Oak"))
	fmt.Println(normalize.DecodeEntities("&l&#116;;"))
	fmt.Println(normalize.DecodeEntities("?a=1&region=eu&not=2"))
	// Output:
	// Ember & Oak
	// <
	// ?a=1®ion=eu¬=2
}

func ExampleDecodeEntitiesWith() {
	s, d := normalize.DecodeEntitiesWith("?a=1&region=eu&amp;amp;x", normalize.WithProfile(normalize.Attribute))
	fmt.Println(s, d.Passes, d.Fixpoint)
	s, d = normalize.DecodeEntitiesWith("&amp;amp;amp;", normalize.WithMaxPasses(2))
	fmt.Println(s, d.Passes, d.Fixpoint)
	// Output:
	// ?a=1&region=eu&x 2 true
	// &amp; 2 false
}

func ExampleWithMaxDepth() {
	schema, _ := normalize.Compile([]byte(`{}`), normalize.WithMaxDepth(2))
	_, err := schema.Normalize([]byte(`{"a":[[1]]}`))
	fmt.Println(err)
	fmt.Println(errors.Is(err, normalize.ErrTooDeep))
	// Output:
	// normalize: nesting too deep: more than 2 nested arrays and objects at offset 6 within "/a/0"
	// true
}

func ExampleCompile_error() {
	_, err := normalize.Compile([]byte(`{"properties":{"a":{"$ref":"#/$defs/list"}}}`))
	fmt.Println(err)
	var se *normalize.SchemaError
	fmt.Println(errors.As(err, &se), se.Pointer)
	// Output:
	// normalize: invalid schema: $ref "#/$defs/list" does not resolve: no member "$defs" at /properties/a/$ref
	// true /properties/a/$ref
}

// NormalizeContext stops when its context is done, with an *Error that
// wraps the context's error.
func ExampleSchema_NormalizeContext() {
	schema, _ := normalize.Compile([]byte(`{}`))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := schema.NormalizeContext(ctx, []byte(`{"note":"&amp;"}`))
	fmt.Println(errors.Is(err, context.Canceled), err)
	// Output:
	// true normalize: context canceled at offset 0
}

// A repair's Pointer is spelt out when read: by String, or token by token.
func ExamplePointer() {
	schema, _ := normalize.Compile([]byte(`{}`))
	_, repairs, _ := schema.NormalizeReport([]byte(`{"a/b":[{"c":"&lt;"}]}`))
	p := repairs[0].Pointer
	fmt.Println(p)
	for tok := range p.Tokens() {
		fmt.Printf("%q ", tok)
	}
	fmt.Println()
	// Output:
	// /a~1b/0/c
	// "a/b" "0" "c"
}

// DraftOf reads a $schema value as Compile does: http or https, with or
// without the final "#".
func ExampleDraftOf() {
	for _, s := range []string{"http://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft-07/schema#", "urn:example"} {
		d, ok := normalize.DraftOf(s)
		fmt.Println(ok && d == normalize.Draft2020, ok && d == normalize.Draft7, ok)
	}
	// Output:
	// true false true
	// false true true
	// false false false
}
