package ecma

import (
	"slices"
	"strings"
	"sync"
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
		if len(name) == 2 && name != "Cn" { // Go 1.25 on has Cn, the unassigned
			all = append(all, fromTable(t))
		}
	}
	return union(all...)
}

// binaryProperties are ECMA-262's binary Unicode properties (its table
// of them, names and aliases), by their long names: each a function that
// builds its set from Go's unicode tables, or nil where those tables lack
// what it is made of. A pattern with one of those is refused, saying so
// (docs/readings.md section 4).
var binaryProperties = map[string]func() ranges{
	"ASCII":                        func() ranges { return ranges{{0, 0x7F}} },
	"ASCII_Hex_Digit":              table(unicode.ASCII_Hex_Digit),
	"Alphabetic":                   derived([]*unicode.RangeTable{unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl, unicode.Other_Alphabetic}, nil),
	"Any":                          func() ranges { return ranges{{0, unicode.MaxRune}} },
	"Assigned":                     assigned,
	"Bidi_Control":                 table(unicode.Bidi_Control),
	"Bidi_Mirrored":                nil,
	"Case_Ignorable":               nil,
	"Cased":                        derived([]*unicode.RangeTable{unicode.Ll, unicode.Other_Lowercase, unicode.Lu, unicode.Other_Uppercase, unicode.Lt}, nil),
	"Changes_When_Casefolded":      nil,
	"Changes_When_Casemapped":      nil,
	"Changes_When_Lowercased":      nil,
	"Changes_When_NFKC_Casefolded": nil,
	"Changes_When_Titlecased":      nil,
	"Changes_When_Uppercased":      nil,
	"Dash":                         table(unicode.Dash),
	"Default_Ignorable_Code_Point": nil,
	"Deprecated":                   table(unicode.Deprecated),
	"Diacritic":                    table(unicode.Diacritic),
	"Emoji":                        nil,
	"Emoji_Component":              nil,
	"Emoji_Modifier":               nil,
	"Emoji_Modifier_Base":          nil,
	"Emoji_Presentation":           nil,
	"Extended_Pictographic":        nil,
	"Extender":                     table(unicode.Extender),
	"Grapheme_Base": func() ranges {
		return union(fromTable(unicode.Cc), fromTable(unicode.Cf), fromTable(unicode.Cs), fromTable(unicode.Co),
			assigned().negate(), fromTable(unicode.Zl), fromTable(unicode.Zp), graphemeExtend()).negate()
	},
	"Grapheme_Extend":         graphemeExtend,
	"Hex_Digit":               table(unicode.Hex_Digit),
	"IDS_Binary_Operator":     table(unicode.IDS_Binary_Operator),
	"IDS_Trinary_Operator":    table(unicode.IDS_Trinary_Operator),
	"ID_Continue":             idContinue,
	"ID_Start":                idStart,
	"Ideographic":             table(unicode.Ideographic),
	"Join_Control":            table(unicode.Join_Control),
	"Logical_Order_Exception": table(unicode.Logical_Order_Exception),
	"Lowercase":               derived([]*unicode.RangeTable{unicode.Ll, unicode.Other_Lowercase}, nil),
	"Math":                    derived([]*unicode.RangeTable{unicode.Sm, unicode.Other_Math}, nil),
	"Noncharacter_Code_Point": table(unicode.Noncharacter_Code_Point),
	"Pattern_Syntax":          table(unicode.Pattern_Syntax),
	"Pattern_White_Space":     table(unicode.Pattern_White_Space),
	"Quotation_Mark":          table(unicode.Quotation_Mark),
	"Radical":                 table(unicode.Radical),
	"Regional_Indicator":      table(unicode.Regional_Indicator),
	"Sentence_Terminal":       table(unicode.Sentence_Terminal),
	"Soft_Dotted":             table(unicode.Soft_Dotted),
	"Terminal_Punctuation":    table(unicode.Terminal_Punctuation),
	"Unified_Ideograph":       table(unicode.Unified_Ideograph),
	"Uppercase":               derived([]*unicode.RangeTable{unicode.Lu, unicode.Other_Uppercase}, nil),
	"Variation_Selector":      table(unicode.Variation_Selector),
	"White_Space":             table(unicode.White_Space),
	"XID_Continue":            nil,
	"XID_Start":               nil,
}

// binaryAliases are the short names of binary properties.
var binaryAliases = map[string]string{
	"AHex": "ASCII_Hex_Digit", "Alpha": "Alphabetic", "Bidi_C": "Bidi_Control", "Bidi_M": "Bidi_Mirrored",
	"CI": "Case_Ignorable", "CWCF": "Changes_When_Casefolded", "CWCM": "Changes_When_Casemapped",
	"CWL": "Changes_When_Lowercased", "CWKCF": "Changes_When_NFKC_Casefolded", "CWT": "Changes_When_Titlecased",
	"CWU": "Changes_When_Uppercased", "DI": "Default_Ignorable_Code_Point", "Dep": "Deprecated", "Dia": "Diacritic",
	"EComp": "Emoji_Component", "EMod": "Emoji_Modifier", "EBase": "Emoji_Modifier_Base", "EPres": "Emoji_Presentation",
	"ExtPict": "Extended_Pictographic", "Ext": "Extender", "Gr_Base": "Grapheme_Base", "Gr_Ext": "Grapheme_Extend",
	"Hex": "Hex_Digit", "IDSB": "IDS_Binary_Operator", "IDST": "IDS_Trinary_Operator", "IDC": "ID_Continue",
	"IDS": "ID_Start", "Ideo": "Ideographic", "Join_C": "Join_Control", "LOE": "Logical_Order_Exception",
	"Lower": "Lowercase", "NChar": "Noncharacter_Code_Point", "Pat_Syn": "Pattern_Syntax",
	"Pat_WS": "Pattern_White_Space", "QMark": "Quotation_Mark", "RI": "Regional_Indicator",
	"STerm": "Sentence_Terminal", "SD": "Soft_Dotted", "Term": "Terminal_Punctuation", "UIdeo": "Unified_Ideograph",
	"Upper": "Uppercase", "VS": "Variation_Selector", "space": "White_Space", "XIDC": "XID_Continue", "XIDS": "XID_Start",
}

func table(t *unicode.RangeTable) func() ranges { return func() ranges { return fromTable(t) } }

// derived is the union of plus without the union of minus, as Unicode's
// DerivedCoreProperties.txt defines its properties.
func derived(plus, minus []*unicode.RangeTable) func() ranges {
	return func() ranges {
		var p, m []ranges
		for _, t := range plus {
			p = append(p, fromTable(t))
		}
		for _, t := range minus {
			m = append(m, fromTable(t))
		}
		return intersect(union(p...), union(m...).negate())
	}
}

var (
	graphemeExtend = derived([]*unicode.RangeTable{unicode.Me, unicode.Mn, unicode.Other_Grapheme_Extend}, nil)
	idStart        = derived([]*unicode.RangeTable{unicode.L, unicode.Nl, unicode.Other_ID_Start},
		[]*unicode.RangeTable{unicode.Pattern_Syntax, unicode.Pattern_White_Space})
	idContinue = derived([]*unicode.RangeTable{unicode.L, unicode.Nl, unicode.Other_ID_Start, unicode.Mn, unicode.Mc,
		unicode.Nd, unicode.Pc, unicode.Other_ID_Continue}, []*unicode.RangeTable{unicode.Pattern_Syntax, unicode.Pattern_White_Space})
)

// intersect is the characters in both a and b (normalized sets).
func intersect(a, b ranges) ranges {
	var out ranges
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		if lo <= hi {
			out = append(out, rng{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// scriptCodes are the four-letter codes (ISO 15924, and Unicode's
// aliases) of the scripts, by the long names Go's unicode.Scripts has.
var scriptCodes = map[string]string{
	"Adlm": "Adlam", "Ahom": "Ahom", "Hluw": "Anatolian_Hieroglyphs", "Arab": "Arabic", "Armn": "Armenian",
	"Avst": "Avestan", "Bali": "Balinese", "Bamu": "Bamum", "Bass": "Bassa_Vah", "Batk": "Batak", "Beng": "Bengali",
	"Bhks": "Bhaiksuki", "Bopo": "Bopomofo", "Brah": "Brahmi", "Brai": "Braille", "Bugi": "Buginese", "Buhd": "Buhid",
	"Cans": "Canadian_Aboriginal", "Cari": "Carian", "Aghb": "Caucasian_Albanian", "Cakm": "Chakma", "Cham": "Cham",
	"Cher": "Cherokee", "Chrs": "Chorasmian", "Zyyy": "Common", "Copt": "Coptic", "Qaac": "Coptic", "Xsux": "Cuneiform",
	"Cprt": "Cypriot", "Cpmn": "Cypro_Minoan", "Cyrl": "Cyrillic", "Dsrt": "Deseret", "Deva": "Devanagari",
	"Diak": "Dives_Akuru", "Dogr": "Dogra", "Dupl": "Duployan", "Egyp": "Egyptian_Hieroglyphs", "Elba": "Elbasan",
	"Elym": "Elymaic", "Ethi": "Ethiopic", "Geor": "Georgian", "Glag": "Glagolitic", "Goth": "Gothic",
	"Gran": "Grantha", "Grek": "Greek", "Gujr": "Gujarati", "Gong": "Gunjala_Gondi", "Guru": "Gurmukhi",
	"Hani": "Han", "Hang": "Hangul", "Rohg": "Hanifi_Rohingya", "Hano": "Hanunoo", "Hatr": "Hatran", "Hebr": "Hebrew",
	"Hira": "Hiragana", "Armi": "Imperial_Aramaic", "Zinh": "Inherited", "Qaai": "Inherited",
	"Phli": "Inscriptional_Pahlavi", "Prti": "Inscriptional_Parthian", "Java": "Javanese", "Kthi": "Kaithi",
	"Knda": "Kannada", "Kana": "Katakana", "Kawi": "Kawi", "Kali": "Kayah_Li", "Khar": "Kharoshthi",
	"Kits": "Khitan_Small_Script", "Khmr": "Khmer", "Khoj": "Khojki", "Sind": "Khudawadi", "Laoo": "Lao",
	"Latn": "Latin", "Lepc": "Lepcha", "Limb": "Limbu", "Lina": "Linear_A", "Linb": "Linear_B", "Lisu": "Lisu",
	"Lyci": "Lycian", "Lydi": "Lydian", "Mahj": "Mahajani", "Maka": "Makasar", "Mlym": "Malayalam", "Mand": "Mandaic",
	"Mani": "Manichaean", "Marc": "Marchen", "Gonm": "Masaram_Gondi", "Medf": "Medefaidrin", "Mtei": "Meetei_Mayek",
	"Mend": "Mende_Kikakui", "Merc": "Meroitic_Cursive", "Mero": "Meroitic_Hieroglyphs", "Plrd": "Miao", "Modi": "Modi",
	"Mong": "Mongolian", "Mroo": "Mro", "Mult": "Multani", "Mymr": "Myanmar", "Nbat": "Nabataean",
	"Nagm": "Nag_Mundari", "Nand": "Nandinagari", "Talu": "New_Tai_Lue", "Newa": "Newa", "Nkoo": "Nko",
	"Nshu": "Nushu", "Hmnp": "Nyiakeng_Puachue_Hmong", "Ogam": "Ogham", "Olck": "Ol_Chiki", "Hung": "Old_Hungarian",
	"Ital": "Old_Italic", "Narb": "Old_North_Arabian", "Perm": "Old_Permic", "Xpeo": "Old_Persian",
	"Sogo": "Old_Sogdian", "Sarb": "Old_South_Arabian", "Orkh": "Old_Turkic", "Ougr": "Old_Uyghur", "Orya": "Oriya",
	"Osge": "Osage", "Osma": "Osmanya", "Hmng": "Pahawh_Hmong", "Palm": "Palmyrene", "Pauc": "Pau_Cin_Hau",
	"Phag": "Phags_Pa", "Phnx": "Phoenician", "Phlp": "Psalter_Pahlavi", "Rjng": "Rejang", "Runr": "Runic",
	"Samr": "Samaritan", "Saur": "Saurashtra", "Shrd": "Sharada", "Shaw": "Shavian", "Sidd": "Siddham",
	"Sgnw": "SignWriting", "Sinh": "Sinhala", "Sogd": "Sogdian", "Sora": "Sora_Sompeng", "Soyo": "Soyombo",
	"Sund": "Sundanese", "Sylo": "Syloti_Nagri", "Syrc": "Syriac", "Tglg": "Tagalog", "Tagb": "Tagbanwa",
	"Tale": "Tai_Le", "Lana": "Tai_Tham", "Tavt": "Tai_Viet", "Takr": "Takri", "Taml": "Tamil", "Tnsa": "Tangsa",
	"Tang": "Tangut", "Telu": "Telugu", "Thaa": "Thaana", "Thai": "Thai", "Tibt": "Tibetan", "Tfng": "Tifinagh",
	"Tirh": "Tirhuta", "Toto": "Toto", "Ugar": "Ugaritic", "Vaii": "Vai", "Vith": "Vithkuqi", "Wcho": "Wancho",
	"Wara": "Warang_Citi", "Yezi": "Yezidi", "Yiii": "Yi", "Zanb": "Zanabazar_Square", "Zzzz": "Unknown",
}

// script returns the set of a Script value, by long name or code.
func script(v string) (ranges, bool) {
	if long, ok := scriptCodes[v]; ok {
		v = long
	}
	if v == "Unknown" {
		var all []ranges
		for _, t := range unicode.Scripts {
			all = append(all, fromTable(t))
		}
		return union(all...).negate(), true
	}
	t, ok := unicode.Scripts[v]
	if !ok {
		return nil, false
	}
	return fromTable(t), true
}

// propertySet returns the set \p{body} names, or why not. The sets of
// the names it knows are built once, and shared: no one changes a set.
func propertySet(body string) (ranges, string) {
	if s, ok := propertySets.Load(body); ok {
		return s.(ranges), ""
	}
	s, msg := buildPropertySet(body)
	if msg == "" {
		propertySets.Store(strings.Clone(body), s) // not the pattern it is in
	}
	return s, msg
}

// propertySets are the sets propertySet built, by body: as many as the
// names it knows.
var propertySets sync.Map

func buildPropertySet(body string) (ranges, string) {
	name, value, hasValue := strings.Cut(body, "=")
	if hasValue {
		switch name {
		case "General_Category", "gc":
			if s, ok := category(value); ok {
				return s, ""
			}
		case "Script", "sc":
			if s, ok := script(value); ok {
				return s, ""
			}
			if validPropertyValue(value) {
				return nil, "the script " + value + " is not supported by toolnorm (it knows the scripts of Unicode " + unicode.Version + ", Go's tables)"
			}
		case "Script_Extensions", "scx":
			if validPropertyValue(value) {
				return nil, "the property Script_Extensions is not supported by toolnorm (Go's unicode tables lack it)"
			}
		}
		return nil, "invalid property name " + body
	}
	if s, ok := category(name); ok {
		return s, ""
	}
	if long, ok := binaryAliases[name]; ok {
		name = long
	}
	if build, ok := binaryProperties[name]; ok {
		if build == nil {
			return nil, "the property " + name + " is not supported by toolnorm (Go's unicode tables lack it)"
		}
		return build(), ""
	}
	return nil, "invalid property name " + body
}

// validPropertyValue reports whether v could name a value: a script of a
// later Unicode version than Go's, say. Its letters, digits and _ only.
func validPropertyValue(v string) bool {
	if v == "" {
		return false
	}
	for _, c := range v {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func isIDStart(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIDContinue(r rune) bool {
	return isIDStart(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}
