package normalize

import (
	"context"
	"errors"
	"testing"
)

// FuzzCompileHostile compiles the hostile shapes, at up to 512 KB, with
// bytes overwritten (each three bytes of edits: where, in 1/65536ths of
// the schema, and the byte), and holds Compile to no panic, a SchemaError
// when it fails, and a count of steps linear in the schema's size.
func FuzzCompileHostile(f *testing.F) {
	for i, s := range compileShapes {
		f.Add(uint8(i), uint32(4<<10), []byte(nil))
		f.Add(uint8(i), uint32(100<<10), []byte{0x80, 0, '{', 0x40, 0, '"'})
		if s.name == "deeptilde" {
			f.Add(uint8(i), uint32(300<<10), []byte{0xff, 0xf0, '[', 0x20, 0, 0})
		}
	}
	f.Fuzz(func(t *testing.T, shape uint8, size uint32, edits []byte) {
		s := compileShapes[int(shape)%len(compileShapes)]
		schema := s.build(int(size%(512<<10)) + 1)
		for i := 0; i+3 <= len(edits); i += 3 {
			at := (int(edits[i])<<8 | int(edits[i+1])) * len(schema) >> 16
			schema[at] = edits[i+2]
		}
		_, steps, err := compileCounted(context.Background(), schema, nil)
		var se *SchemaError
		if err != nil && (!errors.As(err, &se) || !errors.Is(err, ErrSchema)) {
			t.Fatalf("%s, %d bytes: %v, not a SchemaError", s.name, len(schema), err)
		}
		if limit := int64(maxStepsPerByte*len(schema) + maxStepsFixed); steps > limit {
			t.Fatalf("%s, %d bytes: %d steps, more than %d", s.name, len(schema), steps, limit)
		}
	})
}
