// Package gocover reads the coverage of the running Go program, for an
// adapter that tells toolnorm which blocks of its implementation each
// request reached (docs/protocol.md, "Coverage: an addition to version
// 1").
//
// It needs a program built with Go's coverage in atomic mode:
//
//	go build -cover -covermode=atomic ./adapter
//	go run -cover -covermode=atomic ./adapter
//
// Go instruments the main module's packages (-coverpkg chooses others),
// so the blocks are the implementation's own code, not the standard
// library's nor toolnorm's. The counters are read through
// runtime/coverage: [Counters.Clear] zeroes them before a request, and
// [Counters.Take] writes them out after it (the counter-data format of
// Go's internal/coverage, one segment) and reads which blocks ran.
//
// A block's id is a hash of its package's index, its function's index
// and its place in the function, as the counters number them: the same
// block has the same id in every run of one build, which is what the
// protocol asks (toolnorm restarts adapters), and ids change when the
// code does.
package gocover

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/coverage"
)

// Available reports whether this program carries coverage counters that
// can be cleared and read: it was built with -cover -covermode=atomic.
// (Go refuses to clear or read the counters in the set and count modes
// while the program runs.)
func Available() bool {
	return coverage.ClearCounters() == nil
}

// Counters reads which blocks each request reached, and remembers the
// blocks reached since it was made, so that Take tells each block once.
// It is not safe for concurrent use; the program's counters are global,
// so one Counters at a time reads them.
type Counters struct {
	buf  bytes.Buffer
	seen map[uint32]struct{}
}

// Clear zeroes the program's counters: what runs next is counted from
// nothing.
func (c *Counters) Clear() error {
	return coverage.ClearCounters()
}

// Take appends to dst the ids of the blocks that ran since Clear and
// that no Take reported before, at most limit of them (limit <= 0: no
// limit); the blocks past limit are not remembered, so that a later
// request that reaches them again reports them.
func (c *Counters) Take(dst []uint32, limit int) ([]uint32, error) {
	c.buf.Reset()
	if err := coverage.WriteCounters(&c.buf); err != nil {
		return dst, err
	}
	if c.seen == nil {
		c.seen = map[uint32]struct{}{}
	}
	n := 0
	err := Parse(c.buf.Bytes(), func(pkg, fn uint32, counters []uint32) {
		for i, v := range counters {
			if v == 0 || limit > 0 && n >= limit {
				continue
			}
			id := ID(pkg, fn, uint32(i))
			if _, ok := c.seen[id]; ok {
				continue
			}
			c.seen[id] = struct{}{}
			dst = append(dst, id)
			n++
		}
	})
	return dst, err
}

// ID is the id of block i of function fn of package pkg: FNV-1a over
// the three numbers, little-endian.
func ID(pkg, fn, i uint32) uint32 {
	const offset, prime = 2166136261, 16777619
	h := uint32(offset)
	for _, v := range [3]uint32{pkg, fn, i} {
		for k := 0; k < 4; k++ {
			h ^= v & 0xff
			h *= prime
			v >>= 8
		}
	}
	return h
}

// The counter-data format (Go's internal/coverage/defs.go): a file
// header, segments (a header, a string table, arguments, padding to four
// bytes, then the live functions), and a footer.
const (
	fileHeaderSize    = 32 // magic, version, meta hash, flavor, big-endian flag, padding
	segmentHeaderSize = 16 // functions, string table length, arguments length
	footerSize        = 16 // magic, padding, segments, padding
	flavorRaw         = 1  // counters as uint32s
	flavorULEB128     = 2  // counters as ULEB128
	maxVersion        = 1
)

var magic = [4]byte{0x00, 0x63, 0x77, 0x6d}

// ErrFormat is the error of counter data Parse cannot read.
var ErrFormat = errors.New("gocover: not Go counter data")

// Parse reads counter data as runtime/coverage.WriteCounters writes it,
// and calls f for each function it holds, with its package's and its
// own index and its counters (one per block; the slice is reused between
// calls). Data it cannot read is an error wrapping ErrFormat that says
// at which offset; f may have been called for the functions before it.
func Parse(b []byte, f func(pkg, fn uint32, counters []uint32)) error {
	if len(b) < fileHeaderSize+footerSize {
		return fmt.Errorf("%w: %d bytes, shorter than a header and a footer", ErrFormat, len(b))
	}
	if [4]byte(b[:4]) != magic {
		return fmt.Errorf("%w: offset 0: not its magic number", ErrFormat)
	}
	if v := binary.LittleEndian.Uint32(b[4:]); v == 0 || v > maxVersion {
		return fmt.Errorf("%w: offset 4: version %d, want 1", ErrFormat, v)
	}
	flavor, bigEndian := b[24], b[25] != 0
	if flavor != flavorRaw && flavor != flavorULEB128 {
		return fmt.Errorf("%w: offset 24: counter flavor %d", ErrFormat, flavor)
	}
	end := len(b) - footerSize
	if [4]byte(b[end:end+4]) != magic {
		return fmt.Errorf("%w: offset %d: the footer's magic number is missing", ErrFormat, end)
	}
	segments := binary.LittleEndian.Uint32(b[end+8:])
	r := reader{b: b[:end], at: fileHeaderSize, raw: flavor == flavorRaw, big: bigEndian}
	var counters []uint32
	for s := uint32(0); s < segments; s++ {
		if r.at+segmentHeaderSize > len(r.b) {
			return r.errorf("segment %d of %d: no header", s+1, segments)
		}
		fns := binary.LittleEndian.Uint64(r.b[r.at:])
		skip := uint64(binary.LittleEndian.Uint32(r.b[r.at+8:])) + uint64(binary.LittleEndian.Uint32(r.b[r.at+12:]))
		if skip > uint64(len(r.b)-r.at-segmentHeaderSize) {
			return r.errorf("segment %d: its string table and arguments run past the data", s+1)
		}
		r.at += segmentHeaderSize + int(skip)
		r.at = (r.at + 3) &^ 3
		for k := uint64(0); k < fns; k++ {
			n, pkg, fn := r.u32(), r.u32(), r.u32()
			if r.err != nil {
				return r.err
			}
			// Each counter takes at least one byte: a count past what is
			// left is not data, and would allocate without bound.
			if int(n) > len(r.b)-r.at {
				return r.errorf("function %d of package %d: %d counters, more than the data holds", fn, pkg, n)
			}
			counters = counters[:0]
			for range n {
				counters = append(counters, r.u32())
			}
			if r.err != nil {
				return r.err
			}
			f(pkg, fn, counters)
		}
	}
	if r.at != len(r.b) {
		return r.errorf("%d bytes after the last segment", len(r.b)-r.at)
	}
	return nil
}

// reader reads the counters' numbers in their flavor; the first error
// sticks.
type reader struct {
	b        []byte
	at       int
	raw, big bool
	err      error
}

func (r *reader) errorf(format string, args ...any) error {
	if r.err == nil {
		r.err = fmt.Errorf("%w: offset %d: %s", ErrFormat, r.at, fmt.Sprintf(format, args...))
	}
	return r.err
}

func (r *reader) u32() uint32 {
	if r.err != nil {
		return 0
	}
	if r.raw {
		if r.at+4 > len(r.b) {
			r.errorf("a counter cut short")
			return 0
		}
		var v uint32
		if r.big {
			v = binary.BigEndian.Uint32(r.b[r.at:])
		} else {
			v = binary.LittleEndian.Uint32(r.b[r.at:])
		}
		r.at += 4
		return v
	}
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if r.at >= len(r.b) {
			r.errorf("a counter cut short")
			return 0
		}
		if shift > 63 {
			r.errorf("a counter longer than 64 bits")
			return 0
		}
		c := r.b[r.at]
		r.at++
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			break
		}
	}
	return uint32(v)
}
