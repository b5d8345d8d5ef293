package display

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain & <b>", "plain & <b>"},
		{"two\nlines\r\n\tand a tab", `two\nlines\r\n\tand a tab`},
		{"no\u00a0break", `no\u00a0break`},
		{"\ufeffBOM", `\ufeffBOM`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{"bell\x07 nul\x00 del\x7f", `bell\u0007 nul\u0000 del\u007f`},
		{"\xed\xa0\x80 lone surrogate", `\ud800 lone surrogate`},
		{"\xed\xbf\xbf", `\udfff`},
		{"bad \xff byte", `bad \xff byte`},
		{"replacement \ufffd", `replacement \ufffd`},
		{"é 日本 😀", "é 日本 😀"},
		{"\U000E0001 tag", `\udb40\udc01 tag`},
		{"emoji\ufe0f cgj\u034f filler\u3164 braille\u2800", `emoji\ufe0f cgj\u034f filler\u3164 braille\u2800`},
		{`"quotes" \ stay`, `"quotes" \ stay`},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestQuote(t *testing.T) {
	if got, want := Quote("a\"b\\c\u00a0"), `"a\"b\\c\u00a0"`; got != want {
		t.Errorf("Quote = %s, want %s", got, want)
	}
}

func TestJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": "x&amp;y"}`, `{"a": "x&amp;y"}`},
		{"{\n\t\"a\": [1,\n 2]\n}", `{  "a": [1,  2] }`},
		{"{\"a\":\"no\u00a0break\"}", `{"a":"no\u00a0break"}`},
		{`{"a":"\ud800 stays escaped"}`, `{"a":"\ud800 stays escaped"}`},
		{"{\"a\":\"\xed\xa0\x80\"}", `{"a":"\ud800"}`},
		{"{\"k\\\"\":\"\ufeff\"}", `{"k\"":"\ufeff"}`},
		{"not json\n at all \xff", `not json  at all \xff`},
	}
	for _, tt := range tests {
		if got := JSON([]byte(tt.in)); got != tt.want {
			t.Errorf("JSON(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestClip(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"0123456789abc", 10, "0123456789... (3 more bytes)"},
		{"aaaaaaa日本", 9, "aaaaaaa... (6 more bytes)"},
		{`abcd\u00a0efgh`, 7, `abcd... (10 more bytes)`},
		// Not after the first half of an escaped backslash.
		{`"a\\bcdefgh"`, 8, `"a... (10 more bytes)`},
		// Not between the halves of a surrogate pair.
		{`ab\udb40\udc01cd`, 10, `ab... (14 more bytes)`},
	}
	for _, tt := range tests {
		if got := Clip(tt.in, tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestPointer(t *testing.T) {
	deep := "/a" + strings.Repeat("/0", 1000)
	got := Pointer(deep, 8)
	if want := "/a/0/0/0/...(993 more segments).../0/0/0/0"; got != want {
		t.Errorf("Pointer(1001 segments) = %q, want %q", got, want)
	}
	if got := Pointer("/a/b", 8); got != "/a/b" {
		t.Errorf("Pointer(/a/b) = %q", got)
	}
}

func TestTail(t *testing.T) {
	log := strings.Repeat("warning: noise\n", 300) + "FATAL: the real reason\n"
	got := Tail(log, 100)
	if !strings.HasSuffix(got, "FATAL: the real reason\n") || !strings.HasPrefix(got, "(") || len(got) > 140 {
		t.Errorf("Tail = %q", got)
	}
	if got := Tail("short", 10); got != "short" {
		t.Errorf("Tail(short) = %q", got)
	}
}

func TestLines(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain\nlines", "plain\nlines"},
		{"\x1b[2Jcleared\ta\r", `\u001b[2Jcleared\ta\r`},
		{"::error::x", `\u003a:error::x`},
		{"  ::warning file=a::y\n\t::debug::z", "  \\u003a:warning file=a::y\n\\t::debug::z"},
		{"see ##[error]z and ##[warning]w", `see ##\u005berror]z and ##\u005bwarning]w`},
		{"a::b ## [c", "a::b ## [c"},
	} {
		if got := Lines(tt.in); got != tt.want {
			t.Errorf("Lines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
