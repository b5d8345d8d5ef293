package norm

import (
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// JSON Schema patterns are ECMA-262 regular expressions, read as
// new RegExp(p, "u") reads them. regexp2's ECMAScript mode matches them,
// but it accepts syntax the u flag refuses (identity escapes such as \A and
// \Q, inline flags, lone braces), so the pattern is checked first.

type pattern struct {
	src string
	re  *regexp2.Regexp
}

func compilePattern(p string) (*pattern, error) {
	if err := checkECMA(p); err != nil {
		return nil, fmt.Errorf("pattern %q is not an ECMA-262 regular expression: %v", p, err)
	}
	re, err := regexp2.Compile(p, regexp2.ECMAScript|regexp2.Unicode)
	if err != nil {
		return nil, fmt.Errorf("pattern %q is not an ECMA-262 regular expression: %v", p, err)
	}
	re.MatchTimeout = 2 * time.Second
	return &pattern{src: p, re: re}, nil
}

func (p *pattern) match(key string) (bool, error) {
	ok, err := p.re.MatchString(key)
	if err != nil {
		return false, fmt.Errorf("pattern %q on key %q: %v", p.src, key, err)
	}
	return ok, nil
}

type ecmaChecker struct {
	p      []rune
	i      int
	groups int
	names  map[string]bool
	refs   []int
	nrefs  []string
}

func checkECMA(src string) error {
	if !utf8.ValidString(src) {
		return fmt.Errorf("not Unicode text")
	}
	c := &ecmaChecker{p: []rune(src), names: map[string]bool{}}
	if err := c.disjunction(); err != nil {
		return err
	}
	if c.i < len(c.p) {
		return fmt.Errorf("unmatched %q at %d", c.p[c.i], c.i)
	}
	for _, r := range c.refs {
		if r > c.groups {
			return fmt.Errorf("backreference \\%d to a group that does not exist", r)
		}
	}
	for _, n := range c.nrefs {
		if !c.names[n] {
			return fmt.Errorf("backreference to an unknown group name %q", n)
		}
	}
	return nil
}

func (c *ecmaChecker) more() bool { return c.i < len(c.p) }
func (c *ecmaChecker) peek() rune {
	if c.i < len(c.p) {
		return c.p[c.i]
	}
	return -1
}

func (c *ecmaChecker) disjunction() error {
	for {
		if err := c.alternative(); err != nil {
			return err
		}
		if c.peek() == '|' {
			c.i++
			continue
		}
		return nil
	}
}

func (c *ecmaChecker) alternative() error {
	for c.more() {
		r := c.peek()
		if r == '|' || r == ')' {
			return nil
		}
		quantifiable, err := c.term()
		if err != nil {
			return err
		}
		if c.isQuantifier() {
			if !quantifiable {
				return fmt.Errorf("nothing to repeat at %d", c.i)
			}
			if err := c.quantifier(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *ecmaChecker) isQuantifier() bool {
	switch c.peek() {
	case '*', '+', '?':
		return true
	case '{':
		_, _, _, ok := c.braces()
		return ok
	}
	return false
}

// braces reads {n}, {n,} or {n,m} at c.i without moving.
func (c *ecmaChecker) braces() (lo, hi int, end int, ok bool) {
	j := c.i + 1
	num := func() (int, bool) {
		s := j
		v := 0
		for j < len(c.p) && c.p[j] >= '0' && c.p[j] <= '9' {
			if v < 1<<30 {
				v = v*10 + int(c.p[j]-'0')
			}
			j++
		}
		return v, j > s
	}
	lo, ok = num()
	if !ok {
		return 0, 0, 0, false
	}
	hi = lo
	if j < len(c.p) && c.p[j] == ',' {
		j++
		hi = -1
		if v, ok2 := num(); ok2 {
			hi = v
		}
	}
	if j < len(c.p) && c.p[j] == '}' {
		return lo, hi, j + 1, true
	}
	return 0, 0, 0, false
}

func (c *ecmaChecker) quantifier() error {
	if c.peek() == '{' {
		lo, hi, end, _ := c.braces()
		if hi >= 0 && hi < lo {
			return fmt.Errorf("numbers out of order in quantifier")
		}
		c.i = end
	} else {
		c.i++
	}
	if c.peek() == '?' {
		c.i++
	}
	return nil
}

// term reads one assertion or atom; it says whether a quantifier may follow.
func (c *ecmaChecker) term() (bool, error) {
	r := c.p[c.i]
	switch r {
	case '^', '$':
		c.i++
		return false, nil
	case '.':
		c.i++
		return true, nil
	case '(':
		return c.group()
	case '[':
		return true, c.class()
	case '\\':
		return c.atomEscape()
	case '*', '+', '?':
		return false, fmt.Errorf("nothing to repeat at %d", c.i)
	case '{':
		return false, fmt.Errorf("lone '{' at %d", c.i)
	case '}':
		return false, fmt.Errorf("lone '}' at %d", c.i)
	case ']':
		return false, fmt.Errorf("lone ']' at %d", c.i)
	}
	c.i++
	return true, nil
}

func (c *ecmaChecker) group() (bool, error) {
	c.i++ // '('
	quantifiable := true
	if c.peek() == '?' {
		c.i++
		switch c.peek() {
		case ':':
			c.i++
		case '=', '!':
			c.i++
			quantifiable = false
		case '<':
			c.i++
			if c.peek() == '=' || c.peek() == '!' {
				c.i++
				quantifiable = false
				break
			}
			name, err := c.groupName()
			if err != nil {
				return false, err
			}
			if c.names[name] {
				return false, fmt.Errorf("duplicate group name %q", name)
			}
			c.names[name] = true
			c.groups++
		default:
			return false, fmt.Errorf("invalid group at %d", c.i)
		}
	} else {
		c.groups++
	}
	if err := c.disjunction(); err != nil {
		return false, err
	}
	if c.peek() != ')' {
		return false, fmt.Errorf("unterminated group")
	}
	c.i++
	return quantifiable, nil
}

// groupName reads name> after (?< or \k<.
func (c *ecmaChecker) groupName() (string, error) {
	start := c.i
	for c.more() && c.peek() != '>' {
		r := c.peek()
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' && c.i > start || r > 0x7F) {
			return "", fmt.Errorf("invalid group name")
		}
		c.i++
	}
	if !c.more() || c.i == start {
		return "", fmt.Errorf("invalid group name")
	}
	name := string(c.p[start:c.i])
	c.i++ // '>'
	return name, nil
}

func (c *ecmaChecker) atomEscape() (bool, error) {
	c.i++ // '\'
	if !c.more() {
		return false, fmt.Errorf("\\ at end of pattern")
	}
	r := c.peek()
	switch {
	case r == 'b' || r == 'B':
		c.i++
		return false, nil
	case r >= '1' && r <= '9':
		v := 0
		for c.more() && c.peek() >= '0' && c.peek() <= '9' {
			if v < 1<<20 {
				v = v*10 + int(c.peek()-'0')
			}
			c.i++
		}
		c.refs = append(c.refs, v)
		return true, nil
	case r == 'k':
		c.i++
		if c.peek() != '<' {
			return false, fmt.Errorf("invalid named reference")
		}
		c.i++
		name, err := c.groupName()
		if err != nil {
			return false, err
		}
		c.nrefs = append(c.nrefs, name)
		return true, nil
	}
	_, err := c.charEscape(false)
	return true, err
}

// charEscape reads what follows '\' (at c.i); it returns whether the
// escape is one character (so that it may end a range in a class).
func (c *ecmaChecker) charEscape(inClass bool) (bool, error) {
	r := c.peek()
	c.i++
	switch r {
	case 'd', 'D', 's', 'S', 'w', 'W':
		return false, nil
	case 'p', 'P':
		if c.peek() != '{' {
			return false, fmt.Errorf("invalid property escape")
		}
		c.i++
		start := c.i
		for c.more() && c.peek() != '}' {
			x := c.peek()
			if !(x == '_' || x == '=' || x >= 'a' && x <= 'z' || x >= 'A' && x <= 'Z' || x >= '0' && x <= '9') {
				return false, fmt.Errorf("invalid property name")
			}
			c.i++
		}
		if !c.more() || c.i == start {
			return false, fmt.Errorf("invalid property escape")
		}
		c.i++
		return false, nil
	case 'f', 'n', 'r', 't', 'v':
		return true, nil
	case 'c':
		x := c.peek()
		if x >= 'a' && x <= 'z' || x >= 'A' && x <= 'Z' {
			c.i++
			return true, nil
		}
		return false, fmt.Errorf("invalid control escape")
	case '0':
		if x := c.peek(); x >= '0' && x <= '9' {
			return false, fmt.Errorf("invalid decimal escape")
		}
		return true, nil
	case 'x':
		for k := 0; k < 2; k++ {
			if !c.more() || c.peek() > 0x7F || !isHex(byte(c.peek())) {
				return false, fmt.Errorf("invalid \\x escape")
			}
			c.i++
		}
		return true, nil
	case 'u':
		if c.peek() == '{' {
			c.i++
			v := 0
			start := c.i
			for c.more() && c.peek() != '}' {
				x := c.peek()
				if x > 0x7F || !isHex(byte(x)) {
					return false, fmt.Errorf("invalid \\u{} escape")
				}
				v = v*16 + hexVal(byte(x))
				if v > 0x10FFFF {
					return false, fmt.Errorf("\\u{} escape past U+10FFFF")
				}
				c.i++
			}
			if !c.more() || c.i == start {
				return false, fmt.Errorf("invalid \\u{} escape")
			}
			c.i++
			return true, nil
		}
		for k := 0; k < 4; k++ {
			if !c.more() || c.peek() > 0x7F || !isHex(byte(c.peek())) {
				return false, fmt.Errorf("invalid \\u escape")
			}
			c.i++
		}
		return true, nil
	case '^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/':
		return true, nil
	case '-':
		if inClass {
			return true, nil
		}
	case 'b':
		if inClass {
			return true, nil
		}
	}
	return false, fmt.Errorf("invalid escape \\%c", r)
}

func (c *ecmaChecker) class() error {
	c.i++ // '['
	if c.peek() == '^' {
		c.i++
	}
	for {
		if !c.more() {
			return fmt.Errorf("unterminated character class")
		}
		if c.peek() == ']' {
			c.i++
			return nil
		}
		loSingle, lo, err := c.classAtom()
		if err != nil {
			return err
		}
		if c.peek() == '-' && c.i+1 < len(c.p) && c.p[c.i+1] != ']' {
			c.i++
			hiSingle, hi, err := c.classAtom()
			if err != nil {
				return err
			}
			if !loSingle || !hiSingle {
				return fmt.Errorf("invalid character class range")
			}
			if lo > hi {
				return fmt.Errorf("range out of order in character class")
			}
		}
	}
}

// classAtom reads one class atom; it returns whether it is one character,
// and which.
func (c *ecmaChecker) classAtom() (bool, rune, error) {
	r := c.peek()
	if r != '\\' {
		c.i++
		return true, r, nil
	}
	c.i++
	if !c.more() {
		return false, 0, fmt.Errorf("\\ at end of pattern")
	}
	start := c.i
	single, err := c.charEscape(true)
	if err != nil {
		return false, 0, err
	}
	if !single {
		return false, 0, nil
	}
	return true, escapeValue(c.p[start:c.i]), nil
}

// escapeValue is the character a one-character escape (without its '\')
// stands for.
func escapeValue(e []rune) rune {
	switch e[0] {
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	case 'b':
		return '\b'
	case '0':
		return 0
	case 'c':
		return e[1] % 32
	case 'x', 'u':
		v := 0
		for _, x := range e[1:] {
			if x == '{' || x == '}' {
				continue
			}
			v = v*16 + hexVal(byte(x))
		}
		return rune(v)
	}
	return e[0]
}
