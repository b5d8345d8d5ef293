// Package entity decodes HTML character references the way the WHATWG
// tokenizer does, one pass at a time or to an exact fixpoint in linear time.
//
// The table of names is generated from html5lib's namedEntities.test; see
// internal/gen.
package entity

//go:generate go run ./internal/gen -o table.go
