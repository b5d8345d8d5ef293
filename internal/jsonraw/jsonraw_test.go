package jsonraw

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestUnquoteAppendQuote(t *testing.T) {
	tests := []struct {
		raw, value, quoted string
	}{
		{`plain`, "plain", `"plain"`},
		{`caf\u00e9 \/`, "café /", `"café /"`},
		{`\"\\\b\f\n\r\t`, "\"\\\b\f\n\r\t", `"\"\\\b\f\n\r\t"`},
		{`\u0001\u001f\u007f`, "\x01\x1f\x7f", `"\u0001\u001f` + "\x7f" + `"`},
		{`\ud83d\ude00`, "😀", `"😀"`},
		{`\ud800`, "\xed\xa0\x80", `"\ud800"`},
		{`\udc00x\ud800`, "\xed\xb0\x80x\xed\xa0\x80", `"\udc00x\ud800"`},
		{`\ud800\u0041`, "\xed\xa0\x80A", `"\ud800A"`},
		{`\ud800\ud800`, "\xed\xa0\x80\xed\xa0\x80", `"\ud800\ud800"`},
		{`\uDFFF`, "\xed\xbf\xbf", `"\udfff"`},
		{`\ud7ff`, "\ud7ff", "\"\ud7ff\""},
		{`<&>\u2028`, "<&>\u2028", "\"<&>\u2028\""},
	}
	for _, tt := range tests {
		if end, _, err := ScanString([]byte(`"`+tt.raw+`"`), 0); err != nil || end != len(tt.raw)+2 {
			t.Errorf("ScanString(%q) = %d, %v", tt.raw, end, err)
		}
		got := Unquote(nil, []byte(tt.raw))
		if string(got) != tt.value {
			t.Errorf("Unquote(%q) = %q, want %q", tt.raw, got, tt.value)
		}
		if q := AppendQuote(nil, got); string(q) != tt.quoted {
			t.Errorf("AppendQuote(%q) = %s, want %s", got, q, tt.quoted)
		}
		if utf8.ValidString(tt.value) {
			var s string
			if err := json.Unmarshal([]byte(tt.quoted), &s); err != nil || s != tt.value {
				t.Errorf("encoding/json reads %s as %q, %v; want %q", tt.quoted, s, err, tt.value)
			}
		}
	}
}

// FuzzScan holds the scanner to encoding/json's idea of valid JSON, and
// Unquote and AppendQuote to each other.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":null}],"c":{}}`, `[[],{}, [1 ,2] ]`, `{"a" 1}`, `[1,]`, ` {}`, `{"a":1,}`, `"a"`, `"\ud800"`, `-0.5e+3`, `true`, `"\u00e9\n"`, `01`, `"` + "\xff" + `"`, `1.`, `"\x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		var end int
		var err error
		if b[0] == '{' || b[0] == '[' || IsSpace(b[0]) {
			if got, want := Valid(b), json.Valid(b) && utf8.Valid(b); got != want {
				t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
			}
			return
		}
		switch c := b[0]; {
		case c == '"':
			end, _, err = ScanString(b, 0)
		case c == '-' || '0' <= c && c <= '9':
			end, err = ScanNumber(b, 0)
		case c == 't' || c == 'f' || c == 'n':
			end, err = ScanLiteral(b, 0)
		default:
			return
		}
		valid := err == nil && SkipSpace(b, end) == len(b)
		if got := Valid(b); got != valid {
			t.Fatalf("Valid(%q) = %v, scanning says %v", b, got, valid)
		}
		// encoding/json accepts invalid UTF-8 in strings; the scanner must not.
		if want := json.Valid(b) && utf8.Valid(b); valid != want {
			t.Fatalf("scan(%q) valid = %v (end %d, err %v), encoding/json says %v", b, valid, end, err, want)
		}
		if valid && b[0] == '"' && end == len(b) {
			v := Unquote(nil, b[1:len(b)-1])
			q := AppendQuote(nil, v)
			if v2 := Unquote(nil, q[1:len(q)-1]); string(v2) != string(v) {
				t.Fatalf("Unquote(AppendQuote(%q)) = %q", v, v2)
			}
			var s string
			if err := json.Unmarshal(q, &s); err != nil {
				t.Fatalf("AppendQuote gave invalid JSON %s: %v", q, err)
			}
		}
	})
}

// TestSkipPlain holds the word-at-a-time and vectorized skips to a
// byte-by-byte one, at every offset and length.
func TestSkipPlain(t *testing.T) {
	alphabet := []byte{'a', 'Z', ' ', '~', 0x7f, '"', '\\', '&', 0, 0x1f, 0x20, 0x80, 0xbf, 0xc3, 0xe2, 0xed, 0xf0, 0xff, '!', '%', '\'', '[', ']'}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(70))
		for i := range b {
			if r.IntN(6) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			} else if r.IntN(10) == 0 {
				b = append(b[:i], "é—€😀"[r.IntN(4):]...)[:len(b)]
			} else {
				b[i] = 'a' + byte(r.IntN(26))
			}
		}
		for i := 0; i <= len(b); i++ {
			// The first byte that is '"', '\\', a control character or
			// the start of what is not UTF-8 ...
			want := i
			for want < len(b) {
				c := b[want]
				if c < 0x20 || c == '"' || c == '\\' {
					break
				}
				r, size := utf8.DecodeRune(b[want:])
				if r == utf8.RuneError && size == 1 {
					break
				}
				want += size
			}
			// ... is where skipLong stops.
			if got := skipLong(b, i); got != want {
				t.Fatalf("skipLong(%q, %d) = %d, want %d", b, i, got, want)
			}
			// skipMedium stops there too, or earlier at the first byte
			// that is not ASCII, when it reads words up to it.
			if got := skipMedium(b, i); got > want || got < want && (b[got] < utf8.RuneSelf || got-i >= 48) {
				t.Fatalf("skipMedium(%q, %d) = %d, want %d or a non-ASCII byte within 48 bytes", b, i, got, want)
			}
			// skipPlain stops at the first byte that is '"', '\\', a
			// control character or not ASCII, if it is one of the next 16
			// (when there are 16).
			wantPlain := i
			for wantPlain < len(b) {
				if c := b[wantPlain]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
					break
				}
				wantPlain++
			}
			if i+16 <= len(b) && wantPlain >= i+16 {
				wantPlain = -1
			}
			if got := skipPlain(b, i); got != wantPlain {
				t.Fatalf("skipPlain(%q, %d) = %d, want %d", b, i, got, wantPlain)
			}
		}
	}
}

// TestScanStringLong holds ScanString to encoding/json on long strings,
// whose text the vectorized skip reads a chunk at a time: characters of
// every length cut at every offset, escapes, controls and bad bytes.
func TestScanStringLong(t *testing.T) {
	pieces := []string{"a", "abcdefgh", "é", "—", "😀", `\"`, `\n`, `\u0026`, "\x01", "\xff", "\xe2\x80", " ", "&amp;"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		var b []byte
		b = append(b, '"')
		for n := 200 + r.IntN(700); len(b) < n; {
			p := pieces[r.IntN(len(pieces))]
			if len(p) == 1 && p[0] < 0x20 || p == "\xff" || p == "\xe2\x80" {
				if r.IntN(20) != 0 {
					continue // keep most strings valid
				}
			}
			b = append(b, p...)
		}
		b = append(b, `" `...)
		end, _, err := ScanString(b, 0)
		valid := err == nil && end == len(b)-1
		if want := json.Valid(b) && utf8.Valid(b); valid != want {
			t.Fatalf("ScanString(%q) = %d, %v; encoding/json says valid %v", b, end, err, want)
		}
	}
}

// TestPlain: Plain lets through only valid JSON with no whitespace outside
// strings, no escape in a string or key, and nesting within its bound.
func TestPlain(t *testing.T) {
	for _, tt := range []struct {
		text  string
		depth int
		want  bool
	}{
		{`{"a":[1,"x",true,null,{}],"b":[]}`, 8, true},
		{`"a b"`, 8, true},
		{`{"a": 1}`, 8, false},
		{` 1`, 8, false},
		{`[1 ,2]`, 8, false},
		{`{"a\n":1}`, 8, false},
		{`["\u0026"]`, 8, false},
		{`{"a":1,}`, 8, false},
		{`[[[1]]]`, 4, true},
		{`[[[[1]]]]`, 4, false},
		{`[[[[]]]]`, 4, true}, // an empty container nests nothing
		{`{"a":1}x`, 8, false},
	} {
		if got := Plain([]byte(tt.text), tt.depth); got != tt.want {
			t.Errorf("Plain(%q, %d) = %v, want %v", tt.text, tt.depth, got, tt.want)
		}
		if tt.want && !Valid([]byte(tt.text)) {
			t.Errorf("Plain(%q) but not Valid", tt.text)
		}
	}
}

// BenchmarkUnquote decodes a string's raw text: one without escapes,
// one that is mostly escapes (short forms, \u escapes, surrogate pairs).
func BenchmarkUnquote(b *testing.B) {
	for _, tc := range []struct{ name, raw string }{
		{"plain", strings.Repeat("Ember & Oak, a title without escapes. ", 64)},
		{"escapes", strings.Repeat(`\"a\\b\/\n\t\u00e9\ud83d\ude00 `, 64)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			raw := []byte(tc.raw)
			dst := make([]byte, 0, 2*len(raw))
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				dst = Unquote(dst[:0], raw)
			}
		})
	}
}
