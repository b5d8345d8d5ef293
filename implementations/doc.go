// Package implementations holds toolnorm's adapters for published
// implementations of RT-TOOL-8, one directory each, named
// <language>-<package>, each calling the package's own functions at a
// pinned version (README.md in each says how), and the test that holds
// toolnorm to what it finds in them: a change to toolnorm that loses one
// of their real findings, or adds one that is not there, fails it.
//
// The Go package has no code of its own; the adapters are programs in the
// implementations' languages.
package implementations
