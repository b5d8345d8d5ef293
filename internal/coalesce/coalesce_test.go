package coalesce

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// one takes one batch at a time, as a harness.Adapter does, and counts
// those sent while another was under way.
type one struct {
	impl.Impl
	mu                  sync.Mutex
	now, batches, clash int
}

func (o *one) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	o.mu.Lock()
	o.batches++
	if o.now++; o.now > 1 {
		o.clash++
	}
	o.mu.Unlock()
	out := make([]impl.Result, len(cases))
	for i, c := range cases {
		out[i] = o.Impl.Normalize(ctx, c)
	}
	o.mu.Lock()
	o.now--
	o.mu.Unlock()
	return out
}

// TestEachGetsItsOwn: callers asking at once get the results of their own
// cases, in their order, and the program one batch at a time, no more
// batches than were asked for.
func TestEachGetsItsOwn(t *testing.T) {
	o := &one{Impl: impl.Reference}
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
	if o.clash > 0 || o.batches > 2*callers {
		t.Errorf("%d batches, %d while another was under way", o.batches, o.clash)
	}
}
