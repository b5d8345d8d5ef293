package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// TestShapes: every shape, at the sizes the benchmarks use, is JSON, an
// object of arguments, and its growing part fits its size within 10%.
func TestShapes(t *testing.T) {
	sizes := []int{MinSize, 64 << 10, 1 << 20, MaxSize}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, sh := range Shapes() {
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s/%d", sh.Name, size), func(t *testing.T) {
				c := sh.Build(size)
				if !json.Valid(c.Schema) || !json.Valid(c.Args) {
					t.Fatalf("not JSON: schema %.80q, args %.80q", c.Schema, c.Args)
				}
				if c.Args[0] != '{' {
					t.Errorf("arguments are not an object: %.40q", c.Args)
				}
				part := c.Args
				if sh.Grows == Schema {
					part = c.Schema
				}
				if n := len(part); n > size || n < size*9/10 {
					t.Errorf("%d bytes, want %d less at most 10%%", n, size)
				}
				if again := sh.Build(size); !bytes.Equal(again.Args, c.Args) || !bytes.Equal(again.Schema, c.Schema) {
					t.Error("not the same bytes twice")
				}
			})
		}
	}
}
