package check

import (
	"context"
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// unsupportedBut is the reference, answering unsupported (as an adapter
// whose language cannot hold a case does) to all cases but one in every
// n, by a hash of the case: a case sent again gets the same answer.
func unsupportedBut(n uint32) impl.Impl {
	return impl.Func("unsupported but 1 in n", func(ctx context.Context, c impl.Case) impl.Result {
		h := fnv.New32a()
		h.Write(c.Schema)
		h.Write([]byte{0})
		h.Write(c.Args)
		if h.Sum32()%n != 0 {
			return impl.Fail(impl.ErrNotSendable, "the adapter cannot hold it as it is: unsupported")
		}
		return impl.Reference.Normalize(ctx, c)
	})
}

// unsupportedOne is the reference, answering unsupported to one case in
// every n.
func unsupportedOne(n uint32) impl.Impl {
	return impl.Func("unsupported 1 in n", func(ctx context.Context, c impl.Case) impl.Result {
		h := fnv.New32a()
		h.Write(c.Schema)
		h.Write([]byte{0})
		h.Write(c.Args)
		if h.Sum32()%n == 0 {
			return impl.Fail(impl.ErrNotSendable, "the adapter cannot hold it as it is: unsupported")
		}
		return impl.Reference.Normalize(ctx, c)
	})
}

// TestJudgedTooLittle: a check that judged under 90% of what it ran (the
// corpus vectors that apply, a property's cases, fuzzing's cases) is
// incomplete, never PASS, and says which part judged how much and why
// the rest was not judged. An adapter that answered unsupported to 999
// requests of 1,000 used to pass with 4 of 5,084 vectors judged. It ran
// all it drew, so its repeat command repeats it exactly. One that answers
// unsupported now and then (1%) passes; one that answers it to every case
// has nothing checked.
func TestJudgedTooLittle(t *testing.T) {
	vs := vectors(t)
	const checks = 64
	for _, tt := range []struct {
		name string
		im   impl.Impl
		want Verdict
	}{
		{"unsupported to 999 of 1,000", unsupportedBut(1000), Incomplete},
		{"unsupported to 1 of 2", unsupportedOne(2), Incomplete},
		{"unsupported to 1 of 97", unsupportedOne(97), Pass},
		{"unsupported to all", unsupportedBut(1 << 31), NothingChecked},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := runChecked(t, context.Background(), Config{Impl: tt.im, Vectors: vs, Checks: checks, Seed: 7})
			if r.Verdict != tt.want {
				t.Fatalf("verdict %s, want %s; corpus %d passed, %d skipped (%d unsupported); incomplete %+v", r.Verdict, tt.want, r.Corpus.Passed, r.Corpus.Skipped, r.Corpus.Unsupported, r.Incomplete)
			}
			c := r.Corpus
			if c.Passed+c.Failed+c.Errors+c.Skipped+c.Unimplemented+c.NotRun != c.Vectors || c.Unsupported > c.Skipped {
				t.Errorf("corpus counts do not add up: %+v", c)
			}
			if tt.want == Pass {
				if r.Incomplete != nil {
					t.Errorf("incomplete %+v", r.Incomplete)
				}
				return
			}
			if tt.want == NothingChecked {
				if r.Judged() != 0 || c.Unsupported != c.Vectors {
					t.Errorf("%d judged, %d vectors unsupported of %d", r.Judged(), c.Unsupported, c.Vectors)
				}
				return
			}
			in := r.Incomplete
			if in.RanShort() || in.Vectors != 0 || len(in.Properties) != 0 || in.Fuzzing || in.Budget != "" {
				t.Errorf("the check ran all it drew, yet: %+v", in)
			}
			if in.Checks != checks || r.Repeat != "toolnorm check --seed 7 --checks 64" {
				t.Errorf("checks %d, repeat %q", in.Checks, r.Repeat)
			}
			parts := map[string]Coverage{}
			for _, cv := range in.Judged {
				parts[cv.Part] = cv
				if cv.Judged+cv.Unsupported+cv.Failures+cv.Moot != cv.Ran || cv.Judged*10 >= cv.Ran*9 {
					t.Errorf("%+v: the counts do not add up, or it judged 90%% or more", cv)
				}
			}
			if cv := parts["corpus"]; cv.Ran != c.Passed+c.Failed+c.Errors+c.Unsupported || cv.Judged != c.Passed+c.Failed || cv.Unsupported != c.Unsupported {
				t.Errorf("corpus %+v, counted %+v", cv, c)
			}
			if cv := parts[FuzzingID]; cv.Ran != checks || cv.Unsupported != r.Fuzz.Unsupported {
				t.Errorf("fuzzing %+v, counted %+v", cv, r.Fuzz)
			}
			for _, p := range r.Properties {
				if p.Status == StatusNotApplicable || p.Violation != nil {
					continue
				}
				cv, ok := parts[p.ID]
				if !ok || cv.Ran != p.Cases || cv.Judged != p.Checks || cv.Unsupported != p.Unsent || cv.Moot != p.Moot {
					t.Errorf("property %s: %+v (%t), counted %d cases, %d checks, %d unsent, %d moot", p.ID, cv, ok, p.Cases, p.Checks, p.Unsent, p.Moot)
				}
			}
		})
	}
}

// TestMutateEveryVector: the fuzzing's mutation of a vector (its
// arguments, or its schema and arguments together) never panics on any
// vector of the corpus, a hostile one, a boolean schema, a schema of no
// object; and a vector that is JSON is still JSON mutated.
func TestMutateEveryVector(t *testing.T) {
	for i, v := range vectors(t) {
		for j := range uint64(2) {
			rng := rand.New(rand.NewPCG(uint64(i), j))
			c := mutate(rng, v)
			if json.Valid(v.SchemaText()) && json.Valid(v.ArgumentsText()) && (!json.Valid(c.Schema) || !json.Valid(c.Args)) {
				t.Fatalf("vector %s mutated is not JSON:\n%.300s\n%.300s", v.ID, c.Schema, c.Args)
			}
		}
	}
}
