package entity

import (
	"bytes"
	"unicode/utf8"
)

// span is a half-open byte range [lo, hi).
type span struct{ lo, hi int }

// Pass appends to dst the result of one decoding pass over src, as
// golang.org/x/net/html's UnescapeString does in text mode (or its
// tokenizer in attribute values). It reports whether anything changed;
// when nothing did, dst is returned as it was.
func Pass(dst, src []byte, mode Mode) ([]byte, bool) {
	out, _, changed := pass(dst, src, mode, nil, true, nil)
	return out, changed
}

// pass performs one decoding pass over src. When all is true every '&' is
// looked at; otherwise only the '&'s whose window of [Window] bytes meets
// one of the regions, in order. The '&'s it does not look at are known to
// stay text (see [Decode]).
//
// It returns dst with the decoded text appended, or as it was when nothing
// changed; whether something changed; and the regions of what it wrote
// that the next pass must look at, appended to written[:0]: every one in
// a restricted pass, and in a full one those with an '&' in or up to
// Window-1 bytes before them, which it knows without looking, since it
// has seen every '&'.
//
// dst may be src[:0]: then the pass decodes src in place, which a pass can
// do because what it writes is almost never longer than the reference it
// decodes, so the writing never overtakes the reading. Where it would, the
// pass goes on in a new buffer.
func pass(dst, src []byte, mode Mode, regions []span, all bool, written []span) ([]byte, []span, bool) {
	written = written[:0]
	inPlace := cap(dst) > 0 && cap(src) > 0 && &dst[:1][0] == &src[:1][0]
	changed := false
	copied := 0        // src[:copied] is in dst, once something changed
	lastAmp := -Window // where the last '&' seen is or goes in dst
	c := cursor{src: src, regions: regions, all: all}
	for q, resume := c.find(0), 0; q >= 0; q = c.find(resume) {
		r1, r2, n := Decide(src[q:], mode)
		if n == 0 {
			lastAmp = len(dst) + q - copied
			resume = q + 1
			continue
		}
		size := utf8.RuneLen(r1)
		if r2 != 0 {
			size += utf8.RuneLen(r2)
		}
		switch {
		case !changed && !inPlace && cap(dst) == 0:
			// The first change: room for the text, which decoding
			// hardly ever makes longer.
			dst = make([]byte, 0, len(src)+len(src)/16+8)
		case inPlace && len(dst)+(q-copied)+size > q+n:
			dst = append(make([]byte, 0, len(src)+len(src)/16+8), dst...)
			inPlace = false
		}
		changed = true
		dst = append(dst, src[copied:q]...)
		lo := len(dst)
		if r1 == '&' {
			lastAmp = lo
		}
		dst = utf8.AppendRune(dst, r1)
		if r2 != 0 {
			if r2 == '&' {
				lastAmp = len(dst)
			}
			dst = utf8.AppendRune(dst, r2)
		}
		if !all || lastAmp >= lo-(Window-1) {
			written = append(written, span{lo, len(dst)})
		}
		copied = q + n
		resume = q + n
	}
	if !changed {
		return dst, nil, false
	}
	return append(dst, src[copied:]...), written, true
}

// wouldChange reports whether a pass over src, restricted as in pass,
// would change anything.
func wouldChange(src []byte, mode Mode, regions []span, all bool) bool {
	c := cursor{src: src, regions: regions, all: all}
	for q := c.find(0); q >= 0; q = c.find(q + 1) {
		if _, _, n := Decide(src[q:], mode); n > 0 {
			return true
		}
	}
	return false
}

// cursor finds, left to right, the '&'s in src that a pass must look at:
// all of them, or those whose window meets a region.
type cursor struct {
	src     []byte
	regions []span
	all     bool
	k       int // the region being looked at
	next    int // src[:next] has been looked at
}

// find returns the position of the next '&' at or after from that the pass
// must look at, or -1. from is where the pass goes on: past the reference
// it decoded, or just past the '&'.
func (c *cursor) find(from int) int {
	if c.all {
		if j := bytes.IndexByte(c.src[from:], '&'); j >= 0 {
			return from + j
		}
		return -1
	}
	from = max(from, c.next)
	for ; c.k < len(c.regions); c.k++ {
		r := c.regions[c.k]
		if r.hi <= from {
			continue
		}
		i := max(r.lo-(Window-1), from)
		if j := bytes.IndexByte(c.src[i:r.hi], '&'); j >= 0 {
			return i + j
		}
		from, c.next = r.hi, r.hi
	}
	return -1
}
