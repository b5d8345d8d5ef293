package impltest_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
)

func ExampleRecorder() {
	r := &impltest.Recorder{Impl: impl.Reference}
	cases := []impl.Case{
		{Schema: []byte(`{"properties":{"tags":{"type":"array"}}}`), Args: []byte(`{"tags":"[1]"}`)},
		{Schema: []byte(`{}`), Args: []byte(`{"t":"a &amp; b"}`)},
	}
	out := impl.Run(context.Background(), r, cases) // a Recorder takes batches
	r.Normalize(context.Background(), cases[1])
	fmt.Println(string(out[0].Output), string(out[1].Output))
	fmt.Println(r.Batches(), "batch,", r.Alone(), "alone,", r.Requests(), "requests")
	// Output:
	// {"tags":[1]} {"t":"a & b"}
	// 1 batch, 1 alone, 3 requests
}

// TestRecorder: three batches sent at once, each taking a millisecond of
// a synctest bubble's clock, are all under way at once, and counted.
func TestRecorder(t *testing.T) {
	r := &impltest.Recorder{Impl: impl.Reference, Delay: time.Millisecond}
	c := impl.Case{Schema: []byte(`{}`), Args: []byte(`{}`)}
	synctest.Test(t, func(t *testing.T) {
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() { r.RunBatch(context.Background(), []impl.Case{c, c}) })
		}
		wg.Wait()
	})
	trips := r.Trips()
	if len(trips) != 3 || r.Batches() != 3 || r.Alone() != 0 || r.Requests() != 6 || r.Largest() != 2 {
		t.Errorf("%d trips, %d batches, %d alone, %d requests, largest %d", len(trips), r.Batches(), r.Alone(), r.Requests(), r.Largest())
	}
	if r.MostAtOnce() != 3 {
		t.Errorf("at most %d batches at once, want the 3 sent together", r.MostAtOnce())
	}
	if n := r.Sent()[c.Key()]; n != 6 {
		t.Errorf("the case sent %d times, want 6", n)
	}
}
