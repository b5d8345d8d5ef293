package mutants

import (
	"errors"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/normalize"
)

// A pass is one decoding pass over a string, in the text profile. It may
// fail, as Python's html.unescape does on a huge reference.
type pass func(s string) (string, error)

// decision says what the '&' at rest[0] stands for: the text it decodes
// to and the bytes it takes, n == 0 when the '&' is text. It is the
// reference's per-'&' decision (entity.Decide) or a mutant's variant.
type decision func(rest string) (repl string, n int, err error)

// scan makes a pass of a decision: every '&', left to right, is decided
// on, as the tokenizer does.
func scan(decide decision) pass {
	return func(s string) (string, error) {
		var b strings.Builder
		copied := 0
		for q := strings.IndexByte(s, '&'); q >= 0; {
			repl, n, err := decide(s[q:])
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

// tokenizer is the reference's decision in the text profile.
func tokenizer(rest string) (string, int, error) {
	r1, r2, n := entity.Decide([]byte(rest), entity.Text)
	if n == 0 {
		return "", 0, nil
	}
	b := utf8.AppendRune(nil, r1)
	if r2 != 0 {
		b = utf8.AppendRune(b, r2)
	}
	return string(b), n, nil
}

// semicolonOnly is the tokenizer's decision, but a reference without its
// trailing ';' stays text: &amp and &#38 are not decoded, &amp; is.
func semicolonOnly(rest string) (string, int, error) {
	repl, n, err := tokenizer(rest)
	if n > 0 && rest[n-1] != ';' {
		return "", 0, err
	}
	return repl, n, err
}

// errPython is what Python's int() raises on a decimal reference of more
// than 4,300 digits (sys.int_info.default_max_str_digits).
var errPython = errors.New("python raised: ValueError: Exceeds the limit (4300 digits) for integer string conversion")

const pythonMaxDigits = 4300

// python is the decision of Python's html.unescape (3.11). Named
// references decode as the tokenizer does (Python agrees there). Numeric
// ones agree too (0 and surrogates and values past U+10FFFF give U+FFFD,
// 0x80-0x9F map through windows-1252), except that the code points in
// Python's _invalid_codepoints (controls 0x01-0x08, 0x0B, 0x0E-0x1F, 0x7F,
// the noncharacters U+FDD0-U+FDEF and U+xFFFE/U+xFFFF) are dropped, and a
// decimal reference of more than 4,300 digits raises.
func python(rest string) (string, int, error) {
	repl, n, err := tokenizer(rest)
	if n == 0 || rest[1] != '#' {
		return repl, n, err
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

// referenceDecode is the reference's entity repair of one string.
func referenceDecode(s string, o impl.Options) (string, error) {
	d, _ := normalize.DecodeEntitiesWith(s, o.Normalize()...)
	return d, nil
}
