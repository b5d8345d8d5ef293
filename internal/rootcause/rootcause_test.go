package rootcause_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/rootcause"
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

// batcher is buggy behind a program that takes batches: each batch takes
// a millisecond (of the bubble's clock), whatever its size.
type batcher struct {
	impl.Impl
	mu       sync.Mutex
	sending  int // batches under way
	overlap  bool
	largest  int
	requests int
}

func (b *batcher) RunBatch(ctx context.Context, cases []impl.Case) []impl.Result {
	b.mu.Lock()
	b.sending++
	b.overlap = b.overlap || b.sending > 1
	b.largest = max(b.largest, len(cases))
	b.requests += len(cases)
	b.mu.Unlock()
	time.Sleep(time.Millisecond)
	out := make([]impl.Result, len(cases))
	for i, c := range cases {
		out[i] = b.Impl.Normalize(ctx, c)
	}
	b.mu.Lock()
	b.sending--
	b.mu.Unlock()
	return out
}

// TestExplainBatched: findings minimized several at a time, their
// requests coalesced into batches, give the root causes of the findings
// minimized one after the other, and no case is sent twice.
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
	var calls int
	counted := impl.Func("buggy", func(ctx context.Context, c impl.Case) impl.Result {
		calls++
		return buggy.Normalize(ctx, c)
	})
	serial = rootcause.Explain(context.Background(), rootcause.Config{Impl: counted, Want: want}, findings)
	synctest.Test(t, func(t *testing.T) {
		b := &batcher{Impl: buggy}
		got := rootcause.Explain(context.Background(), rootcause.Config{Impl: b, Want: want}, findings)
		if !reflect.DeepEqual(got, serial) {
			t.Errorf("batched:\n%+v\none at a time:\n%+v", got, serial)
		}
		if b.overlap {
			t.Error("two batches were under way at once")
		}
		if b.largest < 2 {
			t.Errorf("the largest batch had %d case, want several findings' cases together", b.largest)
		}
		if b.requests != calls {
			t.Errorf("%d cases sent in batches, %d one at a time", b.requests, calls)
		}
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
// findings show, and its title names them, the counterexample's first.
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
}

// TestCrashRunOnce: a case the program crashed on is not run again within
// one explanation, however many findings' minimizations ask for it; a
// timeout (which may come from a loaded machine) and a give-up are, as
// they may not happen again.
func TestCrashRunOnce(t *testing.T) {
	findings := []rootcause.Finding{
		finding(rootcause.Vector, "array.json", `{"properties":{"tags":{"type":"array"}}}`, `{"tags":"[\"a\",\"b\"]","n":1}`),
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
