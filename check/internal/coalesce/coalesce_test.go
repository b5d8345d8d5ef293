package coalesce

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
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

// TestEach: the workers Each runs ask in lockstep, so what they ask at
// once is one batch, in the order of their ranks.
func TestEach(t *testing.T) {
	p := &crashy{}
	k := New(context.Background(), p, nil)
	defer k.Release()
	got := make([]impl.Result, 4)
	k.Each(context.Background(), len(got), func(ctx context.Context, i int) {
		got[i] = k.Normalize(ctx, impl.Case{Schema: []byte(`{}`), Args: []byte(fmt.Sprint(3 - i))})
	})
	if len(p.batches) != 1 || !slices.Equal(p.batches[0], []string{"3", "2", "1", "0"}) {
		t.Errorf("batches %q, want one: 3 2 1 0", p.batches)
	}
	for i, r := range got {
		if string(r.Output) != fmt.Sprint(3-i) {
			t.Errorf("worker %d got %s", i, r.Output)
		}
	}
}
