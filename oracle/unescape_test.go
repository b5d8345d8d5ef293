package oracle

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// Minimum numbers of html5lib cases per mode. x/net v0.62.0's copy of the
// tests yields 4617 text cases and 9 attribute cases; the minimums are there
// so that a parsing regression cannot silently check nothing.
const (
	minHTML5LibTextCases      = 4500
	minHTML5LibAttributeCases = 9
)

func TestHTML5LibCases(t *testing.T) {
	cases, err := HTML5LibCases()
	if err != nil {
		t.Fatal(err)
	}
	var text, attribute int
	for _, c := range cases {
		pass, name := Unescape, "Unescape"
		if c.Attribute {
			pass, name = UnescapeAttribute, "UnescapeAttribute"
			attribute++
		} else {
			text++
		}
		if got := pass(c.Input); got != c.Want {
			t.Errorf("%s: %s(%q) = %q, want %q", c.Name, name, c.Input, got, c.Want)
		}
	}
	t.Logf("checked %d html5lib text cases and %d attribute cases", text, attribute)
	if text < minHTML5LibTextCases {
		t.Errorf("only %d html5lib text cases, want at least %d", text, minHTML5LibTextCases)
	}
	if attribute < minHTML5LibAttributeCases {
		t.Errorf("only %d html5lib attribute cases, want at least %d", attribute, minHTML5LibAttributeCases)
	}
}

func TestParseTokenizerTests(t *testing.T) {
	const file = `{"tests": [
{"description": "text", "input": "&amp;x", "output": [["Character", "&x"]]},
{"description": "text in pieces", "input": "a&lt;b", "output": [["Character", "a"], ["Character", "<b"]]},
{"description": "explicit data state", "input": "&gt;", "initialStates": ["RCDATA state", "Data state"], "output": [["Character", ">"]]},
{"description": "other state", "input": "&gt;", "initialStates": ["RAWTEXT state"], "output": [["Character", "&gt;"]]},
{"description": "CR is preprocessed", "input": "a\r\n&amp;", "output": [["Character", "a\n&"]]},
{"description": "double escaped", "doubleEscaped": true, "input": "\\u00e9&#x41;\\uD83D\\uDE00\\uDBFF", "output": [["Character", "\\u00e9A\\uD83D\\uDE00\\uDBFF"]]},
{"description": "not only characters", "input": "&amp;", "output": [["Comment", "x"]]},
{"description": "double-quoted", "input": "<h a=\"&not=\">", "output": [["StartTag", "h", {"a": "&not="}]]},
{"description": "single-quoted", "input": "<h a='&amp;\"'>", "output": [["StartTag", "h", {"a": "&\""}]]},
{"description": "unquoted", "input": "<h a=&lang=>", "output": [["StartTag", "h", {"a": "&lang="}]]},
{"description": "two attributes", "input": "<h a=\"x\" b=\"y\">", "output": [["StartTag", "h", {"a": "x", "b": "y"}]]},
{"description": "self-closing", "input": "<h a=\"x\"/>", "output": [["StartTag", "h", {"a": "x"}, true]]},
{"description": "other tag", "input": "<p a=\"x\">", "output": [["StartTag", "p", {"a": "x"}]]},
{"description": "NUL in value", "input": "<h a=\"\u0000\">", "output": [["StartTag", "h", {"a": "\ufffd"}]]}
]}`
	got, err := parseTokenizerTests("t.test", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	want := []Case{
		{Name: "t.test #0: text", Input: "&amp;x", Want: "&x"},
		{Name: "t.test #1: text in pieces", Input: "a&lt;b", Want: "a<b"},
		{Name: "t.test #2: explicit data state", Input: "&gt;", Want: ">"},
		{Name: "t.test #5: double escaped", Input: "é&#x41;😀\xed\xaf\xbf", Want: "éA😀\xed\xaf\xbf"},
		{Name: "t.test #7: double-quoted", Input: "&not=", Want: "&not=", Attribute: true},
		{Name: "t.test #8: single-quoted", Input: `&amp;"`, Want: `&"`, Attribute: true},
		{Name: "t.test #9: unquoted", Input: "&lang=", Want: "&lang=", Attribute: true},
	}
	if len(got) != len(want) {
		t.Fatalf("parseTokenizerTests: got %d cases, want %d:\n%#v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("case %d:\ngot  %#v\nwant %#v", i, got[i], want[i])
		}
	}

	if _, err := parseTokenizerTests("bad.test", []byte(`{"tests": [{"input": "x", "output": [[]]}]}`)); err == nil {
		t.Errorf("parseTokenizerTests(empty token): no error")
	}
	if _, err := parseTokenizerTests("bad.test", []byte(`{"tests": `)); err == nil {
		t.Errorf("parseTokenizerTests(truncated file): no error")
	}
}

// A lone surrogate in a doubleEscaped test goes through x/net byte for byte,
// so the WTF-8 form used by unescapeDoubleEscaped is a faithful stand-in.
func TestDoubleEscapedLoneSurrogate(t *testing.T) {
	s := unescapeDoubleEscaped(`\uD800&amp;`)
	if want := "\xed\xa0\x80&amp;"; s != want {
		t.Fatalf("unescapeDoubleEscaped = %q, want %q", s, want)
	}
	if got, want := Unescape(s), "\xed\xa0\x80&"; got != want {
		t.Errorf("Unescape(%q) = %q, want %q", s, got, want)
	}
	if got, want := UnescapeAttribute(s), "\xed\xa0\x80&"; got != want {
		t.Errorf("UnescapeAttribute(%q) = %q, want %q", s, got, want)
	}
}

var unescapeTests = []struct {
	name      string
	in        string
	text      string // one pass of Unescape
	attribute string // one pass of UnescapeAttribute
}{
	{"no reference", `a "b" <c>`, `a "b" <c>`, `a "b" <c>`},
	{"reference built by another", "&l&#116;;", "&lt;", "&lt;"},
	{"escaped notin", "&amp;notin&#59;", "&notin;", "&notin;"},
	{"numeric past 32 bits", "&#4294967356;", "\uFFFD", "\uFFFD"},
	{"huge digit run", "&#" + strings.Repeat("1", 5000) + ";x", "\uFFFDx", "\uFFFDx"},
	{"leading zeros", "&#0000000000000065;", "A", "A"},
	{"URL query", "?a=1&region=eu&not=2", "?a=1®ion=eu¬=2", "?a=1&region=eu&not=2"},
	{"double escape", "&amp;amp;", "&amp;", "&amp;"},
	{"rule example", "Ember &amp;amp; Oak", "Ember &amp; Oak", "Ember &amp; Oak"},
	{"longest name", "&notin;", "∉", "∉"},
	{"legacy prefix", "&notit;", "¬it;", "&notit;"},
	{"legacy before letter", "&ampx", "&x", "&ampx"},
	{"legacy before equals", "&amp=", "&=", "&amp="},
	{"legacy at end", "x&amp", "x&", "x&"},
	{"name needing semicolon", "&lang=", "&lang=", "&lang="},
	{"two code points", "&nGt;", "\u226B\u20D2", "\u226B\u20D2"},
	{"hex without digits", "&#x;&#X;&#;", "&#x;&#X;&#;", "&#x;&#X;&#;"},
	{"upper-case X", "&#X41;&#x6a", "Aj", "Aj"},
	{"no semicolon numeric", "&#9x", "\tx", "\tx"},
	{"NUL reference", "&#0;", "\uFFFD", "\uFFFD"},
	{"surrogate reference", "&#xD800;", "\uFFFD", "\uFFFD"},
	{"past U+10FFFF", "&#x110000;", "\uFFFD", "\uFFFD"},
	{"windows-1252", "&#x80;&#x81;&#x9F;", "\u20AC\u0081\u0178", "\u20AC\u0081\u0178"},
	{"controls kept", "&#1;&#x0D;&#xFFFF;", "\x01\r\uFFFF", "\x01\r\uFFFF"},
	{"lone ampersand", "a & b &", "a & b &", "a & b &"},
	{"invalid UTF-8 kept", "\xff&amp;\xfe", "\xff&\xfe", "\xff&\xfe"},

	// The characters UnescapeAttribute splits on terminate a reference in
	// both modes and are kept as they are.
	{"double quote", `&amp"&lt`, `&"<`, `&"<`},
	{"legacy before quote", `&not"=`, `¬"=`, `¬"=`},
	{"legacy before CR", "&not\r=", "¬\r=", "¬\r="},
	{"CR LF kept", "a\r\nb&amp;\r", "a\r\nb&\r", "a\r\nb&\r"},
	{"NUL kept", "&not\x00x&#\x00", "¬\x00x&#\x00", "¬\x00x&#\x00"},
	{"splitter after &#x", "&#x\"41;", "&#x\"41;", "&#x\"41;"},
}

func TestUnescape(t *testing.T) {
	for _, tt := range unescapeTests {
		if got := Unescape(tt.in); got != tt.text {
			t.Errorf("%s: Unescape(%q) = %q, want %q", tt.name, tt.in, got, tt.text)
		}
		if got := UnescapeAttribute(tt.in); got != tt.attribute {
			t.Errorf("%s: UnescapeAttribute(%q) = %q, want %q", tt.name, tt.in, got, tt.attribute)
		}
	}
}

func TestFixpoint(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		attribute bool
		max       int
		out       string
		passes    int
		fixpoint  bool
	}{
		{"no reference", "abc", false, 0, "abc", 0, true},
		{"no reference bounded", "abc", false, 1, "abc", 0, true},
		{"built reference", "&l&#116;;", false, 0, "<", 2, true},
		{"escaped notin", "&amp;notin&#59;", false, 0, "∉", 2, true},
		{"escaped notin attribute", "&amp;notin&#59;", true, 0, "∉", 2, true},
		{"numeric past 32 bits", "&#4294967356;", false, 0, "\uFFFD", 1, true},
		{"double escape", "&amp;amp;", false, 0, "&", 2, true},
		{"rule example", "Ember &amp;amp; Oak", false, 0, "Ember & Oak", 2, true},
		{"URL query", "?a=1&region=eu&not=2", false, 0, "?a=1®ion=eu¬=2", 1, true},
		{"URL query attribute", "?a=1&region=eu&not=2", true, 0, "?a=1&region=eu&not=2", 0, true},
		{"bound 1", "&amp;amp;amp;", false, 1, "&amp;amp;", 1, false},
		{"bound 2", "&amp;amp;amp;", false, 2, "&amp;", 2, false},
		{"bound reached exactly", "&amp;amp;amp;", false, 3, "&", 3, true},
		{"bound not reached", "&amp;amp;amp;", false, 10, "&", 3, true},
		{"negative bound is unbounded", "&amp;amp;amp;", false, -1, "&", 3, true},
	}
	for _, tt := range tests {
		pass := Unescape
		if tt.attribute {
			pass = UnescapeAttribute
		}
		out, passes, fixpoint := Fixpoint(tt.in, pass, tt.max)
		if out != tt.out || passes != tt.passes || fixpoint != tt.fixpoint {
			t.Errorf("%s: Fixpoint(%q, attribute=%v, %d) = %q, %d, %v; want %q, %d, %v",
				tt.name, tt.in, tt.attribute, tt.max, out, passes, fixpoint, tt.out, tt.passes, tt.fixpoint)
		}
	}
	if got, want := UnescapeFixpoint("&amp;lt;&amp;amp;gt;"), "<>"; got != want {
		t.Errorf("UnescapeFixpoint = %q, want %q", got, want)
	}
}

// checkFixpoint checks the properties that Fixpoint's documentation states.
func checkFixpoint(t *testing.T, s string, pass func(string) string) {
	t.Helper()
	out, n, fixpoint := Fixpoint(s, pass, 0)
	if !fixpoint || pass(out) != out {
		t.Fatalf("Fixpoint(%q, 0) = %q, %d, %v: not a fixpoint", s, out, n, fixpoint)
	}
	for k := 1; k <= n+1; k++ {
		outK, nK, fixpointK := Fixpoint(s, pass, k)
		if k < n {
			if nK != k || fixpointK {
				t.Fatalf("Fixpoint(%q, %d) = %q, %d, %v; want %d passes, not a fixpoint", s, k, outK, nK, fixpointK, k)
			}
			if rest, _, _ := Fixpoint(outK, pass, 0); rest != out {
				t.Fatalf("Fixpoint(Fixpoint(%q, %d)) = %q, want %q", s, k, rest, out)
			}
			continue
		}
		if outK != out || nK != n || !fixpointK {
			t.Fatalf("Fixpoint(%q, %d) = %q, %d, %v; want %q, %d, true", s, k, outK, nK, fixpointK, out, n)
		}
	}
}

func TestFixpointProperties(t *testing.T) {
	for _, tt := range unescapeTests {
		checkFixpoint(t, tt.in, Unescape)
		checkFixpoint(t, tt.in, UnescapeAttribute)
	}
}

func FuzzFixpoint(f *testing.F) {
	for _, tt := range unescapeTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFixpoint(t, s, Unescape)
		checkFixpoint(t, s, UnescapeAttribute)
	})
}

// tokenizerValue returns the value of the attribute x in doc, as the x/net
// tokenizer reads it.
func tokenizerValue(t *testing.T, doc string) string {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(doc))
	if tt := z.Next(); tt != html.StartTagToken {
		t.Fatalf("tokenizing %q: got %v, want a start tag", doc, tt)
	}
	tok := z.Token()
	if len(tok.Attr) != 1 || tok.Attr[0].Key != "x" {
		t.Fatalf("tokenizing %q: got attributes %q", doc, tok.Attr)
	}
	return tok.Attr[0].Val
}

// checkAttributeSplit checks, against the tokenizer, what UnescapeAttribute
// assumes: a character that is not part of any reference terminates one
// exactly as the end of input does, and the splitters are such characters.
// s1 and s2 must not contain a quote, NUL or CR.
func checkAttributeSplit(t *testing.T, s1, s2 string) {
	t.Helper()
	dq := func(s string) string { return tokenizerValue(t, `<a x="`+s+`">`) }
	sq := func(s string) string { return tokenizerValue(t, `<a x='`+s+`'>`) }

	// Characters the tokenizer carries verbatim split the decoding.
	for _, sep := range []string{" ", "\t", "\n", "\f", "<", ">", "!", "/", "\u00e9"} {
		if got, want := dq(s1+sep+s2), dq(s1)+sep+dq(s2); got != want {
			t.Errorf("tokenizer value of %q = %q, want %q", s1+sep+s2, got, want)
		}
	}

	// A double quote, inside single quotes, does the same.
	in := s1 + `"` + s2
	if got, want := sq(in), sq(s1)+`"`+sq(s2); got != want {
		t.Errorf("tokenizer value of '%s' = %q, want %q", in, got, want)
	}
	if got, want := UnescapeAttribute(in), sq(in); got != want {
		t.Errorf("UnescapeAttribute(%q) = %q, want %q (tokenizer, single-quoted)", in, got, want)
	}

	// NUL reaches the decoder as U+FFFD, which splits too.
	in = s1 + "\x00" + s2
	if got, want := dq(in), dq(s1)+"\uFFFD"+dq(s2); got != want {
		t.Errorf("tokenizer value of %q = %q, want %q", in, got, want)
	}
	if got, want := strings.ReplaceAll(UnescapeAttribute(in), "\x00", "\uFFFD"), dq(in); got != want {
		t.Errorf("UnescapeAttribute(%q) with NUL as U+FFFD = %q, want %q (tokenizer)", in, got, want)
	}

	// CR reaches the decoder as LF (CR LF as one LF), which splits too.
	in = s1 + "\r" + s2
	if got, want := dq(in), dq(s1)+"\n"+dq(strings.TrimPrefix(s2, "\n")); got != want {
		t.Errorf("tokenizer value of %q = %q, want %q", in, got, want)
	}
	if got, want := UnescapeAttribute(in), UnescapeAttribute(s1)+"\r"+UnescapeAttribute(s2); got != want {
		t.Errorf("UnescapeAttribute(%q) = %q, want %q", in, got, want)
	}
}

var attributeSplitSeeds = [][2]string{
	{"&amp", "x"},
	{"&not", "=2"},
	{"&not", "in;"},
	{"&#x", "41;"},
	{"&#", "65"},
	{"&", "amp;"},
	{"&lang", ";"},
	{"a&amp;b", "\n&lt"},
	{"", ""},
	{"&#x41", ";"},
	{"&notin", ""},
}

func TestUnescapeAttributeSplit(t *testing.T) {
	for _, s := range attributeSplitSeeds {
		checkAttributeSplit(t, s[0], s[1])
	}
}

func FuzzUnescapeAttributeSplit(f *testing.F) {
	for _, s := range attributeSplitSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, s1, s2 string) {
		if strings.ContainsAny(s1+s2, "\"'\x00\r") {
			t.Skip()
		}
		checkAttributeSplit(t, s1, s2)
	})
}
