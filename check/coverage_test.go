package check_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/oracle"
)

// capped is a normalizer with a planted bug behind a branch random cases
// never reach: it stops decoding after 48 passes (a guard against hostile
// input that the rule does not allow), where the generators escape a
// string at most some 42 times. Its coverage, when it offers it, is the
// passes each string took: what a counter of its loop's iterations shows.
type capped struct{ unit string }

const cappedAt = 48

func (c capped) Name() string { return "capped" }

func (c capped) Options() impl.Options { return impl.Options{} }

func (c capped) Normalize(ctx context.Context, k impl.Case) impl.Result {
	return c.RunCovered(ctx, []impl.Case{k})[0]
}

func (c capped) CoverageUnit() string { return c.unit }

func (c capped) RunCovered(ctx context.Context, cases []impl.Case) []impl.Result {
	out := make([]impl.Result, len(cases))
	for i, k := range cases {
		k.Options.MaxPasses = cappedAt
		out[i] = impl.Reference.Normalize(ctx, k)
		if c.unit == "" {
			continue
		}
		out[i].Coverage = []uint32{0}
		v, err := jsonvalue.Parse(k.Args)
		if err != nil {
			continue
		}
		seen := map[uint32]bool{0: true}
		var walk func(*jsonvalue.Value)
		walk = func(v *jsonvalue.Value) {
			if v.Kind == jsonvalue.String {
				n := 0
				for s := v.Str; n < cappedAt; n++ {
					next := oracle.Unescape(s)
					if next == s {
						break
					}
					s = next
				}
				if id := uint32(n + 1); !seen[id] {
					seen[id] = true
					out[i].Coverage = append(out[i].Coverage, id)
				}
			}
			for _, e := range v.Elems {
				walk(e)
			}
			for _, m := range v.Members {
				walk(m.Value)
			}
		}
		walk(v)
		slices.Sort(out[i].Coverage)
	}
	return out
}

// TestFuzzerCoverageGuided: fuzzing steered by the implementation's
// coverage finds the bug behind the 49th pass, which the same number of
// cases without coverage does not reach; a run with coverage is the same
// run from the same seed, and says what it reached and how that grew.
func TestFuzzerCoverageGuided(t *testing.T) {
	const cases = 3000
	run := func(unit string) *check.Fuzzer {
		f := &check.Fuzzer{Impl: capped{unit: unit}}
		fuzz(t, f, 1, cases)
		return f
	}
	guided, blind := run("passes"), run("")
	if len(guided.Findings) == 0 {
		t.Fatalf("with coverage, %d cases found nothing: %+v", guided.Cases, guided.CodeCoverage())
	}
	if len(blind.Findings) != 0 {
		t.Errorf("without coverage, %d cases found %d findings: the bug is no longer behind a rare branch, and this test shows nothing", blind.Cases, len(blind.Findings))
	}
	if blind.CodeCoverage() != nil {
		t.Errorf("an implementation that offers no coverage has %+v", blind.CodeCoverage())
	}
	cov := guided.CodeCoverage()
	if cov == nil || cov.Unit != "passes" || cov.Reached != cappedAt+2 || cov.Queued < 10 || len(cov.Growth) < 10 {
		t.Fatalf("coverage %+v: want passes, %d ids reached (0, and 0 to %d passes), cases queued, and their growth", cov, cappedAt+2, cappedAt)
	}
	last := cov.Growth[len(cov.Growth)-1]
	if last.Reached != cov.Reached || last.Cases > guided.Cases {
		t.Errorf("growth ends at %+v, the run at %d ids after %d cases", last, cov.Reached, guided.Cases)
	}
	again := run("passes")
	if !reflect.DeepEqual(again.CodeCoverage(), cov) || fmt.Sprint(findingBuckets(again)) != fmt.Sprint(findingBuckets(guided)) {
		t.Errorf("the same seed gave %+v and %v, then %+v and %v", cov, findingBuckets(guided), again.CodeCoverage(), findingBuckets(again))
	}
}

func findingBuckets(f *check.Fuzzer) []string {
	var out []string
	for _, fd := range f.Findings {
		out = append(out, fd.Bucket)
	}
	return out
}

// TestFuzzerCoverageResumes: a run given the cases another kept (its
// OnQueued, a findings directory's queue) runs them first and starts
// from what that run reached.
func TestFuzzerCoverageResumes(t *testing.T) {
	var kept []impl.Case
	first := &check.Fuzzer{Impl: capped{"passes"}, OnQueued: func(c impl.Case) error {
		kept = append(kept, c)
		return nil
	}}
	fuzz(t, first, 3, 1024)
	if len(kept) == 0 || len(kept) != first.CodeCoverage().Queued {
		t.Fatalf("OnQueued heard of %d cases, the run queued %d", len(kept), first.CodeCoverage().Queued)
	}
	resumed := &check.Fuzzer{Impl: capped{"passes"}, Queue: kept}
	fuzz(t, resumed, 4, len(kept))
	got, want := resumed.CodeCoverage(), first.CodeCoverage()
	if got.Growth[0].Cases != len(kept) || got.Growth[0].Reached < want.Reached {
		t.Errorf("resumed from %d cases: %+v, want %d ids reached by them", len(kept), got.Growth[0], want.Reached)
	}
}

// BenchmarkFuzzCoverage fuzzes the bug zoo's clean normalizers, each
// behind its kit (zoo/python with python3, zoo/javascript with node,
// after npm ci there), 2,048 cases an iteration, guided by their coverage
// and blind (Blind: none asked) in the same run: what coverage costs a
// case, the adapter's collecting and toolnorm's reading and steering, the
// adapter's start included. It reports cases per second of wall time. The Python kit's coverage is
// cheap from Python 3.12 on (sys.monitoring); on 3.11 it is a trace
// function: set TOOLNORM_PYTHON to the Python to run.
func BenchmarkFuzzCoverage(b *testing.B) {
	python := os.Getenv("TOOLNORM_PYTHON")
	if python == "" {
		python = "python3"
	}
	adapters := []struct{ name, command, need string }{
		{"python", python + " ../zoo/python/adapter.py", python},
		{"javascript", "node ../zoo/javascript/adapter.mjs", "node"},
	}
	for _, a := range adapters {
		if _, err := exec.LookPath(strings.Fields(a.need)[0]); err != nil {
			b.Logf("%s: %v", a.name, err)
			continue
		}
		for _, guided := range []bool{true, false} {
			mode := map[bool]string{true: "guided", false: "blind"}[guided]
			b.Run(a.name+"/"+mode, func(b *testing.B) {
				cases := 0
				for b.Loop() {
					// A fresh adapter each time, as a run starts one:
					// its first cases reach the most that is new. A
					// guided run's start says coverage will be asked, as
					// toolnorm fuzz's does.
					ad, err := harness.Start(harness.Config{Command: a.command, Coverage: guided})
					if err != nil {
						b.Skip(err) // zoo/javascript not installed
					}
					f := &check.Fuzzer{Impl: ad, Blind: !guided}
					fuzz(b, f, 1, 2048)
					ad.Close()
					cases += f.Cases
				}
				b.ReportMetric(float64(cases)/b.Elapsed().Seconds(), "cases/s")
			})
		}
	}
}

// flood offers coverage and answers every case with 65,536 ids never
// sent before, as a hostile adapter may.
type flood struct{ next uint32 }

func (f *flood) Name() string          { return "flood" }
func (f *flood) Options() impl.Options { return impl.Options{} }
func (f *flood) CoverageUnit() string  { return "lines" }
func (f *flood) Normalize(ctx context.Context, c impl.Case) impl.Result {
	return f.RunCovered(ctx, []impl.Case{c})[0]
}
func (f *flood) RunCovered(ctx context.Context, cases []impl.Case) []impl.Result {
	out := make([]impl.Result, len(cases))
	for i, c := range cases {
		out[i] = impl.Reference.Normalize(ctx, c)
		out[i].Coverage = make([]uint32, harness.MaxCoverage)
		for k := range out[i].Coverage {
			out[i].Coverage[k] = f.next
			f.next++
		}
	}
	return out
}

// TestFuzzerCoverageBounded: ids past the bound are not counted, so that
// an adapter that sends new ones with every answer costs bounded memory.
func TestFuzzerCoverageBounded(t *testing.T) {
	f := &check.Fuzzer{Impl: &flood{}}
	fuzz(t, f, 1, 128) // the second batch asks: 64 cases, 4 million ids
	if cov := f.CodeCoverage(); cov.Reached != 1<<20 {
		t.Errorf("%d ids counted, want the bound, %d", cov.Reached, 1<<20)
	}
}
