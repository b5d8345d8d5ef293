package entity

import (
	"bytes"
	"unicode/utf8"
)

// Result says what decoding a string to its fixpoint did.
type Result struct {
	// Passes is the number of passes that changed the string.
	Passes int
	// Fixpoint is false only when a pass bound stopped the decoding while
	// one more pass would still have changed the string.
	Fixpoint bool
}

// bytePasses is how many passes run over flat byte slices before the rest
// run over a linked list of code points. A flat pass copies the whole
// string; a linked pass costs only what it changes. Nearly every real
// string is done within two passes.
const bytePasses = 8

// Decode returns s with its character references decoded pass after pass
// until it stops changing, or until maxPasses passes changed it (0 means no
// bound). The result equals iterating [Pass] that way, exactly.
//
// It takes time linear in len(s) whatever the number of passes. One pass
// removes at least two code points per reference it decodes; and an '&'
// that a pass leaves as text stays text in the next one unless one of the
// [Window]-1 bytes after it was written by that pass (the decision at an
// '&' reads no further, see [Decide]). So after the first pass only the
// '&'s in or just before what the previous pass wrote are looked at again.
//
// When nothing changes, s itself is returned. Decode never writes to s,
// and the buffer it returns otherwise is its own: callers rely on both to
// decode a string without copying it.
func Decode(s []byte, mode Profile, maxPasses int) ([]byte, Result) {
	return DecodeTo(nil, s, mode, maxPasses)
}

// DecodeTo is [Decode] that, when something changes, decodes into buf's
// memory if it has room for s, so that a caller can use one buffer for
// many strings. buf must not overlap s.
func DecodeTo(buf, s []byte, mode Profile, maxPasses int) ([]byte, Result) {
	if bytes.IndexByte(s, '&') < 0 {
		return s, Result{Fixpoint: true}
	}
	if cap(buf) < len(s)+len(s)/16+8 {
		buf = nil // the pass allocates what it needs
	}
	cur, regions, changed, folded := pass(buf[:0], s, mode, nil, true, nil, maxPasses != 1)
	if !changed {
		return s, Result{Fixpoint: true}
	}
	out, res := decodeRest(cur, regions, mode, maxPasses)
	if folded {
		// The first pass made some of the second's changes (see pass):
		// a second pass changed the text, whether the next one over
		// these regions changes it again or not.
		res.Passes = max(res.Passes, 2)
	}
	return out, res
}

// decodeRest runs the passes after the first, which changed s into cur and
// wrote the regions the next pass must look at.
func decodeRest(cur []byte, regions []span, mode Profile, maxPasses int) ([]byte, Result) {
	res := Result{Passes: 1}
	var spare []span
	for {
		if maxPasses > 0 && res.Passes >= maxPasses {
			res.Fixpoint = !wouldChange(cur, mode, regions, false)
			return cur, res
		}
		if res.Passes >= bytePasses {
			return decodeLinked(cur, regions, mode, maxPasses, res)
		}
		// The first pass wrote a copy; the next ones decode it in place.
		next, written, changed, _ := pass(cur[:0], cur, mode, regions, false, spare, false)
		if !changed {
			res.Fixpoint = true
			return cur, res
		}
		res.Passes++
		cur, spare, regions = next, regions, written
	}
}

// chain is a string as a doubly linked list of slots, one per code point
// written by a pass or per byte of the text it started from. A reference
// decoded at slot q writes its code points into its own first slots and
// unlinks the rest, so slot numbers keep increasing along the list and
// positions compare as integers.
type chain struct {
	unit []int32 // >= 0: a code point; < 0: the byte unit+256, kept as it was
	next []int32 // the next slot, or len(unit) at the end
	prev []int32 // the previous slot, or -1 at the start
	buf  []byte  // scratch for the bytes a decision reads
}

// slots is an inclusive range of slots written by one decoded reference.
type slots struct{ first, last int32 }

func decodeLinked(s []byte, regions []span, mode Profile, maxPasses int, res Result) ([]byte, Result) {
	n := len(s)
	c := &chain{unit: make([]int32, n), next: make([]int32, n), prev: make([]int32, n)}
	for i, b := range s {
		if b < utf8.RuneSelf {
			c.unit[i] = int32(b)
		} else {
			c.unit[i] = int32(b) - 256
		}
		c.next[i] = int32(i + 1)
		c.prev[i] = int32(i - 1)
	}
	todo := make([]slots, len(regions))
	for i, r := range regions {
		todo[i] = slots{int32(r.lo), int32(r.hi - 1)}
	}
	var written []slots
	for {
		if maxPasses > 0 && res.Passes >= maxPasses {
			_, res.Fixpoint = c.pass(todo, mode, true, nil)
			res.Fixpoint = !res.Fixpoint
			break
		}
		var changed bool
		written, changed = c.pass(todo, mode, false, written[:0])
		if !changed {
			res.Fixpoint = true
			break
		}
		res.Passes++
		todo, written = written, todo
	}
	return c.bytes(s[:0]), res // s is free: the chain holds its text
}

// pass runs one pass over the '&'s whose window meets a slot in todo,
// appending to written the slots it writes. With dry set it only reports
// whether anything would change.
func (c *chain) pass(todo []slots, mode Profile, dry bool, written []slots) ([]slots, bool) {
	end := int32(len(c.unit))
	changed := false
	frontier := int32(0) // slots before it have been looked at in this pass
	for _, r := range todo {
		if r.last < frontier {
			continue
		}
		i := r.first
		if i < frontier {
			i = frontier
		} else {
			for k := 1; k < Window; k++ {
				p := c.prev[i]
				if p < frontier {
					break
				}
				i = p
			}
		}
		for i <= r.last && i < end {
			if c.unit[i] != '&' {
				i = c.next[i]
				continue
			}
			r1, r2, n := Decide(c.window(i), mode)
			if n == 0 {
				i = c.next[i]
				continue
			}
			changed = true
			if dry {
				return written, true
			}
			var w slots
			w, i = c.replace(i, n, r1, r2)
			written = append(written, w)
		}
		frontier = i
	}
	return written, changed
}

// window returns the bytes the decision at slot q reads: Window bytes, or
// the whole run of digits of a numeric reference and the byte after it.
func (c *chain) window(q int32) []byte {
	end := int32(len(c.unit))
	b := c.buf[:0]
	i := q
	for ; i < end && len(b) < Window; i = c.next[i] {
		b = c.appendUnit(b, i)
	}
	if len(b) >= 3 && b[1] == '#' && i < end {
		digits := 2
		isDigit := isDec
		if b[2] == 'x' || b[2] == 'X' {
			digits, isDigit = 3, isHex
		}
		allDigits := len(b) > digits
		for _, d := range b[digits:] {
			allDigits = allDigits && isDigit(d)
		}
		if allDigits {
			for ; i < end; i = c.next[i] {
				b = c.appendUnit(b, i)
				if !isDigit(b[len(b)-1]) {
					break
				}
			}
		}
	}
	c.buf = b
	return b
}

func isDec(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool { return isDec(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func (c *chain) appendUnit(b []byte, i int32) []byte {
	u := c.unit[i]
	if u < 0 {
		return append(b, byte(u+256))
	}
	return utf8.AppendRune(b, rune(u))
}

// replace writes r1 (and r2) over the n slots of the reference at q, all of
// them ASCII and so one slot a byte, and unlinks the slots left over. It
// returns the slots written and the slot after the reference.
func (c *chain) replace(q int32, n int, r1, r2 rune) (slots, int32) {
	last := q
	for k := 1; k < n; k++ {
		last = c.next[last]
	}
	after := c.next[last]
	w := slots{q, q}
	c.unit[q] = r1
	if r2 != 0 {
		w.last = c.next[q]
		c.unit[w.last] = r2
	}
	c.next[w.last] = after
	if after < int32(len(c.unit)) {
		c.prev[after] = w.last
	}
	return w, after
}

// bytes appends the string the chain holds to b.
func (c *chain) bytes(b []byte) []byte {
	end := int32(len(c.unit))
	for i := int32(0); i < end; i = c.next[i] {
		b = c.appendUnit(b, i)
	}
	return b
}
