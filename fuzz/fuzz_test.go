package normalize_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolnorm/toolnorm/normalize"
)

// fuzzSeeds are schema and argument pairs that reach every repair.
var fuzzSeeds = [][2]string{
	{`{"properties":{"title":{"type":"string"}}}`, `{"title":"Ember &amp;amp; Oak"}`},
	{`{"properties":{"tags":{"type":"array","items":{"type":"array"}}}}`, `{"tags":"[\"[1]\", \"&quot;\"]"}`},
	{`{"properties":{"ops":{"type":"array"}}}`, `{"ops":"{\"op\":\"add\"}"}`},
	{`{"properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"anyOf":[{"type":"object","properties":{"y":{"type":"array"}}},{"type":"null"}]}}}`, `{"a":"{\"y\":\"[1]\"}"}`},
	{`{"patternProperties":{"^l":{"type":["array","null"]}},"additionalProperties":{"type":"object"}}`, `{"l":"[&quot;a&quot;]","o":" {} ","n":12345678901234567890}`},
	{`{"properties":{"t":{"prefixItems":[{"type":"string"},{"type":"array"}]}}}`, `{"t":["[1]","[2]","\ud800&amp;"]}`},
	{`{}`, `{"u":"?a=1&region=eu&not=2","k&amp;":"&l&#116;;","d":1e400}`},
	{`{"allOf":[{"type":"object"}],"oneOf":[{"properties":{"a":{"type":"object"}}}]}`, `{"a":"{\"b\":[[[]]]}"}`},
	{`{}`, `[1]`},
	{`{"type":`, `{}`},
}

// FuzzNormalize feeds arbitrary bytes as schema and arguments: the result
// is never a panic, errors are typed and come without output, and output
// is JSON that normalizing again leaves as it is.
func FuzzNormalize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s[0]), []byte(s[1]), false, uint8(0))
	}
	f.Fuzz(func(t *testing.T, schemaText, args []byte, attribute bool, bound uint8) {
		profile := normalize.Text
		if attribute {
			profile = normalize.Attribute
		}
		s, err := normalize.Compile(schemaText, normalize.WithProfile(profile), normalize.WithMaxPasses(int(bound%3)), normalize.WithMaxDepth(50))
		if err != nil {
			var se *normalize.SchemaError
			if !errors.As(err, &se) || !errors.Is(err, normalize.ErrSchema) {
				t.Fatalf("Compile(%q) = %v, not a *SchemaError", schemaText, err)
			}
			return
		}
		out, repairs, err := s.NormalizeReport(args)
		if err != nil {
			var e *normalize.Error
			if out != nil || !errors.As(err, &e) ||
				!(errors.Is(err, normalize.ErrSyntax) || errors.Is(err, normalize.ErrNotObject) || errors.Is(err, normalize.ErrTooDeep)) {
				t.Fatalf("Normalize(%q) = %q, %v: want a typed *Error and no output", args, out, err)
			}
			if errors.Is(err, normalize.ErrSyntax) && json.Valid(args) && !bytes.ContainsRune(args, 0xFFFD) {
				// encoding/json accepts invalid UTF-8, which we reject; otherwise it agrees.
				t.Fatalf("Normalize(%q) says invalid JSON, encoding/json disagrees: %v", args, err)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Normalize(%q) = %q: not JSON", args, out)
		}
		if len(repairs) == 0 && !bytes.Equal(out, args) {
			t.Fatalf("Normalize(%q) = %q with no repair reported", args, out)
		}
		if bound%3 != 0 {
			return
		}
		again, err := s.Normalize(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n   args %q\n   once %q\n  twice %q, %v", args, out, again, err)
		}
	})
}
