// Package rootcause turns what a check found into the list of bugs: every
// finding (a failing vector, a property's counterexample, a fuzzing
// bucket's) is classified (package diagnose) on its case as found, then
// minimized by the one minimizer (minimize.MinimizeCut), a sample of each
// class (see Sample), and classified again on its smallest case; findings
// of one class are one root cause, ordered as a maintainer reads them: the
// rule's clauses first (rule/2, rule/3, rule/5, rule/4), then the
// readings, then failures of the program, each by how many findings show
// it; artefacts of the adapter's plumbing last.
//
// A few classes are settled once a finding is minimized: a decode missed
// behind a keyword is run again with `"$schema"` 2020-12 added
// (decode-missed/draft), with types added on its way, branches and
// `$ref` targets too (decode-missed/untyped), and with the strings on its
// way sent decoded (decode-missed/in-decoded); once all are, a plain miss and a string
// decoded, both under type lists, are one type-list-as-one; and the
// keyword misses of an implementation that misses even a plain
// `"type": "array"` are that miss.
package rootcause

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/coalesce"
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
	// Failed is a case of a property or of fuzzing the program failed on
	// (a crash, a timeout, a broken answer): not a violation, and not run
	// again, but a case that shows the failure. Its ID is the property's,
	// or "fuzzing".
	Failed = "failed"
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
	// Vectors, Properties and Buckets are the findings it accounts for;
	// Failed, the cases of properties and fuzzing the program failed on
	// (the property's id, or "fuzzing", once for each).
	Vectors, Properties, Buckets, Failed []string
	// Cut is true when a budget stopped minimizing its counterexample.
	Cut bool
}

// Count is how many findings show the root cause.
func (r RootCause) Count() int {
	return len(r.Vectors) + len(r.Properties) + len(r.Buckets) + len(r.Failed)
}

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
// requests go out together, in lockstep (see memo), so the check waits
// for one round trip where it waited for one per finding.
const workers = 16

// Sample is how many findings of one class, as probed on the case found,
// Explain minimizes: the smallest, by the size of the case found. When
// they all end in the same class (and detail), the others of the class
// are counted under it as they are, not minimized; when they do not, all
// of them are minimized. Two were too few: the PHP example's plain
// decode misses, of several shapes, then gave a counterexample past the
// bound of the merge of decode-missed/keyword below (docs/performance.md,
// "Fewer findings minimized").
const Sample = 3

// An outcome is a finding minimized and classified.
type outcome struct {
	c         impl.Case
	want, got impl.Result
	d         diagnose.Diagnosis
	cut       bool
	// counted is true for a finding counted under the class its
	// sample ended in, not minimized: its case is not a counterexample.
	counted bool
}

// Explain groups findings into root causes, most important first. Every
// finding is probed on its case as found (diagnose's class, told apart
// by running variants of the case); of the findings of one probed class
// and detail, the Sample smallest are minimized, and the rest only when
// those do not all end in one class and detail, or one by one where the
// case found does not fit the class they ended in (fits). Minimizing
// keeps the probed class (a decode missed may become an untyped one), so
// the sample stands for the others. When cfg.Impl is an impl.Batcher, the
// findings are probed and minimized several at a time, their requests
// sent as batches; which findings are minimized, the root causes, and
// the batches themselves (which cases, in which order: what an adapter
// that crashes is charged with depends on them) depend only on the
// findings and the answers, never on how the workers are scheduled.
func Explain(ctx context.Context, cfg Config, findings []Finding) []RootCause {
	jobs := 1
	var m *memo
	var batch func(context.Context, []impl.Case) []pair
	if cfg.Impl != nil && cfg.Want != nil {
		m = newMemo(ctx, cfg)
		defer m.k.Release()
		if m.b {
			jobs, batch = workers, m.ask
		}
		cfg = m.config(cfg)
	}
	// each runs do on the findings is, jobs at a time. A worker takes the
	// next finding as soon as it is done with one: until it waits for
	// answers, the memo's batch waits for it.
	each := func(is []int, do func(ctx context.Context, i int)) {
		n := min(jobs, len(is))
		if n <= 1 {
			for _, i := range is {
				do(ctx, i)
			}
			return
		}
		var mu sync.Mutex
		next := 0
		ws := make([]*coalesce.Worker, n)
		for j := range ws {
			ws[j] = m.k.Join(-1)
		}
		var wg sync.WaitGroup
		for _, w := range ws {
			wg.Go(func() {
				ctx := w.Context(ctx)
				defer w.Leave()
				for {
					mu.Lock()
					if next == len(is) {
						mu.Unlock()
						return
					}
					i := is[next]
					next++
					mu.Unlock()
					w.Rank(i)
					do(ctx, i)
				}
			})
		}
		wg.Wait()
	}
	outcomes := make([]outcome, len(findings))
	var probe []int
	for i, f := range findings {
		if minimizable(cfg, f) {
			probe = append(probe, i)
			continue
		}
		// A failure of the program is not run again; a property's
		// violation that the case alone does not show is named by its
		// property.
		outcomes[i] = outcome{c: f.Case, want: f.Want, got: f.Got, d: withSource(classify(f.Case, f.Want, f.Got), f)}
	}
	probes := make([]diagnose.Diagnosis, len(findings))
	each(probe, func(ctx context.Context, i int) {
		f := findings[i]
		probes[i] = probed(ctx, cfg, f.Case, f.Want, f.Got)
	})
	explain := func(ctx context.Context, i int) {
		o := &outcomes[i]
		o.c, o.want, o.got, o.d, o.cut = minimized(ctx, cfg, batch, findings[i], probes[i])
	}
	// settle runs the follow-ups on the findings is, once minimized: the
	// second looks that tell a keyword's miss from a draft's or from text
	// left undecoded. It runs before a sample is compared, so that the
	// findings counted without minimizing take the settled class.
	settle := func(is []int) {
		is = slices.DeleteFunc(slices.Clone(is), func(i int) bool { return outcomes[i].d.Class != "decode-missed/keyword" })
		each(is, func(ctx context.Context, i int) {
			o := &outcomes[i]
			if o.d = ofDraft(ctx, cfg, o.c, o.d); o.d.Class == "decode-missed/keyword" {
				o.d = ofUntyped(ctx, cfg, o.c, o.d)
			}
			if o.d.Class == "decode-missed/keyword" {
				o.d = ofDecoded(ctx, cfg, o.c, o.d)
			}
			if o.d.Class == "decode-missed/keyword" {
				o.d = ofPlainest(ctx, cfg, o.c, o.d)
			}
		})
	}
	type key struct{ class, detail string }
	groups := map[key][]int{}
	var keys []key
	for _, i := range probe {
		k := key{probes[i].Class, probes[i].Detail}
		if asFound[k.class] {
			k.detail = "" // one sample for the class: its details are as found
		}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], i)
	}
	var sample []int
	for _, k := range keys {
		g := slices.Clone(groups[k])
		slices.SortStableFunc(g, func(a, b int) int { return cmp.Compare(size(findings[a].Case), size(findings[b].Case)) })
		groups[k] = g
		sample = append(sample, g[:min(Sample, len(g))]...)
	}
	each(sample, explain)
	settle(sample)
	var rest []int
	for _, k := range keys {
		g := groups[k]
		if len(g) <= Sample {
			continue
		}
		first := outcomes[g[0]].d
		// A keyword's miss is told apart only once minimized (settle
		// looks at where the minimal case misses): the findings of such a
		// class may settle differently, so each is minimized.
		agree := k.class != "decode-missed/keyword"
		for _, i := range g[1:Sample] {
			agree = agree && outcomes[i].d.Class == first.Class && outcomes[i].d.Detail == first.Detail
		}
		if !agree {
			rest = append(rest, g[Sample:]...)
			continue
		}
		for _, i := range g[Sample:] {
			f := findings[i]
			if !fits(ctx, cfg, f, probes[i], first.Class) {
				rest = append(rest, i) // minimized on its own
				continue
			}
			outcomes[i] = outcome{c: f.Case, want: f.Want, got: f.Got, d: first, counted: true}
		}
	}
	each(rest, explain)
	settle(rest)
	byClass := map[string]*RootCause{}
	details := map[string][]string{}
	// The shapes a class's findings miss, each as found (one counted under
	// a class took its sample's diagnosis), and the classes a finding came
	// to by the blind probe: titles that hold for every finding.
	shapes := map[string][]string{}
	blindSeen := map[string]bool{}
	undetailed := map[string]bool{} // a class with a finding of no detail
	top := map[string]bool{}        // a decode-missed class with a miss at the top level
	var order []string
	shown := map[string]bool{}        // a class's counterexample is one minimized
	shownDeduced := map[string]bool{} // and a failure charged by elimination
	for i, f := range findings {
		o := outcomes[i]
		c, want, got, d, cut := o.c, o.want, o.got, o.d, o.cut
		// A miss under a type list is kept apart from the plain misses
		// (below: unless the plain miss is of the plainest case).
		k := d.Class
		if k == "decode-missed" && d.Detail == "type-list" {
			k = typeListKey
		}
		if asFound[k] {
			// Details the case as found has, whatever minimizing or the
			// sample made of it.
			if own := classify(f.Case, f.Want, f.Got); own.Class == k {
				d.Detail = own.Detail
			}
		}
		if d.Detail != "" && !slices.Contains(details[k], d.Detail) {
			details[k] = append(details[k], d.Detail)
		}
		if d.Detail == "" {
			undetailed[k] = true
		}
		if strings.HasPrefix(d.Class, "decode-missed") {
			shape := d.Shape
			own := classify(f.Case, f.Want, f.Got)
			if own.Shape != "" {
				shape = own.Shape
			}
			if shape != "" && !slices.Contains(shapes[k], shape) {
				shapes[k] = append(shapes[k], shape)
			}
			// Where it misses, minimized (or as found, for a finding
			// counted under its sample's class): at the top level, or
			// only below it.
			where := d.Where
			if o.counted {
				where = own.Where
			}
			top[k] = top[k] || strings.Count(where, "/") <= 1
		}
		blindSeen[k] = blindSeen[k] || d.Title == blindTitle || probes[i].Title == blindTitle
		rc := byClass[k]
		if rc == nil {
			rc = &RootCause{}
			byClass[k] = rc
			order = append(order, k)
		}
		// A failure charged by elimination (a buffering program can have
		// it wrong) shows its root cause only where no failure charged for
		// certain does: a counterexample is one that fails when replayed.
		deduced := errors.Is(got.Failure, impl.ErrDeduced)
		if !o.counted && (!shown[k] || shownDeduced[k] && !deduced || shownDeduced[k] == deduced && shows(d.Class, c, rc.Case)) {
			rc.Diagnosis, rc.Case, rc.Want, rc.Got, rc.Cut = d, c, want, got, cut
			shown[k], shownDeduced[k] = true, deduced
		}
		switch f.Source {
		case Vector:
			rc.Vectors = append(rc.Vectors, f.ID)
		case Property:
			rc.Properties = append(rc.Properties, f.ID)
		case Failed:
			rc.Failed = append(rc.Failed, f.ID)
		default:
			rc.Buckets = append(rc.Buckets, f.ID)
		}
	}
	// An implementation that misses the plainest declaration on the
	// smallest case misses the others for the same reason: the keywords
	// are not a bug of their own.
	// A miss under a `type` list is no miss of the plainest declaration.
	// A miss under a type list is a bug of its own (the Node.js example
	// reads a plain `type` of a top-level property, and misses both a
	// type list and what is declared below the top), unless the plain miss
	// is of the plainest case: then it is that miss.
	if plain, list := byClass["decode-missed"], byClass[typeListKey]; plain != nil && list != nil && plainest(plain.Case) {
		absorb(plain, list)
		top["decode-missed"] = top["decode-missed"] || top[typeListKey]
		for _, s := range shapes[typeListKey] {
			if !slices.Contains(shapes["decode-missed"], s) {
				shapes["decode-missed"] = append(shapes["decode-missed"], s)
			}
		}
		order = slices.DeleteFunc(order, func(k string) bool { return k == typeListKey })
	}
	if plain, kw := byClass["decode-missed"], byClass["decode-missed/keyword"]; plain != nil && kw != nil && plainest(plain.Case) {
		absorb(plain, kw)
		for _, s := range shapes["decode-missed/keyword"] {
			if !slices.Contains(shapes["decode-missed"], s) {
				shapes["decode-missed"] = append(shapes["decode-missed"], s)
			}
		}
		order = slices.DeleteFunc(order, func(k string) bool { return k == "decode-missed/keyword" })
	}
	// An implementation that reads a `type` list as one of its types
	// misses the shape it does not pick (["array","object"] read as
	// object) and decodes a string where it picks a shape (["string",
	// "array"] read as array): one bug, when both counterexamples are
	// under a type list that names what they need.
	plain := byClass[typeListKey]
	if plain == nil || !slices.Contains(order, typeListKey) {
		plain = byClass["decode-missed"]
	}
	if str := byClass["decoded-declared-string"]; plain != nil && str != nil && typeList(plain.Case.Schema, "array", "object") && typeList(str.Case.Schema, "string") {
		if size(str.Case) < size(plain.Case) {
			plain.Case, plain.Want, plain.Got, plain.Where, plain.Cut = str.Case, str.Want, str.Got, str.Where, str.Cut
		}
		absorb(plain, str)
		plain.Class, plain.Clause, plain.Detail = "type-list-as-one", "rule/3", ""
		plain.Title = "A `type` list is read as one of its types: a shape it names stays a string (`[\"array\",\"object\"]` read as `object`), a string it admits is decoded (`[\"string\",\"array\"]` read as `array`)"
		order = slices.DeleteFunc(order, func(k string) bool { return k == "decoded-declared-string" })
	}
	// Types added up across `allOf` branches substitute a shape one
	// branch excludes, and keep a string one branch admits: one reading,
	// seen from both sides (qwen-code's getAcceptedTypes).
	if ws, ta := byClass["wrong-shape/allOf"], byClass[typesAddedClass]; ws != nil && ta != nil {
		absorb(ws, ta)
		ws.Class, ws.Clause, ws.Detail, ws.Title = "types-added", "rule/3", "", typesAddedBoth
		order = slices.DeleteFunc(order, func(k string) bool { return k == typesAddedClass })
	}
	// fold puts the findings of class from, a case of two faults, under
	// the first of intos that has a root cause (a class, or a class and
	// its details), its details with them.
	fold := func(from string, intos ...string) {
		c := byClass[from]
		if c == nil {
			return
		}
		for _, into := range intos {
			i := slices.IndexFunc(order, func(k string) bool {
				return k != from && (byClass[k].Class == into || strings.HasPrefix(byClass[k].Class, into+"/"))
			})
			if i < 0 {
				continue
			}
			k := order[i]
			absorb(byClass[k], c)
			for _, d := range details[from] {
				if !slices.Contains(details[k], d) {
					details[k] = append(details[k], d)
				}
			}
			order = slices.DeleteFunc(order, func(k string) bool { return k == from })
			return
		}
	}
	// Text that is not JSON made into a container where the schema does
	// not declare one, or lets the parameter be a string, shows two faults
	// at once: when each has a root cause of its own, its findings are the
	// string decoding's (a property about string parameters minimized
	// into the empty text; @ai-sdk-tool/parser's `""` under a type list
	// with `string` is decoded as `"[]"` is), not a third bug.
	if byClass["made-from-not-json"] != nil {
		fold("made-from-not-json/undeclared", "decoded-undeclared")
		fold("made-from-not-json/declared-string", "decoded-declared-string", "type-list-as-one", "decoded-undeclared")
	}
	// JSON text decoded where the rule keeps the string and read lossily:
	// the lossy reading's (a property about keys, minimized under `{}`),
	// else the decoding's.
	fold("decoded-json-lossy/where-kept", "decoded-json-lossy", "decoded-undeclared", "decoded-declared-string", "type-list-as-one", "wrong-shape")
	// A numeric reference without its `;` to a code point HTML replaces
	// (`&#7`): the missing `;`'s, else its code point's.
	intos := []string{"undecoded/numeric-no-semicolon"}
	for _, s := range diagnose.SpecialNumeric {
		intos = append(intos, s.Class)
	}
	fold("undecoded/numeric-no-semicolon/special", intos...)
	// Numeric references HTML replaces or maps, not decoded as HTML does
	// over several ranges: one policy (PHP leaves every code point it
	// disallows as text), one root cause, shown by its smallest case.
	var specials []string
	for _, s := range diagnose.SpecialNumeric {
		if slices.Contains(order, s.Class) {
			specials = append(specials, s.Class)
		}
	}
	if len(specials) > 1 {
		first := byClass[specials[0]]
		for _, k := range specials[1:] {
			if rc := byClass[k]; size(rc.Case) < size(first.Case) {
				first.Case, first.Want, first.Got, first.Where, first.Cut = rc.Case, rc.Want, rc.Got, rc.Where, rc.Cut
			}
			absorb(first, byClass[k])
			order = slices.DeleteFunc(order, func(o string) bool { return o == k })
		}
		first.Class, first.Detail, first.Title = "undecoded/numeric-special", strings.Join(specials, ", "), diagnose.SpecialNumericTitle(specials)
	}
	// Text of the wrong shape decoded, its empty container given as the
	// other shape (PHP: `"{}"` where array is declared comes out `[]`):
	// the wrong shape's, else the empty container's.
	fold("wrong-shape/empty", "wrong-shape", "object-as-array")
	// An answer where the rule rejects, that shows another bug too: the
	// missing error's.
	fold("no-error/and-more", "no-error")
	out := make([]RootCause, 0, len(order))
	for _, k := range order {
		rc := *byClass[k]
		// In one order, whichever findings came first, so that a title
		// filed upstream is found again by it.
		ds := diagnose.OrderDetails(slices.Clone(details[k]))
		switch {
		case len(ds) > 0 && k == "decode-missed/keyword":
			ds = diagnose.Routes(ds)
			rc.Title = diagnose.KeywordTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 0 && k == diagnose.IgnoredClass:
			rc.Title = diagnose.IgnoredTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 0 && k == "decode-missed/draft":
			ds = diagnose.Routes(ds)
			rc.Title = diagnose.DraftTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 0 && (k == "decoded-json-lossy" || k == "artefact/lossy-json"):
			rc.Title = diagnose.LossyTitle(k, ds)
			rc.Detail = strings.Join(ds, ", ")
		case k == "decode-missed" && rc.Class == k:
			// Some under a plain type: the title that holds for all; and
			// the shapes of them all.
			if undetailed[k] {
				rc.Detail = ""
			}
			shape := rc.Shape
			if len(shapes[k]) > 1 {
				shape = "array or object"
			}
			rc.Title = diagnose.MissedTitle(shape, rc.Detail)
			if !top[k] {
				rc.Title += diagnose.BelowTop
			}
		case k == typeListKey && rc.Class == "decode-missed":
			shape := rc.Shape
			if len(shapes[k]) > 1 {
				shape = "array or object"
			}
			rc.Title, rc.Detail = diagnose.MissedTitle(shape, "type-list"), "type-list"
		case len(ds) > 0 && k == inferredClass:
			// The keywords of each finding, in one title.
			var kws []string
			for _, d := range ds {
				for _, kw := range strings.Fields(d) {
					if !slices.Contains(kws, kw) {
						kws = append(kws, kw)
					}
				}
			}
			slices.SortStableFunc(kws, func(a, b string) int { return slices.Index(shapeKeywords, a) - slices.Index(shapeKeywords, b) })
			rc.Title, rc.Detail = inferredTitle(kws), strings.Join(kws, " ")
		case k == "decoded-undeclared" && blindSeen[k]:
			// Some decoded under a schema that declares the other shape,
			// or a string: the title that holds for all.
			rc.Title, rc.Detail = blindTitle, ""
		case len(ds) > 0 && k == "object-as-array":
			rc.Title = diagnose.AsArrayTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 1 && k == "wrong-shape" && !undetailed[k]:
			// Both ways: what holds for every finding names them both.
			rc.Title = diagnose.WrongShapeTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 0 && k == "error-for-valid-input/$schema":
			// The `$schema` values its findings show: an implementation
			// that errs under some drafts, not every one.
			rc.Title = diagnose.SchemaErrorTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 0 && (k == "coerced" || k == "coerced-in-decoded"):
			rc.Title = diagnose.CoercedTitle(k, ds)
			rc.Detail = strings.Join(ds, ", ")
		case k == "no-error" || k == "failure/protocol/non-finite":
			// The kinds of input answered, the causes of `NaN` or
			// `Infinity`: those of every finding, or, with a finding
			// whose kind or cause is not told, none.
			if undetailed[k] {
				ds = nil
			}
			if k == "no-error" {
				rc.Title = diagnose.NoErrorTitle(ds)
			} else {
				rc.Title = diagnose.NonFiniteTitle(ds)
			}
			rc.Detail = strings.Join(ds, ", ")
		}
		out = append(out, rc)
	}
	Sort(out)
	return out
}

// Draft2020 is the `$schema` of JSON Schema 2020-12, the draft a schema
// without `$schema` is read by.
const Draft2020 = "https://json-schema.org/draft/2020-12/schema"

// fits reports whether f, of class d as probed on its case, may be
// counted under class, the one the sample of its probed class ended in,
// without being minimized: the same class, or a plain miss counted as an
// untyped one (the only class minimizing may refine it into, see keeps)
// when its own case says it can be one: its schema leaves a type unsaid,
// and the untyped probe (run on it already, so no request) changes what
// the implementation gives where it misses. A miss that types added
// leave as it is has another cause, whatever the sample's.
func fits(ctx context.Context, cfg Config, f Finding, d diagnose.Diagnosis, class string) bool {
	if class == d.Class {
		return true
	}
	if class != untypedClass || d.Class != "decode-missed" || cfg.Impl == nil {
		return false
	}
	typed, ok := withTypes(f.Case)
	if !ok {
		return false
	}
	r := cfg.Impl.Normalize(ctx, typed)
	return r.Failure == nil && !bytes.Equal(valueAt(r.Output, d.Where), valueAt(f.Got.Output, d.Where))
}

// valueAt is the compact text of the value at where (a JSON Pointer) in
// the JSON text out; nil when there is none.
func valueAt(out []byte, where string) []byte {
	v, err := jsonvalue.Parse(out)
	if err != nil {
		return nil
	}
	if v = v.Resolve("#" + where); v == nil {
		return nil
	}
	return v.Append(nil)
}

// ofDraft tells a keyword followed only under an explicit draft from one
// not followed at all: a decode missed behind a keyword (d) in a schema
// without `$schema` that the implementation makes once the schema says
// `"$schema"` 2020-12 is decode-missed/draft: it reads a schema without
// `$schema` by an older draft (Ajv's default, draft-07, has no
// `prefixItems`). It is run once on the finding's minimized case c, after
// minimizing; d is returned as it is otherwise.
func ofDraft(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) diagnose.Diagnosis {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return d
	}
	explicit, ok := withDraft(c)
	if !ok || !impl.Compare(cfg.Impl.Normalize(ctx, explicit), cfg.Want(explicit)).Same() {
		return d
	}
	d.Class, d.Title, d.Clause = "decode-missed/draft", diagnose.DraftTitle([]string{d.Detail}), "reading/4"
	return d
}

// withDraft is c with `"$schema"` 2020-12 added to its schema, and
// whether the schema had none to add it to.
func withDraft(c impl.Case) (impl.Case, bool) {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil || schema.Kind != jsonvalue.Object || schema.Member("$schema") != nil {
		return c, false
	}
	schema.Members = append([]jsonvalue.Member{{Key: "$schema", Value: &jsonvalue.Value{Kind: jsonvalue.String, Str: Draft2020}}}, schema.Members...)
	c.Schema = schema.Append(nil)
	return c, true
}

// ofDecoded tells a keyword not followed from decoded text not walked: a
// decode missed behind a keyword (d), inside a string the rule decodes,
// that the implementation makes once that string is sent decoded (alone,
// or with `"$schema"` 2020-12 added, when ofDraft explains the rest) is
// decode-missed/in-decoded: it follows the keyword, and does not repair
// what it decodes. Run once on the finding's minimized case c, after
// minimizing; d is returned as it is otherwise.
func ofDecoded(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) diagnose.Diagnosis {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return d
	}
	sent, ok := decodedOnTheWay(c, d.Where)
	if !ok {
		return d
	}
	tries := []impl.Case{sent}
	if explicit, ok := withDraft(sent); ok {
		tries = append(tries, explicit)
	}
	for _, t := range tries {
		if impl.Compare(cfg.Impl.Normalize(ctx, t), cfg.Want(t)).Same() {
			in := diagnose.InDecoded
			in.Where = d.Where
			return in
		}
	}
	return d
}

// decodedOnTheWay is c with each string on the way to where, short of
// the value there, put in as the JSON it holds: the text the rule decodes
// sent decoded. It reports false when there is none, or one does not
// parse.
func decodedOnTheWay(c impl.Case, where string) (impl.Case, bool) {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return c, false
	}
	v, changed := args, false
	for _, tok := range jsonvalue.PointerTokens(where) {
		if v.Kind == jsonvalue.String {
			inner, err := jsonvalue.Parse([]byte(v.Str))
			if err != nil {
				return c, false
			}
			*v, changed = *inner, true
		}
		if v = v.Step(tok); v == nil {
			return c, false
		}
	}
	if !changed {
		return c, false
	}
	c.Args = args.Append(nil)
	return c, true
}

// The class and title of a decode missed that types added cure.
const (
	untypedClass = "decode-missed/untyped"
	untypedTitle = "Nothing is decoded where the schema leaves a level's `type` unsaid (`\"type\": \"object\"` at the root, `\"type\": \"array\"` above `items`)"
)

// ofUntyped tells a keyword not followed from a type left unsaid: a
// decode missed behind a keyword (d) that the implementation makes once
// "type" is added on the way (in the branches of a combinator and what
// `$ref` leads to as well) is decode-missed/untyped: it follows the
// keyword, where the schema says the type (an `allOf` branch that
// declares members without `"type": "object"`). Run once on the
// finding's minimized case c; d is returned as it is otherwise.
//
// The keyword must matter once the types are said: an implementation that
// gives the same without it decodes there whatever the keyword declares
// (blind, under a typed root), and the keyword is still not followed.
func ofUntyped(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) diagnose.Diagnosis {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return d
	}
	typed, ok := withTypes(c)
	if !ok {
		return d
	}
	got := cfg.Impl.Normalize(ctx, typed)
	if !impl.Compare(got, cfg.Want(typed)).Same() {
		return d
	}
	kw, _, _ := strings.Cut(d.Detail, "/")
	kw = strings.TrimSuffix(kw, "[]")
	if without, ok := withoutKeyword(typed, kw); !ok || impl.Compare(cfg.Impl.Normalize(ctx, without), got).Same() {
		// The keyword out, the answer is the same: the implementation
		// may decode there whatever the keyword says (@ai-sdk-tool/parser
		// under a typed root). It follows the keyword if a string declared
		// in the keyword's place is then kept.
		s, ok := diagnose.Stringed(typed.Schema, typed.Args, d.Where, d.Shape)
		if !ok {
			return d
		}
		stringed := typed
		stringed.Schema = s
		if !impl.Compare(cfg.Impl.Normalize(ctx, stringed), cfg.Want(stringed)).Same() {
			return d
		}
	}
	d.Class, d.Title, d.Detail, d.Clause = untypedClass, untypedTitle, "", "rule/2"
	return d
}

// withoutKeyword is c with the keyword kw taken out of its schema, in
// schema positions (not a property of that name), and whether there was
// one to take out.
func withoutKeyword(c impl.Case, kw string) (impl.Case, bool) {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil || kw == "" {
		return c, false
	}
	found := false
	diagnose.WalkSchemas(schema, func(s *jsonvalue.Value) {
		n := len(s.Members)
		s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == kw })
		found = found || len(s.Members) < n
	})
	c.Schema = schema.Append(nil)
	return c, found
}

// absorb adds the findings of b to a.
func absorb(a, b *RootCause) {
	a.Vectors = append(a.Vectors, b.Vectors...)
	a.Properties = append(a.Properties, b.Properties...)
	a.Buckets = append(a.Buckets, b.Buckets...)
	a.Failed = append(a.Failed, b.Failed...)
}

// asFound are the classes whose details say what each finding, as found,
// shows, for the root cause's title to list (the kinds of input rejected,
// what made an answer hold `Infinity`, the forms of an object given as an
// array): a class is minimized as one sample whatever its details (a
// sample for each kind cost the Node.js example's check 2,000 requests),
// and minimizing, which may make `{"0":"a"}` given as `["a"]` an empty
// object given as `[]`, leaves them as they were.
var asFound = map[string]bool{"no-error": true, "failure/protocol/non-finite": true, "object-as-array": true}

// typeListKey groups the decode misses under a `type` list (class
// decode-missed, detail type-list) apart from the plain ones.
const typeListKey = "decode-missed\x00type-list"

// plainest reports whether a decode miss's case is the plainest there is:
// `{"":"[]"}` under a plain `type`, no type list.
func plainest(c impl.Case) bool {
	return len(c.Args) <= len(`{"":"[]"}`) && !anyTypeList(c.Schema)
}

// typeList reports whether the schema text holds a `type` list of two
// types or more that names each of names.
func typeList(schema []byte, names ...string) bool { return hasTypeList(schema, 2, names) }

// anyTypeList reports whether the schema text holds a `type` list, of one
// type or more.
func anyTypeList(schema []byte) bool { return hasTypeList(schema, 1, nil) }

// hasTypeList reports whether the schema text holds a `type` list of at
// least least types that names each of names.
func hasTypeList(schema []byte, least int, names []string) bool {
	v, err := jsonvalue.Parse(schema)
	if err != nil {
		return false
	}
	var walk func(v *jsonvalue.Value, depth int) bool
	walk = func(v *jsonvalue.Value, depth int) bool {
		if depth > 200 {
			return false
		}
		for _, m := range v.Members {
			if m.Key == "type" && m.Value.Kind == jsonvalue.Array && len(m.Value.Elems) >= least && !slices.ContainsFunc(names, func(n string) bool {
				return !slices.ContainsFunc(m.Value.Elems, func(e *jsonvalue.Value) bool { return e.Kind == jsonvalue.String && e.Str == n })
			}) {
				return true
			}
			if walk(m.Value, depth+1) {
				return true
			}
		}
		return slices.ContainsFunc(v.Elems, func(e *jsonvalue.Value) bool { return walk(e, depth+1) })
	}
	return walk(v, 0)
}

// blindTitle is the title of a string decoded as JSON whatever the
// schema declares there.
const blindTitle = "A string is decoded as JSON whatever the schema declares there, even under the empty schema `{}`"

func size(c impl.Case) int { return len(c.Schema) + len(c.Args) }

// shows reports whether c is a better counterexample of class than was:
// smaller; for a decode missed, one that leaves fewer types unsaid
// first, for a case found under a root whose type is unsaid keeps it
// unsaid (minimized never drops a type, nor adds one), and shows the
// untyped root cause too where another case shows the class alone.
func shows(class string, c, was impl.Case) bool {
	if strings.HasPrefix(class, "decode-missed") {
		if n, m := unsaidTypes(c), unsaidTypes(was); n != m {
			return n < m
		}
	}
	return size(c) < size(was)
}

// A pair is what is expected on a case and what the implementation gave.
type pair struct{ want, got impl.Result }

// A memo runs each case once on the implementation and the reference:
// the minimizations of many findings meet on the same small cases. A
// crash is kept like an answer: within one check, the program is taken
// to crash on that exact case again (each run of it would cost a start
// of the adapter). Any other failure is not kept (a timeout may come from
// a loaded machine, a give-up or a check stopped says nothing of the
// case): the case is run anew when it is asked for again.
//
// The implementation is run through a coalesce.Impl, which keeps the
// results and, for an implementation that takes batches, is the lockstep
// of Explain's workers: each joins with the index of the finding under
// way as its rank, and the cases they ask for go out as one batch once
// every worker under way waits for answers (or is done), so the batches
// depend only on the findings and the answers, however the workers are
// scheduled.
type memo struct {
	k   *coalesce.Impl
	b   bool // the implementation takes batches
	ref func(impl.Case) impl.Result

	mu    sync.Mutex
	wants map[string]impl.Result
}

func newMemo(ctx context.Context, cfg Config) *memo {
	m := &memo{k: coalesce.New(ctx, cfg.Impl, kept), ref: cfg.Want, wants: map[string]impl.Result{}}
	_, m.b = cfg.Impl.(impl.Batcher)
	return m
}

// config is cfg with the implementation and the reference run through m.
func (m *memo) config(cfg Config) Config {
	cfg.Want = m.want
	cfg.Impl = impl.Func(m.k.Name(), m.k.Normalize)
	return cfg
}

// want is the reference's result on c, computed once.
func (m *memo) want(c impl.Case) impl.Result {
	k := coalesce.Key(c)
	m.mu.Lock()
	r, ok := m.wants[k]
	m.mu.Unlock()
	if !ok {
		r = m.ref(c)
		m.mu.Lock()
		m.wants[k] = r
		m.mu.Unlock()
	}
	return r
}

// ask returns what is expected on each case and what the implementation
// gives, running the cases not kept yet in the next batch, which ask
// waits for. ctx names the worker asking, if any.
func (m *memo) ask(ctx context.Context, cases []impl.Case) []pair {
	out := make([]pair, len(cases))
	for i, c := range cases {
		out[i].want = m.want(c)
	}
	for i, r := range m.k.RunBatch(ctx, cases) {
		out[i].got = r
	}
	return out
}

// kept reports whether the memo keeps a result: an answer, or a crash of
// the program that is not the harness giving up on it.
func kept(r impl.Result) bool {
	return r.Failure == nil || r.Kind() == impl.KindCrash && !errors.Is(r.Failure, impl.ErrGaveUp)
}

// minimizable reports whether f is minimized: not a failure of the
// program (it is not run again), and a difference the case alone shows.
func minimizable(cfg Config, f Finding) bool {
	return f.Got.Failure == nil && cfg.Impl != nil && cfg.Want != nil && !impl.Compare(f.Got, f.Want).Same()
}

// minimized classifies f, of class d as probed on its case, on its
// smallest case: the one minimizer shrinks it while the implementation
// still differs from what is expected with the same class.
//
// Minimized while the probed class stays the same (keeps): no step may
// turn a case into one of another class (a long string under a typed root
// into a short one under an untyped root), so the case that stands for a
// root cause still shows that cause. A decode missed, of any class, is
// minimized besides through cases that leave no more types unsaid than
// the one before (unsaidTypes never rises): no step drops a `type` on the
// way to the values, for an implementation that misses where a type is
// unsaid misses there too, and the counterexample would show that second
// bug (a keyword's miss under `{"patternProperties":…}` once the root's
// `"type": "object"` is gone; a union of typed branches whose types are
// gone is a miss of the untyped root cause). A plain miss becomes an
// untyped one only where the case found leaves a type unsaid already.
// The rule costs no request: a candidate that drops a type is not run.
func minimized(ctx context.Context, cfg Config, batch func(context.Context, []impl.Case) []pair, f Finding, d diagnose.Diagnosis) (impl.Case, impl.Result, impl.Result, diagnose.Diagnosis, bool) {
	missed := strings.HasPrefix(d.Class, "decode-missed")
	unsaid := unsaidTypes(f.Case) // of the case kept last
	typed := func(c impl.Case) (int, bool) {
		n := unsaidTypes(c)
		return n, !missed || n <= unsaid
	}
	fails := func(schema, args []byte) bool {
		if cfg.Keep != nil && !cfg.Keep() {
			return false
		}
		c := f.Case
		c.Schema, c.Args = schema, args
		n, ok := typed(c)
		if !ok {
			return false
		}
		want, got := cfg.Want(c), cfg.Impl.Normalize(ctx, c)
		if impl.Compare(got, want).Violation() && keeps(d.Class, probed(ctx, cfg, c, want, got).Class) {
			unsaid = n // MinimizeCut keeps the candidate that fails
			return true
		}
		return false
	}
	var schema, args []byte
	var cut bool
	if batch == nil {
		schema, args, cut = minimize.MinimizeCut(ctx, f.Case.Schema, f.Case.Args, fails)
	} else {
		// The candidates of a step go out as one batch (those that drop a
		// type left out); they are judged in order up to the first that
		// fails, as MinimizeCut would.
		schema, args, cut = minimize.MinimizeBatch(ctx, f.Case.Schema, f.Case.Args, func(cs []minimize.Candidate) int {
			if cfg.Keep != nil && !cfg.Keep() {
				return -1
			}
			var cases []impl.Case
			var at, ns []int
			for i, x := range cs {
				c := f.Case
				c.Schema, c.Args = x.Schema, x.Args
				if n, ok := typed(c); ok {
					cases, at, ns = append(cases, c), append(at, i), append(ns, n)
				}
			}
			if len(cases) == 0 {
				return -1
			}
			for j, p := range batch(ctx, cases) {
				if cfg.Keep != nil && !cfg.Keep() {
					return -1
				}
				if impl.Compare(p.got, p.want).Violation() && keeps(d.Class, probed(ctx, cfg, cases[j], p.want, p.got).Class) {
					unsaid = ns[j]
					return at[j]
				}
			}
			return -1
		})
	}
	if cfg.Keep != nil && !cfg.Keep() {
		cut = true
	}
	c := f.Case
	c.Schema, c.Args = schema, args
	want, got := cfg.Want(c), cfg.Impl.Normalize(ctx, c)
	if md := probed(ctx, cfg, c, want, got); keeps(d.Class, md.Class) {
		if !cut {
			if sent, ok := oneFault(ctx, cfg, c, want, got, md); ok {
				// Minimized again from the text sent decoded: it has
				// fewer strings on the way, so this ends.
				g := f
				g.Case, g.Want, g.Got = sent, cfg.Want(sent), cfg.Impl.Normalize(ctx, sent)
				return minimized(ctx, cfg, batch, g, d)
			}
		}
		return c, want, got, md, cut
	}
	return f.Case, f.Want, f.Got, d, cut // a flaky implementation: the case found stands
}

// oneFault is c, minimized, of class md as probed, with the text on the
// way sent decoded, when c shows two faults at once: a miss inside text
// the rule decodes (decode-missed/in-decoded as classified) that the
// implementation makes in the text sent decoded as well, which probed
// puts down to that miss. The counterexample of that miss is then the
// case sent decoded, minimized (qwen-code's array of arrays was shown by
// `{"":"[\"[]\"]"}`, which shows that its decoded text is not walked
// too, rather than by `{"":["[]"]}`). It reports false otherwise.
func oneFault(ctx context.Context, cfg Config, c impl.Case, want, got impl.Result, md diagnose.Diagnosis) (impl.Case, bool) {
	d := classify(c, want, got)
	if d.Class != diagnose.InDecoded.Class || md.Class == d.Class {
		return c, false
	}
	sent, ok := decodedOnTheWay(c, d.Where)
	if !ok {
		return c, false
	}
	w, g := cfg.Want(sent), cfg.Impl.Normalize(ctx, sent)
	if !impl.Compare(g, w).Violation() || !keeps(md.Class, probed(ctx, cfg, sent, w, g).Class) {
		return c, false
	}
	return sent, true
}

// keeps reports whether a minimizing step from a case of class from to
// one of class to keeps the case's class: the same class, or a plain
// decode missed that no probe explained on the case found becoming one
// the untyped probe explains once the noise is gone (a refined class, a
// length limit, is never given up for it). minimized sees to it that
// the type left unsaid is one the case found left unsaid too.
func keeps(from, to string) bool {
	return to == from || from == "decode-missed" && to == untypedClass
}

// unsaidTypes is how many types c's schema leaves unsaid that the
// untyped probe would add (addTypes): on subschemas on the way to an
// object or array of the arguments.
func unsaidTypes(c impl.Case) int {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return 0
	}
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return 0
	}
	return addTypes(schema, schema, args)
}

// withTypes is c with "type" added where its schema leaves one unsaid on
// the way to an object or array of the arguments (addTypes), and whether
// one was added.
func withTypes(c impl.Case) (impl.Case, bool) {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return c, false
	}
	args, err := jsonvalue.Parse(c.Args)
	if err != nil || addTypes(schema, schema, args) == 0 {
		return c, false
	}
	c.Schema = schema.Append(nil)
	return c, true
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
// A string decoded where the schema declares neither array nor object,
// that the implementation keeps once the keywords of an array's elements
// or an object's members (`items`, `properties`) are taken out there, is
// decoded-undeclared/inferred: a type inferred from those keywords, not
// decoding blind (inferredFrom).
// A string decoded where `string` is declared, not blindly, that the rule
// decodes once a keyword is taken out, and the implementation the same
// without it, is decoded-keyword-ignored (ignoredKeyword).
// A value converted inside text the rule decodes that is converted the
// same way once that text is sent decoded is coerced, not
// coerced-in-decoded (coercedWhenSent). A plain decode missed that taking
// out the string a type list or an `anyOf` branch admits cures is
// decode-missed/types-added (stringAdmitted); one that taking out a
// `$ref` with a `type` beside it cures, decode-missed/$ref-sibling
// (typeBesideRefDropped).
func probed(ctx context.Context, cfg Config, c impl.Case, want, got impl.Result) diagnose.Diagnosis {
	d := classify(c, want, got)
	if d.Class == diagnose.InDecoded.Class {
		// Text the rule decodes, sent decoded: a miss the implementation
		// makes there too is that place's miss, not one of decoded text
		// (qwen-code decodes no string element of a real array under
		// typed `items`).
		if sent, ok := decodedOnTheWay(c, d.Where); ok {
			if w, g := cfg.Want(sent), cfg.Impl.Normalize(ctx, sent); impl.Compare(g, w).Violation() {
				if p := probed(ctx, cfg, sent, w, g); p.Class != diagnose.InDecoded.Class {
					return p
				}
			}
		}
	}
	if d.Class == "coerced-in-decoded" && coercedWhenSent(ctx, cfg, c, d) {
		d.Class, d.Title = "coerced", diagnose.CoercedTitle("coerced", []string{d.Detail})
	}
	if d.Class == "no-fixpoint" {
		if again, ok := rerun(ctx, cfg, c, got); ok {
			return again
		}
	}
	switch {
	case strings.HasPrefix(d.Class, "error-for-valid-input/") && d.Clause == "reading/4":
		d = errorKeyword(ctx, cfg, c, want, got)
	case strings.HasPrefix(d.Class, "decode-missed") && surrogateMiss(ctx, cfg, c, d.Where):
		d.Class, d.Detail, d.Title, d.Clause = "decode-missed/lone-surrogate", "", "JSON text holding a lone surrogate escape (`\\ud800`), which parses, is not decoded", "reading/5"
	case d.Class == "no-error" && got.Answered() && answersOtherwise(ctx, cfg, c, got):
		// The answer shows a second bug (PHP's `{}` given as `[]`): a
		// class of its own, so that the missing error's counterexample
		// answers what the arguments repaired under `{}` are.
		d.Class, d.Title = "no-error/and-more", d.Title+", and the answer is not even the arguments repaired under `{}`"
	case d.Class == "undecoded/named-two-code-points" && !decodesHTML5Names(ctx, cfg, c.Options):
		// A table without HTML5's names (PHP's, HTML 4.01's) has none of
		// those that stand for two code points either: it is the table.
		d.Class, d.Title = "undecoded/named-not-in-table", "A named reference missing from the implementation's table is not decoded (HTML has 2,125 names)"
	case d.Class == "decode-missed" && long(ctx, cfg, c, d.Where):
		d.Class, d.Detail, d.Title = "decode-missed/long", "", "A stringified array or object past a length is not decoded (the same shape, short, is)"
	case d.Class == "decode-missed" && untyped(ctx, cfg, c):
		d.Class, d.Detail, d.Title = untypedClass, "", untypedTitle
	case d.Class == "decode-missed" && typeBesideRefDropped(ctx, cfg, c):
		d.Class, d.Detail, d.Title, d.Clause = refSiblingClass, "", refSiblingTitle, "reading/4"
	case d.Class == "decode-missed" && stringAdmitted(ctx, cfg, c):
		d.Class, d.Detail, d.Title, d.Clause = typesAddedClass, "", typesAddedTitle, "reading/4"
	case blindClasses[d.Class] && blind(ctx, cfg, c, got):
		d.Class, d.Title, d.Clause, d.Detail = "decoded-undeclared", blindTitle, "rule/2", ""
	case d.Class == "decoded-undeclared":
		if kws := inferredFrom(ctx, cfg, c, d.Where); len(kws) > 0 {
			d.Class, d.Title, d.Clause, d.Detail = inferredClass, inferredTitle(kws), "reading/4", strings.Join(kws, " ")
		}
	case d.Class == "decoded-declared-string":
		if kw := ignoredKeyword(ctx, cfg, c, got); kw != "" {
			where := d.Where
			d = diagnose.Ignored(kw)
			d.Where = where
		}
	}
	return d
}

// coercedWhenSent reports whether a value converted inside text the rule
// decodes (d, of class coerced-in-decoded, on c) is converted the same
// way with that text sent decoded: the conversion is the place's, made in
// a real array as in decoded text (@openclaw/ai makes every element under
// `"items":{"type":"string"}` a string), not one of decoded text.
func coercedWhenSent(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) bool {
	sent, ok := decodedOnTheWay(c, d.Where)
	if !ok {
		return false
	}
	s := classify(sent, cfg.Want(sent), cfg.Impl.Normalize(ctx, sent))
	return s.Class == "coerced" && s.Detail == d.Detail && s.Where == d.Where
}

// ignoredKeyword names the keyword an implementation that decodes a
// string the rule keeps (got, on c) does not follow: of the notable
// keywords c's schema holds, most notable first, the first without which
// the rule decodes as the implementation did, and the implementation
// gives the same as with it. "" when there is none: the string is decoded
// for another reason (a union read wrongly). qwen-code gives a key a
// pattern matches `additionalProperties`' schema: `patternProperties` is
// what it does not follow, not a string it decodes.
func ignoredKeyword(ctx context.Context, cfg Config, c impl.Case, got impl.Result) string {
	for _, kw := range diagnose.Keywords(c.Schema) {
		without, ok := withoutKeyword(c, kw)
		if !ok || !impl.Compare(got, cfg.Want(without)).Same() {
			continue
		}
		if impl.Compare(cfg.Impl.Normalize(ctx, without), got).Same() {
			return kw
		}
	}
	return ""
}

// errorKeyword names an error for arguments the rule repairs (got, on
// c) after the schema keyword it needs: of the notable keywords the
// schema holds, most notable first, the first that taken out takes the
// error away (an answer, or an error of another shape); none when the
// same error stays without each. diagnose alone names the first the
// schema holds, which may be beside the point (`$ref` in a schema whose
// `"$schema"` is what the implementation does not know): the case could
// then not be minimized without it.
func errorKeyword(ctx context.Context, cfg Config, c impl.Case, want, got impl.Result) diagnose.Diagnosis {
	dc := diagnoseCase(c, want, got)
	shape := diagnose.ErrorShape(got.Detail)
	for _, kw := range diagnose.Keywords(c.Schema) {
		without, ok := withoutKeyword(c, kw)
		if !ok {
			continue
		}
		r := cfg.Impl.Normalize(ctx, without)
		if r.Failure != nil || r.Error != "" && diagnose.ErrorShape(r.Detail) == shape {
			continue // the same error without it (or no answer to tell)
		}
		return diagnose.ErrorUnder(dc, kw)
	}
	return diagnose.ErrorUnder(dc, "")
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
	"decoded-undeclared/$ref": true, "decoded-undeclared/$ref-sibling": true, "decoded-undeclared/patternProperties": true, "decoded-undeclared/type": true}

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

// The class of a string decoded where a type is inferred from the
// keywords beside the unsaid `type`.
const inferredClass = "decoded-undeclared/inferred"

// arrayKeywords and objectKeywords say something of an array's elements
// and of an object's members, without saying the type: keywords an
// implementation may infer a type from (@ai-sdk-tool/parser's
// getSchemaType: `items` or `prefixItems`, array; `properties` or
// `additionalProperties`, object). shapeKeywords are both, in the order
// titles name them.
var (
	arrayKeywords = []string{"items", "prefixItems", "additionalItems", "contains", "minItems", "maxItems", "uniqueItems",
		"minContains", "maxContains", "unevaluatedItems"}
	objectKeywords = []string{"properties", "additionalProperties", "patternProperties", "required", "minProperties",
		"maxProperties", "propertyNames", "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties"}
	shapeKeywords = slices.Concat(arrayKeywords, objectKeywords)
)

// inferredFrom names the keywords an implementation infers a type from
// where it decodes a string at where, on c, that the schema declares
// neither array nor object for: with the keywords of shapeKeywords taken
// out of the subschemas that apply there, the implementation keeps the
// string as the rule does; the ones named are those that, taken out
// alone, do the same (all taken out, when none does alone). None when
// the subschemas there hold none of them, or the implementation decodes
// without them as well: decoding blind, wherever, which is not a type
// inferred (nor is a string decoded under `{}`, which holds none).
func inferredFrom(ctx context.Context, cfg Config, c impl.Case, where string) []string {
	if cfg.Impl == nil || cfg.Want == nil {
		return nil
	}
	keeps := func(schema []byte) bool {
		s := c
		s.Schema = schema
		r := cfg.Impl.Normalize(ctx, s)
		return r.Failure == nil && r.Error == "" && bytes.Equal(valueAt(r.Output, where), valueAt(cfg.Want(s).Output, where))
	}
	schema, taken := diagnose.WithoutAt(c.Schema, c.Args, where, shapeKeywords)
	if len(taken) == 0 || !keeps(schema) {
		return nil
	}
	if len(taken) == 1 {
		return taken
	}
	var alone []string
	for _, kw := range taken {
		if s, _ := diagnose.WithoutAt(c.Schema, c.Args, where, []string{kw}); keeps(s) {
			alone = append(alone, kw)
		}
	}
	if len(alone) == 0 {
		return taken
	}
	return alone
}

// inferredTitle is the title of a type inferred from the keywords kws,
// in the order of shapeKeywords: the shapes it decodes are theirs.
func inferredTitle(kws []string) string {
	var shapes []string
	if slices.ContainsFunc(kws, func(kw string) bool { return slices.Contains(arrayKeywords, kw) }) {
		shapes = append(shapes, "array")
	}
	if slices.ContainsFunc(kws, func(kw string) bool { return slices.Contains(objectKeywords, kw) }) {
		shapes = append(shapes, "object")
	}
	return "A `type` is inferred from " + codeList(kws) + " where the schema declares none: a stringified " + strings.Join(shapes, " or ") + " is decoded there"
}

// codeList is names, each as code, joined by commas and a last "or".
func codeList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	if len(quoted) < 2 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

// long reports whether the string at where in c's arguments is at least
// LongText bytes and the implementation decodes "[]" or "{}" there (the
// shape the string has).
func long(ctx context.Context, cfg Config, c impl.Case, where string) bool {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return false
	}
	v := args.Resolve("#" + where)
	if v == nil || v.Kind != jsonvalue.String || len(v.Str) < LongText {
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

// answersOtherwise reports whether got, an answer where the rule rejects
// c, differs from what the arguments repaired under the schema `{}` are
// (for arguments the rule repairs under it: an object, nested within the
// limit).
func answersOtherwise(ctx context.Context, cfg Config, c impl.Case, got impl.Result) bool {
	free := c
	free.Schema = []byte(`{}`)
	w := cfg.Want(free)
	return w.Answered() && !impl.Compare(got, w).Same()
}

// decodesHTML5Names reports whether the implementation decodes `&Afr;`
// (𝔄), a name HTML5 added, of one code point, under the options o.
func decodesHTML5Names(ctx context.Context, cfg Config, o impl.Options) bool {
	c := impl.Case{Schema: []byte(`{}`), Args: []byte(`{"":"&Afr;"}`), Options: o}
	return impl.Compare(cfg.Impl.Normalize(ctx, c), cfg.Want(c)).Same()
}

// surrogateMiss reports whether a decode missed at where, on c, is made
// by a lone surrogate escape in the text there (`\ud800`, which JSON's
// grammar allows and PHP's json_decode refuses): the same text with each
// lone surrogate written as another character is decoded.
func surrogateMiss(ctx context.Context, cfg Config, c impl.Case, where string) bool {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return false
	}
	v := args.Resolve("#" + where)
	if v == nil || v.Kind != jsonvalue.String {
		return false
	}
	fixed, ok := diagnose.WithoutLoneSurrogateEscapes(v.Str)
	if !ok {
		return false
	}
	v.Str = fixed
	s := c
	s.Args = args.Append(nil)
	return impl.Compare(cfg.Impl.Normalize(ctx, s), cfg.Want(s)).Same()
}

func classify(c impl.Case, want, got impl.Result) diagnose.Diagnosis {
	return diagnose.Classify(diagnoseCase(c, want, got))
}

func diagnoseCase(c impl.Case, want, got impl.Result) diagnose.Case {
	return diagnose.Case{Schema: c.Schema, Args: c.Args, Attribute: c.Options.Profile == normalize.Attribute,
		MaxPasses: c.Options.MaxPasses, Want: want, Got: got}
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
	typed, ok := withTypes(c)
	return ok && impl.Compare(cfg.Impl.Normalize(ctx, typed), cfg.Want(typed)).Same()
}

// addTypes adds "type" to s, to the branches of its allOf, anyOf and
// oneOf and what its local `$ref` leads to (in root), and to the
// subschemas properties and items declare for v's members and elements,
// where they have none; it returns how many it added. A branch or a
// target that declares neither members nor items is left as it is: it
// says nothing on the way. Each subschema is visited once for each value.
func addTypes(root, s, v *jsonvalue.Value) int {
	type visit struct{ s, v *jsonvalue.Value }
	seen := map[visit]bool{}
	var add func(s, v *jsonvalue.Value, depth int) int
	add = func(s, v *jsonvalue.Value, depth int) int {
		if s == nil || s.Kind != jsonvalue.Object || depth > 64 || v.Kind != jsonvalue.Object && v.Kind != jsonvalue.Array || seen[visit{s, v}] {
			return 0
		}
		seen[visit{s, v}] = true
		added := 0
		if s.Member("type") == nil {
			s.Members = append([]jsonvalue.Member{{Key: "type", Value: &jsonvalue.Value{Kind: jsonvalue.String, Str: v.Kind.String()}}}, s.Members...)
			added++
		}
		var via []*jsonvalue.Value
		for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
			if bs := s.Member(kw); bs != nil {
				via = append(via, bs.Elems...)
			}
		}
		if r := s.Member("$ref"); r != nil && r.Kind == jsonvalue.String && strings.HasPrefix(r.Str, "#") {
			via = append(via, root.Resolve(r.Str))
		}
		for _, b := range via {
			if b.Member("properties") != nil || b.Member("items") != nil {
				added += add(b, v, depth+1)
			}
		}
		for _, m := range v.Members {
			added += add(s.Member("properties").Member(m.Key), m.Value, depth+1)
		}
		for _, e := range v.Elems {
			added += add(s.Member("items"), e, depth+1)
		}
		return added
	}
	return add(s, v, 0)
}

// The class and titles of types added up across `type` and the branches
// of combinators, where the rule intersects them.
const (
	typesAddedClass = "decode-missed/types-added"
	typesAddedTitle = "The types of `type` and of the branches of `allOf`, `anyOf`, `oneOf` are added up where the rule intersects them: a string one of them admits keeps the value a string"
	typesAddedBoth  = "The types of `type` and of the branches of `allOf`, `anyOf`, `oneOf` are added up where the rule intersects them (`allOf` read as a union): a shape one `allOf` branch declares and another excludes is substituted, and a string one of them admits keeps the value a string"
)

// The class and title of a decode missed that reversing `allOf`'s
// branches cures: the branches' order, which the rule does not read,
// decides what is declared.
const (
	allOfFirstClass = "decode-missed/allOf-first"
	allOfFirstTitle = "Of the `allOf` branches that declare one member, only the first is read: what a later branch declares there is not followed (the branches' order decides)"
)

// unionTitle is the title of a union that keeps a branch's repair only
// where that one branch takes the whole value.
const unionTitle = "A union (`anyOf`/`oneOf`) keeps a repair only where one branch takes the whole repaired value: an element no branch takes as it is (a plain string, or one only another branch takes) leaves the others strings"

// The class and title of a decode missed where a `type` beside `$ref`
// is dropped.
const (
	refSiblingClass = "decode-missed/$ref-sibling"
	refSiblingTitle = "A `type` beside `$ref` is dropped, where 2020-12 applies both: what `$ref` leads to is read in the schema's place"
)

// typeBesideRefDropped reports whether a plain decode missed on c, whose
// schema has a `type` beside a `$ref`, is cured by taking out each such
// `$ref`: the `type` beside it is what the implementation does not read
// (qwen-code's resolvePropSchema puts the target in the schema's place).
// No request when the schema has no `type` beside a `$ref`.
func typeBesideRefDropped(ctx context.Context, cfg Config, c impl.Case) bool {
	if cfg.Impl == nil || cfg.Want == nil {
		return false
	}
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return false
	}
	found := false
	diagnose.WalkSchemas(schema, func(s *jsonvalue.Value) {
		if s.Member("$ref") != nil && s.Member("type") != nil {
			s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "$ref" })
			found = true
		}
	})
	if !found {
		return false
	}
	t := c
	t.Schema = schema.Append(nil)
	return impl.Compare(cfg.Impl.Normalize(ctx, t), cfg.Want(t)).Same()
}

// stringAdmitted reports whether a plain decode missed on c is cured by
// taking out the string a `type` list or an `anyOf` branch admits
// beside the declared shape (withoutStringInLists), which the rule
// intersects away: the types added up (qwen-code's getAcceptedTypes adds
// an `anyOf`'s string branch to a `"type": "array"` beside it). No
// request when the schema admits no such string.
func stringAdmitted(ctx context.Context, cfg Config, c impl.Case) bool {
	t, ok := withoutStringInLists(c)
	if !ok || cfg.Impl == nil || cfg.Want == nil {
		return false
	}
	return impl.Compare(cfg.Impl.Normalize(ctx, t), cfg.Want(t)).Same()
}

// ofPlainest tells a keyword not followed from a miss behind a keyword
// the implementation follows: a decode missed behind the route d.Detail
// is put down to the route only when the implementation misses the
// plainest case of that route too (only the route's keywords between the
// root and a string of the shape, plainestRoute). When it misses that
// case, and the same case without the route's combinators and `$ref`
// as well, it is the plain miss (decode-missed: qwen-code decodes no
// string element of a real array of arrays, behind `anyOf` or not). When
// it decodes that case, the real cause is looked for on c, the finding's
// minimized case: elements a union repairs one at a time and misses
// together (decode-missed/union: @openclaw/ai's coerceWithUnionSchema
// keeps a branch's repair only where that branch validates the whole
// value); a string a `type` list admits, without which the
// implementation decodes (typesAddedClass: qwen-code's getAcceptedTypes
// adds up the types of every branch); a `$ref` followed as a plain `#/`
// pointer and missed in another form (the route's `$ref` becomes
// diagnose.RefOther); `allOf` branches read in order, which reversing
// them cures (allOfFirstClass: qwen-code's getEffectiveProperties takes
// the first branch's declaration of a member). d is returned as it is
// otherwise.
func ofPlainest(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) diagnose.Diagnosis {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return d
	}
	same := func(t impl.Case) bool {
		t.Options = c.Options
		return impl.Compare(cfg.Impl.Normalize(ctx, t), cfg.Want(t)).Same()
	}
	route := strings.Split(d.Detail, "/")
	prefix, ok := routePrefix(c, d.Where, route)
	if !ok {
		return d
	}
	p, ok := plainestRoute(prefix, route, d.Shape)
	if !ok {
		// No plainest form of the route (`items` as a list): the place
		// declared with plain nesting, missed too, is the plain miss.
		if q, ok := plainestRoute(prefix, nesting(route), d.Shape); ok && !slices.Equal(nesting(route), route) && !same(q) {
			d.Class, d.Detail, d.Title, d.Clause = "decode-missed", "", diagnose.MissedTitle(d.Shape, ""), "rule/2"
			return d
		}
		// A route with a step of no plainest form ($dynamicRef), through
		// `$ref`s none of which is a plain `#/` pointer, of an
		// implementation that follows the plain pointer: the `$ref`s'
		// form is what it misses first.
		if route[0] == "$ref" && !plainPointer(c.Schema) {
			if whole, ok := routePrefix(c, d.Where, nil); ok {
				if p, ok := plainestRoute(whole, []string{"$ref"}, d.Shape); ok && same(p) {
					return refOther(d, route)
				}
			}
		}
		return d
	}
	if !same(p) {
		// Missed there too: the keywords are not the cause when the same
		// place, declared with plain nesting alone (`properties`, `items`
		// on the way) or without the combinators and `$ref`, is missed as
		// well (an implementation that reads only the top level misses
		// everything below it, behind a keyword or not).
		plain := slices.DeleteFunc(slices.Clone(route), func(st string) bool {
			return st == "$ref" || st == "allOf" || st == "anyOf" || st == "oneOf"
		})
		for _, r := range [][]string{nesting(route), plain} {
			if r == nil || slices.Equal(r, route) {
				continue
			}
			if q, ok := plainestRoute(prefix, r, d.Shape); ok && !same(q) {
				d.Class, d.Detail, d.Title, d.Clause = "decode-missed", "", diagnose.MissedTitle(d.Shape, ""), "rule/2"
				break
			}
		}
		return d
	}
	if slices.Contains(route, "anyOf") || slices.Contains(route, "oneOf") {
		if cuts := cutElements(c, d.Where); len(cuts) > 1 && !slices.ContainsFunc(cuts, func(t impl.Case) bool { return !same(t) }) {
			d.Class, d.Detail, d.Title, d.Clause = "decode-missed/union", "", unionTitle, "reading/4"
			return d
		}
	}
	if t, ok := withoutStringInLists(c); ok && same(t) {
		d.Class, d.Detail, d.Title, d.Clause = typesAddedClass, "", typesAddedTitle, "reading/4"
		return d
	}
	if slices.Contains(route, "allOf") {
		if t, ok := reversedAllOf(c); ok && same(t) {
			d.Class, d.Detail, d.Title, d.Clause = allOfFirstClass, "", allOfFirstTitle, "reading/4"
			return d
		}
	}
	if slices.Contains(route, "$ref") {
		return refOther(d, route)
	}
	return d
}

// nesting is route with each step down made plain (`properties` for a
// member, `items` for an element) and the steps that stay in place
// (combinators, `$ref`) left out: the same place, declared the plainest
// way; nil when a step has no plain form.
func nesting(route []string) []string {
	out := []string{}
	for _, st := range route {
		switch st {
		case "properties", "additionalProperties", "patternProperties":
			out = append(out, "properties")
		case "items", "prefixItems", "items[]", "additionalItems":
			out = append(out, "items")
		case "allOf", "anyOf", "oneOf", "$ref":
		default:
			return nil
		}
	}
	return out
}

// refOther is d, a decode missed behind route, with the route's `$ref`
// steps made diagnose.RefOther.
func refOther(d diagnose.Diagnosis, route []string) diagnose.Diagnosis {
	for i, st := range route {
		if st == "$ref" {
			route[i] = diagnose.RefOther
		}
	}
	d.Detail = strings.Join(route, "/")
	d.Title = diagnose.KeywordTitle([]string{d.Detail})
	return d
}

// plainPointer reports whether the schema text holds a `$ref` that is a
// `#/` pointer without a %-escape, outside any resource an `$id` below
// the root embeds.
func plainPointer(schema []byte) bool {
	v, err := jsonvalue.Parse(schema)
	if err != nil {
		return false
	}
	var walk func(v *jsonvalue.Value, embedded bool, depth int) bool
	walk = func(v *jsonvalue.Value, embedded bool, depth int) bool {
		if depth > 200 {
			return false
		}
		if depth > 0 && (v.Member("$id") != nil || v.Member("id") != nil) {
			embedded = true
		}
		if r := v.Member("$ref"); !embedded && r != nil && r.Kind == jsonvalue.String && strings.HasPrefix(r.Str, "#/") && !strings.Contains(r.Str, "%") {
			return true
		}
		for _, m := range v.Members {
			if walk(m.Value, embedded, depth+1) {
				return true
			}
		}
		return slices.ContainsFunc(v.Elems, func(e *jsonvalue.Value) bool { return walk(e, embedded, depth+1) })
	}
	return walk(v, false, 0)
}

// routePrefix is the kinds of the containers (object or array) on the way
// to where in c's arguments, as sent, before the route begins: the steps
// of where the route's own steps (a member, an element) do not take. It
// reports false when the way passes through a string, or the route takes
// more steps than where has.
func routePrefix(c impl.Case, where string, route []string) ([]jsonvalue.Kind, bool) {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return nil, false
	}
	toks := jsonvalue.PointerTokens(where)
	n := len(toks)
	for _, st := range route {
		switch st {
		case "properties", "additionalProperties", "patternProperties", "items", "items[]", "prefixItems", "additionalItems":
			n--
		}
	}
	if n < 0 {
		return nil, false
	}
	var kinds []jsonvalue.Kind
	v := args
	for _, tok := range toks[:n] {
		if v.Kind != jsonvalue.Object && v.Kind != jsonvalue.Array {
			return nil, false
		}
		kinds = append(kinds, v.Kind)
		if v = v.Step(tok); v == nil {
			return nil, false
		}
	}
	return kinds, true
}

// plainestRoute is the plainest case of the route (keywords and the
// "properties" and "items" steps between them, as a decode missed's
// detail gives them) to a stringified shape ("array" or "object"), as
// deep in the arguments as the finding's (prefix, the containers before
// the route: a member named "" of a typed object, or an element of a
// typed array, for each): each step its plainest (a combinator of one
// branch, a `#/$defs/…` pointer, a pattern "" that matches every key, a
// member named "", one element), and the empty text of the shape where
// the route ends, under a plain `type`. It reports false for a step it
// has no plainest form of, another shape, or a route that does not begin
// with an object at the root.
func plainestRoute(prefix []jsonvalue.Kind, route []string, shape string) (impl.Case, bool) {
	// Not empty: a program that gives `{}` as `[]` (PHP's arrays) misses
	// no declaration on `{"a":0}`.
	var text string
	switch shape {
	case "array":
		text = `"[0]"`
	case "object":
		text = `"{\"a\":0}"`
	default:
		return impl.Case{}, false
	}
	s, v := `{"type":"`+shape+`"}`, text
	var defs []string
	for i := len(route) - 1; i >= 0; i-- {
		switch st := route[i]; st {
		case "allOf", "anyOf", "oneOf":
			s = `{"` + st + `":[` + s + `]}`
		case "$ref":
			name := "t" + strconv.Itoa(len(defs))
			defs = append(defs, `"`+name+`":`+s)
			s = `{"$ref":"#/$defs/` + name + `"}`
		case "properties":
			s, v = `{"type":"object","properties":{"":`+s+`}}`, `{"":`+v+`}`
		case "additionalProperties":
			s, v = `{"type":"object","additionalProperties":`+s+`}`, `{"":`+v+`}`
		case "patternProperties":
			s, v = `{"type":"object","patternProperties":{"":`+s+`}}`, `{"":`+v+`}`
		case "items":
			s, v = `{"type":"array","items":`+s+`}`, `[`+v+`]`
		case "prefixItems":
			s, v = `{"type":"array","prefixItems":[`+s+`]}`, `[`+v+`]`
		case "":
			if len(route) > 1 {
				return impl.Case{}, false
			}
		default:
			return impl.Case{}, false
		}
	}
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] == jsonvalue.Array {
			s, v = `{"type":"array","items":`+s+`}`, `[`+v+`]`
		} else {
			s, v = `{"type":"object","properties":{"":`+s+`}}`, `{"":`+v+`}`
		}
	}
	if !strings.HasPrefix(v, "{") {
		return impl.Case{}, false
	}
	if len(defs) > 0 {
		s = s[:len(s)-1] + `,"$defs":{` + strings.Join(defs, ",") + `}}`
	}
	return impl.Case{Schema: []byte(s), Args: []byte(v)}, true
}

// cutElements is c with the array on the way to where (in the arguments
// as sent, the last one of two elements or more) cut to each of its
// elements in turn: one case for each element; none when the way has no
// such array, or passes through a string (text the rule decodes).
func cutElements(c impl.Case, where string) []impl.Case {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return nil
	}
	toks := jsonvalue.PointerTokens(where)
	at, n := -1, 0 // the tokens before the array, its length
	v := args
	for i, tok := range toks {
		if v.Kind == jsonvalue.String {
			return nil
		}
		if v.Kind == jsonvalue.Array && len(v.Elems) > 1 {
			at, n = i, len(v.Elems)
		}
		if v = v.Step(tok); v == nil {
			return nil
		}
	}
	if at < 0 {
		return nil
	}
	var out []impl.Case
	for j := range n {
		a, _ := jsonvalue.Parse(c.Args)
		arr := a
		for _, tok := range toks[:at] {
			arr = arr.Step(tok)
		}
		arr.Elems = arr.Elems[j : j+1]
		t := c
		t.Args = a.Append(nil)
		out = append(out, t)
	}
	return out
}

// reversedAllOf is c with the branches of every `allOf` of its schema
// in reverse order, and whether one has two branches or more.
func reversedAllOf(c impl.Case) (impl.Case, bool) {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return c, false
	}
	found := false
	diagnose.WalkSchemas(schema, func(s *jsonvalue.Value) {
		if a := s.Member("allOf"); a != nil && a.Kind == jsonvalue.Array && len(a.Elems) > 1 {
			slices.Reverse(a.Elems)
			found = true
		}
	})
	c.Schema = schema.Append(nil)
	return c, found
}

// withoutStringInLists is c with "string" taken out of every `type` list
// of its schema that names another type too, and the branches of an
// `anyOf` or `oneOf` of two branches or more that admit only a string
// taken out, and whether there was one: what the schema admits besides
// the string, which the rule intersects with the types beside it.
func withoutStringInLists(c impl.Case) (impl.Case, bool) {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return c, false
	}
	found := false
	onlyString := func(b *jsonvalue.Value) bool {
		t := b.Member("type")
		switch {
		case t == nil:
			return false
		case t.Kind == jsonvalue.String:
			return t.Str == "string"
		}
		return t.Kind == jsonvalue.Array && len(t.Elems) > 0 && !slices.ContainsFunc(t.Elems, func(e *jsonvalue.Value) bool { return e.Kind != jsonvalue.String || e.Str != "string" })
	}
	diagnose.WalkSchemas(schema, func(s *jsonvalue.Value) {
		for _, kw := range []string{"anyOf", "oneOf"} {
			if u := s.Member(kw); u != nil && u.Kind == jsonvalue.Array && len(u.Elems) > 1 {
				n := len(u.Elems)
				if kept := slices.DeleteFunc(slices.Clone(u.Elems), onlyString); len(kept) > 0 {
					u.Elems = kept
					found = found || len(kept) < n
				}
			}
		}
		t := s.Member("type")
		if t == nil || t.Kind != jsonvalue.Array || len(t.Elems) < 2 {
			return
		}
		n := len(t.Elems)
		t.Elems = slices.DeleteFunc(t.Elems, func(e *jsonvalue.Value) bool { return e.Kind == jsonvalue.String && e.Str == "string" })
		found = found || len(t.Elems) < n
	})
	c.Schema = schema.Append(nil)
	return c, found
}
