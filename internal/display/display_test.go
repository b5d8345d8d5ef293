package display

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
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

// TestClipTextJSON: ClipText and ClipJSON show the longest start of what
// Text and JSON show that fits in n bytes and ends between two characters
// of the value (never inside an escape), then how many bytes of the value
// they left out.
func TestClipTextJSON(t *testing.T) {
	for _, in := range []string{
		"short", "0123456789abc", "aaaaaaa日本", "abcd\u00a0efgh", "a\"\\bcdefgh", "ab\U000E0001cd", "\xed\xa0\x80\xed\xa0\x80abc",
		"bad \xff byte and more", "{\n\t\"a\": [1,\n 2]\n}", `{"a":"no` + "\u00a0" + `break and more"}`, strings.Repeat("\u00a0", 40),
	} {
		for n := range 30 {
			for _, c := range []struct {
				got  string
				show func(string) string
			}{{ClipText(in, n), Text}, {ClipJSON([]byte(in), n), func(s string) string { return JSON([]byte(s)) }}} {
				used := len(in)
				prefix, rest, cut := strings.Cut(c.got, "... (")
				if cut {
					left, err := strconv.Atoi(strings.TrimSuffix(rest, " more bytes)"))
					if err != nil || left <= 0 {
						t.Fatalf("%q, %d: %q", in, n, c.got)
					}
					used -= left
				}
				if c.show(in[:used]) != prefix || cut && len(prefix) > n {
					t.Errorf("%q, %d: %q shows %d bytes of the value, as %q", in, n, c.got, used, c.show(in[:used]))
				}
				if !cut {
					continue
				}
				next := 3 // a surrogate, as WTF-8 holds it
				if _, ok := surrogate(in[used:]); !ok {
					_, next = utf8.DecodeRuneInString(in[used:])
				}
				if len(c.show(in[:used+next])) <= n {
					t.Errorf("%q, %d: %q stops short of what fits", in, n, c.got)
				}
			}
		}
	}
	if got, want := ClipText(strings.Repeat("\u00a0", 10), 12), `\u00a0\u00a0... (16 more bytes)`; got != want {
		t.Errorf("ClipText = %q, want %q", got, want)
	}
	if got, want := ClipJSON([]byte("{\"x\":\"\u00a0\u00a0\u00a0\"}"), 12), `{"x":"\u00a0... (6 more bytes)`; got != want {
		t.Errorf("ClipJSON = %q, want %q", got, want)
	}
}

// TestClipCostsWhatItShows: showing 300 bytes of a 4 MiB value costs what
// 300 bytes do: the value is not escaped whole first (it was, then cut:
// 4 MiB of U+00A0 shown as 12 MiB of \u00a0, and more copied while it
// grew, for each value shown).
func TestClipCostsWhatItShows(t *testing.T) {
	big := strings.Repeat("\u00a0", 2<<20)
	raw := []byte(`{"x":"` + big + `"}`)
	for name, f := range map[string]func(){
		"ClipText": func() { ClipText(big, 300) },
		"ClipJSON": func() { ClipJSON(raw, 300) },
	} {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				f()
			}
		})
		if got := r.AllocedBytesPerOp(); got > 2048 {
			t.Errorf("%s: %d bytes allocated to show 300 of a 4 MiB value", name, got)
		}
	}
}

// TestClipQuote: ClipQuote shows what Quote shows when it fits in n bytes,
// closing quote included; else its start, unclosed, and how many bytes of
// the value it left out.
func TestClipQuote(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{`a"b`, 6, `"a\"b"`},
		{`a"b`, 5, `"a\"... (1 more bytes)`},
		{"\u00a0x", 9, `"\u00a0x"`},
		{"\u00a0x", 8, `"\u00a0... (1 more bytes)`},
		{"\u00a0x", 7, `"... (3 more bytes)`},
	} {
		if got := ClipQuote(tt.in, tt.n); got != tt.want {
			t.Errorf("ClipQuote(%q, %d) = %s, want %s", tt.in, tt.n, got, tt.want)
		}
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

// TestNoWorkflowCommand: no function that shows text from outside (an
// adapter's error message, an answer, a vector's description) shows it as
// a CI workflow command: a line starting with "::" after spaces, or holding
// "##[", which GitHub Actions acts on instead of printing. Text showed
// them as they were: an adapter's error "::error::x" became an annotation
// of the job, and "##[group]" folded the log.
func TestNoWorkflowCommand(t *testing.T) {
	inputs := []string{
		"::error::pwned", "  ::warning file=a::y", "::", "see ##[error]z", "##[group]x", "###[", "a\n::error::b",
		`{"a":"##[x"}`, "  \n::set-output name=a::b", strings.Repeat(" ", 40) + "::error::far",
	}
	shown := map[string]func(string) string{
		"Text":      Text,
		"ClipText":  func(s string) string { return ClipText(s, 300) },
		"ClipText8": func(s string) string { return ClipText(s, 8) },
		"Quote":     Quote,
		"ClipQuote": func(s string) string { return ClipQuote(s, 300) },
		"JSON":      func(s string) string { return JSON([]byte(s)) },
		"ClipJSON":  func(s string) string { return ClipJSON([]byte(s), 300) },
		"Lines":     Lines,
	}
	for name, show := range shown {
		for _, in := range inputs {
			got := show(in)
			for _, line := range strings.Split(got, "\n") {
				if strings.HasPrefix(strings.TrimLeft(line, " "), "::") || strings.Contains(line, "##[") {
					t.Errorf("%s(%q) = %q: a workflow command", name, in, got)
				}
			}
		}
	}
	for _, tt := range []struct{ in, want string }{
		{"::error::x", `\u003a:error::x`},
		{"  ::warning::y", `  \u003a:warning::y`},
		{"a::b ## [c #[d", "a::b ## [c #[d"},
		{"see ##[error]z", `see ##\u005berror]z`},
		{"\t::debug::z", `\t::debug::z`},
	} {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got, want := JSON([]byte("\n ::error::x")), `  \u003a:error::x`; got != want {
		t.Errorf("JSON = %q, want %q", got, want)
	}
}
