package properties

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/oracle"
)

// A Property is one statement about RT-TOOL-8 that an implementation must
// make true on every input, with the generator of inputs that test it.
type Property struct {
	// ID is stable: reports and corpus tags use it.
	ID string
	// Statement says the property in one line.
	Statement string
	// Clause is what the property enforces: "rule/1" to "rule/5", or
	// "reading/1" to "reading/8" for a section of docs/readings.md.
	Clause string
	// Required is true when the rule itself requires the property, false
	// when it is one of toolnorm's readings of an open question.
	Required bool

	check func(t *rapid.T, im impl.Impl)
}

// All returns the catalogue: the properties required by the rule first,
// then those of toolnorm's readings.
func All() []Property { return append([]Property(nil), catalogue...) }

// ByID returns the property with the given ID.
func ByID(id string) (Property, bool) {
	for _, p := range catalogue {
		if p.ID == id {
			return p, true
		}
	}
	return Property{}, false
}

// Check tests p on im with rapid: it draws inputs until one falsifies p
// (then shrinks it to a minimal one and fails t, printing it as a corpus
// vector) or the checks run out (-rapid.checks, 100 by default).
func (p Property) Check(t rapid.TB, im impl.Impl) {
	t.Helper()
	rapid.Check(t, func(rt *rapid.T) { p.check(rt, im) })
}

// Fuzz is p as the body of a native fuzz target (rapid.MakeFuzz): the
// fuzzer's bytes drive the same generators.
func (p Property) Fuzz(im impl.Impl) func(t *rapid.T) {
	return func(rt *rapid.T) { p.check(rt, im) }
}

var catalogue []Property

func init() { catalogue = properties() }

func properties() []Property {
	return []Property{
		{ID: "deterministic", Clause: "rule/1", Required: true, check: checkDeterministic,
			Statement: "The same schema and arguments always give the same result"},
		{ID: "shape-match-decoded", Clause: "rule/2", Required: true, check: checkShapeMatch,
			Statement: "A string that parses to the array or object its position declares is replaced by that value"},
		{ID: "string-param-not-decoded", Clause: "rule/3", Required: true, check: checkStringParam,
			Statement: "A string where the schema declares string is never JSON-decoded"},
		{ID: "wrong-shape-passes", Clause: "rule/3", Required: true, check: checkWrongShape,
			Statement: "A string whose JSON has a shape its position does not declare stays a string"},
		{ID: "leaves-are-fixpoints", Clause: "rule/4", Required: true, check: checkFixpoints,
			Statement: "Every string in the output is a fixpoint of the HTML tokenizer's decoding of references"},
		{ID: "keys-unchanged", Clause: "rule/5", Required: true, check: checkKeys,
			Statement: "Keys are never modified: the same keys in the same order at every depth, inside decoded values too"},
		{ID: "no-reference-unchanged", Clause: "rule/5", Required: true, check: checkNoReference,
			Statement: "A string without a character reference that is not JSON-decoded comes out unchanged"},
		{ID: "idempotent", Clause: "reading/6", check: checkIdempotent,
			Statement: "Normalizing the output again changes nothing"},
		{ID: "non-strings-unchanged", Clause: "reading/7", check: checkNonStrings,
			Statement: "Numbers (by exact decimal value), booleans and nulls come out unchanged"},
		{ID: "non-object-rejected", Clause: "reading/8", check: checkNonObject,
			Statement: "Arguments that are not a JSON object are an error"},
		{ID: "agrees-with-reference", Clause: "reading/1", check: checkAgrees,
			Statement: "The result equals the reference normalizer's, as JSON values (every reading at once)"},
	}
}

// A tcase is one drawn input.
type tcase struct {
	schema, args []byte
	opts         impl.Options
}

// drawCase draws a tool schema, arguments that fit it (with strings of
// every kind the rule is about) and options.
func drawCase(t *rapid.T, im impl.Impl) tcase {
	var params []prop
	args := &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}}
	keys := rapid.SliceOfNDistinct(rapid.SampledFrom(keyPool), 1, 4, func(k string) string { return k }).Draw(t, "params")
	for _, k := range keys {
		n := schemaNode(t, 3)
		params = append(params, prop{k, n})
		if rapid.IntRange(0, 5).Draw(t, "present") > 0 {
			args.Members = append(args.Members, jsonvalue.Member{Key: k, Value: value(t, n, 3)})
		}
	}
	if rapid.IntRange(0, 3).Draw(t, "undeclared") == 0 {
		args.Members = append(args.Members, jsonvalue.Member{Key: "extra", Value: value(t, &node{json: `{}`, types: tAll, leaf: tAll}, 2)})
	}
	return tcase{[]byte(document(params)), args.Append(nil), drawOptions(t, im)}
}

// drawOptions draws the options of a case: the text profile mostly, the
// attribute profile and pass bounds sometimes. An implementation that runs
// in one configuration (impl.Configured) gets only that one.
func drawOptions(t *rapid.T, im impl.Impl) impl.Options {
	if c, ok := im.(impl.Configured); ok {
		return c.Options()
	}
	var o impl.Options
	if rapid.IntRange(0, 4).Draw(t, "attribute") == 0 {
		o.Profile = "attribute"
	}
	if rapid.IntRange(0, 5).Draw(t, "bounded") == 0 {
		o.MaxPasses = rapid.IntRange(1, 2).Draw(t, "max-passes")
	}
	return o
}

// unbounded draws options without a pass bound, for the properties that
// speak of the fixpoint.
func unbounded(t *rapid.T, im impl.Impl) impl.Options {
	o := drawOptions(t, im)
	if o.MaxPasses != 0 {
		if _, ok := im.(impl.Configured); ok {
			t.Skip("the implementation declares a pass bound")
		}
		o.MaxPasses = 0
	}
	return o
}

// fail reports a violation with the case as a corpus vector (what the
// reference gives is its expected result) and how to replay it.
func fail(t *rapid.T, p string, c tcase, format string, args ...any) {
	prop, _ := ByID(p)
	v := corpus.New(prop.Statement, prop.Clause, "found", []string{p}, c.schema, c.args, c.opts, impl.Reference)
	msg := fmt.Sprintf(format, args...)
	record(&Violation{Property: prop, Vector: v, Message: msg})
	data, _ := corpus.Encode(v)
	t.Fatalf("property %s (%s): %s\nthe case, as a corpus vector (toolnorm corpus import --format jsonl, or save under vectors/found/):\n%s",
		p, prop.Statement, msg, data)
}

func run(im impl.Impl, c tcase) impl.Result { return im.Normalize(c.schema, c.args, c.opts) }

func parse(t *rapid.T, p string, c tcase, r impl.Result) *jsonvalue.Value {
	v, err := jsonvalue.Parse(r.Output)
	if err != nil {
		fail(t, p, c, "the output %q is not JSON: %v", r.Output, err)
	}
	return v
}

func checkDeterministic(t *rapid.T, im impl.Impl) {
	c := drawCase(t, im)
	if d := impl.Compare(run(im, c), run(im, c)); d != "" {
		fail(t, "deterministic", c, "two runs differ: %s", d)
	}
}

func checkAgrees(t *rapid.T, im impl.Impl) {
	c := drawCase(t, im)
	got, want := run(im, c), impl.Reference.Normalize(c.schema, c.args, c.opts)
	if d := impl.Compare(got, want); d != "" {
		fail(t, "agrees-with-reference", c, "%s: got %s%s, the reference gives %s%s", d, got.Output, got.Error, want.Output, want.Error)
	}
}

func checkIdempotent(t *rapid.T, im impl.Impl) {
	c := drawCase(t, im)
	c.opts = unbounded(t, im)
	once := run(im, c)
	if once.Error != "" {
		return
	}
	twice := im.Normalize(c.schema, once.Output, c.opts)
	if d := impl.Compare(twice, once); d != "" {
		fail(t, "idempotent", c, "once gives %s, twice %s%s", once.Output, twice.Output, twice.Error)
	}
}

// pass is one decoding pass of the oracle in the case's profile.
func pass(o impl.Options) func(string) string {
	if o.Profile == "attribute" {
		return oracle.UnescapeAttribute
	}
	return oracle.Unescape
}

func checkFixpoints(t *rapid.T, im impl.Impl) {
	c := drawCase(t, im)
	c.opts = unbounded(t, im)
	r := run(im, c)
	if r.Error != "" {
		return
	}
	one := pass(c.opts)
	walkStrings(parse(t, "leaves-are-fixpoints", c, r), "", func(at, s string) {
		if d := one(s); d != s {
			fail(t, "leaves-are-fixpoints", c, "the string at %s, %q, still decodes to %q", at, s, d)
		}
	})
}

func walkStrings(v *jsonvalue.Value, at string, f func(at, s string)) {
	switch v.Kind {
	case jsonvalue.String:
		f(at, v.Str)
	case jsonvalue.Array:
		for i, e := range v.Elems {
			walkStrings(e, fmt.Sprintf("%s/%d", at, i), f)
		}
	case jsonvalue.Object:
		for _, m := range v.Members {
			walkStrings(m.Value, at+"/"+pointerToken(m.Key), f)
		}
	}
}

func pointerToken(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}

// pairs walks the arguments and the output side by side, calling f for
// each pair of values at one place. Where a string became an array or an
// object, it goes on inside the string's JSON: as sent if that parses to
// the same kind, else after decoding its references (docs/readings.md,
// section 6). It returns a description of the first structural mismatch.
func pairs(in, out *jsonvalue.Value, at string, o impl.Options, f func(at string, in, out *jsonvalue.Value) string) string {
	if msg := f(at, in, out); msg != "" {
		return msg
	}
	switch {
	case in.Kind == jsonvalue.String && (out.Kind == jsonvalue.Array || out.Kind == jsonvalue.Object):
		for _, s := range []string{in.Str, fixpoint(in.Str, o)} {
			if v, err := jsonvalue.Parse([]byte(s)); err == nil && v.Kind == out.Kind {
				return pairs(v, out, at, o, f)
			}
		}
		return fmt.Sprintf("at %s the string %q became %s, which is not its JSON", at, in.Str, out.Append(nil))
	case in.Kind != out.Kind:
		return ""
	case in.Kind == jsonvalue.Array:
		if len(in.Elems) != len(out.Elems) {
			return fmt.Sprintf("at %s the array has %d elements, not %d", at, len(out.Elems), len(in.Elems))
		}
		for i := range in.Elems {
			if msg := pairs(in.Elems[i], out.Elems[i], fmt.Sprintf("%s/%d", at, i), o, f); msg != "" {
				return msg
			}
		}
	case in.Kind == jsonvalue.Object:
		if len(in.Members) != len(out.Members) {
			return fmt.Sprintf("at %s the object has %d members, not %d", at, len(out.Members), len(in.Members))
		}
		for i, m := range in.Members {
			if out.Members[i].Key != m.Key {
				return fmt.Sprintf("at %s member %d has the key %q, not %q", at, i, out.Members[i].Key, m.Key)
			}
			if msg := pairs(m.Value, out.Members[i].Value, at+"/"+pointerToken(m.Key), o, f); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func fixpoint(s string, o impl.Options) string {
	out, _, _ := oracle.Fixpoint(s, pass(o), 0)
	return out
}

// checkPairs draws a case, runs it, and holds every pair of values to f.
func checkPairs(t *rapid.T, im impl.Impl, id string, f func(at string, in, out *jsonvalue.Value) string) {
	c := drawCase(t, im)
	c.opts = unbounded(t, im)
	r := run(im, c)
	if r.Error != "" {
		return
	}
	in, err := jsonvalue.Parse(c.args)
	if err != nil {
		return
	}
	if msg := pairs(in, parse(t, id, c, r), "", c.opts, f); msg != "" {
		fail(t, id, c, "%s; output %s", msg, r.Output)
	}
}

func checkKeys(t *rapid.T, im impl.Impl) {
	checkPairs(t, im, "keys-unchanged", func(string, *jsonvalue.Value, *jsonvalue.Value) string { return "" })
}

func checkNoReference(t *rapid.T, im impl.Impl) {
	checkPairs(t, im, "no-reference-unchanged", func(at string, in, out *jsonvalue.Value) string {
		if in.Kind == jsonvalue.String && out.Kind == jsonvalue.String && !strings.Contains(in.Str, "&") && in.Str != out.Str {
			return fmt.Sprintf("at %s the string %q, which has no reference, became %q", at, in.Str, out.Str)
		}
		return ""
	})
}

func checkNonStrings(t *rapid.T, im impl.Impl) {
	checkPairs(t, im, "non-strings-unchanged", func(at string, in, out *jsonvalue.Value) string {
		switch in.Kind {
		case jsonvalue.Number, jsonvalue.Bool, jsonvalue.Null:
			if !jsonvalue.Equal(in, out) {
				return fmt.Sprintf("at %s %s became %s", at, in.Append(nil), out.Append(nil))
			}
		}
		return ""
	})
}

func checkNonObject(t *rapid.T, im impl.Impl) {
	args := rapid.SampledFrom([]string{`[]`, `[{"a":"&amp;"}]`, `"{}"`, `"x"`, `1`, `-0.5e3`, `true`, `false`, `null`, ` [1] `}).Draw(t, "args")
	c := tcase{[]byte(`{"type":"object"}`), []byte(args), drawOptions(t, im)}
	if r := run(im, c); r.Error == "" {
		fail(t, "non-object-rejected", c, "the arguments %s gave the output %s, not an error", args, r.Output)
	}
}

// Schemas that declare string at a position, in the forms the readings
// give (section 5): each must keep a JSON-looking string a string.
var stringDeclared = []string{
	`{"type":"string"}`,
	`{"type":["string","array"]}`,
	`{"type":["object","string","null"]}`,
	`{"type":"string","nullable":true}`,
	`{"anyOf":[{"type":"string"},{"type":"array"}]}`,
	`{"oneOf":[{"type":"object"},{"type":"string"}]}`,
	`{"$ref":"#/$defs/text"}`,
	`{"allOf":[{"type":["string","array"]},{"type":["string","object"]}]}`,
}

// Schemas that declare exactly one shape, and what they declare.
var shapeDeclared = []struct {
	json  string
	shape jsonvalue.Kind
}{
	{`{"type":"array"}`, jsonvalue.Array},
	{`{"type":["array","null"]}`, jsonvalue.Array},
	{`{"type":"array","items":{"type":"string"}}`, jsonvalue.Array},
	{`{"type":"array","nullable":true}`, jsonvalue.Array},
	{`{"anyOf":[{"type":"array"},{"type":"null"}]}`, jsonvalue.Array},
	{`{"$ref":"#/$defs/list"}`, jsonvalue.Array},
	{`{"type":"object"}`, jsonvalue.Object},
	{`{"type":["object","null"]}`, jsonvalue.Object},
	{`{"allOf":[{"type":["object","array"]},{"type":"object"}]}`, jsonvalue.Object},
	{`{"$ref":"#/$defs/map"}`, jsonvalue.Object},
}

const defs = `"$defs":{"text":{"type":"string"},"list":{"type":"array"},"map":{"type":"object"}}`

// jsonText draws the JSON text of a value of the given kind, as a model
// may send it in a string: padded, or with references inside its strings.
func jsonText(t *rapid.T, kind jsonvalue.Kind) string {
	var v *jsonvalue.Value
	leaf := &node{json: `{}`, types: tAll, leaf: tAll}
	switch kind {
	case jsonvalue.Array:
		v = value(t, &node{types: tArray, items: leaf}, 0)
		if v.Kind != jsonvalue.Array {
			v = &jsonvalue.Value{Kind: jsonvalue.Array, Elems: []*jsonvalue.Value{scalar(t)}}
		}
	case jsonvalue.Object:
		v = &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}}
		for range rapid.IntRange(0, 3).Draw(t, "members") {
			v.Members = append(v.Members, jsonvalue.Member{Key: rapid.SampledFrom(keyPool).Draw(t, "key"), Value: scalar(t)})
		}
	default:
		return rapid.SampledFrom([]string{"1", "null", `"x"`, "true", "-0.5", `"[1]"`}).Draw(t, "scalar-json")
	}
	s := string(v.Append(nil))
	if rapid.Bool().Draw(t, "pad") {
		s = " \n" + s + " "
	}
	return s
}

// placeCase puts a string at one parameter (or in an array of them), with
// other parameters around it.
func placeCase(t *rapid.T, im impl.Impl, schema, s string, inArray bool) (tcase, []any) {
	param, path := `"p":`+schema, []any{"p"}
	arg := quote(s)
	if inArray {
		param = `"p":{"type":"array","items":` + schema + `}`
		arg = append(append([]byte("["), arg...), ']')
		path = append(path, 0)
	}
	doc := `{"type":"object","properties":{` + param + `,"other":{"type":"string"}},` + defs + `}`
	args := `{"other":"Ember &amp;amp; Oak","p":` + string(arg) + `}`
	return tcase{[]byte(doc), []byte(args), unbounded(t, im)}, path
}

// at returns the value at path (keys and indexes) in the output.
func at(v *jsonvalue.Value, path []any) *jsonvalue.Value {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			var next *jsonvalue.Value
			if v.Kind == jsonvalue.Object {
				for _, m := range v.Members {
					if m.Key == s {
						next = m.Value
					}
				}
			}
			v = next
		case int:
			if v.Kind != jsonvalue.Array || s >= len(v.Elems) {
				return nil
			}
			v = v.Elems[s]
		}
		if v == nil {
			return nil
		}
	}
	return v
}

func checkStringParam(t *rapid.T, im impl.Impl) {
	schema := rapid.SampledFrom(stringDeclared).Draw(t, "schema")
	s := jsonText(t, rapid.SampledFrom([]jsonvalue.Kind{jsonvalue.Array, jsonvalue.Object}).Draw(t, "shape"))
	c, path := placeCase(t, im, schema, s, rapid.Bool().Draw(t, "in-array"))
	expectString(t, im, "string-param-not-decoded", c, path)
}

func checkWrongShape(t *rapid.T, im impl.Impl) {
	d := rapid.SampledFrom(shapeDeclared).Draw(t, "schema")
	other := rapid.SampledFrom([]jsonvalue.Kind{jsonvalue.Array, jsonvalue.Object, jsonvalue.Number}).Filter(func(k jsonvalue.Kind) bool { return k != d.shape }).Draw(t, "other")
	c, path := placeCase(t, im, d.json, jsonText(t, other), rapid.Bool().Draw(t, "in-array"))
	expectString(t, im, "wrong-shape-passes", c, path)
}

func expectString(t *rapid.T, im impl.Impl, id string, c tcase, path []any) {
	r := run(im, c)
	if r.Error != "" {
		fail(t, id, c, "error %s (%s)", r.Error, r.Detail)
	}
	if v := at(parse(t, id, c, r), path); v == nil || v.Kind != jsonvalue.String {
		fail(t, id, c, "the string at %v was replaced: output %s", path, r.Output)
	}
}

func checkShapeMatch(t *rapid.T, im impl.Impl) {
	d := rapid.SampledFrom(shapeDeclared).Draw(t, "schema")
	s := jsonText(t, d.shape)
	if rapid.Bool().Draw(t, "escaped") {
		s = htmlEscape(s, 1) // decodes to JSON of the shape: repaired too (section 6)
	}
	c, path := placeCase(t, im, d.json, s, rapid.Bool().Draw(t, "in-array"))
	if c.opts.Depth == "top" && len(path) > 1 {
		return // an implementation that declares depth top repairs top-level parameters only
	}
	if !parsesAs(s, d.shape) && !parsesAs(fixpoint(s, c.opts), d.shape) {
		return // decoding its references broke its JSON: not a case for this property
	}
	r := run(im, c)
	if r.Error != "" {
		fail(t, "shape-match-decoded", c, "error %s (%s)", r.Error, r.Detail)
	}
	if v := at(parse(t, "shape-match-decoded", c, r), path); v == nil || v.Kind != d.shape {
		fail(t, "shape-match-decoded", c, "the string at %v was not replaced by its %s: output %s", path, d.shape, r.Output)
	}
}

func parsesAs(s string, kind jsonvalue.Kind) bool {
	v, err := jsonvalue.Parse([]byte(s))
	return err == nil && v.Kind == kind
}

// Case is one input: a schema, arguments and the options to run them
// under.
type Case struct {
	Schema, Args []byte
	Options      impl.Options
}

// Cases generates inputs as the properties draw them (schemas built for the
// rule, arguments that fit them, strings of every kind the rule is about),
// with options im can run (see impl.Configured). Example(seed) draws one
// outside a property, for fuzzing.
func Cases(im impl.Impl) *rapid.Generator[Case] {
	return rapid.Custom(func(t *rapid.T) Case {
		c := drawCase(t, im)
		return Case{c.schema, c.args, c.opts}
	})
}
