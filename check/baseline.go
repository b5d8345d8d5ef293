package check

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolnorm/toolnorm/normalize"
)

// A Baseline is the root causes of an implementation that a team knows
// of and has not fixed yet: a check against it (Config.Baseline) fails
// only on a root cause not in it, so that a check can guard a project
// from its first pull request while the known bugs are fixed one by one.
//
// Root causes are matched by id alone (RootCause.ID): the deviation of
// the catalogue that explains the findings, the same at every seed and
// budget ("entities-one-pass"; two joined by "+"), or, for findings no
// deviation explains, the class of what differs ("misdecoded",
// "property/leaves-are-fixpoints"). A repair the implementation declares
// it does not do is the id NotImplementedID gives
// ("not-implemented/entities"). Failures of the program ("failure/...")
// and findings the check stopped before explaining ("unexplained") are
// never in a baseline: a check always fails on them.
//
// Its JSON form is what ParseBaseline reads and Marshal writes: a version,
// the implementation it was written for (for the reader), and the root
// causes, each with the title it had (for the reader too), sorted by id so
// that a change to it reads as a small diff.
type Baseline struct {
	Version        int    `json:"toolnorm_baseline"`
	Implementation string `json:"implementation,omitempty"`
	// RootCauses are the known root causes, one per id.
	RootCauses []Known `json:"root_causes"`
	// File is where it was read from, for the report ("" when not read
	// from a file).
	File string `json:"-"`
}

// Known is one root cause of a baseline.
type Known struct {
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
}

// BaselineVersion is the version of the baseline's JSON form.
const BaselineVersion = 1

// The marks of a root cause checked against a baseline (RootCause.Baseline).
const (
	BaselineNew   = "new"   // not in the baseline: the check fails on it
	BaselineKnown = "known" // in the baseline
)

// unexplainedID is the id of a finding the check stopped before
// explaining (rootcauses.go).
const unexplainedID = "unexplained"

// NotImplementedID is the id a baseline holds for the repair an
// implementation that does only repairs declares it does not do
// ("not-implemented/entities", "not-implemented/json"), or "" for both
// repairs.
func NotImplementedID(repairs normalize.Repairs) string {
	switch repairs {
	case normalize.JSONRepair:
		return "not-implemented/entities"
	case normalize.EntityRepair:
		return "not-implemented/json"
	}
	return ""
}

// Baselinable reports whether a baseline can hold the root cause id: not
// a failure of the program, nor a finding left unexplained.
func Baselinable(id string) bool {
	return id != "" && id != unexplainedID && !strings.HasPrefix(id, "failure/")
}

// BaselineOf is the baseline of what r found: each of its root causes a
// baseline can hold, and the repair it does not do, if any.
func BaselineOf(r *Report) *Baseline {
	name := r.Implementation
	if r.Info != nil && r.Info.Name != "" {
		name = r.Info.Name // without its version: a new release does not change the file
	}
	b := &Baseline{Version: BaselineVersion, Implementation: name, RootCauses: []Known{}}
	add := func(id, title string) {
		if Baselinable(id) && !b.Has(id) {
			b.RootCauses = append(b.RootCauses, Known{ID: id, Title: title})
		}
	}
	for _, rc := range r.RootCauses {
		add(rc.ID, rc.Title)
	}
	add(r.NotImplementedID, r.NotImplemented+" is not implemented, as declared")
	slices.SortFunc(b.RootCauses, func(x, y Known) int { return cmp.Compare(x.ID, y.ID) })
	return b
}

// Has reports whether the baseline holds the root cause id.
func (b *Baseline) Has(id string) bool {
	return slices.ContainsFunc(b.RootCauses, func(k Known) bool { return k.ID == id })
}

// IDs are the ids of the baseline's root causes, in its order.
func (b *Baseline) IDs() []string {
	ids := make([]string, len(b.RootCauses))
	for i, k := range b.RootCauses {
		ids[i] = k.ID
	}
	return ids
}

// Marshal is the baseline's JSON form, indented, ending in a newline.
func (b *Baseline) Marshal() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(b) // strings and ints only: it cannot fail
	return buf.Bytes()
}

// ParseBaseline reads a baseline as Marshal writes it. It is an error for
// data not to be a JSON object with the version this toolnorm reads, or
// for a root cause to have no id, to be there twice, or to be one a
// baseline never holds (Baselinable).
func ParseBaseline(data []byte) (*Baseline, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil || fields == nil {
		return nil, errors.New("not a toolnorm baseline: not a JSON object")
	}
	if _, ok := fields["toolnorm_baseline"]; !ok {
		return nil, errors.New(`not a toolnorm baseline: no "toolnorm_baseline" version (write one with toolnorm check --write-baseline FILE)`)
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("not a toolnorm baseline: %v", err)
	}
	if b.Version != BaselineVersion {
		return nil, fmt.Errorf("version %d of the baseline format; this toolnorm reads version %d", b.Version, BaselineVersion)
	}
	seen := map[string]bool{}
	for i, k := range b.RootCauses {
		switch {
		case k.ID == "":
			return nil, fmt.Errorf("root_causes[%d]: no id", i)
		case k.ID == unexplainedID:
			return nil, fmt.Errorf("root_causes[%d]: %q is findings the check stopped before explaining, which a baseline never holds", i, k.ID)
		case !Baselinable(k.ID):
			return nil, fmt.Errorf("root_causes[%d]: %q is a failure of the program, which a baseline never holds", i, k.ID)
		case seen[k.ID]:
			return nil, fmt.Errorf("root_causes[%d]: %q is there twice", i, k.ID)
		}
		seen[k.ID] = true
	}
	if b.RootCauses == nil {
		b.RootCauses = []Known{}
	}
	return &b, nil
}

// BaselineResult is how a check compares with its baseline.
type BaselineResult struct {
	File string `json:"file,omitempty"` // where the baseline was read from
	// Known and New are the ids of the root causes found, in the
	// report's order, the repair not implemented last: those in the
	// baseline, and those not in it (the check fails on these).
	Known []string `json:"known"`
	New   []string `json:"new"`
	// Fixed are the baseline's root causes this check did not find: fixed,
	// or not met this time (a root cause fuzzing alone found may need
	// another seed).
	Fixed []Known `json:"fixed"`
	// Without is the verdict the check would have without the baseline.
	Without Verdict `json:"verdict_without_baseline"`
}

// CompareWith checks the report against b: it marks each root cause new
// or known (RootCause.Baseline), says how the report compares with b
// (Report.Baseline), and judges it again, failing only on root causes
// not in b and on failures of the program. A report compared before is
// compared again from its verdict without a baseline.
func (r *Report) CompareWith(b *Baseline) {
	without := r.Verdict
	if r.Baseline != nil {
		without = r.Baseline.Without
	}
	r.compare(b)
	r.Baseline.Without = without
	if without == Fail {
		// What is found is judged again; an incomplete or unjudged check
		// is no better for a baseline.
		r.Verdict = r.verdict(len(r.Baseline.New) > 0 || r.Failures() > 0 || r.Violations() > 0 && len(r.Baseline.Known) == 0)
	}
}

// compare marks each of r's root causes known or new against b, and
// says so in r.Baseline.
func (r *Report) compare(b *Baseline) {
	res := &BaselineResult{File: b.File, Known: []string{}, New: []string{}, Fixed: []Known{}}
	found := map[string]bool{}
	mark := func(id string) string {
		found[id] = true
		if Baselinable(id) && b.Has(id) {
			res.Known = append(res.Known, id)
			return BaselineKnown
		}
		res.New = append(res.New, id)
		return BaselineNew
	}
	for i := range r.RootCauses {
		r.RootCauses[i].Baseline = mark(r.RootCauses[i].ID)
	}
	if r.NotImplementedID != "" {
		mark(r.NotImplementedID)
	}
	for _, k := range b.RootCauses {
		if !found[k.ID] {
			res.Fixed = append(res.Fixed, k)
		}
	}
	r.Baseline = res
}
