package ecma

import (
	"slices"
	"strings"
	"unicode"
)

// rng is the characters lo to hi, both included.
type rng struct{ lo, hi rune }

// ranges is a set of characters: sorted, disjoint, not adjacent once
// normalized.
type ranges []rng

func single(r rune) ranges { return ranges{{r, r}} }

func (s ranges) normalize() ranges {
	s = slices.Clone(s)
	slices.SortFunc(s, func(a, b rng) int { return int(a.lo - b.lo) })
	out := s[:0]
	for _, r := range s {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

func (s ranges) negate() ranges {
	var out ranges
	next := rune(0)
	for _, r := range s {
		if r.lo > next {
			out = append(out, rng{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, rng{next, unicode.MaxRune})
	}
	return out
}

func (s ranges) has(c rune) bool {
	lo, hi := 0, len(s)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case c < s[m].lo:
			hi = m
		case c > s[m].hi:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

func fromTable(t *unicode.RangeTable) ranges {
	var s ranges
	for _, r := range t.R16 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			if r.Stride == 1 {
				s = append(s, rng{rune(r.Lo), rune(r.Hi)})
				break
			}
			s = append(s, rng{c, c})
		}
	}
	for _, r := range t.R32 {
		for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
			if r.Stride == 1 {
				s = append(s, rng{rune(r.Lo), rune(r.Hi)})
				break
			}
			s = append(s, rng{c, c})
		}
	}
	return s.normalize()
}

func union(sets ...ranges) ranges {
	var all ranges
	for _, s := range sets {
		all = append(all, s...)
	}
	return all.normalize()
}

var (
	digitSet = ranges{{'0', '9'}}
	wordSet  = ranges{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}
	// ECMA-262 WhiteSpace and LineTerminator: TAB, VT, FF, SP, NBSP, ZWNBSP
	// (U+FEFF), every Zs, LF, CR, LS, PS.
	spaceSet = union(ranges{{'\t', '\r'}, {' ', ' '}, {0xA0, 0xA0}, {0xFEFF, 0xFEFF}, {0x2028, 0x2029}}, fromTable(unicode.Zs))
	// . is every character but a line terminator.
	dotSet = ranges{{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}.negate()
)

// generalCategories are the long names of the General_Category values
// ECMA-262 accepts beside the short ones (UCD PropertyValueAliases.txt).
var generalCategories = map[string]string{
	"Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
	"Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo",
	"Mark": "M", "Combining_Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me",
	"Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
	"Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd",
	"Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
	"Final_Punctuation": "Pf", "Other_Punctuation": "Po",
	"Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So",
	"Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp",
	"Other": "C", "cntrl": "Cc", "Control": "Cc", "Format": "Cf", "Surrogate": "Cs",
	"Private_Use": "Co", "Unassigned": "Cn",
}

// category returns the set of a General_Category value, by short or long
// name.
func category(v string) (ranges, bool) {
	if long, ok := generalCategories[v]; ok {
		v = long
	}
	switch v {
	case "LC":
		return union(fromTable(unicode.Lu), fromTable(unicode.Ll), fromTable(unicode.Lt)), true
	case "Cn":
		return assigned().negate(), true
	case "C":
		return union(fromTable(unicode.C), assigned().negate()), true
	}
	if t, ok := unicode.Categories[v]; ok && v != "" {
		return fromTable(t), true
	}
	return nil, false
}

func assigned() ranges {
	var all []ranges
	for name, t := range unicode.Categories {
		if len(name) == 2 {
			all = append(all, fromTable(t))
		}
	}
	return union(all...)
}

// unsupported are properties ECMA-262 accepts that Go's unicode tables do
// not hold: a pattern with one is refused, saying so (docs/readings.md
// section 4).
var unsupported = []string{"Alphabetic", "Alpha", "Case_Ignorable", "CI", "Cased",
	"Changes_When_Casefolded", "CWCF", "Changes_When_Casemapped", "CWCM", "Changes_When_Lowercased", "CWL",
	"Changes_When_NFKC_Casefolded", "CWKCF", "Changes_When_Titlecased", "CWT", "Changes_When_Uppercased", "CWU",
	"Default_Ignorable_Code_Point", "DI", "Emoji", "Emoji_Component", "EComp", "Emoji_Modifier", "EMod",
	"Emoji_Modifier_Base", "EBase", "Emoji_Presentation", "EPres", "Extended_Pictographic", "ExtPict",
	"Grapheme_Base", "Gr_Base", "Grapheme_Extend", "Gr_Ext", "ID_Continue", "IDC", "ID_Start", "IDS",
	"Lowercase", "Lower", "Math", "Uppercase", "Upper", "XID_Continue", "XIDC", "XID_Start", "XIDS"}

// propertySet returns the set \p{body} names, or why not.
func propertySet(body string) (ranges, string) {
	name, value, hasValue := strings.Cut(body, "=")
	if hasValue {
		switch name {
		case "General_Category", "gc":
			if s, ok := category(value); ok {
				return s, ""
			}
		case "Script", "sc":
			if t, ok := unicode.Scripts[value]; ok {
				return fromTable(t), ""
			}
			return nil, "unknown or unsupported script " + value + " (toolnorm knows scripts by their long names, as Go's unicode package has them)"
		case "Script_Extensions", "scx":
			return nil, "the property Script_Extensions is not supported by toolnorm"
		}
		return nil, "invalid property name " + body
	}
	if s, ok := category(name); ok {
		return s, ""
	}
	switch name {
	case "ASCII":
		return ranges{{0, 0x7F}}, ""
	case "Any":
		return ranges{{0, unicode.MaxRune}}, ""
	case "Assigned":
		return assigned(), ""
	}
	if t, ok := unicode.Properties[name]; ok && !strings.HasPrefix(name, "Other_") {
		return fromTable(t), ""
	}
	if slices.Contains(unsupported, name) {
		return nil, "the property " + name + " is not supported by toolnorm"
	}
	return nil, "invalid property name " + body
}

func isIDStart(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIDContinue(r rune) bool {
	return isIDStart(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}
