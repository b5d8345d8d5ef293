package corpus

import (
	"context"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// Applicability is how a vector is judged on an implementation that runs
// in one configuration: the options it declares.
type Applicability struct {
	// Applies is true when the vector is judged, under Options, with its
	// own expected result.
	Applies bool
	Options impl.Options
	// NeedsRepair is true when it is not judged because it needs a repair
	// the declared options leave out; else it means something else under
	// them.
	NeedsRepair bool
	// Why says why it is not judged.
	Why string
}

// Applies says how v is judged on an implementation that declares own:
// under own, with v's expected result, when v was written for own or the
// reference gives that result under own too (most vectors do under a pass
// bound, or at depth top); else not. toolnorm check judges the corpus so,
// and so do the native tests toolnorm init writes. ctx stops the
// reference.
func Applies(ctx context.Context, v *Vector, own impl.Options) Applicability {
	if v.Options.Same(own) || impl.Same(impl.Reference.Normalize(ctx, impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: own}), v.Want()) {
		return Applicability{Applies: true, Options: own}
	}
	// It means something else under the declared options: because of a
	// repair left out (then it needs that repair, which the
	// implementation does not do), or of another choice.
	both := own
	both.Repairs = normalize.AllRepairs
	if own.Repairs != normalize.AllRepairs && (both.Same(v.Options) || impl.Same(impl.Reference.Normalize(ctx, impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: both}), v.Want())) {
		return Applicability{Options: v.Options, NeedsRepair: true, Why: "needs " + own.Repairs.Missing() + ", which the implementation declares it does not do"}
	}
	return Applicability{Options: v.Options, Why: "written for " + v.Options.String() + ", and meaning something else under the declared " + own.String()}
}
