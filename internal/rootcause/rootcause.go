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
		each(is, func(ctx context.Context, i int) {
			o := &outcomes[i]
			if o.d.Class != "decode-missed/keyword" {
				o.d = ofOlderDraft(ctx, cfg, o.c, o.got, o.d)
				return
			}
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
		// So is a class whose sample reads as an older draft's: each
		// finding is one only if its own case says so.
		agree := k.class != "decode-missed/keyword" && (first.Class != olderDraftClass || k.class == olderDraftClass)
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
	elems := map[string]bool{}      // one whose misses are all of array elements
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
			at := c // the case where is a place of
			if o.counted {
				at = f.Case
			}
			_, seen := elems[k]
			elems[k] = (!seen || elems[k]) && element(at, where)
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
		// Of the rest, one that shows a second fault only where none
		// shows the class alone.
		deduced := errors.Is(got.Failure, impl.ErrDeduced)
		if !o.counted && (!shown[k] || cmp.Or(cmpBool(deduced, shownDeduced[k]), cmpBool(secondFault(d), secondFault(rc.Diagnosis))) < 0 ||
			deduced == shownDeduced[k] && secondFault(d) == secondFault(rc.Diagnosis) && shows(d.Class, c, rc.Case)) {
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
	// A keyword not followed misses what it declares, and decodes what
	// only it keeps a string (`additionalProperties` applied to a key a
	// `patternProperties` pattern matches): one bug seen both ways, where
	// every keyword ignored is a step of a route the misses name.
	var bothWays []string
	if kw, ig := byClass["decode-missed/keyword"], byClass[diagnose.IgnoredClass]; kw != nil && ig != nil && stepsOf(details["decode-missed/keyword"], details[diagnose.IgnoredClass]) {
		absorb(kw, ig)
		bothWays = details[diagnose.IgnoredClass]
		order = slices.DeleteFunc(order, func(k string) bool { return k == diagnose.IgnoredClass })
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
		fold(madeWhereInferred, inferredClass, "decoded-undeclared")
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
	// The keywords followed only under `"$schema"` 2020-12 are the older
	// draft's too, where other findings show it.
	fold("decode-missed/draft", olderDraftClass)
	out := make([]RootCause, 0, len(order))
	for _, k := range order {
		rc := *byClass[k]
		// In one order, whichever findings came first, so that a title
		// filed upstream is found again by it.
		ds := diagnose.OrderDetails(slices.Clone(details[k]))
		switch {
		case len(ds) > 0 && k == "decode-missed/keyword":
			for _, kw := range keywordsMissed(ctx, cfg, rc.Case.Options) {
				if !slices.Contains(ds, kw) {
					ds = append(ds, kw)
				}
			}
			ds = diagnose.Routes(diagnose.OrderDetails(ds))
			rc.Title = diagnose.KeywordTitle(ds)
			if len(bothWays) > 0 {
				rc.Title = diagnose.KeywordBothWaysTitle(ds, diagnose.OrderDetails(slices.Clone(bothWays)))
			}
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
			switch {
			case !top[k] && elems[k]:
				rc.Title += diagnose.InElements
			case !top[k]:
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
			kws := keywordsOf(ds, shapeKeywords)
			rc.Title, rc.Detail = inferredTitle(kws), strings.Join(kws, " ")
		case k == "decoded-undeclared" && blindSeen[k]:
			// Some decoded under a schema that declares the other shape,
			// or a string: the title that holds for all.
			rc.Title, rc.Detail = blindTitle, ""
			if !blindScalars(ctx, cfg, rc.Case.Options) {
				rc.Title = blindContainersTitle
			}
		case k == "error-for-valid-input/$ref-cycle" && plainCycleAnswered(ctx, cfg, rc.Case.Options):
			if via := combinatorsOf(rc.Case.Schema); len(via) > 0 {
				rc.Title = "An error for arguments under a schema whose `$ref` leads back to itself through " + strings.Join(via, ", ") + " (a recursive schema, which the rule reads as any other); a `$ref` that leads straight back is answered"
			}
		case len(ds) > 0 && k == "object-as-array":
			rc.Title = diagnose.AsArrayTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 1 && k == "wrong-shape" && !undetailed[k]:
			// Both ways: what holds for every finding names them both.
			rc.Title = diagnose.WrongShapeTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case k == untypedClass && rc.Class == k:
			// The keywords of every finding, where each names some.
			rc.Title, rc.Detail = untypedTitle, ""
			if !undetailed[k] {
				kws := keywordsOf(ds, memberKeywords)
				rc.Title, rc.Detail = untypedKeywordTitle(kws), strings.Join(kws, " ")
			}
		case k == "member-dropped/null" && nullKept(ctx, cfg, rc.Case.Options):
			rc.Title = "A member whose value is `null`, where the schema does not admit null, is dropped, key and all"
		case k == "decode-missed/prototype-key" || k == "error-for-valid-input/prototype-key":
			// The names the program trips on, probed: not every name
			// JavaScript objects have.
			errs := k == "error-for-valid-input/prototype-key"
			if names := protoTripped(ctx, cfg, rc.Case.Options, errs); len(names) > 0 {
				rc.Title, rc.Detail = protoMissedTitle(names), strings.Join(names, " ")
				if errs {
					rc.Title = protoErrorTitle(names)
				}
			}
		case len(ds) > 0 && k == "decode-missed/$schema":
			rc.Title = diagnose.MissedSchemaTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 0 && k == "error-for-valid-input/$schema":
			// The `$schema` values its findings show: an implementation
			// that errs under some drafts, not every one.
			rc.Title = diagnose.SchemaErrorTitle(ds)
			rc.Detail = strings.Join(ds, ", ")
		case len(ds) > 0 && (k == "coerced" || k == "coerced-in-decoded"):
			if k == "coerced" {
				for _, conv := range conversions(ctx, cfg, rc.Case.Options) {
					if !slices.Contains(ds, conv) {
						ds = append(ds, conv)
					}
				}
				ds = diagnose.OrderDetails(ds)
			}
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

// The class and title of a decode missed that types added cure.
const (
	untypedClass = "decode-missed/untyped"
	untypedTitle = "Nothing is decoded where the schema leaves a level's `type` unsaid (`\"type\": \"object\"` at the root, `\"type\": \"array\"` above `items`)"
)

// stepsOf reports whether each keyword of kws is a step of one of routes
// ("patternProperties", "$ref/patternProperties").
func stepsOf(routes, kws []string) bool {
	for _, kw := range kws {
		if !slices.ContainsFunc(routes, func(r string) bool { return slices.Contains(strings.Split(r, "/"), kw) }) {
			return false
		}
	}
	return len(kws) > 0
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

// blindContainersTitle is blindTitle for an implementation that keeps a
// scalar's JSON text (`"1"`) and decodes an array's or an object's.
const blindContainersTitle = "A stringified array or object is decoded as JSON whatever the schema declares there, even under the empty schema `{}`"

// combinatorsOf names, as code, the combinators (`allOf`, `anyOf`,
// `oneOf`) that schema text holds, in that order.
func combinatorsOf(schema []byte) []string {
	var out []string
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		if bytes.Contains(schema, []byte(`"`+kw+`"`)) {
			out = append(out, "`"+kw+"`")
		}
	}
	return out
}

// element reports whether where, in c's arguments (the strings on the
// way read as the JSON they hold), is an element of an array.
func element(c impl.Case, where string) bool {
	toks := jsonvalue.PointerTokens(where)
	if len(toks) == 0 {
		return false
	}
	sent, _ := decodedOnTheWay(c, where)
	args, err := jsonvalue.Parse(sent.Args)
	if err != nil {
		return false
	}
	v := args
	for _, tok := range toks[:len(toks)-1] {
		if v = v.Step(tok); v == nil {
			return false
		}
	}
	return v.Kind == jsonvalue.Array
}

// keywordsOf gathers the keywords of details ds (each keywords cut by
// spaces), each once, in the order of order.
func keywordsOf(ds, order []string) []string {
	var kws []string
	for _, d := range ds {
		for _, kw := range strings.Fields(d) {
			if !slices.Contains(kws, kw) {
				kws = append(kws, kw)
			}
		}
	}
	slices.SortStableFunc(kws, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) })
	return kws
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

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
		if impl.Compare(got, want).Violation() && keeps(d, probed(ctx, cfg, c, want, got)) {
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
				if impl.Compare(p.got, p.want).Violation() && keeps(d, probed(ctx, cfg, cases[j], p.want, p.got)) {
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
	if md := probed(ctx, cfg, c, want, got); keeps(d, md) {
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
	if !impl.Compare(g, w).Violation() || !keeps(md, probed(ctx, cfg, sent, w, g)) {
		return c, false
	}
	return sent, true
}

// keeps reports whether a minimizing step from a case diagnosed from to
// one diagnosed to keeps the case's class (and, for the classes of
// detailKept, its detail): the same class, or a plain
// decode missed that no probe explained on the case found becoming one
// the untyped probe explains once the noise is gone (a refined class, a
// length limit, is never given up for it). minimized sees to it that
// the type left unsaid is one the case found left unsaid too.
func keeps(from, to diagnose.Diagnosis) bool {
	if detailKept[from.Class] && to.Class == from.Class && to.Detail != from.Detail {
		return false
	}
	return to.Class == from.Class || from.Class == "decode-missed" && to.Class == untypedClass
}

// detailKept are the classes whose detail says what a case shows (the
// loss of a lossy reading, the conversion of a coercion): a minimizing
// step keeps it, so that the titles, which list the details of the
// cases minimized, list what the findings show (`{"b":"","1":""}`, keys
// moved first, shortened to `{"":"","":""}`, duplicates collapsed, named
// no key order).
var detailKept = map[string]bool{"decoded-json-lossy": true, "artefact/lossy-json": true, "coerced": true, "coerced-in-decoded": true}

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
