package fuzz

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

var differentialN = flag.Int("differential.n", 3000, "random cases TestDifferential compares")

// caseGen makes schemas and arguments that meet often: both draw keys from
// one small vocabulary, and the strings are the ones the rule is about
// (stringified JSON of either shape, references escaped once or twice,
// near misses).
type caseGen struct {
	r    *rand.Rand
	defs []string
}

var keys = []string{"a", "b", "c", "p1", "&amp;"}

func (g *caseGen) pick(list ...string) string { return list[g.r.IntN(len(list))] }

func (g *caseGen) schema(depth int) string {
	if depth <= 0 {
		return g.pick(`{"type":"string"}`, `{"type":"array"}`, `{"type":"object"}`, `{"type":["array","null"]}`,
			`{"type":["string","array"]}`, `{"type":"array","nullable":true}`, `{}`, `true`, `false`, `{"type":"number"}`,
			`{"type":"array"}`, `{"type":"object"}`, `{"type":["object","array"]}`, `{"type":"array","items":{"type":"array"}}`)
	}
	switch g.r.IntN(9) {
	case 0, 1:
		var props []string
		for _, k := range keys[:1+g.r.IntN(len(keys))] {
			if g.r.IntN(3) > 0 {
				props = append(props, fmt.Sprintf("%q:%s", k, g.schema(depth-1)))
			}
		}
		extra := ""
		if g.r.IntN(3) == 0 {
			extra += `,"patternProperties":{"^p":` + g.schema(depth-1) + `}`
		}
		if g.r.IntN(3) == 0 {
			extra += `,"additionalProperties":` + g.schema(depth-1)
		}
		return `{"type":` + g.pick(`"object"`, `["object","string"]`, `["object","array"]`) + `,"properties":{` + strings.Join(props, ",") + `}` + extra + `}`
	case 2, 3:
		switch g.r.IntN(3) {
		case 0:
			return `{"type":"array","prefixItems":[` + g.schema(depth-1) + `],"items":` + g.schema(depth-1) + `}`
		case 1:
			return `{"type":"array","items":[` + g.schema(depth-1) + `],"additionalItems":` + g.schema(depth-1) + `}`
		}
		return `{"type":` + g.pick(`"array"`, `["array","null"]`) + `,"items":` + g.schema(depth-1) + `}`
	case 4:
		return `{"` + g.pick("anyOf", "oneOf", "allOf") + `":[` + g.schema(depth-1) + `,` + g.schema(depth-1) + `]}`
	case 5:
		return `{"type":"array","anyOf":[` + g.schema(depth-1) + `,` + g.schema(depth-1) + `]}`
	case 6:
		g.defs = append(g.defs, g.schema(depth-1))
		return fmt.Sprintf(`{"$ref":"#/$defs/d%d"}`, len(g.defs)-1)
	}
	return g.schema(0)
}

// document is a tool schema: an object whose parameters are the keys, with
// random schemas of the given depth, and the $defs they refer to.
func (g *caseGen) document(depth int) string {
	g.defs = nil
	var props []string
	for _, k := range keys {
		props = append(props, fmt.Sprintf("%q:%s", k, g.schema(g.r.IntN(depth+1))))
	}
	root := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	if g.r.IntN(8) == 0 {
		root = g.schema(depth)
	}
	if len(g.defs) == 0 || !strings.HasPrefix(root, "{") {
		return root
	}
	var defs []string
	for i, d := range g.defs {
		defs = append(defs, fmt.Sprintf(`"d%d":%s`, i, d))
	}
	return `{"$defs":{` + strings.Join(defs, ",") + `},"allOf":[` + root + `]}`
}

func (g *caseGen) value(depth int) string {
	if depth <= 0 {
		switch g.r.IntN(4) {
		case 0:
			return g.pick("1", "1.0", "12345678901234567890", "1e400", "-0", "true", "null")
		}
		return quote(g.text(depth))
	}
	switch g.r.IntN(5) {
	case 0:
		var members []string
		for range g.r.IntN(4) {
			members = append(members, quote(g.pick(keys...))+":"+g.value(depth-1))
		}
		return "{" + strings.Join(members, ",") + "}"
	case 1:
		var elems []string
		for range g.r.IntN(4) {
			elems = append(elems, g.value(depth-1))
		}
		return "[" + strings.Join(elems, ",") + "]"
	}
	return quote(g.text(depth))
}

// text is the value of a string: stringified JSON (padded, escaped into
// references, cut short), or text with and without references.
func (g *caseGen) text(depth int) string {
	if g.r.IntN(2) == 0 {
		s := g.value(max(depth, 1))
		if g.r.IntN(4) == 0 {
			s = " \n" + s + " "
		}
		for range g.r.IntN(3) {
			s = strings.NewReplacer("&", "&amp;", `"`, "&quot;").Replace(s)
		}
		if g.r.IntN(6) == 0 {
			s += g.pick("x", "]", "}", " 1")
		}
		return s
	}
	return g.pick("plain", "", "Ember &amp;amp; Oak", "&l&#116;;", "?a=1&region=eu&not=2", "&amp;notin&#59;",
		"&#4294967356;", "[&quot;a&quot;]", "{&quot;k&quot;:1}", "null", "1", `"x"`, "&#x5B;1]", "caf\u00e9 \u2028", "&#0;&#x80;")
}

func quote(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, c := range []byte(s) {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func differ(schema, args []byte, attribute bool, maxPasses, maxDepth int) error {
	o := impl.Options{MaxPasses: maxPasses, MaxDepth: maxDepth}
	if attribute {
		o.Profile = normalize.Attribute
	}
	return Differ(schema, args, o)
}

// TestDifferential compares the reference with the slow normalizer on
// random schemas and arguments (-differential.n sets how many).
func TestDifferential(t *testing.T) {
	g := &caseGen{r: rand.New(rand.NewPCG(11, 12))}
	for i := range *differentialN {
		schema := g.document(1 + g.r.IntN(3))
		args := "{" + fmt.Sprintf("%q:%s,%q:%s", g.pick(keys...), g.value(2), g.pick(keys...), g.value(2)) + "}"
		attribute := i%5 == 4
		maxPasses := 0
		if i%7 == 6 {
			maxPasses = 1 + g.r.IntN(2)
		}
		if err := differ([]byte(schema), []byte(args), attribute, maxPasses, 1000); err != nil {
			t.Fatalf("case %d (attribute %v, max passes %d): %v", i, attribute, maxPasses, err)
		}
	}
}

// FuzzDifferential is TestDifferential under the fuzzer: the reference and
// the slow normalizer agree on every schema and arguments.
func FuzzDifferential(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s[0]), []byte(s[1]), false, uint8(0))
	}
	addCorpusSeeds(f)
	addSearchSeeds(f)
	g := &caseGen{r: rand.New(rand.NewPCG(13, 14))}
	for range 20 {
		f.Add([]byte(g.document(2)), []byte("{"+quote(g.pick(keys...))+":"+g.value(2)+"}"), false, uint8(0))
	}
	f.Fuzz(func(t *testing.T, schema, args []byte, attribute bool, bound uint8) {
		if err := differ(schema, args, attribute, int(bound%3), 20); err != nil {
			t.Fatal(err)
		}
	})
}
