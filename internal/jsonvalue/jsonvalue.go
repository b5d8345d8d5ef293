// Package jsonvalue is an ordered JSON tree that loses nothing: member
// order and duplicates, number text, and lone surrogate escapes (strings
// are WTF-8, as in package jsonraw). It compares values as toolnorm
// compares implementations: numbers by exact decimal value, strings by
// value, objects member by member in order, arrays element by element.
package jsonvalue

import (
	"bytes"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
)

// Kind is the JSON type of a value.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Value is one JSON value.
type Value struct {
	Kind    Kind
	Bool    bool
	Number  string // the number's text, as written
	Str     string // the string's value, WTF-8
	Elems   []*Value
	Members []Member
}

// Member is one member of an object.
type Member struct {
	Key   string // WTF-8
	Value *Value
}

// MaxDepth is how deeply Parse lets arrays and objects nest.
const MaxDepth = 10000

// Parse parses b as one JSON value with whitespace around it.
func Parse(b []byte) (*Value, error) {
	p := parser{b: b}
	i := jsonraw.SkipSpace(b, 0)
	v, i, err := p.value(i, 0)
	if err != nil {
		return nil, err
	}
	if i = jsonraw.SkipSpace(b, i); i != len(b) {
		return nil, &jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("%s after the top-level value", jsonraw.Describe(b, i))}
	}
	return v, nil
}

type parser struct{ b []byte }

func (p *parser) fail(i int, what string) error {
	return &jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid %s %s", jsonraw.Describe(p.b, i), what)}
}

func (p *parser) value(i, depth int) (*Value, int, error) {
	b := p.b
	if i >= len(b) {
		return nil, 0, &jsonraw.SyntaxError{Offset: i, Msg: "unexpected end of input"}
	}
	switch c := b[i]; {
	case c == '"':
		end, _, err := jsonraw.ScanString(b, i)
		if err != nil {
			return nil, 0, err
		}
		return &Value{Kind: String, Str: string(jsonraw.Unquote(nil, b[i+1:end-1]))}, end, nil
	case c == '-' || '0' <= c && c <= '9':
		end, err := jsonraw.ScanNumber(b, i)
		if err != nil {
			return nil, 0, err
		}
		return &Value{Kind: Number, Number: string(b[i:end])}, end, nil
	case c == '{' || c == '[':
		if depth >= MaxDepth {
			return nil, 0, &jsonraw.SyntaxError{Offset: i, Msg: "nesting too deep"}
		}
		if c == '{' {
			return p.object(i, depth+1)
		}
		return p.array(i, depth+1)
	}
	end, err := jsonraw.ScanLiteral(b, i)
	if err != nil {
		return nil, 0, err
	}
	switch b[i] {
	case 't':
		return &Value{Kind: Bool, Bool: true}, end, nil
	case 'f':
		return &Value{Kind: Bool}, end, nil
	}
	return &Value{Kind: Null}, end, nil
}

func (p *parser) object(i, depth int) (*Value, int, error) {
	b := p.b
	v := &Value{Kind: Object, Members: []Member{}}
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return v, i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, 0, p.fail(i, "looking for beginning of object key string")
		}
		end, _, err := jsonraw.ScanString(b, i)
		if err != nil {
			return nil, 0, err
		}
		key := string(jsonraw.Unquote(nil, b[i+1:end-1]))
		i = jsonraw.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return nil, 0, p.fail(i, "after object key")
		}
		var m *Value
		if m, i, err = p.value(jsonraw.SkipSpace(b, i+1), depth); err != nil {
			return nil, 0, err
		}
		v.Members = append(v.Members, Member{key, m})
		i = jsonraw.SkipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return v, i + 1, nil
		}
		return nil, 0, p.fail(i, "after object member")
	}
}

func (p *parser) array(i, depth int) (*Value, int, error) {
	b := p.b
	v := &Value{Kind: Array, Elems: []*Value{}}
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return v, i + 1, nil
	}
	for {
		e, j, err := p.value(i, depth)
		if err != nil {
			return nil, 0, err
		}
		v.Elems = append(v.Elems, e)
		i = jsonraw.SkipSpace(b, j)
		if i < len(b) && b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return v, i + 1, nil
		}
		return nil, 0, p.fail(i, "after array element")
	}
}

// Append appends v as compact JSON: numbers as written, strings escaped
// as jsonraw.AppendQuote does.
func (v *Value) Append(dst []byte) []byte {
	switch v.Kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.Bool {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Number:
		return append(dst, v.Number...)
	case String:
		return jsonraw.AppendQuote(dst, []byte(v.Str))
	case Array:
		dst = append(dst, '[')
		for i, e := range v.Elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = e.Append(dst)
		}
		return append(dst, ']')
	}
	dst = append(dst, '{')
	for i, m := range v.Members {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonraw.AppendQuote(dst, []byte(m.Key))
		dst = append(dst, ':')
		dst = m.Value.Append(dst)
	}
	return append(dst, '}')
}

// Equal reports whether a and b are the same JSON value: numbers by exact
// decimal value (1.0 equals 1, 1e2 equals 100), strings by value, objects
// member by member in order, arrays element by element.
func Equal(a, b *Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Bool:
		return a.Bool == b.Bool
	case Number:
		return EqualNumbers(a.Number, b.Number)
	case String:
		return a.Str == b.Str
	case Array:
		if len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !Equal(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
	case Object:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for i, m := range a.Members {
			if m.Key != b.Members[i].Key || !Equal(m.Value, b.Members[i].Value) {
				return false
			}
		}
	}
	return true
}

// EqualJSON parses a and b and compares them with Equal.
func EqualJSON(a, b []byte) (bool, error) {
	// The same text is the same value, when it is JSON Parse reads: most
	// comparisons of a check are of two answers written alike. Valid
	// scans as Parse does but for its depth limit, which a text no longer
	// than MaxDepth cannot reach.
	if len(a) <= MaxDepth && bytes.Equal(a, b) && jsonraw.Valid(a) {
		return true, nil
	}
	va, err := Parse(a)
	if err != nil {
		return false, fmt.Errorf("first value: %w", err)
	}
	vb, err := Parse(b)
	if err != nil {
		return false, fmt.Errorf("second value: %w", err)
	}
	return Equal(va, vb), nil
}

// EqualNumbers reports whether two JSON number texts have the same exact
// decimal value.
func EqualNumbers(a, b string) bool {
	return a == b || parseDecimal(a).equal(parseDecimal(b))
}

// decimal is a number as sign, significant digits (no leading or trailing
// zeros) and the exponent of its last digit. Zero has no digits.
type decimal struct {
	neg    bool
	digits string
	exp    *big.Int
}

func parseDecimal(num string) decimal {
	d := decimal{exp: new(big.Int)}
	if strings.HasPrefix(num, "-") {
		d.neg, num = true, num[1:]
	}
	mant, expText, _ := strings.Cut(strings.ToLower(num), "e")
	if expText != "" {
		d.exp.SetString(strings.TrimPrefix(expText, "+"), 10)
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	d.exp.Sub(d.exp, big.NewInt(int64(len(frac))))
	trimmed := strings.TrimRight(digits, "0")
	d.exp.Add(d.exp, big.NewInt(int64(len(digits)-len(trimmed))))
	d.digits = strings.TrimLeft(trimmed, "0")
	if d.digits == "" {
		d.neg = false
		d.exp.SetInt64(0)
	}
	return d
}

func (d decimal) equal(e decimal) bool {
	return d.neg == e.neg && d.digits == e.digits && d.exp.Cmp(e.exp) == 0
}

// Member is v's member key (the first, when there are several), or nil
// when v is not an object or has none.
func (v *Value) Member(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// Resolve is the value a local reference ("#", "#/a/b", a JSON pointer in
// a URI fragment, not percent-decoded) names in the document v, or nil
// when it names none or is not local.
func (v *Value) Resolve(ref string) *Value {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || frag != "" && !strings.HasPrefix(frag, "/") {
		return nil
	}
	for _, tok := range PointerTokens(frag) {
		if v = v.Step(tok); v == nil {
			return nil
		}
	}
	return v
}

// PointerTokens is the reference tokens of the JSON Pointer ptr, their
// escapes undone; none for "", the whole document.
func PointerTokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(ptr, "/")[1:]
	for i, t := range toks {
		toks[i] = pointerUnescaper.Replace(t)
	}
	return toks
}

// pointerUnescaper undoes a JSON Pointer token's escapes (built once).
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// Step is v's child the reference token tok names: of an array, the
// element at the index tok writes in decimal (no sign, no leading zero);
// of an object, the member tok; nil when there is none.
func (v *Value) Step(tok string) *Value {
	if v != nil && v.Kind == Array {
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(v.Elems) || strconv.Itoa(i) != tok {
			return nil
		}
		return v.Elems[i]
	}
	return v.Member(tok)
}

// Depth is how deeply v's arrays and objects nest, v's own counted (a
// scalar is 0, [] is 1, [[1]] is 2): what a nesting limit counts.
func (v *Value) Depth() int {
	if v == nil {
		return 0
	}
	n := 0
	for _, m := range v.Members {
		n = max(n, m.Value.Depth())
	}
	for _, e := range v.Elems {
		n = max(n, e.Depth())
	}
	if v.Kind == Array || v.Kind == Object {
		n++
	}
	return n
}
