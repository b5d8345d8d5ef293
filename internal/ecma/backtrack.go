package ecma

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"
)

// The backtracking matcher is a machine with explicit stacks, not a
// recursion: a match holds no Go stack and allocates nothing per step, so
// that its cost is its steps, whatever the key's length (issue 34: the
// matcher it replaced recursed once per character or more, and 192 KB of
// key overflowed Go's 1 GB stack). It tries what ECMA-262's matchers try,
// in the same order, as continuation-passing code would:
//
//   - a continuation (what to do after a node matched) is a frame,
//     immutable once pushed, linked to the next by index;
//   - a choice point (what to try when the current path fails) holds a
//     continuation and how long the frames and the trail were, so that
//     backtracking to it drops the frames pushed since and undoes the
//     captures set since (the trail records each capture's value before).
//
// A lookaround pushes a choice point as a barrier: when its pattern
// matches, the choice points above are cut (it is atomic); when they are
// all spent, the barrier says what follows (a negative one succeeds).

// MaxDepth bounds what one backtracking match holds at once: its frames
// (32 bytes each) and choice points (40), and a quarter of its trail
// entries (16), so 16 MB at most, 32 MB allocated as the stacks double.
// Past it the match stops with [ErrDepth]. A path holds one to a few units
// per character it has consumed (one per node the pattern nests around a
// repetition), none for a repetition of one character (.*, [a-z]+): keys
// of 25,000 characters or more under any pattern of a few nested groups,
// of any length under most, match within it (docs/readings.md section 4).
const MaxDepth = 250_000

// ErrDepth is returned by Match when a backtracking match holds more than
// [MaxDepth] frames and choice points at once.
var ErrDepth = errors.New("the backtracking match holds more than its bound of choice points")

// A frame is a continuation: what to do at the position where the node
// before it ended.
type frame struct {
	op   frameOp
	back bool  // matching backwards, in a lookbehind
	node int32 // the node's id: no pointer, so the stacks are no work for the GC
	n    int   // fSeq: the sub to match next; fRepeat: the iterations so far
	pos  int   // fGroup: where the group began; fRepeat: where the last iteration began
	next int32 // the continuation after this one, or accept
}

type frameOp uint8

const (
	fSeq    frameOp = iota // match node.subs[n], then the rest
	fGroup                 // set the capture, then next
	fRepeat                // one more iteration of node ended here
	fLook                  // the lookaround's pattern matched: n is its barrier
)

// accept is the continuation of a whole match.
const accept = -1

// A choice is a choice point.
type choice struct {
	op     choiceOp
	back   bool
	node   int32
	n      int // cAlt: the alternative to try; cRepeat, cTake: the iterations so far; cGive: where the repetition began
	pos    int
	cont   int32 // the continuation
	frames int32 // len(m.frames) when pushed
	trail  int32 // len(m.trail) when pushed
}

type choiceOp uint8

const (
	cAlt    choiceOp = iota // try node.subs[n] at pos
	cResume                 // go on with cont at pos (a greedy repetition, done)
	cRepeat                 // one more iteration of node at pos (a lazy repetition)
	cLook                   // the barrier of a lookaround at pos: its pattern failed
	cGive                   // a greedy repetition of a set gives back a character
	cTake                   // a lazy repetition of a set takes one more
)

// undo is a trail entry: a capture's value before it was set.
type undo struct {
	at  int
	old int
}

type matcher struct {
	nodes   []*node // by id
	in      string  // matched as UTF-8: each byte that is not is a U+FFFD
	caps    []int   // in bytes
	left    int64   // steps
	frames  []frame
	choices []choice
	trail   []undo
	last    []int32 // by capture: 1 + where on the trail it was last saved, 0 if not
	// deepest is the most depth held, for the tests.
	deepest int
	valid   int8  // whether in is UTF-8: 0 not known yet, 1 yes, 2 no
	err     error // ErrBudget or ErrDepth, once the match must stop
}

// backtrack matches s by backtracking, whatever the pattern: it returns
// the first match's captures, as ECMA-262's RegExpBuiltinExec finds them
// (pairs of start and end in bytes of s, -1 for undefined; the whole
// match first), or nil when there is none.
func (re *Regexp) backtrack(s string, budget *int64) ([]int, error) {
	_, caps, err := re.run(s, budget)
	return caps, err
}

// run is backtrack, that also returns the most depth the match held, for
// the tests.
func (re *Regexp) run(s string, budget *int64) (deepest int, caps []int, err error) {
	// The matcher counts its own steps and gives back what is left, so
	// that budget, often a field of the caller's, stays where it is. The
	// captures cost a step per 8, once: a match that fails leaves them
	// undefined again.
	m := matchers.Get().(*matcher)
	*m = matcher{nodes: re.nodes, in: s, left: *budget, frames: m.frames[:0], choices: m.choices[:0], trail: m.trail[:0]}
	defer func() {
		*budget, deepest = m.left, m.deepest
		if cap(m.frames)+cap(m.choices)+cap(m.trail) <= maxPooled {
			m.nodes, m.in, m.caps, m.last = nil, "", nil, nil
			matchers.Put(m)
		}
	}()
	if !m.step(1 + int64(re.ncap)/8) {
		return 0, nil, fmt.Errorf("%w", m.err)
	}
	m.caps, m.last = make([]int, 2*(re.ncap+1)), make([]int32, 2*(re.ncap+1))
	for i := range m.caps {
		m.caps[i] = -1
	}
	last := len(s)
	if re.anchored {
		last = 0 // ^ matches only at the start
	}
	for start := 0; ; {
		if end, ok := m.exec(re.root, start); ok {
			m.caps[0], m.caps[1] = start, end
			return 0, m.caps, nil
		}
		if m.err != nil {
			return 0, nil, fmt.Errorf("%w", m.err)
		}
		if start >= last {
			return 0, nil, nil
		}
		_, start, _ = next(s, start, false) // the next character
	}
}

// matchers keeps the stacks of matches that ended, for the next, as long
// as they are small: at most maxPooled entries (2.5 MB).
var matchers = sync.Pool{New: func() any { return new(matcher) }}

const maxPooled = 1 << 16

// step spends cost steps, or stops the match.
func (m *matcher) step(cost int64) bool {
	if m.err != nil {
		return false
	}
	m.left -= cost
	if m.left < 0 {
		m.err = ErrBudget
		return false
	}
	return true
}

// grew checks the depth after a push. Each unit past the deepest the
// match held before costs depthSteps: memory new to the match, which
// growing the stacks from nothing (a page at a time) takes about the time
// of that many steps (BenchmarkStepCost).
func (m *matcher) grew() {
	d := len(m.frames) + len(m.choices) + len(m.trail)/4
	if d > m.deepest {
		m.step(int64(d-m.deepest) * depthSteps)
		m.deepest = d
	}
	if d > MaxDepth && m.err == nil {
		m.err = ErrDepth
	}
}

const depthSteps = 8

// The stacks double when full, so that all they allocate, as they grow,
// is twice what they hold at most.

func (m *matcher) pushFrame(f frame) int32 {
	if len(m.frames) == cap(m.frames) {
		m.frames = slices.Grow(m.frames, max(cap(m.frames), 64))
	}
	m.frames = append(m.frames, f)
	m.grew()
	return int32(len(m.frames) - 1)
}

func (m *matcher) pushChoice(c choice) {
	c.frames, c.trail = int32(len(m.frames)), int32(len(m.trail))
	if len(m.choices) == cap(m.choices) {
		m.choices = slices.Grow(m.choices, max(cap(m.choices), 64))
	}
	m.choices = append(m.choices, c)
	m.grew()
}

// set sets a capture, on the trail: unless it was set since the newest
// choice point, when its value there is on the trail already.
func (m *matcher) set(at, v int) {
	if m.caps[at] == v {
		return
	}
	top := 0
	if n := len(m.choices); n > 0 {
		top = int(m.choices[n-1].trail)
	}
	if p := int(m.last[at]) - 1; p < top || p >= len(m.trail) || m.trail[p].at != at {
		if len(m.trail) == cap(m.trail) {
			m.trail = slices.Grow(m.trail, max(cap(m.trail), 64))
		}
		m.trail = append(m.trail, undo{at, m.caps[at]})
		m.last[at] = int32(len(m.trail))
		if len(m.trail)%4 == 0 {
			m.grew()
		}
	}
	m.caps[at] = v
}

// undo restores the captures set since the trail was n long.
func (m *matcher) undo(n int32) {
	for k := len(m.trail) - 1; k >= int(n); k-- {
		m.caps[m.trail[k].at] = m.trail[k].old
	}
	m.trail = m.trail[:n]
}

// The machine's modes.
const (
	try    = iota // match node n at i (backwards if back), then continuation c
	resume        // go on with continuation c at i
	fail          // backtrack to the last choice point
)

// exec matches root at start, and reports where the first match ends.
// Each node tried takes a step, and each group closed: no other work
// goes unpaid, but the popping of choice points and frames, each pushed
// by a step.
func (m *matcher) exec(root *node, start int) (int, bool) {
	m.frames, m.choices, m.trail = m.frames[:0], m.choices[:0], m.trail[:0]
	n, i, back, c, mode := root, start, false, int32(accept), try
	for m.err == nil {
		switch mode {
		case try:
			if !m.step(1) {
				break
			}
			mode = fail
			switch n.kind {
			case kSet:
				if r, j, ok := next(m.in, i, back); ok && n.set.has(r) {
					i, mode = j, resume
				}
			case kSeq:
				if len(n.subs) == 0 {
					mode = resume
					break
				}
				first, rest := 0, 1
				if back {
					first, rest = len(n.subs)-1, len(n.subs)-2
				}
				if len(n.subs) > 1 {
					c = m.pushFrame(frame{op: fSeq, back: back, node: n.id, n: rest, next: c})
				}
				n, mode = n.subs[first], try
			case kAlt:
				m.pushChoice(choice{op: cAlt, back: back, node: n.id, n: 1, pos: i, cont: c})
				n, mode = n.subs[0], try
			case kGroup:
				c = m.pushFrame(frame{op: fGroup, back: back, node: n.id, pos: i, next: c})
				n, mode = n.subs[0], try
			case kRepeat:
				if n.subs[0].kind == kSet {
					i, mode = m.repeatSet(n, i, back, c)
				} else {
					n, c, mode = m.repeat(n, 0, i, -1, back, c)
				}
			case kBOL:
				if i == 0 {
					mode = resume
				}
			case kEOL:
				if i == len(m.in) {
					mode = resume
				}
			case kWordB:
				if m.isWordBefore(i) != m.isWordAt(i) {
					mode = resume
				}
			case kNotWordB:
				if m.isWordBefore(i) == m.isWordAt(i) {
					mode = resume
				}
			case kLook:
				m.pushChoice(choice{op: cLook, back: back, node: n.id, pos: i, cont: c})
				c = m.pushFrame(frame{op: fLook, back: n.behind, node: n.id, n: len(m.choices) - 1, next: accept})
				n, back, mode = n.subs[0], n.behind, try
			case kBackref:
				lo, hi := m.caps[2*n.cap], m.caps[2*n.cap+1]
				if lo < 0 || hi < 0 {
					mode = resume
				} else if j, ok := m.backref(lo, hi, i, back); ok {
					i, mode = j, resume
				}
			}
		case resume:
			if c == accept {
				return i, true
			}
			f := m.frames[c]
			switch f.op {
			case fSeq:
				subs := m.nodes[f.node].subs
				n, back, c, mode = subs[f.n], f.back, f.next, try
				switch {
				case !back && f.n+1 < len(subs):
					c = m.pushFrame(frame{op: fSeq, node: f.node, n: f.n + 1, next: f.next})
				case back && f.n > 0:
					c = m.pushFrame(frame{op: fSeq, back: true, node: f.node, n: f.n - 1, next: f.next})
				}
			case fGroup:
				// A step too: groups nest, and the frames of all of them
				// can be resumed again after each choice inside.
				if !m.step(1) {
					break
				}
				at := 2 * m.nodes[f.node].cap
				if f.back {
					m.set(at, i)
					m.set(at+1, f.pos)
				} else {
					m.set(at, f.pos)
					m.set(at+1, i)
				}
				c = f.next
			case fRepeat:
				back = f.back
				n, c, mode = m.repeat(m.nodes[f.node], f.n, i, f.pos, back, f.next)
			case fLook:
				// The lookaround's pattern matched: its choice points go.
				b := m.choices[f.n]
				m.choices, m.frames = m.choices[:f.n], m.frames[:b.frames]
				if m.nodes[b.node].negate {
					m.undo(b.trail)
					mode = fail
				} else {
					i, c = b.pos, b.cont
				}
			}
		case fail:
			if len(m.choices) == 0 {
				m.undo(0)
				return 0, false
			}
			ch := m.choices[len(m.choices)-1]
			m.choices = m.choices[:len(m.choices)-1]
			m.undo(ch.trail)
			m.frames = m.frames[:ch.frames]
			i, back, c = ch.pos, ch.back, ch.cont
			switch ch.op {
			case cAlt:
				subs := m.nodes[ch.node].subs
				if ch.n+1 < len(subs) {
					ch.n++
					m.choices = append(m.choices, ch)
					ch.n--
				}
				n, mode = subs[ch.n], try
			case cResume:
				mode = resume
			case cRepeat:
				n, c, mode = m.iterate(m.nodes[ch.node], ch.n, i, back, c)
			case cLook:
				if m.nodes[ch.node].negate {
					mode = resume
				}
			case cGive:
				// Give back one character, and try what follows there.
				if !m.step(1) {
					break
				}
				_, i, _ = next(m.in, i, !back)
				if i != ch.n {
					ch.pos = i
					m.choices = append(m.choices, ch)
				}
				mode = resume
			case cTake:
				// Take one more character, and try what follows there.
				rep := m.nodes[ch.node]
				r, j, ok := next(m.in, i, back)
				if !m.step(1) || !ok || !rep.subs[0].set.has(r) {
					break
				}
				i, ch.n = j, ch.n+1
				if rep.max < 0 || ch.n < rep.max {
					ch.pos = i
					m.choices = append(m.choices, ch)
				}
				mode = resume
			}
		}
	}
	return 0, false
}

// repeat is a repetition of node n that matched count times so far, the
// last ending at i (prev: where it began, -1 before the first), ECMA-262's
// RepeatMatcher with continuation c. It returns what to try next.
func (m *matcher) repeat(n *node, count, i, prev int, back bool, c int32) (*node, int32, int) {
	if !m.step(1) {
		return n, c, fail
	}
	// An iteration past min that matched empty fails.
	if prev >= 0 && count > n.min && prev == i {
		return n, c, fail
	}
	more := n.max < 0 || count < n.max
	switch {
	case count < n.min:
		return m.iterate(n, count, i, back, c)
	case !more:
		return n, c, resume
	case n.greedy:
		m.pushChoice(choice{op: cResume, back: back, pos: i, cont: c})
		return m.iterate(n, count, i, back, c)
	default:
		m.pushChoice(choice{op: cRepeat, back: back, node: n.id, n: count, pos: i, cont: c})
		return n, c, resume
	}
}

// iterate begins one more iteration of the repetition n at i: the
// captures inside are undefined at its start (RepeatMatcher, step 4),
// for a step per 16.
func (m *matcher) iterate(n *node, count, i int, back bool, c int32) (*node, int32, int) {
	if lo, hi := 2*n.capLo, 2*n.capHi+2; lo < hi {
		if !m.step(int64(hi-lo) / 16) {
			return n, c, fail
		}
		for at := lo; at < hi; at++ {
			m.set(at, -1)
		}
	}
	c = m.pushFrame(frame{op: fRepeat, back: back, node: n.id, n: count + 1, pos: i, next: c})
	return n.subs[0], c, try
}

// repeatSet matches n, a repetition of one character of a set (.*,
// [a-z]+, \d{3}), by a loop: it takes the characters it must, then those
// it may, and tries what follows after each, the most first when greedy,
// with one choice point for them all. No iteration matches empty and no
// capture is inside, so it tries what repeat would, in the same order.
func (m *matcher) repeatSet(n *node, i int, back bool, c int32) (int, int) {
	set := n.subs[0].set
	count := 0
	for ; count < n.min; count++ {
		r, j, ok := next(m.in, i, back)
		if !m.step(1) || !ok || !set.has(r) {
			return i, fail
		}
		i = j
	}
	if !n.greedy {
		if n.max < 0 || count < n.max {
			m.pushChoice(choice{op: cTake, back: back, node: n.id, n: count, pos: i, cont: c})
		}
		return i, resume
	}
	from := i
	for n.max < 0 || count < n.max {
		r, j, ok := next(m.in, i, back)
		if !m.step(1) || !ok || !set.has(r) {
			break
		}
		i = j
		count++
	}
	if !m.step(1) {
		return i, fail
	}
	if i != from {
		m.pushChoice(choice{op: cGive, back: back, node: n.id, n: from, pos: i, cont: c})
	}
	return i, resume
}

// next reads the character of s at i, or before i when back, and
// returns where it ends (begins); ok is false at the end (start). Each
// byte that is not UTF-8 is a U+FFFD, as Go's regexp reads it, and
// reading backwards cuts s into the same characters as forwards.
func next(s string, i int, back bool) (r rune, j int, ok bool) {
	if back {
		if i == 0 {
			return 0, i, false
		}
		if c := s[i-1]; c < utf8.RuneSelf {
			return rune(c), i - 1, true
		}
		r, w := utf8.DecodeLastRuneInString(s[:i])
		return r, i - w, true
	}
	if i == len(s) {
		return 0, i, false
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), i + 1, true
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return r, i + w, true
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// isWordBefore reports whether the character before i is a word
// character; \w is ASCII, and no byte of a longer character is ASCII.
func (m *matcher) isWordBefore(i int) bool { return i > 0 && isWordByte(m.in[i-1]) }
func (m *matcher) isWordAt(i int) bool     { return i < len(m.in) && isWordByte(m.in[i]) }

// backref matches the text of the capture lo to hi at i (or ending at i
// when back), character by character: two bytes that are not UTF-8 are
// the same character, U+FFFD. It returns where the match ends (begins).
// Comparing costs a step per 16 bytes or characters.
func (m *matcher) backref(lo, hi, i int, back bool) (int, bool) {
	in, size := m.in, hi-lo
	j := i + size
	if back {
		j = i - size
	}
	if 0 <= j && j <= len(in) {
		if !m.step(int64(size) / 16) {
			return 0, false
		}
		if back && in[j:i] == in[lo:hi] || !back && in[i:j] == in[lo:hi] {
			return j, true
		}
	}
	// In UTF-8, the same characters are the same bytes; in a string that
	// is not, a byte that is no character is U+FFFD like any other.
	if valid, ok := m.validUTF8(); valid || !ok {
		return 0, false
	}
	for n := 0; lo < hi; n++ {
		if n%16 == 15 && !m.step(1) {
			return 0, false
		}
		var a, b rune
		var ok bool
		if back {
			a, hi, _ = next(in[:hi], hi, true)
		} else {
			var end int
			a, end, _ = next(in[lo:hi], 0, false)
			lo += end
		}
		b, i, ok = next(in, i, back)
		if !ok || a != b {
			return 0, false
		}
	}
	return i, true
}

// validUTF8 reports whether the input is UTF-8, the first time for a step
// per 64 bytes; ok is false when those steps are not left.
func (m *matcher) validUTF8() (valid, ok bool) {
	if m.valid == 0 {
		if !m.step(int64(len(m.in)) / 64) {
			return false, false
		}
		m.valid = 2
		if utf8.ValidString(m.in) {
			m.valid = 1
		}
	}
	return m.valid == 1, true
}
