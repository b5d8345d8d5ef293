// Package schemagen searches the space of tool schemas that bugs hide in
// (issue 36): it draws schemas over the whole vocabulary tools ship, in
// every draft the reference reads, with arguments drawn to fit them or to
// break them at one place (Draw); it mutates a case's schema and
// arguments together, structure-aware (Mutate); and it names the features
// a case exercises (AnalyzeText), so that a check can say what it searched.
//
// Drawing is swarm testing: each case enables a random subset of the
// features (type lists, each validation keyword, each applicator, the
// kinds of reference, special keys, JSON text in strings, a break), so
// that rare combinations get weight, and a case that needs two features
// and not a third is drawn often.
//
// The generator models what the reference declares at each position
// (docs/readings.md section 4) only as far as drawing values needs it:
// where the model and the reference part (an if/then/else, a not), the
// case is still a case, judged against the reference. The package reads
// no schema semantics from normalize, so that the search does not share
// the reference's bugs.
package schemagen
