package render

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
	"github.com/toolnorm/toolnorm/normalize"
)

// TestHalfImplementationsFirstGroup: the repair an implementation declares
// it leaves out is not what its report shows first: its own bug is.
func TestHalfImplementationsFirstGroup(t *testing.T) {
	vs := vectors(t)
	tests := []struct {
		im        impltest.Declaring
		firstFind string // the group its report shows first
	}{
		{impltest.Declaring{Called: "JSON only, top level only", Repairs: normalize.JSONRepair, Bug: func(o impl.Options) impl.Options { o.Depth = normalize.TopLevel; return o }}, "corpus vectors of "},
		{impltest.Declaring{Called: "entities only, one pass", Repairs: normalize.EntityRepair, Bug: func(o impl.Options) impl.Options { o.MaxPasses = 1; return o }}, "corpus vectors of "},
	}
	for _, tt := range tests {
		t.Run(tt.im.Called, func(t *testing.T) {
			r := check.Run(context.Background(), check.Config{Impl: tt.im, Vectors: vs, Checks: 32, Seed: 3})
			if g := groups(r); len(g) == 0 || !strings.HasPrefix(g[0].title, tt.firstFind) {
				t.Errorf("the groups are %v", g)
			}
		})
	}
}
