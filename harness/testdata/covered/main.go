// Command covered is an adapter for TestServeGoCoverage: harness.Serve
// with Info.Coverage set to GoCoverage, over an implementation whose
// branches depend on the arguments, so that requests reach different
// blocks. Built with -cover -covermode=atomic it offers its coverage.
package main

import (
	"bytes"
	"context"
	"os"

	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
)

func normalize(_ context.Context, c impl.Case) impl.Result {
	switch {
	case bytes.Contains(c.Args, []byte("reject")):
		return impl.Reject(impl.ErrUnspecified, "rejected")
	case bytes.Contains(c.Args, []byte("deep")):
		if bytes.Contains(c.Args, []byte("deeper")) {
			return impl.OK([]byte(`{"depth":2}`))
		}
		return impl.OK([]byte(`{"depth":1}`))
	}
	return impl.OK(c.Args)
}

func main() {
	info := harness.Info{Name: "covered", Language: "Go", Coverage: harness.GoCoverage()}
	if err := harness.Serve(os.Stdin, os.Stdout, os.Stderr, impl.Func("covered", normalize), info, harness.Declares{}); err != nil {
		os.Exit(1)
	}
}
