package jsonraw

import (
	"encoding/json"
	"math/rand/v2"
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

// TestSkipPlain holds the eight-bytes-at-a-time skip to a byte-by-byte
// one, at every offset and length.
func TestSkipPlain(t *testing.T) {
	alphabet := []byte{'a', 'Z', ' ', '~', 0x7f, '"', '\\', '&', 0, 0x1f, 0x20, 0x80, 0xc3, 0xff, '!', '%', '\'', '[', ']'}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			if r.IntN(4) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				b[i] = 'a' + byte(r.IntN(26))
			}
		}
		for i := 0; i <= len(b); i++ {
			want := i
			for want < len(b) {
				c := b[want]
				if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '&' {
					break
				}
				want++
			}
			if got := skipPlain(b, i); got != want {
				t.Fatalf("skipPlain(%q, %d) = %d, want %d", b, i, got, want)
			}
		}
	}
}
