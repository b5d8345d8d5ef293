package check

import (
	"sync"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/schemagen"
)

// Searched says what a check searched (issue 36): of the cases the
// properties and fuzzing ran, how many exercised each feature of the
// schema vocabulary (a type form, a validation keyword, an applicator, a
// kind of reference, a draft), of the arguments (a key languages treat
// specially), and each pair that matters (a keyword beside a type form, a
// keyword under an applicator), as internal/schemagen reads them.
type Searched struct {
	Cases int `json:"cases"` // cases counted: the properties' and fuzzing's, as run
	// Features are every single feature, and every pair some case
	// exercised, in the catalogue's order.
	Features []FeatureCount `json:"features"`
	// NotExercised are the single features no case exercised, as
	// "group feature".
	NotExercised []string `json:"not_exercised,omitempty"`
}

// A FeatureCount is how many cases exercised a feature.
type FeatureCount struct {
	Group   string `json:"group"`   // "type form", "validation", "applicator", "reference", "draft", "key", "arguments", "beside", "under"
	Feature string `json:"feature"` // "maxLength", "type-list-string-container", "items under $ref"
	Cases   int    `json:"cases"`
}

// searchedOf is the report's Searched of counts.
func searchedOf(c schemagen.Counts) *Searched {
	cov := &Searched{Cases: c.Cases, Features: []FeatureCount{}}
	for _, f := range schemagen.All() {
		if f.Group() == schemagen.GroupArguments {
			continue // said of a case as drawn, not read from its text
		}
		n := c.Of(f)
		if f.Pair() && n == 0 {
			continue
		}
		cov.Features = append(cov.Features, FeatureCount{Group: string(f.Group()), Feature: f.Name(), Cases: n})
		if n == 0 {
			cov.NotExercised = append(cov.NotExercised, f.String())
		}
	}
	return cov
}

// A counter counts the features of the cases run; safe for concurrent
// use. The features of a case are read from its texts each time
// (schemagen.AnalyzeText reads them in place, for less than a cache of
// them cost).
type counter struct {
	mu     sync.Mutex
	counts schemagen.Counts
}

// count counts case c as run.
func (k *counter) count(c impl.Case) {
	s := schemagen.AnalyzeText(c.Schema, c.Args)
	k.mu.Lock()
	defer k.mu.Unlock()
	k.counts.Count(s)
}

// add adds the counts of another counter.
func (k *counter) add(o *counter) {
	o.mu.Lock()
	d := o.counts
	o.mu.Unlock()
	k.mu.Lock()
	k.counts.Add(d)
	k.mu.Unlock()
}
