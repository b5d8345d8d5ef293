package diagnose_test

import (
	"context"
	"strings"
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

// TestRefErrorNamesTheForm: an error under `$ref` is titled by how the
// case's references name their targets, when they all do so one way, and
// a cause whose findings show several forms names each; references of
// several forms in one case name none.
func TestRefErrorNamesTheForm(t *testing.T) {
	under := func(schema string) diagnose.Diagnosis {
		return diagnose.ErrorUnder(diagnose.Case{Schema: []byte(schema), Args: []byte(`{}`), Got: impl.Reject(impl.ErrInvalidSchema, "no such reference")}, "$ref")
	}
	const nested = `{"$id":"https://x.test/r.json","properties":{"a":{"$ref":"https://x.test/sub/b.json"}},` +
		`"$defs":{"o":{"$id":"https://x.test/o.json","$defs":{"b":{"$id":"sub/b.json","type":"array"}}}}}`
	tests := []struct {
		name   string
		schema []string
		want   string
	}{
		{"pointer", []string{`{"properties":{"a":{"$ref":"#/$defs/l"}},"$defs":{"l":{"type":"array"}}}`},
			"An error for arguments under a schema whose `$ref` is a JSON Pointer (`#/...`)"},
		{"anchor", []string{`{"properties":{"a":{"$ref":"#l"}},"$defs":{"l":{"$anchor":"l"}}}`},
			"An error for arguments under a schema whose `$ref` is a plain-name anchor (`#name`)"},
		{"absolute id", []string{`{"properties":{"a":{"$ref":"https://x.test/l.json"}},"$defs":{"l":{"$id":"https://x.test/l.json"}}}`},
			"An error for arguments under a schema whose `$ref` is the URI of a resource's `$id`"},
		{"relative id at the top", []string{`{"$id":"https://x.test/r.json","properties":{"a":{"$ref":"l.json"}},"$defs":{"l":{"$id":"l.json"}}}`},
			"An error for arguments under a schema whose `$ref` is the URI of a resource's `$id`"},
		{"nested relative id", []string{nested},
			"An error for arguments under a schema whose `$ref` is the URI of a resource whose `$id` is relative to that of an embedded resource it sits in"},
		{"nested relative id, referred to relatively", []string{strings.Replace(nested, `"https://x.test/sub/b.json"`, `"sub/b.json"`, 1)},
			"An error for arguments under a schema whose `$ref` is the URI of a resource whose `$id` is relative to that of an embedded resource it sits in"},
		{"two forms in one case", []string{`{"properties":{"a":{"$ref":"#/$defs/l"},"b":{"$ref":"#l"}},"$defs":{"l":{"$anchor":"l"}}}`},
			"An error for arguments under a schema with `$ref`"},
		{"two causes' forms", []string{`{"properties":{"a":{"$ref":"#/$defs/l"}},"$defs":{"l":{}}}`, `{"properties":{"a":{"$ref":"#l"}},"$defs":{"l":{"$anchor":"l"}}}`},
			"An error for arguments under a schema whose `$ref` is a JSON Pointer (`#/...`) or a plain-name anchor (`#name`)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ds []diagnose.Diagnosis
			for _, s := range tt.schema {
				ds = append(ds, under(s))
			}
			if got := diagnose.Merge(ds).Title; got != tt.want {
				t.Errorf("title %q, want %q", got, tt.want)
			}
		})
	}
}
