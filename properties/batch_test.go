package properties

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"sync"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/impl/impltest"
	"github.com/toolnorm/toolnorm/properties/internal/mutants"
)

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
// for every property on the reference, on every mutant and on mutants that
// crash now and then: the same outcomes, ending with the first violation
// when asked to; and the requests after the first runs go out a batch per
// request of a case, never more than the cases that need them.
func TestJudgeBatchIsSerial(t *testing.T) {
	ctx := context.Background()
	ims := []impl.Impl{impl.Reference, crashy(impl.Reference)}
	for i, m := range mutants.All() {
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
	for _, m := range mutants.All() {
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
