// Package properties states rule RT-TOOL-8 as properties that any
// implementation must make true on every input, and checks them with
// pgregory.net/rapid: each property draws schemas and arguments built for
// the rule (references from all 2,231 names, chains of &amp;, references
// split across passes, stringified JSON of the declared shape and of
// another, type unions, $ref, numbers past float64, lone surrogates), and
// a violation shrinks to a minimal case, printed as a corpus vector.
//
// The properties run on an impl.Impl: the reference, a Go function, or a
// program in another language behind the protocol. Each has a stable ID,
// a statement and the clause of the rule (or section of
// docs/readings.md) it enforces, and says whether the rule requires it or
// it is one of toolnorm's readings.
package properties
