// Package ecma reads JSON Schema patterns as ECMA-262 regular expressions
// with the u flag (docs/readings.md section 4): the syntax that
// `new RegExp(p, "u")` accepts, and its matching, with a budget of steps
// that does not depend on the machine's speed.
//
// A pattern with no lookaround and no backreference is regular: it is
// translated to Go's regexp (RE2) syntax with ECMA-262's meaning of every
// construct, and matched in time linear in the input, paid from the
// budget in proportion (its program's size per byte). Any other pattern
// is matched by a backtracking matcher with explicit stacks, that counts
// its steps and bounds what it holds ([MaxDepth]). Either way a match's
// time and memory are bounded by its budget, whatever the input; and
// compiling a pattern by its length ([MaxPatternBytes] at most).
package ecma

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

type kind uint8

const (
	kSet      kind = iota // one character of a set
	kSeq                  // subs in order
	kAlt                  // one of subs
	kGroup                // capture group cap around subs[0]
	kRepeat               // subs[0] min to max times (max -1: no bound)
	kBOL                  // ^
	kEOL                  // $
	kWordB                // \b
	kNotWordB             // \B
	kLook                 // lookahead or lookbehind around subs[0]
	kBackref              // \N or \k<name>
)

type node struct {
	id       int32 // its index in Regexp.nodes
	kind     kind
	set      ranges
	subs     []*node
	one      [1]*node // subs, when it is one
	cap      int      // kGroup, kBackref
	min, max int
	greedy   bool
	behind   bool // kLook
	negate   bool // kLook
	// kRepeat: the capture groups inside, capLo to capHi (none when
	// capLo > capHi), which each iteration resets.
	capLo, capHi int
}

// markCaptures sets capLo and capHi on each repetition under n, and
// returns the groups n holds.
func markCaptures(n *node) (lo, hi int) {
	lo, hi = 1<<30, 0
	if n.kind == kGroup {
		lo, hi = n.cap, n.cap
	}
	for _, s := range n.subs {
		l, h := markCaptures(s)
		lo, hi = min(lo, l), max(hi, h)
	}
	if n.kind == kRepeat {
		n.capLo, n.capHi = lo, hi
	}
	return lo, hi
}

// SyntaxError is a pattern ECMA-262 refuses, or one whose Unicode
// property toolnorm does not know, or one past toolnorm's limits (Limit).
type SyntaxError struct {
	Pattern string
	Offset  int // in bytes
	Msg     string
	// Limit: the pattern is beyond one of toolnorm's limits, which bound
	// the time and memory of compiling a pattern (ECMA-262 sets none):
	// its length (MaxPatternBytes), how deep its groups nest (1,000), how
	// many character ranges its classes hold (65,536, as \p{L} has 650).
	Limit bool
}

func (e *SyntaxError) Error() string {
	p := e.Pattern
	if len(p) > 200 {
		cut := 100
		for cut > 0 && !utf8.RuneStart(p[cut]) {
			cut--
		}
		p = fmt.Sprintf("%s...(%d bytes)", p[:cut], len(p))
	}
	if e.Limit {
		return fmt.Sprintf("regular expression /%s/u is beyond toolnorm's limits: %s (offset %d)", p, e.Msg, e.Offset)
	}
	return fmt.Sprintf("invalid regular expression /%s/u: %s (offset %d)", p, e.Msg, e.Offset)
}

// MaxPatternBytes is the longest pattern Compile reads. Compiling one
// costs up to a few hundred bytes of memory per byte, in toolnorm and in
// Go's regexp (docs/performance.md, "Bounded on every input: patterns").
const MaxPatternBytes = 32 << 10

const (
	maxNesting = 1000    // groups and lookarounds inside one another
	maxRanges  = 1 << 16 // character ranges in the sets of a pattern
)

type parser struct {
	src    string
	i      int
	depth  int      // groups open
	ranges int      // in the sets made so far
	ncap   int      // groups opened so far
	total  int      // groups in the whole pattern
	names  []string // group names, by index-1
	refs   []*node  // \k<name> to resolve at the end, by name in set... (see namedRefs)
	named  []string
	nodes  []*node // made so far, by id
}

func (p *parser) fail(format string, args ...any) {
	panic(&SyntaxError{Pattern: p.src, Offset: p.i, Msg: fmt.Sprintf(format, args...)})
}

// limit fails for one of toolnorm's limits.
func (p *parser) limit(format string, args ...any) {
	panic(&SyntaxError{Pattern: p.src, Offset: p.i, Msg: fmt.Sprintf(format, args...), Limit: true})
}

// count counts n more ranges in the pattern's sets.
func (p *parser) count(n int) {
	if p.ranges += n; p.ranges > maxRanges {
		p.limit("its character classes hold more than %d ranges", maxRanges)
	}
}

// setNode is a node for one character of set.
func (p *parser) setNode(set ranges) *node {
	p.count(len(set))
	return p.node(node{kind: kSet, set: set})
}

// node returns a new node like n, numbered: its id is its index in
// p.nodes.
func (p *parser) node(n node) *node {
	m := &n
	m.id = int32(len(p.nodes))
	p.nodes = append(p.nodes, m)
	return m
}

// node1 is node, for a node with the one sub s.
func (p *parser) node1(n node, s *node) *node {
	m := p.node(n)
	m.one[0] = s
	m.subs = m.one[:]
	return m
}

// parse returns the tree of src, and its nodes by id.
func parse(src string) (n *node, nodes []*node, ncap int, err error) {
	if !utf8.ValidString(src) {
		return nil, nil, 0, &SyntaxError{Pattern: src, Msg: "not valid UTF-8"}
	}
	if len(src) > MaxPatternBytes {
		return nil, nil, 0, &SyntaxError{Pattern: src, Msg: fmt.Sprintf("longer than %d bytes", MaxPatternBytes), Limit: true}
	}
	// A pattern of n bytes has about n+2 nodes.
	p := &parser{src: src, nodes: make([]*node, 0, len(src)+2)}
	p.total, p.names = countGroups(src)
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				panic(r)
			}
			n, nodes, err = nil, nil, se
		}
	}()
	n = p.disjunction()
	if p.i < len(src) {
		p.fail("unmatched ')'")
	}
	for i, name := range p.named {
		idx := slicesIndex(p.names, name)
		if idx < 0 {
			p.i = 0
			p.fail("invalid named reference \\k<%s>: no such group", name)
		}
		p.refs[i].cap = idx + 1
	}
	markCaptures(n)
	return n, p.nodes, p.ncap, nil
}

func slicesIndex(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// countGroups counts the capture groups of src and their names ("" for
// an unnamed one), skipping escapes and classes.
func countGroups(src string) (int, []string) {
	var names []string
	inClass := false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			if strings.HasPrefix(src[i:], "(?<") && !strings.HasPrefix(src[i:], "(?<=") && !strings.HasPrefix(src[i:], "(?<!") {
				end := strings.IndexByte(src[i:], '>')
				if end < 0 {
					names = append(names, "")
				} else {
					names = append(names, src[i+3:i+end])
				}
			} else if !strings.HasPrefix(src[i:], "(?") {
				names = append(names, "")
			}
		}
	}
	return len(names), names
}

func (p *parser) more() bool { return p.i < len(p.src) }
func (p *parser) peek() byte {
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

func (p *parser) disjunction() *node {
	alts := []*node{p.alternative()}
	for p.more() && p.peek() == '|' {
		p.i++
		alts = append(alts, p.alternative())
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return p.node(node{kind: kAlt, subs: alts})
}

func (p *parser) alternative() *node {
	seq := p.node(node{kind: kSeq})
	for p.more() && p.peek() != '|' && p.peek() != ')' {
		seq.subs = append(seq.subs, p.term())
	}
	return seq
}

func (p *parser) term() *node {
	start := p.i
	var atom *node
	quantifiable := true
	switch c := p.peek(); c {
	case '^':
		p.i++
		return p.node(node{kind: kBOL})
	case '$':
		p.i++
		return p.node(node{kind: kEOL})
	case '\\':
		if strings.HasPrefix(p.src[p.i:], `\b`) {
			p.i += 2
			return p.node(node{kind: kWordB})
		}
		if strings.HasPrefix(p.src[p.i:], `\B`) {
			p.i += 2
			return p.node(node{kind: kNotWordB})
		}
		atom = p.atomEscape()
	case '(':
		atom, quantifiable = p.group()
	case '.':
		p.i++
		atom = p.setNode(dotSet)
	case '[':
		atom = p.node(node{kind: kSet, set: p.class()}) // counted as it is read
	case '*', '+', '?':
		p.fail("nothing to repeat")
	case '{':
		p.fail("lone quantifier brackets")
	case ')', ']', '}':
		p.fail("lone %q", c)
	default:
		r, size := utf8.DecodeRuneInString(p.src[p.i:])
		p.i += size
		atom = p.setNode(single(r))
	}
	if !p.more() {
		return atom
	}
	min, max := -1, -1
	switch p.peek() {
	case '*':
		min, max = 0, -1
		p.i++
	case '+':
		min, max = 1, -1
		p.i++
	case '?':
		min, max = 0, 1
		p.i++
	case '{':
		var ok bool
		min, max, ok = p.braces()
		if !ok {
			p.fail("incomplete quantifier")
		}
	default:
		return atom
	}
	if !quantifiable {
		p.i = start
		p.fail("invalid quantifier: an assertion cannot be repeated")
	}
	greedy := true
	if p.more() && p.peek() == '?' {
		greedy = false
		p.i++
	}
	return p.node1(node{kind: kRepeat, min: min, max: max, greedy: greedy}, atom)
}

// braces reads {n}, {n,} or {n,m} at p.i.
func (p *parser) braces() (int, int, bool) {
	j := p.i + 1
	num := func() (int, bool) {
		k := j
		for j < len(p.src) && '0' <= p.src[j] && p.src[j] <= '9' {
			j++
		}
		if j == k {
			return 0, false
		}
		n, err := strconv.Atoi(p.src[k:j])
		if err != nil {
			n = 1 << 30 // larger than any key
		}
		return n, true
	}
	min, ok := num()
	if !ok {
		return 0, 0, false
	}
	max := min
	if j < len(p.src) && p.src[j] == ',' {
		j++
		if j < len(p.src) && p.src[j] == '}' {
			max = -1
		} else if max, ok = num(); !ok {
			return 0, 0, false
		}
	}
	if j >= len(p.src) || p.src[j] != '}' {
		return 0, 0, false
	}
	p.i = j + 1
	if max >= 0 && max < min {
		p.fail("numbers out of order in {} quantifier")
	}
	return min, max, true
}

func (p *parser) group() (*node, bool) {
	if p.depth++; p.depth > maxNesting {
		p.limit("groups nest more than %d deep", maxNesting)
	}
	defer func() { p.depth-- }()
	rest := p.src[p.i:]
	var n *node
	quantifiable := true
	switch {
	case strings.HasPrefix(rest, "(?:"):
		p.i += 3
		n = p.node1(node{kind: kSeq}, p.disjunction())
	case strings.HasPrefix(rest, "(?="), strings.HasPrefix(rest, "(?!"):
		p.i += 3
		n = p.node1(node{kind: kLook, negate: rest[2] == '!'}, p.disjunction())
		quantifiable = false
	case strings.HasPrefix(rest, "(?<="), strings.HasPrefix(rest, "(?<!"):
		p.i += 4
		n = p.node1(node{kind: kLook, behind: true, negate: rest[3] == '!'}, p.disjunction())
		quantifiable = false
	case strings.HasPrefix(rest, "(?<"):
		p.i += 3
		end := strings.IndexByte(p.src[p.i:], '>')
		if end < 0 || !validGroupName(p.src[p.i:p.i+end]) {
			p.fail("invalid capture group name")
		}
		name := p.src[p.i : p.i+end]
		for i, other := range p.names[:p.ncap] {
			if other == name && i != p.ncap {
				p.fail("duplicate capture group name %q", name)
			}
		}
		p.i += end + 1
		p.ncap++
		idx := p.ncap
		n = p.node1(node{kind: kGroup, cap: idx}, p.disjunction())
	case strings.HasPrefix(rest, "(?"):
		p.i++
		p.fail("invalid group")
	default:
		p.i++
		p.ncap++
		idx := p.ncap
		n = p.node1(node{kind: kGroup, cap: idx}, p.disjunction())
	}
	if !p.more() || p.peek() != ')' {
		p.fail("unterminated group")
	}
	p.i++
	return n, quantifiable
}

// validGroupName reports whether s is an IdentifierName (letters, $ and _
// to start, digits too after; Unicode letters by Go's tables).
func validGroupName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '$' || r == '_' || isIDStart(r) || i > 0 && (isIDContinue(r) || r == '\u200c' || r == '\u200d')
		if !ok {
			return false
		}
	}
	return true
}

// atomEscape reads an escape outside a class at p.i (the backslash).
func (p *parser) atomEscape() *node {
	p.i++
	if !p.more() {
		p.fail("\\ at end of pattern")
	}
	c := p.peek()
	switch {
	case c >= '1' && c <= '9':
		j := p.i
		for j < len(p.src) && '0' <= p.src[j] && p.src[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(p.src[p.i:j])
		if err != nil || n > p.total {
			p.fail("invalid escape: no group %s", p.src[p.i:j])
		}
		p.i = j
		return p.node(node{kind: kBackref, cap: n})
	case c == 'k':
		p.i++
		if !p.more() || p.peek() != '<' {
			p.fail("invalid named reference")
		}
		end := strings.IndexByte(p.src[p.i:], '>')
		if end < 0 || !validGroupName(p.src[p.i+1:p.i+end]) {
			p.fail("invalid named reference")
		}
		name := p.src[p.i+1 : p.i+end]
		p.i += end + 1
		n := p.node(node{kind: kBackref})
		p.refs = append(p.refs, n)
		p.named = append(p.named, name)
		return n
	}
	return p.setNode(p.escapeSet(false))
}

// escapeSet reads a character escape or a class escape after the
// backslash, in a class or not.
func (p *parser) escapeSet(inClass bool) ranges {
	start := p.i - 1 // the backslash
	c := p.peek()
	p.i++
	switch c {
	case 'd':
		return digitSet
	case 'D':
		return digitSet.negate()
	case 's':
		return spaceSet
	case 'S':
		return spaceSet.negate()
	case 'w':
		return wordSet
	case 'W':
		return wordSet.negate()
	case 'p', 'P':
		set := p.property()
		if c == 'P' {
			return set.negate()
		}
		return set
	}
	p.i--
	r, ok := p.characterEscape(inClass)
	if !ok {
		p.i = start
		p.fail("invalid escape")
	}
	return single(r)
}

// characterEscape reads an escape that stands for one character, after
// the backslash.
func (p *parser) characterEscape(inClass bool) (rune, bool) {
	c := p.peek()
	p.i++
	switch c {
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	case 'c':
		if p.more() && ('a' <= p.peek()|0x20 && p.peek()|0x20 <= 'z') {
			r := rune(p.peek() % 32)
			p.i++
			return r, true
		}
		return 0, false
	case '0':
		if p.more() && '0' <= p.peek() && p.peek() <= '9' {
			return 0, false
		}
		return 0, true
	case 'x':
		if p.i+2 <= len(p.src) {
			if v, err := strconv.ParseUint(p.src[p.i:p.i+2], 16, 8); err == nil && isHex(p.src[p.i]) && isHex(p.src[p.i+1]) {
				p.i += 2
				return rune(v), true
			}
		}
		return 0, false
	case 'u':
		return p.unicodeEscape()
	case '^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/':
		return rune(c), true
	case '-':
		return '-', inClass
	case 'b':
		return '\b', inClass
	}
	return 0, false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
}

// unicodeEscape reads what follows \u: HHHH (a surrogate pair of two
// such escapes is one character) or {H...}.
func (p *parser) unicodeEscape() (rune, bool) {
	hex4 := func(at int) (rune, bool) {
		if at+4 > len(p.src) {
			return 0, false
		}
		for k := at; k < at+4; k++ {
			if !isHex(p.src[k]) {
				return 0, false
			}
		}
		v, _ := strconv.ParseUint(p.src[at:at+4], 16, 16)
		return rune(v), true
	}
	if p.more() && p.peek() == '{' {
		end := strings.IndexByte(p.src[p.i:], '}')
		if end < 2 {
			return 0, false
		}
		digits := p.src[p.i+1 : p.i+end]
		for k := 0; k < len(digits); k++ {
			if !isHex(digits[k]) {
				return 0, false
			}
		}
		v, err := strconv.ParseUint(digits, 16, 32)
		if err != nil || v > 0x10FFFF {
			return 0, false
		}
		p.i += end + 1
		return rune(v), true
	}
	r, ok := hex4(p.i)
	if !ok {
		return 0, false
	}
	p.i += 4
	if 0xD800 <= r && r <= 0xDBFF && strings.HasPrefix(p.src[p.i:], `\u`) {
		if lo, ok := hex4(p.i + 2); ok && 0xDC00 <= lo && lo <= 0xDFFF {
			p.i += 6
			return (r-0xD800)<<10 + (lo - 0xDC00) + 0x10000, true
		}
	}
	return r, true
}

// class reads a character class at p.i ('[').
func (p *parser) class() ranges {
	p.i++
	negate := false
	if p.more() && p.peek() == '^' {
		negate = true
		p.i++
	}
	var set ranges
	for {
		if !p.more() {
			p.fail("unterminated character class")
		}
		if p.peek() == ']' {
			p.i++
			break
		}
		lo, loSet := p.classAtom()
		if p.more() && p.peek() == '-' && p.i+1 < len(p.src) && p.src[p.i+1] != ']' {
			p.i++
			hi, hiSet := p.classAtom()
			if loSet != nil || hiSet != nil {
				p.fail("invalid character class: a class escape cannot bound a range")
			}
			if hi < lo {
				p.fail("range out of order in character class")
			}
			p.count(1)
			set = append(set, rng{lo, hi})
			continue
		}
		if loSet != nil {
			p.count(len(loSet))
			set = append(set, loSet...)
		} else {
			p.count(1)
			set = append(set, rng{lo, lo})
		}
	}
	set = set.normalize()
	if negate {
		p.count(1) // the negation has one range more at most
		return set.negate()
	}
	return set
}

// classAtom reads one character, or a class escape (its set), in a class.
func (p *parser) classAtom() (rune, ranges) {
	if p.peek() != '\\' {
		r, size := utf8.DecodeRuneInString(p.src[p.i:])
		p.i += size
		return r, nil
	}
	p.i++
	if !p.more() {
		p.fail("\\ at end of pattern")
	}
	switch p.peek() {
	case 'd', 'D', 's', 'S', 'w', 'W', 'p', 'P':
		return 0, p.escapeSet(true)
	}
	start := p.i
	r, ok := p.characterEscape(true)
	if !ok {
		p.i = start - 1
		p.fail("invalid escape in a character class")
	}
	return r, nil
}

// property reads {Name} or {Name=Value} after \p or \P.
func (p *parser) property() ranges {
	if !p.more() || p.peek() != '{' {
		p.fail("invalid property name")
	}
	end := strings.IndexByte(p.src[p.i:], '}')
	if end < 0 {
		p.fail("invalid property name")
	}
	body := p.src[p.i+1 : p.i+end]
	set, msg := propertySet(body)
	if msg != "" {
		p.fail("%s", msg)
	}
	p.i += end + 1
	return set
}
