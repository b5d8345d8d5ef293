package harness_test

import (
	"context"
	"log"
	"os"
	"strings"

	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// Serve makes a Go implementation an adapter that toolnorm check --impl
// can run: its main calls Serve(os.Stdin, os.Stdout, os.Stderr, ...).
// Here the requests toolnorm would send come from a string.
func ExampleServe() {
	mine := impl.Func("mine", func(ctx context.Context, c impl.Case) impl.Result {
		s, err := normalize.Compile(c.Schema, c.Options.Normalize()...)
		if err != nil {
			return impl.Reject(impl.ErrInvalidSchema, err.Error())
		}
		out, err := s.Normalize(c.Args)
		if err != nil {
			return impl.Reject(impl.ErrUnspecified, err.Error())
		}
		return impl.OK(out)
	})
	requests := strings.NewReader(`{"cmd":"start","version":1}
{"cmd":"normalize","id":1,"schema":{"properties":{"tags":{"type":"array"}}},"arguments":{"tags":"[\"Ember &amp;amp; Oak\"]"}}
{"cmd":"stop"}
`)
	info := harness.Info{Name: "mine", Language: "Go"}
	if err := harness.Serve(requests, os.Stdout, os.Stderr, mine, info, harness.Declares{}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"version":1,"implementation":{"name":"mine","language":"Go"},"declares":{}}
	// {"id":1,"arguments":{"tags":["Ember & Oak"]}}
}
