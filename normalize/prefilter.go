package normalize

import (
	"slices"
	"strings"
)

// literalPrefix returns text that every key the ECMA-262 pattern src
// matches starts with, or "" when it cannot tell: the plain characters
// right after a leading ^, in a pattern without alternation ("^x-" gives
// "x-", "^ab*c" gives "a", "^a|b" gives ""). Without the m flag, ^ is the
// start of the key, and those characters match only themselves: a key
// that does not start with them is not matched, and need not be tried.
func literalPrefix(src string) string {
	if !strings.HasPrefix(src, "^") || strings.IndexByte(src, '|') >= 0 {
		return ""
	}
	i := 1
	for i < len(src) && plainPatternByte[src[i]] {
		i++
	}
	p := src[1:i]
	if i < len(src) && strings.IndexByte("*+?{", src[i]) >= 0 && p != "" {
		p = p[:len(p)-1] // the last one is quantified: it may be absent
	}
	return p
}

// plainPatternByte holds the bytes that match only themselves in an
// ECMA-262 pattern with the u flag, wherever they stand outside a class:
// ASCII letters, digits, and a few punctuation marks.
var plainPatternByte = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range "_-:@/ #%&'\",;<=>~!`" {
		t[c] = true
	}
	return t
}()

// prefilter finds, for a key, the patterns of a closure (by index) that may
// match it: those without a literal prefix, and those whose prefix starts
// the key. Trying only those gives the same matches as trying them all,
// in a number of tries that does not grow with the patterns that cannot
// match: keys times patterns was the cost of a schema of many prefixed
// patterns (x-... extensions) under many keys.
type prefilter struct {
	always   []int            // patterns without a prefix
	byPrefix map[string][]int // the others, by prefix
	lens     []int            // the lengths of the prefixes, ascending
}

func newPrefilter(pats []*pattern) *prefilter {
	f := &prefilter{}
	for i, p := range pats {
		prefix := literalPrefix(p.re.String())
		if prefix == "" {
			f.always = append(f.always, i)
			continue
		}
		if f.byPrefix == nil {
			f.byPrefix = map[string][]int{}
		}
		if _, ok := f.byPrefix[prefix]; !ok && !slices.Contains(f.lens, len(prefix)) {
			f.lens = append(f.lens, len(prefix))
		}
		f.byPrefix[prefix] = append(f.byPrefix[prefix], i)
	}
	slices.Sort(f.lens)
	return f
}

// candidates calls try with the index of each pattern that may match key;
// a nil prefilter has no patterns.
func (f *prefilter) candidates(key []byte, try func(int)) {
	if f == nil {
		return
	}
	for _, i := range f.always {
		try(i)
	}
	for _, n := range f.lens {
		if n > len(key) {
			break
		}
		for _, i := range f.byPrefix[string(key[:n])] {
			try(i)
		}
	}
}
