package main

import (
	"slices"
	"strings"
	"testing"
)

var testSwitches = []Switch{
	{ID: "a-one", Lang: "python", Deviations: []string{"dev-a"}, Group: "json"},
	{ID: "a-two", Lang: "python", Deviations: []string{"dev-b"}, Group: "json"},
	{ID: "a-three", Lang: "python", Deviations: []string{"dev-c", "dev-d"}, Group: "entities", Excludes: []string{"schema"}},
	{ID: "a-four", Lang: "python", Deviations: []string{"dev-e"}, Group: "schema"},
	{ID: "a-five", Lang: "python", Deviations: []string{"dev-f"}, Group: "output"},
	{ID: "b-one", Lang: "javascript", Deviations: []string{"dev-a"}, Group: "json"},
	{ID: "b-two", Lang: "javascript", Deviations: []string{"dev-g"}, Group: "output"},
}

func TestRealSwitchesLoad(t *testing.T) {
	sw, err := loadSwitches("../switches.json")
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]int{}
	ids := map[string]bool{}
	for _, s := range sw {
		langs[s.Lang]++
		ids[s.ID] = true
	}
	for lang, n := range langs {
		if n < 25 {
			t.Errorf("%s has %d switches, fewer than 25", lang, n)
		}
	}
	for _, s := range sw {
		for _, x := range s.Excludes {
			if strings.Contains(x, "-") && !ids[x] {
				t.Errorf("%s excludes %s, which is no switch", s.ID, x)
			}
		}
	}
}

func TestDrawIsSeededAndKeepsExclusions(t *testing.T) {
	a, b := draw(testSwitches, 60, 7, 5), draw(testSwitches, 60, 7, 5)
	if formatPlan(a) != formatPlan(b) {
		t.Fatal("the same seed drew two plans")
	}
	if formatPlan(a) == formatPlan(draw(testSwitches, 60, 8, 5)) {
		t.Fatal("two seeds drew the same plan")
	}
	byID := map[string]Switch{}
	for _, s := range testSwitches {
		byID[s.ID] = s
	}
	combos := map[int][]Run{}
	for _, r := range a {
		combos[r.Combo] = append(combos[r.Combo], r)
		if len(r.Switches) < 1 || len(r.Switches) > 3 {
			t.Errorf("%s: %d switches", r.Name(), len(r.Switches))
		}
		for i, x := range r.Switches {
			if byID[x].Lang != r.Lang {
				t.Errorf("%s: %s is not of %s", r.Name(), x, r.Lang)
			}
			for _, y := range r.Switches[i+1:] {
				if excludes(byID[x], byID[y]) {
					t.Errorf("%s: %s and %s drawn together", r.Name(), x, y)
				}
			}
		}
	}
	if len(combos) != 60 {
		t.Fatalf("%d combinations, want 60", len(combos))
	}
	for c, runs := range combos {
		want := 1
		if len(runs[0].Switches) == 1 {
			want = 5
		}
		if len(runs) != want {
			t.Errorf("combination %d: %d runs, want %d", c, len(runs), want)
		}
	}
	back, err := parsePlan(formatPlan(a))
	if err != nil || formatPlan(back) != formatPlan(a) {
		t.Fatalf("the plan does not read back: %v", err)
	}
}

func TestScore(t *testing.T) {
	runs := []Run{
		{Combo: 0, Lang: "python", Seed: 1, Switches: []string{"a-one", "a-three"}},
		{Combo: 1, Lang: "python", Seed: 2, Switches: []string{"a-four"}},
		{Combo: 1, Lang: "python", Seed: 3, Switches: []string{"a-four"}},
		{Combo: 2, Lang: "python", Seed: 4, Switches: []string{"a-five"}},
		{Combo: 2, Lang: "python", Seed: 5, Switches: []string{"a-five"}},
		{Combo: 3, Lang: "javascript", Seed: 6, Switches: []string{"b-one"}},
	}
	reports := map[string][]cause{
		// a-one found twice (a duplicate), a-three found by its second deviation, one cause naming nothing.
		runs[0].Name(): {{Key: "dev-a", Title: "x"}, {Key: "dev-a", Title: "y"}, {Key: "dev-d", Title: "z"}, {Key: "undecoded/x", Title: "w"}},
		runs[1].Name(): {{Key: "dev-e", Title: "t"}},
		runs[2].Name(): {{Key: "dev-e", Title: "t"}},
		runs[3].Name(): {{Key: "member-dropped", Title: "u"}},
		runs[4].Name(): {{Key: "member-dropped", Title: "v"}},
		// runs[5] has no report: a failed run.
	}
	sc := scoreRuns(testSwitches, runs, reports)
	if sc.Instances != 6 || sc.Found != 4 {
		t.Errorf("recall %d of %d, want 4 of 6 (b-one failed, a-five never named)", sc.Found, sc.Instances)
	}
	if sc.Causes != 8 || sc.Precise != 5 || sc.Unmatched != 3 || sc.Duplicates != 1 || sc.Excess != 2 {
		t.Errorf("causes %d precise %d unmatched %d duplicates %d excess %d, want 8 5 3 1 2", sc.Causes, sc.Precise, sc.Unmatched, sc.Duplicates, sc.Excess)
	}
	if sc.Stable != 1 || sc.Unstable != 1 {
		t.Errorf("stable %d unstable %d, want 1 and 1 (a-four the same titles, a-five not)", sc.Stable, sc.Unstable)
	}
	if !slices.Equal(sc.Failed, []string{runs[5].Name()}) {
		t.Errorf("failed runs %v", sc.Failed)
	}
	md := sc.markdown(testSwitches)
	for _, want := range []string{"| `a-four` | dev-e | 2 | 100% | 2 | 2 | 100% | yes (2 seeds) | `dev-e` |", "- recall: 67% (4 of 6", "- duplicates: 0.17 per switch"} {
		if !strings.Contains(md, want) {
			t.Errorf("the table lacks %q:\n%s", want, md)
		}
	}
}

func TestReadReportPrefersTheID(t *testing.T) {
	causes, err := readReport([]byte(`{"verdict":"fail","root_causes":[{"title":"t","class":"no-fixpoint","id":"entities-one-pass"},{"title":"u","class":"text-trimmed"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if causes[0].Key != "entities-one-pass" || causes[1].Key != "text-trimmed" {
		t.Errorf("keys %v", causes)
	}
	if _, err := readReport([]byte(`{"root_causes":[]}`)); err == nil {
		t.Error("a document without a verdict read as a report")
	}
}

func TestSingles(t *testing.T) {
	runs := singles(testSwitches, 3, 2)
	if len(runs) != 2*len(testSwitches) {
		t.Fatalf("%d runs, want %d", len(runs), 2*len(testSwitches))
	}
	for i, r := range runs {
		s := testSwitches[i/2]
		if len(r.Switches) != 1 || r.Switches[0] != s.ID || r.Lang != s.Lang || r.Seed != uint64(3+i%2) {
			t.Errorf("run %d: %+v", i, r)
		}
	}
}
