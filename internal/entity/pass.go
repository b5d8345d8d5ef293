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
	out, regions := pass(dst, src, mode, nil, true)
	return out, len(regions) > 0
}

// pass performs one decoding pass over src. When all is true every '&' is
// looked at; otherwise only the '&'s whose window of [Window] bytes meets
// one of the regions, the bytes written by the previous pass, in order.
// The '&'s it does not look at are known to stay text (see [Decode]).
//
// When nothing changes it returns dst unchanged and nil regions. Otherwise
// it returns dst with the decoded text appended, and the regions of that
// text that this pass wrote.
func pass(dst, src []byte, mode Mode, regions []span, all bool) ([]byte, []span) {
	var written []span
	copied := 0 // src[:copied] is in dst, once something changed
	forCandidates(src, regions, all, func(q int) int {
		r1, r2, n := Decide(src[q:], mode)
		if n == 0 {
			return q + 1
		}
		dst = append(dst, src[copied:q]...)
		lo := len(dst)
		dst = utf8.AppendRune(dst, r1)
		if r2 != 0 {
			dst = utf8.AppendRune(dst, r2)
		}
		written = append(written, span{lo, len(dst)})
		copied = q + n
		return q + n
	})
	if written == nil {
		return dst, nil
	}
	return append(dst, src[copied:]...), written
}

// wouldChange reports whether a pass over src, restricted as in pass,
// would change anything.
func wouldChange(src []byte, mode Mode, regions []span, all bool) bool {
	changed := false
	forCandidates(src, regions, all, func(q int) int {
		if _, _, n := Decide(src[q:], mode); n > 0 {
			changed = true
			return len(src)
		}
		return q + 1
	})
	return changed
}

// forCandidates calls visit, left to right, with the position of every '&'
// in src that a pass must look at: all of them, or those whose window meets
// a region. visit returns where to go on looking (past the reference it
// decoded, or just past the '&').
func forCandidates(src []byte, regions []span, all bool, visit func(q int) int) {
	if all {
		for i := 0; i < len(src); {
			j := bytes.IndexByte(src[i:], '&')
			if j < 0 {
				return
			}
			i = visit(i + j)
		}
		return
	}
	next := 0 // src[:next] has been looked at
	for _, r := range regions {
		if r.hi <= next {
			continue
		}
		i := max(r.lo-(Window-1), next)
		for i < r.hi {
			j := bytes.IndexByte(src[i:r.hi], '&')
			if j < 0 {
				i = r.hi
				break
			}
			i = visit(i + j)
			if i >= len(src) {
				return
			}
		}
		next = i
	}
}
