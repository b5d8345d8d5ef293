package properties

import (
	"context"
	"fmt"
	"hash/fnv"
	"html"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// A brokenImpl is the reference with one bug, for the batched judging and
// minimizing to be held to the serial ones on violations of many kinds.
// (The catalogue of such bugs, which every property suite is held to
// catch, is check/internal/deviation's, which this package cannot import.)
type brokenImpl struct {
	Name string
	Impl impl.Impl
}

// brokenImpls are the reference run under other options, reading a schema
// edited, or with its answer edited.
func brokenImpls() []brokenImpl {
	options := func(name string, edit func(o *impl.Options)) brokenImpl {
		return brokenImpl{name, impl.Func(name, func(ctx context.Context, c impl.Case) impl.Result {
			edit(&c.Options)
			return impl.Reference.Normalize(ctx, c)
		})}
	}
	schema := func(name string, edit func(s *jsonvalue.Value)) brokenImpl {
		return brokenImpl{name, impltest.ReadsSchema(name, func(s *jsonvalue.Value) { eachValue(s, edit) })}
	}
	output := func(name string, edit func(v *jsonvalue.Value)) brokenImpl {
		return brokenImpl{name, impltest.Edited(name, func(v *jsonvalue.Value) { eachValue(v, edit) })}
	}
	return []brokenImpl{
		options("one-pass", func(o *impl.Options) {
			if o.MaxPasses == 0 {
				o.MaxPasses = 1
			}
		}),
		options("pass-bound-ignored", func(o *impl.Options) { o.MaxPasses = 0 }),
		options("profile-ignored", func(o *impl.Options) { o.Profile = normalize.Text }),
		options("json-top-level-only", func(o *impl.Options) { o.Depth = normalize.TopLevel }),
		options("json-none", func(o *impl.Options) {
			if o.Repairs == normalize.AllRepairs {
				o.Repairs = normalize.EntityRepair
			}
		}),
		options("entities-none", func(o *impl.Options) {
			if o.Repairs == normalize.AllRepairs {
				o.Repairs = normalize.JSONRepair
			}
		}),
		schema("ignores-ref", func(s *jsonvalue.Value) {
			s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "$ref" })
		}),
		schema("ignores-anyof", func(s *jsonvalue.Value) {
			s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "anyOf" })
		}),
		schema("string-type-ignored", func(s *jsonvalue.Value) {
			if t := s.Member("type"); t != nil && t.Kind == jsonvalue.Array {
				t.Elems = slices.DeleteFunc(t.Elems, func(e *jsonvalue.Value) bool { return e.Kind == jsonvalue.String && e.Str == "string" })
			}
		}),
		// Go's html.UnescapeString for the entity repair: `&#9` and
		// `&nGt;` stay, `&#x;` gives U+FFFD, and more that HTML does not.
		{"stdlib-html", impl.Func("stdlib-html", func(ctx context.Context, c impl.Case) impl.Result {
			if c.Options.Repairs != normalize.AllRepairs {
				return impl.Reference.Normalize(ctx, c)
			}
			c.Options.Repairs = normalize.JSONRepair
			r := impl.Reference.Normalize(ctx, c)
			v, err := jsonvalue.Parse(r.Output)
			if !r.Answered() || err != nil {
				return r
			}
			eachValue(v, func(v *jsonvalue.Value) {
				for range 16 {
					if u := html.UnescapeString(v.Str); v.Kind == jsonvalue.String && u != v.Str {
						v.Str = u
						continue
					}
					break
				}
			})
			return impl.OK(v.Append(nil))
		})},
		output("keys-decoded", func(v *jsonvalue.Value) {
			for i, m := range v.Members {
				k, _ := entity.Decode([]byte(m.Key), entity.Text, 0)
				v.Members[i].Key = string(k)
			}
		}),
		output("members-sorted", func(v *jsonvalue.Value) {
			slices.SortStableFunc(v.Members, func(a, b jsonvalue.Member) int { return strings.Compare(a.Key, b.Key) })
		}),
		output("whitespace-trimmed", func(v *jsonvalue.Value) {
			if v.Kind == jsonvalue.String {
				v.Str = strings.TrimSpace(v.Str)
			}
		}),
		output("numbers-float64", func(v *jsonvalue.Value) {
			if f, err := strconv.ParseFloat(v.Number, 64); v.Kind == jsonvalue.Number && err == nil {
				v.Number = strconv.FormatFloat(f, 'g', -1, 64)
			}
		}),
	}
}

// eachValue calls f on v and on every value it holds, v first.
func eachValue(v *jsonvalue.Value, f func(v *jsonvalue.Value)) {
	f(v)
	for _, m := range v.Members {
		eachValue(m.Value, f)
	}
	for _, e := range v.Elems {
		eachValue(e, f)
	}
}

// crashy is im crashing on about one case in seven, chosen by content.
func crashy(im impl.Impl) impl.Impl {
	return impl.Func(im.Name()+", crashing", func(ctx context.Context, c impl.Case) impl.Result {
		h := fnv.New32a()
		h.Write(c.Schema)
		h.Write(c.Args)
		if h.Sum32()%7 == 0 {
			return impl.Fail(impl.ErrCrash, "exited")
		}
		return im.Normalize(ctx, c)
	})
}

// counting answers with the arguments and how many cases it ran before: no
// two runs give the same answer.
func counting() impl.Impl {
	var mu sync.Mutex
	n := 0
	return impl.Func("counting", func(_ context.Context, c impl.Case) impl.Result {
		mu.Lock()
		defer mu.Unlock()
		n++
		return impl.Result{Output: []byte(`{"run":` + strconv.Itoa(n) + `}`)}
	})
}

func sameOutcome(x, y Outcome) bool {
	if (x.Failure == nil) != (y.Failure == nil) {
		return false
	}
	if x.Failure != nil && (x.Failure.Kind() != y.Failure.Kind() || x.Failure.Detail != y.Failure.Detail) {
		return false
	}
	return x.Message == y.Message && x.Moot == y.Moot
}

func (o Outcome) String() string {
	switch {
	case o.Failure != nil:
		return "failure " + o.Failure.String()
	case o.Moot:
		return "moot"
	}
	return fmt.Sprintf("message %q", o.Message)
}

// TestJudgeBatchIsSerial holds the batched judging to Judge, case by case,
// for every property on the reference, on every broken normalizer and on
// some that crash now and then: the same outcomes, ending with the first violation
// when asked to; and the requests after the first runs go out a batch per
// request of a case, never more than the cases that need them.
func TestJudgeBatchIsSerial(t *testing.T) {
	ctx := context.Background()
	ims := []impl.Impl{impl.Reference, crashy(impl.Reference)}
	for i, m := range brokenImpls() {
		ims = append(ims, m.Impl)
		if i%4 == 0 {
			ims = append(ims, crashy(m.Impl))
		}
	}
	for _, p := range All() {
		for _, im := range ims {
			cases := make([]Case, 24)
			first := make([]impl.Result, len(cases))
			for i := range cases {
				cases[i] = p.Draw(CaseSeed(3, p.ID, i), im)
				first[i] = im.Normalize(ctx, cases[i].Case)
			}
			var serial []Outcome
			for i, c := range cases {
				serial = append(serial, p.Judge(ctx, im, c, &first[i]))
			}
			for _, withFirst := range []bool{true, false} {
				f := first
				if !withFirst {
					f = nil
				}
				rec := &impltest.Recorder{Impl: im}
				all := p.JudgeBatch(ctx, rec, cases, f, nil)
				if len(all) != len(cases) {
					t.Fatalf("%s on %s: %d outcomes of %d cases", p.ID, im.Name(), len(all), len(cases))
				}
				for i := range cases {
					if !sameOutcome(serial[i], all[i]) {
						t.Fatalf("%s on %s, case %d (first run given: %v): Judge gives %v, JudgeBatch %v", p.ID, im.Name(), i, withFirst, serial[i], all[i])
					}
				}
				for _, trip := range rec.Trips() {
					b := trip.Cases
					if len(b) > len(cases) {
						t.Errorf("%s on %s: a batch of %d requests for %d cases", p.ID, im.Name(), len(b), len(cases))
					}
				}
				if len(rec.Trips()) > 3 {
					t.Errorf("%s on %s: %d round trips for cases that make at most 3 requests", p.ID, im.Name(), len(rec.Trips()))
				}
			}
			rec := &impltest.Recorder{Impl: im}
			upTo := p.JudgeBatch(ctx, rec, cases, first, broken)
			want := len(cases)
			for i, o := range serial {
				if broken(o) {
					want = i + 1
					break
				}
			}
			if len(upTo) != want {
				t.Fatalf("%s on %s: judging up to the first violation gives %d outcomes, not %d", p.ID, im.Name(), len(upTo), want)
			}
		}
	}
}

// TestJudgeBatchRounds shows the round trips of a batch: a property that
// runs a case twice gets two real runs of each case, all the second ones
// in one batch; one that runs the output again sends the outputs in one.
func TestJudgeBatchRounds(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		id      string
		im      impl.Impl
		broken  int // cases that break the property
		batches int // round trips, the first runs given
	}{
		{"deterministic", impl.Reference, 0, 1},
		{"deterministic", counting(), 16, 1},
		{"idempotent", impl.Reference, 0, 1},
		{"agrees-with-reference", impl.Reference, 0, 0},
	} {
		p, _ := ByID(tc.id)
		cases := make([]Case, 16)
		var first []impl.Result
		for i := range cases {
			cases[i] = p.Draw(CaseSeed(1, p.ID, i), impl.Reference)
			first = append(first, tc.im.Normalize(ctx, cases[i].Case))
		}
		rec := &impltest.Recorder{Impl: tc.im}
		outs := p.JudgeBatch(ctx, rec, cases, first, nil)
		n := 0
		for _, o := range outs {
			if broken(o) {
				n++
			}
		}
		if n != tc.broken || len(rec.Trips()) != tc.batches {
			t.Errorf("%s on %s: %d cases broken in %d round trips, want %d in %d", tc.id, tc.im.Name(), n, len(rec.Trips()), tc.broken, tc.batches)
		}
		for _, trip := range rec.Trips() {
			b := trip.Cases
			if len(b) != len(cases) {
				t.Errorf("%s on %s: a batch of %d requests, not one per case (%d)", tc.id, tc.im.Name(), len(b), len(cases))
			}
			for i, c := range b {
				if tc.id == "deterministic" && !sameCase(c, cases[i].Case) {
					t.Errorf("%s: request %d of the batch is not case %d run again", tc.id, i, i)
				}
			}
		}
	}
}

// TestMinimizeBatchIsSerial: a violation shrunk with a minimizing step's
// candidates judged as one batch is the one shrunk a candidate at a time,
// in fewer round trips than candidates.
func TestMinimizeBatchIsSerial(t *testing.T) {
	ctx := context.Background()
	shrunk, trips, requests, serial := 0, 0, 0, 0
	for _, m := range brokenImpls() {
		for _, p := range All() {
			var found *Case
			for i := range 40 {
				c := p.Draw(CaseSeed(1, p.ID, i), m.Impl)
				if broken(p.Judge(ctx, m.Impl, c, nil)) {
					found = &c
					break
				}
			}
			if found == nil {
				continue
			}
			calls := 0
			serialImpl := impl.Func(m.Name, func(ctx context.Context, c impl.Case) impl.Result {
				calls++
				return m.Impl.Normalize(ctx, c)
			})
			want, wantOut := p.Minimize(ctx, serialImpl, *found)
			rec := &impltest.Recorder{Impl: m.Impl}
			got, gotOut := p.Minimize(ctx, rec, *found)
			if !sameCase(want.Case, got.Case) || want.shrunk != got.shrunk || !sameOutcome(wantOut, gotOut) {
				t.Fatalf("%s on %s: one at a time %s %s (%v), batched %s %s (%v)", p.ID, m.Name, want.Schema, want.Args, wantOut, got.Schema, got.Args, gotOut)
			}
			if len(rec.Trips()) > calls {
				t.Errorf("%s on %s: %d round trips for the %d requests made one at a time", p.ID, m.Name, len(rec.Trips()), calls)
			}
			trips, requests, serial = trips+len(rec.Trips()), requests+rec.Requests(), serial+calls
			wv := p.replayable(ctx, m.Impl, want)
			gv := p.replayable(ctx, &impltest.Recorder{Impl: m.Impl}, got)
			if string(wv.ArgumentsText()) != string(gv.ArgumentsText()) || string(wv.SchemaText()) != string(gv.SchemaText()) {
				t.Errorf("%s on %s: the replayable vector differs: %s, batched %s", p.ID, m.Name, wv.ArgumentsText(), gv.ArgumentsText())
			}
			shrunk++
		}
	}
	t.Logf("%d violations shrunk: %d requests one at a time; batched, %d requests in %d round trips", shrunk, serial, requests, trips)
	if shrunk < 10 || trips > serial/2 {
		t.Errorf("%d violations shrunk: %d requests one at a time, %d round trips batched", shrunk, serial, trips)
	}
}
