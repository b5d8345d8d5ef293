package fuzz

import (
	"context"
	"fmt"
	"regexp"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
	"github.com/toolnorm/toolnorm/oracle"
)

// loneSurrogate matches an escaped surrogate. The slow normalizer decodes
// through encoding/json, which turns a lone one into U+FFFD; inputs with one
// are left to the table tests and the corpus (docs/readings.md, section 7).
var loneSurrogate = regexp.MustCompile(`\\u[dD][89abAB]|\\u[dD][c-fC-F]`)

// Differ compares the reference normalizer with the slow spec-literal one
// (oracle.Normalize) on one input: both must fail, or both succeed with
// equal JSON values. It returns a description of the difference, or nil.
func Differ(schema, args []byte, o impl.Options) error {
	if loneSurrogate.Match(args) {
		return nil
	}
	fast := impl.Reference.Normalize(context.Background(), impl.Case{Schema: schema, Args: args, Options: o})
	out, err := oracle.Normalize(schema, args, oracle.Options{Attribute: o.Profile == normalize.Attribute, MaxPasses: o.MaxPasses, MaxDepth: o.MaxDepth})
	slow := impl.Result{Output: out}
	if err != nil {
		slow = impl.Reject(impl.ErrUnspecified, err.Error())
	}
	switch {
	case fast.Error != "" && slow.Error != "":
		return nil
	case fast.Error != "" || slow.Error != "":
		return fmt.Errorf("schema %s\nargs %s\nreference: %s %s %s\n     slow: %s %s %s", schema, args, fast.Output, fast.Error, fast.Detail, slow.Output, slow.Error, slow.Detail)
	}
	if d := impl.Compare(fast, slow).Diff; d != "" {
		return fmt.Errorf("%s\nschema %s\nargs %s\nreference: %s\n     slow: %s", d, schema, args, fast.Output, slow.Output)
	}
	return nil
}
