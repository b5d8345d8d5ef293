package hostile

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
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

var (
	dump     = flag.String("hostile.dump", "", "write each shape to `DIR` as NAME.schema.json and NAME.args.json")
	dumpSize = flag.Int("hostile.size", 1<<20, "the size of the shapes -hostile.dump writes")
)

// TestDump writes the shapes to the directory -hostile.dump names, at
// -hostile.size bytes, for measuring a command on them:
//
//	go test ./internal/hostile -run TestDump -args -hostile.dump /tmp/h -hostile.size 1048576
func TestDump(t *testing.T) {
	if *dump == "" {
		t.Skip("no -hostile.dump")
	}
	if err := os.MkdirAll(*dump, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, sh := range Shapes() {
		c := sh.Build(*dumpSize)
		for suffix, b := range map[string][]byte{".schema.json": c.Schema, ".args.json": c.Args} {
			if err := os.WriteFile(filepath.Join(*dump, sh.Name+suffix), b, 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
}
