package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/normalize"
)

func TestParseBaseline(t *testing.T) {
	for _, tc := range []struct {
		name, in, err string
	}{
		{"empty", `{"toolnorm_baseline": 1, "root_causes": []}`, ""},
		{"one", `{"toolnorm_baseline": 1, "root_causes": [{"id": "entities-one-pass", "title": "t"}]}`, ""},
		{"not JSON", `[1`, "not a toolnorm baseline: not a JSON object"},
		{"an array", `[]`, "not a toolnorm baseline: not a JSON object"},
		{"a report", `{"format_version": 3}`, `no "toolnorm_baseline" version`},
		{"newer", `{"toolnorm_baseline": 2}`, "version 2 of the baseline format; this toolnorm reads version 1"},
		{"no id", `{"toolnorm_baseline": 1, "root_causes": [{"title": "t"}]}`, "root_causes[0]: no id"},
		{"twice", `{"toolnorm_baseline": 1, "root_causes": [{"id": "a"}, {"id": "a"}]}`, `root_causes[1]: "a" is there twice`},
		{"failure", `{"toolnorm_baseline": 1, "root_causes": [{"id": "failure/timeout"}]}`, "failure of the program"},
		{"unexplained", `{"toolnorm_baseline": 1, "root_causes": [{"id": "unexplained"}]}`, "stopped before explaining"},
		{"wrong type", `{"toolnorm_baseline": 1, "root_causes": {}}`, "not a toolnorm baseline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseBaseline([]byte(tc.in))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("ParseBaseline(%s): %v", tc.in, err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("ParseBaseline(%s) = %v, want an error holding %q", tc.in, err, tc.err)
			case err == nil && b.RootCauses == nil:
				t.Fatalf("ParseBaseline(%s): nil root causes", tc.in)
			}
		})
	}
}

// report is a failing report with root causes of these ids, the
// failures of the program among them counted as such.
func report(ids ...string) *Report {
	r := &Report{Implementation: "x 1.0", Properties: []PropResult{}, Corpus: CorpusResult{Passed: 10}}
	for _, id := range ids {
		rc := RootCause{ID: id, Title: "title of " + id, Clause: "rule/4"}
		if strings.HasPrefix(id, "failure/") {
			rc.Clause = "failure"
			r.Corpus.Errors++
		} else {
			r.Corpus.Failed++
		}
		r.RootCauses = append(r.RootCauses, rc)
	}
	r.Verdict = r.verdict(r.Violations() > 0 || r.Failures() > 0)
	return r
}

func TestCompareWith(t *testing.T) {
	base := BaselineOf(report("b", "a", "failure/crash"))
	if got, want := base.IDs(), []string{"a", "b"}; !slices.Equal(got, want) {
		t.Fatalf("BaselineOf: ids %v, want %v (sorted, no failure of the program)", got, want)
	}
	round, err := ParseBaseline(base.Marshal())
	if err != nil || !slices.Equal(round.IDs(), base.IDs()) || round.RootCauses[0].Title != "title of a" {
		t.Fatalf("ParseBaseline(Marshal()) = %+v, %v; want %+v", round, err, base)
	}
	for _, tc := range []struct {
		name              string
		found             []string
		verdict           Verdict
		known, new, fixed []string
	}{
		{"all known", []string{"a", "b"}, Pass, []string{"a", "b"}, []string{}, nil},
		{"one fixed", []string{"b"}, Pass, []string{"b"}, []string{}, []string{"a"}},
		{"a new one beside", []string{"c", "a"}, Fail, []string{"a"}, []string{"c"}, []string{"b"}},
		{"a failure of the program", []string{"a", "failure/crash"}, Fail, []string{"a"}, []string{"failure/crash"}, []string{"b"}},
		{"nothing", nil, Pass, []string{}, []string{}, []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := report(tc.found...)
			before := r.Verdict
			r.CompareWith(base)
			var fixed []string
			for _, k := range r.Baseline.Fixed {
				fixed = append(fixed, k.ID)
			}
			if r.Verdict != tc.verdict || !slices.Equal(r.Baseline.Known, tc.known) || !slices.Equal(r.Baseline.New, tc.new) || !slices.Equal(fixed, tc.fixed) {
				t.Errorf("CompareWith: verdict %s, known %v, new %v, fixed %v; want %s, %v, %v, %v", r.Verdict, r.Baseline.Known, r.Baseline.New, fixed, tc.verdict, tc.known, tc.new, tc.fixed)
			}
			if r.Baseline.Without != before {
				t.Errorf("CompareWith: verdict without the baseline %s, want %s", r.Baseline.Without, before)
			}
			for _, rc := range r.RootCauses {
				want := BaselineNew
				if slices.Contains(tc.known, rc.ID) {
					want = BaselineKnown
				}
				if rc.Baseline != want {
					t.Errorf("root cause %s marked %q, want %q", rc.ID, rc.Baseline, want)
				}
			}
			r.CompareWith(&Baseline{Version: BaselineVersion})
			if r.Baseline.Without != before {
				t.Errorf("CompareWith twice: verdict without the baseline %s, want %s", r.Baseline.Without, before)
			}
		})
	}
}

func TestBaselineNotImplemented(t *testing.T) {
	r := report("a")
	r.NotImplemented, r.NotImplementedID = normalize.JSONRepair.Missing(), NotImplementedID(normalize.JSONRepair)
	if got := BaselineOf(r).IDs(); !slices.Equal(got, []string{"a", "not-implemented/entities"}) {
		t.Fatalf("BaselineOf: %v, want the repair not implemented too", got)
	}
	r.CompareWith(&Baseline{Version: BaselineVersion, RootCauses: []Known{{ID: "a"}}})
	if r.Verdict != Fail || !slices.Equal(r.Baseline.New, []string{"not-implemented/entities"}) {
		t.Fatalf("a repair not implemented, not in the baseline: verdict %s, new %v; want fail, it new", r.Verdict, r.Baseline.New)
	}
	r.CompareWith(BaselineOf(r))
	if r.Verdict != Pass {
		t.Fatalf("a repair not implemented, in the baseline: verdict %s, want pass", r.Verdict)
	}
}
