package rootcause_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"maps"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/diagnose"
	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/impltest"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/rootcause"
	"github.com/toolnorm/toolnorm/normalize"
)

// buggy is an entity-only decoder with three bugs of its own, behind an
// adapter that reads requests as JavaScript does: it does no JSON repair
// (rule/2), decodes names without regard to case (&Amp; to &, reading/1),
// and its adapter moves integer-like keys first (an artefact).
var buggy = impl.Func("buggy", func(ctx context.Context, c impl.Case) impl.Result {
	c.Schema = []byte(`{}`) // no JSON repair
	r := impl.Reference.Normalize(ctx, c)
	if !r.Answered() {
		return r
	}
	v, err := jsonvalue.Parse([]byte(strings.ReplaceAll(string(r.Output), "&Amp;", "&")))
	if err != nil {
		return impl.OK(r.Output)
	}
	var walk func(v *jsonvalue.Value)
	walk = func(v *jsonvalue.Value) {
		if v.Kind == jsonvalue.Object {
			slices.SortStableFunc(v.Members, func(a, b jsonvalue.Member) int {
				ai, bi := isIndex(a.Key), isIndex(b.Key)
				switch {
				case ai && !bi:
					return -1
				case bi && !ai:
					return 1
				}
				return 0
			})
		}
		for _, m := range v.Members {
			walk(m.Value)
		}
		for _, e := range v.Elems {
			walk(e)
		}
	}
	walk(v)
	return impl.OK(v.Append(nil))
})

func isIndex(k string) bool {
	return k != "" && strings.Trim(k, "0123456789") == "" && (k == "0" || k[0] != '0')
}

func finding(source, id, schema, args string) rootcause.Finding {
	c := impl.Case{Schema: []byte(schema), Args: []byte(args)}
	return rootcause.Finding{Source: source, ID: id, Case: c,
		Want: impl.Reference.Normalize(context.Background(), c), Got: buggy.Normalize(context.Background(), c)}
}

func TestExplain(t *testing.T) {
	findings := []rootcause.Finding{
		finding(rootcause.Vector, "keys.json", `{}`, `{"name":"x","7":1}`),
		finding(rootcause.Vector, "amp.json", `{}`, `{"q":"Ember &Amp; Oak"}`),
		finding(rootcause.Vector, "array.json", `{"properties":{"tags":{"type":"array"}}}`, `{"tags":"[\"a\",\"b\"]","n":1}`),
		finding(rootcause.Vector, "pattern.json", `{"patternProperties":{"^p":{"type":"array"}}}`, `{"p":"[1]"}`),
		finding(rootcause.Vector, "object.json", `{"properties":{"o":{"type":"object"}}}`, `{"o":"{\"k\":[1,2,3]}"}`),
		finding(rootcause.Property, "shape-match-decoded", `{"properties":{"p":{"type":"array","items":{"type":"string"}}},"required":["p"]}`, `{"p":"[\"&amp;\"]","z":"&Amp;"}`),
		finding(rootcause.Bucket, "bucket-a", `{}`, `{"a":{"b":"&Amp;x"}}`),
		finding(rootcause.Bucket, "bucket-b", `{}`, `{"b":1,"0":2}`),
	}
	for _, f := range findings {
		if impl.Compare(f.Got, f.Want).Same() {
			t.Fatalf("%s: no finding: %v", f.ID, f.Got)
		}
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: buggy,
		Want: func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }}, findings)
	var got []string
	for _, rc := range rcs {
		got = append(got, rc.Class)
	}
	// Three bugs and an artefact: the rule's clause first, the reading,
	// then the adapter's, most shown first within each.
	want := []string{"decode-missed", "overdecoded/case-insensitive", "artefact/lossy-json"}
	if !slices.Equal(got, want) {
		t.Fatalf("root causes %v, want %v", got, want)
	}
	// Each finding under exactly one, and each counterexample minimal.
	seen := map[string]int{}
	for _, rc := range rcs {
		for _, id := range slices.Concat(rc.Vectors, rc.Properties, rc.Buckets) {
			seen[id]++
		}
	}
	for _, f := range findings {
		if seen[f.ID] != 1 {
			t.Errorf("%s is under %d root causes", f.ID, seen[f.ID])
		}
	}
	examples := map[string]string{
		"decode-missed":                `{"properties":{"":{"type":"array"}}} {"":"[]"}`,
		"overdecoded/case-insensitive": `{} {"":"&Amp;"}`,
		"artefact/lossy-json":          `{} {"":0,"0":0}`,
	}
	for _, rc := range rcs {
		if got := string(rc.Case.Schema) + " " + string(rc.Case.Args); got != examples[rc.Class] {
			t.Errorf("%s: counterexample %s, want %s", rc.Class, got, examples[rc.Class])
		}
		if rc.Artefact != (rc.Class == "artefact/lossy-json") || rc.Artefact && rc.Fix == "" {
			t.Errorf("%s: artefact %v, fix %q", rc.Class, rc.Artefact, rc.Fix)
		}
	}
	// The decode missed behind patternProperties is the same bug as the
	// plain one: nothing is decoded at all.
	if n := rcs[0].Count(); n != 4 {
		t.Errorf("decode-missed accounts for %d findings, want 4", n)
	}
}

// TestExplainBatched: findings minimized several at a time, their
// requests coalesced into batches (a minimizing step's candidates sent
// together), give the root causes of the findings minimized one after the
// other, one candidate at a time; no case is sent twice, every case the
// serial explanation sends is sent, and one batch is under way at a time
// (a harness.Pool of several processes cuts that batch into runs of its
// own).
func TestExplainBatched(t *testing.T) {
	var findings []rootcause.Finding
	for i := range 20 {
		n := strconv.Itoa(i)
		findings = append(findings,
			finding(rootcause.Vector, "array"+n+".json", `{"properties":{"tags":{"type":"array"},"x`+n+`":{}}}`, `{"tags":"[\"a\",\"b`+n+`\"]","n":`+n+`}`),
			finding(rootcause.Bucket, "amp"+n, `{}`, `{"a":{"b":"&Amp;`+n+`"}}`),
			finding(rootcause.Property, "keys"+n, `{}`, `{"b":1,"`+n+`":2}`))
	}
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	var serial []rootcause.RootCause
	calls := map[string]int{}
	counted := impl.Func("buggy", func(ctx context.Context, c impl.Case) impl.Result {
		calls[impltest.Key(c)]++
		return buggy.Normalize(ctx, c)
	})
	serial = rootcause.Explain(context.Background(), rootcause.Config{Impl: counted, Want: want}, findings)
	synctest.Test(t, func(t *testing.T) {
		// Each batch takes a millisecond (of the bubble's clock), so that
		// batches sent at once would overlap.
		b := &impltest.Recorder{Impl: buggy, Delay: time.Millisecond}
		got := rootcause.Explain(context.Background(), rootcause.Config{Impl: b, Want: want}, findings)
		if !reflect.DeepEqual(got, serial) {
			t.Errorf("batched:\n%+v\none at a time:\n%+v", got, serial)
		}
		if b.MostAtOnce() > 1 {
			t.Errorf("%d batches under way at once", b.MostAtOnce())
		}
		if b.Largest() < 2 {
			t.Errorf("the largest batch had %d case, want several findings' cases together", b.Largest())
		}
		sent := b.Sent()
		for k, n := range sent {
			if n > 1 {
				t.Errorf("case %q sent %d times", k, n)
			}
		}
		for k := range calls {
			if sent[k] == 0 {
				t.Errorf("case %q not sent in batches", k)
			}
		}
		t.Logf("%d cases sent in batches, %d one at a time", len(sent), len(calls))
	})
}

func TestSort(t *testing.T) {
	mk := func(class, clause string, n int, artefact bool) rootcause.RootCause {
		r := rootcause.RootCause{Vectors: make([]string, n)}
		r.Class, r.Clause, r.Artefact = class, clause, artefact
		return r
	}
	rs := []rootcause.RootCause{
		mk("artefact", "reading/7", 90, true),
		mk("failure", "failure", 50, false),
		mk("reading-big", "reading/4", 40, false),
		mk("r4", "rule/4", 1, false),
		mk("r5", "rule/5", 2, false),
		mk("reading-small", "reading/1", 3, false),
		mk("r3", "rule/3", 1, false),
		mk("r2-small", "rule/2", 1, false),
		mk("r2-big", "rule/2", 5, false),
	}
	rootcause.Sort(rs)
	var got []string
	for _, r := range rs {
		got = append(got, r.Class)
	}
	want := []string{"r2-big", "r2-small", "r3", "r5", "r4", "reading-big", "reading-small", "failure", "artefact"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestUntyped: an implementation that decodes only under a root that says
// "type": "object" has its own root cause, not the one of an
// implementation that decodes nothing.
func TestUntyped(t *testing.T) {
	typedOnly := impl.Func("typed-only", func(ctx context.Context, c impl.Case) impl.Result {
		if !strings.Contains(string(c.Schema), `"type":"object"`) {
			c.Schema = []byte(`{}`)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	c := impl.Case{Schema: []byte(`{"properties":{"p":{"type":"array"}}}`), Args: []byte(`{"p":"[1]","q":2}`)}
	f := rootcause.Finding{Source: rootcause.Vector, ID: "v", Case: c, Want: impl.Reference.Normalize(context.Background(), c), Got: typedOnly.Normalize(context.Background(), c)}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: typedOnly,
		Want: func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }}, []rootcause.Finding{f})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/untyped" {
		t.Fatalf("root causes %+v", rcs)
	}
	if got := string(rcs[0].Case.Schema) + " " + string(rcs[0].Case.Args); got != `{"properties":{"":{"type":"array"}}} {"":"[]"}` {
		t.Errorf("counterexample %s", got)
	}
}

// TestTypedStaysTyped: a miss under a schema that says a level's type
// is not minimized into one that leaves it unsaid, though the
// implementation misses there too: the type is not what made it miss on
// the case found, and the counterexample would show a second bug
// (openclaw's miss behind patternProperties was counted
// decode-missed/untyped once minimizing dropped the root's type; later,
// shown as `{"patternProperties":{"y$":{"type":"array"}}}`, it showed both
// bugs; its miss behind a union of typed branches was filed under the
// untyped root cause once the branches' and the root's types were gone).
func TestTypedStaysTyped(t *testing.T) {
	// typedX decodes only under a root that says "type": "object", and
	// nothing where a member's key starts with "x", nor in a schema with
	// patternProperties or anyOf.
	typedX := impl.Func("typed-x", func(ctx context.Context, c impl.Case) impl.Result {
		args, err := jsonvalue.Parse(c.Args)
		if !strings.HasPrefix(string(c.Schema), `{"type":"object"`) || err == nil && slices.ContainsFunc(args.Members, func(m jsonvalue.Member) bool { return strings.HasPrefix(m.Key, "x") }) ||
			strings.Contains(string(c.Schema), "patternProperties") || strings.Contains(string(c.Schema), "anyOf") {
			c.Schema = []byte(`{}`)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	for _, tt := range []struct {
		name, schema, args, class string
		keep                      []string // in the counterexample's schema or arguments
	}{
		// The x member, what makes it miss, stays.
		{"plain", `{"type":"object","properties":{"p":{"type":"array"}}}`, `{"p":"[1]","x":1}`, "decode-missed", []string{`"x`}},
		{"patternProperties", `{"type":"object","patternProperties":{"y$":{"type":"array"}}}`, `{"y":"[]"}`, "decode-missed/keyword", []string{`{"type":"object"`}},
		{"anyOf", `{"type":"object","properties":{"p":{"anyOf":[{"type":"array","items":{"type":"array"}},{"type":"array","items":{"type":"object"}}]}}}`, `{"p":["[1]","{}"]}`,
			"decode-missed/keyword", []string{`{"type":"object","properties"`, `{"type":"array","items"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := marked(typedX, "v", tt.schema, tt.args)
			rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: typedX, Want: want}, []rootcause.Finding{f})
			if len(rcs) != 1 || rcs[0].Class != tt.class {
				t.Fatalf("root causes %+v, want one %s", rcs, tt.class)
			}
			got := string(rcs[0].Case.Schema) + " " + string(rcs[0].Case.Args)
			for _, k := range tt.keep {
				if !strings.Contains(got, k) {
					t.Errorf("counterexample %s: %s dropped", got, k)
				}
			}
		})
	}
}

// TestShownSaysTypes: of the counterexamples of a decode missed, the one
// shown leaves the fewest types unsaid, then is the smallest: a case
// found under a root whose type is unsaid keeps it unsaid, and shows the
// untyped root cause as well (openclaw's patternProperties miss found by
// fuzzing, smaller than its `$ref` miss under a typed root).
func TestShownSaysTypes(t *testing.T) {
	// typedP decodes only under a root that says "type": "object", and
	// does not follow patternProperties or $ref.
	typedP := impl.Func("typed-p", func(ctx context.Context, c impl.Case) impl.Result {
		if s := string(c.Schema); !strings.HasPrefix(s, `{"type":"object"`) || strings.Contains(s, "patternProperties") || strings.Contains(s, "$ref") {
			c.Schema = []byte(`{}`)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: typedP, Want: want}, []rootcause.Finding{
		marked(typedP, "untyped", `{"patternProperties":{"":{"type":"array"}}}`, `{"":"[]"}`),
		marked(typedP, "typed", `{"type":"object","properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"array"}}}`, `{"p":"[]"}`),
	})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" || rcs[0].Count() != 2 {
		t.Fatalf("root causes %+v, want one decode-missed/keyword of both", rcs)
	}
	if s := string(rcs[0].Case.Schema); !strings.HasPrefix(s, `{"type":"object"`) {
		t.Errorf("counterexample %s %s: its root's type unsaid, where the other says it", s, rcs[0].Case.Args)
	}
}

// TestFixpointRerun: an implementation that decodes to the fixpoint but
// never decodes `&#0;` leaves `&#0;` of `&amp;#0;`: run again on what it
// gave, it changes nothing, so that is no decoding stopped short but the
// inner reference's own bug, one root cause with `&#0;` itself.
func TestFixpointRerun(t *testing.T) {
	noNull := impl.Func("no-null", func(ctx context.Context, c impl.Case) impl.Result {
		s := string(c.Args)
		for {
			next := strings.NewReplacer("&amp;", "&", "&lt;", "<").Replace(s)
			if next == s {
				return impl.OK([]byte(s))
			}
			s = next
		}
	})
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	var findings []rootcause.Finding
	for _, args := range []string{`{"a":"x &amp;#0; y"}`, `{"b":"&#0;"}`} {
		c := impl.Case{Schema: []byte(`{}`), Args: []byte(args)}
		findings = append(findings, rootcause.Finding{Source: rootcause.Vector, ID: args, Case: c, Want: want(c), Got: noNull.Normalize(context.Background(), c)})
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: noNull, Want: want}, findings)
	if len(rcs) != 1 || rcs[0].Class != "undecoded/numeric-null" || rcs[0].Count() != 2 {
		for _, rc := range rcs {
			t.Logf("%s (%d): %s", rc.Class, rc.Count(), rc.Case.Args)
		}
		t.Fatalf("%d root causes, want one undecoded/numeric-null of both findings", len(rcs))
	}
}

// TestLossyTitle: a lossy reader is one root cause whatever losses its
// findings show, and its title names them, in one order.
func TestLossyTitle(t *testing.T) {
	lossyDecoder := impl.Func("lossy", func(ctx context.Context, c impl.Case) impl.Result {
		r := impl.Reference.Normalize(ctx, c)
		s := strings.NewReplacer(`{"k":1,"k":2}`, `{"k":2}`, `[1e400]`, `[null]`).Replace(string(r.Output))
		return impl.OK([]byte(s))
	})
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	var findings []rootcause.Finding
	for _, args := range []string{`{"p":"{\"k\":1,\"k\":2}"}`, `{"p":"[1e400]"}`} {
		c := impl.Case{Schema: []byte(`{"properties":{"p":{"type":["object","array"]}}}`), Args: []byte(args)}
		findings = append(findings, rootcause.Finding{Source: rootcause.Vector, ID: args, Case: c, Want: want(c), Got: lossyDecoder.Normalize(context.Background(), c)})
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: lossyDecoder, Want: want}, findings)
	if len(rcs) != 1 || rcs[0].Class != "decoded-json-lossy" {
		t.Fatalf("root causes %+v", rcs)
	}
	if !strings.Contains(rcs[0].Title, "duplicate") || !strings.Contains(rcs[0].Title, "1e400") {
		t.Errorf("title %q does not name both losses", rcs[0].Title)
	}
	// The same title whichever order the findings come in (which ones a
	// check meets first depends on its seed and on the other findings):
	// a maintainer who filed it finds it again by its title.
	slices.Reverse(findings)
	if again := rootcause.Explain(context.Background(), rootcause.Config{Impl: lossyDecoder, Want: want}, findings); len(again) != 1 || again[0].Title != rcs[0].Title {
		t.Errorf("the findings reversed, title %q, was %q", again[0].Title, rcs[0].Title)
	}
}

// TestCoercedTitle: a root cause of values converted names every
// conversion its findings show, in one order, not the first finding's.
func TestCoercedTitle(t *testing.T) {
	// coercer converts a string to the boolean or number it spells.
	coercer := impl.Func("coercer", func(ctx context.Context, c impl.Case) impl.Result {
		r := impl.Reference.Normalize(ctx, c)
		return impl.OK([]byte(strings.NewReplacer(`"true"`, `true`, `"5"`, `5`).Replace(string(r.Output))))
	})
	findings := []rootcause.Finding{
		marked(coercer, "b", `{"properties":{"b":{"type":"boolean"}}}`, `{"b":"true"}`),
		marked(coercer, "n", `{"properties":{"n":{"type":"integer"}}}`, `{"n":"5"}`),
	}
	titles := titlesBothOrders(t, coercer, "coerced", findings)
	if titles[0] != titles[1] || !strings.HasSuffix(titles[0], "(string to boolean, string to number)") {
		t.Errorf("titles %q: want one, naming both conversions in one order", titles)
	}
}

// TestKeywordTitleStable: a root cause of keywords not followed names them
// in one order, whichever order its findings come in.
func TestKeywordTitleStable(t *testing.T) {
	// noCombinators decodes nothing behind anyOf, oneOf or $ref.
	noCombinators := impl.Func("no-combinators", func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Schema, []byte(`"anyOf"`)) || bytes.Contains(c.Schema, []byte(`"oneOf"`)) || bytes.Contains(c.Schema, []byte(`"$ref"`)) {
			c.Schema = []byte(`{}`)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	findings := []rootcause.Finding{
		marked(noCombinators, "a", `{"properties":{"p":{"anyOf":[{"type":"array"}]}}}`, `{"p":"[1]"}`),
		marked(noCombinators, "o", `{"properties":{"p":{"oneOf":[{"type":"array"}]}}}`, `{"p":"[1]"}`),
		marked(noCombinators, "r", `{"$defs":{"a":{"type":"array"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`, `{"p":"[1]"}`),
	}
	var titles []string
	for range 3 {
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: noCombinators, Want: want}, findings)
		if len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" {
			t.Fatalf("root causes %+v, want one decode-missed/keyword", rcs)
		}
		titles = append(titles, rcs[0].Title)
		findings = append(findings[1:], findings[0])
	}
	if titles[0] != titles[1] || titles[1] != titles[2] || !strings.Contains(titles[0], "`$ref`, `anyOf`, `oneOf`") {
		t.Errorf("titles %q: want one, naming `$ref`, `anyOf`, `oneOf` in that order", titles)
	}
}

// TestKeywordRoutes: a keyword title names the way to the declaration
// each finding shows, and no shorter one: an implementation that follows
// `anyOf` at a position but not into the members a branch declares is
// not said to miss `anyOf`; one that misses `$ref` outright is not said
// to miss `$ref` then `properties` besides.
func TestKeywordRoutes(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	// branchTops reads the branches of anyOf for their types only.
	var strip func(v *jsonvalue.Value, inBranch bool)
	strip = func(v *jsonvalue.Value, inBranch bool) {
		for i, m := range v.Members {
			if inBranch && m.Key == "properties" {
				v.Members[i].Key = "x-properties"
			}
			strip(m.Value, m.Key == "anyOf")
		}
		for _, e := range v.Elems {
			strip(e, inBranch)
		}
	}
	branchTops := impl.Func("branch-tops", func(ctx context.Context, c impl.Case) impl.Result {
		if s, err := jsonvalue.Parse(c.Schema); err == nil {
			strip(s, false)
			c.Schema = s.Append(nil)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	findings := []rootcause.Finding{
		marked(branchTops, "through", `{"anyOf":[{"properties":{"p":{"type":"array"}}}]}`, `{"p":"[1]"}`),
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: branchTops, Want: want}, findings)
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" || !strings.Contains(rcs[0].Title, "through `anyOf` then `properties` are") {
		t.Errorf("root causes %+v, want one decode-missed/keyword through `anyOf` then `properties`", rcs)
	}
	noRef := impl.Func("no-ref", func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Schema, []byte(`"$ref"`)) {
			c.Schema = []byte(`{}`)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	findings = []rootcause.Finding{
		marked(noRef, "ref", `{"$defs":{"a":{"type":"array"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`, `{"p":"[1]"}`),
		marked(noRef, "ref-properties", `{"$defs":{"a":{"properties":{"q":{"type":"array"}}}},"properties":{"p":{"$ref":"#/$defs/a"}}}`, `{"p":{"q":"[1]"}}`),
	}
	rcs = rootcause.Explain(context.Background(), rootcause.Config{Impl: noRef, Want: want}, findings)
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" || rcs[0].Count() != 2 || !strings.HasPrefix(rcs[0].Title, "Declarations through `$ref` are") {
		t.Errorf("root causes %+v, want one decode-missed/keyword through `$ref` of both", rcs)
	}
}

// TestUntypedBranch: an implementation that reads `properties` only
// beside a `type` misses a member an `allOf` branch declares when the
// branch leaves its type unsaid, and follows `allOf` once the branch says
// it: a type unsaid, not a keyword not followed.
func TestUntypedBranch(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	var strip func(v *jsonvalue.Value)
	strip = func(v *jsonvalue.Value) {
		if v.Kind == jsonvalue.Object && v.Member("type") == nil {
			for i, m := range v.Members {
				if m.Key == "properties" {
					v.Members[i].Key = "x-properties"
				}
			}
		}
		for _, m := range v.Members {
			strip(m.Value)
		}
		for _, e := range v.Elems {
			strip(e)
		}
	}
	typedOnly := impltest.ReadsSchema("typed-only", strip)
	findings := []rootcause.Finding{
		marked(typedOnly, "allOf", `{"type":"object","allOf":[{"properties":{"p":{"type":"array"}}}]}`, `{"p":"[1]"}`),
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: typedOnly, Want: want}, findings)
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/untyped" {
		t.Errorf("root causes %+v, want one decode-missed/untyped", rcs)
	}
	// An implementation that decodes every member blind once the root
	// says "object", and does not follow anyOf: the types added cure the
	// miss without the keyword, which is still not followed.
	blindTyped := impl.Func("blind-typed", func(ctx context.Context, c impl.Case) impl.Result {
		if s, err := jsonvalue.Parse(c.Schema); err == nil && s.Member("type") != nil {
			c.Schema = []byte(`{"additionalProperties":{"type":["array","object"]}}`)
		}
		c.Schema = bytes.ReplaceAll(c.Schema, []byte(`"anyOf"`), []byte(`"x-anyOf"`))
		return impl.Reference.Normalize(ctx, c)
	})
	findings = []rootcause.Finding{
		marked(blindTyped, "anyOf", `{"anyOf":[{"properties":{"p":{"type":"array"}}}]}`, `{"p":"[1]"}`),
	}
	rcs = rootcause.Explain(context.Background(), rootcause.Config{Impl: blindTyped, Want: want}, findings)
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" {
		t.Errorf("root causes %+v, want one decode-missed/keyword", rcs)
	}
}

// TestTypeListTitle: a plain decode missed says "in a `type` list" when
// every finding of it misses under a type list, and not when one misses
// a plain type.
func TestTypeListTitle(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	listBlind := impl.Func("list-blind", func(ctx context.Context, c impl.Case) impl.Result {
		c.Schema = bytes.ReplaceAll(c.Schema, []byte(`"type":[`), []byte(`"x-type":[`))
		return impl.Reference.Normalize(ctx, c)
	})
	cases := [][2]string{
		{`{"properties":{"p":{"type":["array"]}}}`, `{"p":"[1]"}`},
		{`{"properties":{"p":{"type":"array"}}}`, `{"p":"[1]"}`},
	}
	for _, tt := range []struct {
		im    impl.Impl
		n     int
		title string
	}{
		{listBlind, 1, "A stringified array is not decoded where the schema declares array in a `type` list"},
		{buggy, 2, "A stringified array is not decoded where the schema declares array"},
	} {
		var findings []rootcause.Finding
		for _, c := range cases {
			if f := marked(tt.im, c[0], c[0], c[1]); !impl.Compare(f.Got, f.Want).Same() {
				findings = append(findings, f)
			}
		}
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: tt.im, Want: want}, findings)
		if len(rcs) != 1 || rcs[0].Class != "decode-missed" || rcs[0].Count() != tt.n || rcs[0].Title != tt.title {
			t.Errorf("%s: root causes %+v, want one decode-missed of %d titled %q", tt.im.Name(), rcs, tt.n, tt.title)
		}
	}
}

// TestErrorKeyword: an error is named after the keyword it needs, as
// taking each out shows, not the first of the notable keywords the schema
// holds: an implementation that knows no draft-04 errors under
// `"$schema"` draft-04 whether or not a `$ref` is there, and the
// counterexample loses the `$ref`.
func TestErrorKeyword(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	noDraft4 := impl.Func("no-draft-04", func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Schema, []byte(`draft-04`)) {
			return impl.Reject(impl.ErrUnspecified, `no schema with key or ref "http://json-schema.org/draft-04/schema#"`)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	findings := []rootcause.Finding{
		marked(noDraft4, "draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{"l":{"id":"#list","type":"array"}},"properties":{"a":{"$ref":"#list"}}}`, `{"a":"[1]"}`),
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: noDraft4, Want: want}, findings)
	if len(rcs) != 1 || rcs[0].Class != "error-for-valid-input/$schema" || bytes.Contains(rcs[0].Case.Schema, []byte(`$ref`)) {
		for _, rc := range rcs {
			t.Logf("%s: %s %s", rc.Class, rc.Case.Schema, rc.Case.Args)
		}
		t.Fatalf("%d root causes, want one error-for-valid-input/$schema without `$ref`", len(rcs))
	}
}

// TestDraftDefault: an implementation that reads a schema without
// `$schema` as draft-07 misses `prefixItems` there and follows it under
// `"$schema"` 2020-12: that is a root cause of its own, apart from a
// keyword it follows under no draft (patternProperties), each with its own
// counterexample. An implementation that follows `prefixItems` under no
// draft either has one root cause of both.
func TestDraftDefault(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	without := func(c impl.Case, kws ...string) impl.Case {
		s := string(c.Schema)
		for _, kw := range kws {
			s = strings.ReplaceAll(s, `"`+kw+`"`, `"x-`+kw+`"`)
		}
		c.Schema = []byte(s)
		return c
	}
	draft07 := impl.Func("draft-07", func(ctx context.Context, c impl.Case) impl.Result {
		c = without(c, "patternProperties")
		if !strings.Contains(string(c.Schema), "2020-12") {
			c = without(c, "prefixItems")
		}
		return impl.Reference.Normalize(ctx, c)
	})
	never := impl.Func("never", func(ctx context.Context, c impl.Case) impl.Result {
		return impl.Reference.Normalize(ctx, without(c, "patternProperties", "prefixItems"))
	})
	cases := []impl.Case{
		{Schema: []byte(`{"properties":{"p":{"type":"array","prefixItems":[{"type":"string"},{"type":"object"}]}}}`), Args: []byte(`{"p":["x","{}"]}`)},
		{Schema: []byte(`{"patternProperties":{"_json$":{"type":"array"}}}`), Args: []byte(`{"ops_json":"[1]","n":2}`)},
	}
	explain := func(im impl.Impl) []rootcause.RootCause {
		var findings []rootcause.Finding
		for i, c := range cases {
			findings = append(findings, rootcause.Finding{Source: rootcause.Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: im.Normalize(context.Background(), c)})
		}
		return rootcause.Explain(context.Background(), rootcause.Config{Impl: im, Want: want}, findings)
	}
	rcs := explain(draft07)
	got := map[string]string{}
	for _, rc := range rcs {
		got[rc.Class] = string(rc.Case.Schema) + " " + string(rc.Case.Args)
	}
	examples := map[string]string{
		// The `type` the case found says stays (see TestTypedStaysTyped).
		"decode-missed/draft":   `{"properties":{"":{"type":"array","prefixItems":[{},{"type":"object"}]}}} {"":["","{}"]}`,
		"decode-missed/keyword": `{"patternProperties":{"":{"type":"array"}}} {"":"[]"}`,
	}
	if len(rcs) != 2 || got["decode-missed/draft"] == "" || got["decode-missed/keyword"] == "" {
		t.Fatalf("root causes %v, want decode-missed/draft and decode-missed/keyword", got)
	}
	for _, rc := range rcs {
		if rc.Count() != 1 {
			t.Errorf("%s accounts for %d findings, want 1", rc.Class, rc.Count())
		}
		if rc.Class == "decode-missed/draft" && (!strings.Contains(rc.Title, "`prefixItems`") || !strings.Contains(rc.Title, "2020-12")) {
			t.Errorf("title %q names neither the keyword nor the draft", rc.Title)
		}
		if rc.Class == "decode-missed/keyword" && strings.Contains(rc.Title, "prefixItems") {
			t.Errorf("title %q names prefixItems, which is the other root cause's", rc.Title)
		}
	}
	for class, c := range examples {
		if got[class] != c {
			t.Errorf("%s: counterexample %s, want %s", class, got[class], c)
		}
	}
	if rcs := explain(never); len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" || rcs[0].Count() != 2 {
		t.Errorf("an implementation that follows prefixItems under no draft: %d root causes, want one decode-missed/keyword of both", len(rcs))
	}
}

// TestTypeListAsOne: an implementation that reads a `type` list as the
// first of object, array, string it names misses "[1]" under
// ["array","object"] and decodes it under ["string","array"]: one bug, one
// root cause, apart from the `$ref` it does not follow.
func TestTypeListAsOne(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	var first func(v *jsonvalue.Value)
	first = func(v *jsonvalue.Value) {
		for i, m := range v.Members {
			if m.Key == "$ref" {
				v.Members[i].Key = "x-ref"
			}
			if m.Key == "type" && m.Value.Kind == jsonvalue.Array {
				for _, name := range []string{"object", "array", "string"} {
					if slices.ContainsFunc(m.Value.Elems, func(e *jsonvalue.Value) bool { return e.Str == name }) {
						m.Value.Kind, m.Value.Str, m.Value.Elems = jsonvalue.String, name, nil
						break
					}
				}
			}
			first(m.Value)
		}
		for _, e := range v.Elems {
			first(e)
		}
	}
	asOne := impltest.ReadsSchema("as-one", first)
	cases := []impl.Case{
		{Schema: []byte(`{"properties":{"p":{"type":["array","object"]},"q":{"type":"string"}}}`), Args: []byte(`{"p":"[1]","q":"x"}`)},
		{Schema: []byte(`{"properties":{"p":{"type":["string","array"]}}}`), Args: []byte(`{"p":"[1]"}`)},
		{Schema: []byte(`{"$defs":{"list":{"type":"array"}},"properties":{"p":{"$ref":"#/$defs/list"}}}`), Args: []byte(`{"p":"[1]"}`)},
	}
	var findings []rootcause.Finding
	for i, c := range cases {
		findings = append(findings, rootcause.Finding{Source: rootcause.Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: asOne.Normalize(context.Background(), c)})
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: asOne, Want: want}, findings)
	got := map[string][]string{}
	for _, rc := range rcs {
		got[rc.Class] = rc.Vectors
	}
	if len(rcs) != 2 || !slices.Equal(got["type-list-as-one"], []string{"0", "1"}) || !slices.Equal(got["decode-missed/keyword"], []string{"2"}) {
		t.Fatalf("root causes %v, want type-list-as-one of 0 and 1, decode-missed/keyword of 2", got)
	}
	if rcs[0].Class != "type-list-as-one" || rcs[0].Clause != "rule/3" || !strings.Contains(rcs[0].Title, "`type` list") {
		t.Errorf("first root cause %s (%s): %q", rcs[0].Class, rcs[0].Clause, rcs[0].Title)
	}
}

// TestInDecodedBehindKeyword: an implementation that follows `$ref` but
// does not walk what it decodes misses "[1]" inside decoded text whether
// the declaration is reached through `$ref` or not: one root cause,
// decode-missed/in-decoded, not a keyword it does not follow.
func TestInDecodedBehindKeyword(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	// The reference, with what it decoded from a string at the top level
	// put back as JSON text reads it, unrepaired.
	shallow := impl.Func("shallow", func(ctx context.Context, c impl.Case) impl.Result {
		r := impl.Reference.Normalize(ctx, c)
		in, err1 := jsonvalue.Parse(c.Args)
		out, err2 := jsonvalue.Parse(r.Output)
		if !r.Answered() || err1 != nil || err2 != nil || in.Kind != jsonvalue.Object {
			return r
		}
		for i, m := range in.Members {
			if o := out.Members[i].Value; m.Value.Kind == jsonvalue.String && (o.Kind == jsonvalue.Object || o.Kind == jsonvalue.Array) {
				if v, err := jsonvalue.Parse([]byte(m.Value.Str)); err == nil {
					out.Members[i].Value = v
				}
			}
		}
		return impl.OK(out.Append(nil))
	})
	cases := []impl.Case{
		{Schema: []byte(`{"properties":{"p":{"$ref":"#/$defs/o"}},"$defs":{"o":{"type":"object","properties":{"ids":{"type":"array"}}}}}`), Args: []byte(`{"p":"{\"ids\":\"[1]\"}"}`)},
		{Schema: []byte(`{"properties":{"p":{"type":"object","properties":{"ids":{"type":"array"}}}}}`), Args: []byte(`{"p":"{\"ids\":\"[1]\"}"}`)},
	}
	var findings []rootcause.Finding
	for i, c := range cases {
		findings = append(findings, rootcause.Finding{Source: rootcause.Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: shallow.Normalize(context.Background(), c)})
		if impl.Compare(findings[i].Got, findings[i].Want).Same() {
			t.Fatalf("case %d: no finding", i)
		}
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: shallow, Want: want}, findings)
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/in-decoded" || rcs[0].Count() != 2 {
		for _, rc := range rcs {
			t.Logf("%s (%d): %s %s", rc.Class, rc.Count(), rc.Case.Schema, rc.Case.Args)
		}
		t.Fatalf("%d root causes, want one decode-missed/in-decoded of both findings", len(rcs))
	}
}

// recorder runs an implementation and keeps every case it is asked.
type recorder struct {
	impl.Impl
	mu    sync.Mutex
	asked []impl.Case
}

func (r *recorder) Normalize(ctx context.Context, c impl.Case) impl.Result {
	r.mu.Lock()
	r.asked = append(r.asked, c)
	r.mu.Unlock()
	return r.Impl.Normalize(ctx, c)
}

// marked is a finding of im whose arguments carry a member named "m" and
// its id: a case asked later that has it, smaller than the case found,
// comes from minimizing it (Explain does not send a case as found again,
// and the one probe of these findings' classes that sends a variant of
// the case found, the untyped probe of a decode missed, adds to it).
func marked(im impl.Impl, id, schema, args string) rootcause.Finding {
	c := impl.Case{Schema: []byte(schema), Args: []byte(args)}
	return rootcause.Finding{Source: rootcause.Vector, ID: id, Case: c,
		Want: impl.Reference.Normalize(context.Background(), c), Got: im.Normalize(context.Background(), c)}
}

// TestExplainSample: of the findings of one class (as probed on the case
// found), only the rootcause.Sample smallest are minimized when they all
// end in that class; the rest are counted under it as they are. When the
// ones minimized end in different classes, every finding of the class is
// minimized.
func TestExplainSample(t *testing.T) {
	// xMiss decodes nothing where a member's key starts with "x", nor
	// where a member's key starts with "u" and the schema's root says no
	// type: a decode missed no added type cures, that minimizing turns
	// into one of the untyped root (decode-missed/untyped) when the
	// finding has a "u" member, and keeps when it has none.
	xMiss := impl.Func("x-miss", func(ctx context.Context, c impl.Case) impl.Result {
		args, err := jsonvalue.Parse(c.Args)
		if err == nil && args.Kind == jsonvalue.Object {
			for _, m := range args.Members {
				if strings.HasPrefix(m.Key, "x") || strings.HasPrefix(m.Key, "u") && !strings.HasPrefix(string(c.Schema), `{"type":"object"`) {
					c.Schema = []byte(`{}`)
				}
			}
		}
		return impl.Reference.Normalize(ctx, c)
	})
	// kwMiss does not follow anyOf: a decode missed behind a keyword.
	kwMiss := impl.Func("kw-miss", func(ctx context.Context, c impl.Case) impl.Result {
		if strings.Contains(string(c.Schema), "anyOf") {
			c.Schema = []byte(`{}`)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	// xKept decodes nothing under a root that does not say "type":
	// "object", and never the value of a member whose key starts with
	// "x": a decode missed under an untyped root with an x member is
	// minimized into one of the untyped root (the x member dropped); under
	// a typed root, into the x member's.
	xKept := impl.Func("x-kept", func(ctx context.Context, c impl.Case) impl.Result {
		if !strings.HasPrefix(string(c.Schema), `{"type":"object"`) {
			return impl.OK(c.Args)
		}
		r := impl.Reference.Normalize(ctx, c)
		out, err := jsonvalue.Parse(r.Output)
		args, err2 := jsonvalue.Parse(c.Args)
		if !r.Answered() || err != nil || err2 != nil || out.Kind != jsonvalue.Object {
			return r
		}
		for i, m := range out.Members {
			if strings.HasPrefix(m.Key, "x") && i < len(args.Members) {
				out.Members[i].Value = args.Members[i].Value
			}
		}
		return impl.OK(out.Append(nil))
	})
	xk := func(id, root, pad string) rootcause.Finding {
		return marked(xKept, id, `{`+root+`"properties":{"p":{"type":"array"},"x":{"type":"array"}}}`, `{"p":"[1]","x":"[2]","m`+id+`":0`+pad+`}`)
	}
	kw := func(id string) rootcause.Finding {
		return marked(kwMiss, id, `{"properties":{"p":{"anyOf":[{"type":"array"}]}}}`, `{"p":"[1]","m`+id+`":0}`)
	}
	amp := func(id, n string) rootcause.Finding {
		return marked(buggy, id, `{}`, `{"q":"Ember &Amp; Oak `+n+`","m`+id+`":`+n+`}`)
	}
	tests := []struct {
		name      string
		im        impl.Impl
		findings  []rootcause.Finding
		minimized []string       // the findings minimized
		counts    map[string]int // findings per root cause
		example   map[string]string
	}{
		{
			name: "one class, sampled",
			im:   buggy,
			// The smallest three are the second, the fourth and the
			// last, whatever their order.
			findings:  []rootcause.Finding{amp("a", "1234"), amp("b", "1"), amp("c", "123456"), amp("d", "0"), amp("e", "12345"), amp("f", "12")},
			minimized: []string{"b", "d", "f"},
			counts:    map[string]int{"overdecoded/case-insensitive": 6},
			example:   map[string]string{"overdecoded/case-insensitive": `{} {"":"&Amp;"}`},
		},
		{
			name: "two classes, each sampled",
			im:   buggy,
			findings: []rootcause.Finding{amp("a", "1"), amp("b", "12"), amp("c", "123"), amp("d", "1234"),
				marked(buggy, "k", `{}`, `{"b":1,"7":2,"mk":0}`), marked(buggy, "l", `{}`, `{"b":1,"8":2,"ml":0}`),
				marked(buggy, "m", `{}`, `{"b":1,"9":2,"mm":0,"z":0}`), marked(buggy, "n", `{}`, `{"b":1,"9":2,"mn":0,"zz":0}`)},
			minimized: []string{"a", "b", "c", "k", "l", "m"},
			counts:    map[string]int{"overdecoded/case-insensitive": 4, "artefact/lossy-json": 4},
		},
		{
			name: "the sample disagrees: all minimized",
			im:   xMiss,
			findings: []rootcause.Finding{
				marked(xMiss, "p", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1]","x":1,"u":1,"mp":0}`),
				marked(xMiss, "q", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1]","x":1,"mq":0}`),
				marked(xMiss, "r", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1]","x":1,"mr":0,"zzzzzzzz":0}`),
				marked(xMiss, "s", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[1]","x":1,"ms":0,"zzzzzzzzz":0}`),
			},
			minimized: []string{"p", "q", "r", "s"},
			counts:    map[string]int{"decode-missed": 3, "decode-missed/untyped": 1},
		},
		{
			// The sample ends in decode-missed/untyped; a finding of the
			// class that leaves no type unsaid cannot be one (d), and is
			// minimized on its own; one that leaves the root's type
			// unsaid, and that types added change where it misses, is
			// counted (e).
			name: "a finding the sample's class does not fit: minimized",
			im:   xKept,
			findings: []rootcause.Finding{xk("a", "", ""), xk("b", "", ""), xk("c", "", ""),
				xk("d", `"type":"object",`, `,"zzzz":0`), xk("e", "", `,"zzzzzzzz":0`)},
			minimized: []string{"a", "b", "c", "d"},
			counts:    map[string]int{"decode-missed/untyped": 4, "decode-missed": 1},
		},
		{
			// Where a keyword's miss lies is known once it is minimized
			// (a draft's default, text left undecoded): never sampled.
			name:      "a keyword's miss: all minimized",
			im:        kwMiss,
			findings:  []rootcause.Finding{kw("a"), kw("b"), kw("c"), kw("d"), kw("e")},
			minimized: []string{"a", "b", "c", "d", "e"},
			counts:    map[string]int{"decode-missed/keyword": 5},
		},
	}
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{Impl: tt.im}
			rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: rec, Want: want}, tt.findings)
			var minimized []string
			for _, f := range tt.findings {
				marker := `"m` + f.ID + `"`
				if slices.ContainsFunc(rec.asked, func(c impl.Case) bool {
					return strings.Contains(string(c.Args), marker) && len(c.Schema)+len(c.Args) < len(f.Case.Schema)+len(f.Case.Args)
				}) {
					minimized = append(minimized, f.ID)
				}
			}
			slices.Sort(minimized)
			if !slices.Equal(minimized, tt.minimized) {
				t.Errorf("minimized %v, want %v (rootcause.Sample is %d)", minimized, tt.minimized, rootcause.Sample)
			}
			counts := map[string]int{}
			for _, rc := range rcs {
				counts[rc.Class] = rc.Count()
				if ex, ok := tt.example[rc.Class]; ok {
					if got := string(rc.Case.Schema) + " " + string(rc.Case.Args); got != ex {
						t.Errorf("%s: counterexample %s, want %s", rc.Class, got, ex)
					}
				}
			}
			if !reflect.DeepEqual(counts, tt.counts) {
				t.Errorf("findings per root cause %v, want %v", counts, tt.counts)
			}
		})
	}
}

// TestCrashRunOnce: a case the program crashed on is not run again within
// one explanation, however many findings' minimizations ask for it (each
// asks once); a
// timeout (which may come from a loaded machine) and a give-up are, as
// they may not happen again.
func TestCrashRunOnce(t *testing.T) {
	findings := []rootcause.Finding{
		finding(rootcause.Vector, "array.json", `{"properties":{"tags":{"type":"array"}}}`, `{"tags":"[\"a\",\"b\"]","n":1}`),
		// Its minimization asks for the same failing case as array.json's
		// (a minimization asks for a case once).
		finding(rootcause.Vector, "array2.json", `{"properties":{"tags":{"type":"array"}}}`, `{"tags":"[\"c\"]","m":2}`),
		finding(rootcause.Vector, "object.json", `{"properties":{"o":{"type":"object"}}}`, `{"o":"{\"k\":[1,2,3]}"}`),
		finding(rootcause.Vector, "pattern.json", `{"patternProperties":{"^p":{"type":"array"}}}`, `{"p":"[1]"}`),
		finding(rootcause.Bucket, "bucket-a", `{}`, `{"a":{"b":"&Amp;x"}}`),
	}
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	for _, tt := range []struct {
		name    string
		failure error
		kept    bool
	}{
		{"crash", impl.ErrCrash, true},
		{"timeout", impl.ErrTimeout, false},
		{"gave-up", fmt.Errorf("%w: %w: too many", impl.ErrCrash, impl.ErrGaveUp), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			runs := map[string]int{}
			failing := impl.Func("failing", func(ctx context.Context, c impl.Case) impl.Result {
				k := string(c.Schema) + " " + string(c.Args)
				mu.Lock()
				runs[k]++
				mu.Unlock()
				if string(c.Args) == `{}` {
					return impl.Fail(tt.failure, "it failed")
				}
				return buggy.Normalize(ctx, c)
			})
			rootcause.Explain(context.Background(), rootcause.Config{Impl: failing, Want: want}, findings)
			most := 0
			for k, n := range runs {
				if strings.HasSuffix(k, " {}") {
					most = max(most, n)
				}
			}
			if most == 0 {
				t.Fatalf("no minimization asked for a failing case: %v", runs)
			}
			if kept := most == 1; kept != tt.kept {
				t.Errorf("a failing case was run %d times, want kept %v: %v", most, tt.kept, runs)
			}
		})
	}
}

// dying is buggy behind a program that dies on some cases, as an adapter
// does: a case whose text hashes to 0 modulo 7 crashes it, and every case
// after it in the batch goes unanswered with it (a crash too). It records
// every batch it is sent, in order.
type dying struct {
	mu      sync.Mutex
	batches [][]string
}

func (d *dying) Name() string { return "dying" }

func (d *dying) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return d.RunBatch(ctx, []impl.Case{c})[0]
}

func (d *dying) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	keys := make([]string, len(cases))
	out := make([]impl.Result, len(cases))
	dead := false
	for i, c := range cases {
		keys[i] = impltest.Key(c)
		dead = dead || crc32.ChecksumIEEE([]byte(keys[i]))%7 == 0
		if dead {
			out[i] = impl.Fail(impl.ErrCrash, "the program died")
			continue
		}
		out[i] = buggy.Normalize(ctx, c)
	}
	d.mu.Lock()
	d.batches = append(d.batches, keys)
	d.mu.Unlock()
	return out
}

// TestExplainDeterministic: the batches an implementation that takes
// them is sent while findings are explained, and so the root causes,
// depend only on the findings and the answers, not on how the workers
// that minimize them are scheduled, even for a program that dies on some
// cases and takes the cases after them down with it (what is in a batch
// then changes the answers).
func TestExplainDeterministic(t *testing.T) {
	var findings []rootcause.Finding
	for i := range 24 {
		n := strconv.Itoa(i)
		findings = append(findings,
			finding(rootcause.Vector, "array"+n+".json", `{"properties":{"tags":{"type":"array"},"x`+n+`":{}}}`, `{"tags":"[\"a\",\"b`+n+`\"]","n":`+n+`}`),
			finding(rootcause.Bucket, "amp"+n, `{}`, `{"a":{"b":"&Amp;`+n+`","c":"`+strings.Repeat("y", i)+`"}}`),
			finding(rootcause.Property, "keys"+n, `{}`, `{"b":1,"`+n+`":2,"k":[`+n+`]}`))
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first [][]string
	var firstRCs []rootcause.RootCause
	for run := range 20 {
		runtime.GOMAXPROCS(1 + run%4)
		rng := rand.New(rand.NewPCG(uint64(run), 1))
		var mu sync.Mutex
		// The reference, asked by the workers between batches, yields to
		// others at random, so that they ask in another order each run.
		want := func(c impl.Case) impl.Result {
			mu.Lock()
			n := rng.IntN(4)
			mu.Unlock()
			for range n {
				runtime.Gosched()
			}
			return impl.Reference.Normalize(context.Background(), c)
		}
		d := &dying{}
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: d, Want: want}, findings)
		if run == 0 {
			first, firstRCs = d.batches, rcs
			crashed := 0
			for _, b := range d.batches {
				for _, k := range b {
					if crc32.ChecksumIEEE([]byte(k))%7 == 0 {
						crashed++
					}
				}
			}
			if crashed == 0 || len(first) < 2 || len(rcs) == 0 {
				t.Fatalf("%d batches, %d cases crashed on, %d root causes: the test shows nothing", len(first), crashed, len(rcs))
			}
			t.Logf("%d batches, %d cases crashed on, %d root causes", len(first), crashed, len(rcs))
			continue
		}
		if !slices.EqualFunc(d.batches, first, slices.Equal) {
			i := 0
			for i < min(len(d.batches), len(first)) && slices.Equal(d.batches[i], first[i]) {
				i++
			}
			t.Fatalf("run %d (GOMAXPROCS %d): %d batches, the first run %d; batch %d differs", run, runtime.GOMAXPROCS(0), len(d.batches), len(first), i)
		}
		if !reflect.DeepEqual(rcs, firstRCs) {
			t.Fatalf("run %d: root causes differ from the first run's", run)
		}
	}
}

// TestExplainStopsInLockstep: a check stopped while its findings are
// minimized in lockstep ends the explanation promptly: the batch under
// way comes back with its requests not run, every worker goes on to find
// that minimizing may not go on, and none waits for a batch that never
// leaves (synctest fails a test whose goroutines all block for good).
func TestExplainStopsInLockstep(t *testing.T) {
	var findings []rootcause.Finding
	for i := range 40 {
		n := strconv.Itoa(i)
		findings = append(findings,
			finding(rootcause.Vector, "array"+n+".json", `{"properties":{"tags":{"type":"array"},"x`+n+`":{}}}`, `{"tags":"[\"a\",\"b`+n+`\"]","n":`+n+`}`),
			finding(rootcause.Bucket, "amp"+n, `{}`, `{"a":{"b":"&Amp;`+n+`"}}`))
	}
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		defer cancel()
		b := &stoppable{}
		start := time.Now()
		rcs := rootcause.Explain(ctx, rootcause.Config{Impl: b, Want: want, Keep: func() bool { return ctx.Err() == nil }}, findings)
		if took := time.Since(start); took > 6*time.Millisecond {
			t.Errorf("the explanation took %v after a stop at 5ms", took)
		}
		if b.batches == 0 || b.notRun == 0 {
			t.Errorf("%d batches, %d requests not run: the stop did not come while minimizing", b.batches, b.notRun)
		}
		if n := len(rcs); n == 0 {
			t.Errorf("no root cause")
		}
	})
}

// stoppable is buggy behind a program whose batches take a millisecond
// (of the bubble's clock), and that runs nothing once ctx is done.
type stoppable struct {
	mu              sync.Mutex
	batches, notRun int
}

func (s *stoppable) Name() string { return "stoppable" }

func (s *stoppable) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return s.RunBatch(ctx, []impl.Case{c})[0]
}

func (s *stoppable) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	s.mu.Lock()
	s.batches++
	s.mu.Unlock()
	out := make([]impl.Result, len(cases))
	select {
	case <-ctx.Done():
		for i := range out {
			out[i] = impl.Fail(impl.ErrNotRun, "the check stopped")
		}
		s.mu.Lock()
		s.notRun += len(out)
		s.mu.Unlock()
		return out
	case <-time.After(time.Millisecond):
	}
	for i, c := range cases {
		out[i] = buggy.Normalize(ctx, c)
	}
	return out
}

// TestCounterexampleShowsOneFault: an implementation with two faults, one
// that decodes any stringified array whatever the schema says and one
// that makes the empty text an array, has two root causes, and neither's
// counterexample shows the other's fault as well: the decoded-undeclared
// one keeps JSON text ("[]", not ""), the made-up one keeps its
// declaration. Before, the first was minimized to "" under {}, which
// shows both (@ai-sdk-tool/parser's, @notionhq/notion-mcp-server's).
func TestCounterexampleShowsOneFault(t *testing.T) {
	twoFaults := impltest.Edited("two faults", func(v *jsonvalue.Value) {
		for _, m := range v.Members {
			if m.Value.Kind != jsonvalue.String {
				continue
			}
			if m.Value.Str == "" {
				*m.Value = jsonvalue.Value{Kind: jsonvalue.Array}
			} else if p, err := jsonvalue.Parse([]byte(m.Value.Str)); err == nil && p.Kind == jsonvalue.Array {
				*m.Value = *p
			}
		}
	})
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	f := func(id, schema, args string) rootcause.Finding {
		c := impl.Case{Schema: []byte(schema), Args: []byte(args)}
		return rootcause.Finding{Source: rootcause.Vector, ID: id, Case: c, Want: want(c), Got: twoFaults.Normalize(context.Background(), c)}
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: twoFaults, Want: want}, []rootcause.Finding{
		f("undeclared.json", `{"properties":{"n":{"type":"integer"},"q":{"type":"string","title":"q"}}}`, `{"n":1,"q":"[1,2]"}`),
		f("empty.json", `{"properties":{"l":{"type":"array","title":"list"}}}`, `{"l":"","m":3}`),
		// Both faults at once: theirs, not a third root cause.
		f("both.json", `{"properties":{"p":{"type":"integer"}}}`, `{"p":""}`),
	})
	if len(rcs) != 2 || rcs[0].Count()+rcs[1].Count() != 3 {
		t.Errorf("%d root causes, want 2 holding the 3 findings: %+v", len(rcs), rcs)
	}
	// The finding of both faults is the string decoding's: as "[]" the
	// string is decoded there too.
	for _, rc := range rcs {
		if slices.Contains(rc.Vectors, "both.json") && rc.Class != "decoded-undeclared" {
			t.Errorf("both.json is under %s, want decoded-undeclared", rc.Class)
		}
	}
	got := map[string]string{}
	for _, rc := range rcs {
		got[rc.Class] = string(rc.Case.Schema) + " " + string(rc.Case.Args)
	}
	for class, example := range map[string]string{
		"decoded-undeclared": `{} {"":"[]"}`,
		"made-from-not-json": `{"properties":{"":{"type":"array"}}} {"":""}`,
	} {
		if got[class] != example {
			t.Errorf("%s: counterexample %q, want %q (all: %v)", class, got[class], example, got)
		}
	}
}

// TestTitleHoldsForEveryMember: a root cause's title is true of each of
// its findings, not only of its counterexample. @mastra/core's plain miss
// held objects under a title that said arrays; @notionhq's
// decoded-undeclared held findings decoded under a schema that declares
// the other shape, under a title that said the schema declares neither;
// n8n-mcp's miss under a one-type list swallowed the misses behind
// `$ref` and `anyOf` and said "in a `type` list" of them all.
func TestTitleHoldsForEveryMember(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	explain := func(im impl.Impl, fs ...[2]string) []rootcause.RootCause {
		var findings []rootcause.Finding
		for i, f := range fs {
			findings = append(findings, marked(im, strconv.Itoa(i), f[0], f[1]))
		}
		return rootcause.Explain(context.Background(), rootcause.Config{Impl: im, Want: want}, findings)
	}
	titles := func(rcs []rootcause.RootCause) []string {
		var out []string
		for _, rc := range rcs {
			out = append(out, rc.Title)
		}
		return out
	}
	// Decodes nothing at all.
	nothing := impl.Func("nothing", func(ctx context.Context, c impl.Case) impl.Result {
		c.Schema = []byte(`{}`)
		return impl.Reference.Normalize(ctx, c)
	})
	got := titles(explain(nothing, [2]string{`{"properties":{"a":{"type":"array"}}}`, `{"a":"[1]"}`}, [2]string{`{"properties":{"o":{"type":"object"}}}`, `{"o":"{\"k\":1}"}`}))
	if w := "A stringified array or object is not decoded where the schema declares its shape"; !slices.Contains(got, w) {
		t.Errorf("titles %q, want %q", got, w)
	}
	// Decodes any JSON text whatever the schema says.
	blind := impltest.Edited("blind", func(v *jsonvalue.Value) {
		for _, m := range v.Members {
			if p, err := jsonvalue.Parse([]byte(m.Value.Str)); m.Value.Kind == jsonvalue.String && err == nil {
				*m.Value = *p
			}
		}
	})
	got = titles(explain(blind, [2]string{`{"properties":{"n":{"type":"integer"}}}`, `{"n":"[1]"}`}, [2]string{`{"type":"object","properties":{"ops":{"type":"array"}}}`, `{"ops":"{\"op\":1}"}`}))
	if w := "A string is decoded as JSON whatever the schema declares there, even under the empty schema `{}`"; len(got) != 1 || got[0] != w {
		t.Errorf("titles %q, want only %q", got, w)
	}
	// Reads `"type":"array"` and nothing else: not a one-type list, not
	// `$ref`, not `anyOf`.
	plainOnly := impl.Func("plain type only", func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Schema, []byte(`"type":[`)) || bytes.Contains(c.Schema, []byte(`"$ref"`)) || bytes.Contains(c.Schema, []byte(`"anyOf"`)) {
			c.Schema = []byte(`{}`)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	got = titles(explain(plainOnly, [2]string{`{"properties":{"p":{"type":["array"]}}}`, `{"p":"[]"}`},
		[2]string{`{"$defs":{"a":{"type":"array"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`, `{"p":"[]"}`},
		[2]string{`{"properties":{"p":{"anyOf":[{"type":"array"}]}}}`, `{"p":"[]"}`}))
	if len(got) != 2 || !slices.ContainsFunc(got, func(s string) bool { return strings.HasSuffix(s, "in a `type` list") }) || !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "Declarations through") }) {
		t.Errorf("titles %q, want a type-list miss and a keyword miss apart", got)
	}
}

// TestInDecodedOnlyWhenDecodedMatters: a decode missed inside text the
// rule decodes is put down to the decoded text only when the
// implementation makes that decode once the text is sent decoded. qwen-
// code decodes no string element of a real array under typed `items`:
// its miss inside "[\"[]\"]" is that miss, not one of decoded text, and
// before it was titled "What a decoded string holds is not repaired".
func TestInDecodedOnlyWhenDecodedMatters(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	// The reference, but a string element of an array stays as sent.
	noElements := impltest.Edited("no elements", func(v *jsonvalue.Value) {
		var keep func(out *jsonvalue.Value)
		keep = func(out *jsonvalue.Value) {
			for _, m := range out.Members {
				keep(m.Value)
			}
			for i, e := range out.Elems {
				if e.Kind == jsonvalue.Array || e.Kind == jsonvalue.Object {
					if e.Kind == jsonvalue.Array && len(e.Elems) == 0 {
						out.Elems[i] = &jsonvalue.Value{Kind: jsonvalue.String, Str: "[]"}
						continue
					}
					keep(e)
				}
			}
		}
		keep(v)
	})
	schema := `{"type":"object","properties":{"l":{"type":"array","items":{"type":"array"}}}}`
	findings := []rootcause.Finding{
		marked(noElements, "text", schema, `{"l":"[\"[]\"]"}`),
		marked(noElements, "real", schema, `{"l":["[]"]}`),
	}
	for _, f := range findings {
		if impl.Compare(f.Got, f.Want).Same() {
			t.Fatalf("%s: no finding", f.ID)
		}
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: noElements, Want: want}, findings)
	for _, rc := range rcs {
		if rc.Class == "decode-missed/in-decoded" {
			t.Errorf("a miss the implementation makes in a real array too is put down to decoded text: %+v", rc)
		}
	}
	if len(rcs) != 1 || rcs[0].Count() != 2 {
		t.Errorf("%d root causes, want one holding both findings: %+v", len(rcs), rcs)
	}
}

// TestLossyWhereKept: JSON text decoded where the rule keeps the string,
// and read lossily, is two faults: its finding joins the lossy reading's
// root cause, and neither root cause's counterexample shows the other
// fault (@notionhq/notion-mcp-server's keys-unchanged case, under `{}`,
// went under its blind decoding).
func TestLossyWhereKept(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	// Decodes any JSON text whatever the schema says, keeping the last of
	// two duplicate members, as JSON.parse does.
	var collapse func(v *jsonvalue.Value)
	collapse = func(v *jsonvalue.Value) {
		var kept []jsonvalue.Member
		for _, m := range v.Members {
			if i := slices.IndexFunc(kept, func(k jsonvalue.Member) bool { return k.Key == m.Key }); i >= 0 {
				kept[i].Value = m.Value
				continue
			}
			kept = append(kept, m)
		}
		v.Members = kept
		for _, m := range v.Members {
			collapse(m.Value)
		}
	}
	blindLossy := impltest.Edited("blind and lossy", func(v *jsonvalue.Value) {
		for _, m := range v.Members {
			if p, err := jsonvalue.Parse([]byte(m.Value.Str)); m.Value.Kind == jsonvalue.String && err == nil && (p.Kind == jsonvalue.Object || p.Kind == jsonvalue.Array) {
				*m.Value = *p
			}
		}
		collapse(v)
	})
	findings := []rootcause.Finding{
		marked(blindLossy, "lossy", `{"type":"object","properties":{"o":{"type":"object"}}}`, `{"o":"{\"k\":1,\"k\":2}"}`),
		marked(blindLossy, "blind", `{"type":"object","properties":{"n":{"type":"integer"}}}`, `{"n":"[1]"}`),
		marked(blindLossy, "both", `{}`, `{"p":"{\"a\":1,\"a\":2}"}`),
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: blindLossy, Want: want}, findings)
	if len(rcs) != 2 {
		t.Fatalf("%d root causes, want 2: %+v", len(rcs), rcs)
	}
	for _, rc := range rcs {
		if slices.Contains(rc.Vectors, "both") != (rc.Class == "decoded-json-lossy") {
			t.Errorf("%s holds %v", rc.Class, rc.Vectors)
		}
		if rc.Class == "decoded-json-lossy" && bytes.HasPrefix(rc.Case.Schema, []byte(`{}`)) {
			t.Errorf("the lossy reading's counterexample is under {}: %s %s", rc.Case.Schema, rc.Case.Args)
		}
	}
}

// TestUntypedThoughBlind: a miss behind a keyword that the implementation
// makes once the root says "type": "object" is put down to the type left
// unsaid even when, typed, it decodes there whatever the keyword says, if
// a string the keyword declares is then kept (the keyword is followed).
// @ai-sdk-tool/parser's report titled such a miss "`patternProperties`
// ... not followed"; it follows patternProperties and reads a root with
// no type as no object.
func TestUntypedThoughBlind(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	untypedBlind := impl.Func("untyped root, blind", func(ctx context.Context, c impl.Case) impl.Result {
		s, err1 := jsonvalue.Parse(c.Schema)
		a, err2 := jsonvalue.Parse(c.Args)
		if err1 != nil || err2 != nil || a.Kind != jsonvalue.Object {
			return impl.Reference.Normalize(ctx, c)
		}
		if t := s.Member("type"); t == nil || t.Kind != jsonvalue.String || t.Str != "object" {
			return impl.OK(c.Args) // no object at the root: nothing decoded
		}
		str := func(key string) bool { // a string declared for key, by properties or a pattern ("" matches all)
			for _, kw := range []string{"properties", "patternProperties"} {
				if m := s.Member(kw); m != nil {
					for _, p := range m.Members {
						if (p.Key == key || kw == "patternProperties" && p.Key == "") && p.Value.Member("type") != nil && p.Value.Member("type").Str == "string" {
							return true
						}
					}
				}
			}
			return false
		}
		for _, m := range a.Members {
			if p, err := jsonvalue.Parse([]byte(m.Value.Str)); m.Value.Kind == jsonvalue.String && err == nil && (p.Kind == jsonvalue.Array || p.Kind == jsonvalue.Object) && !str(m.Key) {
				*m.Value = *p
			}
		}
		return impl.OK(a.Append(nil))
	})
	f := marked(untypedBlind, "pattern", `{"patternProperties":{"":{"type":"array"}}}`, `{"":"[]"}`)
	if impl.Compare(f.Got, f.Want).Same() {
		t.Fatal("no finding")
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: untypedBlind, Want: want}, []rootcause.Finding{f})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/untyped" {
		t.Errorf("root causes %+v, want one decode-missed/untyped", rcs)
	}
}

// TestWrongShapeBothWays: an implementation that decodes whatever shape
// the text has, in a language with one empty container (PHP: `{}` and
// `[]` decode to one empty array, written back `[]`), substitutes an
// array where object is declared, and `{}` where array is declared comes
// out `[]`: one bug, whose title names both ways.
func TestWrongShapeBothWays(t *testing.T) {
	// anyShape decodes any JSON text where array or object is declared,
	// and writes an empty object back as `[]`.
	anyShape := impl.Func("any-shape", func(ctx context.Context, c impl.Case) impl.Result {
		var schema struct {
			Properties map[string]struct{ Type string } `json:"properties"`
		}
		var args map[string]any
		if json.Unmarshal(c.Schema, &schema) != nil || json.Unmarshal(c.Args, &args) != nil {
			return impl.Reference.Normalize(ctx, c)
		}
		for k, v := range args {
			s, ok := v.(string)
			if t := schema.Properties[k].Type; !ok || t != "array" && t != "object" {
				continue
			}
			var d any
			if json.Unmarshal([]byte(s), &d) == nil {
				if m, ok := d.(map[string]any); ok && len(m) == 0 {
					d = []any{}
				}
				args[k] = d
			}
		}
		out, _ := json.Marshal(args)
		return impl.OK(out)
	})
	findings := []rootcause.Finding{
		marked(anyShape, "obj", `{"properties":{"o":{"type":"object"}}}`, `{"o":"[1]"}`),
		marked(anyShape, "arr", `{"properties":{"a":{"type":"array"}}}`, `{"a":"{}"}`),
	}
	titles := titlesBothOrders(t, anyShape, "wrong-shape", findings)
	if titles[0] != titles[1] || !strings.HasSuffix(titles[0], "(array where object is declared; object where array is declared)") {
		t.Errorf("titles %q: want one, naming both ways in one order", titles)
	}
}

// TestIgnoredKeyword: a string kept by a keyword the implementation does
// not follow, decoded as the schema without the keyword declares, is that
// keyword not followed, named after it. qwen-code ignores
// `patternProperties`, so that `additionalProperties` applies to a key a
// pattern matches; it was titled "A parameter that may be a string
// (`string` declared, or a branch of `anyOf` or `oneOf` that admits any
// type) is decoded as JSON", which says nothing of the pattern. A string
// decoded because a union is read wrongly stays decoded-declared-string,
// and one decoded whatever the schema says stays blind.
func TestIgnoredKeyword(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	noPatterns := impltest.ReadsSchema("no patternProperties", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "patternProperties" })
		})
	})
	// Reads a `string` branch of anyOf as null: the union admits no
	// string, and "[]" is decoded as the other branch declares.
	noStringBranch := impl.Func("no string branch", func(ctx context.Context, c impl.Case) impl.Result {
		c.Schema = bytes.ReplaceAll(c.Schema, []byte(`{"type":"string"}`), []byte(`{"type":"null"}`))
		return impl.Reference.Normalize(ctx, c)
	})
	for _, tt := range []struct {
		im            impl.Impl
		schema, args  string
		class, title  string
		counterSchema string
	}{
		{noPatterns, `{"type":"object","patternProperties":{"^s_":{"type":"string"}},"additionalProperties":{"type":"array"}}`, `{"s_x":"[1]","y":"[2]"}`,
			"decoded-keyword-ignored", "Declarations through `patternProperties` are not followed: a string is decoded as JSON where only they keep it a string",
			`{"patternProperties":{"":{"type":"string"}},"additionalProperties":{"type":"array"}}`},
		{noStringBranch, `{"type":"object","properties":{"p":{"anyOf":[{"type":"string"},{"type":"array"}]}}}`, `{"p":"[1]"}`,
			"decoded-declared-string", "A parameter that may be a string (`string` declared, or a branch of `anyOf` or `oneOf` that admits any type) is decoded as JSON", ""},
	} {
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: tt.im, Want: want}, []rootcause.Finding{marked(tt.im, "v", tt.schema, tt.args)})
		if len(rcs) != 1 || rcs[0].Class != tt.class || rcs[0].Title != tt.title {
			for _, rc := range rcs {
				t.Logf("%s: %s (%s %s)", rc.Class, rc.Title, rc.Case.Schema, rc.Case.Args)
			}
			t.Errorf("%s: %d root causes, want one %s titled %q", tt.im.Name(), len(rcs), tt.class, tt.title)
			continue
		}
		if tt.counterSchema != "" && string(rcs[0].Case.Schema) != tt.counterSchema {
			t.Errorf("%s: counterexample schema %s, want %s", tt.im.Name(), rcs[0].Case.Schema, tt.counterSchema)
		}
	}
}

// TestTypeListApartFromKeywords: n8n-mcp reads a single type name and
// nothing else. Its miss under a `type` list alone is one root cause, and
// a miss where a keyword beside a type list (or around it) narrows the
// list to the shape is the keyword's: without the keyword the rule keeps
// the string, so no type list alone is missed there. Replayed on n8n-mcp
// 2.87.0, the vectors of the corpus these are cut from group so.
func TestTypeListApartFromKeywords(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	singleName := impltest.ReadsSchema("single type name", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool {
				return m.Key == "type" && m.Value.Kind == jsonvalue.Array || slices.Contains([]string{"$ref", "allOf", "anyOf", "oneOf", "patternProperties", "additionalProperties"}, m.Key)
			})
		})
	})
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: singleName, Want: want}, []rootcause.Finding{
		marked(singleName, "list", `{"type":"object","properties":{"p":{"type":["array","null"]}}}`, `{"p":"[1]"}`),
		marked(singleName, "list-beside-anyOf", `{"type":"object","properties":{"p":{"type":["array","string"],"anyOf":[{"type":"array"},{"type":"null"}]}}}`, `{"p":"[1]"}`),
		marked(singleName, "lists-in-allOf", `{"type":"object","properties":{"p":{"allOf":[{"type":["array","string"]},{"type":["array","null"]}]}}}`, `{"p":"[1]"}`),
		marked(singleName, "list-and-pattern", `{"type":"object","properties":{"ids":{"type":["array","string"]}},"patternProperties":{"s$":{"type":["array","null"]}}}`, `{"ids":"[1]"}`),
	})
	got := map[string][]string{}
	for _, rc := range rcs {
		got[rc.Class] = slices.Sorted(slices.Values(rc.Vectors))
	}
	wantGot := map[string][]string{"decode-missed": {"list"}, "decode-missed/keyword": {"list-and-pattern", "list-beside-anyOf", "lists-in-allOf"}}
	if !reflect.DeepEqual(got, wantGot) {
		t.Errorf("root causes %v, want %v", got, wantGot)
	}
}

// TestTypeListApartFromNesting: an implementation that reads only the
// plain `type` of each top-level property (the Node.js and Python
// examples) misses a type list and a declaration below the top: two
// bugs, each its own root cause, the type list's titled so. One that
// misses even the plainest declaration misses both for that one reason.
func TestTypeListApartFromNesting(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	topOnly := topLevelOnly
	cases := [][2]string{
		{`{"properties":{"l":{"type":["array","null"]}}}`, `{"l":"[1]"}`},
		{`{"properties":{"n":{"type":"object","properties":{"a":{"type":"array"}}}}}`, `{"n":{"a":"[1]"}}`},
	}
	for _, tt := range []struct {
		im     impl.Impl
		titles []string
	}{
		{topOnly, []string{"A stringified array is not decoded where the schema declares array below the top level", "A stringified array is not decoded where the schema declares array in a `type` list"}},
		{buggy, []string{"A stringified array is not decoded where the schema declares array"}},
	} {
		var findings []rootcause.Finding
		for _, c := range cases {
			findings = append(findings, marked(tt.im, c[0], c[0], c[1]))
		}
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: tt.im, Want: want}, findings)
		var titles []string
		n := 0
		for _, rc := range rcs {
			titles = append(titles, rc.Title)
			n += rc.Count()
		}
		slices.Sort(titles)
		if !slices.Equal(titles, tt.titles) || n != 2 {
			t.Errorf("%s: root causes %q of %d findings, want %q", tt.im.Name(), titles, n, tt.titles)
		}
	}
}

// TestSurrogateMiss: JSON text that holds a lone surrogate escape, left a
// string by a decoder that refuses it (PHP's json_decode:
// JSON_ERROR_UTF16), is a bug of its own, apart from the declarations
// the implementation does not follow: the PHP example's nested misses
// were shown by `{"":"[\"\\ud800\"]"}` at the top level.
func TestSurrogateMiss(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	// refuses keeps a string holding a lone surrogate escape, and
	// decodes nothing below the top level.
	refuses := impl.Func("refuses-surrogates", func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(bytes.ToLower(c.Args), []byte(`\\ud8`)) {
			return impl.OK(c.Args)
		}
		return topLevelOnly.Normalize(ctx, c)
	})
	findings := []rootcause.Finding{
		marked(refuses, "s", `{"properties":{"a":{"type":"array"},"b":{"type":"string"}}}`, `{"a":"[\"\\ud800x\",1]","b":"x"}`),
		marked(refuses, "n", `{"properties":{"n":{"type":"object","properties":{"a":{"type":"array"}}}}}`, `{"n":{"a":"[1]"}}`),
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: refuses, Want: want}, findings)
	got := map[string]string{}
	for _, rc := range rcs {
		got[rc.Class] = rc.Title
		if rc.Count() != 1 {
			t.Errorf("%s: %d findings, want 1", rc.Class, rc.Count())
		}
	}
	if got["decode-missed/lone-surrogate"] == "" || got["decode-missed"] == "" || len(got) != 2 {
		t.Errorf("root causes %v, want the lone surrogate's apart from the nested miss", got)
	}
}

// topLevelOnly is the reference reading only the plain `type` of each
// top-level property, as the Node.js and Python examples do: no type
// list, nothing declared below the top.
var topLevelOnly = impltest.ReadsSchema("top-only", func(s *jsonvalue.Value) {
	props := s.Member("properties")
	if props == nil || props.Kind != jsonvalue.Object {
		return
	}
	for i := range props.Members {
		p := props.Members[i].Value
		if p.Kind != jsonvalue.Object {
			continue
		}
		var kept []jsonvalue.Member
		for _, m := range p.Members {
			switch {
			case m.Key == "type" && m.Value.Kind == jsonvalue.Array:
			case m.Key == "properties" || m.Key == "items":
			default:
				kept = append(kept, m)
			}
		}
		p.Members = kept
	}
})

// TestSpecialNumericOnePolicy: an implementation that leaves a numeric
// reference as text wherever HTML replaces or maps its code point (PHP's
// html_entity_decode) has one bug over several ranges: one root cause,
// its title naming the ranges its findings show. A reference without its
// `;` to such a code point (`&#7`) is the missing `;`'s, when that is a
// root cause, never its counterexample.
func TestSpecialNumericOnePolicy(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	// strict decodes a numeric reference only with its `;` and to a
	// plain character, and leaves the others as they are.
	strict := impl.Func("strict", func(ctx context.Context, c impl.Case) impl.Result {
		for _, ref := range []string{"&#0;", "&#128;", "&#x110000;", "&#7;", "&#7", "&#38"} {
			if bytes.Contains(c.Args, []byte(ref)) {
				return impl.OK(c.Args)
			}
		}
		return impl.Reference.Normalize(ctx, c)
	})
	findings := []rootcause.Finding{
		marked(strict, "null", `{}`, `{"a":"x&#0;"}`),
		marked(strict, "1252", `{}`, `{"a":"x&#128;"}`),
		marked(strict, "max", `{}`, `{"a":"&#x110000;"}`),
		marked(strict, "semi", `{}`, `{"a":"&#38"}`),
		marked(strict, "both", `{}`, `{"a":"&#7"}`),
	}
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: strict, Want: want}, findings)
	got := map[string][]string{}
	for _, rc := range rcs {
		got[rc.Class] = rc.Vectors
		if rc.Class == "undecoded/numeric-special" && !strings.HasSuffix(rc.Title, ": `&#0;` (U+FFFD), the windows-1252 range (`&#128;` is €), code points past U+10FFFF (U+FFFD)") {
			t.Errorf("title %q", rc.Title)
		}
		if rc.Class == "undecoded/numeric-no-semicolon" && string(rc.Case.Args) != `{"":"&#38"}` {
			t.Errorf("the missing ;'s counterexample %s, want &#38", rc.Case.Args)
		}
	}
	wantGot := map[string][]string{"undecoded/numeric-special": {"null", "1252", "max"}, "undecoded/numeric-no-semicolon": {"semi", "both"}}
	if !reflect.DeepEqual(got, wantGot) {
		t.Errorf("root causes %v, want %v", got, wantGot)
	}
}

// TestNamesOfAnOldTable: a reference that stands for two code points,
// or a case variant HTML5 added (`&AMP;`; HTML 4.01 has `&amp;` only), not
// decoded by an implementation with HTML 4.01's table, is missing from its
// table like every name HTML5 added (PHP's html_entity_decode without
// ENT_HTML5), not a bug of its own; one that decodes HTML5's names and not
// those is.
func TestNamesOfAnOldTable(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	for _, tt := range []struct {
		im    impl.Impl
		args  string
		class string
	}{
		{leaves("html4", "&acE;", "&Afr;"), `{"a":"x&acE;"}`, "undecoded/named-not-in-table"},
		{leaves("one-code-point", "&acE;"), `{"a":"x&acE;"}`, "undecoded/named-two-code-points"},
		{leaves("html4", "&AMP;", "&Afr;"), `{"a":"x&AMP;"}`, "undecoded/named-not-in-table"},
		{leaves("lower-case only", "&AMP;"), `{"a":"x&AMP;"}`, "undecoded/named-case-variant"},
	} {
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: tt.im, Want: want}, []rootcause.Finding{marked(tt.im, "ref", `{}`, tt.args)})
		if len(rcs) != 1 || rcs[0].Class != tt.class {
			t.Errorf("%s, %s: root causes %+v, want one %s", tt.im.Name(), tt.args, rcs, tt.class)
		}
	}
}

// TestNoErrorTitle: a root cause of input the rule rejects, answered,
// names the kinds of input its findings show, in one order, and no other.
func TestNoErrorTitle(t *testing.T) {
	// answers gives the arguments back, whatever they are.
	answers := impl.Func("answers", func(ctx context.Context, c impl.Case) impl.Result { return impl.OK(c.Args) })
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	schema := marked(answers, "schema", `{"anyOf":[]}`, `{}`)
	array := marked(answers, "array", `{}`, `[]`)
	for _, tt := range []struct {
		findings []rootcause.Finding
		title    string
	}{
		{[]rootcause.Finding{schema}, "Input the rule rejects (a broken schema) is answered instead of rejected"},
		{[]rootcause.Finding{schema, array}, "Input the rule rejects (arguments not an object, a broken schema) is answered instead of rejected"},
		{[]rootcause.Finding{array, schema}, "Input the rule rejects (arguments not an object, a broken schema) is answered instead of rejected"},
	} {
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: answers, Want: want}, tt.findings)
		if len(rcs) != 1 || rcs[0].Class != "no-error" || rcs[0].Count() != len(tt.findings) {
			t.Fatalf("root causes %+v, want one no-error of all", rcs)
		}
		if rcs[0].Title != tt.title {
			t.Errorf("title %q, want %q", rcs[0].Title, tt.title)
		}
	}
}

// TestObjectAsArrayTitle: an implementation that writes an object keyed
// 0 to n-1 as a list (PHP's json_encode) has it minimized to `{}` given
// as `[]`; the title still names the keyed form its finding showed.
func TestObjectAsArrayTitle(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	lists := impltest.Edited("lists", func(v *jsonvalue.Value) {
		var walk func(v *jsonvalue.Value)
		walk = func(v *jsonvalue.Value) {
			for _, m := range v.Members {
				walk(m.Value)
			}
			for _, e := range v.Elems {
				walk(e)
			}
			if v.Kind != jsonvalue.Object {
				return
			}
			for i, m := range v.Members {
				if m.Key != strconv.Itoa(i) {
					return
				}
			}
			for _, m := range v.Members {
				v.Elems = append(v.Elems, m.Value)
			}
			v.Kind, v.Members = jsonvalue.Array, nil
		}
		for _, m := range v.Members {
			walk(m.Value)
		}
	})
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: lists, Want: want}, []rootcause.Finding{marked(lists, "keyed", `{}`, `{"p":{"0":"a","1":"b"}}`)})
	if len(rcs) != 1 || rcs[0].Class != "object-as-array" || !strings.Contains(rcs[0].Title, "keys are 0 to n-1") {
		t.Errorf("root causes %+v, want one object-as-array naming the keyed form", rcs)
	}
}

// TestNoErrorShowsOneFault: an implementation that answers a broken
// schema, and writes `{}` back as `[]` (the PHP example), showed its
// missing error with the arguments `{}` and the answer `[]`: two bugs in
// one counterexample. The missing error's counterexample now answers what
// the arguments repaired under `{}` are.
func TestNoErrorShowsOneFault(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	lax := impl.Func("lax", func(ctx context.Context, c impl.Case) impl.Result {
		c.Schema = []byte(`{}`)
		if string(c.Args) == `{}` {
			return impl.OK([]byte(`[]`))
		}
		return impl.Reference.Normalize(ctx, c)
	})
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: lax, Want: want}, []rootcause.Finding{marked(lax, "broken", `5`, `{"p":"x","q":"y"}`)})
	if len(rcs) != 1 || rcs[0].Class != "no-error" || string(rcs[0].Case.Args) == `{}` {
		t.Errorf("root causes %+v, want one no-error whose arguments are not {}", rcs)
	}
}

// TestInferredTypeApartFromBlind: an implementation that infers a type
// the schema leaves unsaid from `items` or `properties` (array, object)
// decodes a stringified array or object there, and nothing else (`"5"`
// stays): a bug of its own, apart from decoding blind where no schema
// applies, though diagnose calls both a string decoded where the schema
// declares neither shape. @ai-sdk-tool/parser's `getSchemaType` does the
// first, its `coerceStringWithoutSchema` the second, and the first's
// vector was counted under the second. An implementation that decodes
// blind everywhere, `items` or not, keeps one root cause.
func TestInferredTypeApartFromBlind(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	decodeJSON := func(v *jsonvalue.Value) {
		if p, err := jsonvalue.Parse([]byte(v.Str)); v.Kind == jsonvalue.String && err == nil {
			*v = *p
		}
	}
	// infers reads `items` as `"type": "array"` and `properties` as
	// `"type": "object"` where no type is said, and decodes the JSON text
	// of a top-level member that `properties` does not name.
	infers := impl.Func("infers", func(ctx context.Context, c impl.Case) impl.Result {
		schema, err := jsonvalue.Parse(c.Schema)
		if err != nil {
			return impl.Reference.Normalize(ctx, c)
		}
		named := func(k string) bool { return schema.Member("properties").Member(k) != nil }
		edited, _ := jsonvalue.Parse(c.Schema)
		diagnose.WalkSchemas(edited, func(s *jsonvalue.Value) {
			for kw, t := range map[string]string{"items": "array", "properties": "object"} {
				if s.Member(kw) != nil && s.Member("type") == nil {
					s.Members = append(s.Members, jsonvalue.Member{Key: "type", Value: &jsonvalue.Value{Kind: jsonvalue.String, Str: t}})
				}
			}
		})
		c.Schema = edited.Append(nil)
		r := impl.Reference.Normalize(ctx, c)
		v, err := jsonvalue.Parse(r.Output)
		if !r.Answered() || err != nil || v.Kind != jsonvalue.Object {
			return r
		}
		for _, m := range v.Members {
			if !named(m.Key) {
				decodeJSON(m.Value)
			}
		}
		return impl.OK(v.Append(nil))
	})
	blind := impltest.Edited("blind", func(v *jsonvalue.Value) {
		for _, m := range v.Members {
			decodeJSON(m.Value)
		}
	})
	explain := func(im impl.Impl, fs ...[3]string) map[string]rootcause.RootCause {
		var findings []rootcause.Finding
		for _, f := range fs {
			findings = append(findings, marked(im, f[0], f[1], f[2]))
		}
		out := map[string]rootcause.RootCause{}
		for _, rc := range rootcause.Explain(context.Background(), rootcause.Config{Impl: im, Want: want}, findings) {
			out[rc.Class] = rc
		}
		return out
	}
	items := [3]string{"items.json", `{"type":"object","properties":{"p":{"description":"a list","items":{"type":"string"}}}}`, `{"p":"[1]"}`}
	props := [3]string{"props.json", `{"properties":{"o":{"properties":{"k":{"type":"integer"}}}}}`, `{"o":"{\"k\":1}"}`}
	blinds := [][3]string{
		{"blind1.json", `{"properties":{}}`, `{"q":"0"}`},
		{"blind2.json", `{"properties":{"n":{"type":"integer"}}}`, `{"n":1,"q":"[1]"}`},
		{"blind3.json", `{"type":"object"}`, `{"q":"{}"}`},
		{"blind4.json", `{"properties":{"p":{"type":"string"}}}`, `{"q":"[true]","p":"x"}`},
	}
	// The implementation keeps "5" under `items`: not blind there.
	if r := infers.Normalize(context.Background(), impl.Case{Schema: []byte(`{"properties":{"p":{"items":{}}}}`), Args: []byte(`{"p":"5"}`)}); string(r.Output) != `{"p":"5"}` {
		t.Fatalf("infers gives %s on \"5\" under items, want it kept", r.Output)
	}
	got := explain(infers, append([][3]string{items, props}, blinds...)...)
	inferred, ok := got["decoded-undeclared/inferred"]
	if !ok || len(got) != 2 {
		t.Fatalf("root causes %v, want decoded-undeclared and decoded-undeclared/inferred", slices.Collect(maps.Keys(got)))
	}
	if w := []string{"items.json", "props.json"}; !slices.Equal(inferred.Vectors, w) {
		t.Errorf("inferred: vectors %v, want %v", inferred.Vectors, w)
	}
	if w := "A `type` is inferred from `items` or `properties` where the schema declares none: a stringified array or object is decoded there"; inferred.Title != w {
		t.Errorf("inferred: title %q, want %q", inferred.Title, w)
	}
	// Minimized, the counterexample keeps the keyword the type is
	// inferred from.
	if got, w := string(inferred.Case.Schema)+" "+string(inferred.Case.Args), `{"properties":{"":{"items":{}}}} {"":"[]"}`; got != w {
		t.Errorf("inferred: counterexample %s, want %s", got, w)
	}
	if inferred.Clause != "reading/4" {
		t.Errorf("inferred: clause %s, want reading/4", inferred.Clause)
	}
	if w := []string{"blind1.json", "blind2.json", "blind3.json", "blind4.json"}; !slices.Equal(got["decoded-undeclared"].Vectors, w) {
		t.Errorf("decoded-undeclared: vectors %v, want %v", got["decoded-undeclared"].Vectors, w)
	}
	// Blind everywhere: `items` is beside the point.
	got = explain(blind, [3]string{"items.json", `{"properties":{"p":{"items":{}}}}`, `{"p":"[1]"}`}, blinds[0], blinds[1])
	if rc, ok := got["decoded-undeclared"]; len(got) != 1 || !ok || rc.Count() != 3 {
		t.Errorf("blind: root causes %v, want the 3 findings under decoded-undeclared", got)
	}
}

// TestNonFiniteTitle: a root cause of answers holding `NaN` or
// `Infinity` names what in its findings' arguments brought them about,
// failed cases of properties and fuzzing among them, and nothing they do
// not show.
func TestNonFiniteTitle(t *testing.T) {
	failed := func(source, id, schema, args, answer string) rootcause.Finding {
		c := impl.Case{Schema: []byte(schema), Args: []byte(args)}
		return rootcause.Finding{Source: source, ID: id, Case: c, Want: impl.Reference.Normalize(context.Background(), c),
			Got: impl.Fail(impl.ErrProtocol, `the answer is not a JSON object: "{\"id\": …, \"arguments\": `+answer+`}"`)}
	}
	word := failed(rootcause.Vector, "nan", `{"properties":{"p":{"type":"array"}}}`, `{"p":"[NaN]"}`, `{\"p\": [NaN]}`)
	huge := failed(rootcause.Failed, "fuzzing", `{}`, `{"n":1e400}`, `{\"n\": Infinity}`)
	const both = "The answer holds `NaN` or `Infinity`, which JSON does not have (a number past float64 written as `Infinity`; `NaN` or `Infinity` in a string read as a number)"
	for _, tt := range []struct {
		findings []rootcause.Finding
		title    string
	}{
		{[]rootcause.Finding{word}, "The answer holds `NaN` or `Infinity`, which JSON does not have (`NaN` or `Infinity` in a string read as a number)"},
		{[]rootcause.Finding{huge}, "The answer holds `NaN` or `Infinity`, which JSON does not have (a number past float64 written as `Infinity`)"},
		{[]rootcause.Finding{word, huge}, both},
		{[]rootcause.Finding{huge, word}, both},
	} {
		rcs := rootcause.Explain(context.Background(), rootcause.Config{}, tt.findings)
		if len(rcs) != 1 || rcs[0].Class != "failure/protocol/non-finite" || rcs[0].Count() != len(tt.findings) {
			t.Fatalf("root causes %+v, want one failure/protocol/non-finite of all", rcs)
		}
		if rcs[0].Title != tt.title {
			t.Errorf("title %q, want %q", rcs[0].Title, tt.title)
		}
	}
}

// TestCertainFailureShown: a root cause of failures of the program is
// shown by a case charged for certain rather than a smaller one charged
// by elimination, which a program that buffers its answers can have
// wrong (replayed, it is answered).
func TestCertainFailureShown(t *testing.T) {
	fail := func(id, args string, err error) rootcause.Finding {
		c := impl.Case{Schema: []byte(`{}`), Args: []byte(args)}
		return rootcause.Finding{Source: rootcause.Vector, ID: id, Case: c, Want: impl.Reference.Normalize(context.Background(), c), Got: impl.Fail(err, "no answer within 1s")}
	}
	deduced := fmt.Errorf("%w (%w)", impl.ErrTimeout, impl.ErrDeduced)
	for _, order := range [][]rootcause.Finding{
		{fail("small", `{"a":""}`, deduced), fail("certain", `{"a":"Fish & Chips"}`, impl.ErrTimeout)},
		{fail("certain", `{"a":"Fish & Chips"}`, impl.ErrTimeout), fail("small", `{"a":""}`, deduced)},
	} {
		rcs := rootcause.Explain(context.Background(), rootcause.Config{}, order)
		if len(rcs) != 1 || rcs[0].Count() != 2 || string(rcs[0].Case.Args) != `{"a":"Fish & Chips"}` {
			t.Errorf("root causes %+v, want one shown by the certain charge", rcs)
		}
	}
}

// TestCoercedInDecodedOnlyWhenDecodedMatters: a value converted inside
// JSON text the rule decodes is put down to the decoded text only when
// the implementation leaves it as it is once the text is sent decoded.
// @openclaw/ai converts every element under `"items":{"type":"string"}`
// to a string, in a real array and in decoded text alike: its `"[0]"`
// giving `["0"]` was a root cause of its own, "A value inside decoded
// JSON text is converted to another type", beside its plain conversions.
func TestCoercedInDecodedOnlyWhenDecodedMatters(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	// numbersInArrays makes every number in an array of the answer a
	// string, wherever the array came from.
	numbersInArrays := impltest.Edited("numbers in arrays", func(v *jsonvalue.Value) {
		var conv func(v *jsonvalue.Value, inArray bool)
		conv = func(v *jsonvalue.Value, inArray bool) {
			if inArray && v.Kind == jsonvalue.Number {
				*v = jsonvalue.Value{Kind: jsonvalue.String, Str: v.Number}
			}
			for _, m := range v.Members {
				conv(m.Value, false)
			}
			for _, e := range v.Elems {
				conv(e, true)
			}
		}
		conv(v, false)
	})
	// decodedOnly does the same only in arrays decoded from a string of
	// the arguments' top level.
	decodedOnly := impl.Func("decoded only", func(ctx context.Context, c impl.Case) impl.Result {
		r := impl.Reference.Normalize(ctx, c)
		in, err1 := jsonvalue.Parse(c.Args)
		out, err2 := jsonvalue.Parse(r.Output)
		if !r.Answered() || err1 != nil || err2 != nil || in.Kind != jsonvalue.Object || out.Kind != jsonvalue.Object {
			return r
		}
		for _, m := range out.Members {
			if sent := in.Member(m.Key); sent != nil && sent.Kind == jsonvalue.String && m.Value.Kind == jsonvalue.Array {
				for _, e := range m.Value.Elems {
					if e.Kind == jsonvalue.Number {
						*e = jsonvalue.Value{Kind: jsonvalue.String, Str: e.Number}
					}
				}
			}
		}
		return impl.OK(out.Append(nil))
	})
	schema := `{"type":"object","properties":{"":{"type":"array","items":{"type":"string"}}}}`
	for _, tc := range []struct {
		im    impl.Impl
		class string
	}{
		{numbersInArrays, "coerced"},
		{decodedOnly, "coerced-in-decoded"},
	} {
		f := marked(tc.im, "text", schema, `{"":"[0]"}`)
		if impl.Compare(f.Got, f.Want).Same() {
			t.Fatalf("%s: no finding", tc.im.Name())
		}
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: tc.im, Want: want}, []rootcause.Finding{f})
		if len(rcs) != 1 || rcs[0].Class != tc.class || rcs[0].Detail != "number to string" {
			t.Fatalf("%s: root causes %+v, want one %s (number to string)", tc.im.Name(), rcs, tc.class)
		}
		if w := diagnose.CoercedTitle(tc.class, []string{"number to string"}); rcs[0].Title != w {
			t.Errorf("%s: title %q, want %q", tc.im.Name(), rcs[0].Title, w)
		}
	}
}

// TestTypeBesideRef: a string decoded where only a `type` beside a
// draft-07 `$ref` names its shape is that `type` read (@cline/shared,
// @openclaw/ai and n8n-mcp never read `$ref`, and were titled "read
// through `$ref`"); an implementation that decodes the same under `{}`
// decodes blind, whatever it reads.
func TestTypeBesideRef(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	// ownType reads a level's own `type` and drops `$ref` and `$schema`.
	ownType := impltest.ReadsSchema("own type", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "$ref" || m.Key == "$schema" })
		})
	})
	blind := impltest.Edited("blind", func(v *jsonvalue.Value) {
		for _, m := range v.Members {
			if p, err := jsonvalue.Parse([]byte(m.Value.Str)); m.Value.Kind == jsonvalue.String && err == nil {
				*m.Value = *p
			}
		}
	})
	schema := `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"any":{}},"properties":{"":{"$ref":"#/definitions/any","type":"array"}}}`
	for _, tc := range []struct {
		im    impl.Impl
		class string
	}{
		{ownType, "decoded-undeclared/$ref-sibling"},
		{blind, "decoded-undeclared"},
	} {
		f := marked(tc.im, "v", schema, `{"":"[]"}`)
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: tc.im, Want: want}, []rootcause.Finding{f})
		if len(rcs) != 1 || rcs[0].Class != tc.class {
			t.Fatalf("%s: root causes %+v, want one %s", tc.im.Name(), rcs, tc.class)
		}
	}
}

// TestSchemaErrorTitle: an error a `$schema` brings about names the
// `$schema` values its findings show, in the drafts' order, whichever
// finding comes first. Ajv, as @mastra/core sets it up, errs under
// draft-04, draft-06 and 2019-09 and not under draft-07 or 2020-12: "under
// a schema with `$schema`" said it errs under any.
func TestSchemaErrorTitle(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	someDrafts := impl.Func("some drafts", func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Schema, []byte(`draft-04`)) || bytes.Contains(c.Schema, []byte(`2019-09`)) {
			return impl.Reject(impl.ErrUnspecified, `no schema with key or ref "https://json-schema.org/draft/2019-09/schema"`)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	findings := []rootcause.Finding{
		marked(someDrafts, "2019-09", `{"$schema":"https://json-schema.org/draft/2019-09/schema","properties":{"a":{"type":"array"}}}`, `{"a":"[1]"}`),
		marked(someDrafts, "draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#"}`, `{}`),
		marked(someDrafts, "draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#"}`, `{}`),
	}
	if impl.Compare(findings[2].Got, findings[2].Want).Same() {
		findings = findings[:2] // draft-07 passes: no finding
	}
	const title = "An error for arguments the rule repairs or passes through, under a schema whose `$schema` is draft-04 or 2019-09"
	for range 2 {
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: someDrafts, Want: want}, findings)
		if len(rcs) != 1 || rcs[0].Class != "error-for-valid-input/$schema" || rcs[0].Count() != 2 {
			t.Fatalf("root causes %+v, want one error-for-valid-input/$schema of both", rcs)
		}
		if rcs[0].Title != title || rcs[0].Detail != "draft-04, 2019-09" {
			t.Errorf("title %q (detail %q), want %q", rcs[0].Title, rcs[0].Detail, title)
		}
		slices.Reverse(findings)
	}
}

// explainAll explains the findings of im on the cases, each a schema and
// arguments, named by their index.
func explainAll(t *testing.T, im impl.Impl, cases ...[2]string) []rootcause.RootCause {
	t.Helper()
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	var findings []rootcause.Finding
	for i, c := range cases {
		f := marked(im, strconv.Itoa(i), c[0], c[1])
		if impl.Compare(f.Got, f.Want).Same() {
			t.Fatalf("%s: case %d: no finding", im.Name(), i)
		}
		findings = append(findings, f)
	}
	return rootcause.Explain(context.Background(), rootcause.Config{Impl: im, Want: want}, findings)
}

// members and elems are v's members and elements; none for nil.
func members(v *jsonvalue.Value) []jsonvalue.Member {
	if v == nil {
		return nil
	}
	return v.Members
}

func elems(v *jsonvalue.Value) []*jsonvalue.Value {
	if v == nil {
		return nil
	}
	return v.Elems
}

// classes is each root cause's class and how many findings it holds.
func classes(rcs []rootcause.RootCause) map[string]int {
	out := map[string]int{}
	for _, rc := range rcs {
		out[rc.Class] = rc.Count()
	}
	return out
}

// TestUnionWholeValue: an implementation that keeps a union branch's
// repair only where that one branch takes the whole value follows
// `anyOf` and `items` (each element alone is repaired), and misses
// elements that need different branches: not "`anyOf` then `items` are
// not followed", as @openclaw/ai's coerceWithUnionSchema was titled. One
// that does not follow `anyOf` stays a keyword not followed.
func TestUnionWholeValue(t *testing.T) {
	ref := impl.Reference
	whole := impl.Func("whole branch", func(ctx context.Context, c impl.Case) impl.Result {
		schema, err := jsonvalue.Parse(c.Schema)
		if err != nil {
			return ref.Normalize(ctx, c)
		}
		for _, m := range members(schema.Member("properties")) {
			bs := m.Value.Member("anyOf")
			if bs == nil {
				continue
			}
			union := *m.Value
			for _, b := range bs.Elems {
				*m.Value = *b
				s := c
				s.Schema = schema.Append(nil)
				r := ref.Normalize(ctx, s)
				out, err := jsonvalue.Parse(r.Output)
				if err == nil && (out.Member(m.Key) == nil || !slices.ContainsFunc(out.Member(m.Key).Elems, func(e *jsonvalue.Value) bool { return e.Kind == jsonvalue.String })) {
					return r
				}
			}
			*m.Value = jsonvalue.Value{Kind: jsonvalue.Object} // no branch takes it all: nothing repaired
			s := c
			s.Schema = schema.Append(nil)
			r := ref.Normalize(ctx, s)
			*m.Value = union
			return r
		}
		return ref.Normalize(ctx, c)
	})
	noAnyOf := impltest.ReadsSchema("no anyOf", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			for i, m := range s.Members {
				if m.Key == "anyOf" {
					s.Members[i].Key = "x-anyOf"
				}
			}
		})
	})
	c := [2]string{`{"type":"object","properties":{"p":{"anyOf":[{"type":"array","items":{"type":"array"}},{"type":"array","items":{"type":"object"}}]}}}`, `{"p":["[1]","{}"]}`}
	rcs := explainAll(t, whole, c)
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/union" || !strings.Contains(rcs[0].Title, "one branch takes the whole repaired value") {
		t.Errorf("whole branch: %v, %q; want one decode-missed/union", classes(rcs), rcs[0].Title)
	}
	if rcs := explainAll(t, noAnyOf, c); len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" || !strings.Contains(rcs[0].Title, "`anyOf`") {
		t.Errorf("no anyOf: %v; want one decode-missed/keyword naming anyOf", classes(rcs))
	}
}

// TestTypesAddedUp: an implementation that adds up the types of `type`
// and of every branch of `allOf` and `anyOf` follows both keywords (their
// plainest case is decoded), and keeps a string wherever one of them
// admits it: not "`allOf`; `anyOf` are not followed", as qwen-code's
// getAcceptedTypes was titled. The same adding substitutes a shape one
// `allOf` branch excludes: one root cause with it. One that does not
// follow `allOf` stays a keyword not followed.
func TestTypesAddedUp(t *testing.T) {
	var typesOf func(s *jsonvalue.Value, into []string) []string
	typesOf = func(s *jsonvalue.Value, into []string) []string {
		t := s.Member("type")
		switch {
		case t == nil:
		case t.Kind == jsonvalue.String:
			into = append(into, t.Str)
		default:
			for _, e := range t.Elems {
				into = append(into, e.Str)
			}
		}
		for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
			for _, b := range elems(s.Member(kw)) {
				into = typesOf(b, into)
			}
		}
		return into
	}
	added := impltest.ReadsSchema("types added up", func(s *jsonvalue.Value) {
		for _, m := range members(s.Member("properties")) {
			ts := typesOf(m.Value, nil)
			slices.Sort(ts)
			list := &jsonvalue.Value{Kind: jsonvalue.Array}
			for _, t := range slices.Compact(ts) {
				list.Elems = append(list.Elems, &jsonvalue.Value{Kind: jsonvalue.String, Str: t})
			}
			*m.Value = jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{{Key: "type", Value: list}}}
		}
	})
	noAllOf := impltest.ReadsSchema("no allOf", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			for i, m := range s.Members {
				if m.Key == "allOf" {
					s.Members[i].Key = "x-allOf"
				}
			}
		})
	})
	allOf := [2]string{`{"type":"object","properties":{"p":{"allOf":[{"type":["array","string"]},{"type":["array","null"]}]}}}`, `{"p":"[1]"}`}
	anyOf := [2]string{`{"type":"object","properties":{"p":{"type":["array","string"],"anyOf":[{"type":"array"},{"type":"null"}]}}}`, `{"p":"[1]"}`}
	union := [2]string{`{"type":"object","properties":{"p":{"allOf":[{"type":["object","array"]},{"type":"object"}]}}}`, `{"p":"[]"}`}
	rcs := explainAll(t, added, allOf, anyOf)
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/types-added" || rcs[0].Count() != 2 || !strings.Contains(rcs[0].Title, "a string one of them admits keeps the value a string") {
		t.Fatalf("types added up: %v %q; want one decode-missed/types-added of both", classes(rcs), rcs[0].Title)
	}
	rcs = explainAll(t, added, allOf, anyOf, union)
	if len(rcs) != 1 || rcs[0].Class != "types-added" || rcs[0].Count() != 3 || !strings.Contains(rcs[0].Title, "substituted") || !strings.Contains(rcs[0].Title, "keeps the value a string") {
		t.Errorf("types added up, both ways: %v %q; want one types-added of all three, naming both ways", classes(rcs), rcs[0].Title)
	}
	// A plain `type` beside an `anyOf` with a string branch: the string
	// the branch admits keeps it, not a plain miss (qwen-code's
	// b032793bda16264c was put with its array of arrays).
	anyOfString := [2]string{`{"type":"object","properties":{"p":{"type":"array","anyOf":[{"type":"string"},{"type":"array"}]}}}`, `{"p":"[1]"}`}
	if rcs := explainAll(t, added, anyOfString); len(rcs) != 1 || rcs[0].Class != "decode-missed/types-added" {
		t.Errorf("a string branch beside a type: %v; want one decode-missed/types-added", classes(rcs))
	}
	if rcs := explainAll(t, noAllOf, allOf); len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" {
		t.Errorf("no allOf: %v; want one decode-missed/keyword", classes(rcs))
	}
}

// TestRefOtherThanPointer: an implementation that follows `$ref` only as
// a `#/` pointer from the document root follows the plainest `$ref`; its
// miss under `"$ref": "#"` is a `$ref` other than that pointer, not
// "`$ref` not followed" (qwen-code's resolveRef). One that follows no
// `$ref` stays "`$ref` not followed".
func TestRefOtherThanPointer(t *testing.T) {
	refs := func(keep func(string) bool) impl.Impl {
		return impltest.ReadsSchema("refs", func(s *jsonvalue.Value) {
			diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
				for i, m := range s.Members {
					if m.Key == "$ref" && !keep(m.Value.Str) {
						s.Members[i].Key = "x-ref"
					}
				}
			})
		})
	}
	c := [2]string{`{"type":"object","properties":{"p":{"$ref":"#"}}}`, `{"p":"{}"}`}
	rcs := explainAll(t, refs(func(r string) bool { return strings.HasPrefix(r, "#/") }), c)
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" || !strings.Contains(rcs[0].Title, "`$ref` other than a plain `#/` pointer") {
		t.Errorf("pointers only: %v %q; want `$ref` other than a pointer", classes(rcs), rcs[0].Title)
	}
	rcs = explainAll(t, refs(func(string) bool { return false }), c)
	if len(rcs) != 1 || rcs[0].Title != diagnose.KeywordTitle([]string{"$ref"}) {
		t.Errorf("no $ref: %v %q; want `$ref` not followed", classes(rcs), rcs[0].Title)
	}
}

// TestPlainMissBehindKeyword: an implementation that decodes no string
// element of a real array under `items` misses it behind `anyOf` too:
// the plain miss (qwen-code's array of arrays), not `anyOf` then `items`
// not followed.
func TestPlainMissBehindKeyword(t *testing.T) {
	noElements := impl.Func("no elements", func(ctx context.Context, c impl.Case) impl.Result {
		r := impl.Reference.Normalize(ctx, c)
		in, err1 := jsonvalue.Parse(c.Args)
		out, err2 := jsonvalue.Parse(r.Output)
		if !r.Answered() || err1 != nil || err2 != nil {
			return r
		}
		for i, m := range in.Members {
			for j, e := range m.Value.Elems {
				if e.Kind == jsonvalue.String && m.Value.Kind == jsonvalue.Array && i < len(out.Members) && j < len(out.Members[i].Value.Elems) {
					out.Members[i].Value.Elems[j] = e
				}
			}
		}
		return impl.OK(out.Append(nil))
	})
	rcs := explainAll(t, noElements,
		[2]string{`{"type":"object","properties":{"p":{"anyOf":[{"type":"array","items":{"type":"array"}}]}}}`, `{"p":["[1]"]}`},
		[2]string{`{"type":"object","properties":{"q":{"type":"array","items":{"type":"array"}}}}`, `{"q":["[1]"]}`})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed" || rcs[0].Count() != 2 {
		t.Errorf("%v; want one decode-missed of both", classes(rcs))
	}
}

// TestPlainestNotEmpty: the plainest case a keyword's miss is held to is
// not an empty container: the PHP example, which does not follow `$ref`
// and gives `{}` as `[]`, had every keyword miss put down to a plain miss
// of `{"":"{}"}` under a plain `"type":"object"`, where what it gets
// wrong is the empty object.
func TestPlainestNotEmpty(t *testing.T) {
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	noRef := impltest.ReadsSchema("no-ref", func(s *jsonvalue.Value) {
		var drop func(v *jsonvalue.Value, depth int)
		drop = func(v *jsonvalue.Value, depth int) {
			if depth > 50 {
				return
			}
			v.Members = slices.DeleteFunc(v.Members, func(m jsonvalue.Member) bool { return m.Key == "$ref" })
			for _, m := range v.Members {
				drop(m.Value, depth+1)
			}
			for _, e := range v.Elems {
				drop(e, depth+1)
			}
		}
		drop(s, 0)
	})
	php := impl.Func("php", func(ctx context.Context, c impl.Case) impl.Result {
		r := noRef.Normalize(ctx, c)
		if r.Answered() {
			r.Output = bytes.ReplaceAll(r.Output, []byte(`{}`), []byte(`[]`))
		}
		return r
	})
	rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: php, Want: want}, []rootcause.Finding{
		marked(php, "ref", `{"type":"object","properties":{"p":{"$ref":"#/$defs/o"}},"$defs":{"o":{"type":"object"}}}`, `{"p":"{\"k\":1}"}`)})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" {
		t.Errorf("root causes %+v, want one decode-missed/keyword", rcs)
	}
}

// TestNestedKeywordMissIsNested: an implementation that reads only the
// plain `type` of each top-level property (the Node.js example) misses
// every declaration below the top, behind a keyword or not: a miss of an
// element behind `prefixItems` is the nested miss, since plain `items`
// there is missed too (the examples' keyword root cause listed
// `prefixItems` and `items` as a list).
func TestNestedKeywordMissIsNested(t *testing.T) {
	literal := impltest.ReadsSchema("literal", func(s *jsonvalue.Value) {
		props := s.Member("properties")
		s.Members = nil
		if props == nil || props.Kind != jsonvalue.Object {
			return
		}
		for i := range props.Members {
			p := props.Members[i].Value
			if p.Kind != jsonvalue.Object {
				continue
			}
			p.Members = slices.DeleteFunc(p.Members, func(m jsonvalue.Member) bool { return m.Key != "type" || m.Value.Kind != jsonvalue.String })
		}
		s.Members = []jsonvalue.Member{{Key: "properties", Value: props}}
	})
	rcs := explainAll(t, literal,
		[2]string{`{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"array"}]}}}`, `{"p":["[1]"]}`},
		[2]string{`{"type":"object","properties":{"r":{"type":"array","items":[{"type":"array"}]}}}`, `{"r":["[1]"]}`},
		[2]string{`{"type":"object","properties":{"q":{"type":"array","items":{"type":"array"}}}}`, `{"q":["[1]"]}`})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed" || rcs[0].Count() != 3 {
		t.Errorf("%v; want one decode-missed of the three", classes(rcs))
	}
}

// TestTwoFaultsNotShown: a stringified array whose element is a
// stringified array, under `items: {type: array}`, shows two faults of
// qwen-code at once: the decoded text is not walked, and a string element
// of an array of arrays is not decoded even in a real array. Its finding
// is the second's (sent decoded, the miss stays), and the counterexample
// is the one fault alone, a real array: RC1 was shown by
// `{"":"[\"[]\"]"}`.
func TestTwoFaultsNotShown(t *testing.T) {
	twoFaults := impl.Func("two faults", func(ctx context.Context, c impl.Case) impl.Result {
		r := impl.Reference.Normalize(ctx, c)
		in, err1 := jsonvalue.Parse(c.Args)
		out, err2 := jsonvalue.Parse(r.Output)
		if !r.Answered() || err1 != nil || err2 != nil || len(in.Members) != len(out.Members) {
			return r
		}
		for i, m := range in.Members {
			o := out.Members[i].Value
			switch {
			case m.Value.Kind == jsonvalue.String && (o.Kind == jsonvalue.Array || o.Kind == jsonvalue.Object):
				// Decoded, and not walked.
				if p, err := jsonvalue.Parse([]byte(m.Value.Str)); err == nil {
					*o = *p
				}
			case m.Value.Kind == jsonvalue.Array && o.Kind == jsonvalue.Array && len(o.Elems) == len(m.Value.Elems):
				// String elements stay as sent.
				for j, e := range m.Value.Elems {
					if e.Kind == jsonvalue.String {
						o.Elems[j] = e
					}
				}
			}
		}
		return impl.OK(out.Append(nil))
	})
	schema := `{"type":"object","properties":{"l":{"type":"array","items":{"type":"array"}}}}`
	for _, args := range []string{`{"l":"[\"[1]\",\"[2]\"]"}`, `{"l":"[\"[[1]]\"]"}`} {
		rcs := explainAll(t, twoFaults, [2]string{schema, args})
		if len(rcs) != 1 || rcs[0].Class != "decode-missed" {
			t.Fatalf("%s: %v; want one decode-missed", args, classes(rcs))
		}
		if got, want := string(rcs[0].Case.Args), `{"":["[]"]}`; got != want {
			t.Errorf("%s: counterexample %s, want %s (the element's miss alone)", args, got, want)
		}
	}
}

// TestAllOfFirstBranch: an implementation that takes, of the `allOf`
// branches that declare one member, the first branch's declaration
// (qwen-code's getEffectiveProperties) follows `allOf` then `properties`
// in their plainest case, and decodes once the branches are reversed:
// the order of the branches is what it misses, not the keywords (its
// miss under `[{"":{}},{"":{"type":"array"}}]` was titled "`allOf` then
// `properties` … are not followed").
func TestAllOfFirstBranch(t *testing.T) {
	first := impltest.ReadsSchema("first branch", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			seen := map[string]bool{}
			for _, b := range elems(s.Member("allOf")) {
				for _, m := range members(b.Member("properties")) {
					if seen[m.Key] {
						*m.Value = jsonvalue.Value{Kind: jsonvalue.Object}
					}
					seen[m.Key] = true
				}
			}
		})
	})
	rcs := explainAll(t, first, [2]string{`{"type":"object","properties":{"p":{"allOf":[{"type":"object","properties":{"x":{"type":["array","string"]}}},{"type":"object","properties":{"x":{"type":["array","null"]}}}]}}}`, `{"p":{"x":"[1]"}}`})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/allOf-first" || !strings.Contains(rcs[0].Title, "first") {
		t.Errorf("%v %q; want one decode-missed/allOf-first", classes(rcs), rcs[0].Title)
	}
}

// TestTypeBesideRefDropped: an implementation that reads what `$ref`
// leads to in the schema's place drops a `type` beside it, which 2020-12
// applies too: a miss the schema without the `$ref` does not make is
// that, though the target's type list admits a string (qwen-code's
// resolvePropSchema; 92970b620252bd10 was put with its array of arrays).
func TestTypeBesideRefDropped(t *testing.T) {
	dropped := impltest.ReadsSchema("type beside $ref dropped", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			if s.Member("$ref") != nil {
				s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "type" })
			}
		})
	})
	rcs := explainAll(t, dropped, [2]string{`{"type":"object","$defs":{"sa":{"type":["string","array"]}},"properties":{"p":{"$ref":"#/$defs/sa","type":"array"}}}`, `{"p":"[1]"}`})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/$ref-sibling" {
		t.Errorf("%v; want one decode-missed/$ref-sibling", classes(rcs))
	}
}

// titlesBothOrders explains findings on im, in their order and reversed,
// and returns the title of the one root cause of class each time gives;
// t fails unless each time gives one root cause of that class holding
// them all.
func titlesBothOrders(t *testing.T, im impl.Impl, class string, findings []rootcause.Finding) []string {
	t.Helper()
	want := func(c impl.Case) impl.Result { return impl.Reference.Normalize(context.Background(), c) }
	var titles []string
	for range 2 {
		rcs := rootcause.Explain(context.Background(), rootcause.Config{Impl: im, Want: want}, findings)
		if len(rcs) != 1 || rcs[0].Class != class || rcs[0].Count() != len(findings) {
			t.Fatalf("root causes %+v, want one %s of all", rcs, class)
		}
		titles = append(titles, rcs[0].Title)
		findings = slices.Clone(findings)
		slices.Reverse(findings)
	}
	return titles
}

// TestInDecodedShownByOneFault: an implementation that does not walk what
// it decodes, and reads a schema without `$schema` by draft 7 (no
// `prefixItems`, as qwen-code's Ajv), misses `{}` in `"[\"{}\"]"` under
// `prefixItems` for both reasons; sent decoded with `"$schema"` 2020-12
// it does not, so the finding is counted as a miss in decoded text. The
// root cause is shown by the case that shows that miss alone, the
// stringified object, though it is longer: fixing the one bug makes its
// counterexample pass.
func TestInDecodedShownByOneFault(t *testing.T) {
	var noPrefix func(v *jsonvalue.Value)
	noPrefix = func(v *jsonvalue.Value) {
		v.Members = slices.DeleteFunc(v.Members, func(m jsonvalue.Member) bool { return m.Key == "prefixItems" })
		for _, m := range v.Members {
			noPrefix(m.Value)
		}
		for _, e := range v.Elems {
			noPrefix(e)
		}
	}
	draft7Shallow := impl.Func("draft 7, shallow", func(ctx context.Context, c impl.Case) impl.Result {
		if s, err := jsonvalue.Parse(c.Schema); err == nil && s.Kind == jsonvalue.Object && s.Member("$schema") == nil {
			noPrefix(s)
			c.Schema = s.Append(nil)
		}
		r := impl.Reference.Normalize(ctx, c)
		in, err1 := jsonvalue.Parse(c.Args)
		out, err2 := jsonvalue.Parse(r.Output)
		if !r.Answered() || err1 != nil || err2 != nil || in.Kind != jsonvalue.Object {
			return r
		}
		for i, m := range in.Members {
			if o := out.Members[i].Value; m.Value.Kind == jsonvalue.String && (o.Kind == jsonvalue.Object || o.Kind == jsonvalue.Array) {
				if v, err := jsonvalue.Parse([]byte(m.Value.Str)); err == nil {
					out.Members[i].Value = v
				}
			}
		}
		return impl.OK(out.Append(nil))
	})
	object := [2]string{`{"properties":{"p":{"type":"object","properties":{"ids":{"type":"array"}}}}}`, `{"p":"{\"ids\":\"[1]\"}"}`}
	rcs := explainAll(t, draft7Shallow,
		[2]string{`{"properties":{"p":{"type":"array","prefixItems":[{"type":"object"}]}}}`, `{"p":"[\"{}\"]"}`},
		object)
	if len(rcs) != 1 || rcs[0].Class != diagnose.InDecoded.Class || rcs[0].Count() != 2 {
		for _, rc := range rcs {
			t.Logf("%s (%d): %s %s", rc.Class, rc.Count(), rc.Case.Schema, rc.Case.Args)
		}
		t.Fatalf("%d root causes, want one %s of both findings", len(rcs), diagnose.InDecoded.Class)
	}
	if c := rcs[0].Case; bytes.Contains(c.Schema, []byte("prefixItems")) || !bytes.Contains(c.Args, []byte(`{\"`)) {
		t.Errorf("counterexample %s %s: want the stringified object's, which shows the one fault", c.Schema, c.Args)
	}
}

// TestOlderDraftOneRootCause: an implementation that reads a schema
// without `$schema` by draft 7 or draft 4 (the reference, so read) has one
// bug, whatever it shows: a declaration beside `$ref` ignored, a `$ref`
// to an `$anchor` or an embedded `$id` it cannot resolve, a `$dynamicRef`
// route not followed. Each case is repaired as the rule says once its
// schema says `"$schema"` 2020-12: one root cause, named so, not four
// (an error "under a schema with `$ref`" sent a maintainer the wrong way).
func TestOlderDraftOneRootCause(t *testing.T) {
	cases := [][2]string{
		{`{"type":"object","$defs":{"base":{"type":"object","properties":{"ids":{"type":"array"}}}},"properties":{"p":{"$ref":"#/$defs/base","properties":{"extra":{"type":"array"}}}}}`, `{"p":"{\"ids\":\"[1]\",\"extra\":\"[2]\"}"}`},
		{`{"type":"object","properties":{"a":{"$ref":"https://example.com/inner"}},"$defs":{"x":{"type":"string"},"inner":{"$id":"https://example.com/inner","$ref":"#/$defs/x","$defs":{"x":{"type":"array"}}}}}`, `{"a":"[1]"}`},
		{`{"type":"object","$defs":{"l":{"$anchor":"list","type":"array"}},"properties":{"a":{"$ref":"#list"}}}`, `{"a":"[1]"}`},
		{`{"type":"object","$defs":{"sa":{"type":["string","array"]}},"properties":{"p":{"$ref":"#/$defs/sa","type":"array"}}}`, `{"p":"[1]"}`},
		{`{"$id":"https://example.com/tool","type":"object","properties":{"rows":{"$ref":"list"}},"$defs":{"row":{"$dynamicAnchor":"item","type":"string"},"list":{"$id":"list","type":"array","items":{"$dynamicRef":"#item"},"$defs":{"default":{"$anchor":"item","type":"array"}}}}}`, `{"rows":["[1]"]}`},
	}
	for _, draft := range []normalize.Draft{normalize.Draft7, normalize.Draft4} {
		im := impl.ReferenceWith(normalize.WithDraft(draft))
		var found [][2]string
		for _, c := range cases {
			ic := impl.Case{Schema: []byte(c[0]), Args: []byte(c[1])}
			if impl.Compare(im.Normalize(context.Background(), ic), impl.Reference.Normalize(context.Background(), ic)).Violation() {
				found = append(found, c)
			}
		}
		if len(found) < 4 {
			t.Fatalf("draft %v: %d findings of %d cases: the test's cases no longer show an older draft", draft, len(found), len(cases))
		}
		rcs := explainAll(t, im, found...)
		if len(rcs) != 1 || rcs[0].Count() != len(found) || !strings.Contains(rcs[0].Title, "read by an older draft") {
			for _, rc := range rcs {
				t.Logf("%s (%d): %s", rc.Class, rc.Count(), rc.Title)
			}
			t.Errorf("draft %v: %d root causes, want one of all %d findings, titled by the draft", draft, len(rcs), len(found))
		}
	}
}

// TestIgnoredKeywordBothWays: an implementation that does not follow
// `patternProperties` misses a stringified array a pattern declares, and
// decodes a string a pattern keeps a string where `additionalProperties`
// declares array: one bug seen from both sides (qwen-code, openclaw), one
// root cause whose title says both, as for a `type` list read as one of
// its types.
func TestIgnoredKeywordBothWays(t *testing.T) {
	noPatterns := impltest.ReadsSchema("no patternProperties", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "patternProperties" })
		})
	})
	rcs := explainAll(t, noPatterns,
		[2]string{`{"type":"object","patternProperties":{"^a_":{"type":"array"}}}`, `{"a_x":"[1]"}`},
		[2]string{`{"type":"object","patternProperties":{"^s_":{"type":"string"}},"additionalProperties":{"type":"array"}}`, `{"s_x":"[1]"}`})
	if len(rcs) != 1 || rcs[0].Count() != 2 || !strings.Contains(rcs[0].Title, "stays a string") || !strings.Contains(rcs[0].Title, "where only `patternProperties` keep") {
		for _, rc := range rcs {
			t.Logf("%s (%d): %s", rc.Class, rc.Count(), rc.Title)
		}
		t.Fatalf("%d root causes, want one of both findings, titled with both sides", len(rcs))
	}
}

// TestCoercedTitleProbed: a root cause of values converted names every
// conversion the implementation makes between the scalar types, probed,
// not only those its findings happened to show: openclaw's listed 9, 10
// or 11 of its 12 by seed.
func TestCoercedTitleProbed(t *testing.T) {
	// converter converts a top-level parameter to the scalar type its
	// schema declares, from any other scalar type.
	converter := impl.Func("converter", func(ctx context.Context, c impl.Case) impl.Result {
		s, err1 := jsonvalue.Parse(c.Schema)
		a, err2 := jsonvalue.Parse(c.Args)
		if err1 != nil || err2 != nil || a.Kind != jsonvalue.Object {
			return impl.Reference.Normalize(ctx, c)
		}
		props := s.Member("properties")
		for i, m := range a.Members {
			var typ *jsonvalue.Value
			if props != nil && props.Member(m.Key) != nil {
				typ = props.Member(m.Key).Member("type")
			}
			if typ == nil || typ.Kind != jsonvalue.String || m.Value.Kind == jsonvalue.Array || m.Value.Kind == jsonvalue.Object {
				continue
			}
			switch typ.Str {
			case "string":
				a.Members[i].Value = &jsonvalue.Value{Kind: jsonvalue.String, Str: string(m.Value.Append(nil))}
			case "boolean":
				a.Members[i].Value = &jsonvalue.Value{Kind: jsonvalue.Bool, Bool: true}
			case "number":
				a.Members[i].Value = &jsonvalue.Value{Kind: jsonvalue.Number, Number: "1"}
			case "null":
				a.Members[i].Value = &jsonvalue.Value{Kind: jsonvalue.Null}
			}
		}
		return impl.OK(a.Append(nil))
	})
	rcs := explainAll(t, converter, [2]string{`{"properties":{"p":{"type":"string"}}}`, `{"p":5}`})
	const all = "(boolean to null, boolean to number, boolean to string, null to boolean, null to number, null to string, number to boolean, number to null, number to string, string to boolean, string to null, string to number)"
	if len(rcs) != 1 || rcs[0].Class != "coerced" || !strings.HasSuffix(rcs[0].Title, all) {
		for _, rc := range rcs {
			t.Logf("%s: %s", rc.Class, rc.Title)
		}
		t.Fatalf("want one coerced root cause whose title ends %s", all)
	}
}

// TestUnknownDraft: a `$schema` the program does not read. mastra's
// validate mode errs under one Ajv does not know, and without `$schema`
// its adapter answers "unsupported" (its validation error): the error is
// gone once `$schema` is, so it is `$schema`'s, named by its drafts, not
// an error of no keyword (draft-06 and 2019-09 were put with a `toString`
// key's error). qwen-code neither validates nor repairs under one: a miss
// cured by taking `$schema` out is decode-missed/$schema, not a plain miss
// beside its miss under `items`.
func TestUnknownDraft(t *testing.T) {
	unknown := func(c impl.Case) bool {
		return bytes.Contains(c.Schema, []byte(`"$schema"`)) && !bytes.Contains(c.Schema, []byte("2020-12"))
	}
	validator := impl.Func("validator", func(ctx context.Context, c impl.Case) impl.Result {
		if unknown(c) {
			return impl.Reject(impl.ErrUnspecified, `no schema with key or ref "x"`)
		}
		if bytes.Contains(c.Args, []byte(`"[`)) {
			return impl.Fail(impl.ErrNotSendable, "unsupported: p: must be array")
		}
		return impl.Reference.Normalize(ctx, c)
	})
	skips := impl.Func("skips", func(ctx context.Context, c impl.Case) impl.Result {
		if unknown(c) {
			return impl.OK(c.Args)
		}
		return impl.Reference.Normalize(ctx, c)
	})
	for _, tt := range []struct {
		im    impl.Impl
		class string
	}{
		{validator, "error-for-valid-input/$schema"},
		{skips, "decode-missed/$schema"},
	} {
		rcs := explainAll(t, tt.im,
			[2]string{`{"$schema":"http://json-schema.org/draft-06/schema#","type":"object","properties":{"p":{"type":"array"}}}`, `{"p":"[1]"}`},
			[2]string{`{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","properties":{"p":{"type":"array"}}}`, `{"p":"[1]"}`})
		if len(rcs) != 1 || rcs[0].Class != tt.class || !strings.Contains(rcs[0].Title, "draft-06 or 2019-09") {
			for _, rc := range rcs {
				t.Logf("%s (%d): %s", rc.Class, rc.Count(), rc.Title)
			}
			t.Errorf("%s: want one %s naming draft-06 and 2019-09", tt.im.Name(), tt.class)
		}
	}
}

// TestPrototypeKeys: a JavaScript implementation that reads members
// through a plain object trips on the names `Object.prototype` has
// (qwen-code decodes no parameter named `constructor` or `prototype`;
// mastra's error list throws for a `toString`): a root cause of its own,
// named so, not a plain miss "where the schema declares array" (it
// decodes every other name) nor an error of no cause; the title names
// the names it trips on (qwen-code's are not `toString`).
func TestPrototypeKeys(t *testing.T) {
	dangerous := []string{`"constructor"`, `"prototype"`, `"toString"`}
	skips := impl.Func("skips", func(ctx context.Context, c impl.Case) impl.Result {
		for _, k := range dangerous {
			if bytes.Contains(c.Args, []byte(k)) {
				return impl.OK(c.Args)
			}
		}
		return impl.Reference.Normalize(ctx, c)
	})
	throws := impl.Func("throws", func(ctx context.Context, c impl.Case) impl.Result {
		for _, k := range dangerous {
			if bytes.Contains(c.Schema, []byte(k)) {
				return impl.Reject(impl.ErrUnspecified, "Cannot read properties of undefined (reading 'push')")
			}
		}
		return impl.Reference.Normalize(ctx, c)
	})
	for _, tt := range []struct {
		im    impl.Impl
		class string
	}{
		{skips, "decode-missed/prototype-key"},
		{throws, "error-for-valid-input/prototype-key"},
	} {
		rcs := explainAll(t, tt.im, [2]string{`{"type":"object","properties":{"constructor":{"type":"array"},"prototype":{"type":"object"}}}`, `{"constructor":"[1]","prototype":"{}"}`})
		// The names it trips on, probed: not every name objects have.
		if len(rcs) != 1 || rcs[0].Class != tt.class || !strings.Contains(rcs[0].Title, "`constructor`, `prototype` or `toString`") || strings.Contains(rcs[0].Title, "valueOf") {
			for _, rc := range rcs {
				t.Logf("%s (%d): %s (%s %s)", rc.Class, rc.Count(), rc.Title, rc.Case.Schema, rc.Case.Args)
			}
			t.Errorf("%s: want one %s, naming constructor, prototype and toString only", tt.im.Name(), tt.class)
		}
	}
}

// TestLossyDetailKept: JSON.parse moves integer-like keys first inside
// decoded text; minimizing `{"b":"","1":""}` may shorten both keys to ""
// and make the loss duplicates collapsed, the same class: the title then
// named no key order, though the finding shows only that (the Node.js
// example). A minimization keeps the loss its case shows.
func TestLossyDetailKept(t *testing.T) {
	jsParse := impltest.Edited("JSON.parse", func(v *jsonvalue.Value) {
		var walk func(v *jsonvalue.Value)
		walk = func(v *jsonvalue.Value) {
			if v.Kind == jsonvalue.Object {
				// Integer-like keys first, duplicates collapsed to the last.
				var ints, rest []jsonvalue.Member
				for _, m := range v.Members {
					list := &rest
					if n, err := strconv.Atoi(m.Key); err == nil && n >= 0 && strconv.Itoa(n) == m.Key {
						list = &ints
					}
					if i := slices.IndexFunc(*list, func(x jsonvalue.Member) bool { return x.Key == m.Key }); i >= 0 {
						(*list)[i].Value = m.Value
						continue
					}
					*list = append(*list, m)
				}
				v.Members = append(ints, rest...)
			}
			for _, m := range v.Members {
				walk(m.Value)
			}
			for _, e := range v.Elems {
				walk(e)
			}
		}
		walk(v)
	})
	rcs := explainAll(t, jsParse, [2]string{`{"type":"object","properties":{"p":{"type":"object"}}}`, `{"p":"{\"b\":\"\",\"1\":\"\"}"}`})
	if len(rcs) != 1 || rcs[0].Class != "decoded-json-lossy" || !strings.Contains(rcs[0].Title, "integer-like keys moved first") {
		for _, rc := range rcs {
			t.Logf("%s (%d): %s (%s %s)", rc.Class, rc.Count(), rc.Title, rc.Case.Schema, rc.Case.Args)
		}
		t.Fatal("want one decoded-json-lossy titled with the keys moved")
	}
}

// TestMissedInElements: qwen-code decodes a stringified array below the
// top level through `properties`, and misses one that is an element of an
// array (`items` declaring array): a title "below the top level" was
// false of it. Misses that are all of elements say so.
func TestMissedInElements(t *testing.T) {
	noElements := impltest.ReadsSchema("no array elements", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			if it := s.Member("items"); it != nil && it.Kind == jsonvalue.Object {
				it.Members = slices.DeleteFunc(it.Members, func(m jsonvalue.Member) bool { return m.Key == "type" })
			}
		})
	})
	rcs := explainAll(t, noElements,
		[2]string{`{"type":"object","properties":{"rows":{"type":"array","items":{"type":"array"}}}}`, `{"rows":["[1]","[2]"]}`},
		[2]string{`{"type":"object","properties":{"t":{"type":"object","properties":{"rows":{"type":"array","items":{"type":"array"}}}}}}`, `{"t":{"rows":["[1]"]}}`})
	if len(rcs) != 1 || !strings.HasSuffix(rcs[0].Title, diagnose.InElements) {
		for _, rc := range rcs {
			t.Logf("%s (%d): %s", rc.Class, rc.Count(), rc.Title)
		}
		t.Fatal("want one root cause titled as a miss in an array's elements")
	}
}

// TestUntypedUnderKeyword: ai-sdk-tool-parser infers an object from
// `properties` where a level's `type` is unsaid, and not from
// `patternProperties`: "Nothing is decoded where the schema leaves a
// level's `type` unsaid" was false of it. Where an untyped level with
// `properties` is decoded, the title names the keyword that is not.
func TestUntypedUnderKeyword(t *testing.T) {
	// infers reads an untyped schema with properties as an object, and
	// any other untyped schema as nothing.
	infers := impltest.ReadsSchema("infers from properties", func(s *jsonvalue.Value) {
		if s.Member("type") == nil && s.Member("properties") == nil {
			s.Members = nil
		}
	})
	rcs := explainAll(t, infers, [2]string{`{"patternProperties":{"^p":{"type":"array"}}}`, `{"p1":"[1]"}`})
	if len(rcs) != 1 || !strings.Contains(rcs[0].Title, "`patternProperties`") || !strings.Contains(rcs[0].Title, "unsaid") {
		for _, rc := range rcs {
			t.Logf("%s (%d): %s (%s %s)", rc.Class, rc.Count(), rc.Title, rc.Case.Schema, rc.Case.Args)
		}
		t.Fatal("want one root cause of an untyped level, naming patternProperties")
	}
	// One that infers nothing keeps the title that says so.
	nothing := impltest.ReadsSchema("infers nothing", func(s *jsonvalue.Value) {
		if s.Member("type") == nil {
			s.Members = nil
		}
	})
	rcs = explainAll(t, nothing, [2]string{`{"patternProperties":{"^p":{"type":"array"}}}`, `{"p1":"[1]"}`})
	if len(rcs) != 1 || strings.Contains(rcs[0].Title, "`patternProperties`") || !strings.Contains(rcs[0].Title, "unsaid") {
		for _, rc := range rcs {
			t.Logf("%s (%d): %s", rc.Class, rc.Count(), rc.Title)
		}
		t.Fatal("want one root cause of an untyped level, titled for every keyword")
	}
}

// TestMisdecodedByASemicolonMissed: PHP leaves `&not` (no `;`) as it is,
// decodes `&#105;` to `i`, and the next pass reads `&notin;` as "∉":
// "decoded to other text than HTML gives" was true of the text, but the
// bug is the legacy name without its `;`, sent decoded the case passes.
func TestMisdecodedByASemicolonMissed(t *testing.T) {
	// strict decodes every reference but a named one without its `;`,
	// pass after pass.
	strict := impl.Func("strict", func(_ context.Context, c impl.Case) impl.Result {
		v, err := jsonvalue.Parse(c.Args)
		if err != nil {
			return impl.Reject(impl.ErrInvalidJSON, err.Error())
		}
		var walk func(v *jsonvalue.Value)
		walk = func(v *jsonvalue.Value) {
			if v.Kind == jsonvalue.String {
				for s := []byte(v.Str); ; {
					var out []byte
					for i := 0; i < len(s); i++ {
						if s[i] == '&' {
							if r1, r2, n := entity.Decide(s[i:], entity.Text); n > 0 && (s[i+n-1] == ';' || s[i+1] == '#') {
								out = utf8.AppendRune(out, r1)
								if r2 != 0 {
									out = utf8.AppendRune(out, r2)
								}
								i += n - 1
								continue
							}
						}
						out = append(out, s[i])
					}
					if bytes.Equal(out, s) {
						break
					}
					s = out
					v.Str = string(s)
				}
			}
			for _, m := range v.Members {
				walk(m.Value)
			}
			for _, e := range v.Elems {
				walk(e)
			}
		}
		walk(v)
		return impl.OK(v.Append(nil))
	})
	rcs := explainAll(t, strict, [2]string{`{}`, `{"p":"&not&#105;n;"}`})
	if len(rcs) != 1 || rcs[0].Class != "undecoded/named-no-semicolon" {
		for _, rc := range rcs {
			t.Logf("%s (%d): %s (%s)", rc.Class, rc.Count(), rc.Title, rc.Case.Args)
		}
		t.Fatal("want one undecoded/named-no-semicolon")
	}
}

// TestNotJSONMadeWhereInferred: ai-sdk-tool-parser infers an array from
// `items` where no type is said, and makes text that is not JSON into an
// array: `""` under `{"items":{}}` becomes `[]`, two faults at once. It is
// counted with the inference's root cause, not with a blind decoding's,
// which the program does not do (`""` under `{}` stays).
func TestNotJSONMadeWhereInferred(t *testing.T) {
	coercer := impl.Func("coercer", func(ctx context.Context, c impl.Case) impl.Result {
		s, err1 := jsonvalue.Parse(c.Schema)
		a, err2 := jsonvalue.Parse(c.Args)
		if err1 != nil || err2 != nil || a.Kind != jsonvalue.Object {
			return impl.Reference.Normalize(ctx, c)
		}
		props := s.Member("properties")
		for i, m := range a.Members {
			var p *jsonvalue.Value
			if props != nil {
				p = props.Member(m.Key)
			}
			if m.Value.Kind != jsonvalue.String {
				continue
			}
			if p == nil {
				// No schema: JSON text decoded blind, other text kept.
				if v, err := jsonvalue.Parse([]byte(m.Value.Str)); err == nil && (v.Kind == jsonvalue.Array || v.Kind == jsonvalue.Object) {
					a.Members[i].Value = v
				}
				continue
			}
			typ := p.Member("type")
			if !(typ != nil && typ.Kind == jsonvalue.String && typ.Str == "array" || typ == nil && p.Member("items") != nil) {
				continue
			}
			if v, err := jsonvalue.Parse([]byte(m.Value.Str)); err == nil && v.Kind == jsonvalue.Array {
				a.Members[i].Value = v
				continue
			}
			arr := &jsonvalue.Value{Kind: jsonvalue.Array}
			if m.Value.Str != "" {
				arr.Elems = []*jsonvalue.Value{{Kind: jsonvalue.String, Str: m.Value.Str}}
			}
			a.Members[i].Value = arr
		}
		return impl.OK(a.Append(nil))
	})
	rcs := explainAll(t, coercer,
		[2]string{`{"properties":{}}`, `{"q":"[1]","r":"[2]","s":"[3]"}`},
		[2]string{`{"properties":{"p":{"items":{}}}}`, `{"p":"[1]"}`},
		[2]string{`{"properties":{"p":{"type":"array"}}}`, `{"p":"x"}`},
		[2]string{`{"properties":{"p":{"items":{}}}}`, `{"p":""}`})
	got := map[string][]string{}
	for _, rc := range rcs {
		got[rc.Class] = rc.Vectors
	}
	if !slices.Equal(got["decoded-undeclared/inferred"], []string{"1", "3"}) || !slices.Equal(got["made-from-not-json"], []string{"2"}) || len(rcs) != 3 {
		for _, rc := range rcs {
			t.Logf("%s %v: %s", rc.Class, rc.Vectors, rc.Title)
		}
		t.Fatal("want the blind decoding of 0, the inference's root cause of 1 and 3, made-from-not-json of 2")
	}
}

// TestKeywordTitleProbed: a root cause of keywords not followed names
// every keyword of a plain declaration the implementation misses, probed
// at the top level, not only those its findings happened to show (n8n's
// title left out `oneOf`, which it does not follow either).
func TestKeywordTitleProbed(t *testing.T) {
	noCombinators := impltest.ReadsSchema("no combinators", func(s *jsonvalue.Value) {
		diagnose.WalkSchemas(s, func(s *jsonvalue.Value) {
			s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "anyOf" || m.Key == "oneOf" })
		})
	})
	rcs := explainAll(t, noCombinators, [2]string{`{"type":"object","properties":{"p":{"anyOf":[{"type":"array"}]}}}`, `{"p":"[1]"}`})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed/keyword" || !strings.Contains(rcs[0].Title, "`anyOf`, `oneOf`") {
		for _, rc := range rcs {
			t.Logf("%s: %s", rc.Class, rc.Title)
		}
		t.Fatal("want one keyword root cause naming anyOf and oneOf")
	}
}

// TestNullDroppedWhereNotAdmitted: mastra's validate mode drops a `null`
// the schema does not admit, and keeps one it admits: "A member whose
// value is `null` is dropped" was broader than the bug.
func TestNullDroppedWhereNotAdmitted(t *testing.T) {
	strip := impl.Func("strip", func(ctx context.Context, c impl.Case) impl.Result {
		s, err1 := jsonvalue.Parse(c.Schema)
		a, err2 := jsonvalue.Parse(c.Args)
		if err1 != nil || err2 != nil || a.Kind != jsonvalue.Object {
			return impl.Reference.Normalize(ctx, c)
		}
		a.Members = slices.DeleteFunc(a.Members, func(m jsonvalue.Member) bool {
			p := s.Member("properties").Member(m.Key)
			return m.Value.Kind == jsonvalue.Null && p != nil && p.Member("type") != nil && p.Member("type").Str != "null"
		})
		return impl.OK(a.Append(nil))
	})
	rcs := explainAll(t, strip, [2]string{`{"properties":{"a":{"type":"string"}}}`, `{"a":null}`})
	if len(rcs) != 1 || rcs[0].Class != "member-dropped/null" || !strings.Contains(rcs[0].Title, "does not admit") {
		for _, rc := range rcs {
			t.Logf("%s: %s", rc.Class, rc.Title)
		}
		t.Fatal("want one member-dropped/null saying where the schema does not admit null")
	}
}

// TestKeywordInDecodedTextPlainMiss: the Node.js example reads the types
// of top-level properties only; a miss behind `patternProperties` inside
// a decoded stringified object is its miss below the top level, as the
// same place declared with `properties` is missed too (the way to it
// runs through the decoded string, which the plainest case used to stop
// at: the finding was put down to `patternProperties`).
func TestKeywordInDecodedTextPlainMiss(t *testing.T) {
	rcs := explainAll(t, topLevelOnly,
		[2]string{`{"properties":{"":{"type":"object","properties":{"k":{"patternProperties":{"":{"type":"array"}}}}}}}`, `{"":"{\"k\":{\"\":\"[]\"}}"}`})
	if len(rcs) != 1 || rcs[0].Class != "decode-missed" {
		for _, rc := range rcs {
			t.Logf("%s: %s (%s %s)", rc.Class, rc.Title, rc.Case.Schema, rc.Case.Args)
		}
		t.Fatal("want one plain decode-missed")
	}
}

// leaves is the reference, but for a case whose arguments hold one of
// refs: those it gives back as they are, nothing decoded.
func leaves(name string, refs ...string) impl.Impl {
	return impl.Func(name, func(ctx context.Context, c impl.Case) impl.Result {
		for _, ref := range refs {
			if bytes.Contains(c.Args, []byte(ref)) {
				return impl.OK(c.Args)
			}
		}
		return impl.Reference.Normalize(ctx, c)
	})
}

// TestProbedTitlesNarrow: titles probed to say no more than the program
// does. notion-mcp-server decodes array and object text whatever the
// schema says and keeps `"1"`; qwen-code errs under a `$ref` cycle through
// `allOf` and answers one that leads straight back; ai-sdk-tool-parser
// converts an object to a number, not only to a string.
func TestProbedTitlesNarrow(t *testing.T) {
	containers := impltest.Edited("containers", func(v *jsonvalue.Value) {
		for _, m := range v.Members {
			if p, err := jsonvalue.Parse([]byte(m.Value.Str)); m.Value.Kind == jsonvalue.String && err == nil && (p.Kind == jsonvalue.Array || p.Kind == jsonvalue.Object) {
				*m.Value = *p
			}
		}
	})
	rcs := explainAll(t, containers, [2]string{`{"properties":{"p":{"type":"string"}},"type":"object"}`, `{"p":"[1]"}`}, [2]string{`{}`, `{"q":"{}"}`})
	if len(rcs) != 1 || rcs[0].Title != "A stringified array or object is decoded as JSON whatever the schema declares there, even under the empty schema `{}`" {
		for _, rc := range rcs {
			t.Logf("%s: %s", rc.Class, rc.Title)
		}
		t.Error("containers: want the blind title narrowed to arrays and objects")
	}
	allOfCycle := impl.Func("allOf cycle", func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Schema, []byte(`"allOf":[{"$ref"`)) {
			return impl.Reject(impl.ErrUnspecified, "Maximum call stack size exceeded")
		}
		return impl.Reference.Normalize(ctx, c)
	})
	rcs = explainAll(t, allOfCycle, [2]string{`{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/a"}]}},"properties":{"":{"$ref":"#/$defs/a"}}}`, `{"":""}`})
	if len(rcs) != 1 || !strings.Contains(rcs[0].Title, "through `allOf`") {
		for _, rc := range rcs {
			t.Logf("%s: %s", rc.Class, rc.Title)
		}
		t.Error("allOf cycle: want the cycle's title to name allOf")
	}
}
