package properties

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// TestReference runs every property on the reference normalizer: it must
// hold them all.
func TestReference(t *testing.T) {
	for _, p := range All() {
		t.Run(p.ID, func(t *testing.T) { p.Check(t, impl.Reference) })
	}
}

// TestConfiguredReference: the reference running in one configuration, as
// a program that declares it would (impl.Configure), holds every property
// that applies to it; only those about the unbounded fixpoint do not
// apply under a pass bound, and every other still runs its checks.
func TestConfiguredReference(t *testing.T) {
	for _, o := range []impl.Options{
		{MaxPasses: 1},
		{MaxPasses: 2, Profile: normalize.Attribute},
		{Profile: normalize.Attribute},
		{Depth: normalize.TopLevel},
		{Depth: normalize.TopLevel, MaxPasses: 1},
	} {
		ref := impl.Configure(o)
		for _, p := range All() {
			if p.Applies(o) == (p.Fixpoint && o.Bounded()) {
				t.Errorf("%v: %s applies: %v", o, p.ID, p.Applies(o))
			}
			v, checks := p.Run(context.Background(), ref, RunOptions{Checks: 50, Seed: 7})
			switch {
			case v != nil:
				t.Errorf("%v: the reference breaks %s: %s\n%s %s", o, p.ID, v.Message, v.Vector.SchemaText(), v.Vector.ArgumentsText())
			case p.Applies(o) && checks == 0:
				t.Errorf("%v: %s ran no check", o, p.ID)
			case !p.Applies(o) && checks != 0:
				t.Errorf("%v: %s does not apply but ran %d checks", o, p.ID, checks)
			}
		}
	}
}

// TestRunIsRepeatable: one seed, one outcome, however often it runs.
func TestRunIsRepeatable(t *testing.T) {
	im := impl.Func("one pass", func(ctx context.Context, c impl.Case) impl.Result {
		schema, args, o := c.Schema, c.Args, c.Options
		o.MaxPasses = 1
		return impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
	})
	p, _ := ByID("agrees-with-reference")
	v1, n1 := p.Run(context.Background(), im, RunOptions{Checks: 200, Seed: 42})
	v2, n2 := p.Run(context.Background(), im, RunOptions{Checks: 200, Seed: 42})
	if v1 == nil || v2 == nil {
		t.Fatal("one pass is not caught")
	}
	if n1 != n2 || v1.Index != v2.Index || string(v1.Vector.ArgumentsText()) != string(v2.Vector.ArgumentsText()) || v1.Message != v2.Message {
		t.Errorf("two runs with one seed differ: %d %d %s / %d %d %s", n1, v1.Index, v1.Vector.ArgumentsText(), n2, v2.Index, v2.Vector.ArgumentsText())
	}
}

// TestMinimalCounterexample: a violation found by a property goes through
// the one minimizer: for an implementation whose one bug is decoding a
// string parameter, nothing is left but that parameter.
func TestMinimalCounterexample(t *testing.T) {
	p, _ := ByID("string-param-not-decoded")
	decodes := impl.Func("decodes strings", func(ctx context.Context, c impl.Case) impl.Result {
		args, o := c.Args, c.Options
		r := impl.Reference.Normalize(ctx, impl.Case{Schema: []byte(`{}`), Args: args, Options: o}) // reads no schema, so...
		if !r.Answered() {
			return r
		}
		// ...decodes every string that is the JSON of an array or object.
		return impl.Reference.Normalize(ctx, impl.Case{Schema: []byte(`{"additionalProperties":{"type":["array","object"],"items":{}}}`), Args: r.Output, Options: o})
	})
	v, _ := p.Run(context.Background(), decodes, RunOptions{Checks: 100, Seed: 1})
	if v == nil {
		t.Fatal("not caught")
	}
	schema, args := string(v.Vector.SchemaText()), string(v.Vector.ArgumentsText())
	if strings.Contains(schema, "other") || strings.Contains(args, "other") || strings.Contains(schema, "$defs") && !strings.Contains(schema, "$ref") {
		t.Errorf("not minimal: schema %s, arguments %s", schema, args)
	}
	if len(args) > 20 {
		t.Errorf("arguments %s: want the one parameter with short JSON text", args)
	}
	t.Logf("schema %s arguments %s: %s", schema, args, v.Message)
}

// escapesAmp gives the reference's result, but escapes every bare '&' it
// finds in its arguments: right on {"a":"&amp;amp;"}, and not idempotent,
// since its output {"a":"&"} comes back {"a":"&amp;"}.
var escapesAmp = impl.Func("escapes-amp", func(ctx context.Context, c impl.Case) impl.Result {
	schema, args, o := c.Schema, c.Args, c.Options
	if bytes.Contains(args, []byte(`"&"`)) {
		return impl.OK(bytes.ReplaceAll(args, []byte(`"&"`), []byte(`"&amp;"`)))
	}
	return impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
})

// TestViolationReplays: the vector of a violation is one the
// implementation fails when it is replayed, even when it gives the
// reference's answer on the case that broke the property.
func TestViolationReplays(t *testing.T) {
	p, _ := ByID("idempotent")
	c := Case{Case: impl.Case{Schema: []byte(`{}`), Args: []byte(`{"a":"&amp;amp;"}`)}}
	if out := p.Judge(context.Background(), escapesAmp, c, nil); out.Message == "" {
		t.Fatalf("idempotent holds on %s for escapes-amp", c.Args)
	}
	v := p.Violation(context.Background(), escapesAmp, c, 0, 0)
	if o := corpus.Replay(v.Vector, escapesAmp); o.Pass {
		t.Fatalf("the violation's vector %s replays clean on escapes-amp", v.Vector.ArgumentsText())
	}
	if got, want := string(v.Vector.ArgumentsText()), `{"":"&"}`; got != want {
		t.Errorf("vector arguments = %s, want %s (the output that changes again)", got, want)
	}
}

// TestMinimizedKeepsPremise: a case shrunk by the minimizer must still
// mean what the property speaks of. An implementation that never follows
// $ref broke shape-match-decoded on a schema whose $defs the minimizer then
// dropped: the finding showed a dangling $ref, which the reference rejects,
// as a string "not decoded". The shrunk case is asked of the reference.
func TestMinimizedKeepsPremise(t *testing.T) {
	ignoresRef := impl.Func("ignores $ref", func(ctx context.Context, c impl.Case) impl.Result {
		schema, args, o := c.Schema, c.Args, c.Options
		if bytes.Contains(schema, []byte(`$ref`)) {
			return impl.OK(args)
		}
		return impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
	})
	p, _ := ByID("shape-match-decoded")
	c := Case{Case: impl.Case{Schema: []byte(`{"$defs":{"map":{"type":"object","description":"a map"}},"properties":{"p":{"$ref":"#/$defs/map"}}}`), Args: []byte(`{"p":"{}"}`)},
		Focus: []any{"p"}, Decl: `{"$ref":"#/$defs/map"}`}
	if p.Judge(context.Background(), ignoresRef, c, nil).Message == "" {
		t.Fatal("the drawn case does not break the property")
	}
	v := p.Violation(context.Background(), ignoresRef, c, 0, 0)
	if v.Vector.Error != "" {
		t.Errorf("the minimal case is one the reference rejects (%s): schema %s", v.Vector.Error, v.Vector.SchemaText())
	}
	if o := corpus.Replay(v.Vector, ignoresRef); o.Pass {
		t.Errorf("the minimal case %s replays clean", v.Vector.SchemaText())
	}
	if !bytes.Contains(v.Vector.SchemaText(), []byte(`"type":"object"`)) {
		t.Errorf("the minimal schema %s lost the declaration", v.Vector.SchemaText())
	}
}

// TestMinimizedDropsWhatIsNotNeeded: a shrunk case may change the
// declaration at the focus, as long as it still means what the property
// speaks of. @cline/shared reads `allOf` and type lists as unions and
// broke string-param-not-decoded under the drawn `{"allOf":[{"type":
// ["string","array"]},{"type":["string","object"]}]}`: the violation kept
// the `allOf`, since no step could change the declaration, though
// `{"type":["string","object"]}` alone shows it. A program that decodes
// whatever the schema says still shows it under a declared string, not
// under `{}` (where no string is declared, and the property says nothing).
// wrong-shape-passes is held the same way to the shape drawn.
func TestMinimizedDropsWhatIsNotNeeded(t *testing.T) {
	// The union reading: a string name in a type list is dropped, and
	// allOf is read as anyOf.
	union := impltest.ReadsSchema("union", func(s *jsonvalue.Value) {
		var walk func(v *jsonvalue.Value)
		walk = func(v *jsonvalue.Value) {
			for i := range v.Members {
				m := &v.Members[i]
				if m.Key == "allOf" {
					m.Key = "anyOf"
				}
				if m.Key == "type" && m.Value.Kind == jsonvalue.Array {
					m.Value.Elems = slices.DeleteFunc(m.Value.Elems, func(e *jsonvalue.Value) bool { return e.Str == "string" })
				}
				walk(m.Value)
			}
			for _, e := range v.Elems {
				walk(e)
			}
		}
		walk(s)
	})
	blind := impltest.Edited("blind", func(v *jsonvalue.Value) {
		for _, m := range v.Members {
			if p, err := jsonvalue.Parse([]byte(m.Value.Str)); m.Value.Kind == jsonvalue.String && err == nil {
				*m.Value = *p
			}
		}
	})
	nothing := impl.Func("nothing", func(_ context.Context, c impl.Case) impl.Result { return impl.OK(c.Args) })
	str := `{"allOf":[{"type":["string","array"]},{"type":["string","object"]}]}`
	shape := `{"allOf":[{"type":["object","array"]},{"type":"object"}]}`
	for _, tt := range []struct {
		im          impl.Impl
		id, decl, s string
		want        string
	}{
		{union, "string-param-not-decoded", str, `{\"k\":1}`, `{"properties":{"p":{"type":["string","object"]}}}`},
		{blind, "string-param-not-decoded", str, `{\"k\":1}`, `{"properties":{"p":{"type":"string"}}}`},
		// The list in the allOf is more than the union needs; the allOf
		// is not: a branch alone declares what the string is.
		{union, "wrong-shape-passes", shape, `[1]`, `{"properties":{"p":{"allOf":[{"type":"array"},{"type":"object"}]}}}`},
		{blind, "wrong-shape-passes", shape, `[1]`, `{"properties":{"p":{"type":"object"}}}`},
		// shape-match-decoded too: a program that decodes nothing misses
		// `[1]` under a plain `array` as under the drawn type list (the
		// examples' counterexample kept `["array","null"]`, a second bug
		// of theirs).
		{nothing, "shape-match-decoded", `{"type":["array","null"]}`, `[1]`, `{"properties":{"p":{"type":"array"}}}`},
	} {
		p, _ := ByID(tt.id)
		c := Case{Case: impl.Case{Schema: []byte(`{"type":"object","properties":{"p":` + tt.decl + `}}`), Args: []byte(`{"p":"` + tt.s + `"}`)},
			Focus: []any{"p"}, Decl: tt.decl}
		if p.Judge(context.Background(), tt.im, c, nil).Message == "" {
			t.Fatalf("%s: the drawn case does not break the property", tt.im.Name())
		}
		v := p.Violation(context.Background(), tt.im, c, 0, 0)
		if got := string(v.Vector.SchemaText()); got != tt.want {
			t.Errorf("%s, %s: minimal schema %s, want %s", tt.im.Name(), tt.id, got, tt.want)
		}
	}
}

// TestChargedOnlyWithItsOwn: a property is violated only by the
// difference it is about. Members moved, or a string decoded into a value
// that is not its JSON, change no key's text and no number: only
// keys-unchanged speaks of the members moved, and none of the three of
// the value that is not the string's JSON.
func TestChargedOnlyWithItsOwn(t *testing.T) {
	reorders := impltest.Edited("reorders", func(v *jsonvalue.Value) {
		slices.Reverse(v.Members)
	})
	substitutes := impltest.Edited("substitutes", func(v *jsonvalue.Value) {
		for _, m := range v.Members {
			if m.Value.Kind == jsonvalue.String && m.Value.Str != "" {
				*m.Value = jsonvalue.Value{Kind: jsonvalue.Array}
			}
		}
	})
	tests := []struct {
		im         impl.Impl
		args       string
		keys, rest bool // violated
	}{
		{reorders, `{"a":1,"b":"x","c":"&amp;"}`, true, false},
		{substitutes, `{"a":1,"b":"x"}`, false, false},
	}
	for _, tt := range tests {
		c := Case{Case: impl.Case{Schema: []byte(`{}`), Args: []byte(tt.args)}}
		for _, id := range []string{"keys-unchanged", "non-strings-unchanged", "no-reference-unchanged"} {
			p, _ := ByID(id)
			violated := p.Judge(context.Background(), tt.im, c, nil).Message != ""
			if want := tt.keys && id == "keys-unchanged" || tt.rest && id != "keys-unchanged"; violated != want {
				t.Errorf("%s on %s: violated %v, want %v", id, tt.im.Name(), violated, want)
			}
		}
	}
}

// TestPlaceNamed: a message names the place of a change so that it reads
// right: the arguments themselves are "the root" (the pointer "" read as
// "at  the object has"), and a count of one is singular.
func TestPlaceNamed(t *testing.T) {
	drops := impltest.Edited("drops a member", func(v *jsonvalue.Value) {
		if len(v.Members) > 0 {
			v.Members = v.Members[:len(v.Members)-1]
		}
		if m := v.Member("o"); m != nil && m.Kind == jsonvalue.Object && len(m.Members) > 0 {
			m.Members = m.Members[:len(m.Members)-1]
		}
	})
	p, _ := ByID("keys-unchanged")
	for args, want := range map[string]string{
		`{"a":1}`:                   "at the root the object has 0 members, not 1",
		`{"o":{"a":1,"b":2},"c":3}`: "at the root the object has 1 member, not 2",
	} {
		c := Case{Case: impl.Case{Schema: []byte(`{}`), Args: []byte(args)}}
		if got := p.Judge(context.Background(), drops, c, nil).Message; !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want it to begin with %q", args, got, want)
		}
	}
}

// TestStringParamShrinksToJSON: a shrunk case of string-param-not-decoded
// keeps JSON text at its focus: ai-sdk-tool-parser's counterexample ""
// (made into `[]`, a second bug: text that is not JSON made an array)
// showed two bugs where "[]" shows the one the property speaks of.
func TestStringParamShrinksToJSON(t *testing.T) {
	anything := impl.Func("anything an array", func(_ context.Context, c impl.Case) impl.Result {
		return impl.OK([]byte(`{"p":[]}`))
	})
	p, _ := ByID("string-param-not-decoded")
	c := Case{Case: impl.Case{Schema: []byte(`{"type":"object","properties":{"p":{"type":"string"}}}`), Args: []byte(`{"p":"[1,2]"}`)},
		Focus: []any{"p"}, Decl: `{"type":"string"}`}
	if p.Judge(context.Background(), anything, c, nil).Message == "" {
		t.Fatal("the drawn case does not break the property")
	}
	v := p.Violation(context.Background(), anything, c, 0, 0)
	if got := string(v.Vector.ArgumentsText()); got != `{"p":"[]"}` {
		t.Errorf("minimal arguments %s, want {\"p\":\"[]\"}: JSON text kept at the focus", got)
	}
}

// TestReferenceStoppedIsNotRun: the reference stops with the check (its
// budget, an interrupt). A case judged after that, whose expected result
// the reference never finished, is not run: never a broken property
// ("the reference gives not-run"), never a hold. (A check whose budget
// ran out while agrees-with-reference ran reported it broken.)
func TestReferenceStoppedIsNotRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := Case{Case: impl.Case{Schema: []byte(`{}`), Args: []byte(`{"s":"&amp;"}`)}}
	answers := impl.Func("answers though the check stopped", func(context.Context, impl.Case) impl.Result {
		return impl.OK([]byte(`{"s":"&"}`))
	})
	for _, id := range []string{AgreesWithReference, "idempotent", "no-reference-unchanged"} {
		p, ok := ByID(id)
		if !ok {
			t.Fatalf("no property %s", id)
		}
		o := p.Judge(ctx, answers, c, nil)
		if o.Message != "" || o.Moot {
			t.Errorf("%s: %+v, want the case not run", id, o)
			continue
		}
		if o.Failure != nil && o.Failure.Kind() != impl.KindNotRun {
			t.Errorf("%s: failure %v, want not run", id, o.Failure)
		}
	}
	p, _ := ByID(AgreesWithReference)
	if o := p.Judge(ctx, answers, c, nil); o.Failure == nil || o.Failure.Kind() != impl.KindNotRun {
		t.Errorf("agrees-with-reference: %+v, want the case not run", o)
	}
}
