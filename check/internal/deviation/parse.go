package deviation

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// readJSON reads s as one JSON value, whitespace around it allowed, with
// reader r: nil when it does not parse. finite is false when the value
// holds a NaN or an infinity (which only the non-finite and lenient readers
// accept).
func readJSON(s string, r reader) (v *jsonvalue.Value, finite bool) {
	if r.loneEscapes && loneEscape(s) {
		return nil, true
	}
	if r.strict() {
		v, err := jsonvalue.Parse([]byte(s))
		if err != nil && r.trailingCommas {
			v, err = jsonvalue.Parse([]byte(trailingCommas.ReplaceAllString(s, "$1")))
		}
		if err != nil && r.firstValue {
			var first json.RawMessage
			if json.NewDecoder(strings.NewReader(s)).Decode(&first) == nil {
				v, err = jsonvalue.Parse(first)
			}
		}
		if err != nil {
			return nil, true
		}
		return v, true
	}
	p := &loose{s: s, r: r, finite: true}
	p.space()
	v = p.value(0)
	if v == nil {
		return nil, true
	}
	if p.space(); p.i != len(p.s) {
		return nil, true
	}
	return v, p.finite
}

// trailingCommas matches a comma that whitespace and then ] or } follow.
var trailingCommas = regexp.MustCompile(`,[ \t\r\n]*([\]}])`)

// loose reads JSON as the readers that accept more than RFC 8259 do:
// Python's json.loads (NaN, Infinity, -Infinity), and, when lenient, what
// JSON5 and Python literals add (single quotes, trailing commas, comments,
// bare keys, True, False and None, + and . in numbers, hexadecimal).
type loose struct {
	s      string
	i      int
	r      reader
	finite bool
}

const maxLooseDepth = 1000

func (p *loose) space() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case p.r.lenient && strings.HasPrefix(p.s[p.i:], "//"):
			if j := strings.IndexByte(p.s[p.i:], '\n'); j >= 0 {
				p.i += j + 1
			} else {
				p.i = len(p.s)
			}
		case p.r.lenient && strings.HasPrefix(p.s[p.i:], "/*"):
			j := strings.Index(p.s[p.i+2:], "*/")
			if j < 0 {
				return
			}
			p.i += j + 4
		default:
			return
		}
	}
}

func (p *loose) value(depth int) *jsonvalue.Value {
	if p.i >= len(p.s) || depth > maxLooseDepth {
		return nil
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"' || p.r.lenient && c == '\'':
		s, ok := p.str()
		if !ok {
			return nil
		}
		return &jsonvalue.Value{Kind: jsonvalue.String, Str: s}
	}
	for _, lit := range p.literals() {
		if lit.nonFinite && !p.r.nonFinite && !p.r.lenient {
			continue
		}
		if strings.HasPrefix(p.s[p.i:], lit.text) && !p.identAt(p.i+len(lit.text)) {
			p.i += len(lit.text)
			if lit.nonFinite {
				p.finite = false
			}
			v := lit.v
			return &v
		}
	}
	return p.number()
}

type literal struct {
	text      string
	v         jsonvalue.Value
	nonFinite bool
}

func (p *loose) literals() []literal {
	l := []literal{
		{text: "true", v: jsonvalue.Value{Kind: jsonvalue.Bool, Bool: true}},
		{text: "false", v: jsonvalue.Value{Kind: jsonvalue.Bool}},
		{text: "null", v: jsonvalue.Value{Kind: jsonvalue.Null}},
		{text: "NaN", v: jsonvalue.Value{Kind: jsonvalue.Number, Number: "0"}, nonFinite: true},
		{text: "Infinity", v: jsonvalue.Value{Kind: jsonvalue.Number, Number: "0"}, nonFinite: true},
		{text: "-Infinity", v: jsonvalue.Value{Kind: jsonvalue.Number, Number: "0"}, nonFinite: true},
	}
	if p.r.lenient {
		l = append(l,
			literal{text: "True", v: jsonvalue.Value{Kind: jsonvalue.Bool, Bool: true}},
			literal{text: "False", v: jsonvalue.Value{Kind: jsonvalue.Bool}},
			literal{text: "None", v: jsonvalue.Value{Kind: jsonvalue.Null}},
			literal{text: "+Infinity", v: jsonvalue.Value{Kind: jsonvalue.Number, Number: "0"}, nonFinite: true},
		)
	}
	return l
}

func (p *loose) identAt(i int) bool {
	if i >= len(p.s) {
		return false
	}
	c := p.s[i]
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func (p *loose) object(depth int) *jsonvalue.Value {
	v := &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}}
	p.i++
	for first := true; ; first = false {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' && (first || p.r.lenient) {
			p.i++
			return v
		}
		key, ok := p.key()
		if !ok {
			return nil
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil
		}
		p.i++
		p.space()
		e := p.value(depth + 1)
		if e == nil {
			return nil
		}
		v.Members = append(v.Members, jsonvalue.Member{Key: key, Value: e})
		p.space()
		switch {
		case p.i < len(p.s) && p.s[p.i] == ',':
			p.i++
		case p.i < len(p.s) && p.s[p.i] == '}':
			p.i++
			return v
		default:
			return nil
		}
	}
}

func (p *loose) key() (string, bool) {
	if p.i < len(p.s) && (p.s[p.i] == '"' || p.r.lenient && p.s[p.i] == '\'') {
		return p.str()
	}
	if !p.r.lenient {
		return "", false
	}
	j := p.i
	for j < len(p.s) && p.identAt(j) {
		j++
	}
	if j == p.i || '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		return "", false
	}
	k := p.s[p.i:j]
	p.i = j
	return k, true
}

func (p *loose) array(depth int) *jsonvalue.Value {
	v := &jsonvalue.Value{Kind: jsonvalue.Array, Elems: []*jsonvalue.Value{}}
	p.i++
	for first := true; ; first = false {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' && (first || p.r.lenient) {
			p.i++
			return v
		}
		e := p.value(depth + 1)
		if e == nil {
			return nil
		}
		v.Elems = append(v.Elems, e)
		p.space()
		switch {
		case p.i < len(p.s) && p.s[p.i] == ',':
			p.i++
		case p.i < len(p.s) && p.s[p.i] == ']':
			p.i++
			return v
		default:
			return nil
		}
	}
}

// str reads a quoted string with JSON's escapes (and \' when lenient).
func (p *loose) str() (string, bool) {
	q := p.s[p.i]
	var b strings.Builder
	for j := p.i + 1; j < len(p.s); {
		c := p.s[j]
		switch {
		case c == q:
			p.i = j + 1
			return b.String(), true
		case c < 0x20:
			return "", false
		case c >= 0x80:
			n, ok := p.char(j)
			if !ok {
				return "", false
			}
			b.WriteString(p.s[j : j+n])
			j += n
		case c != '\\':
			b.WriteByte(c)
			j++
		default:
			n, ok := p.escape(&b, j)
			if !ok {
				return "", false
			}
			j += n
		}
	}
	return "", false
}

// escapes are the one-character escapes and what they stand for.
var escapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape writes what the escape at s[j] stands for, and returns its
// length.
func (p *loose) escape(b *strings.Builder, j int) (int, bool) {
	if j+1 >= len(p.s) {
		return 0, false
	}
	e := p.s[j+1]
	if c, ok := escapes[e]; ok || e == '\'' && p.r.lenient {
		if !ok {
			c = e
		}
		b.WriteByte(c)
		return 2, true
	}
	if e != 'u' || j+6 > len(p.s) {
		return 0, false
	}
	x, err := strconv.ParseUint(p.s[j+2:j+6], 16, 32)
	if err != nil {
		return 0, false
	}
	r := rune(x)
	if 0xD800 <= r && r < 0xDC00 && j+12 <= len(p.s) && p.s[j+6:j+8] == `\u` {
		if y, err := strconv.ParseUint(p.s[j+8:j+12], 16, 32); err == nil && 0xDC00 <= y && y < 0xE000 {
			b.WriteRune((r-0xD800)<<10 | (rune(y) - 0xDC00) + 0x10000)
			return 12, true
		}
	}
	if 0xD800 <= r && r < 0xE000 {
		// A lone surrogate, kept as WTF-8 as jsonvalue keeps it.
		b.WriteString(string([]byte{0xED, byte(0xA0 | (r>>6)&0x1F), byte(0x80 | r&0x3F)}))
	} else {
		b.WriteRune(r)
	}
	return 6, true
}

// char returns the length of the UTF-8 character at s[j], which must be
// valid UTF-8, or, read with raw surrogates, a lone surrogate in WTF-8.
func (p *loose) char(j int) (int, bool) {
	r, n := utf8.DecodeRuneInString(p.s[j:])
	if r != utf8.RuneError || n > 1 {
		return n, true
	}
	if p.r.rawSurrogates && j+2 < len(p.s) && p.s[j] == 0xED && p.s[j+1] >= 0xA0 && p.s[j+1] <= 0xBF && p.s[j+2] >= 0x80 && p.s[j+2] <= 0xBF {
		return 3, true
	}
	return 0, false
}

// number reads a number, giving it JSON text.
func (p *loose) number() *jsonvalue.Value {
	j := p.i
	for j < len(p.s) && strings.IndexByte("+-0123456789.eExXabcdefABCDEF", p.s[j]) >= 0 {
		j++
	}
	text := p.s[p.i:j]
	if text == "" {
		return nil
	}
	if v, err := jsonvalue.Parse([]byte(text)); err == nil && v.Kind == jsonvalue.Number {
		p.i = j
		return v
	}
	if !p.r.lenient {
		return nil
	}
	t := strings.TrimPrefix(text, "+")
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	var out string
	switch {
	case strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X"):
		x, err := strconv.ParseUint(t[2:], 16, 64)
		if err != nil {
			return nil
		}
		out = strconv.FormatUint(x, 10)
	default:
		f, err := strconv.ParseFloat(t, 64)
		if err != nil || !utf8.ValidString(t) {
			return nil
		}
		out = strconv.FormatFloat(f, 'g', -1, 64)
	}
	if neg {
		out = "-" + out
	}
	p.i = j
	return &jsonvalue.Value{Kind: jsonvalue.Number, Number: out}
}

// loneEscape reports whether the JSON text s holds a \u escape of a
// surrogate that is not one of a pair.
func loneEscape(s string) bool {
	high := false // the escape before was a high surrogate's
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			if high {
				return true
			}
			continue
		}
		if s[i+1] != 'u' || i+6 > len(s) {
			if high {
				return true
			}
			i++
			continue
		}
		x, err := strconv.ParseUint(s[i+2:i+6], 16, 32)
		i += 5
		switch {
		case err != nil:
			high = false
		case 0xDC00 <= x && x <= 0xDFFF:
			if !high {
				return true
			}
			high = false
		case 0xD800 <= x && x <= 0xDBFF:
			if high {
				return true
			}
			high = true
		default:
			if high {
				return true
			}
		}
	}
	return high
}
