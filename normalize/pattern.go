package normalize

import (
	"errors"
	"fmt"
	"sync"

	"github.com/toolnorm/toolnorm/internal/display"
	"github.com/toolnorm/toolnorm/internal/ecma"
)

// A pattern is a patternProperties pattern and the schema it gives the
// members whose keys it matches. JSON Schema patterns are ECMA-262 regular
// expressions, unanchored, read here as `new RegExp(p, "u")` reads them
// (docs/readings.md section 4): internal/ecma translates a regular one to
// Go's regexp, matched in time linear in the key, and matches one with a
// lookaround or a backreference by backtracking; both within the call's
// budget of steps.
type pattern struct {
	re *ecma.Regexp
	n  *node
}

// patternSteps is the budget of pattern steps of one Normalize call,
// shared by every key and every pattern, the regular ones too (a step per
// instruction of Go's program per byte of key): a count, not a clock, so
// that whether a call ends in [ErrPattern] does not depend on the machine.
// A step costs up to 25 ns, 100 on a loaded machine, so the budget bounds
// a call's pattern work to a fraction of a second, a second at most
// (docs/performance.md, "Bounded on every input: patterns"). A variable,
// so that a test can lower it.
var patternSteps int64 = 10_000_000

// compilePattern compiles a patternProperties pattern as ECMA-262 with the
// u flag. It keeps the patterns it compiled lately (patterns): tools
// repeat theirs, and compiling one costs more than the rest of a small
// schema. A compiled pattern is immutable, and safe for concurrent use.
func compilePattern(s string) (*ecma.Regexp, error) {
	if len(s) > maxCachedPattern {
		return compilePatternOnce(s)
	}
	patterns.mu.Lock()
	got, ok := patterns.m[s]
	patterns.mu.Unlock()
	if ok {
		return got.re, got.err
	}
	re, err := compilePatternOnce(s)
	patterns.mu.Lock()
	defer patterns.mu.Unlock()
	if patterns.m == nil || len(patterns.m) >= maxCachedPatterns {
		patterns.m = make(map[string]compiledPattern)
	}
	patterns.m[s] = compiledPattern{re, err}
	return re, err
}

func compilePatternOnce(s string) (*ecma.Regexp, error) {
	re, err := ecma.Compile(s)
	if se, ok := err.(*ecma.SyntaxError); ok {
		if se.Limit {
			return nil, fmt.Errorf("pattern %q is beyond toolnorm's limits: %s at byte %d", display.Clip(s, 100), se.Msg, se.Offset)
		}
		return nil, fmt.Errorf("pattern %q is not an ECMA-262 regular expression (u flag): %s at byte %d", display.Clip(s, 100), se.Msg, se.Offset)
	}
	return re, nil
}

// patterns are the patterns compiled lately, by their source: at most
// maxCachedPatterns of at most maxCachedPattern bytes each (the cache
// starts over when full).
var patterns struct {
	mu sync.Mutex
	m  map[string]compiledPattern
}

const (
	maxCachedPatterns = 256
	maxCachedPattern  = 1 << 10
)

type compiledPattern struct {
	re  *ecma.Regexp
	err error
}

// match reports whether the pattern matches the key (unquoted), spending
// from budget. When the budget is spent, or the match holds more than
// internal/ecma's bound, it panics with a patternSpent, which the walk
// turns into an error.
//
// The match reads a copy of the key, *str: a string the walk's buffers
// cannot reach (Go's regexp and the backtracking matcher keep the strings
// they match in pooled machines, as far as the compiler knows, and the
// walker would go to the heap with them). It is made at the first match
// of the key, at a step per 64 bytes, and kept in *str for the patterns
// after: a copy per key, not per key and pattern.
func (p *pattern) match(key []byte, str *string, budget *int64) bool {
	left := *budget
	if len(*str) != len(key) {
		left -= int64(len(key)) / 64
		if left >= 0 {
			*str = string(key)
		}
	}
	var ok bool
	var err error
	if left < 0 {
		err = ecma.ErrBudget
	} else {
		ok, err = p.re.Match(*str, &left)
	}
	*budget = left
	if err != nil {
		panic(patternSpent{pattern: p.re.String(), key: string(key), err: err})
	}
	return ok
}

// patternSpent is a match that spent the call's budget (ecma.ErrBudget)
// or held too much at once (ecma.ErrDepth).
type patternSpent struct {
	pattern, key string
	err          error
}

// error is the walk's error for it: an ErrPattern naming the pattern and
// the key, both clipped.
func (p patternSpent) error() error {
	why := fmt.Sprintf("the call's %d pattern steps are spent", patternSteps)
	if errors.Is(p.err, ecma.ErrDepth) {
		why = fmt.Sprintf("the backtracking match holds more than %d choice points at once", ecma.MaxDepth)
	}
	return fmt.Errorf("%w: the pattern %q on the key %q: %s", ErrPattern, display.Clip(p.pattern, 100), display.Clip(p.key, 100), why)
}
