package entity

import "slices"

// Window is the most bytes, the '&' included, that the decision at an '&'
// reads when the '&' turns out not to start a reference. A name is read up
// to one byte past the longest key (so that a longer run is known not to
// match), plus the byte after it; a failed numeric reference reads at most
// "&#x" and one byte more. The fixpoint relies on this bound: an '&' left
// as text whose next Window-1 bytes did not change stays text.
const Window = longestName + 2

// replacement1252 maps the numeric references 0x80 to 0x9F, which old
// documents meant as windows-1252, to the characters they stood for.
var replacement1252 = [32]rune{
	'\u20AC', '\u0081', '\u201A', '\u0192', '\u201E', '\u2026', '\u2020', '\u2021',
	'\u02C6', '\u2030', '\u0160', '\u2039', '\u0152', '\u008D', '\u017D', '\u008F',
	'\u0090', '\u2018', '\u2019', '\u201C', '\u201D', '\u2022', '\u2013', '\u2014',
	'\u02DC', '\u2122', '\u0161', '\u203A', '\u0153', '\u009D', '\u017E', '\u0178',
}

func isAlnum(c byte) bool { return alnum[c] }

var alnum = func() (t [256]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// Decide reports what the '&' at s[0] stands for: n is the number of bytes
// the reference takes and r1 (and r2, when not 0) the code points it
// decodes to; n == 0 means the '&' is text. It follows the HTML Standard's
// "character reference state" as golang.org/x/net/html implements it.
// It does not read s[0], which may be any byte standing for the '&'.
func Decide(s []byte, mode Profile) (r1, r2 rune, n int) {
	if len(s) < 2 {
		return 0, 0, 0
	}
	if s[1] == '#' {
		return decideNumeric(s)
	}

	// The longest run of ASCII letters and digits, read no further than one
	// byte past the longest name, and the ';' after it.
	i := 1
	for i < len(s) && i <= longestName && isAlnum(s[i]) {
		i++
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	name := s[1:i]
	switch {
	case len(name) == 0:
		return 0, 0, 0
	case mode == Attribute && name[len(name)-1] != ';' && i < len(s) && s[i] == '=':
		return 0, 0, 0
	}
	lens := keyLens[name[0]&0x7F] // name[0] is a letter, a digit or ';'
	if lens>>len(name)&1 != 0 {
		if v, ok := lookup(name); ok {
			return v[0], v[1], i
		}
	}
	if mode == Attribute {
		return 0, 0, 0
	}
	// Text: the longest legacy name that is a prefix of the run.
	for j := min(len(name)-1, longestLegacy); j > 1; j-- {
		if lens>>j&1 == 0 {
			continue
		}
		if v, ok := lookup(name[:j]); ok {
			return v[0], v[1], j + 1
		}
	}
	return 0, 0, 0
}

// keyLens has, for each ASCII byte, bit k set when a key of the table of
// length k starts with it: most text after an '&' is no name, and this
// tells so without hashing it.
var keyLens = func() (t [128]uint64) {
	const _ = uint64(1) << (63 - longestName - 1) // a run is at most longestName+1 bytes
	for k := range names {
		t[k[0]] |= 1 << len(k)
	}
	return t
}()

func decideNumeric(s []byte) (r1, r2 rune, n int) {
	if len(s) <= 2 {
		return 0, 0, 0
	}
	i := 2
	hex := s[i] == 'x' || s[i] == 'X'
	if hex {
		i++
	}
	i0 := i
	x := rune(0)
	for ; i < len(s); i++ {
		c := s[i]
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case hex && 'a' <= c && c <= 'f':
			d = rune(c-'a') + 10
		case hex && 'A' <= c && c <= 'F':
			d = rune(c-'A') + 10
		default:
			goto done
		}
		if x <= 0x10FFFF { // saturate: past U+10FFFF the value no longer matters
			if hex {
				x = x*16 + d
			} else {
				x = x*10 + d
			}
		}
	}
done:
	if i == i0 {
		return 0, 0, 0
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	switch {
	case 0x80 <= x && x <= 0x9F:
		x = replacement1252[x-0x80]
	case x == 0 || 0xD800 <= x && x <= 0xDFFF || x > 0x10FFFF:
		x = '\uFFFD'
	}
	return x, 0, i
}

// Names returns every key of the table, sorted: the 2,125 names with
// their ';' and the 106 legacy names without it.
func Names() []string {
	out := make([]string, 0, len(names))
	for k := range names {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// IsLegacy reports whether name (without '&' or ';') also stands without
// its ';'.
func IsLegacy(name string) bool {
	_, ok := names[name]
	return ok
}
