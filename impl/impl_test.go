package impl_test

import (
	"fmt"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

func TestCompare(t *testing.T) {
	out := func(s string) impl.Result { return impl.Result{Output: []byte(s)} }
	fail := func(kind string) impl.Result { return impl.Result{Error: kind} }
	tests := []struct {
		got, want impl.Result
		diff      string
	}{
		{out(`{"a":1.0}`), out(`{"a":1}`), ""},
		{out(`{"a":1,"b":2}`), out(`{"b":2,"a":1}`), "wrong output"},
		{out(`{"a":"x"}`), out(`{"a":"y"}`), "wrong output"},
		{out(`{"a":`), out(`{}`), "output that is not JSON"},
		{fail(impl.ErrNotObject), fail(impl.ErrNotObject), ""},
		{fail(impl.ErrInvalidJSON), fail(impl.ErrNotObject), "error invalid-json, want error not-object"},
		{out(`[1]`), fail(impl.ErrNotObject), "output, want error not-object"},
		{fail(impl.ErrTooDeep), out(`{}`), "error too-deep, want output"},
		{fail(impl.ErrUnspecified), fail(impl.ErrNotObject), ""},
		{fail(impl.ErrUnspecified), out(`{}`), "error error, want output"},
		{fail(impl.ErrTimeout), out(`{}`), "timeout"},
		{fail(impl.ErrCrash), fail(impl.ErrNotObject), "crash"},
	}
	for _, tt := range tests {
		if got := impl.Compare(tt.got, tt.want); got != tt.diff {
			t.Errorf("Compare(%+v, %+v) = %q, want %q", tt.got, tt.want, got, tt.diff)
		}
	}
}

func TestReference(t *testing.T) {
	r := impl.Reference.Normalize([]byte(`{"properties":{"t":{"type":"array"}}}`), []byte(`{"t":"[&quot;a&quot;]","u":"?a&region=1"}`), impl.Options{Profile: "attribute"})
	if string(r.Output) != `{"t":["a"],"u":"?a&region=1"}` || r.Error != "" {
		t.Fatalf("Reference = %+v", r)
	}
	r = impl.Reference.Normalize([]byte(`{}`), []byte(`{"a":"&amp;amp;"}`), impl.Options{MaxPasses: 1})
	if string(r.Output) != `{"a":"&amp;"}` {
		t.Fatalf("Reference with a pass bound = %+v", r)
	}
}

func ExampleFunc() {
	// An implementation under test, written as a Go function: here, one
	// that changes nothing at all.
	identity := impl.Func("identity", func(schema, args []byte, o impl.Options) impl.Result {
		return impl.Result{Output: args}
	})
	schema, args := []byte(`{}`), []byte(`{"title":"Ember &amp;amp; Oak"}`)
	got := identity.Normalize(schema, args, impl.Options{})
	want := impl.Reference.Normalize(schema, args, impl.Options{})
	fmt.Println(impl.Compare(got, want))
	// Output: wrong output
}
