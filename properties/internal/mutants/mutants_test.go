package mutants

import (
	"bufio"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
	"github.com/toolnorm/toolnorm/oracle"
)

// input is one case: a schema, arguments and options.
type input struct {
	schema, args string
	o            impl.Options
}

func in(schema, args string) input { return input{schema: schema, args: args} }

func (c input) with(o impl.Options) input { c.o = o; return c }

var (
	attribute = impl.Options{Profile: normalize.Attribute}
	onePass   = impl.Options{MaxPasses: 1}
)

// Schemas the cases share.
const (
	arrayParam   = `{"type":"object","properties":{"ops":{"type":"array"}}}`
	objectParam  = `{"type":"object","properties":{"filter":{"type":"object"}}}`
	stringOrList = `{"properties":{"ids":{"type":["string","array"]}}}`
	anyOfList    = `{"properties":{"ids":{"anyOf":[{"type":"string"},{"type":"array"}]}}}`
	nested       = `{"properties":{"rows":{"type":"array","items":{"type":"array"}},"cfg":{"type":"object","properties":{"tags":{"type":"array"}}}}}`
	viaRef       = `{"$defs":{"list":{"type":"array"}},"properties":{"ids":{"$ref":"#/$defs/list"}}}`
	viaAnyOf     = `{"properties":{"ids":{"anyOf":[{"type":"array"},{"type":"null"}]}},"additionalProperties":{"oneOf":[{"type":"object"},{"type":"boolean"}]}}`
	viaPattern   = `{"properties":{"name":{"type":"string"}},"patternProperties":{"^ids?$":{"type":"array"}}}`
	noSchema     = `{}`
)

// cases holds, for every mutant, inputs that trigger its bug (its result
// differs from the reference's) and inputs that do not (they agree).
var cases = map[string]struct{ trigger, same []input }{
	"decodes-string-params": {
		trigger: []input{in(stringOrList, `{"ids":"[1,2]"}`), in(anyOfList, `{"ids":"[\"a\"]"}`)},
		same:    []input{in(stringOrList, `{"ids":"x &amp; y"}`), in(arrayParam, `{"ops":"[1,2]"}`), in(`{"properties":{"s":{"type":"string"}}}`, `{"s":"[1]"}`)},
	},
	"substitutes-wrong-shape": {
		trigger: []input{in(arrayParam, `{"ops":"{\"op\":\"add\"}"}`), in(objectParam, `{"filter":"[1]"}`)},
		same:    []input{in(arrayParam, `{"ops":"[{\"op\":\"add\"}]"}`), in(objectParam, `{"filter":"{\"a\":\"&amp;\"}","x":"{}"}`)},
	},
	"top-level-only": {
		trigger: []input{in(nested, `{"rows":"[\"[1]\"]"}`), in(nested, `{"cfg":{"tags":"[\"a\"]"}}`), in(nested, `{"rows":["[2]"]}`)},
		same:    []input{in(nested, `{"rows":"[[1]]","cfg":"{\"tags\":[\"&amp;\"]}"}`)},
	},
	"rejects-padded-json": {
		trigger: []input{in(arrayParam, `{"ops":" [1, 2] "}`), in(arrayParam, `{"ops":"[1]\n"}`)},
		same:    []input{in(arrayParam, `{"ops":"[1, 2]","x":" [1] "}`)},
	},
	"one-pass": {
		trigger: []input{in(noSchema, `{"title":"Ember &amp;amp; Oak"}`), in(noSchema, `{"t":"&l&#116;;"}`)},
		same:    []input{in(noSchema, `{"title":"Ember &amp; Oak"}`), in(noSchema, `{"t":"&amp;amp;"}`).with(impl.Options{MaxPasses: 1})},
	},
	"ignores-max-passes": {
		trigger: []input{in(noSchema, `{"t":"&amp;amp;"}`).with(onePass)},
		same:    []input{in(noSchema, `{"t":"&amp;amp;"}`), in(noSchema, `{"t":"&amp;"}`).with(onePass)},
	},
	"ignores-profile": {
		trigger: []input{in(noSchema, `{"url":"?a=1&region=eu&not=2"}`).with(attribute)},
		same:    []input{in(noSchema, `{"url":"?a=1&amp;b=2&copy;"}`).with(attribute), in(noSchema, `{"url":"?a=1&region=eu"}`)},
	},
	"needs-semicolon": {
		trigger: []input{in(noSchema, `{"q":"a &amp b"}`), in(noSchema, `{"q":"&#38"}`), in(noSchema, `{"q":"&notit;"}`)},
		same:    []input{in(noSchema, `{"q":"a &amp; b &#38; &#x26; &lt;&gt;"}`), in(noSchema, `{"q":"&region=1"}`).with(attribute)},
	},
	"stdlib-html": {
		trigger: []input{
			in(noSchema, `{"q":"&#4294967356;"}`),
			in(noSchema, `{"q":"&#x10000000041;"}`),
			in(noSchema, `{"q":"tab&#9"}`),
			in(noSchema, `{"q":"&#3 x"}`),
			in(noSchema, `{"q":"&nGt; &nLt;"}`),
			in(noSchema, `{"q":"&#x;"}`),
		},
		same: []input{in(noSchema, `{"q":"&lt;b&gt; &amp;amp; &#38; &#x80; &#99999999999; &#0; &ThickSpace; &notit;"}`), in(noSchema, `{"q":"&#9;&region=1"}`).with(attribute)},
	},
	"python-unescape": {
		trigger: []input{
			in(noSchema, `{"q":"&#1;"}`),
			in(noSchema, `{"q":"&#127;"}`),
			in(noSchema, `{"q":"&#xFFFF;&#xFDD0;"}`),
			in(noSchema, `{"q":"&#11"}`),
			in(noSchema, `{"q":"&#`+strings.Repeat("1", 5000)+`;"}`),
		},
		same: []input{in(noSchema, `{"q":"&#13;&#x80;&#x81;&#0;&#xD800;&#x110000;&amp;&#9;&notit;&#`+strings.Repeat("1", 4300)+`;&#x`+strings.Repeat("f", 5000)+`"}`)},
	},
	"entities-first": {
		trigger: []input{in(arrayParam, `{"ops":"[\"&quot;\"]"}`), in(objectParam, `{"filter":"{\"q\":\"a &quot;b&quot;\"}"}`)},
		same:    []input{in(arrayParam, `{"ops":"[\"a &amp; b\"]"}`), in(arrayParam, `{"ops":"[&quot;a&quot;]"}`)},
	},
	"no-json-after-entities": {
		trigger: []input{in(arrayParam, `{"ops":"[&quot;a&quot;]"}`), in(objectParam, `{"filter":"{&quot;a&quot;:1}"}`)},
		same:    []input{in(arrayParam, `{"ops":"[\"&quot;\"]","x":"[&quot;a&quot;]"}`)},
	},
	"ignores-ref": {
		trigger: []input{in(viaRef, `{"ids":"[1]"}`)},
		same:    []input{in(viaRef, `{"ids":"a &amp; b","x":"[1]"}`), in(`{"$defs":{"x":{"$ref":"#/$defs/nope"}}}`, `{}`)},
	},
	"ignores-anyof": {
		trigger: []input{in(viaAnyOf, `{"ids":"[1]"}`), in(viaAnyOf, `{"extra":"{\"a\":1}"}`)},
		same:    []input{in(viaAnyOf, `{"ids":["&amp;"],"extra":true}`), in(`{"anyOf":[]}`, `{}`)},
	},
	"ignores-pattern-properties": {
		trigger: []input{in(viaPattern, `{"ids":"[1]"}`)},
		same:    []input{in(viaPattern, `{"name":"[1]","list":"[2]"}`), in(`{"patternProperties":{"(?=x)":{}}}`, `{}`)},
	},
	"decodes-keys": {
		trigger: []input{in(noSchema, `{"a&amp;b":"x"}`), in(objectParam, `{"filter":"{\"&amp;\":\"&amp;\"}"}`)},
		same:    []input{in(noSchema, `{"ab":"&amp;","c":{"d":"&lt;"}}`)},
	},
	"float64-numbers": {
		trigger: []input{in(noSchema, `{"n":12345678901234567890}`), in(noSchema, `{"n":1e400}`), in(arrayParam, `{"ops":"[1e-400]"}`)},
		same:    []input{in(noSchema, `{"n":1.0,"m":-0,"k":[1e2,0.5],"s":"12345678901234567890"}`)},
	},
	"trims-whitespace": {
		trigger: []input{in(noSchema, `{"s":" padded "}`), in(noSchema, `{"s":"line\n"}`)},
		same:    []input{in(noSchema, `{" k ":"in side","n":[1, 2]}`)},
	},
	"reorders-members": {
		trigger: []input{in(noSchema, `{"b":1,"a":2}`), in(noSchema, `{"a":1,"a":2}`)},
		same:    []input{in(noSchema, `{"a":1,"b":{"c":2,"d":"&amp;"}}`)},
	},
	"lone-surrogate-to-fffd": {
		trigger: []input{in(noSchema, `{"s":"\ud800"}`), in(noSchema, `{"s":"\udc00 &amp;"}`)},
		same:    []input{in(noSchema, `{"s":"\ud83d\ude00 &amp; caf\u00e9"}`)},
	},
}

func run(f impl.Impl, c input) impl.Result {
	return f.Normalize(context.Background(), impl.Case{Schema: []byte(c.schema), Args: []byte(c.args), Options: c.o})
}

func TestMutants(t *testing.T) {
	names := map[string]bool{}
	kebab := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, m := range All() {
		t.Run(m.Name, func(t *testing.T) {
			if !kebab.MatchString(m.Name) || names[m.Name] {
				t.Errorf("name %q: want a unique kebab-case id", m.Name)
			}
			names[m.Name] = true
			if m.Bug == "" || strings.ContainsAny(m.Bug, "\n\r") {
				t.Errorf("bug %q: want one line", m.Bug)
			}
			c, ok := cases[m.Name]
			if !ok || len(c.trigger) == 0 || len(c.same) == 0 {
				t.Fatalf("no trigger and non-trigger cases")
			}
			for _, in := range c.trigger {
				got, want := run(m.Impl, in), run(impl.Reference, in)
				if impl.Compare(got, want).Same() {
					t.Errorf("trigger %s %s %+v: agrees with the reference: %+v", in.schema, in.args, in.o, got)
				}
			}
			for _, in := range c.same {
				got, want := run(m.Impl, in), run(impl.Reference, in)
				if d := impl.Compare(got, want).Diff; d != "" {
					t.Errorf("non-trigger %s %s %+v: %s: got %+v, want %+v", in.schema, in.args, in.o, d, got, want)
				}
			}
		})
	}
	for name := range cases {
		if !names[name] {
			t.Errorf("cases for %q, which is not a mutant", name)
		}
	}
}

// The normalizer that the decoder and ordering mutants are built on gives
// the reference's result when nothing is swapped, and so does it with the
// reference's decision run through scan and inProfile: any difference a
// mutant built on them shows is its bug.
func TestNormalizerIsReference(t *testing.T) {
	inputs := []input{
		in(nested, `{"rows":"[\"[1]\", \"[&quot;a&quot;]\"]","cfg":"{\"tags\":\" [\\\"&amp;amp;\\\"] \"}","x":"[1]"}`),
		in(viaAnyOf, `{"ids":"[&quot;a&quot;]","extra":"{\"a\":\"&lt;\"}","a":"{}","a":"x"}`),
		in(`{"properties":{"t":{"type":"array","prefixItems":[{"type":"object"}],"items":{"type":"array"}}}}`, `{"t":"[\"{}\",\"[]\",\"{}\"]"}`),
		in(arrayParam, `{"ops":"[\"\\ud800 &amp;\"]","n":1e400,"s":"\ud800 &amp;"}`),
		in(noSchema, `{"u":"?a=1&region=eu&not=2&amp=3&#9;"}`).with(attribute),
		in(noSchema, `{"u":"&amp;amp;amp; &l&#116;;"}`).with(impl.Options{MaxPasses: 2}),
		in(noSchema, `[1]`), in(noSchema, `{"a":`), in(`{"type":"nope"}`, `{}`),
	}
	for _, c := range cases {
		inputs = append(append(inputs, c.trigger...), c.same...)
	}
	vectors, _ := corpus.Load(corpus.Embedded())
	for _, v := range vectors {
		inputs = append(inputs, input{string(v.SchemaText()), string(v.ArgumentsText()), v.Options})
	}
	for _, n := range []*normalizer{{}, {pass: scan(tokenizer)}} {
		for _, in := range inputs {
			if d := impl.Compare(n.Normalize(context.Background(), impl.Case{Schema: []byte(in.schema), Args: []byte(in.args), Options: in.o}), run(impl.Reference, in)).Diff; d != "" {
				t.Errorf("%+v on %s %s %+v: %s", n, in.schema, in.args, in.o, d)
			}
		}
	}
}

// The stdlib-html triggers exercise real differences between
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
	p := scan(python)
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
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for i := 0; sc.Scan(); i++ {
		var want string
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		if got, _ := p(inputs[i]); got != want {
			t.Errorf("python pass(%q) = %q, python3 says %q", inputs[i], got, want)
		}
	}
}

// Each mutant agrees with the reference on most of the committed corpus:
// its bug is isolated, not a general breakage.
func TestCorpusAgreement(t *testing.T) {
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Logf("loading the corpus: %v", err)
	}
	var rule []*corpus.Vector
	html5lib := 0
	for _, v := range vectors {
		if v.Origin == "html5lib" {
			html5lib++
			continue
		}
		rule = append(rule, v)
	}
	t.Logf("%d vectors not from html5lib, %d from html5lib", len(rule), html5lib)
	for _, m := range All() {
		failed, failed5 := 0, 0
		var first string
		for _, v := range vectors {
			if corpus.Replay(v, m.Impl).Pass {
				continue
			}
			if v.Origin == "html5lib" {
				failed5++
				continue
			}
			failed++
			if first == "" {
				first = v.File
			}
		}
		t.Logf("%-28s fails %3d of %d vectors (and %d of %d html5lib) %s", m.Name, failed, len(rule), failed5, html5lib, first)
		// A share means something only with enough vectors.
		if len(rule) >= 20 && float64(len(rule)-failed) < 0.6*float64(len(rule)) {
			t.Errorf("%s fails %d of %d vectors: more than 40%%", m.Name, failed, len(rule))
		}
	}
}

// randomArgs draws arguments for the schemas of TestNormalizerMatchesRandom:
// members named as the schemas' parameters, holding scalars, references,
// and arrays and objects, also sent as strings, sometimes escaped.
func randomArgs(r *rand.Rand) string {
	keys := []string{"a", "b", "ids", "rows", "cfg", "tags", "t", "x"}
	texts := []string{"&amp;", "&amp;amp;", "&quot;", "&lt;", "&#9", "&#1;", "&notit;", "&region=", "x", " ", "[", "]", "{", "}", ",", "1", "\\\"", "&#x26;quot;", "&nGt;"}
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

// TestNormalizerMatchesRandom: on random inputs too, the normalizer with
// nothing swapped, and with the reference's decision run through scan and
// inProfile, gives the reference's result.
func TestNormalizerMatchesRandom(t *testing.T) {
	schemas := []string{noSchema, arrayParam, objectParam, stringOrList, anyOfList, nested, viaRef, viaAnyOf, viaPattern,
		`{"type":"object","additionalProperties":{"type":"array","items":{"type":"object","additionalProperties":{"type":["array","object"]}}}}`,
		`{"properties":{"t":{"type":"array","prefixItems":[{"type":"object"},{"type":"string"}],"items":{"type":"array"}}},"additionalProperties":{"allOf":[{"type":["array","string"]},{"type":["array","null"]}]}}`,
		`{"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}},"tags":{"type":"array"}}}},"additionalProperties":{"$ref":"#/$defs/node"}}`,
		`{"additionalProperties":{"anyOf":[{"type":"object","properties":{"x":{"type":"array"}}},{"type":"array","items":{"type":"object"}}]}}`,
	}
	options := []impl.Options{{}, {}, attribute, onePass, {MaxPasses: 2}}
	r := rand.New(rand.NewPCG(7, 8))
	n := 1500
	if testing.Short() {
		n = 200
	}
	for range n {
		in := input{schemas[r.IntN(len(schemas))], randomArgs(r), options[r.IntN(len(options))]}
		want := run(impl.Reference, in)
		for _, m := range []*normalizer{{}, {pass: scan(tokenizer)}} {
			if d := impl.Compare(m.Normalize(context.Background(), impl.Case{Schema: []byte(in.schema), Args: []byte(in.args), Options: in.o}), want).Diff; d != "" {
				t.Fatalf("%+v on %s %s %+v: %s", m, in.schema, in.args, in.o, d)
			}
		}
	}
}
