package normalize

import "context"

// The work of one Compile is counted in steps: a schema indexed or
// compiled, a token of a JSON Pointer followed, a binding of a dynamic
// scope copied, a key placed in a table of properties, an edge of the
// graph of schemas walked, 64 bytes of URI resolved. Every path of
// Compile that repeats pays steps, so that the count bounds its cost; a
// test holds the count to a multiple of the schema's size on every hostile
// shape (compile_hostile_test.go), and every checkEvery steps the context
// of CompileContext is asked whether to stop.

// checkEvery is how many steps of Compile, or units of the walk's work
// (values walked, positions visited, patterns tried), pass between two
// looks at the context: a step costs tens to hundreds of nanoseconds, so
// a done context stops either within a millisecond or so, and the look
// costs nothing that shows.
const checkEvery = 4096

// work is the count and the budgets of one Compile.
type work struct {
	ctx     context.Context
	done    <-chan struct{} // ctx.Done(), nil if it is never done
	spent   int64           // steps
	checkAt int64

	textBytes int // the schema's and the supplied documents' bytes

	// The bytes of URI that resolving identifiers and references read and
	// made, which nested relative $ids make grow with the depth: at most
	// maxURIBytes, 8 per byte of text and 1 MiB.
	uriBytes, maxURIBytes int

	// The work of the dynamic scopes beyond compiling each schema once:
	// schemas compiled again in another scope, and names bound by a
	// resource entered and copied into a new scope. At most maxScopeWork,
	// one per 16 bytes of text and 8,192 (see maxScopes too).
	scopeWork, maxScopeWork int
	scoping                 bool // a scope may be made at all: some $dynamicRef or $recursiveRef
}

// start starts counting, for ctx.
func (r *resolver) start(ctx context.Context) {
	r.ctx, r.done, r.checkAt = ctx, ctx.Done(), checkEvery
}

// budget adds a document of size bytes to the texts the budgets are
// proportional to.
func (r *resolver) budget(size int) {
	r.textBytes += size
	r.maxURIBytes = 8*r.textBytes + 1<<20
	r.maxScopeWork = r.textBytes/16 + 8192
}

// step counts n steps of work, and every checkEvery steps stops Compile
// if its context is done.
func (r *resolver) step(n int) {
	r.spent += int64(n)
	if r.spent < r.checkAt {
		return
	}
	r.checkAt = r.spent + checkEvery
	if r.done == nil {
		return
	}
	select {
	case <-r.done:
		if r.err == nil {
			r.err = stoppedError(r.ctx.Err())
		}
	default:
	}
}

// spendScope counts n steps of the dynamic scopes' work, for the schema at
// p: past the budget, it fails there. It reports whether Compile goes on.
func (r *resolver) spendScope(n int, p place) bool {
	r.step(n)
	r.scopeWork += n
	if r.scopeWork > r.maxScopeWork {
		r.fail(p.doc, p.at, "the dynamic scopes cost more than %d steps (one per 16 bytes of schema, and 8,192): the paths to this resource bind its $dynamicAnchor names (and those of the resources on the way) in more ways than toolnorm follows", r.maxScopeWork)
	}
	return r.err == nil
}
