package ecma

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// The matcher as it was before issue 34 (a []rune per match, recursion
// without a bound): the reference TestAgainstRuneMatcher holds the
// matcher to, on inputs short enough for its recursion. Its captures are
// in characters, the matcher's in bytes.

var errRefBudget = errors.New("budget")

// refBacktrack is backtrack as it was.
func refBacktrack(re *Regexp, s string, budget *int64) ([]int, error) {
	m := &refMatcher{in: []rune(s), caps: make([]int, 2*(re.ncap+1)), left: *budget}
	defer func() { *budget = m.left }()
	last := len(m.in)
	if refAnchored(re.root) {
		last = 0
	}
	for start := 0; start <= last; start++ {
		for i := range m.caps {
			m.caps[i] = -1
		}
		if m.refMatch(re.root, start, false, func(end int) bool {
			m.caps[0], m.caps[1] = start, end
			return true
		}) {
			return m.caps, nil
		}
		if m.spent {
			return nil, errRefBudget
		}
	}
	return nil, nil
}

func refAnchored(n *node) bool {
	switch n.kind {
	case kBOL:
		return true
	case kSeq, kGroup:
		return len(n.subs) > 0 && refAnchored(n.subs[0])
	case kAlt:
		for _, s := range n.subs {
			if !refAnchored(s) {
				return false
			}
		}
		return true
	}
	return false
}

type refMatcher struct {
	in    []rune
	caps  []int
	left  int64 // steps
	spent bool
}

func (m *refMatcher) refStep() bool {
	if m.spent {
		return false
	}
	m.left--
	if m.left < 0 {
		m.spent = true
		return false
	}
	return true
}

func refIsWord(in []rune, i int) bool {
	return i >= 0 && i < len(in) && wordSet.has(in[i])
}

// match reports whether n matches at i with k accepting where it ends.
// With back it matches backwards, as in a lookbehind (ECMA-262's
// direction -1): it ends at i, and k gets where it begins.
func (m *refMatcher) refMatch(n *node, i int, back bool, k func(int) bool) bool {
	if !m.refStep() {
		return false
	}
	switch n.kind {
	case kSet:
		if back {
			return i > 0 && n.set.has(m.in[i-1]) && k(i-1)
		}
		return i < len(m.in) && n.set.has(m.in[i]) && k(i+1)
	case kSeq:
		return m.refSeq(n.subs, i, back, k)
	case kAlt:
		for _, s := range n.subs {
			if m.refMatch(s, i, back, k) {
				return true
			}
			if m.spent {
				return false
			}
		}
		return false
	case kGroup:
		lo, hi := m.caps[2*n.cap], m.caps[2*n.cap+1]
		if m.refMatch(n.subs[0], i, back, func(j int) bool {
			plo, phi := m.caps[2*n.cap], m.caps[2*n.cap+1]
			if back {
				m.caps[2*n.cap], m.caps[2*n.cap+1] = j, i
			} else {
				m.caps[2*n.cap], m.caps[2*n.cap+1] = i, j
			}
			if k(j) {
				return true
			}
			m.caps[2*n.cap], m.caps[2*n.cap+1] = plo, phi
			return false
		}) {
			return true
		}
		m.caps[2*n.cap], m.caps[2*n.cap+1] = lo, hi
		return false
	case kRepeat:
		return m.refRepeat(n, 0, i, -1, back, k)
	case kBOL:
		return i == 0 && k(i)
	case kEOL:
		return i == len(m.in) && k(i)
	case kWordB:
		return refIsWord(m.in, i-1) != refIsWord(m.in, i) && k(i)
	case kNotWordB:
		return refIsWord(m.in, i-1) == refIsWord(m.in, i) && k(i)
	case kLook:
		// A lookaround is atomic: its first match stands, with the
		// captures it made (none for a negative one).
		saved := append([]int(nil), m.caps...)
		ok := m.refMatch(n.subs[0], i, n.behind, func(int) bool { return true })
		if m.spent {
			return false
		}
		if ok == n.negate {
			copy(m.caps, saved)
			return false
		}
		if n.negate {
			copy(m.caps, saved)
		}
		if k(i) {
			return true
		}
		copy(m.caps, saved)
		return false
	case kBackref:
		lo, hi := m.caps[2*n.cap], m.caps[2*n.cap+1]
		if lo < 0 || hi < 0 {
			return k(i)
		}
		size := hi - lo
		from := i
		if back {
			from = i - size
		}
		if from < 0 || from+size > len(m.in) {
			return false
		}
		for d := range size {
			if m.in[from+d] != m.in[lo+d] {
				return false
			}
		}
		if back {
			return k(from)
		}
		return k(i + size)
	}
	return false
}

// seq matches subs in order, or backwards from the last.
func (m *refMatcher) refSeq(subs []*node, i int, back bool, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(i)
	}
	if back {
		last := len(subs) - 1
		return m.refMatch(subs[last], i, back, func(j int) bool { return m.refSeq(subs[:last], j, back, k) })
	}
	return m.refMatch(subs[0], i, back, func(j int) bool { return m.refSeq(subs[1:], j, back, k) })
}

// repeat matches n.subs[0] count times so far, the last ending at i
// (prev: where it began, -1 before the first), then more or k.
func (m *refMatcher) refRepeat(n *node, count, i, prev int, back bool, k func(int) bool) bool {
	if !m.refStep() {
		return false
	}
	// ECMA-262 RepeatMatcher: an iteration past min that matched empty
	// fails.
	if prev >= 0 && count > n.min && prev == i {
		return false
	}
	more := func() bool {
		if n.max >= 0 && count >= n.max {
			return false
		}
		// The captures inside the atom are undefined at the start of each
		// iteration (RepeatMatcher, step 4), and back as they were if it
		// fails.
		var saved []int
		if n.capLo <= n.capHi {
			saved = append(saved, m.caps[2*n.capLo:2*n.capHi+2]...)
			for c := 2 * n.capLo; c < 2*n.capHi+2; c++ {
				m.caps[c] = -1
			}
		}
		if m.refMatch(n.subs[0], i, back, func(j int) bool { return m.refRepeat(n, count+1, j, i, back, k) }) {
			return true
		}
		if saved != nil {
			copy(m.caps[2*n.capLo:], saved)
		}
		return false
	}
	if count < n.min {
		return more()
	}
	if n.greedy {
		return more() || !m.spent && k(i)
	}
	return k(i) || !m.spent && more()
}

// TestAgainstRuneMatcher holds the matcher (on UTF-8, its depth bounded,
// repetitions of one character as loops) to the one before issue 34 (on
// a []rune, recursing without a bound) on generated patterns and inputs,
// some of them not UTF-8, some long: the same match, the same captures,
// wherever both finish within their budget. -ecma.n and -ecma.seed
// choose the patterns, as for TestDifferentialNode.
func TestAgainstRuneMatcher(t *testing.T) {
	n := 4 * *diffCount
	if testing.Short() {
		n = min(n, 2000)
	}
	g := &gen{r: rand.New(rand.NewPCG(*diffSeed, 34))}
	broken := []string{"\xff", "\xed\xa0\x80", "\xc3", "\xf0\x9f\x98", "\x80", "\ufffd"}
	var compared, spent, failures int
	for range n {
		p := g.pattern()
		re, err := Compile(p)
		if err != nil {
			continue
		}
		inputs := g.inputs(p)
		for k := range 4 {
			s := inputs[1+k]
			at := g.r.IntN(len(s) + 1)
			for at < len(s) && !utf8.RuneStart(s[at]) {
				at++
			}
			inputs = append(inputs, s[:at]+g.pick(broken)+s[at:], strings.Repeat(s, 1+g.r.IntN(40)))
		}
		for _, s := range inputs {
			b1, b2 := int64(200_000), int64(200_000)
			want, err1 := refBacktrack(re, s, &b1)
			got, err2 := re.backtrack(s, &b2)
			if err1 != nil || err2 != nil {
				spent++
				continue
			}
			compared++
			if w, g := describeRunes(s, want), describe(s, got); w != g {
				failures++
				if failures <= 20 {
					t.Errorf("/%s/u on %q: before %s, now %s", p, s, w, g)
				}
			}
		}
	}
	t.Logf("seed %d: %d patterns, %d matches compared, %d over a budget", *diffSeed, n, compared, spent)
}

// describeRunes is describe for captures in characters.
func describeRunes(s string, caps []int) string {
	if caps == nil {
		return "no match"
	}
	in := []rune(s)
	var parts []string
	for k := 0; k < len(caps); k += 2 {
		if caps[k] < 0 || caps[k+1] < 0 {
			parts = append(parts, "undefined")
		} else {
			parts = append(parts, fmt.Sprintf("%q", string(in[caps[k]:caps[k+1]])))
		}
	}
	return fmt.Sprintf("at %d: [%s]", caps[0], strings.Join(parts, " "))
}
