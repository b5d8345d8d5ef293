package harness

import (
	"context"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// TestServeMemory: Serve's own work on a request costs one copy of it
// (given to the implementation, which may keep it) and a buffer as long as
// the longest line, reused: 8 requests of 1 MiB in, answered by an
// implementation that gives its arguments back, allocate less than twice
// their size. Serve used to parse each line into a tree, copy the schema
// and the arguments out of it, parse the output again and build the
// answer: 8 times the requests.
func TestServeMemory(t *testing.T) {
	identity := impl.Func("identity", func(ctx context.Context, c impl.Case) impl.Result { return impl.OK(c.Args) })
	req := `{"cmd":"normalize","id":1,"schema":{"type":"object"},"arguments":{"t":"` + strings.Repeat("Ember &amp; Oak ", 1<<16) + `"}}` + "\n"
	const n = 8
	in := strings.Repeat(req, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := Serve(strings.NewReader(in), io.Discard, io.Discard, identity, Info{Name: "x"}, Declares{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if per := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(in)); per >= 2 {
		t.Errorf("Serve allocated %.2f bytes per byte of its requests, want less than 2", per)
	}
}
