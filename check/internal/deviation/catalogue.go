package deviation

import (
	"sync"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// Schemas the witnesses share. Types are spelt out at every level: the
// plainest schema a tool ships, on which an implementation is most likely
// right, so that a witness shows the deviation and nothing else.
const (
	arrayParam  = `{"type":"object","properties":{"a":{"type":"array"}}}`
	objectParam = `{"type":"object","properties":{"a":{"type":"object"}}}`
	stringParam = `{"type":"object","properties":{"a":{"type":"string"}}}`
	arrayOfArr  = `{"type":"object","properties":{"a":{"type":"array","items":{"type":"array"}}}}`
	nestedArr   = `{"type":"object","properties":{"o":{"type":"object","properties":{"t":{"type":"array"}}}}}`
	viaRef      = `{"type":"object","$defs":{"l":{"type":"array"}},"properties":{"a":{"$ref":"#/$defs/l"}}}`
	noSchema    = `{}`
)

func w(schema, args string) impl.Case { return impl.Case{Schema: []byte(schema), Args: []byte(args)} }

func wo(schema, args string, o impl.Options) impl.Case {
	c := w(schema, args)
	c.Options = o
	return c
}

func withModel(f func(m *model)) change { return change{model: f} }

// Catalogue returns every deviation, in the order a report lists root
// causes of equal weight: the rule's clauses first. The slice and its
// deviations are shared: do not change them.
func Catalogue() []*Deviation {
	catalogueOnce.Do(func() { catalogue = build() })
	return catalogue
}

var (
	catalogueOnce sync.Once
	catalogue     []*Deviation
)

// ByID returns the deviation id names, or nil.
func ByID(id string) *Deviation {
	for _, d := range Catalogue() {
		if d.ID == id {
			return d
		}
	}
	return nil
}

func build() []*Deviation {
	return []*Deviation{
		// Clauses 2 and 3: the JSON repair.
		{ID: "json-none", needs: needsRepair, Clause: "rule/2",
			Title:     "The JSON repair is never made: an array or object sent as JSON text stays a string where the schema declares it",
			change:    withModel(func(m *model) { m.json = nowhere }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[1]"}`), w(objectParam, `{"a":"{\"k\":1}"}`)}},
		{ID: "repairs-top-level-only", needs: needsRepair, Clause: "rule/2",
			Title:  "Only top-level parameters are repaired: strings in arrays, in nested objects and in decoded values keep their references and JSON text",
			change: withModel(func(m *model) { m.json, m.entities, m.notRecursive = topOnly, topOnly, true }),
			Witnesses: []impl.Case{w(noSchema, `{"a":["&amp;"]}`), w(arrayOfArr, `{"a":["[1]"]}`), w(noSchema, `{"o":{"t":"&amp;"}}`), w(nestedArr, `{"o":{"t":"[1]"}}`),
				w(arrayParam, `{"a":"[\"&amp;\"]"}`), w(arrayParam, `{"a":"[1]"}`), w(noSchema, `{"a":"&amp;"}`)}},
		{ID: "json-top-level-only", needs: needsRepair, Clause: "rule/2",
			Title:  "The JSON repair is made only to top-level parameters: JSON text in array elements, in nested members and in decoded values stays a string",
			change: withModel(func(m *model) { m.json = topOnly }),
			Witnesses: []impl.Case{w(arrayOfArr, `{"a":["[1]"]}`), w(nestedArr, `{"o":{"t":"[1]"}}`), w(arrayOfArr, `{"a":"[\"[1]\"]"}`),
				w(arrayParam, `{"a":"[1]"}`), w(noSchema, `{"a":["&amp;"]}`)}},
		{ID: "json-not-recursive", needs: needsRepair, Clause: "rule/2",
			Title:     "Values decoded from JSON text are not repaired: their strings keep their references and JSON text",
			change:    withModel(func(m *model) { m.notRecursive = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[\"&amp;\"]"}`), w(arrayOfArr, `{"a":"[\"[1]\"]"}`), w(arrayOfArr, `{"a":["[1]"]}`)}},
		{ID: "json-schema-blind", needs: needsRepair, Clause: "rule/3",
			Title:     "Strings are JSON-decoded whatever the schema declares: an array or object sent as text is decoded where nothing, or `string`, is declared",
			change:    withModel(func(m *model) { m.blind = true }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"[1]"}`), w(stringParam, `{"a":"{\"k\":1}"}`), w(arrayParam, `{"a":"{\"k\":1}"}`)}},
		{ID: "json-string-admitted", needs: needsKeyword("type:string"), Clause: "rule/3",
			Title:  "A string is JSON-decoded where the schema admits `string` beside `array` or `object`",
			change: change{schema: dropStringType},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"type":["string","array"]}}}`, `{"a":"[1]"}`),
				w(`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"array"}]}}}`, `{"a":"[1]"}`), w(stringParam, `{"a":"[1]"}`)}},
		{ID: "json-string-admitted-invalid", needs: needsKeyword("maxLength", "minLength"), Clause: "rule/3",
			Title:  "A string that breaks the `maxLength` or `minLength` of its position is JSON-decoded where `array` or `object` is admitted beside `string`",
			change: withModel(func(m *model) { m.lengthBroken = true }),
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"type":["string","array"],"maxLength":1}}}`, `{"a":"[1]"}`),
				w(`{"type":"object","properties":{"a":{"type":["string","object"],"minLength":9}}}`, `{"a":"{}"}`),
				w(`{"type":"object","properties":{"a":{"type":["string","array"],"maxLength":9}}}`, `{"a":"[1]"}`)}},
		{ID: "json-any-branch", needs: needsKeyword("anyOf", "oneOf"), Clause: "rule/3",
			Title:  "A string is JSON-decoded where one branch of `anyOf` or `oneOf` declares `array` or `object`, though another admits a string or anything",
			change: change{schema: containerBranches},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"anyOf":[{},{"type":"array"}]}}}`, `{"a":"[1]"}`),
				w(`{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"object"}]}}}`, `{"a":"{}"}`), w(stringParam, `{"a":"[1]"}`)}},
		{ID: "json-wrong-shape", needs: needsRepair, Clause: "rule/3",
			Title:     "A parsed value of the wrong shape is substituted: an object for a declared array, or an array for a declared object",
			change:    withModel(func(m *model) { m.anyShape = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"{\"k\":1}"}`), w(objectParam, `{"a":"[1]"}`), w(arrayParam, `{"a":"1"}`)}},
		{ID: "json-array-for-object", needs: needsRepair, Clause: "rule/3",
			Title:     "An array is substituted where an object is declared: a string holding a JSON array is decoded there",
			change:    withModel(func(m *model) { m.arrayForObject = true }),
			Witnesses: []impl.Case{w(objectParam, `{"a":"[1]"}`), w(arrayParam, `{"a":"{\"k\":1}"}`)}},
		{ID: "json-any-value", needs: needsString, Clause: "rule/3",
			Title:     "Whatever a string parses to is substituted where an array or object is declared: numbers, booleans and null too",
			change:    withModel(func(m *model) { m.anyValue = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"1"}`), w(objectParam, `{"a":"null"}`), w(arrayParam, `{"a":"true"}`)}},
		{ID: "json-padding-refused", needs: needsRepair, Clause: "reading/5",
			Title:     "JSON text with whitespace around it is not decoded where an array or object is declared",
			change:    withModel(func(m *model) { m.unpadded = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":" [1]"}`), w(objectParam, `{"a":"{} "}`), w(arrayParam, `{"a":"[1]"}`)}},
		{ID: "json-nonfinite", needs: needsRepair, Clause: "reading/5",
			Title:     "Text with `NaN` or `Infinity` is read as JSON where an array or object is declared, and then no answer can carry it",
			change:    withModel(func(m *model) { m.read.nonFinite = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[NaN]"}`), w(objectParam, `{"a":"{\"k\":Infinity}"}`)}},
		{ID: "json-raw-surrogates", needs: needsRepair, Clause: "reading/5",
			Title:     "JSON text holding a lone surrogate as it is, not escaped, is decoded, where it is no JSON text (a lone surrogate is no Unicode character)",
			change:    withModel(func(m *model) { m.read.rawSurrogates = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[\"\ud800\"]"}`)}},
		{ID: "json-lone-surrogate-refused", needs: needsRepair, Clause: "reading/5",
			Title:     "JSON text with a lone surrogate escape (`\\ud800`) is not decoded, where RFC 8259 reads it",
			change:    withModel(func(m *model) { m.read.loneEscapes = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[\"\\ud800\"]"}`), w(arrayParam, `{"a":"[\"\\ud83d\\ude00\"]"}`)}},
		{ID: "json-lenient", needs: needsRepair, Clause: "reading/5",
			Title:     "Text that is not JSON is decoded where an array or object is declared: single quotes, trailing commas, comments or bare keys are accepted",
			change:    withModel(func(m *model) { m.read.lenient = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"['x']"}`), w(arrayParam, `{"a":"[1,]"}`), w(objectParam, `{"a":"{k:1}"}`)}},
		{ID: "json-trailing-commas", needs: needsRepair, Clause: "reading/5",
			Title:     "JSON text with a trailing comma (`[1,]`) is decoded where an array or object is declared, where it is no JSON text",
			change:    withModel(func(m *model) { m.read.trailingCommas = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[1,]"}`), w(objectParam, `{"a":"{\"k\":1, }"}`), w(arrayParam, `{"a":"['x']"}`)}},
		{ID: "json-error-on-unparsable", needs: needsString, Clause: "reading/8",
			Title:     "An error where a string the schema declares an array or object does not parse as JSON, where the rule passes it through",
			change:    withModel(func(m *model) { m.unparsable = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"x"}`), w(objectParam, `{"a":"{"}`)}},

		// docs/readings.md section 6: the order of the repairs.
		{ID: "entities-first", needs: needsRepair, Clause: "reading/6",
			Title:     "References are decoded before the JSON repair, which then sees only the decoded text: JSON text with `&quot;` in a string stays a string",
			change:    withModel(func(m *model) { m.entitiesFirst = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[\"&quot;\"]"}`), w(arrayParam, `{"a":"[\"&amp;quot;\"]"}`), w(arrayParam, `{"a":"[&quot;a&quot;]"}`)}},
		{ID: "no-json-after-entities", needs: needsRepair, Clause: "reading/6",
			Title:     "The JSON repair is not tried again once references are decoded: `[&quot;a&quot;]` for an array becomes the string `[\"a\"]`",
			change:    withModel(func(m *model) { m.noRedecode = true }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[&quot;a&quot;]"}`), w(objectParam, `{"a":"{&quot;k&quot;:1}"}`), w(arrayParam, `{"a":"[\"&quot;\"]"}`)}},

		// Clause 4: the entity repair.
		{ID: "entities-none", needs: needsAmp, Clause: "rule/4",
			Title:     "HTML character references are not decoded: `&amp;` stays `&amp;`",
			change:    withModel(func(m *model) { m.entities = nowhere }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"x &amp; y"}`), w(noSchema, `{"a":"&#38;"}`), w(noSchema, `{"a":["&lt;"]}`)}},
		{ID: "entities-one-pass", needs: needsAmp, Clause: "rule/4",
			Title:     "References are decoded in one pass, not until the value stops changing: `&amp;amp;` gives `&amp;`",
			change:    withModel(func(m *model) { m.onePass = true }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&amp;amp;"}`), w(noSchema, `{"a":"&amp;lt;"}`), w(noSchema, `{"a":"&amp;"}`)}},
		{ID: "entities-top-level-only", needs: needsAmp, Clause: "rule/4",
			Title:  "References are decoded only in top-level parameters: strings in arrays, in nested objects and in decoded values keep theirs",
			change: withModel(func(m *model) { m.entities = topOnly }),
			Witnesses: []impl.Case{w(noSchema, `{"a":["&amp;"]}`), w(noSchema, `{"o":{"t":"&amp;"}}`), w(arrayParam, `{"a":"[\"&amp;\"]"}`),
				w(noSchema, `{"a":"&amp;"}`), w(arrayOfArr, `{"a":["[1]"]}`)}},
		{ID: "entities-numeric-missing", needs: needsAmp, Clause: "rule/4",
			Title:     "Numeric character references are not decoded: `&#38;` and `&#x26;` stay",
			change:    withModel(func(m *model) { m.dec.numerics = noNumerics }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&#38;"}`), w(noSchema, `{"a":"&#x26;"}`), w(noSchema, `{"a":"&amp;"}`)}},
		{ID: "entities-hex-missing", needs: needsAmp, Clause: "rule/4",
			Title:     "Hexadecimal character references are not decoded: `&#x26;` stays",
			change:    withModel(func(m *model) { m.dec.numerics = decimalOnly }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&#x26;"}`), w(noSchema, `{"a":"&#X41;"}`), w(noSchema, `{"a":"&#38;"}`)}},
		{ID: "entities-named-missing", needs: needsAmp, Clause: "rule/4",
			Title:     "Named character references are not decoded: `&amp;` stays, `&#38;` is decoded",
			change:    withModel(func(m *model) { m.dec.names = noNames }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&amp;"}`), w(noSchema, `{"a":"&eacute;"}`), w(noSchema, `{"a":"&#38;"}`)}},
		{ID: "entities-semicolon-required", needs: needsAmp, Clause: "reading/1",
			Title:     "References without their `;` are not decoded: `&amp` and `&#38` stay",
			change:    withModel(func(m *model) { m.dec.semicolon = true }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&amp x"}`), w(noSchema, `{"a":"&#38"}`), w(noSchema, `{"a":"&amp;"}`)}},
		{ID: "entities-basic-table", needs: needsAmp, Clause: "reading/1",
			Title:     "Of the named references only `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&apos;` are decoded: `&eacute;` stays",
			change:    withModel(func(m *model) { m.dec.names = basicNames }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&eacute;"}`), w(noSchema, `{"a":"&copy;"}`), w(noSchema, `{"a":"&amp;&lt;&gt;&quot;&apos;"}`)}},
		{ID: "entities-html4-table", needs: needsAmp, Clause: "reading/1",
			Title:     "Named references are read from HTML 4's table of 252 names: `&apos;` and the names HTML5 added stay",
			change:    withModel(func(m *model) { m.dec.names = html4Names }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&apos;"}`), w(noSchema, `{"a":"&lbrke;"}`), w(noSchema, `{"a":"&eacute;"}`)}},
		{ID: "entities-case-insensitive", needs: needsAmp, Clause: "reading/1",
			Title:     "Names of references are matched without regard to case: `&Amp;` gives `&`",
			change:    withModel(func(m *model) { m.dec.names = caselessNames }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&Amp;"}`), w(noSchema, `{"a":"&Nbsp;"}`)}},
		{ID: "entities-no-prefix-match", needs: needsAmp, Clause: "reading/1",
			Title:     "A legacy name without its `;` is not matched at the start of a longer name: `&notit;` stays, where HTML gives `¬it;`",
			change:    withModel(func(m *model) { m.dec.names = nameOnlyLegacy }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&notit;"}`), w(noSchema, `{"a":"&copyx"}`), w(noSchema, `{"a":"&copy x"}`)}},
		{ID: "entities-numeric-raw", needs: needsAmp, Clause: "reading/1",
			Title:     "Numeric references give their code point as it is, not as HTML decodes them: `&#128;` gives U+0080 where HTML gives `€`, `&#0;` gives U+0000",
			change:    withModel(func(m *model) { m.dec.numerics = rawNumerics }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&#128;"}`), w(noSchema, `{"a":"&#0;"}`), w(noSchema, `{"a":"&#38;"}`)}},
		{ID: "entities-numeric-disallowed-kept", needs: needsAmp, Clause: "reading/1",
			Title:     "Numeric references to control characters, surrogates and code points past U+10FFFF are left as text, where HTML decodes or replaces them: `&#128;` stays",
			change:    withModel(func(m *model) { m.dec.numerics = keptNumerics }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&#128;"}`), w(noSchema, `{"a":"&#1;"}`), w(noSchema, `{"a":"&#xD800;"}`), w(noSchema, `{"a":"&#38;"}`)}},
		{ID: "entities-invalid-dropped", needs: needsAmp, Clause: "reading/1",
			Title:     "Numeric references to control characters and noncharacters are dropped, as Python's html.unescape drops them: `&#1;` gives nothing",
			change:    withModel(func(m *model) { m.dec.numerics = pythonNumerics }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"x&#1;y"}`), w(noSchema, `{"a":"&#xFFFF;"}`), w(noSchema, `{"a":"&#38;"}`)}},
		{ID: "entities-go-html", needs: needsAmp, Clause: "reading/1",
			Title:     "References are decoded as Go's html.UnescapeString decodes them: `&#9` stays, `&nGt;` stays, `&#4294967356;` gives `<`",
			change:    withModel(func(m *model) { m.pass = stdlib }),
			Witnesses: []impl.Case{w(noSchema, `{"a":"&#9"}`), w(noSchema, `{"a":"&nGt;"}`), w(noSchema, `{"a":"&#4294967356;"}`)}},
		{ID: "entities-attribute-mode", needs: needsAmp, Clause: "reading/3",
			Title: "References are decoded as in an attribute value where the text profile is asked: `&amp=` stays",
			change: change{options: func(o *impl.Options) {
				if o.Profile == normalize.Text {
					o.Profile = normalize.Attribute
				}
			}},
			Witnesses: []impl.Case{w(noSchema, `{"a":"?x&amp=1"}`), w(noSchema, `{"a":"&copyx"}`)}},
		{ID: "entities-profile-ignored", needs: needsAmp, Clause: "reading/3",
			Title: "The attribute profile is not honoured: `?a=1&region=eu` gives `?a=1®ion=eu`",
			change: change{options: func(o *impl.Options) {
				if o.Profile == normalize.Attribute {
					o.Profile = normalize.Text
				}
			}},
			Witnesses: []impl.Case{wo(noSchema, `{"a":"?a=1&region=eu"}`, impl.Options{Profile: normalize.Attribute})}},
		{ID: "entities-pass-bound-ignored", needs: needsAmp, Clause: "rule/4",
			Title:     "The bound on decoding passes is not honoured: `&amp;amp;` gives `&` where one pass is asked",
			change:    change{options: func(o *impl.Options) { o.MaxPasses = 0 }},
			Witnesses: []impl.Case{wo(noSchema, `{"a":"&amp;amp;"}`, impl.Options{MaxPasses: 1})}},

		// docs/readings.md section 4: what the schema declares.
		{ID: "plain-types-only", needs: needsRepair, Clause: "reading/4",
			Title:  "Only a plain `type` is read, through `properties` and `items`: `$ref`, `allOf`, `anyOf`, `oneOf`, type lists and other keywords declare nothing",
			change: change{schema: plainTypes},
			Witnesses: []impl.Case{w(viaRef, `{"a":"[1]"}`), w(`{"type":"object","properties":{"a":{"anyOf":[{"type":"array"},{"type":"null"}]}}}`, `{"a":"[1]"}`),
				w(`{"type":"object","properties":{"a":{"type":["array","null"]}}}`, `{"a":"[1]"}`), w(`{"type":"object","properties":{"a":{"allOf":[{"type":"array"}]}}}`, `{"a":"[1]"}`),
				w(`{"type":"object","properties":{"a":{"oneOf":[{"type":"array"},{"type":"null"}]}}}`, `{"a":"[1]"}`), w(arrayOfArr, `{"a":["[1]"]}`), w(nestedArr, `{"o":{"t":"[1]"}}`)}},
		{ID: "untyped-levels-skipped", needs: needsKeyword("properties", "patternProperties", "additionalProperties", "items", "prefixItems", "additionalItems"), Clause: "reading/4",
			Title:  "A level whose `type` is unsaid is not walked: `properties` count only beside `\"type\": \"object\"`, `items` only beside `\"type\": \"array\"`",
			change: change{schema: untypedLevels},
			Witnesses: []impl.Case{w(`{"properties":{"a":{"type":"array"}}}`, `{"a":"[1]"}`), w(`{"type": "object","properties":{"a":{"items":{"type":"array"}}}}`, `{"a":["[1]"]}`),
				w(arrayParam, `{"a":"[1]"}`)}},
		{ID: "ignores-ref", needs: needsKeyword("$ref"), Clause: "reading/4",
			Title:     "`$ref` is not followed: what the schema it names declares is missed",
			change:    change{schema: dropMembers("$ref", jsonvalue.String)},
			Witnesses: []impl.Case{w(viaRef, `{"a":"[1]"}`), w(arrayParam, `{"a":"[1]"}`)}},
		{ID: "ref-type-only", needs: needsKeyword("$ref"), Clause: "reading/4",
			Title:  "`$ref` is followed for the type alone: what the schema it names declares below it (`items`, `properties`) is missed",
			change: change{schema: refTypeOnly},
			Witnesses: []impl.Case{w(`{"type":"object","$defs":{"l":{"type":"array","items":{"type":"array"}}},"properties":{"a":{"$ref":"#/$defs/l"}}}`, `{"a":["[1]"]}`),
				w(`{"type":"object","$defs":{"o":{"type":"object","properties":{"t":{"type":"array"}}}},"properties":{"a":{"$ref":"#/$defs/o"}}}`, `{"a":{"t":"[1]"}}`),
				w(viaRef, `{"a":"[1]"}`)}},
		{ID: "ref-items-dropped", needs: needsKeyword("$ref"), Clause: "reading/4",
			Title:  "`items` is not read behind a `$ref`: an array's elements are declared by nothing it names, though its type and the members of objects are",
			change: change{schema: refItems},
			Witnesses: []impl.Case{w(`{"type":"object","$defs":{"l":{"type":"array","items":{"type":"array"}}},"properties":{"a":{"$ref":"#/$defs/l"}}}`, `{"a":["[1]"]}`),
				w(`{"type":"object","$defs":{"o":{"type":"object","properties":{"t":{"type":"array"}}}},"properties":{"a":{"$ref":"#/$defs/o"}}}`, `{"a":{"t":"[1]"}}`),
				w(viaRef, `{"a":"[1]"}`), w(arrayOfArr, `{"a":["[1]"]}`)}},
		{ID: "ignores-dynamic-ref", needs: needsKeyword("$dynamicRef", "$recursiveRef"), Clause: "reading/4",
			Title:  "`$dynamicRef` and `$recursiveRef` are not followed",
			change: change{schema: all(dropMembers("$dynamicRef", jsonvalue.String), dropMembers("$recursiveRef", jsonvalue.String))},
			Witnesses: []impl.Case{w(`{"type":"object","$defs":{"l":{"$dynamicAnchor":"n","type":"array"}},"properties":{"a":{"$dynamicRef":"#/$defs/l"}}}`, `{"a":"[1]"}`),
				w(`{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","$defs":{"l":{"type":"array"}},"properties":{"a":{"$recursiveRef":"#/$defs/l"}}}`, `{"a":"[1]"}`)}},
		{ID: "ignores-allof", needs: needsKeyword("allOf"), Clause: "reading/4",
			Title:     "`allOf` is not read: what its branches declare is missed",
			change:    change{schema: dropMembers("allOf", jsonvalue.Array)},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"allOf":[{"type":"array"}]}}}`, `{"a":"[1]"}`)}},
		{ID: "first-allof-only", needs: needsKeyword("allOf"), Clause: "reading/4",
			Title:     "Only the first branch of `allOf` is read",
			change:    change{schema: firstBranchOnly},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"allOf":[{},{"type":"array"}]}}}`, `{"a":"[1]"}`), w(`{"type":"object","properties":{"a":{"allOf":[{"type":"array"}]}}}`, `{"a":"[1]"}`)}},
		{ID: "allof-as-union", needs: needsKeyword("allOf"), Clause: "reading/4",
			Title:  "`allOf` is read as a union: a shape one branch declares and another excludes is substituted, and a string one branch admits keeps the value a string",
			change: change{schema: allOfAsAnyOf},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"allOf":[{"type":"array"},{"type":"object"}]}}}`, `{"a":"{}"}`),
				w(`{"type":"object","properties":{"a":{"allOf":[{"type":["array","string"]},{"type":"array"}]}}}`, `{"a":"[1]"}`)}},
		{ID: "ignores-anyof", needs: needsKeyword("anyOf"), Clause: "reading/4",
			Title:     "`anyOf` is not read: what its branches declare is missed",
			change:    change{schema: neutralize("anyOf")},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"anyOf":[{"type":"array"},{"type":"null"}]}}}`, `{"a":"[1]"}`)}},
		{ID: "ignores-oneof", needs: needsKeyword("oneOf"), Clause: "reading/4",
			Title:     "`oneOf` is not read: what its branches declare is missed",
			change:    change{schema: neutralize("oneOf")},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"oneOf":[{"type":"array"},{"type":"null"}]}}}`, `{"a":"[1]"}`)}},
		{ID: "ignores-type-list", needs: needsKeyword("type"), Clause: "reading/4",
			Title:     "A `type` given as a list is not read: `[\"array\", \"null\"]` declares nothing",
			change:    change{schema: dropTypeLists},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"type":["array","null"]}}}`, `{"a":"[1]"}`), w(arrayParam, `{"a":"[1]"}`)}},
		{ID: "ignores-items", needs: needsKeyword("items"), Clause: "reading/4",
			Title:     "`items` is not read: array elements are not repaired as declared",
			change:    change{schema: dropMembers("items", jsonvalue.Object, jsonvalue.Bool)},
			Witnesses: []impl.Case{w(arrayOfArr, `{"a":["[1]"]}`), w(arrayParam, `{"a":"[1]"}`)}},
		{ID: "ignores-prefixitems", needs: needsKeyword("prefixItems"), Clause: "reading/4",
			Title:     "`prefixItems` is not read",
			change:    change{schema: dropMembers("prefixItems", jsonvalue.Array)},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"array"}]}}}`, `{"a":["[1]"]}`)}},
		{ID: "ignores-tuple-items", needs: needsKeyword("items", "additionalItems"), Clause: "reading/4",
			Title:  "`items` given as a list (draft 4 to 2019-09) and `additionalItems` are not read",
			change: change{schema: all(dropMembers("items", jsonvalue.Array), dropMembers("additionalItems"))},
			Witnesses: []impl.Case{w(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"array","items":[{"type":"array"}]}}}`, `{"a":["[1]"]}`),
				w(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"array","items":[{}],"additionalItems":{"type":"array"}}}}`, `{"a":["x","[1]"]}`)}},
		{ID: "ignores-nested-properties", needs: needsKeyword("properties"), Clause: "reading/4",
			Title:     "`properties` is read only at the top: nested members are not repaired as declared",
			change:    change{schema: nestedProperties},
			Witnesses: []impl.Case{w(nestedArr, `{"o":{"t":"[1]"}}`), w(arrayParam, `{"a":"[1]"}`)}},
		{ID: "ignores-patternproperties", needs: needsKeyword("patternProperties"), Clause: "reading/4",
			Title:     "`patternProperties` is not read",
			change:    change{schema: dropMembers("patternProperties", jsonvalue.Object)},
			Witnesses: []impl.Case{w(`{"type":"object","patternProperties":{"^a":{"type":"array"}}}`, `{"a":"[1]"}`)}},
		{ID: "ignores-additionalproperties", needs: needsKeyword("additionalProperties"), Clause: "reading/4",
			Title:     "`additionalProperties` is not read",
			change:    change{schema: dropMembers("additionalProperties", jsonvalue.Object, jsonvalue.Bool)},
			Witnesses: []impl.Case{w(`{"type":"object","additionalProperties":{"type":"array"}}`, `{"a":"[1]"}`)}},
		{ID: "ref-siblings-dropped", needs: needsKeyword("$ref"), Clause: "reading/4",
			Title:     "Keywords beside `$ref` are not read, where drafts 2019-09 and later read them",
			change:    change{schema: refSiblings},
			Witnesses: []impl.Case{w(`{"type":"object","$defs":{"x":{}},"properties":{"a":{"$ref":"#/$defs/x","type":"array"}}}`, `{"a":"[1]"}`)}},
		{ID: "drafts-ignored", needs: needsKeyword("$schema"), Clause: "reading/4",
			Title:     "`$schema` is not read: a draft-7 schema is read as 2020-12, so a `type` beside `$ref` counts",
			change:    change{schema: noDrafts},
			Witnesses: []impl.Case{w(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"x":{}},"properties":{"a":{"$ref":"#/definitions/x","type":"array"}}}`, `{"a":"[1]"}`)}},

		// Clause 5 and docs/readings.md section 7: nothing else changes.
		{ID: "keys-decoded", needs: needsAmp, Clause: "rule/5",
			Title:     "References in keys are decoded: keys must never change",
			change:    change{post: decodeKeys},
			Witnesses: []impl.Case{w(noSchema, `{"a&amp;b":1}`)}},
		{ID: "whitespace-trimmed", needs: func(f *Features) bool { return f.space }, Clause: "rule/5",
			Title:     "Whitespace around string values is trimmed",
			change:    change{post: trimStrings},
			Witnesses: []impl.Case{w(noSchema, `{"a":" x "}`)}},
		{ID: "objects-as-lists", needs: always, Clause: "rule/5",
			Title:     "An object whose keys are `0`, `1`, ... in order, the empty one too, comes out an array, as a PHP array does: `{}` gives `[]`",
			change:    change{post: objectsAsLists},
			Witnesses: []impl.Case{w(noSchema, `{"a":{}}`), w(noSchema, `{"a":{"0":"x","1":"y"}}`), w(noSchema, `{"a":{"1":"x"}}`)}},
		{ID: "proto-dropped", needs: func(f *Features) bool { return f.proto }, Clause: "rule/5",
			Title:     "A member named `__proto__` is dropped",
			change:    change{post: dropProto(false)},
			Witnesses: []impl.Case{w(noSchema, `{"__proto__":1}`), w(noSchema, `{"__proto__":{"a":1}}`)}},
		{ID: "proto-dropped-on-repair", needs: func(f *Features) bool { return f.proto }, Clause: "rule/5",
			Title:     "A member named `__proto__` is dropped from arguments that needed a repair",
			change:    change{post: dropProto(true)},
			Witnesses: []impl.Case{w(noSchema, `{"__proto__":1,"a":"&amp;"}`), w(noSchema, `{"__proto__":1}`)}},
		{ID: "null-dropped", needs: func(f *Features) bool { return f.null }, Clause: "reading/7",
			Title:     "Top-level parameters whose value is `null` are dropped",
			change:    change{post: dropNull},
			Witnesses: []impl.Case{w(noSchema, `{"a":null,"b":1}`)}},
		{ID: "scalars-coerced", needs: func(f *Features) bool {
			return f.str && (f.keywords["type:number"] || f.keywords["type:integer"] || f.keywords["type:boolean"])
		}, Clause: "reading/7",
			Title:  "A string is converted to the number or boolean the schema declares: `\"1\"` gives `1`",
			change: change{post: coerceScalars},
			Witnesses: []impl.Case{w(`{"type":"object","properties":{"n":{"type":"number"}}}`, `{"n":"1"}`),
				w(`{"type":"object","properties":{"b":{"type":"boolean"}}}`, `{"b":"true"}`)}},
		{ID: "wrapped-in-array", needs: func(f *Features) bool { return f.keywords["type:array"] }, Clause: "reading/7",
			Title:     "A value that is not an array is wrapped in one where an array is declared: `\"x\"` gives `[\"x\"]`",
			change:    change{post: wrapInArray},
			Witnesses: []impl.Case{w(arrayParam, `{"a":"x"}`), w(arrayParam, `{"a":1}`)}},
		{ID: "members-sorted", needs: always, Clause: "reading/7",
			Title:     "Members are sorted by key: their order must be kept",
			change:    change{post: sortMembers},
			Witnesses: []impl.Case{w(noSchema, `{"b":1,"a":2}`)}},
		{ID: "decoded-json-js", needs: needsRepair, Clause: "reading/7",
			Title:  "Values decoded from JSON text are read as JavaScript's JSON.parse reads them: numbers rounded to float64, duplicate members collapsed, keys that are array indexes moved first",
			change: withModel(func(m *model) { m.lossy = jsParse }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[12345678901234567890]"}`), w(objectParam, `{"a":"{\"k\":1,\"k\":2}"}`),
				w(objectParam, `{"a":"{\"b\":1,\"1\":2}"}`)}},
		{ID: "decoded-json-python", needs: needsRepair, Clause: "reading/7",
			Title:     "Values decoded from JSON text are read as Python's json.loads reads them: numbers with a fraction or exponent rounded to float64, duplicate members collapsed",
			change:    withModel(func(m *model) { m.lossy = pythonLoad }),
			Witnesses: []impl.Case{w(arrayParam, `{"a":"[0.10000000000000000001]"}`), w(objectParam, `{"a":"{\"k\":1,\"k\":2}"}`)}},
		{ID: "validates-after-repair", needs: always, Clause: "reading/8",
			Title:  "The repaired arguments are validated against the schema: an error where they do not fit it, where the rule passes them on for the tool to judge",
			change: change{validate: true},
			Witnesses: []impl.Case{w(arrayParam, `{"a":"x"}`), w(`{"type":"object","properties":{"n":{"type":"integer"}}}`, `{"n":"1"}`),
				w(arrayParam, `{"a":"[1]"}`)}},
		{ID: "numbers-float64", needs: func(f *Features) bool { return f.digits }, Clause: "reading/7", Artefact: true,
			Title:     "Numbers go through a float64: `12345678901234567890` becomes `12345678901234567000`",
			change:    change{post: viaFloat64},
			Witnesses: []impl.Case{w(noSchema, `{"n":12345678901234567890}`), w(noSchema, `{"n":1e400}`)}},
		{ID: "fractions-float64", needs: func(f *Features) bool { return f.digits }, Clause: "reading/7", Artefact: true,
			Title:     "Numbers with a fraction or an exponent go through a float64, as Python reads them: `0.10000000000000000001` becomes `0.1`",
			change:    change{post: fractionsViaFloat64},
			Witnesses: []impl.Case{w(noSchema, `{"n":0.10000000000000000001}`), w(noSchema, `{"n":12345678901234567890}`)}},
		{ID: "duplicates-collapsed", needs: always, Clause: "reading/7", Artefact: true,
			Title:     "Duplicate members are collapsed into one, with the last value",
			change:    change{post: collapseDuplicates},
			Witnesses: []impl.Case{w(noSchema, `{"a":1,"a":2}`)}},
		{ID: "integer-keys-first", needs: always, Clause: "reading/7", Artefact: true,
			Title:     "Members whose keys are array indexes are moved first, as a JavaScript object orders them",
			change:    change{post: integerKeysFirst},
			Witnesses: []impl.Case{w(noSchema, `{"b":1,"1":2}`)}},
		{ID: "lone-surrogate-replaced", needs: always, Clause: "reading/7", Artefact: true,
			Title:     "A lone surrogate escape comes out as U+FFFD, the replacement character: `\"\\ud800\"` is not kept",
			change:    change{post: surrogatesToFFFD},
			Witnesses: []impl.Case{w(noSchema, `{"a":"\ud800"}`)}},
	}
}
