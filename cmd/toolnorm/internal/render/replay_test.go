package render

import (
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
)

// TestReplayFailures: corpus replay shows each failed vector with its
// input, what it expects and what came, aligned as the text report aligns
// a finding's case, and a file name or description from someone else's
// corpus as display shows text.
func TestReplayFailures(t *testing.T) {
	c := check.CorpusResult{
		Failures: []check.VectorFailure{{File: "vectors/rule/a.json", ID: "0000000000000001", Description: "A wrong\nexpectation",
			Schema: `{}`, Arguments: `{"q":"&amp;"}`, Options: "profile attribute", Want: `{"q":"&amp;"}`, Got: `{"q":"&"}`}},
		ErrorList: []check.VectorFailure{{ID: "0000000000000002", Description: "Crashes it",
			Schema: `{}`, Arguments: `{}`, Want: `{}`, Got: "crash (exit status 2)"}},
	}
	want := `FAIL 0000000000000001 vectors/rule/a.json: A wrong\nexpectation
  schema:    {}
  arguments: {"q":"&amp;"}
  options:   profile attribute
  want:      {"q":"&amp;"}
  got:       {"q":"&"}
ERROR 0000000000000002: Crashes it: the implementation failed (a failure of the program, not judged)
  schema:    {}
  arguments: {}
  want:      {}
  got:       crash (exit status 2)
`
	var b strings.Builder
	ReplayFailures(&b, c)
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
