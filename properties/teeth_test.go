package properties

import (
	"context"
	"flag"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/properties/internal/mutants"
)

var teethChecks = flag.Int("teeth.checks", 100, "checks per property and broken normalizer in TestTeeth (100: rapid's default)")

// TestTeeth runs the whole property suite on each deliberately broken
// normalizer: every one must be caught within the default budget, with a
// minimal counterexample; the reference must be caught by none. It logs
// which properties caught each and how many checks that took.
func TestTeeth(t *testing.T) {
	for _, p := range All() {
		if v, _ := p.Run(context.Background(), impl.Reference, RunOptions{Checks: *teethChecks, Seed: 1}); v != nil {
			t.Errorf("the reference breaks %s: %s", p.ID, v.Message)
		}
	}
	for _, m := range mutants.All() {
		start := time.Now()
		var caught []string
		first := -1
		for _, p := range All() {
			v, _ := p.Run(context.Background(), m.Impl, RunOptions{Checks: *teethChecks, Seed: 1})
			if v == nil {
				continue
			}
			caught = append(caught, p.ID)
			if first < 0 || v.Checks < first {
				first = v.Checks
			}
			if v.Vector == nil {
				t.Errorf("%s breaks %s without a counterexample: %s", m.Name, p.ID, v.Message)
			} else if len(v.Vector.ArgumentsText()) > 400 {
				t.Errorf("%s breaks %s, but the counterexample is not small: %s", m.Name, p.ID, v.Vector.ArgumentsText())
			}
		}
		sort.Strings(caught)
		if len(caught) == 0 {
			t.Errorf("%s (%s) is caught by no property", m.Name, m.Bug)
			continue
		}
		t.Logf("%-28s caught after %3d checks by %d properties in %v: %s", m.Name, first, len(caught), time.Since(start).Round(time.Millisecond), strings.Join(caught, ", "))
	}
}
