package explain

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// TestExcusedOnlyByShown: a witness on which the implementation does not
// answer as a deviation does is excused only by another deviation the
// implementation shows on the example of its title. An implementation
// that does not follow `$ref` and reads everything else decodes `"[1]"`
// under `anyOf`, which "only a plain `type` is read" says stays a string;
// that deviation was confirmed all the same, excused by the schema-blind
// decoding that would decode it anyway, which the implementation does
// not do (it decodes no string where nothing is declared).
func TestExcusedOnlyByShown(t *testing.T) {
	refBlind := deviation.ByID("ignores-ref")
	im := impl.Func("ref-blind", func(ctx context.Context, c impl.Case) impl.Result { return deviation.Apply(ctx, c, refBlind) })
	s := newSession(ctx, Config{Impl: im, Want: want})
	defer s.close()
	c := impl.Case{Schema: []byte(`{"type":"object","$defs":{"l":{"type":"array"}},"properties":{"a":{"$ref":"#/$defs/l"}}}`), Args: []byte(`{"a":"[1]"}`)}
	f := &finding{Finding: Finding{Source: Vector, ID: "a", Case: c, Want: want(c), Got: im.Normalize(ctx, c)}, explainable: true,
		cands: []explanation{{deviation.ByID("plain-types-only")}}}
	s.experiments([]*finding{f})
	if len(f.cands) != 0 {
		var ids []string
		for _, x := range f.cands {
			ids = append(ids, x.id())
		}
		t.Errorf("candidates kept %v, want none", ids)
	}
}

// planted explains the findings of an implementation that is the
// reference with the deviations ids, on cases given as schema and
// arguments, and returns the root causes' ids, sorted.
func planted(ids []string, cases [][2]string) []string {
	return plantedWith(ids, cases, impl.Options{})
}

// plantedWith is planted with the cases under the options o.
func plantedWith(ids []string, cases [][2]string, o impl.Options) []string {
	var x []*deviation.Deviation
	for _, id := range ids {
		d := deviation.ByID(id)
		if d == nil {
			return []string{"no deviation " + id}
		}
		x = append(x, d)
	}
	im := impl.Func(strings.Join(ids, "+"), func(ctx context.Context, c impl.Case) impl.Result { return deviation.Apply(ctx, c, x...) })
	var fs []Finding
	for i, sa := range cases {
		c := impl.Case{Schema: []byte(sa[0]), Args: []byte(sa[1]), Options: o}
		fs = append(fs, Finding{Source: Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: im.Normalize(ctx, c)})
	}
	var out []string
	for _, rc := range Explain(ctx, Config{Impl: im, Want: want}, fs) {
		out = append(out, rc.ID)
	}
	slices.Sort(out)
	return out
}

// TestPlanted: the findings of bugs planted together are their root
// causes, one a bug, each by its deviation, not one cause a symptom.
func TestPlanted(t *testing.T) {
	const arrayParam = `{"properties":{"":{"type":"array"}}}`
	for _, tt := range []struct {
		name    string
		planted []string
		cases   [][2]string
		want    []string
	}{
		// A program that takes a shape for declared wherever a `type` list
		// or a branch of `anyOf`, `oneOf` or `allOf` names it (one test over
		// the union's members) has one bug, not one for the type list, one
		// for `anyOf` and one for `allOf`.
		{"one union bug", []string{"json-string-admitted", "json-any-branch", "allof-as-union"}, [][2]string{
			{`{"type":"object","properties":{"p":{"type":["array","string"]}}}`, `{"p":"[2]"}`},
			{`{"type":"object","properties":{"p":{"anyOf":[{"type":"string"},{"type":"array"}]}}}`, `{"p":"[2]"}`},
			{`{"type":"object","properties":{"p":{"allOf":[{"type":["object","array"]},{"type":"object"}]}}}`, `{"p":"[]"}`},
		}, []string{"json-any-member"}},
		// Whatever a string parses to substituted where an array is declared,
		// and members whose value is null dropped: `{"a":"null"}`, a witness
		// of the first, comes out `{}`, excused by the second, though it holds
		// no null before the first decodes it.
		{"a pair made by the other", []string{"json-any-value", "null-dropped"}, [][2]string{
			{arrayParam, `{"":"1"}`}, {arrayParam, `{"":"null"}`}, {arrayParam, `{"":"\"[]\""}`}, {arrayParam, `{"":"{}"}`}, {arrayParam, `{"b":null}`},
		}, []string{"json-any-value", "null-dropped"}},
		// The same substitution, then a validator: most of what is
		// substituted is rejected; the substitutions that fit the schema (a
		// string literal holding an array, a number where a type list admits
		// one) still show the first bug.
		{"behind a validator", []string{"json-any-value", "validates-after-repair"}, [][2]string{
			{arrayParam, `{"":"1"}`}, {arrayParam, `{"":"\"[]\""}`}, {arrayParam, `{"":""}`},
		}, []string{"json-any-value", "validates-after-repair"}},
		// Every string that parses as JSON replaced by its value, wherever it
		// is and whatever the schema says, and what it decoded not repaired:
		// two causes, not one a symptom (a string parameter decoded, a
		// literal unquoted, a number made of text, a wrong shape).
		{"decodes everything", []string{"json-decodes-everything", "json-not-recursive"}, [][2]string{
			{`{}`, `{"a":"[1]"}`},
			{`{"properties":{"a":{"type":"string"}}}`, `{"a":"{}"}`},
			{`{"properties":{"a":{"type":"number"}}}`, `{"a":"1"}`},
			{`{"properties":{"a":{"type":"array"}}}`, `{"a":"\"x\""}`},
			{`{"properties":{"a":{"type":"array"}}}`, `{"a":"{}"}`},
			{`{"properties":{"a":{"type":"array","items":{"type":"array"}}}}`, `{"a":"[\"[1]\"]"}`},
		}, []string{"json-decodes-everything", "json-not-recursive"}},
		// Unions tried branch by branch with a validator compiled from the
		// branch alone: a branch that is a `$ref` never takes the value.
		{"a $ref branch skipped", []string{"union-branches-in-order", "union-ref-branches-skipped"}, [][2]string{
			{`{"type":"object","$defs":{"s":{"type":"string"}},"properties":{"p":{"anyOf":[{"$ref":"#/$defs/s"},{"type":"array"}]}}}`, `{"p":"[1]"}`},
			{`{"type":"object","properties":{"p":{"oneOf":[{"type":"object"},{"type":"string"}]}}}`, `{"p":"{}"}`},
		}, []string{"union-branches-in-order", "union-ref-branches-skipped"}},
		// The types of a `type` and of the branches beside it added into
		// one set: a string kept where a branch admits one beside a declared
		// array, a shape decoded where `allOf`'s branches disagree. One bug,
		// not `allOf` read as a union and a keyword not followed.
		{"types added", []string{"types-added"}, [][2]string{
			{`{"type":"object","properties":{"p":{"type":"array","anyOf":[{"type":"string"},{}]}}}`, `{"p":"[]"}`},
			{`{"type":"object","properties":{"p":{"allOf":[{"type":"array"},{"type":"object"}]}}}`, `{"p":"[]"}`},
			{`{"type":"object","properties":{"p":{"type":["array","string"],"anyOf":[{"type":"array"}]}}}`, `{"p":"[]"}`},
		}, []string{"types-added"}},
		// A declared `constructor` not sent, read from the prototype, and a
		// union's branches tried on a copy of it: an error.
		{"an inherited member copied", []string{"inherited-member-copied"}, [][2]string{
			{`{"type":"object","properties":{"constructor":{"anyOf":[{}]}}}`, `{}`},
			{`{"type":"object","properties":{"toString":{"oneOf":[{"type":"string"},{"type":"array"}]},"p":{"type":"array"}}}`, `{"p":"[1]"}`},
		}, []string{"inherited-member-copied"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := planted(tt.planted, tt.cases); !slices.Equal(got, tt.want) {
				t.Errorf("root causes %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPlantedJSONOnly: bugs planted in an implementation that declares the
// JSON repair alone. What a decoded value holds left unrepaired was never
// confirmed there, for the example of its title held a reference, which
// such an implementation does not decode: it fell back to a class.
func TestPlantedJSONOnly(t *testing.T) {
	o := impl.Options{Repairs: normalize.JSONRepair}
	for _, tt := range []struct {
		name    string
		planted []string
		cases   [][2]string
		want    []string
	}{
		{"not recursive", []string{"json-not-recursive"}, [][2]string{
			{`{"type":"object","properties":{"p":{"type":"object","properties":{"ids":{"type":"array"}}}}}`, `{"p":"{\"ids\":\"[1]\"}"}`},
		}, []string{"json-not-recursive"}},
		{"$ref as written", []string{"ref-pointer-as-written"}, [][2]string{
			{`{"type":"object","$defs":{"a b":{"type":"array"}},"properties":{"p":{"$ref":"#/$defs/a%20b"}}}`, `{"p":"[1]"}`},
			{`{"type":"object","properties":{"q":{"type":"object"},"p":{"$ref":"#"}}}`, `{"p":{"q":"{}"}}`},
		}, []string{"ref-pointer-as-written"}},
		{"drafts unknown", []string{"drafts-unknown-unread"}, [][2]string{
			{`{"$schema":"http://json-schema.org/draft-06/schema#","type":"object","properties":{"p":{"type":"array"}}}`, `{"p":"[1]"}`},
		}, []string{"drafts-unknown-unread"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := plantedWith(tt.planted, tt.cases, o); !slices.Equal(got, tt.want) {
				t.Errorf("root causes %v, want %v", got, tt.want)
			}
		})
	}
}

// TestUnsupportedWitness: an implementation that answers "unsupported"
// where a validator after its repair refuses what it made (the adapter
// of a repair-then-validate function, which cannot show the repair)
// shows no answer on such a witness, and the witness says nothing of the
// deviation. It used to contradict it: a union tried in order, whose
// witness of a value no branch's repair fits is refused so, was lost to
// a class of what differs.
func TestUnsupportedWitness(t *testing.T) {
	inOrder, validates := deviation.ByID("union-branches-in-order"), deviation.ByID("validates-after-repair")
	im := impl.Func("in-order-validated", func(ctx context.Context, c impl.Case) impl.Result {
		if r := deviation.Apply(ctx, c, inOrder, validates); r.Error != "" && deviation.Apply(ctx, c, inOrder).Error == "" {
			return impl.Fail(impl.ErrNotSendable, "the validator refused the repaired arguments")
		}
		return deviation.Apply(ctx, c, inOrder)
	})
	var fs []Finding
	for i, sa := range [][2]string{
		{`{"type":"object","properties":{"p":{"oneOf":[{"type":"object"},{"type":"string"}]}}}`, `{"p":"{}"}`},
		{`{"type":"object","properties":{"p":{"anyOf":[{"type":"array"},{}]}}}`, `{"p":"[2]"}`},
	} {
		c := impl.Case{Schema: []byte(sa[0]), Args: []byte(sa[1])}
		fs = append(fs, Finding{Source: Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: im.Normalize(ctx, c)})
	}
	var ids []string
	for _, rc := range Explain(ctx, Config{Impl: im, Want: want}, fs) {
		ids = append(ids, rc.ID)
	}
	if !slices.Equal(ids, []string{"union-branches-in-order"}) {
		t.Errorf("root causes %v, want [union-branches-in-order]", ids)
	}
}

// TestReferenceAnswerShowsNothing: a witness the implementation answers
// as the reference does shows no deviation, though a variant of one gives
// that answer. An implementation that repairs only the top level and
// validates what it made, answering an error of no kind it can name
// (as adapters do), was filed a third root cause, "read by an older
// draft", for the two schemas below with an `$id`: that deviation's draft
// 2019-09 reads a `type` beside `$ref` as 2020-12 does, which the
// implementation does too (it answered the reference's answer there, so
// that witness "showed" the deviation), and draft 4, which has no `$id`,
// rejects the schemas, an error that matched the implementation's.
func TestReferenceAnswerShowsNothing(t *testing.T) {
	top, validates := deviation.ByID("json-top-level-only"), deviation.ByID("validates-after-repair")
	im := impl.Func("top-level-validated", func(ctx context.Context, c impl.Case) impl.Result {
		r := deviation.Apply(ctx, c, top, validates)
		if r.Error != "" {
			r.Error = impl.ErrUnspecified
		}
		return r
	})
	var fs []Finding
	for i, sa := range [][2]string{
		{`{"$id":"https://example.com/tree","type":"object","properties":{"children":{"type":"array","items":{"$ref":"https://example.com/tree"}}}}`, `{"children":["{\"children\":[]}"]}`},
		{`{"$id":"https://example.com/tool","type":"object","properties":{"rows":{"$ref":"list"}},"$defs":{"row":{"$dynamicAnchor":"item","type":"array"},"list":{"$id":"list","type":"array","items":{"$dynamicRef":"#item"},"$defs":{"default":{"$dynamicAnchor":"item"}}}}}`, `{"rows":["[1]","[2]"]}`},
		{`{"type":"object","properties":{"n":{"type":"integer"}}}`, `{"n":"1"}`},
	} {
		c := impl.Case{Schema: []byte(sa[0]), Args: []byte(sa[1])}
		fs = append(fs, Finding{Source: Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: im.Normalize(ctx, c)})
	}
	for _, rc := range Explain(ctx, Config{Impl: im, Want: want}, fs) {
		if slices.Contains(rc.Deviations, "older-draft") {
			t.Errorf("root cause %s (%s) on %s %s", rc.ID, rc.Title, rc.Case.Schema, rc.Case.Args)
		}
	}
}
