package coalesce

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/impltest"
)

// TestEachGetsItsOwn: callers asking at once get the results of their own
// cases, in their order, and the program one batch at a time, no more
// batches than were asked for.
func TestEachGetsItsOwn(t *testing.T) {
	o := &impltest.Recorder{Impl: impl.Reference}
	k := New(context.Background(), o, nil)
	const callers, each = 8, 5
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for g := range callers {
		wg.Go(func() {
			cases := make([]impl.Case, each)
			for i := range cases {
				cases[i] = impl.Case{Schema: []byte(`{"type":"object"}`), Args: fmt.Appendf(nil, `{"k":"%d&amp;%d"}`, g, i)}
			}
			for i, r := range k.RunBatch(context.Background(), cases) {
				if want := fmt.Appendf(nil, `{"k":"%d&%d"}`, g, i); !bytes.Equal(r.Output, want) {
					errs <- fmt.Errorf("caller %d, case %d: %s, want %s", g, i, r.Output, want)
				}
			}
			if r := k.Normalize(context.Background(), cases[0]); !bytes.Equal(r.Output, fmt.Appendf(nil, `{"k":"%d&0"}`, g)) {
				errs <- fmt.Errorf("caller %d alone: %s", g, r.Output)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if o.MostAtOnce() > 1 || o.Batches() > 2*callers {
		t.Errorf("%d batches, %d under way at once", o.Batches(), o.MostAtOnce())
	}
}
