package normalize

import (
	"fmt"
	"regexp"
	"time"

	"github.com/dlclark/regexp2/v2"
)

// A pattern is a patternProperties pattern and the schema it gives the
// members whose keys it matches. JSON Schema patterns are ECMA-262 regular
// expressions, unanchored. Go's regexp (RE2) reads most of them the same
// way, in linear time, and is used where it compiles the pattern; a
// pattern it cannot compile (a lookahead, a lookbehind, a backreference,
// \cX) is compiled by regexp2 in its ECMAScript mode with Unicode, a
// backtracking engine (docs/readings.md section 4).
type pattern struct {
	re   *regexp.Regexp
	ecma *regexp2.Regexp
	n    *node
}

// ecmaMatchTimeout bounds one match of an ECMA-262 pattern against a key:
// a backtracking engine can take exponential time on a hostile key. A
// match that does not finish in time is an error ([ErrPattern]), never a
// result that would depend on the machine's speed. A variable, so that a
// test can shorten it.
var ecmaMatchTimeout = time.Second

// compilePattern compiles a patternProperties pattern: with RE2 where it
// can, else as ECMA-262.
func compilePattern(s string) (*regexp.Regexp, *regexp2.Regexp, error) {
	re, err := regexp.Compile(s)
	if err == nil {
		return re, nil, nil
	}
	ecma, err2 := regexp2.Compile(s, regexp2.ECMAScript|regexp2.Unicode)
	if err2 != nil {
		return nil, nil, fmt.Errorf("pattern %q is not an ECMA-262 regular expression: %v", s, err2)
	}
	ecma.MatchTimeout = ecmaMatchTimeout
	return nil, ecma, nil
}

// match reports whether the pattern matches the key (unquoted). A match
// past ecmaMatchTimeout panics with a patternTimeout, which the walk turns
// into an error.
func (p *pattern) match(key []byte) bool {
	if p.re != nil {
		return p.re.Match(key)
	}
	ok, err := p.ecma.MatchString(string(key))
	if err != nil {
		panic(patternTimeout{pattern: p.ecma.String(), key: string(key), err: err})
	}
	return ok
}

// patternTimeout is an ECMA-262 match that did not finish in time.
type patternTimeout struct {
	pattern, key string
	err          error
}
