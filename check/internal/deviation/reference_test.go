package deviation

import (
	"context"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// TestReferenceRemembered: the remembered answers are the reference's,
// asked once or again, for each options; one the reference did not give
// (its context done) is not remembered.
func TestReferenceRemembered(t *testing.T) {
	cases := []impl.Case{
		{Schema: []byte(`{"properties":{"a":{"type":"array"}}}`), Args: []byte(`{"a":"[1]","b":"&amp;amp;"}`)},
		{Schema: []byte(`{"properties":{"a":{"type":"array"}}}`), Args: []byte(`{"a":"[1]","b":"&amp;amp;"}`), Options: impl.Options{Repairs: normalize.JSONRepair}},
		{Schema: []byte(`{"type":"nope"}`), Args: []byte(`{"a":"x"}`)},
		{Schema: []byte(`{}`), Args: []byte(`{"a":1e400}`)},
	}
	for round := range 2 {
		for _, c := range cases {
			want := impl.Reference.Normalize(context.Background(), c)
			if got := reference(context.Background(), c); !impl.Same(got, want) || got.Error != want.Error {
				t.Errorf("round %d, %s %s %v: %v, the reference gives %v", round, c.Schema, c.Args, c.Options, got, want)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := impl.Case{Schema: []byte(`{}`), Args: []byte(`{"never":"asked before"}`)}
	if r := reference(ctx, c); r.Failure == nil {
		t.Fatalf("the reference answered with its context done: %v", r)
	}
	if r := reference(context.Background(), c); r.Failure != nil || string(r.Output) != `{"never":"asked before"}` {
		t.Errorf("after a cancelled request: %v", r)
	}
}
