package harness

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// TestRequestAsIs holds the request line of a case sent as it is to the
// line written from the parsed case: the same bytes, or the same error,
// for every text asIs lets through; and asIs lets through only compact
// JSON without escapes.
func TestRequestAsIs(t *testing.T) {
	tests := []struct {
		text string
		asIs bool
	}{
		{`{}`, true},
		{`[]`, true},
		{`{"a":[1,-2.5e+3,true,false,null,{"b":"&amp;"}],"c":{}}`, true},
		{`"x"`, true},
		{`0`, true},
		{`{"a":"é \u00e9"}`, false}, // an escape AppendQuote does not write: written from its value
		{`{"a":"\u0026"}`, false},
		{`{"a":"\/"}`, false},
		{`{"a":"\u001F"}`, false},
		{`"\uD800"`, false},
		{`{"a":"\"", "b":1}`, false},
		{`{"a\n":1}`, true}, // escapes as AppendQuote writes them
		{`{"a":"\""}`, true},
		{`{"a":"\\ \b\f\n\r\t \u001f \ud800"}`, true},
		{`{"a":"\u0026","b":"\""}`, false},
		{`{"a":"\"","b":"\u0026"}`, false},
		{`{ "a":1}`, false},
		{`{"a" :1}`, false},
		{`[1, 2]`, false},
		{` {}`, false},
		{`{}` + "\n", false},
		{`{"a":1,}`, false},
		{`[1,]`, false},
		{`{"a":01}`, false},
		{`{"a":tru}`, false},
		{`{"a":"` + "\xff" + `"}`, false},
		{`{"a":"` + "\x01" + `"}`, false},
		{`{"a":1}{}`, false},
		{`{"a"}`, false},
		{`[`, false},
		{``, false},
		{strings.Repeat("[", jsonvalue.MaxDepth+1) + strings.Repeat("]", jsonvalue.MaxDepth+1), false}, // deeper than Parse takes
		{strings.Repeat("[", jsonvalue.MaxDepth-2) + "1" + strings.Repeat("]", jsonvalue.MaxDepth-2), true},
		{strings.Repeat("[", jsonvalue.MaxDepth-1) + `"\n"` + strings.Repeat("]", jsonvalue.MaxDepth-1), true},
		{strings.Repeat("[", jsonvalue.MaxDepth) + `"\n"` + strings.Repeat("]", jsonvalue.MaxDepth), false},
		{strings.Repeat("[", jsonvalue.MaxDepth+1) + `"\n"` + strings.Repeat("]", jsonvalue.MaxDepth+1), false},
	}
	for _, tt := range tests {
		if got := asIs([]byte(tt.text)); got != tt.asIs {
			t.Errorf("asIs(%.60q) = %v, want %v", tt.text, got, tt.asIs)
		}
		sameRequest(t, []byte(`{"type":"object"}`), []byte(tt.text))
		sameRequest(t, []byte(tt.text), []byte(`{}`))
	}
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, v := range vectors {
		if asIs(v.SchemaText()) && asIs(v.ArgumentsText()) {
			sent++
		}
		sameRequest(t, v.SchemaText(), v.ArgumentsText())
	}
	t.Logf("%d of %d vectors sent as they are", sent, len(vectors))
}

// TestRequestAsIsMutated holds the request line made from the text as it
// is to the line written from the parsed text, for every text one byte
// away from a few.
func TestRequestAsIsMutated(t *testing.T) {
	for _, s := range []string{`{"a":"\"","b":[1,-2.5e+3,true,null]}`, `{"a":"\u0026\n"}`, `[1, 2]`, `{"a\n":{}}`, `"\ud800\udc00"`} {
		for _, m := range mutations([]byte(s)) {
			sameRequest(t, []byte(`{}`), m)
			sameRequest(t, m, []byte(`{}`))
		}
	}
}

func sameRequest(t *testing.T, schema, args []byte) {
	t.Helper()
	got, err := request(7, schema, args)
	want, werr := requestParsed(7, schema, args)
	if (err != nil) != (werr != nil) || (err != nil && err.Error() != werr.Error()) || !bytes.Equal(got, want) {
		t.Errorf("request(%.60q, %.60q) = %.100q, %v; parsed: %.100q, %v", schema, args, got, err, want, werr)
	}
}
