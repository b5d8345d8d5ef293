package properties

import (
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// A typeSet is the set of JSON types a schema position declares, as
// docs/readings.md section 4 reads it; tAll where nothing is declared.
type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBool
	tObject
	tArray
	tNumber
	tString
	tAll typeSet = 1<<iota - 1
)

// A node is a generated schema, with the types it declares and what its
// children are, so that generators can make arguments that fit it and
// know what the rule does with them.
type node struct {
	json  string // the schema's JSON text
	types typeSet
	props []prop  // for objects
	items *node   // for arrays: the schema of every element
	defs  []def   // $defs the schema needs at the root
	leaf  typeSet // for leaves: the types values are drawn from
}

type prop struct {
	key     string
	n       *node
	pattern bool // the key is declared only by patternProperties or additionalProperties
}

type def struct {
	name string
	n    *node
}

var (
	leafTypes = []struct {
		json  string
		types typeSet
	}{
		{`{"type":"string"}`, tString},
		{`{"type":"number"}`, tNumber},
		{`{"type":"integer"}`, tNumber},
		{`{"type":"boolean"}`, tBool},
		{`{"type":"null"}`, tNull},
		{`{"type":["string","null"]}`, tString | tNull},
		{`{"type":"string","nullable":true}`, tString | tNull},
		{`{}`, tAll},
		{`{"description":"anything"}`, tAll},
	}
	// keyPool mixes plain keys with keys that hold references (keys must
	// never change) and keys languages treat specially: JavaScript's
	// prototype names, Python's dunder, keys a language may read as
	// numbers (not an array index: a JavaScript object would move it
	// first, and its kit answers unsupported), the empty key, a key
	// outside the BMP.
	keyPool = []string{"title", "tags", "ops", "filter", "q", "n", "url", "a", "b", "&amp;", "k&lt;", "x&#59;", "caf\u00e9", "",
		"__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__class__", "01", "-0", "1e3", "\U0001F600"}
)

// The generators the drawing uses, built once: building one costs more
// than drawing from it, and a generator keeps no state between draws, so a
// draw from one of these is the draw from a new one (TestDrawnCasesUnchanged).
var (
	genBool      = rapid.Bool()
	genKind      = rapid.IntRange(0, 9)
	genLeaf      = rapid.SampledFrom(leafTypes)
	genArrayType = rapid.SampledFrom([]string{`"array"`, `["array","null"]`, `["array"]`})
	genKeys      = distinctKeys()
	genPatterned = rapid.IntRange(0, 2)
	// genAdditional draws, for one object in four that has no pattern, an
	// additionalProperties that declares an array or an object.
	genAdditional    = rapid.IntRange(0, 3)
	genAdditionalKey = rapid.SampledFrom([]string{"more", "constructor", "toString"})
	genPattern       = rapid.SampledFrom(patterns)
	genWrap          = rapid.IntRange(0, 2)
	genDef           = rapid.IntRange(0, 1<<20)
	genAsString      = rapid.IntRange(0, 3)
	genLen           = rapid.IntRange(0, 3)
	genPresent       = rapid.IntRange(0, 4)
	genDress         = rapid.IntRange(0, 5)
	genTimes         = rapid.IntRange(1, 3)
	genGarbage       = rapid.SampledFrom([]string{"x", "]", "}", " 1", "[]"})
	genRefKind       = rapid.IntRange(0, 9)
	genName          = rapid.SampledFrom(names)
	genLegacy        = rapid.SampledFrom(legacyNames())
	genAfter         = rapid.SampledFrom([]string{"", "x", "1", "=", ";", "in;", "it;", " "})
	genDec           = rapid.SampledFrom([]string{"0", "1", "9", "38", "60", "128", "150", "159", "65533", "55296", "1114111", "1114112", "4294967356", strings.Repeat("9", 300), "0000065"})
	genDecEnd        = rapid.SampledFrom([]string{";", "", "x"})
	genX             = rapid.SampledFrom([]string{"x", "X"})
	genHex           = rapid.SampledFrom([]string{"0", "26", "3C", "80", "9f", "D800", "DFFF", "110000", "fffe", "1F600", ""})
	genHexEnd        = rapid.SampledFrom([]string{";", "", "g"})
	genChain         = rapid.IntRange(1, 40)
	genTail          = rapid.SampledFrom([]string{"lt;", "quot;", "amp", "#38;", "notin;", "x"})
	genSplit         = rapid.SampledFrom([]string{"&l&#116;;", "&amp;notin&#59;", "&&amp;lt;lt;", "&#x26;amp;", "&a&#109;p;lt;", "&amp;#x3C;"})
	genURL           = rapid.SampledFrom([]string{"?a=1&region=eu&not=2", "https://x.test/?q=1&amp;copy=2&lang=en", "&", "&;", "&#", "&#x;", "& amp;"})
	genRandomName    = rapid.StringMatching(`[a-zA-Z0-9]{0,6};?`)
	genPieces        = rapid.IntRange(0, 4)
	genPiece         = rapid.IntRange(0, 23)
	genPlain         = rapid.SampledFrom([]string{"Ember ", " Oak", "é", "\u2028", "\"", "\\", "\n", "\x01", "<b>", "1", ";", "#"})
	genSurrogate     = rapid.SampledFrom([]string{"\xed\xa0\x80", "\xed\xbf\xbf"})
	genAny           = rapid.StringN(0, 5, 20)
	genScalar        = rapid.IntRange(0, 5)
	genScalarText    = rapid.SampledFrom([]string{"1", "-2.5", "1e3", "0", "true", "false", "null", " 7"})
	genNumber        = rapid.SampledFrom([]string{"0", "-0", "1.0", "1.50", "12345678901234567890", "1e400", "-1E-7", "0.1", "9007199254740993", "1E+2"})
)

// distinctKeys draws one to four distinct keys of keyPool. Each use gets
// its own generator, as each call site had.
func distinctKeys() *rapid.Generator[[]string] {
	return rapid.SliceOfNDistinct(rapid.SampledFrom(keyPool), 1, 4, func(k string) string { return k })
}

// legacyNames are the entity names without their semicolon.
func legacyNames() []string {
	var legacy []string
	for _, n := range names {
		if !strings.HasSuffix(n, ";") {
			legacy = append(legacy, n)
		}
	}
	return legacy
}

// schemaNode draws a schema of at most the given depth.
func schemaNode(t *rapid.T, depth int) *node {
	kind := genKind.Draw(t, "kind")
	if depth <= 0 {
		kind %= 3
	}
	switch {
	case kind == 0 || kind == 1:
		l := genLeaf.Draw(t, "leaf")
		return &node{json: l.json, types: l.types, leaf: l.types}
	case kind == 2:
		return arrayNode(t, depth, &node{json: `{}`, types: tAll, leaf: tAll})
	case kind <= 4:
		return arrayNode(t, depth, schemaNode(t, depth-1))
	case kind <= 7:
		return objectNode(t, depth)
	default:
		return wrap(t, schemaNode(t, depth-1))
	}
}

func arrayNode(t *rapid.T, depth int, items *node) *node {
	typ, types := genArrayType.Draw(t, "array-type"), tArray
	if strings.Contains(typ, "null") {
		types |= tNull
	}
	return &node{json: `{"type":` + typ + `,"items":` + items.json + `}`, types: types, items: items, defs: items.defs}
}

// patterns are patternProperties patterns, each with keys that match it.
var patterns = []struct {
	re   string
	keys []string
}{
	{`^list_`, []string{"list_a", "list_tags"}},
	{`_json$`, []string{"ops_json", "a_json"}},
	{`^[0-9]+$`, []string{"1", "42"}},
}

func objectNode(t *rapid.T, depth int) *node {
	n := &node{types: tObject}
	keys := genKeys.Draw(t, "keys")
	b := []byte(`{"type":"object","properties":{`)
	for i, k := range keys {
		c := schemaNode(t, depth-1)
		n.props = append(n.props, prop{key: k, n: c})
		n.defs = append(n.defs, c.defs...)
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(appendQuote(b, k), ':'), c.json...)
	}
	b = append(b, '}')
	if genPatterned.Draw(t, "patterned") == 0 {
		// Members whose keys match a pattern get its schema (and only
		// those: additionalProperties is for members that match nothing).
		pat := genPattern.Draw(t, "pattern")
		c := schemaNode(t, depth-1)
		n.defs = append(n.defs, c.defs...)
		for _, k := range pat.keys {
			n.props = append(n.props, prop{k, c, true})
		}
		b = append(appendQuote(append(b, `,"patternProperties":{`...), pat.re), ':')
		b = append(append(b, c.json...), '}')
		if genBool.Draw(t, "additional") {
			b = append(b, `,"additionalProperties":{"type":"string"}`...)
		}
	} else if genAdditional.Draw(t, "additional") == 0 {
		// A member only additionalProperties declares: a plain name, or
		// one a JavaScript object inherits (which properties does not
		// list all the same).
		k := genAdditionalKey.Draw(t, "additional-key")
		if !slices.Contains(keys, k) {
			c := arrayNode(t, depth, &node{json: `{}`, types: tAll, leaf: tAll})
			if genBool.Draw(t, "additional-object") {
				c = objectNode(t, depth-1)
			}
			n.defs = append(n.defs, c.defs...)
			n.props = append(n.props, prop{k, c, true})
			b = append(append(b, `,"additionalProperties":`...), c.json...)
		}
	}
	n.json = string(append(b, '}'))
	return n
}

// wrap puts a schema behind $ref, allOf or anyOf, keeping what it declares
// for arrays and objects.
func wrap(t *rapid.T, c *node) *node {
	w := *c
	switch genWrap.Draw(t, "wrap") {
	case 0:
		name := "d" + strconv.Itoa(genDef.Draw(t, "def"))
		w.json = `{"$ref":"#/$defs/` + name + `"}`
		w.defs = append(append([]def{}, c.defs...), def{name, c})
	case 1:
		w.json = `{"allOf":[` + c.json + `,{"description":"x"}]}`
	default:
		w.json = `{"anyOf":[` + c.json + `,{"type":"null"}]}`
		w.types |= tNull
	}
	return &w
}

// document renders a tool schema: an object whose parameters are params.
func document(params []prop) string {
	b := []byte(`{"type":"object","properties":{`)
	for i, p := range params {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(append(appendQuote(b, p.key), ':'), p.n.json...)
	}
	b = append(b, '}')
	var seen map[string]bool
	for _, p := range params {
		for _, d := range p.n.defs {
			if seen[d.name] {
				continue
			}
			if seen == nil {
				seen = map[string]bool{}
				b = append(b, `,"$defs":{`...)
			} else {
				b = append(b, ',')
			}
			seen[d.name] = true
			b = append(append(appendQuote(b, d.name), ':'), d.n.json...)
		}
	}
	if seen != nil {
		b = append(b, '}')
	}
	return string(append(b, '}'))
}

func quote(s string) []byte { return appendQuote(nil, s) }

// appendQuote appends s as a JSON string.
func appendQuote(dst []byte, s string) []byte {
	return (&jsonvalue.Value{Kind: jsonvalue.String, Str: s}).Append(dst)
}

// value draws arguments that fit n, and strings of every kind the rule is
// about: references, stringified JSON of the declared shape and of another.
func value(t *rapid.T, n *node, depth int) *jsonvalue.Value {
	if genAsString.Draw(t, "as-string") == 0 {
		return str(stringFor(t, n, depth))
	}
	switch {
	case n.items != nil && n.types&tArray != 0:
		v := &jsonvalue.Value{Kind: jsonvalue.Array, Elems: []*jsonvalue.Value{}}
		for range genLen.Draw(t, "len") {
			v.Elems = append(v.Elems, value(t, n.items, depth-1))
		}
		return v
	case n.props != nil:
		v := &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}}
		for _, p := range n.props {
			if genPresent.Draw(t, "present") == 0 {
				continue
			}
			mv := value(t, p.n, depth-1)
			if p.pattern && mv.Kind != jsonvalue.String && genBool.Draw(t, "pattern-as-json") {
				// What only the pattern's schema vouches for: its JSON
				// text, which the repair decodes where it declares the
				// shape.
				mv = str(string(mv.Append(nil)))
			}
			v.Members = append(v.Members, jsonvalue.Member{Key: p.key, Value: mv})
		}
		return v
	}
	return scalar(t)
}

func str(s string) *jsonvalue.Value { return &jsonvalue.Value{Kind: jsonvalue.String, Str: s} }

// stringFor draws a string for a position: text with references, or the
// JSON of a value for the position (so that the JSON repair may fire),
// escaped into references, padded, or cut short.
func stringFor(t *rapid.T, n *node, depth int) string {
	if depth <= 0 || genBool.Draw(t, "text") {
		return text(t)
	}
	s := string(value(t, n, depth-1).Append(nil))
	switch genDress.Draw(t, "dress") {
	case 0:
		s = " \n" + s + "\t "
	case 1:
		s = htmlEscape(s, genTimes.Draw(t, "times"))
	case 2:
		s += genGarbage.Draw(t, "garbage")
	}
	return s
}

func htmlEscape(s string, times int) string {
	for range times {
		s = htmlEscaper.Replace(s)
	}
	return s
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")

var names = entity.Names()

// reference draws one character reference, or something that nearly is.
func reference(t *rapid.T) string {
	switch genRefKind.Draw(t, "ref-kind") {
	case 0, 1:
		return "&" + genName.Draw(t, "name")
	case 2: // a legacy name followed by what may change its reading
		return "&" + genLegacy.Draw(t, "legacy") + genAfter.Draw(t, "after")
	case 3:
		return "&#" + genDec.Draw(t, "dec") + genDecEnd.Draw(t, "end")
	case 4:
		return "&#" + genX.Draw(t, "x") + genHex.Draw(t, "hex") + genHexEnd.Draw(t, "end")
	case 5: // a chain of &amp;
		return "&" + strings.Repeat("amp;", genChain.Draw(t, "depth")) + genTail.Draw(t, "tail")
	case 6: // split across a layer
		return genSplit.Draw(t, "split")
	case 7:
		return genURL.Draw(t, "url")
	}
	return "&" + genRandomName.Draw(t, "random-name")
}

// text draws a string of plain text and references (half of the pieces),
// characters JSON must escape, and, one piece in 24, a lone surrogate
// (WTF-8): enough to meet one in a few cases, few enough that a language
// whose strings cannot hold one (PHP's, which answer such a case
// `unsupported`) still has most cases judged.
func text(t *rapid.T) string {
	var b strings.Builder
	for range genPieces.Draw(t, "pieces") {
		switch p := genPiece.Draw(t, "piece"); {
		case p < 12:
			b.WriteString(reference(t))
		case p < 16:
			b.WriteString(genPlain.Draw(t, "plain"))
		case p == 16:
			b.WriteString(genSurrogate.Draw(t, "surrogate"))
		default:
			b.WriteString(genAny.Draw(t, "any"))
		}
	}
	return b.String()
}

// scalar draws a number (with text that float64 would not keep), a
// boolean, null, a string holding a number's or boolean's text, or a
// string.
func scalar(t *rapid.T) *jsonvalue.Value {
	switch genScalar.Draw(t, "scalar") {
	case 0:
		return &jsonvalue.Value{Kind: jsonvalue.Number, Number: genNumber.Draw(t, "number")}
	case 1:
		return &jsonvalue.Value{Kind: jsonvalue.Bool, Bool: genBool.Draw(t, "bool")}
	case 2:
		return &jsonvalue.Value{Kind: jsonvalue.Null}
	case 3: // a number or boolean sent as text, as models send them
		return str(genScalarText.Draw(t, "scalar-text"))
	}
	return str(text(t))
}
