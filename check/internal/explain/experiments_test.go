package explain

import (
	"context"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
)

// TestExcusedOnlyByShown: a witness on which the implementation does not
// answer as a deviation does is excused only by another deviation the
// implementation shows on the example of its title. An implementation
// that does not follow `$ref` and reads everything else decodes `"[1]"`
// under `anyOf`, which "only a plain `type` is read" says stays a string;
// that deviation was confirmed all the same, excused by the schema-blind
// decoding that would decode it anyway, which the implementation does
// not do (it decodes no string where nothing is declared).
func TestExcusedOnlyByShown(t *testing.T) {
	refBlind := deviation.ByID("ignores-ref")
	im := impl.Func("ref-blind", func(ctx context.Context, c impl.Case) impl.Result { return deviation.Apply(ctx, c, refBlind) })
	s := newSession(ctx, Config{Impl: im, Want: want})
	defer s.close()
	c := impl.Case{Schema: []byte(`{"type":"object","$defs":{"l":{"type":"array"}},"properties":{"a":{"$ref":"#/$defs/l"}}}`), Args: []byte(`{"a":"[1]"}`)}
	f := &finding{Finding: Finding{Source: Vector, ID: "a", Case: c, Want: want(c), Got: im.Normalize(ctx, c)}, explainable: true,
		cands: []explanation{{deviation.ByID("plain-types-only")}}}
	s.experiments([]*finding{f})
	if len(f.cands) != 0 {
		var ids []string
		for _, x := range f.cands {
			ids = append(ids, x.id())
		}
		t.Errorf("candidates kept %v, want none", ids)
	}
}
