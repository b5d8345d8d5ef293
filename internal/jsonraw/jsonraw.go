// Package jsonraw scans JSON text (RFC 8259) in place, without building
// values, so that callers can keep every byte they do not change: number
// text, member order, duplicate members, string escapes.
//
// Strings are unquoted to WTF-8: valid UTF-8, except that an escaped lone
// surrogate (\ud800) becomes the three bytes a surrogate would take, so
// that [AppendQuote] can write it back as the escape it was.
package jsonraw

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// SyntaxError reports invalid JSON text at a byte offset.
type SyntaxError struct {
	Offset int    // byte offset in the text the scan was given
	Msg    string // what is wrong, e.g. "invalid character 'x' in string escape"
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.Msg, e.Offset) }

func errAt(i int, format string, args ...any) error {
	return &SyntaxError{Offset: i, Msg: fmt.Sprintf(format, args...)}
}

// Describe names the byte at b[i] for an error message.
func Describe(b []byte, i int) string {
	if i >= len(b) {
		return "end of input"
	}
	c := b[i]
	if c < utf8.RuneSelf {
		return fmt.Sprintf("character %q", c)
	}
	r, _ := utf8.DecodeRune(b[i:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte %#x", c)
	}
	return fmt.Sprintf("character %q", r)
}

// IsSpace reports whether c is JSON whitespace.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && IsSpace(b[i]) {
		i++
	}
	return i
}

// Flags says what a scanned string holds.
type Flags uint8

const (
	// Escaped is set when the string has a backslash escape.
	Escaped Flags = 1 << iota
	// EscapedAmp is set when the string has an '&' escaped as \u0026 (one
	// written as it is is the caller's to look for, with bytes.IndexByte).
	EscapedAmp
)

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// attention returns, for eight bytes of a string read as a little-endian
// word, a mask whose lowest set bit is the high bit of the first byte that
// is '"', '\\', a control character or not ASCII (higher set bits may be
// false), and 0 when none of the eight is. For an ASCII byte y, y - 1 has
// its high bit set only when y is 0, and y - 0x20 only when y < 0x20; a
// byte that is not ASCII is caught by x itself; and a borrow only carries
// upward from a byte that is caught.
func attention(x uint64) uint64 {
	quote := (x ^ (lsb * '"')) - lsb
	backslash := (x ^ (lsb * '\\')) - lsb
	control := x - lsb*0x20
	return (quote | backslash | control | x) & msb
}

// skipPlain returns the index of the first byte at or after i, and before
// i+16, that is '"', '\\', a control character or not ASCII, or -1 when
// there is none: the run of plain bytes is long.
func skipPlain(b []byte, i int) int {
	if i+16 <= len(b) {
		x, y := binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])
		if m := attention(x); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		if m := attention(y); m != 0 {
			return i + 8 + bits.TrailingZeros64(m)/8
		}
		return -1
	}
	for ; i < len(b); i++ {
		if c := b[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return i
		}
	}
	return i
}

// skipMedium is skipLong that first looks at up to 48 bytes a word at a
// time: a string's text is mostly shorter than that, and a word costs less
// than a call to bytes.IndexByte.
func skipMedium(b []byte, i int) int {
	for end := min(len(b), i+48) - 8; i <= end; i += 8 {
		if m := attention(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	return skipLong(b, i)
}

// skipLong returns the index of the first byte at or after i that is '"',
// '\\', a control character or not valid UTF-8, or len(b). It finds the
// next '"' and '\\' with bytes.IndexByte, which is vectorized, and checks
// the text before them for the rest a word at a time: for the long runs of
// text in strings. It looks a chunk at a time, so that the search for one
// of the two does not run far past the other; so it may also stop early at
// a character cut by the end of a chunk, which the caller then reads.
func skipLong(b []byte, i int) int {
	const chunk = 256
	for {
		end := min(len(b), i+chunk)
		lim := end
		if q := bytes.IndexByte(b[i:end], '"'); q >= 0 {
			lim = i + q
		}
		if k := bytes.IndexByte(b[i:lim], '\\'); k >= 0 {
			lim = i + k
		}
		if j := i + checkText(b[i:lim]); j < lim || lim < end || end == len(b) {
			return j
		}
		i = end
	}
}

// checkText returns the index of the first byte of s that is a control
// character or not valid UTF-8, or len(s).
func checkText(s []byte) int {
	i := 0
	for {
		for ; i+8 <= len(s); i += 8 {
			x := binary.LittleEndian.Uint64(s[i:])
			if m := (x - lsb*0x20 | x) & msb; m != 0 { // see attention
				i += bits.TrailingZeros64(m) / 8
				goto special
			}
		}
		for ; i < len(s) && 0x20 <= s[i] && s[i] < utf8.RuneSelf; i++ {
		}
		if i == len(s) {
			return i
		}
	special:
		switch c := s[i]; {
		case c < 0x20:
			return i
		case 0xC2 <= c && c <= 0xDF && i+1 < len(s) && s[i+1]&0xC0 == 0x80:
			i += 2 // two bytes, the most common non-ASCII
		case 0xE1 <= c && c <= 0xEF && c != 0xED && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80:
			i += 3 // three bytes, none of them a surrogate or overlong
		default:
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				return i
			}
			i += size
		}
	}
}

// ScanString scans the string whose opening quote is b[i] and returns the
// index just past its closing quote. It checks escapes, control characters
// and UTF-8.
func ScanString(b []byte, i int) (end int, f Flags, err error) {
	start := i
	i++
	for {
		// skipPlain, by hand: the call cost more than the rest of a key.
		if i+16 <= len(b) {
			x, y := binary.LittleEndian.Uint64(b[i:]), binary.LittleEndian.Uint64(b[i+8:])
			if m := attention(x); m != 0 {
				i += bits.TrailingZeros64(m) / 8
			} else if m := attention(y); m != 0 {
				i += 8 + bits.TrailingZeros64(m)/8
			} else {
				i = skipMedium(b, i+16)
			}
		} else {
			i = skipPlain(b, i)
		}
		if i >= len(b) {
			return 0, 0, errAt(start, "unterminated string")
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, f, nil
		case c == '\\':
			f |= Escaped
			if i+1 >= len(b) {
				return 0, 0, errAt(start, "unterminated string")
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				r, ok := hex4(b, i+2)
				if !ok {
					return 0, 0, errAt(i, "invalid \\u escape in string")
				}
				if r == '&' {
					f |= EscapedAmp
				}
				i += 6
			default:
				return 0, 0, errAt(i, "invalid escape \\%s in string", describeByte(b[i+1]))
			}
		case c < 0x20:
			return 0, 0, errAt(i, "control character %#02x in string (must be escaped)", c)
		case 0xC2 <= c && c <= 0xDF && i+1 < len(b) && b[i+1]&0xC0 == 0x80:
			i += 2 // two bytes, the most common non-ASCII
		case 0xE1 <= c && c <= 0xEF && c != 0xED && i+2 < len(b) && b[i+1]&0xC0 == 0x80 && b[i+2]&0xC0 == 0x80:
			i += 3 // three bytes, none of them a surrogate or overlong
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return 0, 0, errAt(i, "invalid UTF-8 byte %#x in string", c)
			}
			i += size
		}
	}
}

func describeByte(c byte) string {
	if c < utf8.RuneSelf && c >= 0x20 {
		return string(rune(c))
	}
	return fmt.Sprintf("%#x", c)
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// ScanNumber scans the number that starts at b[i] and returns the index
// just past it.
func ScanNumber(b []byte, i int) (int, error) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i)
	default:
		return 0, errAt(i, "invalid %s in number", Describe(b, i))
	}
	if i < len(b) && b[i] == '.' {
		i++
		j := digits(b, i)
		if j == i {
			return 0, errAt(i, "invalid %s after decimal point in number", Describe(b, i))
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, errAt(i, "invalid %s in exponent of number", Describe(b, i))
		}
		i = j
	}
	_ = start
	return i, nil
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// ScanLiteral scans true, false or null at b[i].
func ScanLiteral(b []byte, i int) (int, error) {
	for _, lit := range [...]string{"true", "false", "null"} {
		if b[i] == lit[0] {
			if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
				return i + len(lit), nil
			}
			return 0, errAt(i, "invalid literal (want %s)", lit)
		}
	}
	return 0, errAt(i, "invalid %s looking for beginning of value", Describe(b, i))
}

// Unquote appends to dst the value of the string whose raw text, between
// its quotes, is raw; raw must have passed [ScanString]. The value is
// WTF-8: a lone surrogate escape becomes the surrogate's three bytes.
func Unquote(dst, raw []byte) []byte {
	dst, _ = UnquotePrefix(dst, raw, len(raw))
	return dst
}

// UnquotePrefix is [Unquote] that stops once it has appended at least n
// bytes, at the end of an escape. It also returns how much of raw it
// read. It decodes escapes as nextEscape does, written out again: calling
// nextEscape (or a helper for \u alone) made BenchmarkUnquote/escapes
// 9 to 14% slower, and raw has passed ScanString, so nothing here fails.
func UnquotePrefix(dst, raw []byte, n int) ([]byte, int) {
	stop := len(dst) + n
	i := 0
	for i < len(raw) && len(dst) < stop {
		c := raw[i]
		if c != '\\' {
			j := bytes.IndexByte(raw[i:], '\\')
			if j < 0 {
				j = len(raw) - i
			}
			j = min(j, stop-len(dst))
			dst = append(dst, raw[i:i+j]...)
			i += j
			continue
		}
		switch raw[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := hex4(raw, i+2)
			i += 6
			if 0xD800 <= r && r < 0xDC00 && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
				if r2, ok := hex4(raw, i+2); ok && 0xDC00 <= r2 && r2 < 0xE000 {
					dst = utf8.AppendRune(dst, 0x10000+(r-0xD800)<<10+(r2-0xDC00))
					i += 6
					continue
				}
			}
			dst = appendWTF8(dst, r)
			continue
		default: // '"', '\\', '/'
			dst = append(dst, raw[i+1])
		}
		i += 2
	}
	return dst, i
}

func appendWTF8(dst []byte, r rune) []byte {
	if 0xD800 <= r && r < 0xE000 {
		return append(dst, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(dst, r)
}

const hexDigits = "0123456789abcdef"

// AppendQuote appends s, WTF-8, to dst as a JSON string. It escapes '"',
// '\\' and control characters (as \n, \t and the like where JSON has a
// short form, else \u00XX) and writes surrogates as \u escapes; all else,
// '&', '<', '>' and U+2028 included, is written as it is.
func AppendQuote(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != 0xED {
			i++
			continue
		}
		if c == 0xED { // U+D000..U+DFFF: a surrogate has a second byte >= 0xA0
			if i+2 < len(s) && s[i+1] >= 0xA0 {
				r := rune(0xD000) | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
				dst = append(dst, s[start:i]...)
				dst = append(dst, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
				i += 3
				start = i
				continue
			}
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Valid reports whether b is one JSON value with only whitespace around
// it. It keeps its own stack, so any depth is fine.
func Valid(b []byte) bool { return scanValue(b, false, 0) }

// Plain reports whether b is one JSON value written as compactly as JSON
// allows (no whitespace outside strings), with no escape in any string or
// key, and nested less deeply than maxDepth: text that a compact writer
// using [AppendQuote] gives back byte for byte, so that it can be sent as
// it is.
func Plain(b []byte, maxDepth int) bool { return scanValue(b, true, maxDepth) }

// scanValue is [Valid], or with plain [Plain].
func scanValue(b []byte, plain bool, maxDepth int) bool {
	space := func(i int) int {
		if plain {
			return i
		}
		return SkipSpace(b, i)
	}
	var stack []byte // '{' or '['
	i := space(0)
	for {
		// A value starts at b[i].
		if i >= len(b) {
			return false
		}
		var err error
		var f Flags
		switch c := b[i]; {
		case c == '{' || c == '[':
			j := space(i + 1)
			if j < len(b) && b[j] == c+2 { // '}' is '{'+2, ']' is '['+2
				i = j + 1
				break
			}
			if plain && len(stack) >= maxDepth-1 {
				return false
			}
			stack = append(stack, c)
			if c == '{' {
				if i, err = objectKey(b, j, plain); err != nil {
					return false
				}
			} else {
				i = j
			}
			continue
		case c == '"':
			i, f, err = ScanString(b, i)
			if plain && f&Escaped != 0 {
				return false
			}
		case c == '-' || '0' <= c && c <= '9':
			i, err = ScanNumber(b, i)
		default:
			i, err = ScanLiteral(b, i)
		}
		if err != nil {
			return false
		}
		// After a value: close containers, or go on to the next value.
		for {
			i = space(i)
			if len(stack) == 0 {
				return i == len(b)
			}
			if i >= len(b) {
				return false
			}
			top := stack[len(stack)-1]
			if b[i] == ',' {
				j := space(i + 1)
				if top == '{' {
					if j, err = objectKey(b, j, plain); err != nil {
						return false
					}
				}
				i = j
				break
			}
			if b[i] != top+2 {
				return false
			}
			stack = stack[:len(stack)-1]
			i++
		}
	}
}

// objectKey scans a key and its colon at b[i], returning where the value
// starts; with plain, the key has no escape and no whitespace is around the
// colon.
func objectKey(b []byte, i int, plain bool) (int, error) {
	if i >= len(b) || b[i] != '"' {
		return 0, errAt(i, "want a key")
	}
	i, f, err := ScanString(b, i)
	if err != nil {
		return 0, err
	}
	if plain && f&Escaped != 0 {
		return 0, errAt(i, "an escaped key")
	}
	if !plain {
		i = SkipSpace(b, i)
	}
	if i >= len(b) || b[i] != ':' {
		return 0, errAt(i, "want ':'")
	}
	if plain {
		return i + 1, nil
	}
	return SkipSpace(b, i+1), nil
}

// NextUnit reads one unit of a string whose raw text, past its opening
// quote, goes on at b[i]: a character as it is written, an escape, or a
// surrogate pair's two escapes. It appends the unit's value to dst as
// [Unquote] does and returns the index past it; at the closing quote it
// returns end true and the index past the quote. It refuses what
// [ScanString] refuses. Reading two strings unit by unit compares their
// values without reading either whole.
func NextUnit(dst, b []byte, i int) (out []byte, next int, end bool, err error) {
	if i >= len(b) {
		return dst, 0, false, errAt(i, "unterminated string")
	}
	switch c := b[i]; {
	case c == '"':
		return dst, i + 1, true, nil
	case c == '\\':
		return nextEscape(dst, b, i)
	case c < 0x20:
		return dst, 0, false, errAt(i, "control character %#02x in string (must be escaped)", c)
	case c < utf8.RuneSelf:
		return append(dst, c), i + 1, false, nil
	}
	r, size := utf8.DecodeRune(b[i:])
	if r == utf8.RuneError && size == 1 {
		return dst, 0, false, errAt(i, "invalid UTF-8 byte %#x in string", b[i])
	}
	return append(dst, b[i:i+size]...), i + size, false, nil
}

// nextEscape is NextUnit at a backslash.
func nextEscape(dst, b []byte, i int) ([]byte, int, bool, error) {
	if i+1 >= len(b) {
		return dst, 0, false, errAt(i, "unterminated string")
	}
	if k := strings.IndexByte(`"\/bfnrt`, b[i+1]); k >= 0 {
		return append(dst, "\"\\/\b\f\n\r\t"[k]), i + 2, false, nil
	}
	if b[i+1] != 'u' {
		return dst, 0, false, errAt(i, "invalid escape \\%s in string", describeByte(b[i+1]))
	}
	r, ok := hex4(b, i+2)
	if !ok {
		return dst, 0, false, errAt(i, "invalid \\u escape in string")
	}
	i += 6
	if 0xD800 <= r && r < 0xDC00 && i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
		if r2, ok := hex4(b, i+2); ok && 0xDC00 <= r2 && r2 < 0xE000 {
			return utf8.AppendRune(dst, 0x10000+(r-0xD800)<<10+(r2-0xDC00)), i + 6, false, nil
		}
	}
	return appendWTF8(dst, r), i, false, nil
}
