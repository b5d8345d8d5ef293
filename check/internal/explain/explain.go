package explain

import (
	"context"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/impl"
)

// The sources of a finding.
const (
	Vector   = "vector"   // a vector of the corpus
	Property = "property" // a property's counterexample
	Bucket   = "bucket"   // a fuzzing bucket's counterexample
	// Failed is a case of a property or of fuzzing the program failed on
	// (a crash, a timeout, a broken answer): not a violation, and not run
	// again, but a case that shows the failure. Its ID is the property's,
	// or "fuzzing".
	Failed = "failed"
)

// A Finding is one thing a check found.
type Finding struct {
	Source string // Vector, Property, Bucket or Failed
	ID     string // the vector's file (or id), the property's id, the bucket
	Case   impl.Case
	// Want is what the case expects (the vector's expected result);
	// Got is what the implementation gave.
	Want, Got impl.Result
	// Statement is a property's, for a violation that shows no
	// difference with the reference on its case (a second run that
	// differs, for one).
	Statement string
	Clause    string
}

// A RootCause is one bug: the findings one behaviour explains.
type RootCause struct {
	// ID is stable: the deviation that explains the findings ("a+b" for
	// two together), or, for findings no deviation explains, the class
	// of what differs. The same bug has the same ID at every seed.
	ID string
	diagnose.Diagnosis
	// Deviations are the ids of the deviations that explain it (none for
	// a class of the fallback); With, the deviation some of its findings
	// show it together with, when a second bug is needed to explain them.
	Deviations []string
	With       []string
	// Case is the smallest counterexample, minimized; Want and Got what
	// is expected on it and what came.
	Case      impl.Case
	Want, Got impl.Result
	// Vectors, Properties and Buckets are the findings it accounts for;
	// Failed, the cases of properties and fuzzing the program failed on
	// (the property's id, or "fuzzing", once for each).
	Vectors, Properties, Buckets, Failed []string
	// Cut is true when a budget stopped minimizing its counterexample.
	Cut bool
}

// Count is how many findings show the root cause.
func (r RootCause) Count() int {
	return len(r.Vectors) + len(r.Properties) + len(r.Buckets) + len(r.Failed)
}

// Config says how to explain findings.
type Config struct {
	Impl impl.Impl
	// Want is the expected result of a case (the reference's, with the
	// documents and options the check uses).
	Want func(impl.Case) impl.Result
	// Keep, when not nil, says whether minimizing may go on (the check's
	// time is not up).
	Keep func() bool
}

// explainCases gives the findings that have none their candidates: single
// deviations, confirmed by experiments; then, for those left without one,
// pairs, confirmed likewise.
func (s *session) explainCases(fs []*finding) {
	s.candidates(fs, false)
	s.experiments(fs)
	s.candidates(fs, true)
	s.experiments(fs)
}

// Explain groups findings into root causes, most important first (see
// the package comment for the steps). When cfg.Impl is an impl.Batcher,
// the cases the steps send go out as batches; which cases, and the root
// causes, depend only on the findings and the answers, never on how the
// work is scheduled.
func Explain(ctx context.Context, cfg Config, findings []Finding) []RootCause {
	s := newSession(ctx, cfg)
	defer s.close()
	fs := s.collect(findings)
	s.explainCases(fs)
	s.reduce(fs)
	causes := cover(fs)
	causes = append(causes, s.fallback(fs)...)
	s.shrink(causes)
	s.distinct(causes)
	s.contexts(causes)
	s.ignored(causes)
	causes = mergeClasses(causes)
	return order(s.rootCauses(causes))
}
