// Command toolnorm-adapter is toolnorm's adapter for ./norm:Normalize (written by
// toolnorm init; edit info and declares freely):
//
//	toolnorm check --impl 'go run ./cmd/adapter'
//
// It serves the protocol (docs/protocol.md) with harness.Serve, and gives
// the function the schema and the arguments as the JSON text toolnorm sent:
// number text, member order, duplicate members and escapes all reach it
// as they came, and what it returns goes back as it wrote it. An error it
// returns, or a panic, is an error answer and the adapter goes on (Go
// cannot recover from a stack overflow, nor from a panic on another
// goroutine: those end the program, and toolnorm restarts it).
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"

	target "example.com/blindnorm/norm"
)

// function is the function checked: JSON text in, JSON text out.
var function func(schema, arguments []byte) ([]byte, error) = target.Normalize

var info = harness.Info{Name: "blindnorm", Language: "Go", Version: "0.1.0"}

// declares is the reading of RT-TOOL-8 implemented (docs/protocol.md,
// "Declares"): Profile normalize.Attribute, MaxPasses n, Depth
// normalize.TopLevel, Repairs []string{"json"} or {"entities"}.
var declares = harness.Declares{}

func main() {
	// BLIND_SWITCHES turns on alternative code paths (comma-separated
	// names); an unknown name is an error.
	if err := target.SetSwitches(os.Getenv("BLIND_SWITCHES")); err != nil {
		fmt.Fprintln(os.Stderr, "toolnorm-adapter:", err)
		os.Exit(2)
	}
	// Built with Go's coverage (go run -cover -covermode=atomic
	// ./cmd/toolnorm-adapter, as the nightly fuzz runs it), the adapter offers toolnorm
	// fuzz the blocks of your code each request reached, so that cases
	// reaching new code are kept and mutated (docs/fuzzing.md); built
	// without, GoCoverage is "" and nothing is offered. (Go says on
	// standard error that GOCOVERDIR is not set: nothing is written.)
	info.Coverage = harness.GoCoverage()
	if err := harness.Serve(os.Stdin, os.Stdout, os.Stderr, adapter(), info, declares); err != nil {
		fmt.Fprintln(os.Stderr, "toolnorm-adapter:", err)
		os.Exit(1)
	}
}

// adapter is function as an impl.Impl: an error or a panic of it is an
// error answer, never the end of the program.
func adapter() impl.Impl {
	return impl.Func(info.Name, func(_ context.Context, c impl.Case) (r impl.Result) {
		defer func() {
			if p := recover(); p != nil {
				r = impl.Reject(impl.ErrUnspecified, fmt.Sprintf("panic: %v", p))
			}
		}()
		out, err := function(c.Schema, c.Args)
		if err != nil {
			return impl.Reject(impl.ErrUnspecified, err.Error())
		}
		return impl.OK(out)
	})
}
