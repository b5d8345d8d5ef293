package properties_test

import (
	"context"
	"fmt"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
	"github.com/toolnorm/toolnorm/properties"
)

// Run checks one property of the rule on an implementation outside go
// test: here the reference, which keeps it, and one that never decodes a
// character reference, which breaks it. The same seed draws the same
// cases.
func ExampleProperty_Run() {
	p, _ := properties.ByID("leaves-are-fixpoints")
	noEntities := impl.Func("no entities", func(ctx context.Context, c impl.Case) impl.Result {
		c.Options.Repairs = normalize.JSONRepair
		return impl.Reference.Normalize(ctx, c)
	})
	for _, im := range []impl.Impl{impl.Reference, noEntities} {
		v, _ := p.Run(context.Background(), im, properties.RunOptions{Checks: 50, Seed: 1})
		if v == nil {
			fmt.Printf("%s: %s holds\n", im.Name(), p.ID)
			continue
		}
		fmt.Printf("%s: %s broken; its minimal case is a vector of %s\n", im.Name(), p.ID, v.Vector.Clause)
	}
	// Output:
	// toolnorm reference: leaves-are-fixpoints holds
	// no entities: leaves-are-fixpoints broken; its minimal case is a vector of rule/4
}
