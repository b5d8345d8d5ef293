package oracle

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

type normalizeTest struct {
	name   string
	schema string
	args   string
	opts   Options
	want   string // the exact output; unused when err is set
	err    string // a fragment of the expected error message
}

// Schemas shared by several tests.
const (
	arraySchema   = `{"type":"object","properties":{"a":{"type":"array"}}}`
	objectSchema  = `{"type":"object","properties":{"a":{"type":"object"}}}`
	stringSchema  = `{"type":"object","properties":{"a":{"type":"string"}}}`
	shapesSchema  = `{"type":"object","properties":{"a":{"type":["array","object"]}}}`
	nothingSchema = `{}`
)

var normalizeTests = []normalizeTest{
	// The rule's examples.
	{name: "rule: doubly-escaped title", schema: `{"properties":{"title":{"type":"string"}}}`,
		args: `{ "title": "Ember &amp;amp; Oak" }`, want: `{"title":"Ember & Oak"}`},
	{name: "rule: object literal for an array", schema: `{"properties":{"ops":{"type":"array"}}}`,
		args: `{ "ops": "{\"op\":\"add\"}" }`, want: `{"ops":"{\"op\":\"add\"}"}`},

	// The JSON repair: when it fires (readings 5).
	{name: "stringified array", schema: arraySchema, args: `{"a":"[\"x\",1]"}`, want: `{"a":["x",1]}`},
	{name: "a number past float64 in the schema", schema: `{"properties":{"a":{"type":"array","enum":[null,1e400]}}}`, args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "stringified object", schema: objectSchema, args: `{"a":"{\"k\":true}"}`, want: `{"a":{"k":true}}`},
	{name: "array or object, array", schema: shapesSchema, args: `{"a":"[]"}`, want: `{"a":[]}`},
	{name: "array or object, object", schema: shapesSchema, args: `{"a":"{}"}`, want: `{"a":{}}`},
	{name: "object for array", schema: arraySchema, args: `{"a":"{}"}`, want: `{"a":"{}"}`},
	{name: "array for object", schema: objectSchema, args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "string or array never decoded", schema: `{"properties":{"a":{"type":["string","array"]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "string never decoded", schema: stringSchema, args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "unknown position never decoded", schema: nothingSchema, args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "integer never decoded", schema: `{"properties":{"a":{"type":"integer"}}}`, args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "null is no shape", schema: `{"properties":{"a":{"type":["array","object","null"]}}}`,
		args: `{"a":"null"}`, want: `{"a":"null"}`},
	{name: "number is no shape", schema: shapesSchema, args: `{"a":"1"}`, want: `{"a":"1"}`},
	{name: "string is no shape", schema: shapesSchema, args: `{"a":"\"x\""}`, want: `{"a":"\"x\""}`},
	{name: "JSON whitespace around", schema: arraySchema, args: `{"a":" \t\r\n[1] \n"}`, want: `{"a":[1]}`},
	{name: "trailing text", schema: arraySchema, args: `{"a":"[1] x"}`, want: `{"a":"[1] x"}`},
	{name: "two values", schema: arraySchema, args: `{"a":"[1][2]"}`, want: `{"a":"[1][2]"}`},
	{name: "trailing comma", schema: arraySchema, args: `{"a":"[1,]"}`, want: `{"a":"[1,]"}`},
	{name: "non-JSON whitespace", schema: arraySchema, args: `{"a":"\u00a0[1]"}`, want: "{\"a\":\"\u00a0[1]\"}"},
	{name: "single quotes", schema: arraySchema, args: `{"a":"['x']"}`, want: `{"a":"['x']"}`},
	{name: "already an array", schema: arraySchema, args: `{"a":["[1]"]}`, want: `{"a":["[1]"]}`},
	{name: "nullable", schema: `{"properties":{"a":{"type":"array","nullable":true}}}`,
		args: `{"a":"[1]","b":null}`, want: `{"a":[1],"b":null}`},
	{name: "nullable string", schema: `{"properties":{"a":{"type":"string","nullable":true}}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},

	// Order of the repairs (readings 6).
	{name: "entity-escaped array", schema: arraySchema, args: `{"a":"[&quot;a&quot;]"}`, want: `{"a":["a"]}`},
	{name: "entity-escaped object", schema: objectSchema, args: `{"a":"{&quot;k&quot;:1}"}`, want: `{"a":{"k":1}}`},
	{name: "entity-escaped, wrong shape", schema: arraySchema, args: `{"a":"{&quot;k&quot;:1}"}`, want: `{"a":"{\"k\":1}"}`},
	{name: "entity-escaped, declared string", schema: stringSchema, args: `{"a":"[&quot;a&quot;]"}`, want: `{"a":"[\"a\"]"}`},
	{name: "decoded elements entity-decoded", schema: arraySchema,
		args: `{"a":"[\"&amp;amp;\", \"\\u0026lt;\"]"}`, want: `{"a":["&","<"]}`},
	{name: "keys untouched in decoded value", schema: objectSchema,
		args: `{"a":"{\"&amp;\":\"&amp;\"}","&lt;":"x"}`, want: `{"a":{"&amp;":"&"},"&lt;":"x"}`},
	{name: "number text kept in decoded value", schema: arraySchema,
		args: `{"a":"[1e400, 1.0, 12345678901234567890, -0]"}`, want: `{"a":[1e400,1.0,12345678901234567890,-0]}`},
	{name: "duplicates kept in decoded value", schema: objectSchema,
		args: `{"a":"{\"k\":1,\"k\":2}"}`, want: `{"a":{"k":1,"k":2}}`},

	// Positions below the top level (readings 4).
	{name: "stringified items under items", schema: `{"properties":{"a":{"type":"array","items":{"type":"array"}}}}`,
		args: `{"a":"[\"[1,2]\", [3], \"x\"]"}`, want: `{"a":[[1,2],[3],"x"]}`},
	{name: "stringified property in decoded object",
		schema: `{"properties":{"a":{"type":"object","properties":{"p":{"type":"object"},"q":{"type":"string"}}}}}`,
		args:   `{"a":"{\"p\":\"{\\\"x\\\":\\\"&amp;\\\"}\",\"q\":\"{}\"}"}`, want: `{"a":{"p":{"x":"&"},"q":"{}"}}`},
	{name: "deep properties", schema: `{"properties":{"o":{"properties":{"p":{"properties":{"q":{"type":"array"}}}}}}}`,
		args: `{"o":{"p":{"q":"[1]","r":"[2]"}}}`, want: `{"o":{"p":{"q":[1],"r":"[2]"}}}`},
	{name: "items schema", schema: `{"properties":{"a":{"items":{"type":"object"}}}}`,
		args: `{"a":["{}","[]"]}`, want: `{"a":[{},"[]"]}`},
	{name: "additionalProperties", schema: `{"properties":{"s":{"type":"string"}},"additionalProperties":{"type":"array"}}`,
		args: `{"s":"[1]","x":"[2]","y":"[3]"}`, want: `{"s":"[1]","x":[2],"y":[3]}`},
	{name: "additionalProperties true", schema: `{"additionalProperties":true}`, args: `{"x":"[2]"}`, want: `{"x":"[2]"}`},
	{name: "patternProperties",
		schema: `{"patternProperties":{"^list_":{"type":"array"},"_obj$":{"type":"object"}},"additionalProperties":{"type":"string"}}`,
		args:   `{"list_a":"[1]","b_obj":"{}","list_obj":"[1]","other":"[1]"}`,
		want:   `{"list_a":[1],"b_obj":{},"list_obj":"[1]","other":"[1]"}`},
	{name: "patternProperties unanchored", schema: `{"patternProperties":{"list":{"type":"array"}}}`,
		args: `{"my_list_x":"[1]"}`, want: `{"my_list_x":[1]}`},
	{name: "patternProperties and properties both apply",
		schema: `{"properties":{"x":{"type":["string","array"]}},"patternProperties":{"^x$":{"type":"array"}}}`,
		args:   `{"x":"[1]"}`, want: `{"x":[1]}`},
	{name: "prefixItems then items",
		schema: `{"properties":{"t":{"type":"array","prefixItems":[{"type":"string"},{"type":"array"}],"items":{"type":"object"}}}}`,
		args:   `{"t":["[1]","[2]","{}","[3]"]}`, want: `{"t":["[1]",[2],{},"[3]"]}`},
	{name: "prefixItems without items", schema: `{"properties":{"t":{"prefixItems":[{"type":"array"}]}}}`,
		args: `{"t":["[1]","[2]"]}`, want: `{"t":[[1],"[2]"]}`},
	{name: "draft-4 items list and additionalItems",
		schema: `{"properties":{"t":{"items":[{"type":"string"},{"type":"array"}],"additionalItems":{"type":"object"}}}}`,
		args:   `{"t":["[1]","[2]","{}","[3]"]}`, want: `{"t":["[1]",[2],{},"[3]"]}`},
	{name: "draft-4 items list without additionalItems", schema: `{"properties":{"t":{"items":[{"type":"array"}]}}}`,
		args: `{"t":["[1]","[2]"]}`, want: `{"t":[[1],"[2]"]}`},

	// $ref.
	{name: "$ref to $defs", schema: `{"$defs":{"list":{"type":"array"}},"properties":{"a":{"$ref":"#/$defs/list"}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "$ref to definitions", schema: `{"definitions":{"list":{"type":"array"}},"properties":{"a":{"$ref":"#/definitions/list"}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "$ref escapes", schema: `{"$defs":{"a/b~c":{"type":"array"},"x y":{"type":"object"}},"properties":{"a":{"$ref":"#/$defs/a~1b~0c"},"b":{"$ref":"#/%24defs/x%20y"}}}`,
		args: `{"a":"[1]","b":"{}"}`, want: `{"a":[1],"b":{}}`},
	{name: "$ref into a list", schema: `{"anyOf":[{"type":"array"}],"properties":{"a":{"$ref":"#/anyOf/0"}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "$ref in conjunction with siblings",
		schema: `{"$defs":{"sa":{"type":["string","array"]}},"properties":{"a":{"$ref":"#/$defs/sa","type":["array","object"]}}}`,
		args:   `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "$ref for children", schema: `{"$defs":{"o":{"properties":{"l":{"type":"array"}}}},"properties":{"a":{"$ref":"#/$defs/o"}}}`,
		args: `{"a":{"l":"[1]"}}`, want: `{"a":{"l":[1]}}`},
	{name: "recursive schema",
		schema: `{"$ref":"#/$defs/n","$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"},"v":{"type":"array"}}}}}`,
		args:   `{"next":{"next":{"v":"[1]"}},"v":"[2]"}`, want: `{"next":{"next":{"v":[1]}},"v":[2]}`},
	{name: "$ref to the root", schema: `{"type":"object","properties":{"self":{"$ref":"#"},"v":{"type":"array"}}}`,
		args: `{"self":"{\"v\":\"[1]\"}"}`, want: `{"self":{"v":[1]}}`},
	{name: "$ref cycle gives no information",
		schema: `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a","properties":{"l":{"type":"array"}}}},"properties":{"x":{"$ref":"#/$defs/a"}}}`,
		args:   `{"x":"[1]","y":{"l":"[2]"}}`, want: `{"x":"[1]","y":{"l":"[2]"}}`},
	{name: "$ref cycle gives no children either",
		schema: `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a","properties":{"l":{"type":"array"}}}},"properties":{"x":{"$ref":"#/$defs/a"}}}`,
		args:   `{"x":{"l":"[2]"}}`, want: `{"x":{"l":"[2]"}}`},
	{name: "$ref cycle ignores the own type",
		schema: `{"properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"$ref":"#/$defs/y","type":"array"},"y":{"$ref":"#/$defs/x"}}}`,
		args:   `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "self-allOf cycle",
		schema: `{"properties":{"a":{"$ref":"#/$defs/s"}},"$defs":{"s":{"type":"array","allOf":[{"$ref":"#/$defs/s"}]}}}`,
		args:   `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "self-allOf cycle gives no children",
		schema: `{"properties":{"a":{"$ref":"#/$defs/s"}},"$defs":{"s":{"items":{"type":"array"},"allOf":[{"$ref":"#/$defs/s"}]}}}`,
		args:   `{"a":["[1]"]}`, want: `{"a":["[1]"]}`},
	{name: "$ref to itself", schema: `{"properties":{"a":{"$ref":"#/properties/a","type":"array"}}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "leading into a cycle, own keywords still apply",
		schema: `{"properties":{"a":{"type":"array","items":{"type":"object"},"$ref":"#/$defs/x"}},"$defs":{"x":{"$ref":"#/$defs/x"}}}`,
		args:   `{"a":"[\"{}\"]"}`, want: `{"a":[{}]}`},
	{name: "leading into a cycle through anyOf: an unknown branch",
		schema: `{"properties":{"a":{"anyOf":[{"type":"array"},{"$ref":"#/$defs/x"}]}},"$defs":{"x":{"type":"array","$ref":"#/$defs/x"}}}`,
		args:   `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "recursion through items is no cycle",
		schema: `{"$ref":"#/$defs/t","$defs":{"t":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/t"}},"tags":{"type":"array"}}}}}`,
		args:   `{"children":"[{\"tags\":\"[1]\",\"children\":\"[{\\\"tags\\\":\\\"[2]\\\"}]\"}]","tags":"[3]"}`,
		want:   `{"children":[{"tags":[1],"children":[{"tags":[2]}]}],"tags":[3]}`},
	{name: "recursion through the root's items is no cycle",
		schema: `{"properties":{"t":{"$ref":"#/$defs/n"}},"$defs":{"n":{"type":"array","items":{"$ref":"#/$defs/n"}}}}`,
		args:   `{"t":"[\"[\\\"[]\\\"]\"]"}`, want: `{"t":[[[]]]}`},
	{name: "diamond of 60 levels of $refs", schema: diamondSchema(60),
		args: `{"x":"[\"[1]\"]"}`, want: `{"x":[[1]]}`},
	{name: "$ref cycle through anyOf", schema: `{"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/a"},{"type":"array"}]}},"properties":{"x":{"$ref":"#/$defs/a"}}}`,
		args: `{"x":"[1]","y":{"z":"[2]"}}`, want: `{"x":"[1]","y":{"z":"[2]"}}`},

	// Combinators.
	{name: "allOf intersection", schema: `{"properties":{"a":{"allOf":[{"type":["string","array"]},{"type":["array","object"]}]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "allOf with type and unknown branch", schema: `{"properties":{"a":{"allOf":[{"type":"array"},{"minItems":1}]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "allOf with own type", schema: `{"properties":{"a":{"type":["string","object"],"allOf":[{"type":["array","object"]}]}}}`,
		args: `{"a":"{}"}`, want: `{"a":{}}`},
	{name: "allOf children", schema: `{"allOf":[{"properties":{"a":{"type":["string","array"]}}},{"properties":{"a":{"type":"array"}}}]}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "anyOf with a string branch", schema: `{"properties":{"a":{"anyOf":[{"type":"string"},{"type":"array"}]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "anyOf array or object", schema: `{"properties":{"a":{"anyOf":[{"type":"array"},{"type":"object"}]}}}`,
		args: `{"a":"{}","b":"[]"}`, want: `{"a":{},"b":"[]"}`},
	{name: "anyOf with an unknown branch", schema: `{"properties":{"a":{"anyOf":[{"type":"array"},{"description":"x"}]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "oneOf with a string branch", schema: `{"properties":{"a":{"oneOf":[{"type":"array"},{"type":"string"}]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "oneOf array", schema: `{"properties":{"a":{"oneOf":[{"type":"array","items":{"type":"integer"}},{"type":"array","items":{"type":"string"}}]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "anyOf intersected with own type", schema: `{"properties":{"a":{"type":"array","anyOf":[{"type":"string"},{"type":"array"}]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "anyOf branch chosen by the value's type",
		schema: `{"properties":{"p":{"anyOf":[{"type":"object","properties":{"x":{"type":"array"}}},{"type":"array","items":{"type":"array"}}]}}}`,
		args:   `{"p":{"x":"[1]"},"q":1}`, want: `{"p":{"x":[1]},"q":1}`},
	{name: "anyOf branch chosen by the value's type, array",
		schema: `{"properties":{"p":{"anyOf":[{"type":"object","properties":{"x":{"type":"array"}}},{"type":"array","items":{"type":"string"}}]}}}`,
		args:   `{"p":["[1]"]}`, want: `{"p":["[1]"]}`},
	{name: "anyOf branches as a union below",
		schema: `{"properties":{"p":{"anyOf":[{"properties":{"x":{"type":"array"}}},{"properties":{"x":{"type":"object"}}}]}}}`,
		args:   `{"p":{"x":"[1]"}}`, want: `{"p":{"x":[1]}}`},
	{name: "anyOf branch silent about the child",
		schema: `{"properties":{"p":{"anyOf":[{"properties":{"x":{"type":"array"}}},{"properties":{"y":{"type":"object"}}}]}}}`,
		args:   `{"p":{"x":"[1]"}}`, want: `{"p":{"x":"[1]"}}`},
	{name: "anyOf union with a string branch below",
		schema: `{"properties":{"p":{"anyOf":[{"properties":{"x":{"type":"array"}}},{"properties":{"x":{"type":"string"}}}]}}}`,
		args:   `{"p":{"x":"[1]"}}`, want: `{"p":{"x":"[1]"}}`},
	{name: "anyOf union after a decoded string",
		schema: `{"properties":{"p":{"type":["object","array"],"anyOf":[{"type":"object","properties":{"x":{"type":"array"}}},{"type":"array","items":{"type":"object"}}]}}}`,
		args:   `{"p":"{\"x\":\"[1]\"}","q":{"p":"[\"{}\"]"}}`, want: `{"p":{"x":[1]},"q":{"p":"[\"{}\"]"}}`},
	{name: "anyOf union two levels down",
		schema: `{"anyOf":[{"type":"object","properties":{"o":{"properties":{"l":{"type":"array"}}}}},{"type":"array"}]}`,
		args:   `{"o":{"l":"[1]"}}`, want: `{"o":{"l":[1]}}`},
	{name: "anyOf with no admitting branch says nothing",
		schema: `{"properties":{"p":{"properties":{"x":{"type":"array"}},"anyOf":[{"type":"string"}]}}}`,
		args:   `{"p":{"x":"[1]"}}`, want: `{"p":{"x":[1]}}`},
	{name: "allOf inside anyOf branch", schema: `{"properties":{"a":{"anyOf":[{"allOf":[{"type":"array"}]},{"$ref":"#/$defs/o"}]}},"$defs":{"o":{"type":"object"}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},

	// Boolean and odd schemas.
	{name: "schema true", schema: `true`, args: `{"a":"[&amp;]"}`, want: `{"a":"[&]"}`},
	{name: "schema false", schema: `false`, args: `{"a":"[&amp;]"}`, want: `{"a":"[&]"}`},
	{name: "property false", schema: `{"properties":{"a":false}}`, args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "property true", schema: `{"properties":{"a":true}}`, args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "false branch in anyOf adds nothing", schema: `{"properties":{"a":{"anyOf":[{"type":"array"},false]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "true branch in anyOf declares nothing", schema: `{"properties":{"a":{"anyOf":[{"type":"array"},true]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "anyOf of false alone", schema: `{"properties":{"a":{"anyOf":[false]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "false in allOf empties the intersection", schema: `{"properties":{"a":{"type":"array","allOf":[false]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "true in allOf changes nothing", schema: `{"properties":{"a":{"type":"array","allOf":[true]}}}`,
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "$ref to false", schema: `{"properties":{"a":{"type":"array","$ref":"#/$defs/f"}},"$defs":{"f":false}}`,
		args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "children of false say nothing", schema: `{"items":false,"properties":{"a":{"items":false}}}`,
		args: `{"a":["[&amp;]"]}`, want: `{"a":["[&]"]}`},
	{name: "false branch below is no alternative",
		schema: `{"properties":{"p":{"anyOf":[{"properties":{"x":{"type":"array"}}},false]}}}`,
		args:   `{"p":{"x":"[1]"}}`, want: `{"p":{"x":[1]}}`},
	{name: "additionalProperties false", schema: `{"properties":{"a":{"type":"array"}},"additionalProperties":false}`,
		args: `{"a":"[1]","b":"[2]"}`, want: `{"a":[1],"b":"[2]"}`},
	{name: "empty type list", schema: `{"properties":{"a":{"type":[]}}}`, args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},

	// The entity repair (rule 4, readings 1-3), and what never changes (readings 7).
	{name: "every string leaf", schema: nothingSchema,
		args: `{"a":["&lt;",{"b":"&gt;"}],"c":"&amp;amp;lt;"}`, want: `{"a":["<",{"b":">"}],"c":"<"}`},
	{name: "keys never change", schema: nothingSchema, args: `{"&amp;":{"&lt;":"&gt;"}}`, want: `{"&amp;":{"&lt;":">"}}`},
	{name: "no character reference", schema: nothingSchema, args: `{"a":"a & b &# &;"}`, want: `{"a":"a & b &# &;"}`},
	{name: "built reference", schema: nothingSchema, args: `{"a":"&l&#116;;"}`, want: `{"a":"<"}`},
	{name: "numeric past 32 bits", schema: nothingSchema, args: `{"a":"&#4294967356;"}`, want: "{\"a\":\"\ufffd\"}"},
	{name: "URL, text profile", schema: nothingSchema,
		args: `{"u":"?a=1&region=eu&not=2"}`, want: `{"u":"?a=1®ion=eu¬=2"}`},
	{name: "URL, attribute profile", schema: nothingSchema, opts: Options{Attribute: true},
		args: `{"u":"?a=1&region=eu&not=2"}`, want: `{"u":"?a=1&region=eu&not=2"}`},
	{name: "attribute profile decodes", schema: nothingSchema, opts: Options{Attribute: true},
		args: `{"u":"&amp;amp;notin&#59; &not;"}`, want: `{"u":"∉ ¬"}`},
	{name: "MaxPasses 1", schema: nothingSchema, opts: Options{MaxPasses: 1},
		args: `{"a":"&amp;amp;","b":"&lt;"}`, want: `{"a":"&amp;","b":"<"}`},
	{name: "MaxPasses 1, entity-escaped array", schema: arraySchema, opts: Options{MaxPasses: 1},
		args: `{"a":"[&amp;quot;a&amp;quot;]"}`, want: `{"a":"[&quot;a&quot;]"}`},
	{name: "numbers keep their text", schema: nothingSchema,
		args: `{"n":12345678901234567890,"f":1.0,"e":1e400,"z":-0,"E":2E-3}`,
		want: `{"n":12345678901234567890,"f":1.0,"e":1e400,"z":-0,"E":2E-3}`},
	{name: "order and duplicates kept", schema: nothingSchema,
		args: `{"b":1,"a":2,"b":"&amp;"}`, want: `{"b":1,"a":2,"b":"&"}`},
	{name: "duplicates each normalized", schema: arraySchema,
		args: `{"a":"[1]","a":"{}","a":"[&quot;x&quot;]"}`, want: `{"a":[1],"a":"{}","a":["x"]}`},
	{name: "no HTML escaping", schema: nothingSchema,
		args: `{"s":"&lt;b&gt; &amp; <i>\u2028"}`, want: `{"s":"<b> & <i>\u2028"}`}, // encoding/json always escapes U+2028
	{name: "other values untouched", schema: nothingSchema,
		args: ` { "t" : true , "f" : false , "n" : null , "a" : [ ] , "o" : { } } `,
		want: `{"t":true,"f":false,"n":null,"a":[],"o":{}}`},
	{name: "escapes canonicalized", schema: nothingSchema, args: `{"s":"\u00e9\/\"\\\n"}`, want: `{"s":"é/\"\\\n"}`},
	{name: "lone surrogate becomes U+FFFD (limitation)", schema: nothingSchema,
		args: `{"s":"\ud800"}`, want: "{\"s\":\"\ufffd\"}"},
	{name: "control characters", schema: nothingSchema, args: `{"s":"&#1;&#x0D;"}`, want: `{"s":"\u0001\r"}`},

	// Depth.
	{name: "MaxDepth reached", schema: nothingSchema, opts: Options{MaxDepth: 2},
		args: `{"a":{"b":1}}`, want: `{"a":{"b":1}}`},
	{name: "MaxDepth exceeded", schema: nothingSchema, opts: Options{MaxDepth: 2},
		args: `{"a":{"b":[]}}`, err: "oracle: arguments: nesting too deep: more than 2 levels at offset 10"},
	{name: "MaxDepth reached by a decoded value", schema: arraySchema, opts: Options{MaxDepth: 2},
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "MaxDepth exceeded by a decoded value", schema: arraySchema, opts: Options{MaxDepth: 2},
		args: `{"a":"[[1]]"}`, err: `oracle: arguments: the string at "/a" decodes to JSON nested deeper than 2`},
	{name: "MaxDepth: deep value of the wrong shape", schema: arraySchema, opts: Options{MaxDepth: 2},
		args: `{"a":"{\"x\":[[1]]}"}`, want: `{"a":"{\"x\":[[1]]}"}`},
	{name: "MaxDepth: deep value that does not parse", schema: arraySchema, opts: Options{MaxDepth: 2},
		args: `{"a":"[[1]] x"}`, want: `{"a":"[[1]] x"}`},
	{name: "default MaxDepth", schema: nothingSchema,
		args: strings.Repeat(`{"a":`, 1000) + `1` + strings.Repeat(`}`, 1000),
		want: strings.Repeat(`{"a":`, 1000) + `1` + strings.Repeat(`}`, 1000)},
	{name: "default MaxDepth exceeded", schema: nothingSchema,
		args: strings.Repeat(`{"a":`, 1001) + `1` + strings.Repeat(`}`, 1001), err: "more than 1000 levels"},

	// Errors: the arguments.
	{name: "arguments: array", schema: nothingSchema, args: `[]`, err: "oracle: arguments: a JSON array, not an object"},
	{name: "arguments: string", schema: nothingSchema, args: `"{}"`, err: "oracle: arguments: a JSON string, not an object"},
	{name: "arguments: null", schema: nothingSchema, args: `null`, err: "not an object"},
	{name: "arguments: empty", schema: nothingSchema, args: ``, err: "oracle: arguments: invalid JSON at offset 0: unexpected EOF"},
	{name: "arguments: truncated", schema: nothingSchema, args: `{"a":`, err: "invalid JSON at offset 5: unexpected EOF"},
	{name: "arguments: trailing comma", schema: nothingSchema, args: `{"a":1,}`, err: "invalid JSON at offset 7"},
	{name: "arguments: trailing data", schema: nothingSchema, args: `{} x`, err: "invalid JSON after the value at offset 2"},
	{name: "arguments: second value", schema: nothingSchema, args: `{} {}`, err: "invalid JSON: { after the value at offset 2"},
	{name: "arguments: invalid UTF-8", schema: nothingSchema, args: "{\"a\":\"\xff\"}", err: "oracle: arguments: invalid UTF-8 at offset 6"},
	{name: "arguments: single quotes", schema: nothingSchema, args: `{'a':1}`, err: "invalid JSON at offset 1"},

	// Errors: the schema.
	{name: "schema: not JSON", schema: `{`, args: `{}`, err: "oracle: schema: not JSON"},
	{name: "schema: text after it", schema: `{} x`, args: `{}`, err: "oracle: schema: not JSON: text after the JSON value"},
	{name: "schema: empty", schema: ``, args: `{}`, err: "oracle: schema: not JSON"},
	{name: "schema: invalid UTF-8", schema: "{\"description\":\"\xff\"}", args: `{}`, err: "oracle: schema: invalid UTF-8 at offset 16"},
	{name: "schema: unresolved $ref", schema: `{"properties":{"a":{"$ref":"#/$defs/nope"}}}`, args: `{}`,
		err: `oracle: schema: /properties/a/$ref: $ref "#/$defs/nope" does not resolve`},
	{name: "schema: remote $ref", schema: `{"$ref":"https://example.com/s.json"}`, args: `{}`, err: "https://example.com/s.json is another document, not supplied"},
	{name: "schema: missing anchor", schema: `{"$ref":"#foo"}`, args: `{}`, err: `no anchor "foo"`},
	{name: "schema: remote $ref supplied", schema: `{"properties":{"a":{"$ref":"other.json#/$defs/l"}}}`, opts: Options{Documents: map[string][]byte{"other.json": []byte(`{"$defs":{"l":{"type":"array"}}}`)}},
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "schema: remote $ref relative to its document", schema: `{"$id":"http://x.test/a/s","properties":{"a":{"$ref":"b"}}}`, opts: Options{Documents: map[string][]byte{"http://x.test/a/b": []byte(`{"$ref":"c"}`), "http://x.test/a/c": []byte(`{"type":"array"}`)}},
		args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "schema: $id URI", schema: `{"properties":{"a":{"$ref":"http://x.test/l"}},"$defs":{"l":{"$id":"http://x.test/l","type":"array"}}}`, args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "schema: $anchor", schema: `{"properties":{"a":{"$ref":"#l"}},"$defs":{"l":{"$anchor":"l","type":"array"}}}`, args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "schema: draft-7 id anchor", schema: `{"properties":{"a":{"$ref":"#l"}},"definitions":{"l":{"$id":"#l","type":"array"}}}`, opts: Options{Draft: "7"}, args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "schema: draft-4 id anchor", schema: `{"properties":{"a":{"$ref":"#l"}},"definitions":{"l":{"id":"#l","type":"array"}}}`, opts: Options{Draft: "4"}, args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "schema: $anchor is no anchor in draft 7", schema: `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"#l"}},"definitions":{"l":{"$anchor":"l","type":"array"}}}`, args: `{}`, err: `no anchor "l"`},
	{name: "schema: pointer in a resource", schema: `{"properties":{"a":{"$ref":"http://x.test/r"}},"$defs":{"l":{"type":"string"},"r":{"$id":"http://x.test/r","$ref":"#/$defs/l","$defs":{"l":{"type":"array"}}}}}`, args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "schema: draft-7 $ref hides its siblings", schema: `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"#/definitions/any","type":"array"}},"definitions":{"any":{}}}`, args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "schema: $dynamicRef to the outermost anchor", schema: `{"$id":"http://x.test/root","$ref":"list","$defs":{"foo":{"$dynamicAnchor":"items","type":"array"},"list":{"$id":"list","properties":{"a":{"$dynamicRef":"#items"}},"$defs":{"items":{"$dynamicAnchor":"items","type":["string","array"]}}}}}`, args: `{"a":"[1]"}`, want: `{"a":[1]}`},
	{name: "schema: $dynamicRef without the anchor in scope", schema: `{"$id":"http://x.test/list","properties":{"a":{"$dynamicRef":"#items"}},"$defs":{"items":{"$dynamicAnchor":"items","type":["string","array"]}}}`, args: `{"a":"[1]"}`, want: `{"a":"[1]"}`},
	{name: "schema: $recursiveRef to the outermost anchor", schema: `{"$schema":"https://json-schema.org/draft/2019-09/schema","$id":"http://x.test/root","$recursiveAnchor":true,"type":"object","$ref":"tree","$defs":{"t":{"$id":"tree","$recursiveAnchor":true,"type":["object","string"],"properties":{"kids":{"type":"array","items":{"$recursiveRef":"#"}}}}}}`, args: `{"kids":["{}"]}`, want: `{"kids":[{}]}`},
	{name: "schema: lookahead pattern", schema: `{"patternProperties":{"^(?!x-)":{"type":"array"}}}`, args: `{"a":"[1]","x-a":"[1]"}`, want: `{"a":[1],"x-a":"[1]"}`},
	{name: "schema: backreference pattern", schema: `{"patternProperties":{"^(a)\\1$":{"type":"array"}}}`, args: `{"aa":"[1]","ab":"[1]"}`, want: `{"aa":[1],"ab":"[1]"}`},
	{name: "schema: $ref not a string", schema: `{"$ref":5}`, args: `{}`, err: "$ref 5 is not a string"},
	{name: "schema: bad ~ escape", schema: `{"$defs":{"a":{}},"$ref":"#/$defs/a~2"}`, args: `{}`, err: "bad escape"},
	{name: "schema: bad percent escape", schema: `{"$ref":"#/%zz"}`, args: `{}`, err: "does not resolve"},
	{name: "schema: index out of range", schema: `{"allOf":[{}],"$ref":"#/allOf/1"}`, args: `{}`, err: "does not resolve"},
	{name: "schema: leading zero index", schema: `{"allOf":[{}],"$ref":"#/allOf/00"}`, args: `{}`, err: "does not resolve"},
	{name: "schema: unresolved $ref in unused $defs", schema: `{"$defs":{"x":{"$ref":"#/nope"}}}`, args: `{}`,
		err: "/$defs/x/$ref"},
	{name: "schema: unresolved $ref behind a $ref", schema: `{"$ref":"#/$defs/x","$defs":{"x":{"items":{"$ref":"#/nope"}}}}`, args: `{}`,
		err: "/$defs/x/items/$ref"},
	{name: "schema: unknown type", schema: `{"properties":{"a":{"type":"strnig"}}}`, args: `{}`,
		err: `oracle: schema: /properties/a/type: unknown type "strnig"`},
	{name: "schema: unknown type in list", schema: `{"type":["object","list"]}`, args: `{}`, err: `unknown type "list"`},
	{name: "schema: type not a string", schema: `{"type":5}`, args: `{}`, err: "neither a string nor a list"},
	{name: "schema: bad pattern", schema: `{"patternProperties":{"(?<x":{}}}`, args: `{}`, err: `pattern "(?<x"`},
	{name: "schema: unknown type in unused $defs", schema: `{"$defs":{"x":{"type":"lisst"}}}`, args: `{}`,
		err: `oracle: schema: /$defs/x/type: unknown type "lisst"`},
	{name: "schema: unknown type in unused definitions", schema: `{"definitions":{"x":{"items":{"type":"lisst"}}}}`, args: `{}`,
		err: `oracle: schema: /definitions/x/items/type: unknown type "lisst"`},

	// Errors: a schema position holding neither an object nor a boolean.
	{name: "schema: root a number", schema: `5`, args: `{}`,
		err: `oracle: schema: "" (the root): a schema must be an object or a boolean, not a number`},
	{name: "schema: root null", schema: `null`, args: `{}`, err: "not null"},
	{name: "schema: root an array", schema: `[]`, args: `{}`, err: "not an array"},
	{name: "schema: root a string", schema: `"x"`, args: `{}`, err: "not a string"},
	{name: "schema: property a number", schema: `{"properties":{"a":5}}`, args: `{"a":"[1]"}`,
		err: "oracle: schema: /properties/a: a schema must be an object or a boolean, not a number"},
	{name: "schema: unused property a string", schema: `{"properties":{"a~/b":"x"}}`, args: `{}`,
		err: "oracle: schema: /properties/a~0~1b: a schema must be"},
	{name: "schema: patternProperties value", schema: `{"patternProperties":{"^a":null}}`, args: `{}`,
		err: "oracle: schema: /patternProperties/^a: a schema must be"},
	{name: "schema: additionalProperties", schema: `{"additionalProperties":[]}`, args: `{}`,
		err: "oracle: schema: /additionalProperties: a schema must be"},
	{name: "schema: items", schema: `{"items":1}`, args: `{}`, err: "oracle: schema: /items: a schema must be"},
	{name: "schema: items list element", schema: `{"items":[{},"x"]}`, args: `{}`, err: "oracle: schema: /items/1: a schema must be"},
	{name: "schema: additionalItems", schema: `{"additionalItems":"x"}`, args: `{}`, err: "oracle: schema: /additionalItems: a schema must be"},
	{name: "schema: prefixItems element", schema: `{"prefixItems":[null]}`, args: `{}`, err: "oracle: schema: /prefixItems/0: a schema must be"},
	{name: "schema: allOf element", schema: `{"allOf":[1]}`, args: `{}`, err: "oracle: schema: /allOf/0: a schema must be"},
	{name: "schema: anyOf element", schema: `{"anyOf":[{},[]]}`, args: `{}`, err: "oracle: schema: /anyOf/1: a schema must be"},
	{name: "schema: oneOf element", schema: `{"oneOf":["x"]}`, args: `{}`, err: "oracle: schema: /oneOf/0: a schema must be"},
	{name: "schema: $defs value", schema: `{"$defs":{"x":5}}`, args: `{}`, err: "oracle: schema: /$defs/x: a schema must be"},
	{name: "schema: definitions value", schema: `{"definitions":{"x":[]}}`, args: `{}`, err: "oracle: schema: /definitions/x: a schema must be"},
	{name: "schema: $ref target a number", schema: `{"$ref":"#/$defs/x","$defs":{"x":5}}`, args: `{}`,
		err: `oracle: schema: /$ref: $ref "#/$defs/x" resolves to a number, not a schema`},
	{name: "schema: $ref target outside schema positions", schema: `{"enum":[1],"properties":{"a":{"$ref":"#/enum/0"}}}`, args: `{}`,
		err: `oracle: schema: /properties/a/$ref: $ref "#/enum/0" resolves to a number`},
	{name: "schema: nested in a $ref target", schema: `{"$ref":"#/$defs/x","$defs":{"x":{"allOf":[{"items":5}]}}}`, args: `{}`,
		err: "oracle: schema: /$defs/x/allOf/0/items: a schema must be"},

	// Errors: a keyword of the wrong JSON type.
	{name: "schema: properties an array", schema: `{"properties":[]}`, args: `{}`,
		err: "oracle: schema: /properties: properties must be an object, not an array"},
	{name: "schema: patternProperties a string", schema: `{"patternProperties":"x"}`, args: `{}`,
		err: "oracle: schema: /patternProperties: patternProperties must be an object"},
	{name: "schema: $defs an array", schema: `{"$defs":[{}]}`, args: `{}`, err: "oracle: schema: /$defs: $defs must be an object"},
	{name: "schema: definitions null", schema: `{"definitions":null}`, args: `{}`, err: "oracle: schema: /definitions: definitions must be an object, not null"},
	{name: "schema: allOf an object", schema: `{"allOf":{}}`, args: `{}`, err: "oracle: schema: /allOf: allOf must be an array, not an object"},
	{name: "schema: anyOf a schema", schema: `{"properties":{"a":{"anyOf":{"type":"array"}}}}`, args: `{}`,
		err: "oracle: schema: /properties/a/anyOf: anyOf must be an array"},
	{name: "schema: oneOf true", schema: `{"oneOf":true}`, args: `{}`, err: "oracle: schema: /oneOf: oneOf must be an array, not a boolean"},
	{name: "schema: prefixItems a schema", schema: `{"prefixItems":{}}`, args: `{}`, err: "oracle: schema: /prefixItems: prefixItems must be an array"},
	{name: "schema: nullable a string", schema: `{"type":"array","nullable":"true"}`, args: `{}`,
		err: "oracle: schema: /nullable: nullable must be a boolean, not a string"},
	{name: "schema: type list of non-strings", schema: `{"type":["array",1]}`, args: `{}`, err: "type 1 is not a string"},

	// Errors: options.
	{name: "negative MaxPasses", schema: nothingSchema, args: `{}`, opts: Options{MaxPasses: -1}, err: "MaxPasses is -1"},
	{name: "negative MaxDepth", schema: nothingSchema, args: `{}`, opts: Options{MaxDepth: -1}, err: "MaxDepth is -1"},
}

// diamondSchema returns a schema whose property x refers to the first of
// levels diamond levels, each of which refers to the next four times over,
// through allOf and anyOf, so that 4^levels paths lead to the last level:
// an array of arrays.
func diamondSchema(levels int) string {
	var defs []string
	for i := range levels {
		next := fmt.Sprintf(`{"$ref":"#/$defs/l%d"}`, i+1)
		defs = append(defs, fmt.Sprintf(`"l%d":{"allOf":[%s,%s],"anyOf":[%s,%s]}`, i, next, next, next, next))
	}
	defs = append(defs, fmt.Sprintf(`"l%d":{"type":"array","items":{"type":"array"}}`, levels))
	return `{"properties":{"x":{"$ref":"#/$defs/l0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
}

func TestNormalize(t *testing.T) {
	for _, tt := range normalizeTests {
		got, err := Normalize([]byte(tt.schema), []byte(tt.args), tt.opts)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: Normalize(%s, %s) error = %v, want one containing %q", tt.name, tt.schema, tt.args, err, tt.err)
			}
			if got != nil {
				t.Errorf("%s: Normalize(%s, %s) = %s with an error, want no output", tt.name, tt.schema, tt.args, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: Normalize(%s, %s): %v", tt.name, tt.schema, tt.args, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s: Normalize(%s, %s) =\n%s\nwant\n%s", tt.name, tt.schema, tt.args, got, tt.want)
		}
	}
}

// checkNormalize checks the properties every result of Normalize has: no
// panic, no output with an error, and otherwise compact JSON that is a
// fixpoint when passes are unbounded (readings 6: normalize(normalize(x)) =
// normalize(x)).
func checkNormalize(t *testing.T, schema, args []byte, opts Options) {
	t.Helper()
	out, err := Normalize(schema, args, opts)
	if err != nil {
		if out != nil {
			t.Fatalf("Normalize(%s, %s) = %s with error %v", schema, args, out, err)
		}
		return
	}
	if eq, err := Equal(out, out); err != nil || !eq {
		t.Fatalf("Normalize(%s, %s) = %s: not valid JSON: %v", schema, args, out, err)
	}
	var compact bytes.Buffer
	root, _ := parseJSON(out, equalMaxDepth)
	appendJSON(&compact, root)
	if compact.String() != string(out) {
		t.Fatalf("Normalize(%s, %s) = %s, not compact", schema, args, out)
	}
	if opts.MaxPasses != 0 {
		return
	}
	again, err := Normalize(schema, out, opts)
	if err != nil {
		t.Fatalf("Normalize(%s, Normalize(%s, %s) = %s): %v", schema, schema, args, out, err)
	}
	if !bytes.Equal(again, out) {
		t.Fatalf("Normalize is not idempotent on (%s, %s):\nonce:  %s\ntwice: %s", schema, args, out, again)
	}
}

func TestNormalizeProperties(t *testing.T) {
	for _, tt := range normalizeTests {
		checkNormalize(t, []byte(tt.schema), []byte(tt.args), tt.opts)
	}
}

func FuzzNormalize(f *testing.F) {
	for _, tt := range normalizeTests {
		f.Add(tt.schema, tt.args, tt.opts.Attribute)
	}
	f.Fuzz(func(t *testing.T, schema, args string, attribute bool) {
		checkNormalize(t, []byte(schema), []byte(args), Options{Attribute: attribute})
	})
}

func TestDuplicateKeysRefused(t *testing.T) {
	for _, schema := range []string{
		`{"type":"string","type":"array"}`,
		`{"type":"array","type":"string"}`,
		`{"properties":{"a":{},"\u0061":{}}}`,
		`{"enum":[{"k":1,"k":2}]}`,
	} {
		if _, err := Normalize([]byte(schema), []byte(`{"a":"[1]"}`), Options{}); err == nil {
			t.Errorf("Normalize with schema %s: no error, want a duplicate key", schema)
		}
	}
	if _, err := Normalize([]byte(`{"properties":{"a":{"k":[1,{"x":1}],"j":{"k":2}}}}`), []byte(`{"a":"[1]"}`), Options{}); err != nil {
		t.Errorf("no duplicate: %v", err)
	}
}
