package deviation

import (
	"errors"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/normalize"
)

// A pass is one decoding pass over a string, in the text profile. It may
// fail, as Python's html.unescape does on a huge reference.
type pass func(s string) (string, error)

// names is how a decoder reads a named reference.
type names uint8

const (
	html5Names     names = iota // the HTML Standard's table, as the tokenizer reads it
	noNames                     // named references are text
	basicNames                  // &amp; &lt; &gt; &quot; &apos; only, with their ';'
	html4Names                  // HTML 4.01's 252 names, with their ';'
	caselessNames               // the tokenizer's, else a name of the table in another case
	nameOnlyLegacy              // a name without ';' only where the table has it so, never a prefix
	// anyNameBare: the tokenizer's, else the whole run of letters and
	// digits after '&' where the table has it with ';' (anyNamePrefix:
	// its longest start the table has so), decoded without the ';'
	anyNameBare
	anyNamePrefix
)

// numerics is how a decoder reads a numeric reference.
type numerics uint8

const (
	htmlNumerics   numerics = iota // the tokenizer's: windows-1252 mapped, U+FFFD for 0, surrogates, past U+10FFFF
	noNumerics                     // numeric references are text
	decimalOnly                    // &#x...; is text
	rawNumerics                    // the code point as it is; past U+10FFFF, text
	pythonNumerics                 // Python's html.unescape: some code points dropped
	keptNumerics                   // those HTML 4.01 disallows left as text, as PHP.s html_entity_decode does
	bmpNumerics                    // the tokenizer's code point, cut to its low 16 bits past U+FFFF (String.fromCharCode)
	hexLowerOnly                   // hexadecimal digits read as [0-9a-f]: an upper-case digit ends the reference
)

// decoder is a per-'&' decoding pass made of the policies real decoders
// choose: which names, which numeric references, whether the ';' is
// required. Its zero value is the tokenizer's pass.
type decoder struct {
	names     names
	numerics  numerics
	semicolon semicolons // which references need their ';'
}

// semicolons says which references a decoder decodes only with their ';'.
type semicolons int

const (
	semicolonAsHTML semicolons = iota // none: HTML decodes legacy names and numeric references without it
	semicolonAll                      // every reference
	semicolonNames                    // named references; numeric ones decode without it
)

// pass makes d a pass: every '&', left to right, is decided on, as the
// tokenizer does.
func (d decoder) pass() pass {
	return func(s string) (string, error) {
		var b strings.Builder
		copied := 0
		for q := strings.IndexByte(s, '&'); q >= 0; {
			repl, n, err := d.decide(s[q:])
			if err != nil {
				return "", err
			}
			if n == 0 {
				q = nextAmp(s, q+1)
				continue
			}
			b.WriteString(s[copied:q])
			b.WriteString(repl)
			copied = q + n
			q = nextAmp(s, q+n)
		}
		if copied == 0 {
			return s, nil
		}
		b.WriteString(s[copied:])
		return b.String(), nil
	}
}

func nextAmp(s string, from int) int {
	if i := strings.IndexByte(s[from:], '&'); i >= 0 {
		return from + i
	}
	return -1
}

// decide says what the '&' at rest[0] stands for: the text it decodes to
// and the bytes it takes, n == 0 when the '&' is text.
func (d decoder) decide(rest string) (string, int, error) {
	var repl string
	var n int
	var err error
	if len(rest) > 1 && rest[1] == '#' {
		repl, n, err = d.numeric(rest)
	} else {
		repl, n = d.named(rest)
	}
	if n > 0 && rest[n-1] != ';' && (d.semicolon == semicolonAll || d.semicolon == semicolonNames && rest[1] != '#') {
		return "", 0, err
	}
	return repl, n, err
}

func (d decoder) named(rest string) (string, int) {
	switch d.names {
	case noNames:
		return "", 0
	case basicNames:
		return tokenizerWith(rest, func(name string) bool { return basic[name] })
	case html4Names:
		return tokenizerWith(rest, func(name string) bool { _, ok := html4[name]; return ok })
	case anyNameBare, anyNamePrefix:
		if repl, n := tokenizer(rest); n > 0 {
			return repl, n
		}
		_, n := nameRun(rest)
		for j := n; j > 1; j-- {
			if repl, m := tokenizer(rest[:j] + ";"); m == j+1 {
				return repl, j
			}
			if d.names == anyNameBare {
				break
			}
		}
		return "", 0
	case nameOnlyLegacy:
		name, n := nameRun(rest)
		if n < len(rest) && rest[n] == ';' {
			if repl, m := tokenizer(rest[:n+1]); m == n+1 {
				return repl, m
			}
			return "", 0
		}
		if entity.IsLegacy(name) {
			return tokenizer(rest[:n])
		}
		return "", 0
	}
	repl, n := tokenizer(rest)
	if n > 0 || d.names != caselessNames {
		return repl, n
	}
	// A name the table lacks, looked up again in lower case, by the
	// tokenizer's rules.
	_, k := nameRun(rest)
	return tokenizer("&" + strings.ToLower(rest[1:k]) + rest[k:])
}

// basic are the names of a decoder's small table.
var basic = map[string]bool{"amp": true, "lt": true, "gt": true, "quot": true, "apos": true}

// tokenizerWith is the tokenizer's decision on a named reference with a
// table of the names in: the longest name of the run, with its ';', if
// in has it; else the longest name the HTML table allows without its
// ';' (a legacy name) that starts the run, if in has it.
func tokenizerWith(rest string, in func(name string) bool) (string, int) {
	name, n := nameRun(rest)
	if n < len(rest) && rest[n] == ';' && in(name) {
		if repl, m := tokenizer(rest[:n+1]); m == n+1 {
			return repl, m
		}
	}
	for j := n; j > 1; j-- {
		if in(rest[1:j]) && entity.IsLegacy(rest[1:j]) {
			return tokenizer(rest[:j])
		}
	}
	return "", 0
}

// nameRun returns the ASCII letters and digits after the '&' at rest[0],
// and where they end.
func nameRun(rest string) (string, int) {
	n := 1
	for n < len(rest) && isAlnum(rest[n]) {
		n++
	}
	return rest[1:n], n
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func (d decoder) numeric(rest string) (string, int, error) {
	hex := len(rest) > 2 && (rest[2] == 'x' || rest[2] == 'X')
	switch {
	case d.numerics == noNumerics, d.numerics == decimalOnly && hex:
		return "", 0, nil
	case d.numerics == pythonNumerics:
		return python(rest)
	case d.numerics == rawNumerics:
		return raw(rest, hex)
	case d.numerics == hexLowerOnly && hex:
		m := 3
		for m < len(rest) && ('0' <= rest[m] && rest[m] <= '9' || 'a' <= rest[m] && rest[m] <= 'f') {
			m++
		}
		if m == 3 {
			return "", 0, nil
		}
		if m < len(rest) && rest[m] == ';' {
			m++
		}
		repl, n := tokenizer(rest[:m])
		return repl, n, nil
	case d.numerics == keptNumerics:
		if _, n, _ := raw(rest, hex); n == 0 || disallowed(codePoint(rest, hex)) {
			return "", 0, nil
		}
	}
	repl, n := tokenizer(rest)
	if d.numerics == bmpNumerics && n > 0 {
		if r, size := utf8.DecodeRuneInString(repl); size == len(repl) && r > 0xFFFF {
			x := int(r) & 0xFFFF
			if 0xD800 <= x && x < 0xE000 { // a lone surrogate, as WTF-8
				return string([]byte{0xED, byte(0xA0 | (x>>6)&0x1F), byte(0x80 | x&0x3F)}), n, nil
			}
			return string(rune(x)), n, nil
		}
	}
	return repl, n, nil
}

// raw decodes a numeric reference to its code point as it is, as
// String.fromCodePoint or chr of the number does: no windows-1252, a
// surrogate kept (as WTF-8), past U+10FFFF left as text.
func raw(rest string, hex bool) (string, int, error) {
	start := 2
	if hex {
		start = 3
	}
	x, end := 0, start
	for ; end < len(rest); end++ {
		c := rest[end]
		d := -1
		switch {
		case '0' <= c && c <= '9':
			d = int(c - '0')
		case hex && 'a' <= c && c <= 'f':
			d = int(c-'a') + 10
		case hex && 'A' <= c && c <= 'F':
			d = int(c-'A') + 10
		}
		if d < 0 {
			break
		}
		if x <= 0x10FFFF {
			if hex {
				x = x*16 + d
			} else {
				x = x*10 + d
			}
		}
	}
	if end == start || x > 0x10FFFF {
		return "", 0, nil
	}
	n := end
	if n < len(rest) && rest[n] == ';' {
		n++
	}
	if 0xD800 <= x && x < 0xE000 {
		return string([]byte{0xED, byte(0xA0 | (x>>6)&0x1F), byte(0x80 | x&0x3F)}), n, nil
	}
	return string(rune(x)), n, nil
}

// codePoint is the value of the numeric reference at rest[0], saturated
// past U+10FFFF.
func codePoint(rest string, hex bool) int {
	start := 2
	if hex {
		start = 3
	}
	x := 0
	for _, c := range []byte(rest[start:]) {
		d := -1
		switch {
		case '0' <= c && c <= '9':
			d = int(c - '0')
		case hex && 'a' <= c && c <= 'f':
			d = int(c-'a') + 10
		case hex && 'A' <= c && c <= 'F':
			d = int(c-'A') + 10
		}
		if d < 0 {
			break
		}
		if x <= 0x10FFFF {
			if hex {
				x = x*16 + d
			} else {
				x = x*10 + d
			}
		}
	}
	return x
}

// disallowed reports whether a decoder that keeps what HTML 4.01 does not
// allow leaves a reference to x as text: the controls but tab, line feed
// and carriage return, 0x7F to 0x9F, the surrogates, past U+10FFFF.
func disallowed(x int) bool {
	switch {
	case x < 0x20:
		return x != 0x09 && x != 0x0A && x != 0x0D
	case 0x7F <= x && x <= 0x9F, 0xD800 <= x && x <= 0xDFFF:
		return true
	}
	return x > 0x10FFFF
}

// tokenizer is the reference's decision in the text profile.
func tokenizer(rest string) (string, int) {
	r1, r2, n := entity.Decide([]byte(rest), entity.Text)
	if n == 0 {
		return "", 0
	}
	b := utf8.AppendRune(nil, r1)
	if r2 != 0 {
		b = utf8.AppendRune(b, r2)
	}
	return string(b), n
}

// errPython is what Python's int() raises on a decimal reference of more
// than 4,300 digits (sys.int_info.default_max_str_digits).
var errPython = errors.New("python raised: ValueError: Exceeds the limit (4300 digits) for integer string conversion")

const pythonMaxDigits = 4300

// python is the decision of Python's html.unescape (3.11) on a numeric
// reference: as the tokenizer's (0 and surrogates and values past U+10FFFF
// give U+FFFD, 0x80-0x9F map through windows-1252), except that the code
// points in Python's _invalid_codepoints (controls 0x01-0x08, 0x0B,
// 0x0E-0x1F, 0x7F, the noncharacters U+FDD0-U+FDEF and U+xFFFE/U+xFFFF)
// are dropped, and a decimal reference of more than 4,300 digits raises.
func python(rest string) (string, int, error) {
	repl, n := tokenizer(rest)
	if n == 0 {
		return "", 0, nil
	}
	start, end, hex := 2, n, false // the digits are rest[start:end]
	if rest[2] == 'x' || rest[2] == 'X' {
		start, hex = 3, true
	}
	if rest[n-1] == ';' {
		end--
	}
	digits := rest[start:end]
	if !hex && len(digits) > pythonMaxDigits {
		return "", 0, errPython
	}
	x := 0
	for _, c := range []byte(digits) {
		if x > 0x10FFFF {
			break // the value no longer matters
		}
		d := int(c - '0')
		switch {
		case 'a' <= c && c <= 'f':
			d = int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			d = int(c-'A') + 10
		}
		if hex {
			x = x*16 + d
		} else {
			x = x*10 + d
		}
	}
	if pythonDrops(x) {
		return "", n, nil
	}
	return repl, n, nil
}

// pythonDrops reports whether x is in Python's html._invalid_codepoints
// and not one of its _invalid_charrefs (0x80-0x9F, which map through
// windows-1252 first).
func pythonDrops(x int) bool {
	switch {
	case 0x01 <= x && x <= 0x08, x == 0x0B, 0x0E <= x && x <= 0x1F, x == 0x7F:
		return true
	case 0xFDD0 <= x && x <= 0xFDEF:
		return true
	}
	return x <= 0x10FFFF && x&0xFFFE == 0xFFFE
}

// stdlib is the standard library's html.UnescapeString, which differs
// from the tokenizer: numeric references overflow int32 (&#4294967356; is
// '<'), a one-digit decimal reference needs its ';' (&#9 stays), &#x; is
// U+FFFD, and &nGt; and &nLt; are missing from its table.
func stdlib(s string) (string, error) { return html.UnescapeString(s), nil }

// hidden stands in for an '&' that a pass must not decode: no WTF-8 text,
// and no decoded reference, has the byte 0xFF.
const hidden = "\xff"

// inProfile runs a text-profile pass in the profile p. In the attribute
// profile, the '&'s the tokenizer keeps as text there (a legacy name
// without ';' before '=' or a letter or digit: "&region=") are hidden
// from the pass and put back after it. Hiding is exact: a decision reads
// an '&' after it only as "not a letter, digit, ';' or '='", as it does
// 0xFF, and strings keep their length.
func inProfile(p normalize.Profile, text pass) pass {
	if p != normalize.Attribute {
		return text
	}
	return func(s string) (string, error) {
		b := []byte(s)
		for q := range b {
			if b[q] == '&' {
				_, _, nt := entity.Decide(b[q:], entity.Text)
				_, _, na := entity.Decide(b[q:], entity.Attribute)
				if nt > 0 && na == 0 {
					b[q] = hidden[0]
				}
			}
		}
		out, err := text(string(b))
		return strings.ReplaceAll(out, hidden, "&"), err
	}
}

// fixpoint repeats pass until s stops changing, at most maxPasses times
// (0: no bound), as the reference does with its own pass.
func fixpoint(s string, p pass, maxPasses int) (string, error) {
	for passes := 0; maxPasses == 0 || passes < maxPasses; passes++ {
		next, err := p(s)
		if err != nil || next == s {
			return s, err
		}
		s = next
	}
	return s, nil
}
