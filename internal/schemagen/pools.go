package schemagen

import (
	"math/rand/v2"
	"strings"
)

// The pools the generator draws from.
var (
	// plainKeys are ordinary parameter names, and names with references
	// in them (keys must never change).
	plainKeys = []string{"title", "tags", "ops", "filter", "q", "n", "url", "a", "b", "items", "rows", "&amp;", "k&lt;", "x&#59;", "caf\u00e9"}
	// specialKeys are what languages treat specially: JavaScript's
	// prototype names, Python's dunder, integer-like keys a JavaScript
	// object reorders or a language may read as numbers, the empty key, a
	// long key and keys outside the BMP.
	specialKeys = []string{"__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__class__",
		"0", "01", "-0", "1e3", "", strings.Repeat("long_key_", 12), "\U0001F600", "k\U00010348y"}
	// defNames are names of $defs members: plain, and some a JSON Pointer
	// escapes (~0, ~1; "x~1" is "x~01", which unescaped in the wrong order
	// is "x/") or a JavaScript lookup trips on.
	defNames = []string{"item", "list", "node", "map", "text", "row", "constructor", "a/b", "x~y", "x~1", "__proto__"}
	// strs are texts: references of every kind, plain text, JSON-looking
	// text that is not what is declared.
	strs = []string{"Ember &amp;amp; Oak", "&lt;b&gt;", "&#x26;lt;", "&notin;", "&notit;", "&amp", "&#38;amp;", "&copy=1",
		"?a=1&region=eu&not=2", "x", "", " a ", "null", "1", "true", "\"x\"", "[1", "[1,]", "{'a':1}", "[NaN]",
		"caf\u00e9", "\U0001F600", "&#128;", "&#xD800;", "&Amp;", "&nbsp;", "\u2028", "line\nbreak", "tab\t",
		"&hellip", "&apos;", "&#x1F600;", "&#128512;"}
	numbers  = []string{"0", "-0", "1", "2", "1.0", "1.50", "12345678901234567890", "1e400", "-1E-7", "0.1", "9007199254740993", "1E+2", "-3"}
	integers = []string{"0", "-0", "1", "2", "3", "1.0", "100", "-3", "1E+2", "12345678901234567890"}
	// protoKeys are the names Object.prototype holds.
	protoKeys  = []string{"constructor", "toString", "hasOwnProperty"}
	garbage    = []string{"x", "]", "}", " 1", "[]", ","}
	paddings   = []string{" ", "\n", "\t ", " \r\n"}
	formatSpec = []struct{ name, valid, invalid string }{
		{"date-time", "2024-01-02T03:04:05Z", "yesterday"},
		{"date", "2024-01-02", "01/02/2024"},
		{"email", "a@b.test", "a at b"},
		{"uri", "https://x.test/?a=1&amp;b=2", "not a uri"},
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", "123"},
		{"ipv4", "192.0.2.1", "999.1"},
		{"hostname", "x.test", "-x-"},
	}
)

// A patternSpec is a pattern whose meaning the generator knows without a
// regular expression engine: the same in ECMA-262 and RE2, with a test
// and strings that match it and that do not.
type patternSpec struct {
	re      string
	match   func(string) bool
	matches []string
	other   string // a string it does not match
}

var patterns = []patternSpec{
	{`^\[`, func(s string) bool { return strings.HasPrefix(s, "[") }, []string{"[1]", "[]", `["&amp;"]`}, "x"},
	{`^\{`, func(s string) bool { return strings.HasPrefix(s, "{") }, []string{`{"a":1}`, "{}"}, "x"},
	{`&`, func(s string) bool { return strings.Contains(s, "&") }, []string{"&amp;", "a&lt;b", "&#38;amp;"}, "plain"},
	{`^[a-z]*$`, func(s string) bool { return lowerOnly(s) }, []string{"abc", "", "x"}, "A1"},
	{`^.{0,3}$`, func(s string) bool { return len([]rune(s)) <= 3 && !strings.ContainsAny(s, "\n\r\u2028\u2029") }, []string{"ab", "", "[1]"}, "long text"},
	{`^[^<>]*$`, func(s string) bool { return !strings.ContainsAny(s, "<>") }, []string{"x", "&lt;"}, "<b>"},
}

// keyPatterns are patternProperties patterns, each with keys that match
// it and keys of the pools it matches too.
var keyPatterns = []struct {
	re   string
	keys []string
}{
	{`^list_`, []string{"list_a", "list_tags"}},
	{`_json$`, []string{"ops_json", "a_json"}},
	{`^[0-9]+$`, []string{"1", "42", "0", "01"}},
	{`^__`, []string{"__proto__", "__class__", "__x"}},
	{`^(constructor|prototype|toString)$`, []string{"constructor", "prototype", "toString"}},
	{`^$`, []string{""}},
	{`^\p{L}+$`, []string{"caf\u00e9", "abc"}},
}

func lowerOnly(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// pick is an element of xs.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// htmlEscaper escapes text once, as a model does.
var htmlEscaper = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")
