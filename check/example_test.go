package check_test

import (
	"context"
	"fmt"
	"log"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// Run checks a Go implementation in full, from its own go test: the
// corpus, every property and fuzzing against the reference. With Checks
// set, the same Seed gives the same report on any machine; with Budget
// instead, the check stops in time.
func ExampleRun() {
	vectors, err := corpus.Load(corpus.Embedded())
	if err != nil {
		log.Fatal(err)
	}
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
	r := check.Run(context.Background(), check.Config{Impl: mine, Vectors: vectors, Checks: 20, Seed: 1})
	fmt.Println("verdict:", r.Verdict)
	fmt.Println("violations:", r.Violations())
	// Output:
	// verdict: pass
	// violations: 0
}
