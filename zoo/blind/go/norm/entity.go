package norm

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// A reference starts at '&'. What one decoding pass does with it depends
// only on its token: '&', then either '#', an optional 'x' or 'X' and a run
// of digits, or a run of ASCII letters and digits; then an optional ';'.
// The token holds no other '&', so html.UnescapeString of the token alone
// is what the pass does with that stretch of text.

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isHex(c byte) bool { return hexVal(c) >= 0 }

// A seg is a piece of the string being decoded. Segments that start with a
// '&' still to be looked at in the next pass are marked cand.
type seg struct {
	s          string
	prev, next *seg
	cand       bool
}

type segList struct {
	head, tail *seg
}

func (l *segList) insertAfter(at, n *seg) {
	n.prev = at
	if at == nil {
		n.next = l.head
		if l.head != nil {
			l.head.prev = n
		} else {
			l.tail = n
		}
		l.head = n
		return
	}
	n.next = at.next
	if at.next != nil {
		at.next.prev = n
	} else {
		l.tail = n
	}
	at.next = n
}

func (l *segList) remove(n *seg) {
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		l.head = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	} else {
		l.tail = n.prev
	}
}

// split cuts n at byte k (0 < k < len): n keeps the left part.
func (l *segList) split(n *seg, k int) *seg {
	r := &seg{s: n.s[k:]}
	n.s = n.s[:k]
	l.insertAfter(n, r)
	return r
}

// token reads the reference token that starts at the '&' opening seg n.
func token(n *seg) string {
	var b strings.Builder
	state := 0 // 0: after '&'; 1: after '#'; 2: digits (dec); 3: after x; 4: hex digits; 5: name
	for s := n; s != nil; s = s.next {
		str := s.s
		if s == n {
			b.WriteByte('&')
			str = str[1:]
		}
		for i := 0; i < len(str); i++ {
			c := str[i]
			switch state {
			case 0:
				if c == '#' {
					state = 1
				} else if isAlnum(c) {
					state = 5
				} else if c == ';' {
					b.WriteByte(c)
					return b.String()
				} else {
					return b.String()
				}
			case 1:
				if c == 'x' || c == 'X' {
					state = 3
				} else if c >= '0' && c <= '9' {
					state = 2
				} else {
					return b.String()
				}
			case 2:
				if c == ';' {
					b.WriteByte(c)
					return b.String()
				}
				if !(c >= '0' && c <= '9') {
					return b.String()
				}
			case 3, 4:
				if c == ';' && state == 4 {
					b.WriteByte(c)
					return b.String()
				}
				if !isHex(c) {
					return b.String()
				}
				state = 4
			case 5:
				if c == ';' {
					b.WriteByte(c)
					return b.String()
				}
				if !isAlnum(c) {
					return b.String()
				}
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// decodeEntities decodes the character references of s as the HTML
// tokenizer does in text, pass after pass, until nothing changes. Each pass
// looks only at the '&'s whose token a previous pass could have changed:
// those it wrote, and the one whose token runs into what it wrote.
func decodeEntities(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	var l segList
	var cands []*seg
	// Cut s so that every '&' starts a segment.
	rest := s
	for len(rest) > 0 {
		k := strings.IndexByte(rest[1:], '&')
		var piece string
		if k < 0 {
			piece, rest = rest, ""
		} else {
			piece, rest = rest[:k+1], rest[k+1:]
		}
		n := &seg{s: piece}
		l.insertAfter(l.tail, n)
		if piece[0] == '&' {
			n.cand = true
			cands = append(cands, n)
		}
	}
	for len(cands) > 0 {
		var next []*seg
		mark := func(n *seg) {
			if !n.cand {
				n.cand = true
				next = append(next, n)
			}
		}
		for _, c := range cands {
			c.cand = false
		}
		for _, c := range cands {
			tok := token(c)
			dec := decodeToken(tok)
			if dec == tok {
				continue
			}
			// Remove the token's bytes, starting at c.
			need := len(tok)
			at := c.prev
			n := c
			for need > 0 {
				if len(n.s) <= need {
					need -= len(n.s)
					nx := n.next
					l.remove(n)
					n = nx
				} else {
					r := l.split(n, need)
					l.remove(n)
					n = r
					need = 0
				}
			}
			// The '&' whose token runs into the decoded text, if any.
			if at != nil {
				if amp, ok := ampBefore(&l, at); ok {
					mark(amp)
				}
			}
			// The decoded text, cut so that each '&' in it starts a segment.
			prev := at
			for len(dec) > 0 {
				k := strings.IndexByte(dec[1:], '&')
				var piece string
				if k < 0 {
					piece, dec = dec, ""
				} else {
					piece, dec = dec[:k+1], dec[k+1:]
				}
				ns := &seg{s: piece}
				l.insertAfter(prev, ns)
				prev = ns
				if piece[0] == '&' {
					mark(ns)
				}
			}
		}
		cands = next
	}
	var b strings.Builder
	for n := l.head; n != nil; n = n.next {
		b.WriteString(n.s)
	}
	return b.String()
}

// ampBefore looks back from the end of seg at over the letters, digits and
// '#' a token can hold, for the '&' that opens it; the segment returned
// starts with that '&'.
func ampBefore(l *segList, at *seg) (*seg, bool) {
	count := 0
	for n := at; n != nil; n = n.prev {
		for i := len(n.s) - 1; i >= 0; i-- {
			c := n.s[i]
			if c == '&' {
				if i > 0 {
					return l.split(n, i), true
				}
				return n, true
			}
			if !isAlnum(c) && c != '#' {
				return nil, false
			}
			count++
			if count > 64 {
				return nil, false
			}
		}
	}
	return nil, false
}

// decodeToken is what one pass makes of a reference token.
func decodeToken(tok string) string {
	if sw.s7 && len(tok) > 2 && tok[1] == '#' {
		// Numeric references are common in model output (&#39;, &#x27;):
		// decode them here rather than through the general unescaper.
		return decodeNumeric(tok)
	}
	return html.UnescapeString(tok)
}

// windows1252 gives what the references &#x80; to &#x9F; stand for.
var windows1252 = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

// decodeNumeric decodes a numeric reference token: &#, an optional x or X,
// digits, an optional ';'.
func decodeNumeric(tok string) string {
	i := 2
	base := uint32(10)
	if i < len(tok) && (tok[i] == 'x' || tok[i] == 'X') {
		base = 16
		i++
	}
	var x uint32
	start := i
	for ; i < len(tok) && tok[i] != ';'; i++ {
		x = x*base + uint32(hexVal(tok[i]))
	}
	if i == start {
		return tok
	}
	r := rune(x)
	switch {
	case r >= 0x80 && r <= 0x9F:
		r = windows1252[r-0x80]
	case r == 0 || r >= 0xD800 && r <= 0xDFFF || r > 0x10FFFF:
		r = utf8.RuneError
	}
	return string(r)
}

// decodeNaive iterates the decoding pass over the whole string.
func decodeNaive(s string) string {
	for {
		d := html.UnescapeString(s)
		if d == s {
			return s
		}
		s = d
	}
}
