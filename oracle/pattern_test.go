package oracle

import (
	"fmt"
	"strings"
	"testing"
)

// TestPatternBudget: the hostile keys spend the call's step
// budget, and the call ends in the same error on every run and machine
// (a count, not a clock), naming the pattern and the key; a harmless
// backtracking pattern still matches.
func TestPatternBudget(t *testing.T) {
	schema := []byte(`{"type":"object","patternProperties":{"^(?=a)(a+)+$":{"type":"array"}}}`)
	var members []string
	for i := range 40 {
		members = append(members, fmt.Sprintf(`"%s%d!":"[1]"`, strings.Repeat("a", 23), i))
	}
	args := []byte("{" + strings.Join(members, ",") + "}")
	var first string
	for range 2 {
		out, err := Normalize(schema, args, Options{})
		if err == nil {
			t.Fatalf("Normalize = %s, want the budget spent", out)
		}
		if !strings.Contains(err.Error(), `the pattern "^(?=a)(a+)+$" on the key "aaaaaaaaaaaaaaaaaaaaaaa`) ||
			!strings.Contains(err.Error(), "the call's 10000000 backtracking steps are spent") {
			t.Errorf("error %q does not name the pattern, the key and the budget", err)
		}
		if first != "" && err.Error() != first {
			t.Errorf("error %q, then %q", first, err)
		}
		first = err.Error()
	}
	out, err := Normalize(schema, []byte(`{"aaa":"[1]","aab":"[1]"}`), Options{})
	if err != nil {
		t.Fatalf("Normalize: %v", err)
	}
	if eq, err := Equal(out, []byte(`{"aaa":[1],"aab":"[1]"}`)); !eq || err != nil {
		t.Errorf("Normalize = %s (%v)", out, err)
	}
}
