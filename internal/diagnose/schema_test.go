package diagnose_test

import (
	"slices"
	"testing"

	"github.com/toolnorm/toolnorm/internal/diagnose"
)

// TestWithoutAt: the keywords are taken out of the subschemas that apply
// at the place (through references and combinators too), not of those on
// the way to it, and named in the order asked.
func TestWithoutAt(t *testing.T) {
	kws := []string{"items", "properties"}
	for _, tt := range []struct {
		schema, args, where, want string
		taken                     []string
	}{
		{`{"properties":{"p":{"description":"a list","items":{}}}}`, `{"p":"[1]"}`, "/p", `{"properties":{"p":{"description":"a list"}}}`, []string{"items"}},
		{`{"properties":{"p":{"properties":{},"allOf":[{"items":{}}]}}}`, `{"p":"[1]"}`, "/p", `{"properties":{"p":{"allOf":[{}]}}}`, []string{"items", "properties"}},
		{`{"$defs":{"l":{"items":{}}},"properties":{"p":{"$ref":"#/$defs/l"}}}`, `{"p":"[]"}`, "/p", `{"$defs":{"l":{}},"properties":{"p":{"$ref":"#/$defs/l"}}}`, []string{"items"}},
		// On the way only: the root's properties stay.
		{`{"properties":{}}`, `{"q":"0"}`, "/q", `{"properties":{}}`, nil},
		{`{"properties":{"p":{"items":{}}}}`, `{"p":"[1]"}`, "/x", `{"properties":{"p":{"items":{}}}}`, nil},
		{`{`, `{"p":"[1]"}`, "/p", `{`, nil},
	} {
		got, taken := diagnose.WithoutAt([]byte(tt.schema), []byte(tt.args), tt.where, kws)
		if string(got) != tt.want || !slices.Equal(taken, tt.taken) {
			t.Errorf("WithoutAt(%s, %s, %q) = %s, %q; want %s, %q", tt.schema, tt.args, tt.where, got, taken, tt.want, tt.taken)
		}
	}
}
