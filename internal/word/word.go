// Package word reads the first bytes of a short key as one machine word,
// for the small hash tables of internal/entity (reference names) and
// normalize (property names).
package word

import "encoding/binary"

// Of returns the first eight bytes of k (fewer, zero-padded, when k is
// shorter), as a little-endian word. k usually lies in a larger buffer,
// whose bytes after it it reads at once and masks off.
func Of(k []byte) uint64 {
	if cap(k) >= 8 {
		w := binary.LittleEndian.Uint64(k[:8])
		if len(k) < 8 {
			w &= 1<<(8*len(k)) - 1
		}
		return w
	}
	var w uint64
	for i := len(k) - 1; i >= 0; i-- {
		w = w<<8 | uint64(k[i])
	}
	return w
}
