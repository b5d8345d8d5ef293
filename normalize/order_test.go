package normalize

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCompileErrorIsRepeatable compiles a schema with two broken members
// many times: the error must name the first in document order every time,
// never whichever Go's map order meets first.
func TestCompileErrorIsRepeatable(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":"float"},"b":{"type":"dict"}}}`,
			`normalize: invalid schema: unknown type "float" at /properties/a/type`},
		{`{"type":"object","properties":{"b":{"type":"dict"},"a":{"type":"float"}}}`,
			`normalize: invalid schema: unknown type "dict" at /properties/b/type`},
		{`{"patternProperties":{"^z":{"type":"x1"},"^a":{"type":"x2"}}}`,
			`normalize: invalid schema: unknown type "x1" at /patternProperties/^z/type`},
		{`{"$defs":{"z":{"type":"x1"},"a":{"type":"x2"}}}`,
			`normalize: invalid schema: unknown type "x1" at /$defs/z/type`},
		{`{"definitions":{"z":{"$ref":"#/nope1"},"a":{"$ref":"#/nope2"}}}`,
			`normalize: invalid schema: $ref "#/nope1" does not resolve: no member "nope1" at /definitions/z/$ref`},
	}
	for _, tt := range tests {
		for range 200 {
			_, err := Compile([]byte(tt.schema))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Compile(%s) = %v\nwant %s", tt.schema, err, tt.want)
			}
		}
	}
}

// TestDuplicateKeys: a schema with a member named twice is refused, naming
// the key and where, whichever of the two would have won.
func TestDuplicateKeys(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type":"string","type":"array"}`,
			`normalize: invalid schema: duplicate key "type" at (root)`},
		{`{"type":"array","type":"string"}`,
			`normalize: invalid schema: duplicate key "type" at (root)`},
		{`{"properties":{"a/b":{"items":{},"x":1,"items":true}}}`,
			`normalize: invalid schema: duplicate key "items" at /properties/a~1b`},
		{`{"properties":{"a":{},"\u0061":{}}}`,
			`normalize: invalid schema: duplicate key "a" at /properties`},
		{`{"enum":[{"k":1,"k":2}]}`,
			`normalize: invalid schema: duplicate key "k" at /enum/0`},
	}
	for _, tt := range tests {
		_, err := Compile([]byte(tt.schema))
		var se *SchemaError
		if !errors.As(err, &se) || err.Error() != tt.want {
			t.Errorf("Compile(%s) = %v\nwant %s", tt.schema, err, tt.want)
		}
	}
	// A supplied document is held to the same.
	_, err := Compile([]byte(`{"$ref":"other.json"}`), WithDocuments(map[string][]byte{"other.json": []byte(`{"type":"array","type":"string"}`)}))
	if want := `normalize: invalid schema: $ref "other.json": document other.json has a duplicate key "type" at (root) at /$ref`; err == nil || err.Error() != want {
		t.Errorf("duplicate key in a supplied document: %v\nwant %s", err, want)
	}
}

// readTwice reads text as Compile did before decodeOrdered: encoding/json
// with UseNumber, then memberOrder.
func readTwice(text []byte) (v any, order map[uintptr][]string, ok bool) {
	v, err := decodeDocument(text)
	if err != nil {
		return nil, nil, false
	}
	order, dup := memberOrder(text, v)
	return v, order, dup == nil
}

// orderByPointer is order, which names each object by its map in v, with
// each named by its pointer instead: what two decodings of a text can be
// compared by.
func orderByPointer(v any, order map[uintptr][]string) map[string][]string {
	var out map[string][]string
	var walk func(v any, at *loc)
	walk = func(v any, at *loc) {
		switch v := v.(type) {
		case map[string]any:
			if keys, ok := order[objectID(v)]; ok {
				if out == nil {
					out = map[string][]string{}
				}
				out[at.pointer()] = keys
			}
			for k, e := range v {
				walk(e, at.member(k))
			}
		case []any:
			for i, e := range v {
				walk(e, &loc{parent: at, index: i})
			}
		}
	}
	walk(v, nil)
	if len(out) != len(order) {
		panic("an order names no object of the value")
	}
	return out
}

// decodeOrderedCases are texts decodeOrdered reads alone (plain) or
// leaves to encoding/json and memberOrder (not plain).
var decodeOrderedCases = []struct {
	text  string
	plain bool
}{
	{`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"array","items":{"type":"integer"}}},"required":["a","b"]}`, true},
	{` {"z":1,"a":2,"m":{"y":[1,{"q":1,"p":2}],"x":null}} `, true},
	{`{"a/b":{"c~d":1,"e":2},"":{"k":true,"j":false}}`, true},
	{`{"enum":[[],{},"",-0,1.5e+3,-12E-2,0.0,true,false,null]}`, true},
	{`{"description":"line\nnext \"q\" \\ \/ \b\f\r\t \u00e9 \ud83d\ude00 \u0000 é 😀 \u2028"}`, true},
	{`{"\u0061":1,"b":2}`, true},
	{`{"a\u002fb":{"x":1,"y":2}}`, true},
	{`true`, true},
	{`"s"`, true},
	{`[{"a":1,"b":2},{"b":1,"a":2}]`, true},
	{`{"d":"\ud800"}`, false},      // lone surrogate: U+FFFD in encoding/json
	{`{"\udc00x":1,"y":2}`, false}, // in a key too
	{`{"a":1,"a":2}`, false},       // a key given twice
	{`{"a":1,"\u0061":2}`, false},  // the same key, escaped
	{`{"a":1} x`, false},           // data after the value
	{`{"a":1}]`, false},            // which decodeDocument lets pass
	{`{"a":01}`, false},            // not JSON
	{`{"a":1,}`, false},            // not JSON
	{`[1 2]`, false},               // not JSON
	{`{"a" 1}`, false},             // not JSON
	{`{"a":tru}`, false},           // not JSON
	{"{\"a\":\"\x01\"}", false},    // a control character
	{"{\"a\":\"\xff\"}", false},    // invalid UTF-8
	{``, false},                    // nothing
	{strings.Repeat("[", maxFastDepth+1) + strings.Repeat("]", maxFastDepth+1), false},
	{strings.Repeat(`{"a":`, maxFastDepth) + "1" + strings.Repeat("}", maxFastDepth), true},
}

// TestDecodeOrdered: where decodeOrdered reads a text, it gives the value
// and member order that encoding/json and memberOrder give; where it does
// not, Compile reads the text as before, for the same result or error.
func TestDecodeOrdered(t *testing.T) {
	for _, tt := range decodeOrderedCases {
		_, _, ok := decodeOrdered([]byte(tt.text))
		if ok != tt.plain {
			t.Errorf("decodeOrdered(%.60q): ok = %v, want %v", tt.text, ok, tt.plain)
		}
		checkDecodeOrdered(t, []byte(tt.text))
	}
}

func checkDecodeOrdered(t *testing.T, text []byte) {
	t.Helper()
	v, order, ok := decodeOrdered(text)
	if !ok {
		return
	}
	wv, worder, wok := readTwice(text)
	if !wok {
		t.Fatalf("decodeOrdered(%.60q) read it, encoding/json and memberOrder refuse it", text)
	}
	if !reflect.DeepEqual(v, wv) {
		t.Fatalf("decodeOrdered(%.60q) = %#v\nencoding/json: %#v", text, v, wv)
	}
	if !reflect.DeepEqual(orderByPointer(v, order), orderByPointer(wv, worder)) {
		t.Fatalf("decodeOrdered(%.60q): order %v\nmemberOrder: %v", text, order, worder)
	}
}

// TestDecodeOrderedTestdata holds decodeOrdered to encoding/json and
// memberOrder on every JSON file of testdata: the JSON-Schema-Test-Suite,
// the metaschemas and the benchmark tools' schemas, as whole texts.
func TestDecodeOrderedTestdata(t *testing.T) {
	files := 0
	err := filepath.WalkDir("testdata", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if _, _, ok := decodeOrdered(text); !ok && json.Valid(text) {
			t.Logf("%s: left to encoding/json", path)
		}
		checkDecodeOrdered(t, text)
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d JSON files in testdata, want the test suite's hundreds", files)
	}
}

// TestOrderedKeywords: the member order is kept for the objects whose
// members Compile walks (the values of schemaMaps' keywords, wherever they
// stand), and for no other: an order nobody reads costs every object.
func TestOrderedKeywords(t *testing.T) {
	for _, kw := range schemaMaps {
		if !ordered(kw) {
			t.Errorf("the members of %s are not read in document order", kw)
		}
	}
	text := []byte(`{"b":1,"a":2,"properties":{"z":{"type":"object","properties":{"y":{},"x":{}}},"$defs":{"d":{}}},` +
		`"$defs":{"n":{},"m":{}},"items":{"patternProperties":{"^b":{},"^a":{}},"enum":[{"properties":1,"q":2}]}}`)
	want := map[string][]string{
		"/properties":              {"z", "$defs"},
		"/properties/z/properties": {"y", "x"},
		"/$defs":                   {"n", "m"},
		"/items/patternProperties": {"^b", "^a"},
	}
	v, order, ok := decodeOrdered(text)
	if got := orderByPointer(v, order); !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("decodeOrdered: order %v, %v; want %v", got, ok, want)
	}
	wv, _ := decodeDocument(text)
	order, dup := memberOrder(text, wv)
	if got := orderByPointer(wv, order); dup != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("memberOrder: order %v, %v; want %v", got, dup, want)
	}
}
