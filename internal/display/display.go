// Package display shows values and messages exactly, in one line, for
// reports a person reads: a character one cannot see (U+00A0, a BOM, a
// control, a zero-width space) or that is not a character at all (a lone
// surrogate, a byte that is not UTF-8) is shown escaped, never raw; long
// text is cut with the count of what was cut; a JSON Pointer of a
// thousand segments keeps its ends.
//
// What it shows is for reading, not for parsing: a report's JSON form
// carries the values themselves.
package display

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// visible reports whether r is shown as itself: a graphic character that
// is not a space other than U+0020, and not U+FFFD (which would look like
// a byte that is not UTF-8).
func visible(r rune) bool {
	if r == ' ' {
		return true
	}
	if r == utf8.RuneError || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Co, r) ||
		// Default-ignorable characters that are not format characters
		// (a variation selector, U+034F, the Hangul fillers), and the
		// blank braille pattern, which looks like a space.
		unicode.In(r, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) || r == '\u2800' {
		return false
	}
	return unicode.IsGraphic(r)
}

// surrogate decodes a lone surrogate as WTF-8 encodes it (ED A0 80 to
// ED BF BF), which is how a JSON "\ud800" reaches a Go string.
func surrogate(s string) (rune, bool) {
	if len(s) < 3 || s[0] != 0xED || s[1] < 0xA0 || s[1] > 0xBF || s[2] < 0x80 || s[2] > 0xBF {
		return 0, false
	}
	return 0xD000 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
}

// escape appends s to dst with every character that is not visible
// escaped as JSON would write it (\n, \t, \u00a0, \ud800), bytes that are
// not UTF-8 as \xNN, and, when quote is set, '"' and '\' escaped too. With
// limit 0 or more it stops before a character whose escape would take dst
// past limit bytes; it returns how much of s it escaped. It never escapes
// more of s than it shows: a value of megabytes shown in 300 bytes costs
// 300 bytes of work.
//
// No line it shows acts as a CI workflow command (see command).
func escape(dst []byte, s string, quote bool, limit int) ([]byte, int) {
	i := 0
	lead := leading(dst)
	for i < len(s) {
		mark := len(dst)
		var n int
		if dst, n = command(dst, s[i:], lead); n == 0 {
			dst, n = escapeOne(dst, s[i:], quote)
		}
		if limit >= 0 && len(dst) > limit {
			return dst[:mark], i
		}
		lead = lead && s[i] == ' '
		i += n
	}
	return dst, i
}

// leading reports whether dst holds only spaces: what is appended to it
// may start a line, as far as a CI runner can tell.
func leading(dst []byte) bool {
	for _, c := range dst {
		if c != ' ' {
			return false
		}
	}
	return true
}

// command appends the first byte of s escaped, and returns 1, when
// showing it as it is would make a workflow command of the line: GitHub
// Actions acts on a line that starts with "::" (after spaces: lead says
// that nothing but spaces comes before s) or that holds "##[", instead of
// showing it. The first ':' is shown \u003a, the '[' \u005b. Else it
// returns 0 and dst as it was.
func command(dst []byte, s string, lead bool) ([]byte, int) {
	switch {
	case lead && strings.HasPrefix(s, "::"):
		return append(dst, `\u003a`...), 1
	case s[0] == '[' && len(dst) >= 2 && dst[len(dst)-1] == '#' && dst[len(dst)-2] == '#':
		return append(dst, `\u005b`...), 1
	}
	return dst, 0
}

const hexDigits = "0123456789abcdef"

// escapeOne appends the first character of s (or its first byte, when it
// is not UTF-8), escaped as escape says, and returns how many bytes of s
// it took.
func escapeOne(dst []byte, s string, quote bool) ([]byte, int) {
	if r, ok := surrogate(s); ok {
		return appendU(dst, r), 3
	}
	r, n := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && n == 1:
		return append(dst, '\\', 'x', hexDigits[s[0]>>4], hexDigits[s[0]&0xF]), 1
	case quote && (r == '"' || r == '\\'):
		return append(dst, '\\', byte(r)), n
	case r == '\n':
		return append(dst, '\\', 'n'), n
	case r == '\r':
		return append(dst, '\\', 'r'), n
	case r == '\t':
		return append(dst, '\\', 't'), n
	case !visible(r) && r > 0xFFFF:
		r1, r2 := utf16Pair(r)
		return appendU(appendU(dst, r1), r2), n
	case !visible(r):
		return appendU(dst, r), n
	}
	return append(dst, s[:n]...), n
}

// appendU appends r, at most 0xFFFF, as \uXXXX.
func appendU(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + r>>10&0x3FF, 0xDC00 + r&0x3FF
}

// Text shows free text (a message, an adapter's error, a line of its
// stderr) in one line: line breaks and every character one cannot see
// escaped, the rest as it is. What it shows is safe to print in a CI log,
// whatever comes before it on the line: it never starts with "::" (after
// spaces) and never holds "##[", which GitHub Actions would act on as a
// workflow command instead of showing (the first ':' is shown \u003a, the
// '[' \u005b). So is what every function of this package shows but Clip,
// Tail and Pointer, which take text already shown.
func Text(s string) string {
	b, _ := escape(make([]byte, 0, len(s)), s, false, -1)
	return string(b)
}

// Lines shows text of many lines that a program wrote (the end of an
// adapter's standard error) line by line, each line as Text shows it: none
// that a CI runner would take for a workflow command.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Text(l)
	}
	return strings.Join(lines, "\n")
}

// Quote shows a string value between double quotes, escaped as Text
// escapes it, and '"' and '\' too: the way JSON writes it, except that
// what one can see stays itself.
func Quote(s string) string {
	b, _ := escape(append(make([]byte, 0, len(s)+2), '"'), s, true, -1)
	return string(append(b, '"'))
}

// JSON shows JSON text in one line. Inside its strings, what one cannot
// see is escaped the way JSON allows (so the text shown is the same JSON
// value); line breaks and tabs between tokens become spaces; text that is
// not JSON is shown as Text shows it.
func JSON(raw []byte) string {
	b, _ := appendJSON(make([]byte, 0, len(raw)), string(raw), -1)
	return string(b)
}

// appendJSON appends s as JSON shows it, stopping as escape does at
// limit (when 0 or more), and returns how much of s it showed.
func appendJSON(dst []byte, s string, limit int) ([]byte, int) {
	in, esc := false, false
	lead := leading(dst)
	i := 0
	for i < len(s) {
		mark := len(dst)
		c := s[i]
		n := 1
		switch {
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		}
		if !in && (c == '\n' || c == '\r' || c == '\t') {
			dst = append(dst, ' ')
		} else if dst, n = command(dst, s[i:], lead); n == 0 {
			dst, n = escapeOne(dst, s[i:], false)
		}
		if limit >= 0 && len(dst) > limit {
			return dst[:mark], i
		}
		lead = lead && len(dst) == mark+1 && dst[mark] == ' '
		i += n
	}
	return dst, i
}

// ClipText is Clip(Text(s), n), without escaping more of s than it shows:
// the first n bytes or so of s as Text shows it, at a character boundary
// and never inside an escape, then how many bytes of s it left out. A
// value from an adapter or a corpus (an answer of megabytes) is shown
// through it, never escaped whole first.
func ClipText(s string, n int) string {
	n = max(n, 0)
	b, used := escape(make([]byte, 0, min(len(s), n)+32), s[:shown(len(s), n)], false, n)
	return clipped(b, len(s)-used)
}

// shown is how much of a value of size bytes n bytes can show: each byte
// shows as one byte or more, so n and the rest of a character (3 bytes)
// suffice, and the character cut there is never reached.
func shown(size, n int) int { return min(size, n+4) }

// ClipQuote is Clip(Quote(s), n), without escaping more of s than it
// shows, as ClipText.
func ClipQuote(s string, n int) string {
	n = max(n, 2)
	// The opening quote and what fits before the closing one.
	b, used := escape(append(make([]byte, 0, min(len(s), n)+32), '"'), s[:shown(len(s), n)], true, n-1)
	if used == len(s) {
		return string(append(b, '"'))
	}
	return clipped(b, len(s)-used)
}

// ClipJSON is Clip(JSON(raw), n), without escaping more of raw than it
// shows, as ClipText.
func ClipJSON(raw []byte, n int) string {
	n = max(n, 0)
	b, used := appendJSON(make([]byte, 0, min(len(raw), n)+32), string(raw[:shown(len(raw), n)]), n)
	return clipped(b, len(raw)-used)
}

// clipped is what ClipText and ClipJSON show: b, and the bytes left out.
func clipped(b []byte, left int) string {
	if left == 0 {
		return string(b)
	}
	return fmt.Sprintf("%s... (%d more bytes)", b, left)
}

// Clip cuts s, already shown, to at most n bytes, at a character
// boundary and never inside an escape, and says how much it cut. To show
// a value (an answer, a schema, an adapter's message), use ClipText or
// ClipJSON, which escape only what they show.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	// Do not end inside an escape such as \u00a0, \x80 or \\ (cutting
	// before the last backslash of the last 11 bytes, and the run of
	// backslashes it ends), nor between the two halves of a surrogate
	// pair, which would show a lone surrogate the value does not hold.
	if j := strings.LastIndexByte(s[max(0, i-11):i], '\\'); j >= 0 {
		i = max(0, i-11) + j
		for i > 0 && s[i-1] == '\\' {
			i--
		}
	}
	if i >= 6 && strings.HasPrefix(s[i:], `\ud`) && s[i-6] == '\\' && strings.HasPrefix(s[i-6:], `\ud`) {
		i -= 6
	}
	return fmt.Sprintf("%s... (%d more bytes)", s[:i], len(s)-i)
}

// Tail cuts s, already shown, to its last n bytes or so, at a line or a
// character boundary, and says how much it cut: for the end of a log,
// where the reason is.
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 && j < n/2 {
		i += j + 1
	}
	return fmt.Sprintf("(%d bytes before)\n%s", i, s[i:])
}

// Pointer shows a JSON Pointer, its segments cut to the first and last
// few when there are more than max.
func Pointer(p string, max int) string {
	segs := strings.Split(p, "/")[1:]
	if len(segs) <= max || max < 2 {
		return p
	}
	head, tail := segs[:max/2], segs[len(segs)-(max-max/2):]
	return "/" + strings.Join(head, "/") + fmt.Sprintf("/...(%d more segments).../", len(segs)-max) + strings.Join(tail, "/")
}
