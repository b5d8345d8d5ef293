package impl_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

func TestCompare(t *testing.T) {
	out := impl.OK
	rej := func(kind impl.ErrorKind) impl.Result { return impl.Reject(kind, "") }
	tests := []struct {
		got, want impl.Result
		diff      string
		failure   error
	}{
		{out([]byte(`{"a":1.0}`)), out([]byte(`{"a":1}`)), "", nil},
		{out([]byte(`{"a":1,"b":2}`)), out([]byte(`{"b":2,"a":1}`)), "wrong output", nil},
		{out([]byte(`{"a":"x"}`)), out([]byte(`{"a":"y"}`)), "wrong output", nil},
		{out([]byte(`{"a":`)), out([]byte(`{}`)), "output that is not JSON", nil},
		{rej(impl.ErrNotObject), rej(impl.ErrNotObject), "", nil},
		{rej(impl.ErrInvalidJSON), rej(impl.ErrNotObject), "error invalid-json, want error not-object", nil},
		{out([]byte(`[1]`)), rej(impl.ErrNotObject), "output, want error not-object", nil},
		{rej(impl.ErrTooDeep), out([]byte(`{}`)), "error too-deep, want output", nil},
		// The protocol carries no kinds: an error of unspecified kind
		// matches every kind, in every check.
		{rej(impl.ErrUnspecified), rej(impl.ErrNotObject), "", nil},
		{rej(impl.ErrUnspecified), rej(impl.ErrInvalidSchema), "", nil},
		{rej(impl.ErrUnspecified), out([]byte(`{}`)), "an error, want output", nil},
		// Output is no error, even where the error expected has no kind.
		{out([]byte(`{}`)), rej(impl.ErrUnspecified), "output, want an error", nil},
		// A failure is not compared, whatever was expected.
		{impl.Fail(impl.ErrCrash, "exit status 3"), out([]byte(`{}`)), "", impl.ErrCrash},
		{impl.Fail(impl.ErrTimeout, ""), rej(impl.ErrNotObject), "", impl.ErrTimeout},
		// Nor is an answer with no expected result: the reference stopped
		// with its check.
		{out([]byte(`{}`)), impl.Fail(impl.ErrNotRun, "context canceled"), "", impl.ErrNotRun},
		{rej(impl.ErrNotObject), impl.Fail(impl.ErrNotRun, ""), "", impl.ErrNotRun},
	}
	for _, tt := range tests {
		c := impl.Compare(tt.got, tt.want)
		if c.Diff != tt.diff || !errors.Is(c.Failure, tt.failure) || (tt.failure == nil) != (c.Failure == nil) {
			t.Errorf("Compare(%v, %v) = %+v, want diff %q, failure %v", tt.got, tt.want, c, tt.diff, tt.failure)
		}
		if c.Violation() != (tt.diff != "") || c.Same() != (tt.diff == "" && tt.failure == nil) {
			t.Errorf("Compare(%v, %v): Violation %v, Same %v", tt.got, tt.want, c.Violation(), c.Same())
		}
	}
}

func TestResultKind(t *testing.T) {
	gaveUp := fmt.Errorf("%w: %w: after 3 failed starts", impl.ErrCrash, impl.ErrGaveUp)
	tests := []struct {
		r    impl.Result
		kind impl.Kind
	}{
		{impl.OK([]byte(`{}`)), impl.KindOutput},
		{impl.Reject(impl.ErrNotObject, "x"), impl.KindRejected},
		{impl.Fail(impl.ErrTimeout, ""), impl.KindTimeout},
		{impl.Fail(fmt.Errorf("wrapped: %w", impl.ErrProtocol), ""), impl.KindProtocol},
		{impl.Fail(gaveUp, ""), impl.KindCrash},
		{impl.Fail(impl.ErrNotSendable, ""), impl.KindNotSendable},
		{impl.Fail(impl.ErrNotRun, ""), impl.KindNotRun},
	}
	for _, tt := range tests {
		if got := tt.r.Kind(); got != tt.kind {
			t.Errorf("%v: Kind = %v, want %v", tt.r, got, tt.kind)
		}
		if tt.r.Failed() != (tt.kind >= impl.KindTimeout) {
			t.Errorf("%v: Failed = %v", tt.r, tt.r.Failed())
		}
	}
	if !errors.Is(impl.Fail(gaveUp, "").Failure, impl.ErrGaveUp) {
		t.Error("a give-up is not ErrGaveUp")
	}
}

func TestOptions(t *testing.T) {
	for _, tt := range []struct {
		json string
		o    impl.Options
		err  bool
	}{
		{`{}`, impl.Options{}, false},
		{`{"profile":"text","depth":"all"}`, impl.Options{}, false},
		{`{"profile":"attribute","max_passes":2}`, impl.Options{Profile: normalize.Attribute, MaxPasses: 2}, false},
		{`{"depth":"top"}`, impl.Options{Depth: normalize.TopLevel}, false},
		{`{"profile":"Attribute"}`, impl.Options{}, true},
		{`{"depth":"nested"}`, impl.Options{}, true},
	} {
		var o impl.Options
		err := json.Unmarshal([]byte(tt.json), &o)
		if (err != nil) != tt.err || err == nil && o != tt.o {
			t.Errorf("%s: %+v, %v", tt.json, o, err)
		}
	}
	b, _ := json.Marshal(impl.Options{Profile: normalize.Attribute, Depth: normalize.TopLevel})
	if string(b) != `{"profile":"attribute","depth":"top"}` {
		t.Errorf("Marshal = %s", b)
	}
	b, _ = json.Marshal(impl.Options{})
	if string(b) != `{}` {
		t.Errorf("Marshal of the defaults = %s", b)
	}
	if !(impl.Options{}).Same(impl.Options{MaxDepth: impl.DefaultMaxDepth}) || (impl.Options{}).Same(impl.Options{MaxPasses: 1}) {
		t.Error("Same does not spell out the defaults")
	}
	if err := (impl.Options{MaxPasses: -1}).Validate(); err == nil {
		t.Error("a negative pass bound is valid")
	}
	if got := (impl.Options{Profile: normalize.Attribute, MaxPasses: 1, Depth: normalize.TopLevel, Repairs: normalize.JSONRepair}).String(); got != "profile attribute, max_passes 1, depth top, repairs json" {
		t.Errorf("String = %q", got)
	}
	// Repairs: text forms, and both as the zero value that vectors omit.
	for _, tt := range []struct {
		text string
		r    normalize.Repairs
	}{{"", normalize.AllRepairs}, {"json+entities", normalize.AllRepairs}, {"json", normalize.JSONRepair}, {"entities", normalize.EntityRepair}} {
		var r normalize.Repairs
		if err := r.UnmarshalText([]byte(tt.text)); err != nil || r != tt.r {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", tt.text, r, err, tt.r)
		}
	}
	var r normalize.Repairs
	if err := r.UnmarshalText([]byte("html")); err == nil {
		t.Error("repairs html is accepted")
	}
	if b, _ := json.Marshal(impl.Options{Repairs: normalize.EntityRepair}); string(b) != `{"repairs":"entities"}` {
		t.Errorf("Marshal = %s", b)
	}
	if err := (impl.Options{Repairs: 7}).Validate(); err == nil {
		t.Error("repairs 7 is valid")
	}
	if !normalize.JSONRepair.JSON() || normalize.JSONRepair.Entities() || normalize.EntityRepair.JSON() || !normalize.AllRepairs.JSON() || !normalize.AllRepairs.Entities() {
		t.Error("JSON and Entities say the wrong repairs")
	}
}

func TestRunStopsBetweenCases(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	im := impl.Func("counting", func(ctx context.Context, c impl.Case) impl.Result {
		args := c.Args
		if n++; n == 2 {
			cancel()
		}
		return impl.OK(args)
	})
	cases := make([]impl.Case, 4)
	for i := range cases {
		cases[i] = impl.Case{Schema: []byte(`{}`), Args: []byte(`{}`)}
	}
	got := impl.Run(ctx, im, cases)
	if n != 2 || !got[1].Answered() || got[2].Kind() != impl.KindNotRun || got[3].Kind() != impl.KindNotRun {
		t.Errorf("ran %d cases: %v", n, got)
	}
}

func TestReference(t *testing.T) {
	r := impl.Reference.Normalize(context.Background(), impl.Case{Schema: []byte(`{"properties":{"t":{"type":"array"}}}`), Args: []byte(`{"t":"[&quot;a&quot;]","u":"?a&region=1"}`), Options: impl.Options{Profile: normalize.Attribute}})
	if string(r.Output) != `{"t":["a"],"u":"?a&region=1"}` || !r.Answered() {
		t.Fatalf("Reference = %+v", r)
	}
	r = impl.Reference.Normalize(context.Background(), impl.Case{Schema: []byte(`{}`), Args: []byte(`{"a":"&amp;amp;"}`), Options: impl.Options{MaxPasses: 1}})
	if string(r.Output) != `{"a":"&amp;"}` {
		t.Fatalf("Reference with a pass bound = %+v", r)
	}
	c := impl.Configure(impl.Options{MaxPasses: 1})
	if r := c.Normalize(context.Background(), impl.Case{Schema: []byte(`{}`), Args: []byte(`{"a":"&amp;amp;"}`), Options: impl.Options{}}); string(r.Output) != `{"a":"&amp;"}` {
		t.Fatalf("Configure(max_passes 1) = %+v", r)
	}
}

func ExampleFunc() {
	// An implementation under test, written as a Go function: here, one
	// that changes nothing at all.
	identity := impl.Func("identity", func(ctx context.Context, c impl.Case) impl.Result {
		return impl.OK(c.Args)
	})
	schema, args := []byte(`{}`), []byte(`{"title":"Ember &amp;amp; Oak"}`)
	c := impl.Case{Schema: schema, Args: args}
	got := identity.Normalize(context.Background(), c)
	want := impl.Reference.Normalize(context.Background(), c)
	fmt.Println(impl.Compare(got, want).Diff)
	// Output: wrong output
}

func TestComparisonMessage(t *testing.T) {
	out := func(s string) impl.Result { return impl.OK([]byte(s)) }
	tests := []struct {
		got, want impl.Result
		msg       string
	}{
		{out(`{"a":"x"}`), out(`{"a":"y"}`), `wrong output: got {"a":"x"}, want {"a":"y"}`},
		// The error's kind is said once, and "an error" when it is not known.
		{impl.Reject(impl.ErrUnspecified, "bad\nthing"), out(`{}`), `got an error (bad\nthing), want {}`},
		{impl.Reject(impl.ErrInvalidJSON, ""), impl.Reject(impl.ErrNotObject, ""), `got error invalid-json, want error not-object`},
		// What one cannot see is shown escaped.
		{out("{\"a\":\"\u00a0\"}"), out(`{"a":" "}`), `wrong output: got {"a":"\u00a0"}, want {"a":" "}`},
		{impl.Fail(impl.ErrCrash, "exit status 3"), out(`{}`), `crash (exit status 3)`},
	}
	for _, tt := range tests {
		if got := impl.Compare(tt.got, tt.want).Message(tt.got, tt.want, "want"); got != tt.msg {
			t.Errorf("Message(%v, %v) =\n  %s\nwant\n  %s", tt.got, tt.want, got, tt.msg)
		}
	}
}

// TestCaseKey: cases with the same options and texts share a key; a
// difference in any of the three, or where one text ends and the other
// begins, gives another.
func TestCaseKey(t *testing.T) {
	c := impl.Case{Schema: []byte(`{}`), Args: []byte(`{"a":1}`)}
	if d := (impl.Case{Schema: []byte(`{}`), Args: []byte(`{"a":1}`)}); c.Key() != d.Key() {
		t.Errorf("the same case: %q and %q", c.Key(), d.Key())
	}
	for _, d := range []impl.Case{
		{Schema: []byte(`{} `), Args: c.Args},
		{Schema: c.Schema, Args: []byte(`{"a":2}`)},
		{Schema: c.Schema, Args: c.Args, Options: impl.Options{Profile: normalize.Attribute}},
		{Schema: []byte(`{}` + "\x00" + `{"a":1}`), Args: nil},
	} {
		if c.Key() == d.Key() {
			t.Errorf("%q %q %v: the key of %q %q", d.Schema, d.Args, d.Options, c.Schema, c.Args)
		}
	}
}
