package explain

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
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

// TestOneUnionBug: a program that takes a shape for declared wherever a
// `type` list or a branch of `anyOf`, `oneOf` or `allOf` names it (one
// test over the union's members) has one bug, not one for the type list,
// one for `anyOf` and one for `allOf`.
func TestOneUnionBug(t *testing.T) {
	x := []*deviation.Deviation{deviation.ByID("json-string-admitted"), deviation.ByID("json-any-branch"), deviation.ByID("allof-as-union")}
	im := impl.Func("any-member", func(ctx context.Context, c impl.Case) impl.Result { return deviation.Apply(ctx, c, x...) })
	var fs []Finding
	for i, sa := range [][2]string{
		{`{"type":"object","properties":{"p":{"type":["array","string"]}}}`, `{"p":"[2]"}`},
		{`{"type":"object","properties":{"p":{"anyOf":[{"type":"string"},{"type":"array"}]}}}`, `{"p":"[2]"}`},
		{`{"type":"object","properties":{"p":{"allOf":[{"type":["object","array"]},{"type":"object"}]}}}`, `{"p":"[]"}`},
	} {
		c := impl.Case{Schema: []byte(sa[0]), Args: []byte(sa[1])}
		fs = append(fs, Finding{Source: Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: im.Normalize(ctx, c)})
	}
	rcs := Explain(ctx, Config{Impl: im, Want: want}, fs)
	var ids []string
	for _, rc := range rcs {
		ids = append(ids, rc.ID)
	}
	if len(rcs) != 1 || rcs[0].ID != "json-any-member" {
		t.Errorf("root causes %v, want [json-any-member]", ids)
	}
}

// TestPairMadeByTheOther: a program that substitutes whatever a string
// parses to where an array is declared, and drops members whose value is
// null, answers `{}` to `{"a":"null"}`, a witness of the first: the second
// excuses it, though the witness holds no null before the first decodes
// it. The two bugs are two root causes, each by its deviation, not one
// cause per symptom (a number coerced, a member dropped, a string literal
// decoded).
func TestPairMadeByTheOther(t *testing.T) {
	x := []*deviation.Deviation{deviation.ByID("json-any-value"), deviation.ByID("null-dropped")}
	im := impl.Func("any-value-skip-null", func(ctx context.Context, c impl.Case) impl.Result { return deviation.Apply(ctx, c, x...) })
	var fs []Finding
	for i, a := range []string{`{"":"1"}`, `{"":"null"}`, `{"":"\"[]\""}`, `{"":"{}"}`, `{"b":null}`} {
		c := impl.Case{Schema: []byte(`{"properties":{"":{"type":"array"}}}`), Args: []byte(a)}
		fs = append(fs, Finding{Source: Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: im.Normalize(ctx, c)})
	}
	var ids []string
	for _, rc := range Explain(ctx, Config{Impl: im, Want: want}, fs) {
		ids = append(ids, rc.ID)
	}
	if len(ids) != 2 || !slices.Contains(ids, "json-any-value") || !slices.Contains(ids, "null-dropped") {
		t.Errorf("root causes %v, want json-any-value and null-dropped", ids)
	}
}

// TestBehindAValidator: a program that substitutes whatever a string
// parses to, then validates, rejects most of what it substitutes; the
// substitutions that fit the schema (a string literal holding an array, a
// number where a type list admits one) still show the first bug.
func TestBehindAValidator(t *testing.T) {
	x := []*deviation.Deviation{deviation.ByID("json-any-value"), deviation.ByID("validates-after-repair")}
	im := impl.Func("any-value-validated", func(ctx context.Context, c impl.Case) impl.Result { return deviation.Apply(ctx, c, x...) })
	var fs []Finding
	for i, a := range []string{`{"":"1"}`, `{"":"\"[]\""}`, `{"":""}`} {
		c := impl.Case{Schema: []byte(`{"properties":{"":{"type":"array"}}}`), Args: []byte(a)}
		fs = append(fs, Finding{Source: Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: im.Normalize(ctx, c)})
	}
	var ids []string
	for _, rc := range Explain(ctx, Config{Impl: im, Want: want}, fs) {
		ids = append(ids, rc.ID)
	}
	if len(ids) != 2 || !slices.Contains(ids, "json-any-value") || !slices.Contains(ids, "validates-after-repair") {
		t.Errorf("root causes %v, want json-any-value and validates-after-repair", ids)
	}
}

// TestDecodesEverything: a program that replaces every string that parses
// as JSON by its value, wherever it is and whatever the schema says, and
// does not repair what it decoded, is two root causes (what it decodes,
// and that it does not recurse), not one per symptom (a string parameter
// decoded, a literal unquoted, a number made of text, a wrong shape).
func TestDecodesEverything(t *testing.T) {
	x := []*deviation.Deviation{deviation.ByID("json-decodes-everything"), deviation.ByID("json-not-recursive")}
	im := impl.Func("decodes-everything", func(ctx context.Context, c impl.Case) impl.Result { return deviation.Apply(ctx, c, x...) })
	var fs []Finding
	for i, sa := range [][2]string{
		{`{}`, `{"a":"[1]"}`},
		{`{"properties":{"a":{"type":"string"}}}`, `{"a":"{}"}`},
		{`{"properties":{"a":{"type":"number"}}}`, `{"a":"1"}`},
		{`{"properties":{"a":{"type":"array"}}}`, `{"a":"\"x\""}`},
		{`{"properties":{"a":{"type":"array"}}}`, `{"a":"{}"}`},
		{`{"properties":{"a":{"type":"array","items":{"type":"array"}}}}`, `{"a":"[\"[1]\"]"}`},
	} {
		c := impl.Case{Schema: []byte(sa[0]), Args: []byte(sa[1])}
		fs = append(fs, Finding{Source: Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: im.Normalize(ctx, c)})
	}
	var ids []string
	for _, rc := range Explain(ctx, Config{Impl: im, Want: want}, fs) {
		ids = append(ids, rc.ID)
	}
	if len(ids) != 2 || !slices.Contains(ids, "json-decodes-everything") || !slices.Contains(ids, "json-not-recursive") {
		t.Errorf("root causes %v, want json-decodes-everything and json-not-recursive", ids)
	}
}
