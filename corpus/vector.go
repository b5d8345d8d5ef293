package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// Vector is one case: a schema, the arguments a model sent, and what the
// tool must receive, or the error an implementation must report.
type Vector struct {
	// ID is derived from the content (see [ComputeID]): the schema, the
	// arguments and the options.
	ID string `json:"id"`
	// Description says in one line what the case shows.
	Description string `json:"description"`
	// Clause is what the case exercises: "rule/1" to "rule/5" for the
	// clauses of RT-TOOL-8, "reading/1" to "reading/8" for the sections
	// of docs/readings.md, or "found" for a finding not yet classified.
	Clause string   `json:"clause"`
	Tags   []string `json:"tags,omitempty"`
	// Origin says where the case comes from: "hand", "html5lib", "found"
	// (by toolnorm's properties or fuzzing), or "imported".
	Origin  string  `json:"origin"`
	Options Options `json:"options,omitzero"`

	// The schema, the arguments and the expected arguments, each as an
	// embedded JSON value or, where a generic JSON reader would lose
	// something (number text past float64, duplicate keys, lone
	// surrogates) or the text is not JSON at all, as a string holding the
	// exact text (the _raw forms). Exactly one form of each is present;
	// Expected and ExpectedRaw are absent when Error is set.
	Schema       json.RawMessage `json:"schema,omitempty"`
	SchemaRaw    *string         `json:"schema_raw,omitempty"`
	Arguments    json.RawMessage `json:"arguments,omitempty"`
	ArgumentsRaw *string         `json:"arguments_raw,omitempty"`
	Expected     json.RawMessage `json:"expected,omitempty"`
	ExpectedRaw  *string         `json:"expected_raw,omitempty"`
	// Error is the kind of error expected instead of output.
	Error string `json:"error,omitempty"`

	// File is the file the vector was read from, relative to the corpus
	// directory (not part of the format).
	File string `json:"-"`
}

var errorKinds = map[string]bool{ErrInvalidJSON: true, ErrNotObject: true, ErrTooDeep: true, ErrInvalidSchema: true}

// SchemaText returns the schema's JSON text.
func (v *Vector) SchemaText() []byte { return text(v.Schema, v.SchemaRaw) }

// ArgumentsText returns the arguments' text, as sent.
func (v *Vector) ArgumentsText() []byte { return text(v.Arguments, v.ArgumentsRaw) }

// ExpectedText returns the expected arguments' text (nil when an error is
// expected).
func (v *Vector) ExpectedText() []byte { return text(v.Expected, v.ExpectedRaw) }

// text returns a raw form as it is, and an embedded one compacted (its
// indentation in the file is not part of the case).
func text(embedded json.RawMessage, raw *string) []byte {
	if raw != nil {
		return []byte(*raw)
	}
	if embedded == nil {
		return nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, embedded); err != nil {
		return embedded
	}
	return b.Bytes()
}

// ComputeID returns the ID of a vector with this content: the first 16 hex
// digits of the SHA-256 of the schema and the arguments (each compacted
// where it is JSON, as it is where not) and the options.
func ComputeID(schema, args []byte, o Options) string {
	h := sha256.New()
	fmt.Fprintf(h, "toolnorm corpus v1\x00%s\x00%d\x00%d\x00", profile(o), o.MaxPasses, o.MaxDepth)
	h.Write(canonical(schema))
	h.Write([]byte{0})
	h.Write(canonical(args))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func profile(o Options) string {
	if o.Profile == "" {
		return "text"
	}
	return o.Profile
}

func canonical(b []byte) []byte {
	v, err := jsonvalue.Parse(b)
	if err != nil {
		return b
	}
	return v.Append(nil)
}

// SetText stores text in the embedded form when a generic JSON reader
// keeps all of it, else in the raw form.
func setText(embedded *json.RawMessage, raw **string, b []byte) {
	if v, err := jsonvalue.Parse(b); err == nil && portable(v) {
		*embedded, *raw = json.RawMessage(v.Append(nil)), nil
		return
	}
	s := string(b)
	*embedded, *raw = nil, &s
}

// portable reports whether a generic JSON reader (Python's json, JSON.parse,
// PHP's json_decode) reads v without loss: no duplicate keys, no lone
// surrogates, and numbers that survive float64.
func portable(v *jsonvalue.Value) bool {
	switch v.Kind {
	case jsonvalue.Number:
		return exactFloat(v.Number)
	case jsonvalue.String:
		return utf8.ValidString(v.Str)
	case jsonvalue.Array:
		for _, e := range v.Elems {
			if !portable(e) {
				return false
			}
		}
	case jsonvalue.Object:
		seen := map[string]bool{}
		for _, m := range v.Members {
			if seen[m.Key] || !utf8.ValidString(m.Key) || !portable(m.Value) {
				return false
			}
			seen[m.Key] = true
		}
	}
	return true
}

// exactFloat reports whether the number reads back as the same value
// from a float64, as JSON readers in most languages hold numbers.
func exactFloat(num string) bool {
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(f, 0) {
		return false
	}
	return jsonvalue.EqualNumbers(num, strconv.FormatFloat(f, 'g', -1, 64))
}

// quoteWTF8 quotes a Go string as a JSON string, keeping invalid bytes as
// they are (the result is then not valid JSON text, as the input was not
// valid text either).
func quoteWTF8(s string) []byte {
	return jsonraw.AppendQuote(nil, []byte(s))
}
