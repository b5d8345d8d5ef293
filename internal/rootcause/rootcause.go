// Package rootcause turns what a check found into the list of bugs: every
// finding (a failing vector, a property's counterexample, a fuzzing
// bucket's) goes through the one minimizer (minimize.MinimizeCut) and is
// then classified (package diagnose); findings of one class are one root
// cause, ordered as a maintainer reads them: the rule's clauses first
// (rule/2, rule/3, rule/5, rule/4), then the readings, then failures of
// the program, each by how many findings show it; artefacts of the
// adapter's plumbing last.
package rootcause

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/diagnose"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/minimize"
	"github.com/toolnorm/toolnorm/normalize"
)

// The sources of a finding.
const (
	Vector   = "vector"   // a vector of the corpus
	Property = "property" // a property's counterexample
	Bucket   = "bucket"   // a fuzzing bucket's counterexample
)

// A Finding is one thing a check found.
type Finding struct {
	Source string // Vector, Property or Bucket
	ID     string // the vector's file (or id), the property's id, the bucket
	Case   impl.Case
	// Want is what the case expects (the vector's expected result);
	// Got is what the implementation gave.
	Want, Got impl.Result
	// Statement is a property's, for a violation that shows no
	// difference with the reference on its case (a second run that
	// differs, for one).
	Statement string
	Clause    string
}

// A RootCause is one bug: a class of findings.
type RootCause struct {
	diagnose.Diagnosis
	// Case is the smallest counterexample, minimized; Want and Got what
	// is expected on it and what came.
	Case      impl.Case
	Want, Got impl.Result
	// Vectors, Properties and Buckets are the findings it accounts for.
	Vectors, Properties, Buckets []string
	// Cut is true when a budget stopped minimizing its counterexample.
	Cut bool
}

// Count is how many findings show the root cause.
func (r RootCause) Count() int { return len(r.Vectors) + len(r.Properties) + len(r.Buckets) }

// Config says how to explain findings.
type Config struct {
	Impl impl.Impl
	// Want is the expected result of a case (the reference's, with the
	// documents and options the check uses).
	Want func(impl.Case) impl.Result
	// Keep, when not nil, says whether minimizing may go on (the check's
	// time is not up).
	Keep func() bool
}

// workers is how many findings are minimized at once when the
// implementation takes batches (a program behind the protocol): their
// requests go out together, so the check waits for one round trip where
// it waited for one per finding.
const workers = 16

// An outcome is a finding minimized and classified.
type outcome struct {
	c         impl.Case
	want, got impl.Result
	d         diagnose.Diagnosis
	cut       bool
}

// Explain groups findings into root causes, most important first. When
// cfg.Impl is an impl.Batcher, the findings are minimized several at a
// time, their requests sent as batches; the root causes are assembled in
// the order of the findings all the same, so they do not depend on how
// the requests were grouped.
func Explain(ctx context.Context, cfg Config, findings []Finding) []RootCause {
	jobs := 1
	if b, ok := cfg.Impl.(impl.Batcher); ok && cfg.Want != nil {
		cfg.Impl, jobs = &coalescer{Impl: cfg.Impl, b: b}, workers
	}
	if cfg.Impl != nil && cfg.Want != nil {
		cfg = memoized(ctx, cfg)
	}
	outcomes := make([]outcome, len(findings))
	explain := func(i int) {
		o := &outcomes[i]
		o.c, o.want, o.got, o.d, o.cut = minimized(ctx, cfg, findings[i])
	}
	if jobs = min(jobs, len(findings)); jobs <= 1 {
		for i := range findings {
			explain(i)
		}
	} else {
		next := make(chan int)
		var wg sync.WaitGroup
		for range jobs {
			wg.Go(func() {
				for i := range next {
					explain(i)
				}
			})
		}
		for i := range findings {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	byClass := map[string]*RootCause{}
	details := map[string][]string{}
	var order []string
	for i, f := range findings {
		o := outcomes[i]
		c, want, got, d, cut := o.c, o.want, o.got, o.d, o.cut
		if d.Detail != "" && !slices.Contains(details[d.Class], d.Detail) {
			details[d.Class] = append(details[d.Class], d.Detail)
		}
		rc := byClass[d.Class]
		if rc == nil {
			rc = &RootCause{Diagnosis: d, Case: c, Want: want, Got: got, Cut: cut}
			byClass[d.Class] = rc
			order = append(order, d.Class)
		} else if size(c) < size(rc.Case) {
			rc.Diagnosis, rc.Case, rc.Want, rc.Got, rc.Cut = d, c, want, got, cut
		}
		switch f.Source {
		case Vector:
			rc.Vectors = append(rc.Vectors, f.ID)
		case Property:
			rc.Properties = append(rc.Properties, f.ID)
		default:
			rc.Buckets = append(rc.Buckets, f.ID)
		}
	}
	// An implementation that misses the plainest declaration on the
	// smallest case misses the others for the same reason: the keywords
	// are not a bug of their own.
	if plain, kw := byClass["decode-missed"], byClass["decode-missed/keyword"]; plain != nil && kw != nil && len(plain.Case.Args) <= len(`{"":"[]"}`) {
		plain.Vectors = append(plain.Vectors, kw.Vectors...)
		plain.Properties = append(plain.Properties, kw.Properties...)
		plain.Buckets = append(plain.Buckets, kw.Buckets...)
		order = slices.DeleteFunc(order, func(k string) bool { return k == "decode-missed/keyword" })
	}
	out := make([]RootCause, 0, len(order))
	for _, k := range order {
		rc := *byClass[k]
		ds := details[k]
		if i := slices.Index(ds, rc.Detail); i > 0 {
			// The counterexample's own first.
			ds = slices.Concat([]string{rc.Detail}, ds[:i], ds[i+1:])
		}
		switch {
		case len(ds) > 0 && k == "decode-missed/keyword":
			rc.Title = diagnose.KeywordTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 0 && (k == "decoded-json-lossy" || k == "artefact/lossy-json"):
			rc.Title = diagnose.LossyTitle(k, ds)
			rc.Detail = strings.Join(ds, ", ")
		}
		out = append(out, rc)
	}
	Sort(out)
	return out
}

func size(c impl.Case) int { return len(c.Schema) + len(c.Args) }

// memoized runs each case once on the implementation and the reference:
// the minimizations of many findings meet on the same small cases. A
// case asked for while it runs is waited for, not sent again. A crash is
// kept like an answer: within one check, the program is taken to crash
// on that exact case again (each run of it would cost a start of the
// adapter). Any other failure is not kept (a timeout may come from a
// loaded machine, a give-up or a check stopped says nothing of the
// case): whoever asks next runs the case anew.
func memoized(ctx context.Context, cfg Config) Config {
	type pair struct{ want, got impl.Result }
	type entry struct {
		p    pair
		done chan struct{}
	}
	var mu sync.Mutex
	seen := map[string]*entry{}
	key := func(c impl.Case) string {
		return c.Options.String() + "\x00" + string(c.Schema) + "\x00" + string(c.Args)
	}
	im, want := cfg.Impl, cfg.Want
	run := func(c impl.Case) pair {
		k := key(c)
		for {
			mu.Lock()
			e := seen[k]
			if e == nil {
				e = &entry{done: make(chan struct{})}
				seen[k] = e
				mu.Unlock()
				e.p = pair{want(c), im.Normalize(ctx, c)}
				if !kept(e.p.got) {
					mu.Lock()
					delete(seen, k)
					mu.Unlock()
				}
				close(e.done)
				return e.p
			}
			mu.Unlock()
			<-e.done
			if kept(e.p.got) {
				return e.p
			}
		}
	}
	cfg.Want = func(c impl.Case) impl.Result { return run(c).want }
	cfg.Impl = impl.Func(im.Name(), func(_ context.Context, c impl.Case) impl.Result { return run(c).got })
	return cfg
}

// kept reports whether memoized keeps a result: an answer, or a crash
// of the program that is not the harness giving up on it.
func kept(r impl.Result) bool {
	return r.Failure == nil || r.Kind() == impl.KindCrash && !errors.Is(r.Failure, impl.ErrGaveUp)
}

// A coalescer sends the cases asked for at the same time, from several
// goroutines, as one batch: the first caller sends the batch, and the
// next, made of the cases asked for in the meantime, until none is left.
// Only one batch is under way at a time.
type coalescer struct {
	impl.Impl
	b       impl.Batcher
	mu      sync.Mutex
	pending []*call
	sending bool
}

type call struct {
	c    impl.Case
	r    impl.Result
	done chan struct{}
}

func (k *coalescer) Normalize(ctx context.Context, c impl.Case) impl.Result {
	cl := &call{c: c, done: make(chan struct{})}
	k.mu.Lock()
	k.pending = append(k.pending, cl)
	if k.sending {
		k.mu.Unlock()
		<-cl.done
		return cl.r
	}
	k.sending = true
	for len(k.pending) > 0 {
		batch := k.pending
		k.pending = nil
		k.mu.Unlock()
		cases := make([]impl.Case, len(batch))
		for i, b := range batch {
			cases[i] = b.c
		}
		rs := k.b.RunBatch(ctx, cases)
		for i, b := range batch {
			b.r = rs[i]
			close(b.done)
		}
		k.mu.Lock()
	}
	k.sending = false
	k.mu.Unlock()
	return cl.r
}

// minimized classifies f on its smallest case: the one minimizer shrinks
// it while the implementation still differs from what is expected with
// the same class.
func minimized(ctx context.Context, cfg Config, f Finding) (impl.Case, impl.Result, impl.Result, diagnose.Diagnosis, bool) {
	if f.Got.Failure != nil || cfg.Impl == nil || cfg.Want == nil || impl.Compare(f.Got, f.Want).Same() {
		// A failure of the program is not run again; a property's
		// violation that the case alone does not show is named by its
		// property.
		return f.Case, f.Want, f.Got, withSource(classify(f.Case, f.Want, f.Got), f), false
	}
	// Minimized while the probed class stays the same: no step may turn a
	// case into one of another class (a long string under a typed root
	// into a short one under an untyped root), so the case that stands
	// for a root cause still shows that cause.
	d := probed(ctx, cfg, f.Case, f.Want, f.Got)
	fails := func(schema, args []byte) bool {
		if cfg.Keep != nil && !cfg.Keep() {
			return false
		}
		c := f.Case
		c.Schema, c.Args = schema, args
		want, got := cfg.Want(c), cfg.Impl.Normalize(ctx, c)
		return impl.Compare(got, want).Violation() && keeps(d.Class, probed(ctx, cfg, c, want, got).Class)
	}
	schema, args, cut := minimize.MinimizeCut(ctx, f.Case.Schema, f.Case.Args, fails)
	if cfg.Keep != nil && !cfg.Keep() {
		cut = true
	}
	c := f.Case
	c.Schema, c.Args = schema, args
	want, got := cfg.Want(c), cfg.Impl.Normalize(ctx, c)
	if md := probed(ctx, cfg, c, want, got); keeps(d.Class, md.Class) {
		return c, want, got, md, cut
	}
	return f.Case, f.Want, f.Got, d, cut // a flaky implementation: the case found stands
}

// keeps reports whether a minimizing step from a case of class from to
// one of class to keeps the case's class: the same class, or a plain
// decode missed that no probe explained on the case found becoming one
// the untyped probe explains once the noise is gone (a refined class, a
// length limit, is never given up for it).
func keeps(from, to string) bool {
	return to == from || from == "decode-missed" && to == "decode-missed/untyped"
}

// probed is the classification of a case, told apart further by running
// the implementation on a variant: a decode missed that types added along
// the path cure is decode-missed/untyped.
//
// A decode missed that the shortest text of its shape at the same place
// does not miss, for a string of at least LongText bytes, is
// decode-missed/long: a length limit. A string decoded where the
// reference keeps it, and decoded the same under the empty schema, is
// decoded-undeclared: the implementation reads no schema there, whatever
// the schema says (a type list, a union, a wrong shape are its details).
func probed(ctx context.Context, cfg Config, c impl.Case, want, got impl.Result) diagnose.Diagnosis {
	d := classify(c, want, got)
	if d.Class == "no-fixpoint" {
		if again, ok := rerun(ctx, cfg, c, got); ok {
			return again
		}
	}
	switch {
	case d.Class == "decode-missed" && long(ctx, cfg, c, d.Where):
		d.Class, d.Title = "decode-missed/long", "A stringified array or object past a length is not decoded (the same shape, short, is)"
	case d.Class == "decode-missed" && untyped(ctx, cfg, c):
		d.Class, d.Title = "decode-missed/untyped", "Nothing is decoded where the schema leaves a level's `type` unsaid (`\"type\": \"object\"` at the root, `\"type\": \"array\"` above `items`)"
	case blindClasses[d.Class] && blind(ctx, cfg, c, got):
		d.Class, d.Title, d.Clause, d.Detail = "decoded-undeclared", "A string is decoded as JSON whatever the schema declares there (as under the empty schema `{}`)", "rule/2", ""
	}
	return d
}

// rerun tells decoding stopped short of the fixpoint from a reference
// the implementation never decodes: run again on what it gave, an
// implementation that stops short goes on; one at its own fixpoint
// changes nothing, and the case is the class of what it left (`&amp;#0;`
// giving `&#0;` is `&#0;` not decoded). It reports false when the second
// run changes the value, or shows no difference.
func rerun(ctx context.Context, cfg Config, c impl.Case, got impl.Result) (diagnose.Diagnosis, bool) {
	if got.Failure != nil || got.Output == nil {
		return diagnose.Diagnosis{}, false
	}
	again := c
	again.Args = got.Output
	got2 := cfg.Impl.Normalize(ctx, again)
	if !impl.Compare(got2, got).Same() {
		return diagnose.Diagnosis{}, false
	}
	d := classify(again, cfg.Want(again), got2)
	if d.Class == "same" || d.Class == "no-fixpoint" || d.Clause == "failure" {
		return diagnose.Diagnosis{}, false
	}
	return d, true
}

// LongText is the length from which a decode missed may be a length
// limit.
const LongText = 1024

// blindClasses are the classes of a string decoded where the reference
// keeps it, as a reading of the schema would explain them.
var blindClasses = map[string]bool{"decoded-declared-string": true, "wrong-shape": true, "wrong-shape/allOf": true,
	"decoded-undeclared/$ref": true, "decoded-undeclared/patternProperties": true, "decoded-undeclared/type": true}

// blind reports whether the implementation gives got on c's arguments
// under the empty schema too.
func blind(ctx context.Context, cfg Config, c impl.Case, got impl.Result) bool {
	if strings.HasPrefix(string(c.Schema), "{}") || got.Failure != nil {
		return false
	}
	free := c
	free.Schema = []byte(`{}`)
	return impl.Compare(cfg.Impl.Normalize(ctx, free), got).Same()
}

// long reports whether the string at where in c's arguments is at least
// LongText bytes and the implementation decodes "[]" or "{}" there (the
// shape the string has).
func long(ctx context.Context, cfg Config, c impl.Case, where string) bool {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return false
	}
	v := args
	for _, tok := range strings.Split(where, "/")[1:] {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch {
		case v.Kind == jsonvalue.Object:
			v = get(v, tok)
		case v.Kind == jsonvalue.Array:
			i := -1
			for j := range v.Elems {
				if strconv.Itoa(j) == tok {
					i = j
				}
			}
			if i < 0 {
				return false
			}
			v = v.Elems[i]
		default:
			return false
		}
		if v == nil {
			return false
		}
	}
	if v.Kind != jsonvalue.String || len(v.Str) < LongText {
		return false
	}
	short := "[]"
	if strings.HasPrefix(strings.TrimSpace(v.Str), "{") {
		short = "{}"
	}
	v.Str = short
	s := c
	s.Args = args.Append(nil)
	return impl.Compare(cfg.Impl.Normalize(ctx, s), cfg.Want(s)).Same()
}

func classify(c impl.Case, want, got impl.Result) diagnose.Diagnosis {
	return diagnose.Classify(diagnose.Case{Schema: c.Schema, Args: c.Args, Attribute: c.Options.Profile == normalize.Attribute,
		MaxPasses: c.Options.MaxPasses, Want: want, Got: got})
}

// withSource names a property's violation the case does not show by its
// property.
func withSource(d diagnose.Diagnosis, f Finding) diagnose.Diagnosis {
	if d.Class == "same" && f.Source == Property {
		return diagnose.Diagnosis{Class: "property/" + f.ID, Title: f.Statement, Clause: f.Clause}
	}
	return d
}

// clauseOrder is the order of the rule's clauses: what a maintainer fixes
// first.
var clauseOrder = []string{"rule/2", "rule/3", "rule/5", "rule/4", "rule/1"}

// rank orders root causes: the rule's clauses, the readings, failures of
// the program, artefacts.
func rank(r RootCause) int {
	switch {
	case r.Artefact:
		return 300
	case r.Clause == "failure":
		return 200
	case strings.HasPrefix(r.Clause, "reading/"):
		return 100
	}
	if i := slices.Index(clauseOrder, r.Clause); i >= 0 {
		return i
	}
	return 50
}

// Sort orders root causes: by rank, then by how many findings show each,
// then by class.
func Sort(rs []RootCause) {
	slices.SortStableFunc(rs, func(a, b RootCause) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(b.Count(), a.Count()), cmp.Compare(a.Class, b.Class))
	})
}

// untyped reports whether a decode missed is made on c only by types
// the schema leaves unsaid: with "type" added to each subschema on the
// way to every value of the arguments (object or array, as the value is),
// the implementation decodes.
func untyped(ctx context.Context, cfg Config, c impl.Case) bool {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return false
	}
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return false
	}
	if !addTypes(schema, args, 0) {
		return false
	}
	typed := c
	typed.Schema = schema.Append(nil)
	return impl.Compare(cfg.Impl.Normalize(ctx, typed), cfg.Want(typed)).Same()
}

// addTypes adds "type" to s, and to the subschemas properties and items
// declare for v's members and elements, where they have none; it reports
// whether it added one.
func addTypes(s, v *jsonvalue.Value, depth int) bool {
	if s == nil || s.Kind != jsonvalue.Object || depth > 64 || v.Kind != jsonvalue.Object && v.Kind != jsonvalue.Array {
		return false
	}
	added := false
	if get(s, "type") == nil {
		s.Members = append([]jsonvalue.Member{{Key: "type", Value: &jsonvalue.Value{Kind: jsonvalue.String, Str: v.Kind.String()}}}, s.Members...)
		added = true
	}
	for _, m := range v.Members {
		if addTypes(get(get(s, "properties"), m.Key), m.Value, depth+1) {
			added = true
		}
	}
	for _, e := range v.Elems {
		if addTypes(get(s, "items"), e, depth+1) {
			added = true
		}
	}
	return added
}

func get(v *jsonvalue.Value, key string) *jsonvalue.Value {
	if v == nil || v.Kind != jsonvalue.Object {
		return nil
	}
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}
