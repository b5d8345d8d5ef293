package norm

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// A value is one JSON value as it was written. Scalars keep their source
// text; strings also carry their decoded value (WTF-8: a lone surrogate
// escape is held as its three-byte generalized UTF-8 form, so that it can be
// written back as the escape it was).
type value struct {
	kind    byte // '{', '[', '"', '0' (number), 't', 'f', 'n'
	raw     []byte
	str     string
	members []member
	elems   []*value
}

type member struct {
	rawKey []byte // the key as written, quotes and escapes included
	key    string // the decoded key
	val    *value
}

// A syntaxError says where the text stopped being JSON.
type syntaxError struct {
	msg string
	off int
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.off) }

var errTooDeep = errors.New("nesting too deep")

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// scan checks that text is exactly one JSON value (RFC 8259), with JSON
// whitespace around it, and returns how deeply its arrays and objects nest.
// It keeps no recursion, so that any depth can be checked.
func scan(text []byte) (int, error) {
	var stack []byte
	depth := 0
	i := 0
	skip := func() {
		for i < len(text) && isWS(text[i]) {
			i++
		}
	}
	fail := func(msg string) (int, error) { return 0, &syntaxError{msg, i} }
	// state: expecting a value
	expectValue := true
	for {
		skip()
		if expectValue {
			if i >= len(text) {
				return fail("unexpected end of JSON input")
			}
			switch c := text[i]; {
			case c == '{' || c == '[':
				stack = append(stack, c)
				if len(stack) > depth {
					depth = len(stack)
				}
				i++
				skip()
				if i < len(text) && ((c == '{' && text[i] == '}') || (c == '[' && text[i] == ']')) {
					stack = stack[:len(stack)-1]
					i++
					expectValue = false
					break
				}
				if c == '{' {
					if i >= len(text) || text[i] != '"' {
						return fail("expected a member name")
					}
					n, err := scanString(text, i)
					if err != nil {
						return 0, err
					}
					i = n
					skip()
					if i >= len(text) || text[i] != ':' {
						return fail("expected ':' after a member name")
					}
					i++
				}
				continue
			case c == '"':
				n, err := scanString(text, i)
				if err != nil {
					return 0, err
				}
				i = n
			case c == '-' || (c >= '0' && c <= '9'):
				n, err := scanNumber(text, i)
				if err != nil {
					return 0, err
				}
				i = n
			case c == 't':
				if !hasPrefix(text[i:], "true") {
					return fail("invalid literal")
				}
				i += 4
			case c == 'f':
				if !hasPrefix(text[i:], "false") {
					return fail("invalid literal")
				}
				i += 5
			case c == 'n':
				if !hasPrefix(text[i:], "null") {
					return fail("invalid literal")
				}
				i += 4
			default:
				return fail(fmt.Sprintf("invalid character %q looking for beginning of value", c))
			}
			expectValue = false
			continue
		}
		// after a value
		if len(stack) == 0 {
			if i != len(text) {
				return fail("invalid character after top-level value")
			}
			return depth, nil
		}
		if i >= len(text) {
			return fail("unexpected end of JSON input")
		}
		top := stack[len(stack)-1]
		switch text[i] {
		case ',':
			i++
			if top == '{' {
				skip()
				if i >= len(text) || text[i] != '"' {
					return fail("expected a member name")
				}
				n, err := scanString(text, i)
				if err != nil {
					return 0, err
				}
				i = n
				skip()
				if i >= len(text) || text[i] != ':' {
					return fail("expected ':' after a member name")
				}
				i++
			}
			expectValue = true
		case '}':
			if top != '{' {
				return fail("unexpected '}'")
			}
			stack = stack[:len(stack)-1]
			i++
		case ']':
			if top != '[' {
				return fail("unexpected ']'")
			}
			stack = stack[:len(stack)-1]
			i++
		default:
			return fail(fmt.Sprintf("invalid character %q after a value", text[i]))
		}
	}
}

func hasPrefix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[:len(s)]) == s
}

// scanString checks the string that starts at text[i] (a quote) and returns
// the offset just after it.
func scanString(text []byte, i int) (int, error) {
	i++
	for i < len(text) {
		c := text[i]
		switch {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			if i+1 >= len(text) {
				return 0, &syntaxError{"unexpected end of string", i}
			}
			switch text[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(text) {
					return 0, &syntaxError{"short unicode escape", i}
				}
				for _, h := range text[i+2 : i+6] {
					if hexVal(h) < 0 {
						return 0, &syntaxError{"invalid unicode escape", i}
					}
				}
				i += 6
			default:
				return 0, &syntaxError{"invalid escape", i}
			}
		case c < 0x20:
			return 0, &syntaxError{"control character in string", i}
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(text[i:])
			if r == utf8.RuneError && n <= 1 {
				return 0, &syntaxError{"invalid UTF-8", i}
			}
			i += n
		}
	}
	return 0, &syntaxError{"unexpected end of string", i}
}

func scanNumber(text []byte, i int) (int, error) {
	start := i
	if text[i] == '-' {
		i++
	}
	if i >= len(text) {
		return 0, &syntaxError{"invalid number", start}
	}
	switch {
	case text[i] == '0':
		i++
	case text[i] >= '1' && text[i] <= '9':
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			i++
		}
	default:
		return 0, &syntaxError{"invalid number", start}
	}
	if i < len(text) && text[i] == '.' {
		i++
		d := i
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			i++
		}
		if i == d {
			return 0, &syntaxError{"invalid number", start}
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			i++
		}
		d := i
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			i++
		}
		if i == d {
			return 0, &syntaxError{"invalid number", start}
		}
	}
	return i, nil
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// build turns text, already checked by scan, into a tree of values.
type builder struct {
	text []byte
	i    int
}

func parse(text []byte) (*value, error) {
	if _, err := scan(text); err != nil {
		return nil, err
	}
	b := &builder{text: text}
	return b.value(), nil
}

func (b *builder) ws() {
	for b.i < len(b.text) && isWS(b.text[b.i]) {
		b.i++
	}
}

func (b *builder) value() *value {
	b.ws()
	t := b.text
	start := b.i
	switch c := t[b.i]; {
	case c == '{':
		v := &value{kind: '{'}
		b.i++
		b.ws()
		if t[b.i] == '}' {
			b.i++
			return v
		}
		for {
			b.ws()
			ks := b.i
			n, _ := scanString(t, b.i)
			b.i = n
			rawKey := t[ks:n]
			b.ws()
			b.i++ // ':'
			val := b.value()
			v.members = append(v.members, member{rawKey: rawKey, key: decodeString(rawKey), val: val})
			b.ws()
			if t[b.i] == ',' {
				b.i++
				continue
			}
			b.i++ // '}'
			return v
		}
	case c == '[':
		v := &value{kind: '['}
		b.i++
		b.ws()
		if t[b.i] == ']' {
			b.i++
			return v
		}
		for {
			v.elems = append(v.elems, b.value())
			b.ws()
			if t[b.i] == ',' {
				b.i++
				continue
			}
			b.i++ // ']'
			return v
		}
	case c == '"':
		n, _ := scanString(t, b.i)
		b.i = n
		return &value{kind: '"', raw: t[start:n], str: decodeString(t[start:n])}
	case c == 't':
		b.i += 4
		return &value{kind: 't', raw: t[start:b.i]}
	case c == 'f':
		b.i += 5
		return &value{kind: 'f', raw: t[start:b.i]}
	case c == 'n':
		b.i += 4
		return &value{kind: 'n', raw: t[start:b.i]}
	default:
		n, _ := scanNumber(t, b.i)
		b.i = n
		return &value{kind: '0', raw: t[start:n]}
	}
}

// decodeString decodes a JSON string literal (quotes included) into
// WTF-8: escaped surrogate pairs combine, a lone surrogate escape stays a
// lone surrogate.
func decodeString(raw []byte) string {
	s := raw[1 : len(raw)-1]
	simple := true
	for _, c := range s {
		if c == '\\' {
			simple = false
			break
		}
	}
	if simple {
		return string(s)
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch s[i+1] {
		case '"':
			out = append(out, '"')
		case '\\':
			out = append(out, '\\')
		case '/':
			out = append(out, '/')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(s[i+2 : i+6])
			if r >= 0xD800 && r <= 0xDBFF && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
				r2 := hex4(s[i+8 : i+12])
				if r2 >= 0xDC00 && r2 <= 0xDFFF {
					out = utf8.AppendRune(out, 0x10000+(r-0xD800)<<10+(r2-0xDC00))
					i += 12
					continue
				}
			}
			out = appendWTF8(out, r)
			i += 6
			continue
		}
		i += 2
	}
	return string(out)
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r = r<<4 | rune(hexVal(c))
	}
	return r
}

// appendWTF8 appends r, writing a surrogate code point in the three-byte
// form UTF-8 would give it.
func appendWTF8(out []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(out, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(out, r)
}

// appendQuoted writes s (WTF-8) as a JSON string: only '"', '\' and control
// characters are escaped, and a lone surrogate is written as its escape.
func appendQuoted(out []byte, s string) []byte {
	out = append(out, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			out = append(out, '\\', '"')
		case c == '\\':
			out = append(out, '\\', '\\')
		case c == '\n':
			out = append(out, '\\', 'n')
		case c == '\r':
			out = append(out, '\\', 'r')
		case c == '\t':
			out = append(out, '\\', 't')
		case c == '\b':
			out = append(out, '\\', 'b')
		case c == '\f':
			out = append(out, '\\', 'f')
		case c < 0x20:
			out = fmt.Appendf(out, "\\u%04x", c)
		case c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF:
			r := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			out = fmt.Appendf(out, "\\u%04x", r)
			i += 3
			continue
		default:
			out = append(out, c)
		}
		i++
	}
	return append(out, '"')
}

// write appends v as compact JSON, keeping the source text of its scalars.
func (v *value) write(out []byte) []byte {
	switch v.kind {
	case '{':
		out = append(out, '{')
		for i, m := range v.members {
			if i > 0 {
				out = append(out, ',')
			}
			out = append(out, m.rawKey...)
			out = append(out, ':')
			out = m.val.write(out)
		}
		return append(out, '}')
	case '[':
		out = append(out, '[')
		for i, e := range v.elems {
			if i > 0 {
				out = append(out, ',')
			}
			out = e.write(out)
		}
		return append(out, ']')
	case '"':
		if v.raw != nil {
			return append(out, v.raw...)
		}
		return appendQuoted(out, v.str)
	}
	return append(out, v.raw...)
}
