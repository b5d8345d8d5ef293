package deviation

import (
	"context"
	"reflect"
	"slices"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// A Deviation is the reference normalizer with one change of behaviour
// that real normalizers show.
type Deviation struct {
	// ID is stable and short ("entities-one-pass"): the id of the root
	// cause it names, the same in every report.
	ID string
	// Title says the behaviour as an issue title would. Every claim in it
	// holds of every case the deviation explains: what it names is what
	// the change does.
	Title string
	// Clause is the clause of the rule ("rule/2" ... "rule/5") or the
	// reading ("reading/1" ... "reading/8") the behaviour breaks.
	Clause string
	// Artefact is true for what lossy JSON plumbing does to the arguments
	// (JSON.parse and JSON.stringify in an adapter): probably the
	// adapter's, not the implementation's. Fix then says how to fix the
	// adapter.
	Artefact bool
	// Witnesses are small cases on which the deviation differs from the
	// reference; the first is the example of the title.
	Witnesses []impl.Case

	change change
	// variants are other forms of the change, one of which an
	// implementation may show as well as change's own: a draft older
	// than 2020-12 is 4, 6 or 7. Apply makes change; Explains tries each.
	variants []change
	// needs says whether a case has what the deviation needs to change
	// anything (Relevant); nil: any case.
	needs need
	// large: the change shows only on a large case (a length limit), which
	// minimizing would cut below what it needs (Large).
	large bool
	// unions: the change is a reading of anyOf and oneOf as a whole (the
	// branches tried in order, any branch's shape taken, their types
	// added): two such readings do not compose, one would undo the other
	// (Compatible).
	unions bool
}

// Large reports whether d shows only on a large case: one past the size
// at which a finding is minimized before it is explained, so that it must
// be tried on the case as found.
func (d *Deviation) Large() bool { return d.large }

// change is how a deviation changes the reference. Any of its parts may
// be missing; those of two deviations compose (Apply).
type change struct {
	options  func(o *impl.Options)
	schema   rewrite
	model    func(m *model)
	post     post
	validate bool
	// unchecked reads a schema the reference rejects as {}: a broken
	// schema is not rejected.
	unchecked bool
	// breaks: a schema the rewrite makes one the reference rejects is
	// rejected (a draft that does not know $anchor), where otherwise the
	// reference's reading stands (a $ref into a keyword left out).
	breaks bool
}

// Impl is the reference with d, as an implementation.
func (d *Deviation) Impl() impl.Impl {
	return impl.Func("deviation "+d.ID, func(ctx context.Context, c impl.Case) impl.Result {
		return Apply(ctx, c, d)
	})
}

// Apply runs the reference with the deviations ds, all together, on c:
// the options changed, the schema rewritten, the model's switches set and
// the output rewritten, each in the order of ds. With none it is the
// reference.
//
// Input the reference rejects (a broken schema, arguments that are not an
// object, nesting past the limit) is rejected with every deviation but
// schema-not-checked: a deviation changes how arguments are repaired, and
// may add an error (a validator after the repair), never take one away.
func Apply(ctx context.Context, c impl.Case, ds ...*Deviation) impl.Result {
	return apply(ctx, c, ds, nil)
}

// Explains reports whether the reference with the deviations ds gives got
// on c, in one of their forms (the variants of each, one at a time).
func Explains(ctx context.Context, c impl.Case, got impl.Result, ds ...*Deviation) bool {
	if got.Failure != nil {
		return false
	}
	var try func(i int, chosen []change) bool
	try = func(i int, chosen []change) bool {
		if i == len(ds) {
			return impl.Same(got, apply(ctx, c, ds, chosen))
		}
		for _, ch := range append([]change{ds[i].change}, ds[i].variants...) {
			if try(i+1, append(chosen, ch)) {
				return true
			}
		}
		return false
	}
	return try(0, nil)
}

// apply is Apply with the changes chosen for ds (nil: each one's own).
func apply(ctx context.Context, c impl.Case, ds []*Deviation, chosen []change) impl.Result {
	changes := chosen
	if changes == nil {
		changes = make([]change, len(ds))
		for i, d := range ds {
			changes[i] = d.change
		}
	}
	ref := reference(ctx, c)
	if ref.Error == impl.ErrInvalidSchema && slices.ContainsFunc(changes, func(ch change) bool { return ch.unchecked }) {
		c.Schema = []byte(`{}`)
		changes = slices.DeleteFunc(slices.Clone(changes), func(ch change) bool { return ch.unchecked })
		return apply(ctx, c, nil, changes)
	}
	// Too deep only once a string is decoded (the arguments as sent are
	// within the limit): a deviation that decodes less may not reach it.
	// The model then runs as if there were no error, and its output is
	// held to the limit.
	decodedDepth := ref.Error == impl.ErrTooDeep && withinDepth(c.Args, c.Options)
	if ref.Error != "" && !decodedDepth || ref.Failure != nil || len(changes) == 0 {
		return ref
	}
	p := plan(changes, c.Options)
	schema := rewritten(ctx, c.Schema, c.Args, p.o, p.rewrites, p.breaks)
	k := impl.Case{Schema: schema, Args: c.Args, Options: p.o}
	if len(p.rewrites) > 0 || k.Options != c.Options {
		ref = reference(ctx, k)
	}
	var out *jsonvalue.Value
	r := ref
	if !p.m.zero() {
		modelRef := ref
		if decodedDepth && ref.Error == impl.ErrTooDeep {
			modelRef = impl.Result{}
		}
		out, r = p.m.normalize(ctx, schema, k, modelRef)
		if r.Error == "" && r.Failure == nil && out != nil && out.Depth() > maxDepth(k.Options) {
			return ref // decoded past the limit, as the reference's error says
		}
	}
	if r.Failure != nil || r.Error != "" || len(p.posts) == 0 && !p.validate {
		if r.Error != "" {
			r.Error = impl.ErrUnspecified // an error of the deviation's, whatever the reference calls it
		}
		return r
	}
	return p.finish(ctx, c, schema, out, r)
}

// A changes is several changes made together: the options, the rewrites
// of the schema in their order, the model's switches, the rewrites of the
// output in their order, whether a validator judges the output.
type changes struct {
	o                impl.Options
	rewrites         []rewrite
	m                model
	posts            []post
	validate, breaks bool
}

func plan(chs []change, o impl.Options) *changes {
	p := &changes{o: o}
	for _, ch := range chs {
		p.breaks = p.breaks || ch.breaks
		p.validate = p.validate || ch.validate
		if ch.options != nil {
			ch.options(&p.o)
		}
		if ch.schema != nil {
			p.rewrites = append(p.rewrites, ch.schema)
		}
		if ch.model != nil {
			ch.model(&p.m)
		}
		if ch.post != nil {
			p.posts = append(p.posts, ch.post)
		}
	}
	return p
}

// finish rewrites the output r (out, when the model made it) and judges
// it, as p says: c is the case as given, schema the one the normalizer
// read.
func (p *changes) finish(ctx context.Context, c impl.Case, schema []byte, out *jsonvalue.Value, r impl.Result) impl.Result {
	if out == nil {
		var err error
		if out, err = jsonvalue.Parse(r.Output); err != nil {
			return r
		}
	}
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return r
	}
	x := &stage{ctx: ctx, schema: schema, args: args, out: out, o: p.o}
	for _, post := range p.posts {
		if err := post(x); err != nil {
			return impl.Result{Error: impl.ErrUnspecified, Detail: err.Error()}
		}
	}
	if p.validate {
		x.schema = c.Schema // the tool's own schema, as the implementation has it
		if err := validates(x); err != nil {
			return impl.Result{Error: impl.ErrUnspecified, Detail: err.Error()}
		}
	}
	return impl.Result{Output: out.Append(nil)}
}

// rewritten is schema with the rewrites made, or schema as it is when it
// does not parse, or when the rewrites break it (a $ref into a keyword left
// out): then the reference's reading stands.
func rewritten(ctx context.Context, schema, args []byte, o impl.Options, rws []rewrite, breaks bool) []byte {
	if len(rws) == 0 {
		return schema
	}
	doc, err := jsonvalue.Parse(schema)
	if err != nil {
		return schema
	}
	for _, rw := range rws {
		rw(doc)
	}
	out := doc.Append(nil)
	if breaks {
		return out
	}
	if r := reference(ctx, impl.Case{Schema: out, Args: args, Options: o}); r.Error == impl.ErrInvalidSchema {
		if r0 := reference(ctx, impl.Case{Schema: schema, Args: args, Options: o}); r0.Error != impl.ErrInvalidSchema {
			return schema
		}
	}
	return out
}

// Compatible reports whether a and b change different things, so that
// together they make both changes: two deviations that set the same part
// of the model (where the JSON repair applies, how a reference is read),
// both change the options, or both read anyOf and oneOf their own way
// would undo one another, and are not made together.
func Compatible(a, b *Deviation) bool {
	if a == b || a.change.options != nil && b.change.options != nil || a.unions && b.unions {
		return a == b
	}
	if a.change.model == nil || b.change.model == nil {
		return true
	}
	var ma, mb model
	a.change.model(&ma)
	b.change.model(&mb)
	// A whole pass of another decoder replaces the pass's policies (which
	// names, which numerics, the ';'): together, one would undo the other.
	if ma.pass != nil && mb.dec != (decoder{}) || mb.pass != nil && ma.dec != (decoder{}) {
		return false
	}
	return !overlap(reflect.ValueOf(ma), reflect.ValueOf(mb))
}

// overlap reports whether two values of one struct type both set a field
// (a field of a struct field, for those).
func overlap(a, b reflect.Value) bool {
	for i := range a.NumField() {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Kind() == reflect.Struct {
			if overlap(fa, fb) {
				return true
			}
			continue
		}
		if !fa.IsZero() && !fb.IsZero() {
			return true
		}
	}
	return false
}

// withinDepth reports whether the arguments as sent nest within the limit
// of o.
func withinDepth(args []byte, o impl.Options) bool {
	v, err := jsonvalue.Parse(args)
	return err == nil && v.Depth() <= maxDepth(o)
}

func maxDepth(o impl.Options) int {
	if o.MaxDepth > 0 {
		return o.MaxDepth
	}
	return impl.DefaultMaxDepth
}
