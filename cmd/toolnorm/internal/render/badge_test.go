package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
)

func TestBadges(t *testing.T) {
	half := python()
	half.NotImplemented = "the entity repair (rule/4)"
	half.Info = nil
	half.Implementation = "@cline/shared normalizeJsonLikeStringsForSchema 0.0.86 (TypeScript)"
	bs := Badges([]*check.Report{reference(), python(), half, reference(), reference()})
	want := []struct{ slug, message, color string }{
		{"toolnorm-reference", "pass", "brightgreen"},
		{"pyjson", "fail · 1/3 properties broken · 62.5% of vectors", "red"},
		{"cline-shared-normalizejsonlikestringsforschema-0-0-86-typescript", "fail · 1/3 properties broken · 62.5% of vectors · no entity repair", "red"},
		{"toolnorm-reference-2", "pass", "brightgreen"},
		{"toolnorm-reference-3", "pass", "brightgreen"},
	}
	for i, w := range want {
		b := bs[i]
		if b.Slug != w.slug || b.Message != w.message || b.Color != w.color || b.Label != "RT-TOOL-8" || b.SchemaVersion != 1 {
			t.Errorf("badge %d = %+v, want %+v", i, b, w)
		}
	}
	// The endpoint format shields.io reads.
	var m map[string]any
	if err := json.Unmarshal(bs[1].JSON(), &m); err != nil || m["schemaVersion"] != 1.0 || m["message"] == nil || len(m) != 4 {
		t.Errorf("badge JSON %s", bs[1].JSON())
	}
}

func TestBadgeRoundsDown(t *testing.T) {
	r := python()
	r.Corpus.Passed, r.Corpus.Failed = 5004, 1
	if m := Badges([]*check.Report{r})[0].Message; !strings.Contains(m, "99.9% of vectors") {
		t.Errorf("message %q", m)
	}
}
