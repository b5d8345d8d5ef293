package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
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
	// exact text (the _raw forms), or, for text that is not even UTF-8
	// and so cannot be a JSON string, as its bytes in standard base64
	// (the _base64 forms). Exactly one form of each is present; the
	// expected forms are absent when Error is set.
	Schema          json.RawMessage `json:"schema,omitempty"`
	SchemaRaw       *string         `json:"schema_raw,omitempty"`
	SchemaBase64    *string         `json:"schema_base64,omitempty"`
	Arguments       json.RawMessage `json:"arguments,omitempty"`
	ArgumentsRaw    *string         `json:"arguments_raw,omitempty"`
	ArgumentsBase64 *string         `json:"arguments_base64,omitempty"`
	Expected        json.RawMessage `json:"expected,omitempty"`
	ExpectedRaw     *string         `json:"expected_raw,omitempty"`
	// Error is the kind of error expected instead of output.
	Error ErrorKind `json:"error,omitempty"`

	// File is the file the vector was read from, relative to the corpus
	// directory (not part of the format).
	File string `json:"-"`
}

// SchemaText returns the schema's JSON text.
func (v *Vector) SchemaText() []byte { return text(v.Schema, v.SchemaRaw, v.SchemaBase64) }

// ArgumentsText returns the arguments' text, as sent.
func (v *Vector) ArgumentsText() []byte { return text(v.Arguments, v.ArgumentsRaw, v.ArgumentsBase64) }

// ExpectedText returns the expected arguments' text (nil when an error is
// expected).
func (v *Vector) ExpectedText() []byte { return text(v.Expected, v.ExpectedRaw, nil) }

// text returns a raw or base64 form as it is, and an embedded one
// compacted (its indentation in the file is not part of the case).
func text(embedded json.RawMessage, raw, b64 *string) []byte {
	if b64 != nil {
		b, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			return nil
		}
		return b
	}
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
	fmt.Fprintf(h, "toolnorm corpus v1\x00%s\x00%d\x00%d\x00", o.Profile, o.MaxPasses, o.MaxDepth)
	if o.Depth != normalize.EveryDepth { // absent before depth was an option: ids stay
		fmt.Fprintf(h, "depth %s\x00", o.Depth)
	}
	if o.Repairs != normalize.AllRepairs { // likewise
		fmt.Fprintf(h, "repairs %s\x00", o.Repairs)
	}
	h.Write(canonical(schema))
	h.Write([]byte{0})
	h.Write(canonical(args))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func canonical(b []byte) []byte {
	v, err := jsonvalue.Parse(b)
	if err != nil {
		return b
	}
	return v.Append(nil)
}

// setText stores text in the embedded form when a generic JSON reader
// keeps all of it, in the raw form when it is UTF-8, and else in base64.
func setText(embedded *json.RawMessage, raw, b64 **string, b []byte) {
	*embedded, *raw = nil, nil
	if b64 != nil {
		*b64 = nil
	}
	if v, err := jsonvalue.Parse(b); err == nil && portable(v) {
		*embedded = json.RawMessage(v.Append(nil))
		return
	}
	if !utf8.Valid(b) && b64 != nil {
		s := base64.StdEncoding.EncodeToString(b)
		*b64 = &s
		return
	}
	s := string(b)
	*raw = &s
}

// portableDepth is how deeply embedded values may nest: Python's json
// reader recurses, and fails past about a thousand levels; PHP's
// json_decode stops at 512 by default, and jq 1.6 (Debian 12's, Ubuntu
// 22.04's) at 256, which a check report's vectors, five levels into the
// report, must stay under too.
const portableDepth = 200

// portable reports whether a generic JSON reader (Python's json, JSON.parse,
// PHP's json_decode) reads v without loss: no duplicate keys, no lone
// surrogates, numbers that survive float64, and modest nesting.
func portable(v *jsonvalue.Value) bool { return portableAt(v, 0) }

func portableAt(v *jsonvalue.Value, depth int) bool {
	switch v.Kind {
	case jsonvalue.Number:
		return exactFloat(v.Number)
	case jsonvalue.String:
		return utf8.ValidString(v.Str)
	case jsonvalue.Array:
		if depth >= portableDepth {
			return false
		}
		for _, e := range v.Elems {
			if !portableAt(e, depth+1) {
				return false
			}
		}
	case jsonvalue.Object:
		if depth >= portableDepth {
			return false
		}
		seen := map[string]bool{}
		for _, m := range v.Members {
			if seen[m.Key] || !utf8.ValidString(m.Key) || !portableAt(m.Value, depth+1) {
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
