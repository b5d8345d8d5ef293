package render

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// halfImpl does one repair and declares it, with a bug of its own.
type halfImpl struct {
	name    string
	repairs normalize.Repairs
	bug     func(impl.Options) impl.Options // how it runs the reference
}

func (h halfImpl) Name() string { return h.name }
func (h halfImpl) Options() impl.Options {
	return impl.Options{Repairs: h.repairs}
}
func (h halfImpl) Normalize(ctx context.Context, c impl.Case) impl.Result {
	schema, args, o := c.Schema, c.Args, c.Options
	return impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: h.bug(o)})
}

// TestHalfImplementationsFirstGroup: the repair an implementation declares
// it leaves out is not what its report shows first: its own bug is.
func TestHalfImplementationsFirstGroup(t *testing.T) {
	vs := vectors(t)
	tests := []struct {
		im        halfImpl
		firstFind string // the group its report shows first
	}{
		{halfImpl{"JSON only, top level only", normalize.JSONRepair, func(o impl.Options) impl.Options { o.Depth = normalize.TopLevel; return o }}, "corpus vectors of "},
		{halfImpl{"entities only, one pass", normalize.EntityRepair, func(o impl.Options) impl.Options { o.MaxPasses = 1; return o }}, "corpus vectors of "},
	}
	for _, tt := range tests {
		t.Run(tt.im.name, func(t *testing.T) {
			r := check.Run(context.Background(), check.Config{Impl: tt.im, Vectors: vs, Checks: 32, Seed: 3})
			if g := groups(r); len(g) == 0 || !strings.HasPrefix(g[0].title, tt.firstFind) {
				t.Errorf("the groups are %v", g)
			}
		})
	}
}
