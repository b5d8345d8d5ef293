package entity

import "github.com/toolnorm/toolnorm/internal/word"

// nameTab holds the keys of names again, for Decide: open addressing with
// linear probing over a table a little under half full, hashed on a key's
// first eight bytes and its length, so that a lookup hashes and compares
// words instead of strings.
var nameTab = func() *[1 << nameBits]nameSlot {
	var t [1 << nameBits]nameSlot
	for k, v := range names {
		w := word.Of([]byte(k))
		h := nameHash(w, len(k))
		for t[h].n != 0 {
			h = (h + 1) & (1<<nameBits - 1)
		}
		t[h] = nameSlot{word: w, rest: k[min(8, len(k)):], v: v, n: uint8(len(k))}
	}
	return &t
}()

const nameBits = 12 // 4,096 slots for the 2,231 keys

type nameSlot struct {
	word uint64 // keyWord of the key
	rest string // the key after its first eight bytes
	v    [2]rune
	n    uint8 // the key's length; 0 marks an empty slot
}

func nameHash(word uint64, n int) uint64 {
	return (word ^ uint64(n)*0x9E3779B97F4A7C15) * 0xBF58476D1CE4E5B9 >> (64 - nameBits)
}

// lookup returns what the key name stands for, as names[string(name)]
// does.
func lookup(name []byte) ([2]rune, bool) {
	if len(name) > longestName {
		return [2]rune{}, false
	}
	w := word.Of(name)
	for h := nameHash(w, len(name)); ; h = (h + 1) & (1<<nameBits - 1) {
		s := &nameTab[h]
		if s.n == 0 {
			return [2]rune{}, false
		}
		if s.word == w && int(s.n) == len(name) && (len(name) <= 8 || s.rest == string(name[8:])) {
			return s.v, true
		}
	}
}
