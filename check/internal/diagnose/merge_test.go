package diagnose_test

import (
	"context"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/diagnose"
	"github.com/toolnorm/toolnorm/impl"
)

// TestMergeNamesEveryFinding: the findings of one class that differ in a
// detail get one title that names each detail, whichever came first. A
// root cause titled by its first finding alone told a validator that
// takes `{"$defs":[]}` as a schema that it answers "arguments not an
// object".
func TestMergeNamesEveryFinding(t *testing.T) {
	ctx := context.Background()
	classify := func(schema, args, got string) diagnose.Diagnosis {
		c := impl.Case{Schema: []byte(schema), Args: []byte(args)}
		return diagnose.Classify(diagnose.Case{Schema: c.Schema, Args: c.Args, Want: impl.Reference.Normalize(ctx, c), Got: impl.OK([]byte(got))})
	}
	tests := []struct {
		name string
		ds   []diagnose.Diagnosis
		want string
	}{
		{"no-error", []diagnose.Diagnosis{classify(`{}`, `[1]`, `[1]`), classify(`{"$defs":[]}`, `{}`, `{}`), classify(`{}`, `null`, `{}`)},
			"Input the rule rejects (arguments not an object, a broken schema) is answered instead of rejected"},
		{"coerced", []diagnose.Diagnosis{classify(`{"properties":{"a":{"type":"string"}}}`, `{"a":1}`, `{"a":"1"}`),
			classify(`{"properties":{"a":{"type":"string"}}}`, `{"a":true}`, `{"a":"true"}`)},
			"A value of another type is converted to the type the schema declares (boolean to string, number to string)"},
		{"one", []diagnose.Diagnosis{classify(`{}`, `[1]`, `[1]`)},
			"Input the rule rejects (arguments not an object) is answered instead of rejected"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, d := range tt.ds[1:] {
				if d.Class != tt.ds[0].Class {
					t.Fatalf("the findings are of classes %s and %s", tt.ds[0].Class, d.Class)
				}
			}
			if got := diagnose.Merge(tt.ds); got.Title != tt.want {
				t.Errorf("Merge = %q, want %q", got.Title, tt.want)
			}
			rev := append([]diagnose.Diagnosis(nil), tt.ds...)
			for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
				rev[i], rev[j] = rev[j], rev[i]
			}
			if got := diagnose.Merge(rev); got.Title != tt.want {
				t.Errorf("Merge, the other way round, = %q, want %q", got.Title, tt.want)
			}
		})
	}
}
