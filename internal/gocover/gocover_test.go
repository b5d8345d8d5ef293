package gocover

import (
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type function struct {
	pkg, fn  uint32
	counters []uint32
}

// encode writes functions as Go's encodecounter does: a header, one
// segment (its string table and arguments as opaque bytes, padded to four
// bytes), the functions in flavor, and the footer.
func encode(flavor byte, big bool, strtab, args []byte, fns []function) []byte {
	b := append([]byte{}, magic[:]...)
	b = binary.LittleEndian.AppendUint32(b, 1)
	b = append(b, make([]byte, 16)...) // meta hash
	bigByte := byte(0)
	if big {
		bigByte = 1
	}
	b = append(b, flavor, bigByte, 0, 0, 0, 0, 0, 0)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(fns)))
	padded := append(append([]byte{}, args...), make([]byte, (4-(len(strtab)+len(args))%4)%4)...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(strtab)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(padded)))
	b = append(append(b, strtab...), padded...)
	put := func(v uint32) {
		switch {
		case flavor == flavorULEB128:
			b = binary.AppendUvarint(b, uint64(v))
		case big:
			b = binary.BigEndian.AppendUint32(b, v)
		default:
			b = binary.LittleEndian.AppendUint32(b, v)
		}
	}
	for _, f := range fns {
		put(uint32(len(f.counters)))
		put(f.pkg)
		put(f.fn)
		for _, c := range f.counters {
			put(c)
		}
	}
	b = append(b, magic[:]...)
	b = append(b, 0, 0, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, 1)
	return append(b, 0, 0, 0, 0)
}

func parseAll(b []byte) ([]function, error) {
	var got []function
	err := Parse(b, func(pkg, fn uint32, counters []uint32) {
		got = append(got, function{pkg, fn, append([]uint32(nil), counters...)})
	})
	return got, err
}

// TestParse: counter data in each flavor reads back as written; data cut
// short, padded wrongly, or claiming more than it holds is an error that
// says where, never a panic.
func TestParse(t *testing.T) {
	fns := []function{{0, 0, []uint32{1, 0, 300}}, {2, 7, []uint32{0}}, {1, 1 << 20, []uint32{1 << 31, 5}}}
	for _, tc := range []struct {
		name   string
		flavor byte
		big    bool
		strtab string
	}{
		{"uleb128", flavorULEB128, false, "\x03\x00\x01a"},
		{"raw", flavorRaw, false, "\x01"},
		{"raw big-endian", flavorRaw, true, ""},
	} {
		b := encode(tc.flavor, tc.big, []byte(tc.strtab), []byte{1, 2, 3}, fns)
		got, err := parseAll(b)
		if err != nil || !reflect.DeepEqual(got, fns) {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, fns)
		}
		// Each byte less before the footer leaves a function short.
		footer := b[len(b)-footerSize:]
		for cut := 1; cut <= len(b)-footerSize-fileHeaderSize; cut++ {
			short := append(append([]byte{}, b[:len(b)-footerSize-cut]...), footer...)
			if _, err := parseAll(short); !errors.Is(err, ErrFormat) {
				t.Errorf("%s cut by %d: %v, want ErrFormat", tc.name, cut, err)
			}
		}
	}
	good := encode(flavorULEB128, false, nil, nil, fns)
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"empty", func([]byte) []byte { return nil }, "shorter than a header"},
		{"magic", func(b []byte) []byte { b[1] = 'x'; return b }, "offset 0"},
		{"version", func(b []byte) []byte { b[4] = 9; return b }, "version 9"},
		{"flavor", func(b []byte) []byte { b[24] = 7; return b }, "flavor 7"},
		{"footer", func(b []byte) []byte { b[len(b)-16] = 1; return b }, "footer"},
		{"string table", func(b []byte) []byte { binary.LittleEndian.PutUint32(b[40:], 1<<30); return b }, "run past"},
		{"counters", func(b []byte) []byte { b[48] = 0x7f; return b }, "more than the data holds"},
		{"trailing", func(b []byte) []byte {
			return append(append(b[:len(b)-16:len(b)-16], 0), good[len(good)-16:]...)
		}, "after the last segment"},
		{"segments", func(b []byte) []byte { b[len(b)-8] = 2; return b }, "segment 2 of 2"},
	} {
		b := tc.edit(append([]byte{}, good...))
		_, err := parseAll(b)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrFormat saying %q", tc.name, err, tc.want)
		}
	}
}

// TestID: ids of neighbouring blocks, functions and packages differ.
func TestID(t *testing.T) {
	seen := map[uint32][3]uint32{}
	for p := uint32(0); p < 8; p++ {
		for f := uint32(0); f < 64; f++ {
			for i := uint32(0); i < 64; i++ {
				id := ID(p, f, i)
				if o, ok := seen[id]; ok {
					t.Fatalf("ID%v = ID%v = %d", [3]uint32{p, f, i}, o, id)
				}
				seen[id] = [3]uint32{p, f, i}
			}
		}
	}
}

// FuzzParse: any bytes are read or refused with ErrFormat, never a panic;
// functions encoded in either flavor read back as they were.
func FuzzParse(f *testing.F) {
	f.Add([]byte{}, uint32(3), uint32(1), uint32(5), true)
	f.Add(encode(flavorULEB128, false, nil, nil, []function{{1, 2, []uint32{3}}}), uint32(0), uint32(0), uint32(1<<31), false)
	f.Fuzz(func(t *testing.T, b []byte, pkg, fn, c uint32, raw bool) {
		if _, err := parseAll(b); err != nil && !errors.Is(err, ErrFormat) {
			t.Fatalf("%v: not ErrFormat", err)
		}
		flavor := byte(flavorULEB128)
		if raw {
			flavor = flavorRaw
		}
		fns := []function{{pkg, fn, []uint32{c, 0, c ^ 1}}, {fn, pkg, []uint32{c}}}
		got, err := parseAll(encode(flavor, false, b, b, fns))
		if err != nil || !reflect.DeepEqual(got, fns) {
			t.Fatalf("%v, %v; want %v", got, err, fns)
		}
	})
}
