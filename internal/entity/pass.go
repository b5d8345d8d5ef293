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
func Pass(dst, src []byte, mode Profile) ([]byte, bool) {
	out, _, changed, _ := pass(dst, src, mode, nil, true, nil, false)
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
//
// With fold set (a full first pass, when a second may run), the pass also
// makes some of the second pass's decisions as it goes, and reports
// whether it did (folded): see foldAmp. Without them, the second pass
// would change the text only there, and move all of it after the first.
func pass(dst, src []byte, mode Profile, regions []span, all bool, written []span, fold bool) (_ []byte, _ []span, changed, folded bool) {
	written = written[:0]
	inPlace := cap(dst) > 0 && cap(src) > 0 && &dst[:1][0] == &src[:1][0]
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
		// Whether the decision at the last '&' before this reference may
		// read what replaces it: then the next pass must look there.
		reached := !unread(dst, src[copied:q], lastAmp)
		settled := false // an '&' written that stays text, known already
		if fold && r1 == '&' && r2 == 0 && !reached {
			s1, s2, m, st := foldAmp(src, q+n, mode)
			if m > 0 {
				r1, r2, n = s1, s2, n+m
				folded = true
			}
			settled = st
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
		// The next pass must look at an '&' written here, unless it is
		// known to stay text, and at the last '&' before, if its decision
		// may read what was written: in a restricted pass, wherever.
		if !all || lastAmp >= lo && !settled || reached {
			written = append(written, span{lo, len(dst)})
		}
		copied = q + n
		resume = q + n
	}
	if !changed {
		return dst, nil, false, false
	}
	return append(dst, src[copied:]...), written, true, folded
}

// unread reports whether no decision of the second pass at an '&' before
// the end of dst+pending (what the first pass has written, and the text it
// is about to copy after it) reads past that end: the last '&' there is at
// lastAmp (in the same coordinates), and either it is more than Window-1
// bytes back or a byte after it ends any run a decision reads. ('&'s
// before the last one stop at it.)
func unread(dst, pending []byte, lastAmp int) bool {
	end := len(dst) + len(pending)
	if lastAmp < end-(Window-1) {
		return true
	}
	if lastAmp+1 < len(dst) && endsRun(dst[lastAmp+1:]) {
		return true
	}
	return endsRun(pending[max(0, lastAmp+1-len(dst)):])
}

// foldAmp decides, in the first pass, the '&' that pass has just written
// for the reference that ends at src[at], followed by the text src[at:],
// as the second pass would: it returns what the '&' and the first m bytes
// of src[at:] stand for, or m == 0 to leave the '&' to the second pass.
// The caller has seen no decision of the second pass before the '&' that
// could read it (see unread).
//
// The answer is the second pass's only when the second pass would read
// the same bytes: those of src[at:] up to its next '&' (which the first
// pass copies as they are; from there it may write something else), and
// no further than the ';' ending the reference, the last byte a decision
// that takes one reads. What the second pass writes must also be final,
// so that the passes after it read the same text here whichever pass
// wrote it, and the count of passes stays right: a character other than
// '&', or an '&' that stays text, decided on bytes all known.
//
// settled reports that the '&' the second pass leaves here (the one
// written, when m == 0) stays text, decided on bytes all known: the next
// pass need not look at it.
func foldAmp(src []byte, at int, mode Profile) (r1, r2 rune, m int, settled bool) {
	// The next '&', as far as the two decisions below may read.
	next := min(len(src), at+2*Window)
	if k := bytes.IndexByte(src[at:next], '&'); k >= 0 {
		next = at + k
	}
	// The decision reads the text after the '&' written, the byte before
	// it standing for the '&' (Decide does not read its first byte).
	b := src[at-1 : min(at+Window-1, next)]
	r1, r2, n := Decide(b, mode)
	if n == 0 {
		return 0, 0, 0, at-1+len(b) == len(src) || bounded(b)
	}
	if b[n-1] != ';' {
		return 0, 0, 0, false
	}
	if r1 == '&' {
		after := at + n - 1 // what the second pass's '&' is followed by
		b2 := src[after-1 : min(after+Window-1, next)]
		if _, _, k := Decide(b2, mode); k != 0 || after-1+len(b2) < len(src) && !bounded(b2) {
			return 0, 0, 0, false
		}
		settled = true
	}
	return r1, r2, n - 1, settled
}

// bounded reports whether the decision at b[0] reads no further than b:
// b has a byte after the first that ends any run a decision reads (a
// name's letters and digits, a number's '#' and digits).
func bounded(b []byte) bool { return endsRun(b[min(1, len(b)):]) }

// endsRun reports whether b has a byte that ends any run a decision reads.
func endsRun(b []byte) bool {
	for _, c := range b {
		if !isAlnum(c) && c != '#' {
			return true
		}
	}
	return false
}

// wouldChange reports whether a pass over src, restricted as in pass,
// would change anything.
func wouldChange(src []byte, mode Profile, regions []span, all bool) bool {
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
