package check_test

import (
	"testing"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/check/internal/deviation"
)

// TestFuzzFindsIssue36 plants each bug of issue 36 alone in the reference
// (a deviation of the catalogue) and fuzzes it with no corpus: the schema
// search must find each at five seeds of five, within a few thousand
// cases (a fraction of what toolnorm fuzz runs in 60 s).
func TestFuzzFindsIssue36(t *testing.T) {
	for _, id := range []string{
		"json-string-admitted-invalid", // a string decoded where string is admitted beside a container and breaks maxLength
		"ref-items-dropped",            // items ignored behind $ref
		"proto-dropped-on-repair",      // a member named __proto__ lost whenever anything is repaired
	} {
		t.Run(id, func(t *testing.T) {
			d := deviation.ByID(id)
			if d == nil {
				t.Fatalf("no deviation %s", id)
			}
			for seed := range uint64(5) {
				f := &check.Fuzzer{Impl: d.Impl()}
				fuzz(t, f, seed+1, casesFor36)
				if len(f.Findings) == 0 {
					t.Errorf("seed %d: not found in %d cases", seed+1, f.Cases)
				} else {
					t.Logf("seed %d: %d findings in %d cases; the first: %s", seed+1, len(f.Findings), f.Cases, f.Findings[0].Bucket)
				}
			}
		})
	}
}

// casesFor36 is how many cases each run of TestFuzzFindsIssue36 fuzzes.
const casesFor36 = 1024
