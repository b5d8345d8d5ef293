package diagnose_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

func TestClassify(t *testing.T) {
	out := func(s string) impl.Result { return impl.OK([]byte(s)) }
	tests := []struct {
		name         string
		schema, args string
		attribute    bool
		maxPasses    int
		got          impl.Result
		class        string
		clause       string
		where        string
		artefact     bool
	}{
		// Failures of the program, by kind.
		{"crash", `{}`, `{}`, false, 0, impl.Fail(impl.ErrCrash, "exit status 1"), "failure/crash", "failure", "", false},
		{"timeout", `{}`, `{}`, false, 0, impl.Fail(impl.ErrTimeout, ""), "failure/timeout", "failure", "", false},
		{"protocol", `{}`, `{}`, false, 0, impl.Fail(impl.ErrProtocol, "bad line"), "failure/protocol", "failure", "", false},
		{"Infinity in the answer", `{}`, `{"":1e400}`, false, 0, impl.Fail(impl.ErrProtocol, `the answer is not a JSON object: "{\"id\": …, \"arguments\": {\"\": Infinity}}"`), "failure/protocol/non-finite", "failure", "", false},
		{"Infinity late in a long answer", `{}`, `{"":1e400}`, false, 0, impl.Fail(impl.ErrProtocol, `the answer is not a JSON object: invalid character 'I' looking for beginning of value: "…xxxx\", \"b\": Infinity}}"`), "failure/protocol/non-finite", "failure", "", false},
		// Errors.
		{"not an object answered", `{}`, `[]`, false, 0, out(`[]`), "no-error", "reading/8", "", false},
		{"broken schema answered", `{"anyOf":[]}`, `{}`, false, 0, out(`{}`), "no-error", "reading/8", "", false},
		{"error for valid input", `{}`, `{"a":1}`, false, 0, impl.Reject(impl.ErrUnspecified, "no"), "error-for-valid-input", "reading/8", "", false},
		{"error for a number past float64", `{}`, `{"":1e400}`, false, 0, impl.Reject(impl.ErrUnspecified, "json_encode: Inf and NaN cannot be JSON encoded"), "error-for-valid-input/number-range", "reading/8", "", false},
		{"error for a lone surrogate", `{}`, `{"":"\ud800"}`, false, 0, impl.Reject(impl.ErrUnspecified, "Single unpaired UTF-16 surrogate"), "error-for-valid-input/lone-surrogate", "reading/8", "", false},
		// A low one alone at the start of a string (PHP at seed 4242: the
		// pattern wanted six characters before it).
		{"error for a lone low surrogate", `{}`, `{"":"\udfff"}`, false, 0, impl.Reject(impl.ErrUnspecified, "Single unpaired UTF-16 surrogate"), "error-for-valid-input/lone-surrogate", "reading/8", "", false},
		{"error for a lone surrogate in a key", `{}`, `{"\udc00x":1}`, false, 0, impl.Reject(impl.ErrUnspecified, "Single unpaired UTF-16 surrogate"), "error-for-valid-input/lone-surrogate", "reading/8", "", false},
		{"a surrogate pair is no lone surrogate", `{}`, `{"":"\ud83d\ude00"}`, false, 0, impl.Reject(impl.ErrUnspecified, "no"), "error-for-valid-input", "reading/8", "", false},
		{"an escaped backslash before u is no escape", `{}`, `{"":"\\udfff"}`, false, 0, impl.Reject(impl.ErrUnspecified, "no"), "error-for-valid-input", "reading/8", "", false},
		{"error for depth", `{}`, `{"":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`, false, 0, impl.Reject(impl.ErrUnspecified, "Maximum stack depth exceeded"), "error-for-valid-input/depth", "reading/8", "", false},
		{"error for a reference of thousands of digits", `{}`, `{"":"&#` + strings.Repeat("9", 5000) + `;"}`, false, 0, impl.Reject(impl.ErrUnspecified, "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits"), "error-for-valid-input/long-reference", "reading/1", "", false},
		{"error for a reference of thousands of leading zeros", `{"properties":{"p":{"type":"string"}}}`, `{"p":["&#x` + strings.Repeat("0", 4400) + `41"]}`, false, 0, impl.Reject(impl.ErrUnspecified, "no"), "error-for-valid-input/long-reference", "reading/1", "", false},
		{"error for a reference of a few digits", `{}`, `{"":"&#` + strings.Repeat("9", 999) + `;"}`, false, 0, impl.Reject(impl.ErrUnspecified, "no"), "error-for-valid-input", "reading/8", "", false},
		{"error on a $ref cycle", `{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/a"}]}},"properties":{"":{"$ref":"#/$defs/a"}}}`, `{"":""}`, false, 0, impl.Reject(impl.ErrUnspecified, "Maximum call stack size exceeded"), "error-for-valid-input/$ref-cycle", "reading/4", "", false},
		{"error on a cycle of two $refs", `{"$defs":{"a":{"items":{"$ref":"#/$defs/b"}},"b":{"anyOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, `{}`, false, 0, impl.Reject(impl.ErrUnspecified, "too much recursion"), "error-for-valid-input/$ref-cycle", "reading/4", "", false},
		{"error under a $ref chain without a cycle", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{}},"$ref":"#/$defs/a"}`, `{}`, false, 0, impl.Reject(impl.ErrUnspecified, "no"), "error-for-valid-input/$ref", "reading/4", "", false},
		{"error behind a draft", `{"$schema":"http://json-schema.org/draft-04/schema#"}`, `{}`, false, 0, impl.Reject(impl.ErrUnspecified, "no schema with key"), "error-for-valid-input/$schema", "reading/4", "", false},
		{"error, a property named $ref", `{"properties":{"$ref":{"type":"string"}}}`, `{"$ref":"x"}`, false, 0, impl.Reject(impl.ErrUnspecified, "no"), "error-for-valid-input", "reading/8", "", false},
		{"error, $ref in an enum", `{"enum":[{"$ref":"x"}]}`, `{"$ref":"x"}`, false, 0, impl.Reject(impl.ErrUnspecified, "no"), "error-for-valid-input", "reading/8", "", false},
		{"error, the stack exhausted", `{"$id":"https://x/a","$defs":{"b":{"$id":"b","$ref":"a"}},"$ref":"b"}`, `{}`, false, 0, impl.Reject(impl.ErrUnspecified, "Schema validation error: Maximum call stack size exceeded"), "error-for-valid-input/$ref/stack", "reading/4", "", false},
		{"wrong error kind", `{}`, `[]`, false, 0, impl.Reject(impl.ErrInvalidJSON, ""), "wrong-error-kind", "reading/8", "", false},
		// References left undecoded, by class.
		{"nothing decoded", `{}`, `{"a":"x &amp; y"}`, false, 0, out(`{"a":"x &amp; y"}`), "undecoded/named-basic", "rule/4", "/a", false},
		{"numeric", `{}`, `{"a":"&#233;"}`, false, 0, out(`{"a":"&#233;"}`), "undecoded/numeric", "rule/4", "/a", false},
		{"numeric without ;", `{}`, `{"a":"&#38"}`, false, 0, out(`{"a":"&#38"}`), "undecoded/numeric-no-semicolon", "reading/1", "/a", false},
		{"null", `{}`, `{"a":"&#0;"}`, false, 0, out(`{"a":"&#0;"}`), "undecoded/numeric-null", "reading/1", "/a", false},
		{"windows-1252", `{}`, `{"a":"&#150;"}`, false, 0, out(`{"a":"\u0096"}`), "undecoded/numeric-windows-1252", "reading/1", "/a", false},
		// Decoded without its `;`, to the code point itself: the mapping
		// failed, not the `;` (one class with the row above).
		{"windows-1252 without ;", `{}`, `{"":"&#x80"}`, false, 0, out(`{"":"\u0080"}`), "undecoded/numeric-windows-1252", "reading/1", "/", false},
		// Escaped twice: the `&amp` is decoded right, the reference it
		// makes is not.
		{"windows-1252 escaped twice", `{}`, `{"":"&amp#x80"}`, false, 0, out(`{"":"\u0080"}`), "undecoded/numeric-windows-1252", "reading/1", "/", false},
		{"windows-1252 escaped twice, with ;", `{}`, `{"":"a&amp;#150;"}`, false, 0, out(`{"":"a\u0096"}`), "undecoded/numeric-windows-1252", "reading/1", "/", false},
		{"surrogate", `{}`, `{"a":"&#xD800;"}`, false, 0, out(`{"a":"&#xD800;"}`), "undecoded/numeric-surrogate", "reading/1", "/a", false},
		{"out of range", `{}`, `{"a":"&#x110000;"}`, false, 0, out(`{"a":"&#x110000;"}`), "undecoded/numeric-out-of-range", "reading/1", "/a", false},
		// Inside JSON text that parses only once its references are
		// decoded (`&quot` makes the last string's closing quote): the
		// leaf's reference is read from the text as sent, not from the
		// text after its references are decoded, which has none.
		{"out of range, in JSON that parses once its references are decoded", `{"properties":{"":{"type":"array"}}}`, `{"":"[[],[true,\"&#4294967356\"],\"&quot]"}`, false, 0, out(`{"":[[],[true,"<"],""]}`), "undecoded/numeric-out-of-range", "reading/1", "//1/1", false},
		{"legacy without ;", `{}`, `{"a":"&copy 2024"}`, false, 0, out(`{"a":"&copy 2024"}`), "undecoded/named-no-semicolon", "reading/1", "/a", false},
		{"control character decoded to nothing", `{}`, `{"":"&#1;"}`, false, 0, out(`{"":""}`), "misdecoded/to-nothing", "reading/1", "/", false},
		{"control character without ; decoded to nothing", `{}`, `{"":"&#xf"}`, false, 0, out(`{"":""}`), "misdecoded/to-nothing", "reading/1", "/", false},
		{"noncharacter decoded to nothing", `{}`, `{"a":"x&#xFFFF;"}`, false, 0, out(`{"a":"x"}`), "misdecoded/to-nothing", "reading/1", "/a", false},
		{"decoded to other text", `{}`, `{"a":"&lt;"}`, false, 0, out(`{"a":"("}`), "misdecoded", "reading/1", "/a", false},
		{"control character not decoded", `{}`, `{"":"&#1;"}`, false, 0, out(`{"":"&#1;"}`), "undecoded/numeric-control", "reading/1", "/", false},
		// Apart from controls: PHP leaves controls and decodes noncharacters,
		// and a title naming both was false of it.
		{"noncharacter not decoded", `{}`, `{"":"&#xFFFE;"}`, false, 0, out(`{"":"&#xFFFE;"}`), "undecoded/numeric-noncharacter", "reading/1", "/", false},
		{"error for 1e400 in a string decoded", `{"properties":{"":{"type":"array"}}}`, `{"":"[1e400]"}`, false, 0, impl.Reject(impl.ErrUnspecified, "json_encode: Inf and NaN cannot be JSON encoded"), "error-for-valid-input/number-range", "reading/8", "", false},
		{"a name missing from the table", `{}`, `{"":"&apos;"}`, false, 0, out(`{"":"&apos;"}`), "undecoded/named-not-in-table", "reading/1", "/", false},
		{"not in the table", `{}`, `{"a":"a&hellip;"}`, false, 0, out(`{"a":"a&hellip;"}`), "undecoded/named-not-in-table", "reading/1", "/a", false},
		{"case variant", `{}`, `{"a":"&AMP;"}`, false, 0, out(`{"a":"&AMP;"}`), "undecoded/named-case-variant", "reading/1", "/a", false},
		// `&DD;` is an HTML name, and so is `&dd;`: a table without it
		// (HTML 4.01's) misses both, not a case.
		{"in another case, both HTML5's", `{}`, `{"a":"&DD;"}`, false, 0, out(`{"a":"&DD;"}`), "undecoded/named-not-in-table", "reading/1", "/a", false},
		{"the name every table has, in another case", `{}`, `{"a":"&COPY;"}`, false, 0, out(`{"a":"&COPY;"}`), "undecoded/named-case-variant", "reading/1", "/a", false},
		// A numeric reference without its `;` to a code point HTML
		// replaces is two faults, a class of its own: the counterexample
		// of either is not the other's.
		{"numeric without ; to a control", `{}`, `{"a":"&#7"}`, false, 0, out(`{"a":"&#7"}`), "undecoded/numeric-no-semicolon/special", "reading/1", "/a", false},
		{"two code points", `{}`, `{"a":"&NotEqualTilde;"}`, false, 0, out(`{"a":"&NotEqualTilde;"}`), "undecoded/named-two-code-points", "reading/1", "/a", false},
		{"one pass only", `{}`, `{"a":"Ember &amp;amp; Oak"}`, false, 0, out(`{"a":"Ember &amp; Oak"}`), "no-fixpoint", "rule/4", "/a", false},
		{"one pass, within the bound", `{}`, `{"a":"&amp;amp;amp;"}`, false, 3, out(`{"a":"&amp;amp;"}`), "no-fixpoint", "rule/4", "/a", false},
		{"one pass, then JSON", `{"properties":{"p":{"type":"object"}}}`, `{"p":"{&quot&ampmp;&quot:1}"}`, false, 0, out(`{"p":{"&mp;":1}}`), "no-fixpoint", "rule/4", "/p", false},
		{"one pass, not yet JSON", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[&ampquot&ampquot]"}`, false, 0, out(`{"p":"[&quot&quot]"}`), "no-fixpoint", "rule/4", "/p", false},
		// References decoded that HTML leaves alone.
		{"case-insensitive names", `{}`, `{"a":"&Amp;"}`, false, 0, out(`{"a":"&"}`), "overdecoded/case-insensitive", "reading/1", "/a", false},
		{"name needing ;", `{}`, `{"a":"&hellip x"}`, false, 0, out(`{"a":"… x"}`), "overdecoded/no-semicolon", "reading/1", "/a", false},
		{"unknown name", `{}`, `{"a":"&bogus;"}`, false, 0, out(`{"a":"?"}`), "overdecoded/unknown-name", "reading/1", "/a", false},
		{"attribute profile", `{}`, `{"u":"?a=1&region=eu"}`, true, 0, out(`{"u":"?a=1®ion=eu"}`), "overdecoded/attribute", "reading/3", "/u", false},
		{"past the bound", `{}`, `{"a":"&amp;amp;"}`, false, 1, out(`{"a":"&"}`), "past-pass-bound", "rule/4", "/a", false},
		{"text without references", `{}`, `{"a":" x "}`, false, 0, out(`{"a":"x"}`), "text-trimmed", "rule/5", "/a", false},
		{"text changed", `{}`, `{"a":"x"}`, false, 0, out(`{"a":"y"}`), "text-changed", "rule/5", "/a", false},
		// A string that is a JSON string literal, unquoted to fit an
		// enum.
		{"a string literal unquoted", `{"properties":{"a":{"type":"string","enum":["x"]}}}`, `{"a":"\"x\""}`, false, 0, out(`{"a":"x"}`), "string-literal-unquoted", "rule/3", "/a", false},
		// The JSON repair.
		{"string declared, type list", `{"properties":{"p":{"type":["string","array"]}}}`, `{"p":"[1]"}`, false, 0, out(`{"p":[1]}`), "decoded-declared-string", "rule/3", "/p", false},
		{"string declared, anyOf", `{"properties":{"p":{"anyOf":[{"type":"object"},{"type":"string"}]}}}`, `{"p":"{}"}`, false, 0, out(`{"p":{}}`), "decoded-declared-string", "rule/3", "/p", false},
		{"wrong shape, allOf", `{"properties":{"p":{"allOf":[{"type":["object","array"]},{"type":"object"}]}}}`, `{"p":"[]"}`, false, 0, out(`{"p":[]}`), "wrong-shape/allOf", "rule/3", "/p", false},
		{"wrong shape", `{"properties":{"p":{"type":"object"}}}`, `{"p":"[]"}`, false, 0, out(`{"p":[]}`), "wrong-shape", "rule/3", "/p", false},
		// PHP's json_decode gives one empty array for `{}` and `[]`: object
		// text decoded where array is declared comes out `[]`, of the
		// declared shape. A wrong shape and an empty container swapped:
		// two faults, a class of their own.
		{"wrong shape, empty, in the declared shape", `{"properties":{"p":{"type":"array"}}}`, `{"p":"{}"}`, false, 0, out(`{"p":[]}`), "wrong-shape/empty", "rule/3", "/p", false},
		{"wrong shape, empty array as an object", `{"properties":{"p":{"type":"object"}}}`, `{"p":"[]"}`, false, 0, out(`{"p":{}}`), "wrong-shape/empty", "rule/3", "/p", false},
		// JSON text once its references are decoded, left as sent: the
		// references are what the implementation does not decode (PHP
		// decodes only references that end in `;`), not the JSON.
		{"references undecoded keep JSON text hidden", `{"properties":{"p":{"type":"array"}}}`, `{"p":"&#91&#93"}`, false, 0, out(`{"p":"&#91&#93"}`), "undecoded/numeric-no-semicolon", "reading/1", "/p", false},
		// Decoded, but not decoded as JSON after: the order of repairs.
		{"references decoded, JSON after them not", `{"properties":{"p":{"type":"array"}}}`, `{"p":"&#91;&#93;"}`, false, 0, out(`{"p":"[]"}`), "decode-missed/after-references", "reading/6", "/p", false},
		// An empty container given as the other shape, empty.
		{"empty object as an empty array", `{}`, `{}`, false, 0, out(`[]`), "object-as-array", "rule/5", "", false},
		{"empty object decoded as an empty array", `{"properties":{"p":{"type":"object"}}}`, `{"p":"{}"}`, false, 0, out(`{"p":[]}`), "object-as-array", "rule/5", "/p", false},
		{"empty array as an empty object", `{}`, `{"p":[]}`, false, 0, out(`{"p":{}}`), "object-as-array", "rule/5", "/p", false},
		// PHP's json_encode writes an array keyed 0 to n-1 as a list.
		{"an object keyed 0 to n-1 as an array", `{}`, `{"p":{"0":"a","1":"b"}}`, false, 0, out(`{"p":["a","b"]}`), "object-as-array", "rule/5", "/p", false},
		// Keys renumbered (PHP's array_merge): the values stay in place,
		// not a reordering.
		{"integer keys renumbered", `{}`, `{"1":"a","0":"b"}`, false, 0, out(`{"0":"a","1":"b"}`), "key-changed", "rule/5", "", false},
		{"integer keys moved first", `{}`, `{"b":1,"0":2}`, false, 0, out(`{"0":2,"b":1}`), "artefact/lossy-json", "reading/7", "", true},
		{"an object keyed otherwise, as an array", `{}`, `{"p":{"1":"a","0":"b"}}`, false, 0, out(`{"p":["b","a"]}`), "coerced", "rule/5", "/p", false},
		{"an object to an array, not empty", `{}`, `{"p":{"a":1}}`, false, 0, out(`{"p":[1]}`), "coerced", "rule/5", "/p", false},
		{"not JSON text", `{"properties":{"p":{"type":"array"}}}`, `{"p":"\u00a0[1]"}`, false, 0, out(`{"p":[1]}`), "decoded-not-json", "reading/5", "/p", false},
		{"not JSON text, a NUL after it", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[]\u0000"}`, false, 0, out(`{"p":[]}`), "decoded-not-json", "reading/5", "/p", false},
		{"a branch admits any type", `{"properties":{"p":{"oneOf":[{"type":"array"},{}]}}}`, `{"p":"[]"}`, false, 0, out(`{"p":[]}`), "decoded-declared-string", "rule/3", "/p", false},
		{"a branch true", `{"properties":{"p":{"anyOf":[{"type":"array"},true]}}}`, `{"p":"[]"}`, false, 0, out(`{"p":[]}`), "decoded-declared-string", "rule/3", "/p", false},
		{"a branch through $ref", `{"$defs":{"a":{}},"properties":{"p":{"anyOf":[{"$ref":"#/$defs/a"},{"type":"array"}]}}}`, `{"p":"[]"}`, false, 0, out(`{"p":[]}`), "decoded-declared-string", "rule/3", "/p", false},
		{"a branch through a cycle", `{"$defs":{"a":{"$ref":"#/$defs/a"}},"properties":{"p":{"anyOf":[{"$ref":"#/$defs/a"},{"type":"array"}]}}}`, `{"p":"[]"}`, false, 0, out(`{"p":[]}`), "decoded-declared-string", "rule/3", "/p", false},
		{"undeclared", `{"properties":{"p":{"type":"integer"}}}`, `{"p":"[1]"}`, false, 0, out(`{"p":[1]}`), "decoded-undeclared", "rule/2", "/p", false},
		{"undeclared scalar", `{"properties":{}}`, `{"p":"5"}`, false, 0, out(`{"p":5}`), "decoded-undeclared", "rule/2", "/p", false},
		{"undeclared, a pattern ECMA-262's . does not match", `{"patternProperties":{"^.$":{"type":"array"}}}`, `{"\u2028":"[]"}`, false, 0, out(`{"\u2028":[]}`), "decoded-undeclared", "rule/2", "/\u2028", false},
		{"not JSON, made an array", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1,2"}`, false, 0, out(`{"p":["[1",2]}`), "made-from-not-json", "rule/2", "/p", false},
		{"empty text made an array", `{"properties":{"p":{"type":"array"}}}`, `{"p":""}`, false, 0, out(`{"p":[]}`), "made-from-not-json", "rule/2", "/p", false},
		// Two faults in one case get a class of their own, so that a
		// counterexample minimized for one fault never takes on the other.
		{"not JSON where a string is declared", `{"properties":{"p":{"type":["string","array"]}}}`, `{"p":""}`, false, 0, out(`{"p":[]}`), "made-from-not-json/declared-string", "rule/3", "/p", false},
		{"not JSON where nothing is declared", `{"properties":{"p":{"items":{}}}}`, `{"p":""}`, false, 0, out(`{"p":[]}`), "made-from-not-json/undeclared", "rule/2", "/p", false},
		{"decoded where kept, and lossily", `{}`, `{"p":"{\"k\":1,\"k\":2}"}`, false, 0, out(`{"p":{"k":2}}`), "decoded-json-lossy/where-kept", "reading/7", "/p", false},
		{"a string literal unwrapped where nothing is declared", `{}`, `{"p":"\"[1]\""}`, false, 0, out(`{"p":[1]}`), "decoded-undeclared", "rule/2", "/p", false},
		{"a raw lone surrogate accepted", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[\"\ud800\"]"}`, false, 0, out(`{"p":["\ud800"]}`), "decoded-json-lossy", "reading/7", "/p", false},
		{"a string literal unwrapped", `{"properties":{"p":{"type":"array"}}}`, `{"p":"\"[1]\""}`, false, 0, out(`{"p":[1]}`), "decoded-string-literal", "reading/5", "/p", false},
		{"missed inside decoded text", `{"properties":{"c":{"type":"object","properties":{"i":{"type":"array"}}}}}`, `{"c":"{\"i\":\"[1]\"}"}`, false, 0, out(`{"c":{"i":"[1]"}}`), "decode-missed/in-decoded", "rule/2", "/c/i", false},
		{"missed, plain", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[]"}`, false, 0, out(`{"p":"[]"}`), "decode-missed", "rule/2", "/p", false},
		{"missed behind $ref", `{"properties":{"p":{"$ref":"#/$defs/m"}},"$defs":{"m":{"type":"object"}}}`, `{"p":"{}"}`, false, 0, out(`{"p":"{}"}`), "decode-missed/keyword", "reading/4", "/p", false},
		{"missed behind $ref through an array index", `{"properties":{"l":{"prefixItems":[{"type":"null"},{"type":"array"}]},"p":{"$ref":"#/properties/l/prefixItems/1"}}}`, `{"p":"[]"}`, false, 0, out(`{"p":"[]"}`), "decode-missed/keyword", "reading/4", "/p", false},
		{"missed behind $ref into anyOf", `{"properties":{"q":{"anyOf":[{"type":"null"},{"type":"array"}]},"p":{"$ref":"#/properties/q/anyOf/1"}}}`, `{"p":"[]"}`, false, 0, out(`{"p":"[]"}`), "decode-missed/keyword", "reading/4", "/p", false},
		{"missed behind patternProperties", `{"patternProperties":{"^p":{"type":"object"}}}`, `{"p":"{}"}`, false, 0, out(`{"p":"{}"}`), "decode-missed/keyword", "reading/4", "/p", false},
		{"missed behind additionalProperties", `{"additionalProperties":{"type":"array"}}`, `{"p":"[]"}`, false, 0, out(`{"p":"[]"}`), "decode-missed/keyword", "reading/4", "/p", false},
		{"missed behind prefixItems", `{"properties":{"l":{"type":"array","prefixItems":[{"type":"array"}]}}}`, `{"l":["[]"]}`, false, 0, out(`{"l":["[]"]}`), "decode-missed/keyword", "reading/4", "/l/0", false},
		{"missed behind allOf", `{"properties":{"p":{"allOf":[{"type":"array"}]}}}`, `{"p":"[]"}`, false, 0, out(`{"p":"[]"}`), "decode-missed/keyword", "reading/4", "/p", false},
		{"missed behind anyOf", `{"properties":{"p":{"anyOf":[{"type":"array"},{"type":"null"}]}}}`, `{"p":"[]"}`, false, 0, out(`{"p":"[]"}`), "decode-missed/keyword", "reading/4", "/p", false},
		// A reach that admits string declares no shape alone: the keyword
		// whose reach narrows it to the shape is needed (properties and a
		// matching pattern intersect; so do type and allOf).
		{"missed where a pattern narrows a type list", `{"type":"object","properties":{"ids":{"type":["array","string"]}},"patternProperties":{"s$":{"type":["array","null"]}}}`, `{"ids":"[1]"}`, false, 0, out(`{"ids":"[1]"}`), "decode-missed/keyword", "reading/4", "/ids", false},
		{"missed where allOf narrows a type list", `{"properties":{"p":{"type":["array","string"],"allOf":[{"type":"array"}]}}}`, `{"p":"[]"}`, false, 0, out(`{"p":"[]"}`), "decode-missed/keyword", "reading/4", "/p", false},
		{"missed under a type list that narrows a pattern", `{"properties":{"ids":{"type":["array","null"]}},"patternProperties":{"s$":{"type":["array","string"]}}}`, `{"ids":"[1]"}`, false, 0, out(`{"ids":"[1]"}`), "decode-missed", "rule/2", "/ids", false},
		{"missed behind items", `{"properties":{"l":{"type":"array","items":{"type":"object"}}}}`, `{"l":["{}"]}`, false, 0, out(`{"l":["{}"]}`), "decode-missed", "rule/2", "/l/0", false},
		{"missed after references", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[&quot;a&quot;]"}`, false, 0, out(`{"p":"[\"a\"]"}`), "decode-missed/after-references", "reading/6", "/p", false},
		// The rest of the tree.
		{"key decoded", `{}`, `{"&amp;":1}`, false, 0, out(`{"&":1}`), "key-decoded", "rule/5", "", false},
		{"key changed", `{}`, `{"a":1}`, false, 0, out(`{"A":1}`), "key-changed", "rule/5", "", false},
		{"member dropped", `{}`, `{"a":1,"b":2}`, false, 0, out(`{"a":1}`), "member-dropped", "rule/5", "", false},
		{"null dropped", `{"properties":{"t":{"type":"number"}}}`, `{"t":null}`, false, 0, out(`{}`), "member-dropped/null", "rule/5", "", false},
		{"__proto__ lost", `{}`, `{"__proto__":{"a":1}}`, false, 0, out(`{}`), "member-dropped/__proto__", "rule/5", "", false},
		{"member added", `{}`, `{"query":"hi"}`, false, 0, out(`{"query":"hi","prompt":"hi"}`), "member-added", "rule/5", "", false},
		{"element dropped", `{}`, `{"a":[1,2]}`, false, 0, out(`{"a":[1]}`), "element-dropped", "rule/5", "/a", false},
		{"member order", `{}`, `{"b":1,"a":2}`, false, 0, out(`{"a":2,"b":1}`), "member-order", "reading/7", "", false},
		{"number changed", `{}`, `{"n":1.5}`, false, 0, out(`{"n":2}`), "number-changed", "rule/5", "/n", false},
		{"coerced", `{"properties":{"n":{"type":"integer"}}}`, `{"n":"5"}`, false, 0, out(`{"n":5}`), "coerced", "rule/5", "/n", false},
		{"coerced to string", `{"properties":{"n":{"type":"string"}}}`, `{"n":1.5}`, false, 0, out(`{"n":"1.5"}`), "coerced", "rule/5", "/n", false},
		{"wrapped null", `{"properties":{"p":{"type":"array","nullable":true}}}`, `{"p":null}`, false, 0, out(`{"p":[null]}`), "coerced/wrapped", "rule/5", "/p", false},
		{"wrapped number", `{"properties":{"p":{"type":"array"}}}`, `{"p":5}`, false, 0, out(`{"p":[5]}`), "coerced/wrapped", "rule/5", "/p", false},
		// Wrapped where no array is declared (a reader that takes `items`
		// alone for array does so): the value kept, not converted.
		{"wrapped where no array is declared", `{"properties":{"p":{"type":"number"}}}`, `{"p":5}`, false, 0, out(`{"p":[5]}`), "coerced/wrapped", "rule/5", "/p", false},
		{"wrapped under items alone", `{"properties":{"p":{"items":{}}}}`, `{"p":0}`, false, 0, out(`{"p":[0]}`), "coerced/wrapped", "rule/5", "/p", false},
		{"coerced inside decoded", `{"properties":{"p":{"type":"array","items":{"type":"string"}}}}`, `{"p":"[1]"}`, false, 0, out(`{"p":["1"]}`), "coerced-in-decoded", "rule/5", "/p/0", false},
		// What lossy JSON reading does: the implementation's inside a
		// decoded string, probably the adapter's in the arguments.
		{"decoded duplicates", `{"properties":{"ops":{"type":"object"}}}`, `{"ops":"{\"k\":1,\"k\":2}"}`, false, 0, out(`{"ops":{"k":2}}`), "decoded-json-lossy", "reading/7", "/ops", false},
		{"decoded big number", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[12345678901234567890]"}`, false, 0, out(`{"p":[12345678901234567000]}`), "decoded-json-lossy", "reading/7", "/p/0", false},
		{"adapter big number", `{}`, `{"n":12345678901234567890}`, false, 0, out(`{"n":12345678901234567000}`), "artefact/lossy-json", "reading/7", "/n", true},
		{"adapter 1e400", `{}`, `{"n":1e400}`, false, 0, out(`{"n":null}`), "artefact/lossy-json", "reading/7", "/n", true},
		{"adapter integer keys", `{}`, `{"b":1,"2":2,"1":3}`, false, 0, out(`{"1":3,"2":2,"b":1}`), "artefact/lossy-json", "reading/7", "", true},
		{"adapter duplicates", `{}`, `{"a":1,"a":2}`, false, 0, out(`{"a":2}`), "artefact/lossy-json", "reading/7", "", true},
		{"output not JSON", `{}`, `{}`, false, 0, out(`{`), "output-not-json", "reading/7", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := impl.Options{MaxPasses: tt.maxPasses}
			if tt.attribute {
				o.Profile = normalize.Attribute
			}
			want := impl.Reference.Normalize(context.Background(), impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args), Options: o})
			if impl.Compare(tt.got, want).Same() {
				t.Fatalf("the case is no counterexample: the reference gives %v too", want)
			}
			d := diagnose.Classify(diagnose.Case{Schema: []byte(tt.schema), Args: []byte(tt.args), Attribute: tt.attribute, MaxPasses: tt.maxPasses, Want: want, Got: tt.got})
			if d.Class != tt.class || d.Clause != tt.clause || d.Where != tt.where || d.Artefact != tt.artefact {
				t.Errorf("Classify = %s (%s) at %q, artefact %v; want %s (%s) at %q, artefact %v\n(title: %s; want %v)",
					d.Class, d.Clause, d.Where, d.Artefact, tt.class, tt.clause, tt.where, tt.artefact, d.Title, want)
			}
			if d.Title == "" {
				t.Error("no title")
			}
			if d.Artefact != (d.Fix != "") {
				t.Errorf("artefact %v with fix %q", d.Artefact, d.Fix)
			}
		})
	}
}

// TestTitleNamesTheCase: a title says what its counterexample shows, not a
// list of what the class may hold.
func TestTitleNamesTheCase(t *testing.T) {
	out := func(s string) impl.Result { return impl.OK([]byte(s)) }
	tests := []struct {
		name, schema, args string
		got                impl.Result
		class, detail      string
		title              []string // what the title holds
	}{
		{"duplicates", `{"properties":{"p":{"type":"object"}}}`, `{"p":"{\"k\":1,\"k\":2}"}`, out(`{"p":{"k":2}}`), "decoded-json-lossy", "duplicates", []string{"duplicate"}},
		{"1e400 to null", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1e400]"}`, out(`{"p":[null]}`), "decoded-json-lossy", "1e400", []string{"`1e400`", "null"}},
		{"rounded", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[12345678901234567890]"}`, out(`{"p":[12345678901234567000]}`), "decoded-json-lossy", "rounded", []string{"rounded"}},
		{"a raw lone surrogate", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[\"\ud800\"]"}`, out(`{"p":["\ud800"]}`), "decoded-json-lossy", "lone-surrogate", []string{"surrogate"}},
		{"a name not decoded", `{}`, `{"":"&lt;"}`, out(`{"":"&lt;"}`), "undecoded/named-basic", "", []string{"`&lt;`"}},
		{"a name missing", `{}`, `{"":"&apos;"}`, out(`{"":"&apos;"}`), "undecoded/named-not-in-table", "", []string{"`&apos;`", "table"}},
		{"coerced string to number", `{"properties":{"n":{"type":"integer"}}}`, `{"n":"5"}`, out(`{"n":5}`), "coerced", "string to number", []string{"(string to number)"}},
		{"coerced string to boolean", `{"properties":{"b":{"type":"boolean"}}}`, `{"b":"true"}`, out(`{"b":true}`), "coerced", "string to boolean", []string{"(string to boolean)"}},
		{"coerced inside decoded", `{"properties":{"p":{"type":"array","items":{"type":"string"}}}}`, `{"p":"[1]"}`, out(`{"p":["1"]}`), "coerced-in-decoded", "number to string", []string{"(number to string)"}},
		{"wrapped", `{"properties":{"p":{"type":"array"}}}`, `{"p":5}`, out(`{"p":[5]}`), "coerced/wrapped", "", []string{"is wrapped in one", "`5` gives `[5]`"}},
		// A keyword's miss names the way from the keyword to the
		// declaration: a member reached through a branch is not the
		// branch's own declaration, and a list of `items` is not `items`.
		{"missed at anyOf", `{"properties":{"p":{"anyOf":[{"type":"array"},{"type":"null"}]}}}`, `{"p":"[]"}`, out(`{"p":"[]"}`), "decode-missed/keyword", "anyOf", []string{"through `anyOf` are"}},
		{"missed through anyOf, then properties", `{"anyOf":[{"properties":{"p":{"type":"array"}}}]}`, `{"p":"[]"}`, out(`{"p":"[]"}`), "decode-missed/keyword", "anyOf/properties", []string{"through `anyOf` then `properties` are"}},
		{"missed through an items list", `{"properties":{"l":{"type":"array","items":[{"type":"array"}]}}}`, `{"l":["[]"]}`, out(`{"l":["[]"]}`), "decode-missed/keyword", "items[]", []string{"through `items` as a list are"}},
		{"missed through $ref, then items", `{"$defs":{"l":{"items":{"type":"array"}}},"properties":{"l":{"$ref":"#/$defs/l"}}}`, `{"l":["[]"]}`, out(`{"l":["[]"]}`), "decode-missed/keyword", "$ref/items", []string{"through `$ref` then `items` are"}},
		{"missed under a type list", `{"properties":{"p":{"type":["array"]}}}`, `{"p":"[]"}`, out(`{"p":"[]"}`), "decode-missed", "type-list", []string{"declares array in a `type` list"}},
		{"missed under a plain type", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[]"}`, out(`{"p":"[]"}`), "decode-missed", "", []string{"declares array"}},
		// A `type` beside `$ref` read where the schema's draft ignores
		// what is beside `$ref` (drafts 4 to 7): the title says so,
		// not that `$ref` is read (no implementation seen reads it).
		{"type beside $ref, draft 7", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"any":{}},"properties":{"":{"$ref":"#/definitions/any","type":"array"}}}`, `{"":"[]"}`, out(`{"":[]}`), "decoded-undeclared/$ref-sibling", "", []string{"A `type` beside `$ref` is read", "draft 7 and earlier ignore"}},
		{"type list beside $ref, draft 4", `{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{"any":{}},"properties":{"":{"$ref":"#/definitions/any","type":["object"]}}}`, `{"":"{}"}`, out(`{"":{}}`), "decoded-undeclared/$ref-sibling", "", []string{"A `type` beside `$ref` is read"}},
		// Beside `$ref` too, but no `type`: `then`, which the draft
		// ignores as well, is the reading's way; the title does not say
		// a `type` is read.
		{"then beside $ref, draft 7", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"any":{}},"properties":{"":{"$ref":"#/definitions/any","if":true,"then":{"type":"array"}}}}`, `{"":"[]"}`, out(`{"":[]}`), "decoded-undeclared/$ref", "", []string{"read through `$ref`"}},
		// An error a `$schema` brings about names its draft; a value
		// that names none, as written.
		{"an error under draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#"}`, `{}`, impl.Reject(impl.ErrUnspecified, "no schema with key"), "error-for-valid-input/$schema", "draft-04", []string{"under a schema whose `$schema` is draft-04"}},
		{"an error under another $schema", `{"$schema":"https://example.com/s"}`, `{}`, impl.Reject(impl.ErrUnspecified, "no schema with key"), "error-for-valid-input/$schema", "https://example.com/s", []string{"under a schema whose `$schema` is `https://example.com/s`"}},
		// A `NaN` or `Infinity` in the answer, by what in the arguments
		// brings it about.
		{"Infinity", `{}`, `{"":1e400}`, impl.Fail(impl.ErrProtocol, `not a JSON object: "{\"arguments\": {\"\": Infinity}}"`), "failure/protocol/non-finite", "past-float64", []string{"(a number past float64 written as `Infinity`)"}},
		{"Infinity from JSON text", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1e400]"}`, impl.Fail(impl.ErrProtocol, `not a JSON object: "{\"arguments\": {\"p\": [Infinity]}}"`), "failure/protocol/non-finite", "past-float64", []string{"(a number past float64 written as `Infinity`)"}},
		{"Perl's Inf from JSON text", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1e400]"}`, impl.Fail(impl.ErrProtocol, `the answer is not a JSON object: "{\"id\":…,\"arguments\":{\"p\":[Inf]}}"`), "failure/protocol/non-finite", "past-float64-inf", []string{"The answer holds `Inf`,", "(a number past float64 written as `Inf`)"}},
		{"rounded and written with 15 digits", `{"properties":{"p":{"type":"object"}}}`, `{"p":"{\"\":92345678901234567890}"}`, out(`{"p":{"":9.23456789012346e+19}}`), "decoded-json-lossy", "rounded", []string{"rounded"}},
		{"NaN in a string", `{"type":"object","properties":{"p":{"type":"array"}}}`, `{"p":"[NaN]"}`, impl.Fail(impl.ErrProtocol, `the answer is not a JSON object: "{\"id\": …, \"arguments\": {\"p\": [NaN]}}"`), "failure/protocol/non-finite", "word-in-string", []string{"(`NaN` or `Infinity` in a string read as a number)"}},
		{"-Infinity in a string", `{"properties":{"p":{"type":"object"}}}`, `{"p":"{\"a\":-Infinity}"}`, impl.Fail(impl.ErrProtocol, `not a JSON object: "{\"arguments\": {\"p\": {\"a\": -Infinity}}}"`), "failure/protocol/non-finite", "word-in-string", []string{"(`NaN` or `Infinity` in a string read as a number)"}},
		{"NaN from nothing in the arguments", `{}`, `{"":1}`, impl.Fail(impl.ErrProtocol, `not a JSON object: "{\"arguments\": {\"\": NaN}}"`), "failure/protocol/non-finite", "", []string{"which JSON has no number for"}},
		{"an error for a long reference", `{}`, `{"":"&#` + strings.Repeat("9", 5000) + `;"}`, impl.Reject(impl.ErrUnspecified, "ValueError: Exceeds the limit (4300 digits)"), "error-for-valid-input/long-reference", "", []string{"of 5,000 digits", "U+FFFD"}},
		// What the text that is not JSON is, as the case shows it: never
		// a list of what the class may hold.
		{"a NUL after JSON trimmed", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[]\u0000"}`, out(`{"p":[]}`), "decoded-not-json", "a NUL", []string{"(a NUL)", "trimmed"}},
		{"a no-break space trimmed", `{"properties":{"p":{"type":"array"}}}`, `{"p":"\u00a0[]"}`, out(`{"p":[]}`), "decoded-not-json", "a no-break space", []string{"(a no-break space)"}},
		{"truncated JSON made an array", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1,2"}`, out(`{"p":[1,2]}`), "made-from-not-json", "truncated", []string{"(truncated)"}},
		{"single quotes made an array", `{"properties":{"p":{"type":"array"}}}`, `{"p":"['a']"}`, out(`{"p":["a"]}`), "made-from-not-json", "single-quoted", []string{"(single-quoted)"}},
		{"text after JSON dropped", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1] x"}`, out(`{"p":[1]}`), "made-from-not-json", "text after the JSON", []string{"(text after the JSON)"}},
		{"empty made an array", `{"properties":{"p":{"type":"array"}}}`, `{"p":""}`, out(`{"p":[]}`), "made-from-not-json", "empty", []string{"(empty)"}},
		{"a word made an array", `{"properties":{"p":{"type":"array"}}}`, `{"p":"a,b"}`, out(`{"p":["a","b"]}`), "made-from-not-json", "", []string{"Text that is not JSON is made"}},
		// Input the rule rejects, answered: by the kind of error expected.
		{"not an object answered", `{}`, `[]`, out(`[]`), "no-error", "not-object", []string{"(arguments not an object)"}},
		{"broken schema answered", `{"anyOf":[]}`, `{}`, out(`{}`), "no-error", "invalid-schema", []string{"(a broken schema)"}},
		{"too deep answered", `{}`, `{"":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`, out(`{"":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`), "no-error", "too-deep", []string{"(nesting too deep)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := impl.Reference.Normalize(context.Background(), impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args)})
			d := diagnose.Classify(diagnose.Case{Schema: []byte(tt.schema), Args: []byte(tt.args), Want: want, Got: tt.got})
			if d.Class != tt.class || d.Detail != tt.detail {
				t.Fatalf("Classify = %s (detail %q); want %s (detail %q)", d.Class, d.Detail, tt.class, tt.detail)
			}
			for _, w := range tt.title {
				if !strings.Contains(d.Title, w) {
					t.Errorf("title %q does not say %q", d.Title, w)
				}
			}
		})
	}
}

// TestErrorShape: messages that differ in what they quote, point to or
// echo are of one shape; different messages are not.
func TestErrorShape(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{`no schema with key or ref "http://json-schema.org/draft-04/schema#"`, `no schema with key or ref "https://x/y"`, true},
		{"failed:\n- root: bad\n\nProvided arguments: {\"a\":{\"b\":[1,2]}}", "failed:\n- root: bad\n\nProvided arguments: {}", true},
		{`no schema with key or ref "x"`, `Maximum call stack size exceeded`, false},
	}
	for _, tt := range tests {
		if got := diagnose.ErrorShape(tt.a) == diagnose.ErrorShape(tt.b); got != tt.same {
			t.Errorf("ErrorShape(%q) == ErrorShape(%q) is %v, want %v (%q, %q)", tt.a, tt.b, got, tt.same, diagnose.ErrorShape(tt.a), diagnose.ErrorShape(tt.b))
		}
	}
}

// TestTitlesReadRight: a list of ways that holds a way of several steps
// is cut by semicolons, so that "`oneOf` then `items`" does not read as
// "all of them, then `items`"; a miss of both shapes says both.
func TestTitlesReadRight(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{diagnose.KeywordTitle([]string{"$ref", "anyOf"}), "Declarations through `$ref`, `anyOf` are not followed: a stringified array or object stays a string"},
		{diagnose.KeywordTitle([]string{"allOf", "anyOf", "oneOf/items"}), "Declarations through `allOf`; `anyOf`; `oneOf` then `items` are not followed: a stringified array or object stays a string"},
		{diagnose.KeywordTitle([]string{"$ref", "items[]"}), "Declarations through `$ref`; `items` as a list are not followed: a stringified array or object stays a string"},
		// Input answered and non-finite answers name what their findings
		// show in one order, whichever comes first.
		{diagnose.NoErrorTitle([]string{"too-deep", "not-object"}), "Input the rule rejects (arguments not an object, nesting too deep) is answered instead of rejected"},
		{diagnose.NoErrorTitle([]string{"invalid-schema"}), "Input the rule rejects (a broken schema) is answered instead of rejected"},
		{diagnose.NoErrorTitle([]string{"invalid-schema", "too-deep", "invalid-json", "not-object"}), "Input the rule rejects (arguments not JSON, arguments not an object, a broken schema, nesting too deep) is answered instead of rejected"},
		{diagnose.NoErrorTitle(nil), "Input the rule rejects is answered instead of rejected"},
		{diagnose.NonFiniteTitle([]string{"word-in-string", "past-float64"}), "The answer holds `NaN` or `Infinity`, which JSON does not have (a number past float64 written as `Infinity`; `NaN` or `Infinity` in a string read as a number)"},
		{diagnose.NonFiniteTitle(nil), "The answer holds an infinity or a NaN, which JSON has no number for"},
		{diagnose.MissedTitle("array", ""), "A stringified array is not decoded where the schema declares array"},
		{diagnose.MissedTitle("array or object", "type-list"), "A stringified array or object is not decoded where the schema declares its shape in a `type` list"},
	} {
		if tt.got != tt.want {
			t.Errorf("got  %q\nwant %q", tt.got, tt.want)
		}
	}
}

// TestEventClass: a harness event is of the class Classify gives the
// failure it records.
func TestEventClass(t *testing.T) {
	for _, r := range []impl.Result{
		impl.Fail(impl.ErrTimeout, "no answer within 10s"),
		impl.Fail(impl.ErrCrash, "it exited: exit status 1"),
		impl.Fail(impl.ErrProtocol, `the answer is not a JSON object: "{\"id\": …, \"arguments\": {\"\": NaN}}"`),
		impl.Fail(impl.ErrProtocol, "the answer's id is not its request's"),
	} {
		want := diagnose.Classify(diagnose.Case{Schema: []byte(`{}`), Args: []byte(`{}`), Want: impl.OK([]byte(`{}`)), Got: r}).Class
		if got := diagnose.EventClass(r.Kind().String(), r.Detail); got != want {
			t.Errorf("EventClass(%s, %q) = %q, want %q", r.Kind(), r.Detail, got, want)
		}
	}
	if got := diagnose.EventClass("output", ""); got != "" {
		t.Errorf("EventClass(output) = %q, want none", got)
	}
}
