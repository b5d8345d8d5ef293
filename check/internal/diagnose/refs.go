package diagnose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/schemaview"
)

// text diagnoses two strings that differ: want is the expected string,
// got the given one, in the input string (nil when the string was decoded
// from JSON text).
func (d *differ) text(in *jsonvalue.Value, want, got string, path []schemaview.Step) Diagnosis {
	mode := d.mode()
	src := want
	if in != nil && in.Kind == jsonvalue.String {
		src = in.Str
	}
	// Decoding stopped a pass or more short of the fixpoint.
	if got != src && got != want && strings.Contains(got, "&") {
		if rest, _ := entity.Decode([]byte(got), mode, 0); passesTo(src, got, mode) && string(rest) == want {
			if d.c.MaxPasses == 0 || passes(src, got, mode) < d.c.MaxPasses {
				return Diagnosis{Class: "no-fixpoint", Title: "Character references are decoded once, not until the value stops changing (`&amp;amp;` gives `&amp;`)", Clause: "rule/4"}
			}
		}
	}
	p := commonPrefix(want, got)
	// A reference left in got that want decodes.
	if a := refAround(got, p, mode); a >= 0 {
		_, r2, n := entity.Decide([]byte(got[a:]), mode)
		return undecoded(got[a:a+n], r2 != 0)
	}
	// A reference decoded in got that want keeps.
	if a := ampAround(want, p); a >= 0 {
		if d.c.MaxPasses > 0 {
			if dec, _ := entity.Decode([]byte(src), mode, 0); string(dec) == got {
				return Diagnosis{Class: "past-pass-bound", Title: "Decoding goes on past the declared pass bound", Clause: "rule/4"}
			}
		}
		return overDecoded(want[a:], d.c.Attribute)
	}
	// The first reference decoded otherwise. Where HTML decodes it to an
	// `&` that a later pass reads as the start of another reference
	// (`&amp#x80` is `&#x80` after one pass, € after two), the passes are
	// followed to the one the implementation got wrong.
	for cur, k := src, 0; k < 16; k++ {
		ref, j, h := misdecoded(cur, got, mode)
		if ref == "" {
			break
		}
		_, r2, _ := entity.Decide([]byte(ref), mode)
		if strings.HasPrefix(got[j:], ref) {
			return undecoded(ref, r2 != 0)
		}
		if strings.Contains(h, "&") {
			if next, changed := entity.Pass(nil, []byte(cur), mode); changed {
				if ref2, _, _ := misdecoded(string(next), got, mode); ref2 != "" {
					cur = string(next)
					continue
				}
			}
		}
		return wronglyDecoded(ref, h, got[j:], want, j, r2 != 0)
	}
	if lit, err := jsonvalue.Parse([]byte(strings.TrimSpace(want))); err == nil && lit.Kind == jsonvalue.String && lit.Str == got {
		return Diagnosis{Class: "string-literal-unquoted", Title: "A JSON string literal is unquoted, where the rule leaves the string as sent (`\"\\\"a\\\"\"` gives `\"a\"`)", Clause: "rule/3"}
	}
	if strings.TrimSpace(want) == got || strings.TrimSpace(got) == strings.TrimSpace(want) {
		return Diagnosis{Class: "text-trimmed", Title: "Whitespace around a string is trimmed", Clause: "rule/5"}
	}
	return Diagnosis{Class: "text-changed", Title: "Text is changed where the rule leaves it", Clause: "rule/5"}
}

// passesTo reports whether some number of passes over src gives got.
func passesTo(src, got string, mode entity.Profile) bool { return passes(src, got, mode) > 0 }

// passes is how many passes over src give got, or 0 when none does.
func passes(src, got string, mode entity.Profile) int {
	cur := []byte(src)
	for n := 1; n <= 16; n++ {
		next, changed := entity.Pass(nil, cur, mode)
		if !changed {
			return 0
		}
		if string(next) == got {
			return n
		}
		cur = next
	}
	return 0
}

func commonPrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// refAround returns where a reference that decodes in s starts, at or
// before p and reaching past it, or -1.
func refAround(s string, p int, mode entity.Profile) int {
	for a := min(p, len(s)-1); a >= 0 && a >= p-entity.Window; a-- {
		if s[a] != '&' {
			continue
		}
		if _, _, n := entity.Decide([]byte(s[a:]), mode); n > 0 && a+n > p {
			return a
		}
	}
	return -1
}

// ampAround returns where an '&' in s at or before p, close enough to be
// the start of what got decoded, is; or -1.
func ampAround(s string, p int) int {
	for a := min(p, len(s)-1); a >= 0 && a >= p-entity.Window; a-- {
		if s[a] == '&' {
			return a
		}
	}
	return -1
}

// undecoded diagnoses a reference ref that HTML decodes and the
// implementation left as it was: a numeric one by its code point, a
// named one by its name; two is true of a name that stands for two code
// points.
func undecoded(ref string, two bool) Diagnosis {
	semi := strings.HasSuffix(ref, ";")
	body := strings.TrimSuffix(ref[1:], ";")
	if num, ok := strings.CutPrefix(body, "#"); ok {
		return undecodedNumeric(ref, num, semi)
	}
	return undecodedNamed(ref, body, semi, two)
}

// undecodedNumeric diagnoses the numeric reference ref, whose digits
// (after `&#`, an `x` included) are num, left as it was: by the code
// point, whether or not it ends in `;`.
func undecodedNumeric(ref, num string, semi bool) Diagnosis {
	d := Diagnosis{Clause: "reading/1"}
	base := 10
	if len(num) > 0 && (num[0] == 'x' || num[0] == 'X') {
		num, base = num[1:], 16
	}
	v, err := strconv.ParseUint(num, base, 64)
	if err != nil {
		v = 1 << 40 // past every code point
	}
	switch {
	case v == 0:
		d.Class, d.Title = "undecoded/numeric-null", "The numeric reference to 0 is not decoded to U+FFFD"
	case v < 0x80 && unicode.IsControl(rune(v)) && !strings.ContainsRune("\t\n\f\r", rune(v)):
		d.Class, d.Title = "undecoded/numeric-control", "A reference to a control character is not decoded (`"+ref+"` is that character in HTML)"
	case v <= 0x10FFFF && noncharacter(rune(v)):
		d.Class, d.Title = "undecoded/numeric-noncharacter", "A reference to a noncharacter is not decoded (`"+ref+"` is that character in HTML)"
	case v >= 0x80 && v <= 0x9F:
		d.Class, d.Title = "undecoded/numeric-windows-1252", "Numeric references in the windows-1252 range (`&#128;` to `&#159;`) are not decoded as HTML does"
	case v >= 0xD800 && v <= 0xDFFF:
		d.Class, d.Title = "undecoded/numeric-surrogate", "A numeric reference to a surrogate is not decoded to U+FFFD"
	case v > 0x10FFFF:
		d.Class, d.Title = "undecoded/numeric-out-of-range", "A numeric reference past U+10FFFF is not decoded to U+FFFD"
	default:
		d.Class, d.Title, d.Clause = "undecoded/numeric", "Numeric character references are not decoded", "rule/4"
	}
	switch {
	case semi:
	case d.Class == "undecoded/numeric":
		d.Class, d.Title, d.Clause = "undecoded/numeric-no-semicolon", "A numeric reference without its `;` is not decoded (`&#38` is `&`)", "reading/1"
	default:
		// Two faults: the `;` missing, and a code point HTML
		// replaces (`&#7`): neither's counterexample takes on the
		// other (a missing `;` shown by `&#7` is a case that an
		// implementation which leaves such code points fails with
		// its `;` too).
		d.Class, d.Title = "undecoded/numeric-no-semicolon/special", "A numeric reference without its `;` to a code point HTML replaces or maps is not decoded ("+"`"+ref+"`)"
	}
	return d
}

// undecodedNamed diagnoses the named reference ref, whose name is body,
// left as it was: without its `;`, a name every table has, one of two
// code points, a case variant, or a name the implementation's table
// lacks.
func undecodedNamed(ref, body string, semi, two bool) Diagnosis {
	d := Diagnosis{Clause: "reading/1"}
	lower := strings.ToLower(body)
	switch {
	case !semi:
		d.Class, d.Title = "undecoded/named-no-semicolon", NoSemicolonTitle
	case basic[body]:
		d.Class, d.Title, d.Clause = "undecoded/named-basic", "Character references are not decoded (`"+ref+"` stays as it is)", "rule/4"
	case two:
		d.Class, d.Title = "undecoded/named-two-code-points", "A named reference that stands for two code points is not decoded"
	case body != lower && legacy(lower):
		// `&AMP;`, `&COPY;`: a name every table has, in another case.
		// `&DD;` is not: HTML has `&dd;` too, and a table without the one
		// is without the other.
		d.Class, d.Title = "undecoded/named-case-variant", "A named reference in another case that HTML has (`&AMP;`, `&COPY;`) is not decoded"
	default:
		d.Class, d.Title = "undecoded/named-not-in-table", "A named reference missing from the implementation's table is not decoded (`"+ref+"`; HTML has 2,125 names)"
	}
	return d
}

// basic are the names every table has (HTML 4.01's, XML's): one not
// decoded is nothing decoded. `&apos;` (not in HTML 4.01) and `&nbsp;` (not
// in XML) are names a table may miss.
var basic = map[string]bool{"amp": true, "lt": true, "gt": true, "quot": true}

// legacy reports whether &name is one of HTML's legacy names, decoded
// without its `;` (HTML 4.01's Latin-1 names and the like): the names
// every table has.
func legacy(name string) bool {
	_, _, n := entity.Decide([]byte("&"+name), entity.Text)
	return n == len(name)+1
}

// known reports whether HTML has the named reference &name;.
func known(name string) bool {
	_, _, n := entity.Decide([]byte("&"+name+";"), entity.Text)
	return n == len(name)+2
}

// overDecoded diagnoses text s, starting with an '&', that HTML leaves as
// it is and the implementation decoded.
func overDecoded(s string, attribute bool) Diagnosis {
	d := Diagnosis{Clause: "reading/1"}
	i := 1
	for i < len(s) && (isAlnum(s[i]) || i == 1 && s[i] == '#') {
		i++
	}
	body := s[1:i]
	semi := i < len(s) && s[i] == ';'
	switch {
	case strings.HasPrefix(body, "#"):
		d.Class, d.Title = "overdecoded/numeric", "Text that is no numeric reference in HTML is decoded as one"
	case attribute && !semi:
		d.Class, d.Title, d.Clause = "overdecoded/attribute", "Under the attribute profile, a name without `;` before `=` or a letter or digit is decoded (`?a=1&region=eu`)", "reading/3"
	case body == "":
		d.Class, d.Title = "overdecoded/other", "An `&` that starts no reference is changed"
	case known(strings.ToLower(body)) || known(body) && !semi:
		if !known(body) {
			d.Class, d.Title = "overdecoded/case-insensitive", "Names are matched without regard to case: `&Amp;` is decoded, which HTML leaves as it is"
		} else {
			d.Class, d.Title = "overdecoded/no-semicolon", "A name that needs its `;` is decoded without it (`&hellip` stays as it is in HTML)"
		}
	default:
		d.Class, d.Title = "overdecoded/unknown-name", "A name HTML does not have is decoded"
	}
	return d
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// wronglyDecoded diagnoses a reference ref that HTML decodes to h and the
// implementation decoded to other text: rest is got from there on, at j.
func wronglyDecoded(ref, h, rest, want string, j int, two bool) Diagnosis {
	if strings.HasPrefix(want[j:], h) && rest == want[j+len(h):] {
		d := Diagnosis{Class: "misdecoded/to-nothing", Clause: "reading/1"}
		r, _ := utf8.DecodeRuneInString(h)
		if len(h) == utf8.RuneLen(r) && (unicode.IsControl(r) || noncharacter(r)) {
			d.Title = fmt.Sprintf("A reference to a control character or noncharacter is decoded to nothing (`%s` is U+%04X in HTML)", ref, r)
		} else {
			d.Title = fmt.Sprintf("A character reference is decoded to nothing (`%s` is %q in HTML)", ref, h)
		}
		return d
	}
	d := undecoded(ref, two)
	if num, ok := strings.CutPrefix(strings.TrimSuffix(ref[1:], ";"), "#"); ok {
		// Decoded, so its `;` (if it lacks one) is not what failed: the
		// code point is (`&#x80` decoded to U+0080, not €).
		d = undecodedNumeric(ref, num, true)
	}
	switch d.Class {
	case "undecoded/numeric-null", "undecoded/numeric-windows-1252", "undecoded/numeric-surrogate", "undecoded/numeric-out-of-range":
		return d // the title says "not decoded as HTML does": so it is
	}
	return Diagnosis{Class: "misdecoded", Title: fmt.Sprintf("A character reference is decoded to other text than HTML gives (`%s` is %q)", ref, h), Clause: "reading/1"}
}

// SpecialNumeric are the classes of numeric references to code points
// HTML replaces or maps, in their order, each with what its members show.
var SpecialNumeric = []struct{ Class, What string }{
	{"undecoded/numeric-null", "`&#0;` (U+FFFD)"},
	{"undecoded/numeric-control", "controls (`&#1;` is U+0001)"},
	{"undecoded/numeric-noncharacter", "noncharacters (`&#xFFFE;` is U+FFFE)"},
	{"undecoded/numeric-windows-1252", "the windows-1252 range (`&#128;` is €)"},
	{"undecoded/numeric-surrogate", "surrogates (`&#xD800;` is U+FFFD)"},
	{"undecoded/numeric-out-of-range", "code points past U+10FFFF (U+FFFD)"},
}

// SpecialNumericTitle is the title of numeric references to code points
// HTML replaces or maps, of the classes given (SpecialNumeric's), not
// decoded as HTML does: one policy over several ranges (PHP's
// html_entity_decode leaves every code point it disallows as text).
func SpecialNumericTitle(classes []string) string {
	var whats []string
	for _, s := range SpecialNumeric {
		if slices.Contains(classes, s.Class) {
			whats = append(whats, s.What)
		}
	}
	return "Numeric references to code points HTML replaces or maps are not decoded as HTML does: " + strings.Join(whats, ", ")
}

// noncharacter reports whether r is a Unicode noncharacter.
func noncharacter(r rune) bool {
	return 0xFDD0 <= r && r <= 0xFDEF || r&0xFFFE == 0xFFFE
}

// misdecoded returns the first reference of src that got holds decoded
// otherwise than HTML decodes it (the text around it as it was), or "";
// j is where it is in got, h what HTML decodes it to.
func misdecoded(src, got string, mode entity.Profile) (ref string, j int, h string) {
	i := 0
	for i < len(src) {
		if src[i] == '&' {
			if r1, r2, n := entity.Decide([]byte(src[i:]), mode); n > 0 {
				h := string(r1)
				if r2 != 0 {
					h += string(r2)
				}
				if !strings.HasPrefix(got[j:], h) {
					return src[i : i+n], j, h
				}
				i, j = i+n, j+len(h)
				continue
			}
		}
		if j >= len(got) || src[i] != got[j] {
			return "", 0, ""
		}
		i, j = i+1, j+1
	}
	return "", 0, ""
}

// NoSemicolonTitle is the title of a legacy named reference without its
// `;` not decoded (class undecoded/named-no-semicolon).
const NoSemicolonTitle = "A legacy named reference without its `;` is not decoded (`&amp` is `&`, `&copy` is `©`)"
