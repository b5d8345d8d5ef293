// Package oracle holds the differential oracles that toolnorm's fast reference
// normalizer is compared with.
//
// Everything here is written for clarity, not speed, and is deliberately
// independent of the rest of toolnorm: the package imports nothing from
// github.com/toolnorm/toolnorm but internal/ecma, the ECMA-262 pattern
// engine (one definition of which patterns are valid and what they match,
// under one deterministic step budget, held to Node.js by its own tests),
// so that it is a second opinion rather than a copy of the first.
//
// # Character references
//
// [Unescape] is exactly one pass of HTML character-reference decoding as the
// WHATWG tokenizer does it in text content, taken from
// golang.org/x/net/html's UnescapeString. [UnescapeAttribute] is exactly one
// pass as the tokenizer does it in an attribute value (the opt-in attribute
// profile), taken from x/net/html's Tokenizer itself. [Fixpoint] repeats a pass
// until the value stops changing, naively: it is the definition the fast
// fixpoint is checked against.
//
// [HTML5LibCases] turns the html5lib tokenizer tests that are pure
// character-reference cases into (input, want) pairs, so that any decoder can
// be run against them.
//
// # The rule
//
// [Normalize] is a spec-literal, slow implementation of rule RT-TOOL-8 with
// the readings of toolnorm's docs/readings.md: JSON repair of stringified
// arrays and objects where the schema declares them, and entity repair of
// every string leaf. [Equal] compares two JSON texts as values, which is how the outputs of
// two implementations are compared.
package oracle
