// Package explain turns what a check found into the list of bugs: every
// finding (a failing vector, a property's counterexample, a fuzzing
// bucket's) is filed under exactly one root cause.
//
// A root cause is a behaviour, not a symptom. The catalogue of
// check/internal/deviation holds the ways real normalizers differ from
// the reference, each as the reference with one change; a finding is
// explained by a deviation when the reference with it gives exactly the
// implementation's answer on the finding's case. The stage is a
// pipeline of named steps:
//
//   - collect: the findings to explain, apart from failures of the
//     program (not run again) and properties' violations that their case
//     alone does not show;
//   - candidates: the deviations (one, or where none does, two together)
//     that explain each finding, run locally on its case;
//   - reduce: a finding no deviation explains as found is minimized
//     while it keeps the class of what differs, and explained again:
//     a case found with several bugs at once is cut down to one;
//   - experiments: a deviation is kept only if the implementation shows
//     the example of its title too, and no witness of it contradicts it
//     (a witness is excused only by another deviation the implementation
//     shows; one the implementation answers as the reference does shows
//     nothing); where several explain a finding, the witnesses of them
//     all (small cases on which each differs from the reference) go to
//     the implementation, and the candidates that predict its answers
//     best are kept;
//   - cover: the smallest set of deviations that explain the findings,
//     most findings first; a finding two deviations explain together
//     goes under the one no other finding shows alone;
//   - shrink: a sample of each root cause is minimized by the one
//     minimizer, a smaller case being kept only while the same
//     deviations explain it: the bug, not just a failure;
//   - fallback: the findings no deviation explains, classified by what
//     differs (package check/internal/diagnose), minimized keeping their
//     class;
//   - distinct: a class's counterexample whose arguments hold one value
//     twice (`[]` and `[]`) has them made different numbers; where the
//     implementation still fails, and what differs is of another class
//     (keys renumbered, which looked like keys reordered), that case is
//     the counterexample;
//   - contexts: a class's claim is checked against its counterexample's
//     context: with the member it fails at renamed, or with nothing
//     declared for it, where the rule gives the same answer, an
//     implementation that then answers right has a bug of that member's
//     name (member-name/...) or of how its declaration is read
//     (member-declaration/...), and the title says only that;
//   - ignored: for a class of the JSON repair (not an error), each
//     keyword of its counterexample's schema is taken out in turn: where
//     the reference without it gives the implementation's answer, and the
//     implementation answers the same without it, the keyword may be one
//     not read; taking out a keyword beside it instead, where the
//     implementation then answers right, shows in whose company, and
//     only then is it claimed (not-read/K: "`type` is not read where
//     `anyOf` is beside it"); the causes left of one class are then one;
//   - order: the rule's clauses first, then the readings, failures of
//     the program, artefacts of the adapter's plumbing; most findings
//     first.
//
// A root cause's ID is its deviation's (or its class's): the same at
// every seed and budget, so that a baseline can keep it.
package explain
