// Package normalize is the reference implementation of rule RT-TOOL-8 of
// the FlowDrop Workflow Specification: it repairs the arguments a model
// hands to a tool, against the tool's own JSON Schema, and changes nothing
// else.
//
// Two repairs, independent of each other:
//
//   - A string is replaced by the JSON array or object it holds, only where
//     the schema declares that position array or object (and not string),
//     the whole string parses as JSON, and the parsed shape matches.
//   - HTML character references in every string leaf are decoded, pass
//     after pass, until the value stops changing: "Ember &amp;amp; Oak"
//     becomes "Ember & Oak".
//
// Keys are never modified; numbers keep their text; member order,
// duplicate members, whitespace and the escapes of untouched strings are
// kept byte for byte.
//
// The rule leaves questions open. The readings this package implements,
// with an example for each, are in docs/readings.md of the toolnorm
// repository
// (https://github.com/toolnorm/toolnorm/blob/main/docs/readings.md); the
// doc comments refer to its sections.
//
// # Use
//
// Compile a tool's schema once with [Compile], then call
// [Schema.Normalize] (or [Schema.NormalizeReport], which also lists each
// repair, by [Pointer]) for each set of arguments; their Context variants
// stop when a context is done. [DecodeEntities] is the entity repair of
// one string.
//
// Arguments that need no repair, the common case, cost no allocation:
// Normalize returns them as they are, not a copy (with the capacity cut
// to the length, so that appending to the result copies). Repaired
// arguments come back in a new buffer; args is never written.
//
// # Guarantees
//
// For every input, without a pass bound:
//
//	Normalize(Normalize(x)) == Normalize(x)
//	DecodeEntities(s) == UnescapeString applied until nothing changes
//	                     (golang.org/x/net/html, text mode)
//
// Decoding takes time linear in the length of a string however many passes
// it needs, and normalizing time and memory linear in the arguments, for a
// given schema, whatever their shape (a report too: the pointers of its
// repairs share their steps). Bad input gets an [*Error] (or a [*SchemaError]) naming what
// and where, and no output; no input makes it panic.
package normalize
