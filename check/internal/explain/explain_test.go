package explain

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
)

var ctx = context.Background()

func want(c impl.Case) impl.Result { return impl.Reference.Normalize(ctx, c) }

// sample is the vectors the tests replay: those written for the rule and
// its readings, and every fourth of html5lib's.
func someVectors(t *testing.T) []*corpus.Vector {
	t.Helper()
	vs, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	var out []*corpus.Vector
	for i, v := range vs {
		if v.Origin != "html5lib" || i%4 == 0 {
			out = append(out, v)
		}
	}
	return out
}

// findings replays vs on im: a finding for each vector it fails.
func findings(im impl.Impl, vs []*corpus.Vector) []Finding {
	var fs []Finding
	for _, v := range vs {
		c := impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options}
		got, w := im.Normalize(ctx, c), v.Want()
		if !impl.Compare(got, w).Same() {
			fs = append(fs, Finding{Source: Vector, ID: v.ID, Case: c, Want: w, Got: got, Clause: v.Clause})
		}
	}
	return fs
}

// Each deviation planted alone in the reference is found, as the one
// root cause of its findings, under its own id; and every root cause's
// title holds (CheckTitle).
func TestEachDeviationAlone(t *testing.T) {
	vs := someVectors(t)
	for _, d := range deviation.Catalogue() {
		t.Run(d.ID, func(t *testing.T) {
			im := d.Impl()
			fs := findings(im, vs)
			if len(fs) == 0 {
				t.Skip("no vector of the sample shows it")
			}
			rcs := Explain(ctx, Config{Impl: im, Want: want}, fs)
			var ids []string
			for _, rc := range rcs {
				ids = append(ids, rc.ID)
				if err := CheckTitle(ctx, im, want, rc); err != nil {
					t.Error(err)
				}
			}
			if len(rcs) != 1 || rcs[0].ID != d.ID {
				t.Errorf("root causes %v, want just %s", ids, d.ID)
			}
		})
	}
}

// pairsUnsolved are pairs TestPairsPlanted draws that the root-cause
// stage does not tell apart, each with what it files instead: weaknesses
// of the experiments and the cover to mend, not of the pair. The test
// fails when one of them comes out right (take it out).
var pairsUnsolved = map[string]string{
	"older-draft+embedded-drafts-ignored": "a type beside a `$ref` in an embedded resource (vector ec25234f310ad36e), which older-draft explains alone, is filed under ref-siblings-dropped, whose witness the pair shows too: the cover keeps both where one would do, and embedded-drafts-ignored is not named",
}

// Two deviations planted together are found as two root causes (or, where
// every finding needs both, one of the pair), and no other.
func TestPairsPlanted(t *testing.T) {
	vs := someVectors(t)
	cat := deviation.Catalogue()
	r := rand.New(rand.NewPCG(1, 2))
	n := 16
	if testing.Short() {
		n = 4
	}
	for range n {
		a, b := cat[r.IntN(len(cat))], cat[r.IntN(len(cat))]
		if a == b || !deviation.Compatible(a, b) {
			continue
		}
		t.Run(a.ID+"+"+b.ID, func(t *testing.T) {
			im := impl.Func("pair", func(ctx context.Context, c impl.Case) impl.Result { return deviation.Apply(ctx, c, a, b) })
			fs := findings(im, vs)
			rcs := Explain(ctx, Config{Impl: im, Want: want}, fs)
			var ids []string
			for _, rc := range rcs {
				ids = append(ids, rc.ID)
			}
			t.Logf("%s + %s: %v", a.ID, b.ID, ids)
			var wrong []string
			defer func() {
				why, known := pairsUnsolved[a.ID+"+"+b.ID]
				switch {
				case known && len(wrong) == 0:
					t.Errorf("the pair comes out right: take it out of pairsUnsolved (%s)", why)
				case known:
					t.Logf("as pairsUnsolved says (%s): %s", why, strings.Join(wrong, "; "))
				default:
					for _, w := range wrong {
						t.Error(w)
					}
				}
			}()
			// Each is found, unless the other hides it on every finding.
			for _, d := range []*deviation.Deviation{a, b} {
				shows := slices.ContainsFunc(fs, func(f Finding) bool {
					other := a
					if d == a {
						other = b
					}
					return !impl.Compare(deviation.Apply(ctx, f.Case, other), f.Got).Same()
				})
				if shows && !slices.ContainsFunc(ids, func(id string) bool { return slices.Contains(strings.Split(id, "+"), d.ID) }) {
					wrong = append(wrong, fmt.Sprintf("%s is not found", d.ID))
				}
			}
			for _, rc := range rcs {
				if err := CheckTitle(ctx, im, want, rc); err != nil {
					t.Error(err)
				}
				ok := slices.ContainsFunc(strings.Split(rc.ID, "+"), func(id string) bool { return id == a.ID || id == b.ID })
				if !ok {
					wrong = append(wrong, fmt.Sprintf("root cause %s (%s): neither %s nor %s", rc.ID, rc.Title, a.ID, b.ID))
				}
			}
		})
	}
}

// TestKept: a session keeps answers while they add up to maxKept bytes,
// then no answer that would pass it (asked for again when needed), and
// it keeps a crash but not the harness giving up.
func TestKept(t *testing.T) {
	s := &session{}
	half := impl.OK([]byte(`"` + strings.Repeat("x", maxKept/2-2) + `"`))
	for i, c := range []struct {
		r    impl.Result
		want bool
	}{
		{impl.OK([]byte(`{}`)), true},
		{half, true},
		{half, false}, // 2 bytes past maxKept with the {} before it
		{impl.OK([]byte(`[]`)), true},
		{impl.Result{Failure: impl.ErrGaveUp}, false},
	} {
		if got := s.keep(c.r); got != c.want {
			t.Errorf("%d: keep(%d bytes, %v) = %v, with %d bytes kept", i, len(c.r.Output), c.r.Failure, got, s.kept)
		}
	}
}
