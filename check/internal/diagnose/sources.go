package diagnose

import (
	"bytes"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// sourced is what the rule decodes the string s into when s is JSON only
// once its references are decoded (`[1,"&#x41;",&quot;b&quot;]`): the
// value that text parses to, with each string whose text comes from s
// apart from the rest holding that text of s as sent, references and all
// (`&#x41;`, not `A`), so that what an implementation made of a reference
// there is read from the reference itself. A string whose text cannot be
// told apart (a JSON escape in it, a reference that also made a quote)
// holds its value, as the parse gives it. It returns nil when the text
// after decoding does not parse.
func sourced(s string, mode entity.Profile, maxPasses int) *jsonvalue.Value {
	dec, lo, hi := decodeMapped(s, mode, maxPasses)
	v, err := jsonvalue.Parse(dec)
	if err != nil {
		return nil
	}
	if want, _ := entity.Decode([]byte(s), mode, maxPasses); !bytes.Equal(want, dec) {
		return v // the map is not the rule's decoding: values only
	}
	// The value strings of dec, in document order (keys skipped), each
	// as the text of s it comes from, or "" with ok false.
	type src struct {
		text string
		ok   bool
	}
	var srcs []src
	for i := 0; i < len(dec); i++ {
		if dec[i] != '"' {
			continue
		}
		end, _, err := jsonraw.ScanString(dec, i)
		if err != nil {
			return v
		}
		if j := jsonraw.SkipSpace(dec, end); j < len(dec) && dec[j] == ':' {
			i = end - 1
			continue // a key
		}
		content := dec[i+1 : end-1]
		var sv src
		switch {
		case bytes.IndexByte(content, '\\') >= 0:
		case len(content) == 0:
			sv = src{"", true}
		case lo[i+1] >= hi[i] && hi[end-2] <= lo[end-1]:
			// The content comes from bytes of s that made nothing else.
			text := s[lo[i+1]:hi[end-2]]
			if d, _ := entity.Decode([]byte(text), mode, maxPasses); bytes.Equal(d, content) {
				sv = src{text, true}
			}
		}
		srcs = append(srcs, sv)
		i = end - 1
	}
	k := 0
	var put func(*jsonvalue.Value)
	put = func(x *jsonvalue.Value) {
		switch x.Kind {
		case jsonvalue.String:
			if k < len(srcs) && srcs[k].ok {
				x.Str = srcs[k].text
			}
			k++
		case jsonvalue.Array:
			for _, e := range x.Elems {
				put(e)
			}
		case jsonvalue.Object:
			for _, m := range x.Members {
				put(m.Value)
			}
		}
	}
	if n := countStrings(v); n == len(srcs) {
		put(v)
	}
	return v
}

// countStrings is how many strings v holds as values (keys aside).
func countStrings(v *jsonvalue.Value) int {
	switch v.Kind {
	case jsonvalue.String:
		return 1
	case jsonvalue.Array:
		n := 0
		for _, e := range v.Elems {
			n += countStrings(e)
		}
		return n
	case jsonvalue.Object:
		n := 0
		for _, m := range v.Members {
			n += countStrings(m.Value)
		}
		return n
	}
	return 0
}

// decodeMapped decodes the references of s pass after pass until nothing
// changes (at most maxPasses passes when it is above 0), as
// [entity.Decode] does, and says where each byte of the result came
// from: out[i] from s[lo[i]:hi[i]], the whole of the reference that made
// it, or the one byte copied.
func decodeMapped(s string, mode entity.Profile, maxPasses int) (out []byte, lo, hi []int) {
	cur := []byte(s)
	lo, hi = make([]int, len(cur)), make([]int, len(cur))
	for i := range cur {
		lo[i], hi[i] = i, i+1
	}
	// Each pass that changes the text takes out a reference of two bytes
	// or more; the bound keeps the loop finite whatever Decide says.
	for pass := 0; (maxPasses <= 0 || pass < maxPasses) && pass <= len(s); pass++ {
		var next []byte
		var nlo, nhi []int
		changed := false
		for i := 0; i < len(cur); {
			if cur[i] == '&' {
				if r1, r2, n := entity.Decide(cur[i:], mode); n > 0 {
					from, to := lo[i], hi[i+n-1]
					at := len(next)
					next = utf8.AppendRune(next, r1)
					if r2 != 0 {
						next = utf8.AppendRune(next, r2)
					}
					for range len(next) - at {
						nlo, nhi = append(nlo, from), append(nhi, to)
					}
					i += n
					changed = true
					continue
				}
			}
			next, nlo, nhi = append(next, cur[i]), append(nlo, lo[i]), append(nhi, hi[i])
			i++
		}
		if !changed {
			break
		}
		cur, lo, hi = next, nlo, nhi
	}
	return cur, lo, hi
}
