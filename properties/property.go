package properties

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/minimize"
	"github.com/toolnorm/toolnorm/internal/schemagen"
	"github.com/toolnorm/toolnorm/internal/schemaview"
	"github.com/toolnorm/toolnorm/normalize"
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
	// Fixpoint is true for a property about the unbounded fixpoint: it
	// does not apply to an implementation that declares a pass bound.
	Fixpoint bool
	// Repair is the repair the property speaks of, if it speaks of one
	// only: it does not apply to an implementation that declares it does
	// not do it (the report says that clause is not implemented, once).
	Repair normalize.Repairs

	draw  func(t *rapid.T, o impl.Options) Case
	holds func(r *runner, c Case) string
	// witness, if set, gives the arguments that show a violation when the
	// case itself replays clean (see replayable), or nil, from what the
	// implementation gives for the case.
	witness func(once impl.Result) []byte
}

// Applies reports whether p applies to an implementation that runs under
// o: every property does, but for those about the unbounded fixpoint under
// a pass bound, and those about a repair o leaves out.
func (p Property) Applies(o impl.Options) bool { return p.Inapplicable(o) == "" }

// Inapplicable says why p does not apply under o, or "" when it does.
func (p Property) Inapplicable(o impl.Options) string {
	switch {
	case p.Fixpoint && o.Bounded():
		return "the implementation declares a pass bound (" + o.String() + "); the property speaks of the unbounded fixpoint"
	case p.Repair == normalize.JSONRepair && !o.Repairs.JSON():
		return "the implementation declares it does not do the JSON repair, of which the property speaks"
	case p.Repair == normalize.EntityRepair && !o.Repairs.Entities():
		return "the implementation declares it does not do the entity repair, of which the property speaks"
	}
	return ""
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
// (then shrinks it with rapid and fails t, printing it as a corpus vector)
// or the checks run out (-rapid.checks, 100 by default). A failure of the
// implementation (a crash, a timeout) fails t too, as what it is.
func (p Property) Check(t rapid.TB, im impl.Impl) {
	t.Helper()
	rapid.Check(t, p.Fuzz(im))
}

// Fuzz is p as the body of a native fuzz target (rapid.MakeFuzz): the
// fuzzer's bytes drive the same generators.
func (p Property) Fuzz(im impl.Impl) func(t *rapid.T) {
	return func(rt *rapid.T) {
		o, ok := p.options(rt, im)
		if !ok {
			return // the property does not apply to im
		}
		c := p.draw(rt, o)
		switch o := p.Judge(context.Background(), im, c, nil); {
		case o.Failure != nil:
			rt.Fatalf("property %s: the implementation failed: %v", p.ID, o.Failure)
		case o.Message != "":
			data, _ := corpus.Encode(p.Vector(c))
			rt.Fatalf("property %s (%s): %s\nthe case, as a corpus vector (toolnorm corpus import --format jsonl, or save under vectors/found/):\n%s",
				p.ID, p.Statement, o.Message, data)
		}
	}
}

// Case is one input drawn for a property: the case to run, and for the
// properties about one position, where the string under test is and the
// schema declared there.
type Case struct {
	impl.Case
	Focus []any  // keys and array indexes
	Decl  string // the schema at Focus
	// shrunk is true for a case the minimizer made: its schema may no
	// longer mean what Decl says (a $ref whose target it dropped), so a
	// property about the declared type asks the reference what it means.
	shrunk bool
	// placed is what placeCase put together, with the string it put at
	// Focus: while the case still holds it, the premise that focus checks
	// holds by construction (TestPlacedFocus), and focus reads nothing.
	placed *placement
}

type placement struct {
	schema, args []byte
	focus        []any
	decl, str    string
}

// Draw draws the case of p that seed gives: the same seed, the same case.
// An implementation that runs in one configuration (impl.Configured) gets
// cases with its options only.
func (p Property) Draw(seed uint64, im impl.Impl) Case {
	return rapid.Custom(func(t *rapid.T) Case {
		o, _ := p.options(t, im)
		return p.draw(t, o)
	}).Example(int(seed >> 1))
}

// options draws the options of a case: the text profile mostly, the
// attribute profile and pass bounds sometimes (never for a property about
// the unbounded fixpoint). An implementation that runs in one
// configuration gets only that one; ok is false if p does not apply to it.
func (p Property) options(t *rapid.T, im impl.Impl) (o impl.Options, ok bool) {
	if o, ok := impl.OptionsOf(im); ok {
		return o, p.Applies(o)
	}
	if genAttribute.Draw(t, "attribute") == 0 {
		o.Profile = normalize.Attribute
	}
	if !p.Fixpoint && genBounded.Draw(t, "bounded") == 0 {
		o.MaxPasses = genMaxPasses.Draw(t, "max-passes")
	}
	return o, true
}

// Outcome is what became of one case of a property.
type Outcome struct {
	// Message says how the property broke; "" when it holds.
	Message string
	// Failure is the implementation's failure (a timeout, a crash, a
	// protocol error, a case not run) when it had one: the case was not
	// judged.
	Failure *impl.Result
	// FailedOn is the case whose run failed, when Failure is set: the
	// case judged, or one of its further runs.
	FailedOn impl.Case
	// Moot is true when the case no longer meets the property's premise
	// (a minimization can make it so): it says nothing.
	Moot bool
}

// Judge runs c on im and says whether p holds. first, if not nil, is the
// result of running c.Case already (by a batch): it stands for the first
// run.
func (p Property) Judge(ctx context.Context, im impl.Impl, c Case, first *impl.Result) Outcome {
	o, _ := p.judge(ctx, im, c, first, nil)
	return o
}

// judge is Judge; with a script, the requests after the first come from it
// (see JudgeBatch), and pending is true when the case needs one it does
// not hold yet (script.need).
func (p Property) judge(ctx context.Context, im impl.Impl, c Case, first *impl.Result, s *script) (o Outcome, pending bool) {
	r := &runner{ctx: ctx, im: im, base: c.Case, first: first, script: s}
	defer func() {
		switch x := recover().(type) {
		case nil:
		case failed:
			o = Outcome{Failure: &x.r, FailedOn: x.c}
		case moot:
			o = Outcome{Moot: true}
		case needed:
			pending = true
		default:
			panic(x)
		}
	}()
	return Outcome{Message: p.holds(r, c)}, false
}

// Vector is c as a corpus vector that expects what the reference gives.
func (p Property) Vector(c Case) *corpus.Vector {
	return corpus.New(p.Statement, p.Clause, "found", []string{p.ID}, c.Schema, c.Args, c.Options, impl.Reference)
}

// Minimize shrinks a case on which p breaks, with the minimizer every
// finding goes through (internal/minimize), while p still breaks on it; it
// returns the smallest case and its outcome. When ctx is done (the check's
// time is up) minimizing stops with what it has. When im is an
// impl.Batcher, a minimizing step's candidates are judged as one batch
// (JudgeBatch, minimize.MinimizeBatch), up to the first that still breaks
// p: the case is the one judging them one at a time gives, for an
// implementation that answers the same way each time.
func (p Property) Minimize(ctx context.Context, im impl.Impl, c Case) (Case, Outcome) {
	out := p.Judge(ctx, im, c, nil)
	if out.Message == "" {
		return c, out
	}
	shrunk := func(s, a []byte) Case {
		t := c
		t.Schema, t.Args, t.shrunk = s, a, true
		return t
	}
	var schema, args []byte
	if _, ok := im.(impl.Batcher); ok {
		schema, args, _ = minimize.MinimizeBatch(ctx, c.Schema, c.Args, func(cs []minimize.Candidate) int {
			ts := make([]Case, len(cs))
			for i, x := range cs {
				ts[i] = shrunk(x.Schema, x.Args)
			}
			outs := p.JudgeBatch(ctx, im, ts, nil, broken)
			if i := len(outs) - 1; i >= 0 && broken(outs[i]) {
				return i
			}
			return -1
		})
	} else {
		schema, args = minimize.Minimize(ctx, c.Schema, c.Args, func(s, a []byte) bool {
			return p.Judge(ctx, im, shrunk(s, a), nil).Message != ""
		})
	}
	m := shrunk(schema, args)
	if o := p.Judge(ctx, im, m, nil); o.Message != "" {
		return m, o
	}
	return c, out // a flaky implementation: the case found stands
}

func broken(o Outcome) bool { return o.Message != "" }

// runner runs cases of one Judge on the implementation. A failure of the
// implementation ends the Judge (panic(failed)), as does a case whose
// premise no longer holds (panic(moot)), and, with a script, a request the
// script has no answer for yet (panic(needed)).
type runner struct {
	ctx    context.Context
	im     impl.Impl
	base   impl.Case
	first  *impl.Result
	script *script // nil: each request runs on im as it comes
}

type failed struct {
	r impl.Result
	c impl.Case
}
type moot struct{}

// run runs a case; the first run of the base case is the one given, if
// any, and the others come from the script, if any.
func (r *runner) run(c impl.Case) impl.Result {
	var res impl.Result
	switch {
	case r.first != nil && sameCase(c, r.base):
		res, r.first = *r.first, nil
	case r.script != nil:
		res = r.script.answer(c)
	default:
		res = r.im.Normalize(r.ctx, c)
	}
	if res.Kind() == impl.KindNotSendable {
		panic(moot{}) // the case did not reach the implementation: it says nothing
	}
	if res.Failed() {
		panic(failed{res, c})
	}
	return res
}

func sameCase(x, y impl.Case) bool {
	return bytes.Equal(x.Schema, y.Schema) && bytes.Equal(x.Args, y.Args) && x.Options == y.Options
}

// reference is the reference's answer for c, which must be an answer: a
// case the reference rejects is no case for a property that needs one.
func (r *runner) reference(c impl.Case) impl.Result {
	res := r.expected(c)
	if !res.Answered() {
		panic(moot{})
	}
	return res
}

// expected is the reference's result for c, an answer or an error. The
// reference stops with the check (its budget, an interrupt): a case whose
// expected result it did not finish is not run (panic(failed), as the
// implementation's own not run is), never judged against no result.
func (r *runner) expected(c impl.Case) impl.Result {
	res := impl.Reference.Normalize(r.ctx, c)
	if res.Kind() == impl.KindNotRun {
		panic(failed{res, c})
	}
	return res
}

var catalogue []Property

func init() { catalogue = properties() }

func properties() []Property {
	return []Property{
		{ID: "deterministic", Clause: "rule/1", Required: true, draw: drawCase, holds: holdsDeterministic,
			Statement: "The same schema and arguments always give the same result"},
		{ID: "shape-match-decoded", Clause: "rule/2", Required: true, Repair: normalize.JSONRepair, draw: drawShapeMatch, holds: holdsShapeMatch,
			Statement: "A string that parses to the array or object its position declares is replaced by that value"},
		{ID: "string-param-not-decoded", Clause: "rule/3", Required: true, draw: drawStringParam, holds: holdsString("string-param-not-decoded"),
			Statement: "A string where the schema declares string is never JSON-decoded"},
		{ID: "wrong-shape-passes", Clause: "rule/3", Required: true, draw: drawWrongShape, holds: holdsString("wrong-shape-passes"),
			Statement: "A string whose JSON has a shape its position does not declare stays a string"},
		{ID: "leaves-are-fixpoints", Clause: "rule/4", Required: true, Fixpoint: true, Repair: normalize.EntityRepair, draw: drawCase, holds: holdsFixpoints,
			Statement: "Every string in the output is a fixpoint of the HTML tokenizer's decoding of references"},
		{ID: "keys-unchanged", Clause: "rule/5", Required: true, draw: drawCase, holds: holdsKeys,
			Statement: "Keys are never modified: the same keys in the same order at every depth, inside decoded values too"},
		{ID: "no-reference-unchanged", Clause: "rule/5", Required: true, draw: drawCase, holds: holdsNoReference,
			Statement: "A string without a character reference that is not JSON-decoded comes out unchanged"},
		{ID: "idempotent", Clause: "reading/6", Fixpoint: true, draw: drawCase, holds: holdsIdempotent, witness: witnessIdempotent,
			Statement: "Normalizing the output again changes nothing"},
		{ID: "non-strings-unchanged", Clause: "reading/7", draw: drawCase, holds: holdsNonStrings,
			Statement: "Numbers (by exact decimal value), booleans and nulls come out unchanged"},
		{ID: "non-object-rejected", Clause: "reading/8", draw: drawNonObject, holds: holdsNonObject,
			Statement: "Arguments that are not a JSON object are an error"},
		{ID: AgreesWithReference, Clause: "reading/1", draw: drawCase, holds: holdsAgrees,
			Statement: "The result equals the reference normalizer's, as JSON values (every reading at once)"},
	}
}

// The generators of the cases and options (see genBool).
var (
	// genVocabulary draws, one case in four, from the whole vocabulary.
	genVocabulary     = rapid.IntRange(0, 3)
	genSeedPart       = rapid.IntRange(0, 1<<16-1)
	genAttribute      = rapid.IntRange(0, 4)
	genBounded        = rapid.IntRange(0, 5)
	genMaxPasses      = rapid.IntRange(1, 2)
	genParams         = distinctKeys()
	genParamPresent   = rapid.IntRange(0, 5)
	genUndeclared     = rapid.IntRange(0, 3)
	genNonObject      = rapid.SampledFrom(nonObjects)
	genMembers        = rapid.IntRange(0, 3)
	genKey            = rapid.SampledFrom(keyPool)
	genScalarJSON     = rapid.SampledFrom([]string{"1", "null", `"x"`, "true", "-0.5", `"[1]"`})
	genStringDeclared = rapid.SampledFrom(stringDeclared)
	genShape          = rapid.SampledFrom([]jsonvalue.Kind{jsonvalue.Array, jsonvalue.Object})
	genShapeDeclared  = rapid.SampledFrom(shapeDeclared)
	// genOtherShape draws a kind other than the shape declared: one
	// generator for each shape of shapeDeclared.
	genOtherShape = map[jsonvalue.Kind]*rapid.Generator[jsonvalue.Kind]{
		jsonvalue.Array:  otherThan(jsonvalue.Array),
		jsonvalue.Object: otherThan(jsonvalue.Object),
	}
)

func otherThan(shape jsonvalue.Kind) *rapid.Generator[jsonvalue.Kind] {
	return rapid.SampledFrom([]jsonvalue.Kind{jsonvalue.Array, jsonvalue.Object, jsonvalue.Number}).Filter(func(k jsonvalue.Kind) bool { return k != shape })
}

// drawCase draws a tool schema and arguments that fit it (with strings of
// every kind the rule is about).
func drawCase(t *rapid.T, o impl.Options) Case {
	if genVocabulary.Draw(t, "vocabulary") == 0 {
		return drawVocabulary(t, o)
	}
	var params []prop
	args := &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}}
	keys := genParams.Draw(t, "params")
	for _, k := range keys {
		n := schemaNode(t, 3)
		params = append(params, prop{key: k, n: n})
		if genParamPresent.Draw(t, "present") > 0 {
			args.Members = append(args.Members, jsonvalue.Member{Key: k, Value: value(t, n, 3)})
		}
	}
	if genUndeclared.Draw(t, "undeclared") == 0 {
		args.Members = append(args.Members, jsonvalue.Member{Key: "extra", Value: value(t, &node{json: `{}`, types: tAll, leaf: tAll}, 2)})
	}
	return Case{Case: impl.Case{Schema: []byte(document(params)), Args: args.Append(nil), Options: o}}
}

// drawVocabulary draws a case over the whole vocabulary tools ship
// (internal/schemagen: every type form, the validation keywords beside
// them, every applicator, references of every kind, every draft, special
// keys, arguments that fit or break the schema at one place), its
// strings' text drawn as the other cases draw theirs.
func drawVocabulary(t *rapid.T, o impl.Options) Case {
	var seed uint64
	for range 4 {
		seed = seed<<16 | uint64(genSeedPart.Draw(t, "seed"))
	}
	schema, args, _ := schemagen.DrawTrees(seed, schemagen.Options{Text: func() string { return text(t) }})
	return Case{Case: impl.Case{Schema: schema.Append(nil), Args: args.Append(nil), Options: o}}
}

func holdsDeterministic(r *runner, c Case) string {
	if d := impl.Compare(r.run(c.Case), r.run(c.Case)).Diff; d != "" {
		return "two runs differ: " + d
	}
	return ""
}

func holdsAgrees(r *runner, c Case) string {
	got, want := r.run(c.Case), r.expected(c.Case)
	if c := impl.Compare(got, want); c.Diff != "" {
		return c.Message(got, want, "the reference gives")
	}
	return ""
}

func holdsIdempotent(r *runner, c Case) string {
	once := r.run(c.Case)
	if !once.Answered() {
		return ""
	}
	twice := r.run(impl.Case{Schema: c.Schema, Args: once.Output, Options: c.Options})
	if d := impl.Compare(twice, once).Diff; d != "" {
		return fmt.Sprintf("once gives %s, twice %s", once.Show(impl.MaxShown), twice.Show(impl.MaxShown))
	}
	return ""
}

// witnessIdempotent is the input a replay shows a broken idempotence on:
// the implementation's own output, which it changes again.
func witnessIdempotent(once impl.Result) []byte {
	if once.Answered() {
		return once.Output
	}
	return nil
}

// pass is one decoding pass of the oracle in the case's profile.
func pass(o impl.Options) func(string) string {
	if o.Profile == normalize.Attribute {
		return oracle.UnescapeAttribute
	}
	return oracle.Unescape
}

// parse reads an implementation's output; output that is not JSON breaks
// every property that reads it.
func parse(res impl.Result) (*jsonvalue.Value, string) {
	v, err := jsonvalue.Parse(res.Output)
	if err != nil {
		return nil, fmt.Sprintf("the output %s is not JSON: %v", res.Show(impl.MaxShown), err)
	}
	return v, ""
}

func holdsFixpoints(r *runner, c Case) string {
	res := r.run(c.Case)
	if !res.Answered() {
		return ""
	}
	v, msg := parse(res)
	if msg != "" {
		return msg
	}
	one := pass(c.Options)
	walkStrings(v, "", func(at, s string) {
		if d := one(s); d != s && msg == "" {
			msg = fmt.Sprintf("the string at %s, %s, still decodes to %s", place(at), display.ClipQuote(s, impl.MaxShown), display.ClipQuote(d, impl.MaxShown))
		}
	})
	return msg
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

func pointerToken(k string) string { return pointerEscaper.Replace(k) }

// pointerEscaper escapes a JSON Pointer token (built once: building a
// Replacer costs more than most replacements).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pairs holds each pair of an input value and the output value at the
// same place to f. Where a string became an array or an object, it goes on
// inside the string's JSON: as sent if that parses to the same kind, else
// after decoding its references as the options say (docs/readings.md,
// section 6). keys says whether the
// property is about keys: then a change of the keys (a key changed, a
// member dropped, added or moved, an element count changed) is its
// violation. The other properties are not charged with a change of
// structure: they compare members by key and stop where the shapes part.
func pairs(in, out *jsonvalue.Value, at string, o impl.Options, keys bool, f func(at string, in, out *jsonvalue.Value) string) string {
	if msg := f(at, in, out); msg != "" {
		return msg
	}
	switch {
	case in.Kind == jsonvalue.String && (out.Kind == jsonvalue.Array || out.Kind == jsonvalue.Object):
		for _, s := range []string{in.Str, fixpoint(in.Str, o)} {
			if v, err := jsonvalue.Parse([]byte(s)); err == nil && v.Kind == out.Kind {
				return pairs(v, out, at, o, keys, f)
			}
		}
		return "" // not its JSON: a difference of the JSON repair, no property's here
	case in.Kind != out.Kind:
		return ""
	case in.Kind == jsonvalue.Array:
		if len(in.Elems) != len(out.Elems) {
			if keys {
				return fmt.Sprintf("at %s the array has %s, not %d", place(at), count(len(out.Elems), "element"), len(in.Elems))
			}
			return ""
		}
		for i := range in.Elems {
			if msg := pairs(in.Elems[i], out.Elems[i], fmt.Sprintf("%s/%d", at, i), o, keys, f); msg != "" {
				return msg
			}
		}
	case in.Kind == jsonvalue.Object && keys:
		if len(in.Members) != len(out.Members) {
			return fmt.Sprintf("at %s the object has %s, not %d", place(at), count(len(out.Members), "member"), len(in.Members))
		}
		for i, m := range in.Members {
			if out.Members[i].Key != m.Key {
				return fmt.Sprintf("at %s member %d has the key %s, not %s", place(at), i, display.ClipQuote(out.Members[i].Key, impl.MaxShown), display.ClipQuote(m.Key, impl.MaxShown))
			}
			if msg := pairs(m.Value, out.Members[i].Value, at+"/"+pointerToken(m.Key), o, keys, f); msg != "" {
				return msg
			}
		}
	case in.Kind == jsonvalue.Object:
		// A key's k-th member pairs with the output's k-th member of that
		// key: a key given twice is two members (reading 7).
		for i, m := range in.Members {
			nth := 0
			for _, im := range in.Members[:i] {
				if im.Key == m.Key {
					nth++
				}
			}
			for _, om := range out.Members {
				if om.Key != m.Key {
					continue
				}
				if nth > 0 {
					nth--
					continue
				}
				if msg := pairs(m.Value, om.Value, at+"/"+pointerToken(m.Key), o, keys, f); msg != "" {
					return msg
				}
				break
			}
		}
	}
	return ""
}

// fixpoint decodes s's references as o says: to the fixpoint, or as far
// as its pass bound.
func fixpoint(s string, o impl.Options) string {
	if !o.Repairs.Entities() {
		return s
	}
	out, _, _ := oracle.Fixpoint(s, pass(o), o.MaxPasses)
	return out
}

// holdsPairs runs a case and holds every pair of values to f.
func holdsPairs(r *runner, c Case, keys bool, f func(at string, in, out *jsonvalue.Value) string) string {
	res := r.run(c.Case)
	if !res.Answered() {
		return ""
	}
	in, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return ""
	}
	out, msg := parse(res)
	if msg != "" {
		return msg
	}
	if msg := pairs(in, out, "", c.Options, keys, f); msg != "" {
		return msg + "; output " + res.Show(impl.MaxShown)
	}
	return ""
}

func holdsKeys(r *runner, c Case) string {
	return holdsPairs(r, c, true, func(string, *jsonvalue.Value, *jsonvalue.Value) string { return "" })
}

func holdsNoReference(r *runner, c Case) string {
	return holdsPairs(r, c, false, func(at string, in, out *jsonvalue.Value) string {
		if in.Kind == jsonvalue.String && out.Kind == jsonvalue.String && !strings.Contains(in.Str, "&") && in.Str != out.Str {
			return fmt.Sprintf("at %s the string %s, which has no reference, became %s", place(at), display.ClipQuote(in.Str, impl.MaxShown), display.ClipQuote(out.Str, impl.MaxShown))
		}
		return ""
	})
}

func holdsNonStrings(r *runner, c Case) string {
	return holdsPairs(r, c, false, func(at string, in, out *jsonvalue.Value) string {
		switch in.Kind {
		case jsonvalue.Number, jsonvalue.Bool, jsonvalue.Null:
			if !jsonvalue.Equal(in, out) {
				return fmt.Sprintf("at %s %s became %s", place(at), display.ClipJSON(in.Append(nil), impl.MaxShown), display.ClipJSON(out.Append(nil), impl.MaxShown))
			}
		}
		return ""
	})
}

var nonObjects = []string{`[]`, `[{"a":"&amp;"}]`, `"{}"`, `"x"`, `1`, `-0.5e3`, `true`, `false`, `null`, ` [1] `}

func drawNonObject(t *rapid.T, o impl.Options) Case {
	args := genNonObject.Draw(t, "args")
	return Case{Case: impl.Case{Schema: []byte(`{"type":"object"}`), Args: []byte(args), Options: o}}
}

func holdsNonObject(r *runner, c Case) string {
	if v, err := jsonvalue.Parse(c.Args); err != nil || v.Kind == jsonvalue.Object {
		panic(moot{}) // minimized into an object, or into no JSON at all
	}
	if res := r.run(c.Case); res.Answered() {
		return fmt.Sprintf("the arguments %s gave the output %s, not an error", display.ClipJSON(c.Args, impl.MaxShown), res.Show(impl.MaxShown))
	}
	return ""
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
	// Validation keywords beside a type list that admits string: a
	// string that breaks them is still declared string (issue 36).
	`{"type":["string","array"],"maxLength":1}`,
	`{"type":["array","string"],"minLength":40}`,
	`{"type":["string","object","null"],"maxLength":2,"minLength":1}`,
	`{"type":["string","array"],"pattern":"^x"}`,
	`{"type":["object","string"],"enum":["x",null]}`,
	`{"type":["string","array"],"format":"email"}`,
	`{"$ref":"#/$defs/text","maxLength":1}`,
	`{"allOf":[{"type":["string","array"]},{"maxLength":1}]}`,
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
	// Validation keywords beside: they never stop the repair.
	{`{"type":"array","maxLength":1}`, jsonvalue.Array},
	{`{"type":"array","maxItems":1,"uniqueItems":true}`, jsonvalue.Array},
	{`{"type":"object","minLength":40,"required":["zz"]}`, jsonvalue.Object},
	{`{"type":"object","maxProperties":1,"propertyNames":{"maxLength":1}}`, jsonvalue.Object},
}

func declaredShape(decl string) jsonvalue.Kind {
	for _, d := range shapeDeclared {
		if d.json == decl {
			return d.shape
		}
	}
	return jsonvalue.Null
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
		for range genMembers.Draw(t, "members") {
			v.Members = append(v.Members, jsonvalue.Member{Key: genKey.Draw(t, "key"), Value: scalar(t)})
		}
	default:
		return genScalarJSON.Draw(t, "scalar-json")
	}
	s := string(v.Append(nil))
	if genBool.Draw(t, "pad") {
		s = " \n" + s + " "
	}
	return s
}

// placeCase puts a string at one parameter (or in an array of them), with
// other parameters around it. An implementation that declares depth top
// gets it at the top level only: the properties about one position speak
// of every depth where the JSON repair applies.
func placeCase(t *rapid.T, o impl.Options, schema, s string) Case {
	inArray := o.Depth != normalize.TopLevel && genBool.Draw(t, "in-array")
	param, path := `"p":`+schema, []any{"p"}
	arg := quote(s)
	if inArray {
		param = `"p":{"type":"array","items":` + schema + `}`
		arg = append(append([]byte("["), arg...), ']')
		path = append(path, 0)
	}
	doc := `{"type":"object","properties":{` + param + `,"other":{"type":"string"}},` + defs + `}`
	args := `{"other":"Ember &amp;amp; Oak","p":` + string(arg) + `}`
	c := Case{Case: impl.Case{Schema: []byte(doc), Args: []byte(args), Options: o}, Focus: path, Decl: schema}
	c.placed = &placement{schema: c.Schema, args: c.Args, focus: path, decl: schema, str: s}
	return c
}

// at returns the value at path (keys and indexes) in v.
func at(v *jsonvalue.Value, path []any) *jsonvalue.Value {
	for _, step := range path {
		if v == nil {
			return nil
		}
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

// focus checks the premise of a property about one position: the schema
// still declares c.Decl there, and the arguments still hold a string
// there, which it returns. A minimized case that lost either is moot.
func focus(c Case) string { return focusAt(c, false) }

// focusAt is focus; with loose, a shrunk case may declare something other
// than c.Decl at the focus (the property then asks what it declares).
func focusAt(c Case, loose bool) string {
	if p := c.placed; p != nil && !c.shrunk && c.Decl == p.decl && slices.Equal(c.Focus, p.focus) &&
		bytes.Equal(c.Schema, p.schema) && bytes.Equal(c.Args, p.args) {
		return p.str
	}
	return focusParsed(c, loose && c.shrunk)
}

// focusParsed is focus, reading the case; with loose, the schema at the
// focus need not be c.Decl.
func focusParsed(c Case, loose bool) string {
	schema, err1 := jsonvalue.Parse(c.Schema)
	args, err2 := jsonvalue.Parse(c.Args)
	if err1 != nil || err2 != nil {
		panic(moot{})
	}
	decl := at(schema, []any{"properties", "p"})
	if len(c.Focus) > 1 {
		decl = at(decl, []any{"items"})
	}
	arg := at(args, c.Focus)
	if decl == nil || !loose && string(decl.Append(nil)) != c.Decl || arg == nil || arg.Kind != jsonvalue.String {
		panic(moot{})
	}
	return arg.Str
}

func drawStringParam(t *rapid.T, o impl.Options) Case {
	schema := genStringDeclared.Draw(t, "schema")
	s := jsonText(t, genShape.Draw(t, "shape"))
	return placeCase(t, o, schema, s)
}

func drawWrongShape(t *rapid.T, o impl.Options) Case {
	d := genShapeDeclared.Draw(t, "schema")
	other := genOtherShape[d.shape].Draw(t, "other")
	return placeCase(t, o, d.json, jsonText(t, other))
}

// holdsString is the check of the properties that expect the string at
// the focus to stay a string.
func holdsString(id string) func(r *runner, c Case) string {
	return func(r *runner, c Case) string {
		// A shrunk case may lose what the declaration does not need (an
		// `allOf` around a type list that names `string`, a type list
		// inside an `allOf`), and must still declare what was drawn: a
		// string parameter, or the shape drawn; never `{}`, under which
		// nothing is declared.
		s := focusAt(c, true)
		if id == "wrong-shape-passes" {
			// The premise: neither the string nor its decoded text parses
			// to the declared shape.
			shape := declaredShape(c.Decl)
			if parsesAs(s, shape) || parsesAs(fixpoint(s, c.Options), shape) {
				panic(moot{})
			}
			if c.shrunk && !schemaview.Declares(c.Schema, c.Args, pointer(c.Focus), shape.String()) {
				panic(moot{})
			}
		} else if c.shrunk && !schemaview.DeclaresString(c.Schema, c.Args, pointer(c.Focus)) {
			panic(moot{})
		} else if c.shrunk && !parsesAsJSON(s) && !parsesAsJSON(fixpoint(s, c.Options)) {
			// What was drawn is JSON text: shrunk to text that is not
			// (""), a program that makes an array of it shows another
			// bug than the decoding the property speaks of.
			panic(moot{})
		}
		if c.shrunk && referenceAt(r, c) != jsonvalue.String {
			panic(moot{}) // the shrunk schema no longer means what was drawn
		}
		v, res, msg := runFocus(r, c)
		if msg == "" && (v == nil || v.Kind != jsonvalue.String) {
			msg = fmt.Sprintf("the string at %s was replaced: output %s", pointer(c.Focus), res.Show(impl.MaxShown))
		}
		return msg
	}
}

func drawShapeMatch(t *rapid.T, o impl.Options) Case {
	d := genShapeDeclared.Draw(t, "schema")
	s := jsonText(t, d.shape)
	if genBool.Draw(t, "escaped") {
		escaped := htmlEscape(s, 1) // decodes to JSON of the shape: repaired too (section 6)
		if parsesAs(fixpoint(escaped, o), d.shape) {
			s = escaped
		}
	}
	return placeCase(t, o, d.json, s)
}

// referenceAt is the kind of what the reference gives at c's focus, for
// the premise of a shrunk case (see Case.shrunk); a case the reference
// rejects is moot.
func referenceAt(r *runner, c Case) jsonvalue.Kind {
	out, err := jsonvalue.Parse(r.reference(c.Case).Output)
	if err != nil {
		panic(moot{})
	}
	v := at(out, c.Focus)
	if v == nil {
		panic(moot{})
	}
	return v.Kind
}

func holdsShapeMatch(r *runner, c Case) string {
	// A shrunk case may lose what the declaration does not need (a
	// `null` in the drawn type list), as long as the reference still
	// decodes the shape drawn there (below).
	s, shape := focusAt(c, true), declaredShape(c.Decl)
	if !parsesAs(s, shape) && !parsesAs(fixpoint(s, c.Options), shape) {
		panic(moot{}) // not the JSON of the shape, as sent or decoded
	}
	if c.shrunk && referenceAt(r, c) != shape {
		panic(moot{}) // the shrunk schema no longer declares the shape
	}
	if c.Options.Depth == normalize.TopLevel && len(c.Focus) > 1 {
		panic(moot{}) // depth top repairs top-level parameters only
	}
	v, res, msg := runFocus(r, c)
	if msg == "" && (v == nil || v.Kind != shape) {
		return fmt.Sprintf("the string at %s was not replaced by its %s: output %s", pointer(c.Focus), shape, res.Show(impl.MaxShown))
	}
	return msg
}

// runFocus runs a case of a property about one position and returns the
// output's value there, the result (for a message: most cases need none)
// and, if the output is an error or not JSON, the message that says so.
func runFocus(r *runner, c Case) (v *jsonvalue.Value, res impl.Result, msg string) {
	res = r.run(c.Case)
	if !res.Answered() {
		return nil, res, res.Show(impl.MaxShown)
	}
	out, msg := parse(res)
	if msg != "" {
		return nil, res, msg
	}
	return at(out, c.Focus), res, ""
}

// parsesAsJSON reports whether s is JSON text.
func parsesAsJSON(s string) bool {
	_, err := jsonvalue.Parse([]byte(s))
	return err == nil
}

func parsesAs(s string, kind jsonvalue.Kind) bool {
	v, err := jsonvalue.Parse([]byte(s))
	return err == nil && v.Kind == kind
}

// pointer is a path as a JSON Pointer.
// place names a place in the arguments by its JSON Pointer, the
// arguments themselves (the pointer "") as the root.
func place(at string) string {
	if at == "" {
		return "the root"
	}
	return at
}

// count is n things, singular for one: "1 member", "0 members".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func pointer(path []any) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString("/")
		b.WriteString(pointerToken(fmt.Sprint(p)))
	}
	return b.String()
}

// AgreesWithReference is the id of the property that an implementation
// gives the reference's answer: the fuzzer's findings are filed under it.
const AgreesWithReference = "agrees-with-reference"

// Cases generates inputs as the properties draw them (schemas built for
// the rule, arguments that fit them, strings of every kind the rule is
// about), with options im can run (see impl.Configured). Example(seed)
// draws one outside a property, for fuzzing.
func Cases(im impl.Impl) *rapid.Generator[impl.Case] {
	p, _ := ByID(AgreesWithReference)
	return rapid.Custom(func(t *rapid.T) impl.Case {
		o, _ := p.options(t, im)
		return drawCase(t, o).Case
	})
}
