package normalize

import (
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/internal/ecma"
)

var prefixCases = []struct{ src, want string }{
	{"^x-", "x-"},
	{"^x12_[a-z]+$", "x12_"},
	{"^ab*c", "a"},
	{"^ab+", "a"},
	{"^ab?", "a"},
	{"^ab{2}", "a"},
	{"^a*", ""},
	{"^ab\\d", "ab"},
	{"^ab.c", "ab"},
	{"^ab(c|d)", ""}, // alternation anywhere: no prefix, to be safe
	{"^a|b", ""},
	{"a^b", ""},
	{"ab", ""},
	{"^(?=a)b", ""},
	{"^[a]", ""},
	{"^\\^a", ""},
	{"^a b:c/d@e", "a b:c/d@e"},
	{"^é", ""}, // only ASCII is taken
	{"^", ""},
}

func TestLiteralPrefix(t *testing.T) {
	for _, tc := range prefixCases {
		if got := literalPrefix(tc.src); got != tc.want {
			t.Errorf("literalPrefix(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

// FuzzLiteralPrefix: a key that does not start with a pattern's literal
// prefix is not matched by it, as internal/ecma matches.
func FuzzLiteralPrefix(f *testing.F) {
	for _, tc := range prefixCases {
		f.Add(tc.src, tc.want)
		f.Add(tc.src, "x"+tc.want)
		f.Add(tc.src, strings.ToUpper(tc.want))
	}
	f.Fuzz(func(t *testing.T, src, key string) {
		prefix := literalPrefix(src)
		if prefix == "" || strings.HasPrefix(key, prefix) {
			return
		}
		re, err := ecma.Compile(src)
		if err != nil {
			return
		}
		budget := int64(100_000)
		if ok, err := re.Match(key, &budget); ok && err == nil {
			t.Fatalf("%q matches %q, which does not start with its literal prefix %q", src, key, prefix)
		}
	})
}
