package entity

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// TestTableMatchesXNet holds the generated table to golang.org/x/net/html:
// every name decodes, with and without its ';', exactly as x/net decodes it.
func TestTableMatchesXNet(t *testing.T) {
	if len(names) != numNames || numNames != 2231 || numLegacy != 106 {
		t.Fatalf("table has %d entries (%d legacy), want 2231 (106)", len(names), numLegacy)
	}
	for name := range names {
		base := strings.TrimSuffix(name, ";")
		for _, in := range []string{"&" + base + ";", "&" + base, "&" + base + "x", "&" + base + "=", "x&" + base + ";y"} {
			got, _ := Pass(nil, []byte(in), Text)
			if got == nil {
				got = []byte(in)
			}
			if want := html.UnescapeString(in); string(got) != want {
				t.Errorf("Pass(%q) = %q, want %q (x/net)", in, got, want)
			}
		}
	}
}

func passString(s string, mode Profile) string {
	out, changed := Pass(nil, []byte(s), mode)
	if !changed {
		return s
	}
	return string(out)
}

func TestPassCases(t *testing.T) {
	tests := []struct {
		in, text, attr string
	}{
		{"", "", ""},
		{"plain", "plain", "plain"},
		{"&", "&", "&"},
		{"&&", "&&", "&&"},
		{"&;", "&;", "&;"},
		{"&#", "&#", "&#"},
		{"&#x", "&#x", "&#x"},
		{"&#x;", "&#x;", "&#x;"},
		{"&#;", "&#;", "&#;"},
		{"&#0;", "\uFFFD", "\uFFFD"},
		{"&#1;", "\x01", "\x01"},
		{"&#9", "\t", "\t"},
		{"&#x80;", "\u20AC", "\u20AC"},
		{"&#x81;", "\u0081", "\u0081"},
		{"&#xD800;", "\uFFFD", "\uFFFD"},
		{"&#x110000;", "\uFFFD", "\uFFFD"},
		{"&#4294967356;", "\uFFFD", "\uFFFD"},
		{"&#" + strings.Repeat("9", 500) + ";", "\uFFFD", "\uFFFD"},
		{"&#65x", "Ax", "Ax"},
		{"&#X41;", "A", "A"},
		{"&amp", "&", "&"},
		{"&amp;", "&", "&"},
		{"&ampx", "&x", "&ampx"},
		{"&amp=", "&=", "&amp="},
		{"&notin;", "∉", "∉"},
		{"&notit;", "¬it;", "&notit;"},
		{"&nGt;", "≫\u20D2", "≫\u20D2"},
		{"&l&#116;;", "&lt;", "&lt;"},
		{"&amp;notin&#59;", "&notin;", "&notin;"},
		{"?a=1&region=eu&not=2", "?a=1®ion=eu¬=2", "?a=1&region=eu&not=2"},
		{"&CounterClockwiseContourIntegral;", "∳", "∳"},
		{"&CounterClockwiseContourIntegralx;", "&CounterClockwiseContourIntegralx;", "&CounterClockwiseContourIntegralx;"},
		{"&notCounterClockwiseContourIntegralx;", "¬CounterClockwiseContourIntegralx;", "&notCounterClockwiseContourIntegralx;"},
	}
	for _, tt := range tests {
		if got := passString(tt.in, Text); got != tt.text {
			t.Errorf("Pass(%q, Text) = %q, want %q", tt.in, got, tt.text)
		}
		if got := html.UnescapeString(tt.in); got != tt.text {
			t.Errorf("x/net UnescapeString(%q) = %q, want %q: the table row is wrong", tt.in, got, tt.text)
		}
		if got := passString(tt.in, Attribute); got != tt.attr {
			t.Errorf("Pass(%q, Attribute) = %q, want %q", tt.in, got, tt.attr)
		}
	}
}

// alphabet makes strings dense in references, near misses and pieces that
// later passes may join into references.
var alphabet = []string{
	"&", "&", "&", "#", "#x", "amp;", "amp", "lt;", "lt", "l", "t", ";", ";", "not", "in", "it",
	"1", "5", "9", "0", "x", "X", "a", "=", " ", "é", "\xff", "&#38;", "&#x26;", "&amp;", "&#59;",
	"&#116;", "Gg;", "nGt", "fjlig;", "CounterClockwiseContourIntegral",
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

func randomString(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// naive is the definition: Pass until nothing changes, or maxPasses passes.
func naive(s string, mode Profile, maxPasses int) (string, Result) {
	res := Result{}
	for {
		if maxPasses > 0 && res.Passes >= maxPasses {
			res.Fixpoint = passString(s, mode) == s
			return s, res
		}
		next := passString(s, mode)
		if next == s {
			res.Fixpoint = true
			return s, res
		}
		s = next
		res.Passes++
	}
}

func TestPassMatchesXNet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		s := randomString(r, r.IntN(12))
		if got, want := passString(s, Text), html.UnescapeString(s); got != want {
			t.Fatalf("Pass(%q) = %q, want %q (x/net)", s, got, want)
		}
	}
}

func TestDecodeMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 20000 {
		s := randomString(r, r.IntN(30))
		if i%4 == 0 { // deep chains reach the linked phase
			s = strings.Repeat("&amp;", r.IntN(3)) + strings.Repeat("amp;", r.IntN(20)) + s
			s = s + "&" + strings.Repeat("amp;", r.IntN(20)) + randomString(r, 3)
		}
		mode := Profile(i % 2)
		maxPasses := 0
		if i%5 == 0 {
			maxPasses = 1 + r.IntN(12)
		}
		checkDecode(t, s, mode, maxPasses)
	}
}

func TestDecodeCases(t *testing.T) {
	tests := []struct {
		in, want string
		passes   int
	}{
		{"Ember &amp;amp; Oak", "Ember & Oak", 2},
		{"&l&#116;;", "<", 2},
		{"&amp;notin&#59;", "∉", 2},
		{"&&amp;lt;lt;", "&<lt;", 2},
		{"&" + strings.Repeat("amp;", 100) + "lt;", "<", 101},
		{"a&" + strings.Repeat("amp;", 30) + "#x26;" + strings.Repeat("amp;", 30) + "lt;b", "a<b", 62},
		{"no references", "no references", 0},
		{"\xff&amp;\xfe", "\xff&\xfe", 1},
	}
	for _, tt := range tests {
		got, res := Decode([]byte(tt.in), Text, 0)
		if string(got) != tt.want || res.Passes != tt.passes || !res.Fixpoint {
			t.Errorf("Decode(%q) = %q, %+v; want %q in %d passes", tt.in, got, res, tt.want, tt.passes)
		}
	}
}

// TestWindow checks the bound the fixpoint relies on: when the '&' stays
// text, nothing past its first Window bytes changes the decision.
func TestWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 50000 {
		s := "&" + randomString(r, r.IntN(14))
		for _, mode := range []Profile{Text, Attribute} {
			if _, _, n := Decide([]byte(s), mode); n != 0 || len(s) <= Window {
				continue
			}
			cut := s[:Window] + randomString(r, 3)
			if _, _, n := Decide([]byte(cut), mode); n != 0 {
				t.Fatalf("Decide(%q) is text but Decide(%q) is a reference", s, cut)
			}
		}
		_ = i
	}
}

func TestDecodeKeepsInvalidUTF8(t *testing.T) {
	in := "\xed\xa0\x80 &amp;amp; \xff" // a WTF-8 lone surrogate and a stray byte
	got, _ := Decode([]byte(in), Text, 0)
	if want := "\xed\xa0\x80 & \xff"; string(got) != want {
		t.Fatalf("Decode(%q) = %q, want %q", in, got, want)
	}
	if utf8.ValidString(string(got)) {
		t.Fatal("invalid bytes were changed")
	}
}

// TestLookup holds the table Decide looks names up in to the map it is
// built from: every key, every prefix and extension of one, and keys cut
// from the middle of a longer buffer.
func TestLookup(t *testing.T) {
	check := func(k []byte) {
		t.Helper()
		want, wantOK := names[string(k)]
		if got, ok := lookup(k); got != want || ok != wantOK {
			t.Fatalf("lookup(%q) = %v, %v; the map says %v, %v", k, got, ok, want, wantOK)
		}
	}
	for k := range names {
		buf := []byte("xx" + k + ";Zq0123456789")
		for i := 0; i <= len(k)+3; i++ {
			check(buf[2 : 2+i])                        // in a buffer
			check([]byte(k + ";Z")[:min(i, len(k)+2)]) // on its own
		}
		check([]byte(k)[1:])
	}
}

// TestDecodeMatchesNaiveSparse is TestDecodeMatchesNaive on longer text
// where references are sparse, as in real strings: what a pass wrote is
// often more than a window away from the nearest '&', which the passes
// after the first skip.
func TestDecodeMatchesNaiveSparse(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	filler := []string{"plain text ", "abcdefghijklmnopqrstuvwxyzABCDEF", "é", " ", "0123456789"}
	for i := range 5000 {
		var b strings.Builder
		for range r.IntN(40) {
			if r.IntN(3) == 0 {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			} else {
				b.WriteString(filler[r.IntN(len(filler))])
			}
		}
		s := b.String()
		mode := Profile(i % 2)
		maxPasses := 0
		if i%5 == 0 {
			maxPasses = 1 + r.IntN(3)
		}
		checkDecode(t, s, mode, maxPasses)
	}
}

// TestDecodeFoldsSecondPass holds the first pass's shortcut, deciding an
// '&' it writes (from "&amp;" or "&#38;") at once when nothing else is in
// reach, to the passes one by one: the text, the number of passes and
// whether the bound stopped short, in both modes and under bounds.
func TestDecodeFoldsSecondPass(t *testing.T) {
	cases := []string{
		"&amp;amp;", "&amp;amp;amp;", "&amp;amp;amp;amp;lt;", "&amp;lt;code&amp;gt; x",
		"x&amp;lt&gt;", "&amp;lt=", "&amp;lt;=", "&amp;#38;amp;", "&#38;lt;", "&#x26;#x26;lt;",
		"&amp;&amp;lt;", "&&amp;lt;", "&amp;lt", "&amp;notin;", "&amp;notit;", "&amp;amp",
		"&amp;#1234567890123;", "&amp;#39", "&amp;quot;&amp;quot;", "&amp;lt;&amp;lt;",
		"a &amp;eacute; b &amp;amp;lt; c", "&amp;NotNestedGreaterGreater;", "&amp;" + strings.Repeat("a", 40) + ";",
		"&amp;lt;" + strings.Repeat("x", 40) + "&amp;gt;", "&AMP;lt;", "&amp;AMP;lt;", "&amp;&#35;38;",
	}
	r := rand.New(rand.NewPCG(9, 10))
	pieces := []string{"&amp;", "&amp;amp;", "&amp;lt;", "&#38;", "&#38;gt;", "lt;", "amp;", "#38;", " text ", "é", "&", ";", "=", "x"}
	for range 3000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		for _, mode := range []Profile{Text, Attribute} {
			for _, maxPasses := range []int{0, 1, 2, 3} {
				checkDecode(t, s, mode, maxPasses)
			}
		}
	}
}

// TestDecideIgnoresFirstByte: Decide does not read s[0], so that a caller
// can decide an '&' it has not written yet, with the byte before the text
// that follows it standing for it (the first pass's foldAmp does).
func TestDecideIgnoresFirstByte(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 20000 {
		s := "&" + randomString(r, r.IntN(20))
		mode := Profile(i % 2)
		a1, a2, an := Decide([]byte(s), mode)
		b1, b2, bn := Decide([]byte(";"+s[1:]), mode)
		if a1 != b1 || a2 != b2 || an != bn {
			t.Fatalf("Decide(%q) = %q %q %d, with ';' first %q %q %d", s, a1, a2, an, b1, b2, bn)
		}
	}
}

// checkDecode holds Decode to its definition on s: Pass repeated until
// nothing changes or the bound stops it, the text and the Result both.
func checkDecode(t *testing.T, s string, mode Profile, maxPasses int) {
	t.Helper()
	got, gotRes := Decode([]byte(s), mode, maxPasses)
	want, wantRes := naive(s, mode, maxPasses)
	if string(got) != want || gotRes != wantRes {
		t.Fatalf("Decode(%q, %v, %d) = %q, %+v; want %q, %+v", s, mode, maxPasses, got, gotRes, want, wantRes)
	}
}
