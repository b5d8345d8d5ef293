package check

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// TestSearched: the report counts, per feature of the schema vocabulary,
// the properties' and fuzzing's cases that exercised it (issue 36): as
// many cases as they ran, the same counts at every Jobs, every single
// feature of the issue exercised at --checks 256 with no corpus, and
// the JSON report carries it.
func TestSearched(t *testing.T) {
	run := func(jobs int) *Report {
		return runChecked(t, context.Background(), Config{Impl: impl.Reference, Checks: 256, Seed: 1, Jobs: jobs})
	}
	r := run(1)
	s := r.Searched
	if s == nil {
		t.Fatal("no searched in the report")
	}
	ran := r.Fuzz.Cases
	for _, p := range r.Properties {
		ran += p.Cases
	}
	if s.Cases != ran {
		t.Errorf("searched counts %d cases, the properties and fuzzing ran %d", s.Cases, ran)
	}
	if len(s.NotExercised) > 0 {
		t.Errorf("not exercised at --checks 256: %q", s.NotExercised)
	}
	counts := map[string]int{}
	for _, f := range s.Features {
		counts[f.Group+" "+f.Feature] = f.Cases
	}
	for _, name := range []string{"beside maxLength beside type-list-string-container", "under items under $ref", "key __proto__"} {
		if counts[name] == 0 {
			t.Errorf("%s: no case", name)
		}
	}
	a, _ := json.Marshal(s)
	b, _ := json.Marshal(run(2).Searched)
	if string(a) != string(b) {
		t.Errorf("Jobs 1 and 2 count differently:\n%.500s\n%.500s", a, b)
	}
	data, _ := json.Marshal(r)
	var back struct {
		Searched *Searched `json:"searched"`
	}
	if err := json.Unmarshal(data, &back); err != nil || back.Searched == nil || back.Searched.Cases != s.Cases {
		t.Errorf("the JSON report does not carry searched: %v", err)
	}
}
