package deviation

import (
	"context"
	"encoding/json"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
	"github.com/toolnorm/toolnorm/oracle"
)

var ctx = context.Background()

// quoted finds what a title quotes as code.
var quoted = regexp.MustCompile("`([^`]+)`")

// Every deviation has a unique kebab-case id, a one-line title, a clause,
// and witnesses: the first, the example of its title, on which it differs
// from the reference; the others differ too, or are controls, on which
// it agrees with the reference where the title says it does (the top
// level repaired, for a deviation that repairs only the top level). And
// every example a title quotes is in a witness: in its schema, its
// arguments, or what the deviation gives on it.
func TestCatalogue(t *testing.T) {
	ids := map[string]bool{}
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	clause := regexp.MustCompile(`^(rule/[2-5]|reading/[1-8])$`)
	for _, d := range Catalogue() {
		t.Run(d.ID, func(t *testing.T) {
			if !kebab.MatchString(d.ID) || ids[d.ID] {
				t.Errorf("id %q: want a unique kebab-case id", d.ID)
			}
			ids[d.ID] = true
			if d.Title == "" || strings.ContainsAny(d.Title, "\n\r") || strings.HasSuffix(d.Title, ".") {
				t.Errorf("title %q: want one line, no final period", d.Title)
			}
			if !clause.MatchString(d.Clause) {
				t.Errorf("clause %q", d.Clause)
			}
			if len(d.Witnesses) == 0 {
				t.Fatalf("no witness")
			}
			var texts []string
			for i, c := range d.Witnesses {
				got, want := Apply(ctx, c, d), impl.Reference.Normalize(ctx, c)
				if i == 0 && impl.Compare(got, want).Same() {
					t.Errorf("title example %s %s %+v: the same as the reference: %v", c.Schema, c.Args, c.Options, got)
				}
				if want.Error != "" && d.ID != "schema-not-checked" {
					t.Errorf("witness %s %s: the reference rejects it: %v", c.Schema, c.Args, want)
				}
				texts = append(texts, string(c.Schema), string(c.Args), string(got.Output), string(want.Output), got.Detail)
			}
			for _, q := range quoted.FindAllStringSubmatch(d.Title, -1) {
				q1 := strings.ReplaceAll(q[1], " ", "")
				if !slices.ContainsFunc(texts, func(s string) bool {
					s = strings.ReplaceAll(s, " ", "")
					return strings.Contains(s, q1) || strings.Contains(s, strings.ReplaceAll(q1, `"`, `\"`))
				}) {
					t.Errorf("the title quotes %s, which no witness holds", q[0])
				}
			}
			if ByID(d.ID) != d {
				t.Errorf("ByID(%q) is not it", d.ID)
			}
		})
	}
}

// controlsOnly are the keywords a title quotes that its deviation's
// witnesses hold in controls alone, each with why the title may: what it
// says of them is that nothing changes there.
var controlsOnly = map[string]string{
	"plain-types-only `items`": "`items` is followed, as `properties` is: its witness is a control",
	"older-draft `$schema`":    "the title is about schemas without `$schema`: with one, nothing changes",
}

// A keyword a title quotes is one its deviation changes something by: a
// witness whose schema holds it differs from the reference (a title that
// says `prefixItems` is not read, of a deviation that reads it, fails),
// but for controlsOnly.
func TestTitleKeywordsShown(t *testing.T) {
	for _, d := range Catalogue() {
		for _, q := range quoted.FindAllStringSubmatch(d.Title, -1) {
			key := `"` + q[1] + `":`
			held, shown := false, false
			for _, c := range d.Witnesses {
				if strings.Contains(string(c.Schema), key) {
					held = true
					shown = shown || !impl.Compare(Apply(ctx, c, d), impl.Reference.Normalize(ctx, c)).Same()
				}
			}
			_, excused := controlsOnly[d.ID+" "+q[0]]
			switch {
			case held && !shown && !excused:
				t.Errorf("%s: its title quotes %s, which its witnesses hold in controls alone: %s", d.ID, q[0], d.Title)
			case excused && (!held || shown):
				t.Errorf("%s: controlsOnly lists %s, which is no longer in controls alone", d.ID, q[0])
			}
		}
	}
}

// On each witness of another deviation that the reference gives as it is
// (nothing repaired), a deviation that changes only repairs agrees with
// the reference: the switches change nothing they are not about. Checked
// over the whole corpus: most deviations agree with the reference on most
// vectors.
func TestCorpusAgreement(t *testing.T) {
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	var rule []*corpus.Vector
	for _, v := range vectors {
		if v.Origin != "html5lib" {
			rule = append(rule, v)
		}
	}
	for _, d := range Catalogue() {
		failed := 0
		for _, v := range rule {
			if !corpus.Replay(v, d.Impl()).Pass {
				failed++
			}
		}
		t.Logf("%-30s fails %3d of %d vectors", d.ID, failed, len(rule))
		if failed == 0 {
			t.Errorf("%s fails no vector of the corpus", d.ID)
		}
		if float64(failed) > 0.5*float64(len(rule)) {
			t.Errorf("%s fails %d of %d vectors: more than half", d.ID, failed, len(rule))
		}
	}
}

// The model with no switch set gives the reference's result, on the
// corpus and on random cases; and so does it with the reference's
// decision run as a decoder pass: any difference a deviation built on them
// shows is its change.
func TestModelIsReference(t *testing.T) {
	var cases []impl.Case
	vectors, _ := corpus.Load(corpus.Embedded())
	for _, v := range vectors {
		cases = append(cases, impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options})
	}
	for _, d := range Catalogue() {
		cases = append(cases, d.Witnesses...)
	}
	r := rand.New(rand.NewPCG(7, 8))
	n := 1500
	if testing.Short() {
		n = 200
	}
	options := []impl.Options{{}, {}, {Profile: normalize.Attribute}, {MaxPasses: 1}, {MaxPasses: 2}, {Depth: normalize.TopLevel}, {Repairs: normalize.JSONRepair}, {Repairs: normalize.EntityRepair}}
	for range n {
		cases = append(cases, impl.Case{Schema: []byte(randomSchemas[r.IntN(len(randomSchemas))]), Args: []byte(randomArgs(r)), Options: options[r.IntN(len(options))]})
	}
	for _, m := range []*model{{}, {pass: decoder{}.pass()}} {
		for _, c := range cases {
			_, got := m.normalize(ctx, c.Schema, c, impl.Reference.Normalize(ctx, c))
			if d := impl.Compare(got, impl.Reference.Normalize(ctx, c)).Diff; d != "" {
				t.Fatalf("model %+v on %s %s %+v: %s", m, c.Schema, c.Args, c.Options, d)
			}
		}
	}
}

var randomSchemas = []string{noSchema, arrayParam, objectParam, arrayOfArr, nestedArr,
	`{"properties":{"a":{"type":["string","array"]}}}`,
	`{"$defs":{"l":{"type":"array"}},"properties":{"a":{"$ref":"#/$defs/l"}}}`,
	`{"properties":{"a":{"anyOf":[{"type":"array"},{"type":"null"}]}},"additionalProperties":{"oneOf":[{"type":"object"},{"type":"boolean"}]}}`,
	`{"properties":{"name":{"type":"string"}},"patternProperties":{"^ids?$":{"type":"array"}}}`,
	`{"type":"object","additionalProperties":{"type":"array","items":{"type":"object","additionalProperties":{"type":["array","object"]}}}}`,
	`{"properties":{"t":{"type":"array","prefixItems":[{"type":"object"},{"type":"string"}],"items":{"type":"array"}}},"additionalProperties":{"allOf":[{"type":["array","string"]},{"type":["array","null"]}]}}`,
	`{"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}},"tags":{"type":"array"}}}},"additionalProperties":{"$ref":"#/$defs/node"}}`,
}

// randomArgs draws arguments for randomSchemas: members named as their
// parameters, holding scalars, references, and arrays and objects, also
// sent as strings, sometimes escaped.
func randomArgs(r *rand.Rand) string {
	keys := []string{"a", "o", "t", "ids", "name", "children", "tags", "x", "__proto__", "1"}
	texts := []string{"&amp;", "&amp;amp;", "&quot;", "&lt;", "&#9", "&#1;", "&notit;", "&region=", "x", " ", "[", "]", "{", "}", ",", "1", "\\\"", "&#x26;quot;", "&nGt;", "NaN", "'"}
	var container func(d int) string
	str := func(d int) string {
		var b strings.Builder
		if d < 3 && r.IntN(2) == 0 { // an array or object, stringified
			b.WriteString([]string{"", " "}[r.IntN(2)] + container(d+1))
		} else {
			for range r.IntN(5) {
				b.WriteString(texts[r.IntN(len(texts))])
			}
		}
		s := b.String()
		if r.IntN(4) == 0 {
			s = strings.NewReplacer("&", "&amp;", `"`, "&quot;").Replace(s)
		}
		var q strings.Builder
		enc := json.NewEncoder(&q)
		enc.SetEscapeHTML(r.IntN(4) == 0) // mostly '&' as it is, sometimes \u0026
		_ = enc.Encode(s)
		return strings.TrimSuffix(q.String(), "\n")
	}
	val := func(d int) string {
		switch k := r.IntN(6); {
		case k == 0:
			return []string{"1", "1.0", "12345678901234567890", "null", "true"}[r.IntN(5)]
		case k < 4 || d >= 3:
			return str(d)
		}
		return container(d + 1)
	}
	container = func(d int) string {
		var parts []string
		if r.IntN(2) == 0 {
			for range r.IntN(4) {
				parts = append(parts, val(d))
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
		for range r.IntN(4) {
			parts = append(parts, `"`+keys[r.IntN(len(keys))]+`":`+val(d))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	var parts []string
	for range r.IntN(5) {
		parts = append(parts, `"`+keys[r.IntN(len(keys))]+`":`+val(0))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// The entities-go-html witnesses are real differences between
// html.UnescapeString and the tokenizer (x/net).
func TestStdlibDiffers(t *testing.T) {
	for _, s := range []string{"&#4294967356;", "&#x10000000041;", "tab&#9", "&#3 x", "&nGt; &nLt;", "&#x;"} {
		if got, _ := stdlib(s); got == oracle.Unescape(s) {
			t.Errorf("stdlib(%q) = %q, the same as the tokenizer", s, got)
		}
	}
}

// The python decision against what Python 3.11's html.unescape returns
// (a table taken from it), and against python3 itself when it is there.
func TestPythonPass(t *testing.T) {
	p := decoder{numerics: pythonNumerics}.pass()
	for s, want := range map[string]string{
		"&#1;&#127;&#xFFFF;&#13;&#0;&#x81;&#11;&amp-x&#9":  "\r\ufffd\u0081&-x\t",
		"&#x80;&#xD800;&#x110000;&#xFDD0;&#x10FFFE;&#x1F;": "€\ufffd\ufffd",
		"&notit; &AMP &#38 &#x26;":                         "¬it; & & &",
	} {
		if got, err := p(s); got != want || err != nil {
			t.Errorf("python pass(%q) = %q, %v; want %q", s, got, err, want)
		}
	}
	if _, err := p("&#" + strings.Repeat("0", 4301)); err == nil {
		t.Errorf("python pass on 4,301 digits: no error")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	r := rand.New(rand.NewPCG(1, 2))
	atoms := []string{"&", "&", "&#", "&#x", "#", "x", "X", ";", ";", "0", "1", "7", "9", "f", "F", "a", "amp", "not", "lt", "in", "G", "t", " ", "=", "-", "é"}
	var inputs []string
	for range 3000 {
		var b strings.Builder
		for range r.IntN(10) + 1 {
			b.WriteString(atoms[r.IntN(len(atoms))])
		}
		inputs = append(inputs, b.String())
	}
	data, _ := json.Marshal(inputs)
	cmd := exec.Command("python3", "-c", "import html, json, sys\nfor s in json.load(sys.stdin): print(json.dumps(html.unescape(s)))")
	cmd.Stdin = strings.NewReader(string(data))
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, s := range inputs {
		var want string
		if err := json.Unmarshal([]byte(lines[i]), &want); err != nil {
			t.Fatal(err)
		}
		if got, _ := p(s); got != want {
			t.Errorf("python pass(%q) = %q; html.unescape gives %q", s, got, want)
		}
	}
}

// Two deviations together make both changes: each of two witnesses of
// different deviations is explained by the pair.
func TestPairs(t *testing.T) {
	miss, validator := ByID("ignores-ref"), ByID("validates-after-repair")
	c := miss.Witnesses[0]
	if r := Apply(ctx, c, validator); r.Error != "" {
		t.Errorf("validates-after-repair alone on %s: %v, want output (the reference's fits)", c.Args, r)
	}
	if r := Apply(ctx, c, miss); r.Error != "" || string(r.Output) != string(c.Args) {
		t.Errorf("ignores-ref alone on %s: %v, want it as it is", c.Args, r)
	}
	if r := Apply(ctx, c, miss, validator); r.Error == "" {
		t.Errorf("ignores-ref and validates-after-repair on %s: %v, want an error", c.Args, r)
	}
	onePass, top := ByID("entities-one-pass"), ByID("entities-top-level-only")
	c = impl.Case{Schema: []byte(`{}`), Args: []byte(`{"a":"&amp;amp;","b":["&amp;amp;"]}`)}
	if r := Apply(ctx, c, onePass, top); string(r.Output) != `{"a":"&amp;","b":["&amp;amp;"]}` {
		t.Errorf("one pass at the top: %v", r)
	}
}

// Deviations that set the same part of the model undo one another; those
// that set different parts compose.
func TestCompatible(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"json-none", "json-top-level-only", false},
		{"entities-one-pass", "entities-top-level-only", true},
		{"entities-semicolon-required", "entities-html4-table", true},
		{"entities-html4-table", "entities-basic-table", false},
		{"json-nonfinite", "json-raw-surrogates", true},
		{"ignores-ref", "validates-after-repair", true},
		{"entities-attribute-mode", "entities-profile-ignored", false},
		// Another decoder's whole pass replaces the table a deviation
		// changes: with it, entities-named-missing's witness &amp; was
		// "consistent" with an implementation that decodes it.
		{"entities-named-missing", "entities-go-html", false},
		{"entities-go-html", "entities-semicolon-required", false},
		{"entities-go-html", "entities-one-pass", true},
	} {
		if got := Compatible(ByID(tt.a), ByID(tt.b)); got != tt.want {
			t.Errorf("Compatible(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// A deviation that a case does not have the features for gives the
// reference's result on it: skipping it loses no explanation.
func TestRelevant(t *testing.T) {
	var cases []impl.Case
	vectors, _ := corpus.Load(corpus.Embedded())
	for _, v := range vectors {
		cases = append(cases, impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options})
	}
	// Cases the random ones missed: whitespace only in a value decoded from
	// JSON text, written as an escape there.
	cases = append(cases, impl.Case{Schema: []byte(`{"properties":{"":{"type":"array"}}}`), Args: []byte(`{"":"[\"\\u2028\"]"}`)})
	r := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		cases = append(cases, impl.Case{Schema: []byte(randomSchemas[r.IntN(len(randomSchemas))]), Args: []byte(randomArgs(r))})
	}
	skipped := 0
	for _, c := range cases {
		f := FeaturesOf(c)
		want := impl.Reference.Normalize(ctx, c)
		for _, d := range Catalogue() {
			if d.Relevant(f) {
				continue
			}
			skipped++
			if got := Apply(ctx, c, d); !impl.Compare(got, want).Same() {
				t.Errorf("%s, not relevant to %s %s, changes it: %v, want %v", d.ID, c.Schema, c.Args, got, want)
			}
		}
	}
	t.Logf("%d of %d deviations run skipped", skipped, len(cases)*len(Catalogue()))
}

// TestNestedProperties: properties read only for the arguments' own
// members, wherever the root's schemas keep them ($ref, allOf), and never
// for a nested value, even one that reaches the same schema again.
func TestNestedProperties(t *testing.T) {
	d := ByID("ignores-nested-properties")
	for _, tt := range []struct{ schema, args, want string }{
		{`{"$defs":{"n":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/n"}}}}},"$ref":"#/$defs/n"}`,
			`{"c":"[{\"c\":\"[]\"}]"}`, `{"c":[{"c":"[]"}]}`},
		{`{"$defs":{"n":{"type":"object","properties":{"c":{"type":"array","items":{"$ref":"#/$defs/n"}}}}},"$ref":"#/$defs/n"}`,
			`{"c":[{"c":"[]"}]}`, `{"c":[{"c":"[]"}]}`},
		{`{"allOf":[{"properties":{"a":{"type":"array"}}}]}`, `{"a":"[1]"}`, `{"a":[1]}`},
		{`{"type":"object","properties":{"o":{"type":"object","properties":{"t":{"type":"array"}}}}}`,
			`{"o":"{\"t\":\"[1]\"}"}`, `{"o":{"t":"[1]"}}`},
		// Through a $ref by $id, and a "#" inside that resource.
		{`{"properties":{"":{"$ref":"https://example.com/node"}},"$defs":{"n":{"$id":"https://example.com/node","type":"object","properties":{"":{"$ref":"#"}}}}}`,
			`{"":{"":"{}"}}`, `{"":{"":"{}"}}`},
		{`{"properties":{"a":{"$ref":"node"},"b":{"type":"array"}},"$defs":{"n":{"$id":"node","type":"object","properties":{"b":{"type":"array"}}}}}`,
			`{"a":{"b":"[]"},"b":"[]"}`, `{"a":{"b":"[]"},"b":[]}`},
		{`{"$id":"https://example.com/s","type":"object","properties":{"a":{"type":"object"},"c":{"$ref":"#"}}}`,
			`{"a":"{}","c":{"a":"{}"}}`, `{"a":{},"c":{"a":"{}"}}`},
		// A dynamic reference in a nested value reaches, in the dynamic
		// scope, the root that keeps its properties; the copy reaches the
		// copy instead. By $recursiveRef, by $dynamicRef, and by a plain
		// name ($anchor) of the root's resource.
		{`{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true,"$ref":"tree","properties":{"extra":{"type":"array"}},"$defs":{"t":{"$id":"tree","$recursiveAnchor":true,"type":"object","properties":{"":{"items":{"$recursiveRef":"#"}}}}}}`,
			`{"":["{\"extra\":\"[]\"}"],"extra":"[]"}`, `{"":[{"extra":"[]"}],"extra":[]}`},
		{`{"$dynamicAnchor":"n","type":"object","properties":{"a":{"type":"array"},"c":{"$dynamicRef":"#n"}}}`,
			`{"a":"[]","c":{"a":"[]"}}`, `{"a":[],"c":{"a":"[]"}}`},
		{`{"$anchor":"n","type":"object","properties":{"a":{"type":"array"},"c":{"$ref":"#n"}}}`,
			`{"a":"[]","c":{"a":"[]"}}`, `{"a":[],"c":{"a":"[]"}}`},
	} {
		c := impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args)}
		if r := Apply(ctx, c, d); r.Error != "" || r.Failure != nil || !jsonEqual(t, r.Output, tt.want) {
			t.Errorf("%s on %s: %v, want %s", tt.schema, tt.args, r, tt.want)
		}
	}
}

func jsonEqual(t *testing.T, got []byte, want string) bool {
	t.Helper()
	eq, err := jsonvalue.EqualJSON(got, []byte(want))
	return err == nil && eq
}

// A validator after the repair that cannot compile the schema fails the
// call, as real ones do (ajv throws on a schema its metaschema refuses,
// Python's jsonschema.validate raises SchemaError, a validator that reads
// `"type": []` admits nothing): where the reference repairs under such a
// schema, the deviation answers an error.
func TestValidatorRefusesSchema(t *testing.T) {
	v := ByID("validates-after-repair")
	for _, c := range []impl.Case{
		{Schema: []byte(`{"type":"object","properties":{"a":{"type":[]}}}`), Args: []byte(`{"a":1}`)},
		{Schema: []byte(`{"type":"object","properties":{"a":{"type":["string","string"]}}}`), Args: []byte(`{"a":"x"}`)},
	} {
		ref := impl.Reference.Normalize(ctx, c)
		if ref.Error != "" || ref.Failure != nil {
			t.Fatalf("the reference on %s %s: %v, want output", c.Schema, c.Args, ref)
		}
		if r := Apply(ctx, c, v); r.Error == "" {
			t.Errorf("validates-after-repair on %s %s: %v, want an error (the validator refuses the schema)", c.Schema, c.Args, r)
		}
	}
}

// TestCoercions: the coercions validators make, each as the packages that
// make it answered (2026-12-06): a string to the number or boolean
// declared and back (a number or boolean to the string declared), and
// ajv's coerceTypes table, null and the other scalars too.
func TestCoercions(t *testing.T) {
	param := func(typ string) string { return `{"type":"object","properties":{"a":{"type":` + typ + `}}}` }
	for _, tt := range []struct{ id, schema, args, want string }{
		{"scalars-coerced-both-ways", param(`"string"`), `{"a":5}`, `{"a":"5"}`},
		{"scalars-coerced-both-ways", param(`"string"`), `{"a":true}`, `{"a":"true"}`},
		{"scalars-coerced-both-ways", param(`"string"`), `{"a":1.50}`, `{"a":"1.5"}`},
		{"scalars-coerced-both-ways", param(`"string"`), `{"a":1e21}`, `{"a":"1e+21"}`},
		{"scalars-coerced-both-ways", param(`"string"`), `{"a":-0}`, `{"a":"0"}`},
		{"scalars-coerced-both-ways", param(`"string"`), `{"a":null}`, `{"a":null}`},
		{"scalars-coerced-both-ways", param(`"number"`), `{"a":"1"}`, `{"a":1}`},
		{"scalars-coerced-both-ways", param(`"number"`), `{"a":true}`, `{"a":true}`},
		{"scalars-coerced-both-ways", param(`"boolean"`), `{"a":1}`, `{"a":1}`},
		{"scalars-coerced-both-ways", param(`["string","number"]`), `{"a":5}`, `{"a":5}`},
		{"scalars-coerced-ajv", param(`"string"`), `{"a":5}`, `{"a":"5"}`},
		{"scalars-coerced-ajv", param(`"string"`), `{"a":null}`, `{"a":""}`},
		{"scalars-coerced-ajv", param(`"number"`), `{"a":true}`, `{"a":1}`},
		{"scalars-coerced-ajv", param(`"number"`), `{"a":"1"}`, `{"a":1}`},
		{"scalars-coerced-ajv", param(`"null"`), `{"a":false}`, `{"a":null}`},
		{"scalars-coerced-ajv", param(`"null"`), `{"a":0}`, `{"a":null}`},
		{"scalars-coerced-ajv", param(`"boolean"`), `{"a":1}`, `{"a":true}`},
		{"scalars-coerced-ajv", param(`"boolean"`), `{"a":"x"}`, `{"a":"x"}`},
		{"scalars-coerced-ajv", param(`"integer"`), `{"a":"1.5"}`, `{"a":"1.5"}`},
		{"scalars-coerced-ajv", `{}`, `{"a":5}`, `{"a":5}`},
	} {
		c := impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args)}
		if r := Apply(ctx, c, ByID(tt.id)); r.Error != "" || r.Failure != nil || !jsonEqual(t, r.Output, tt.want) {
			t.Errorf("%s on %s %s: %v, want %s", tt.id, tt.schema, tt.args, r, tt.want)
		}
	}
}

// TestElementsAndLength: where `items` declares arrays, a string element is
// left as sent (only elements that are arrays already are walked), while
// one declared an object is decoded; and JSON text longer than 65,536
// UTF-16 code units, as a JavaScript string counts its length, is left.
func TestElementsAndLength(t *testing.T) {
	arrays := func(n int) string { return `"[` + strings.Repeat("0,", n) + `0]"` } // 2n+3 code units
	wide := `"[\"` + strings.Repeat("é", 40000) + `\"]"`                           // 40,004 code units, 80,004 bytes
	for _, tt := range []struct{ id, schema, args, want string }{
		{"items-arrays-not-decoded", arrayOfArr, `{"a":["[1]"]}`, `{"a":["[1]"]}`},
		{"items-arrays-not-decoded", arrayOfArr, `{"a":[["x"],"[1]"]}`, `{"a":[["x"],"[1]"]}`},
		{"items-arrays-not-decoded", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object"}}}}`, `{"a":["{}"]}`, `{"a":[{}]}`},
		{"items-arrays-not-decoded", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","properties":{"t":{"type":"array"}}}}}}`,
			`{"a":[{"t":"[1]"}]}`, `{"a":[{"t":[1]}]}`},
		{"items-arrays-not-decoded", arrayOfArr, `{"a":"[\"[1]\"]"}`, `{"a":["[1]"]}`},
		{"items-arrays-not-decoded", arrayParam, `{"a":"[1]"}`, `{"a":[1]}`},
		{"items-arrays-not-decoded", `{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"array"}]}}}`, `{"a":["[1]","[2]"]}`, `{"a":[[1],"[2]"]}`},
		{"json-length-limit", arrayParam, `{"a":` + arrays(32767) + `}`, `{"a":` + arrays(32767) + `}`},
		{"json-length-limit", arrayParam, `{"a":` + arrays(32766) + `}`, `{"a":[` + strings.Repeat("0,", 32766) + `0]}`},
		{"json-length-limit", arrayParam, `{"a":` + wide + `}`, `{"a":["` + strings.Repeat("é", 40000) + `"]}`},
		{"json-length-limit", arrayParam, `{"a":"[1]"}`, `{"a":[1]}`},
	} {
		c := impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args)}
		d := ByID(tt.id)
		if d == nil {
			t.Fatalf("no deviation %s", tt.id)
		}
		if r := Apply(ctx, c, d); r.Error != "" || r.Failure != nil || !jsonEqual(t, r.Output, tt.want) {
			t.Errorf("%s on %s %.80s: %.200v, want %.200s", tt.id, tt.schema, tt.args, r, tt.want)
		}
	}
}

// TestUnionsInOrder: a union's branches tried in order, the first that
// takes the value winning, so a string is decoded where a branch that
// declares its shape comes before one that admits a string; and allOf's
// branches applied one after another, each decoding what it declares.
func TestUnionsInOrder(t *testing.T) {
	param := func(s string) string { return `{"type":"object","properties":{"a":` + s + `}}` }
	for _, tt := range []struct{ id, schema, args, want string }{
		{"union-branches-in-order", param(`{"oneOf":[{"type":"object"},{"type":"string"}]}`), `{"a":"{}"}`, `{"a":{}}`},
		{"union-branches-in-order", param(`{"anyOf":[{"type":"array"},{}]}`), `{"a":"[1]"}`, `{"a":[1]}`},
		{"union-branches-in-order", param(`{"anyOf":[{"type":"array"},{"type":"string"}]}`), `{"a":"{}"}`, `{"a":"{}"}`},
		{"union-branches-in-order", param(`{"anyOf":[{"type":"array"},{"type":"object"},{"type":"string"}]}`), `{"a":"{}"}`, `{"a":{}}`},
		{"union-branches-in-order", param(`{"oneOf":[{"type":"string"},{"type":"object"}]}`), `{"a":"{}"}`, `{"a":"{}"}`},
		{"union-branches-in-order", param(`{"anyOf":[{},{"type":"array"}]}`), `{"a":"[1]"}`, `{"a":"[1]"}`},
		{"union-branches-in-order", param(`{"type":["array","string"]}`), `{"a":"[1]"}`, `{"a":"[1]"}`},
		{"union-branches-in-order", param(`{"anyOf":[{"type":"object","properties":{"x":{"type":"array"}}},{"type":"object","properties":{"x":{"type":"string"}}}]}`),
			`{"a":{"x":"[1]"}}`, `{"a":{"x":[1]}}`},
		// A value no branch's repair fits is kept as sent: each element
		// alone is decoded by one branch, the whole by none.
		{"union-branches-in-order", param(`{"anyOf":[{"type":"array","items":{"type":"array"}},{"type":"array","items":{"type":"object"}}]}`), `{"a":["[1]","{}"]}`, `{"a":["[1]","{}"]}`},
		{"union-branches-in-order", param(`{"anyOf":[{"type":"array","items":{"type":"array"}},{"type":"array","items":{"type":"object"}}]}`), `{"a":["{}"]}`, `{"a":[{}]}`},
		// A branch that is a $ref never takes the value.
		{"union-ref-branches-skipped", `{"type":"object","$defs":{"c":{"$ref":"#/$defs/c"}},"properties":{"a":{"anyOf":[{"$ref":"#/$defs/c"},{"type":"array"}]}}}`, `{"a":"[1]"}`, `{"a":[1]}`},
		{"union-ref-branches-skipped", `{"type":"object","$defs":{"s":{"type":"string"}},"properties":{"a":{"oneOf":[{"$ref":"#/$defs/s"}]}}}`, `{"a":"[1]"}`, `{"a":"[1]"}`},
		// prefixItems unread unless $schema names 2020-12.
		{"prefixitems-2020-12-only", param(`{"type":"array","prefixItems":[{"type":"array"}]}`), `{"a":["[1]"]}`, `{"a":["[1]"]}`},
		{"prefixitems-2020-12-only", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"array"}]}}}`, `{"a":["[1]"]}`, `{"a":["[1]"]}`},
		{"prefixitems-2020-12-only", `{"$schema":"http://json-schema.org/draft/2020-12/schema","type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"array"}]}}}`, `{"a":["[1]"]}`, `{"a":[[1]]}`},
		{"prefixitems-2020-12-only", `{"$schema":"https://json-schema.org/draft/2020-12/schema#","type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"array"}]}}}`, `{"a":["[1]"]}`, `{"a":[[1]]}`},
		// older-draft: a type beside $ref applies under 2020-12 only.
		{"older-draft", `{"type":"object","$defs":{"x":{}},"properties":{"a":{"$ref":"#/$defs/x","type":"array"}}}`, `{"a":"[1]"}`, `{"a":"[1]"}`},
		{"older-draft", `{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"array"}]}}}`, `{"a":["[1]"]}`, `{"a":[[1]]}`},
		// One declaration of a member: the object's own, else the first
		// allOf branch's; a member one branch declares is read as before.
		{"allof-members-first", `{"type":"object","allOf":[{"properties":{"a":{}}},{"properties":{"a":{"type":"array"}}}]}`, `{"a":"[1]"}`, `{"a":"[1]"}`},
		{"allof-members-first", `{"type":"object","allOf":[{"properties":{"a":{"type":"array"}}},{"properties":{"a":{"type":"string"}}}]}`, `{"a":"[1]"}`, `{"a":[1]}`},
		{"allof-members-first", `{"type":"object","properties":{"a":{}},"allOf":[{"properties":{"a":{"type":"array"}}}]}`, `{"a":"[1]"}`, `{"a":"[1]"}`},
		{"allof-members-first", `{"type":"object","properties":{"a":{"type":"array"}},"allOf":[{"properties":{"a":{"type":"string"}}}]}`, `{"a":"[1]"}`, `{"a":[1]}`},
		{"allof-members-first", `{"type":"object","allOf":[{"properties":{"a":{"type":"array"}}},{"properties":{"b":{"type":"object"}}}]}`, `{"a":"[1]","b":"{}"}`, `{"a":[1],"b":{}}`},
		{"allof-members-first", param(`{"type":"object","allOf":[{"properties":{"x":{"type":["array","string"]}}},{"properties":{"x":{"type":"array"}}}]}`), `{"a":{"x":"[1]"}}`, `{"a":{"x":"[1]"}}`},
		// Types added up, not intersected.
		{"types-added", param(`{"type":"array","anyOf":[{"type":"string"},{}]}`), `{"a":"[1]"}`, `{"a":"[1]"}`},
		{"types-added", param(`{"allOf":[{"type":["object","array"]},{"type":"object"}]}`), `{"a":"[1]"}`, `{"a":[1]}`},
		{"types-added", param(`{"anyOf":[{"type":"array"},{"type":"null"}]}`), `{"a":"[1]"}`, `{"a":[1]}`},
		{"allof-in-turn", param(`{"allOf":[{"type":"array"},{"type":"object"}]}`), `{"a":"{}"}`, `{"a":{}}`},
		{"allof-in-turn", param(`{"allOf":[{"type":["array","string"]},{"type":"array"}]}`), `{"a":"[1]"}`, `{"a":[1]}`},
		{"allof-in-turn", param(`{"allOf":[{"type":"string"},{"type":"array"}]}`), `{"a":"[1]"}`, `{"a":[1]}`},
		{"allof-in-turn", param(`{"allOf":[{},{"type":"array"}]}`), `{"a":"[1]"}`, `{"a":[1]}`},
		{"allof-in-turn", param(`{"allOf":[{"type":"string"}]}`), `{"a":"[1]"}`, `{"a":"[1]"}`},
		{"allof-in-turn", param(`{"anyOf":[{"type":"string"},{"type":"array"}]}`), `{"a":"[1]"}`, `{"a":"[1]"}`},
		// Declarations of members named after Object.prototype's own
		// properties skipped, as a guard against prototype pollution does.
		{"prototype-names-skipped", `{"type":"object","properties":{"constructor":{"type":"array"},"a":{"type":"array"}}}`, `{"constructor":"[1]","a":"[1]"}`, `{"constructor":"[1]","a":[1]}`},
		{"prototype-names-skipped", `{"type":"object","properties":{"o":{"type":"object","properties":{"prototype":{"type":"object"}}}}}`, `{"o":{"prototype":"{}"}}`, `{"o":{"prototype":"{}"}}`},
		{"prototype-names-skipped", `{"type":"object","properties":{"toString":{"type":"array"}}}`, `{"toString":"[1]"}`, `{"toString":[1]}`},
	} {
		c := impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args)}
		d := ByID(tt.id)
		if d == nil {
			t.Fatalf("no deviation %s", tt.id)
		}
		if r := Apply(ctx, c, d); r.Error != "" || r.Failure != nil || !jsonEqual(t, r.Output, tt.want) {
			t.Errorf("%s on %s %s: %v, want %s", tt.id, tt.schema, tt.args, r, tt.want)
		}
	}
}

// TestDecodedDepth: an error the reference gives only once a string is
// decoded (the arguments as sent within the nesting limit) is one a
// deviation that decodes less takes away, and one that decodes as much
// keeps: a depth-top implementation's answer on such a case is
// json-top-level-only's, not a missing error of its own.
func TestDecodedDepth(t *testing.T) {
	ctx := context.Background()
	nested := strings.Repeat(`{"a":`, 998) + `{"s":"[[1]]"}` + strings.Repeat(`}`, 998)
	c := impl.Case{Schema: []byte(`{"$ref":"#/$defs/n","$defs":{"n":{"type":"object","properties":{"a":{"$ref":"#/$defs/n"},"s":{"type":"array"}}}}}`), Args: []byte(nested)}
	if r := impl.Reference.Normalize(ctx, c); r.Error != impl.ErrTooDeep {
		t.Fatalf("the reference gives %v, want too-deep", r)
	}
	if r := Apply(ctx, c, ByID("json-top-level-only")); r.Error != "" || !impl.Same(r, impl.OK([]byte(nested))) {
		t.Errorf("json-top-level-only gives %v, want the arguments as sent", r.Show(80))
	}
	if r := Apply(ctx, c, ByID("entities-one-pass")); r.Error != impl.ErrTooDeep {
		t.Errorf("entities-one-pass gives %v, want too-deep", r.Show(80))
	}
	deep := impl.Case{Schema: []byte(`{}`), Args: []byte(strings.Repeat(`{"a":`, 1001) + `1` + strings.Repeat(`}`, 1001))}
	if r := Apply(ctx, deep, ByID("json-top-level-only")); r.Error != impl.ErrTooDeep {
		t.Errorf("too deep as sent: json-top-level-only gives %v, want too-deep", r.Show(80))
	}
}
