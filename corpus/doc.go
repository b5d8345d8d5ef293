// Package corpus reads, checks and grows toolnorm's regression corpus: one
// JSON file per vector under vectors/, in a format any language can replay
// (see README.md beside this file, and vector.schema.json).
//
// The committed corpus is embedded: [Embedded] serves it as an fs.FS, so
// the toolnorm binary carries it.
package corpus
