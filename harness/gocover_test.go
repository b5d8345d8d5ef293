package harness

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/gocover"
)

// buildCovered builds testdata/covered, with Go's coverage in atomic mode
// over its own package when cover is true, and returns the binary.
func buildCovered(t testing.TB, cover bool) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	bin := filepath.Join(t.TempDir(), "covered")
	args := []string{"build", "-o", bin}
	if cover {
		args = append(args, "-cover", "-covermode=atomic", "-coverpkg=./testdata/covered")
	}
	cmd := exec.Command(goCmd, append(args, "./testdata/covered")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

// TestCoverageFromGo: a Go adapter built with -cover -covermode=atomic,
// its Info.Coverage set to GoCoverage, offers blocks; each request reports
// the blocks it reached first, the same ids in every run of the build; a
// request that asks for none gets none; built without coverage, the
// adapter offers none and says why on standard error.
func TestCoverageFromGo(t *testing.T) {
	bin := buildCovered(t, true)
	arg := func(s string) impl.Case { return impl.Case{Schema: []byte(`{}`), Args: []byte(`{"a":"` + s + `"}`)} }
	cases := []impl.Case{arg("x"), arg("y"), arg("deep"), arg("deeper"), arg("reject"), arg("deep")}
	var runs [2][]impl.Result
	for k := range runs {
		a, err := Start(Config{Command: bin})
		if err != nil {
			t.Fatal(err)
		}
		if c, unit := impl.CoverageOf(a); c == nil || unit != "blocks" {
			t.Fatalf("the adapter offers %q", unit)
		}
		runs[k] = a.RunCovered(context.Background(), cases)
		if k == 0 {
			for _, r := range a.RunBatch(context.Background(), cases[:2]) {
				if r.Coverage != nil {
					t.Errorf("RunBatch got coverage %v", r.Coverage)
				}
			}
		}
		a.Close()
	}
	got := runs[0]
	for i, r := range got {
		if i != 4 && r.Failed() || i == 4 && r.Kind() != impl.KindRejected {
			t.Fatalf("case %d: %v", i, r)
		}
	}
	// x: its blocks; y: the same path, nothing new; deep and deeper: their
	// branches; reject: its branch, in an error answer; deep again: none.
	want := []bool{true, false, true, true, true, false}
	seen := map[uint32]int{}
	for i, r := range got {
		if (len(r.Coverage) > 0) != want[i] {
			t.Errorf("case %d (%s): coverage %v, want new blocks: %v", i, cases[i].Args, r.Coverage, want[i])
		}
		for _, id := range r.Coverage {
			if j, ok := seen[id]; ok {
				t.Errorf("block %d told by case %d and again by case %d", id, j, i)
			}
			seen[id] = i
		}
		if !slices.Equal(r.Coverage, runs[1][i].Coverage) {
			t.Errorf("case %d: %v in one run, %v in the next", i, r.Coverage, runs[1][i].Coverage)
		}
	}

	plain := buildCovered(t, false)
	cmd := exec.Command(plain)
	cmd.Stdin = strings.NewReader(`{"cmd":"start","version":1}` + "\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	info, _, err := parseStart(out)
	if err != nil || info.Coverage != "" {
		t.Errorf("built without coverage, the adapter answers start %s (%v)", out, err)
	}
	if stderr.Len() > 0 {
		t.Errorf("built without coverage, the adapter writes %q on standard error", stderr.String())
	}
}

// TestServeCoverageWithoutCounters: Info.Coverage set in a program that
// has no counters to read (this test, unless run with -cover
// -covermode=atomic): Serve offers none, and says why on errLog.
func TestServeCoverageWithoutCounters(t *testing.T) {
	var out, errLog strings.Builder
	in := strings.NewReader(`{"cmd":"start","version":1}` + "\n" + `{"cmd":"normalize","id":1,"schema":{},"arguments":{},"coverage":true}` + "\n")
	im := impl.Func("x", func(_ context.Context, c impl.Case) impl.Result { return impl.OK(c.Args) })
	if err := Serve(in, &out, &errLog, im, Info{Name: "x", Coverage: "blocks"}, Declares{}); err != nil {
		t.Fatal(err)
	}
	start, answer, _ := strings.Cut(out.String(), "\n")
	info, _, err := parseStart([]byte(start))
	if err != nil {
		t.Fatal(err)
	}
	if gocover.Available() { // go test -cover -covermode=atomic
		if info.Coverage != "blocks" || !strings.Contains(answer, `"coverage":[`) {
			t.Errorf("with counters: start %s, answer %s", start, answer)
		}
		return
	}
	if info.Coverage != "" || strings.Contains(answer, "coverage") {
		t.Errorf("without counters: start %s, answer %s", start, answer)
	}
	if !strings.Contains(errLog.String(), "build it with go build -cover -covermode=atomic") {
		t.Errorf("errLog %q does not say why no coverage is offered", errLog.String())
	}
}

// BenchmarkGoCoverage: what a Go adapter's coverage costs a request
// (testdata/covered, built with -cover -covermode=atomic): 1,000 requests
// an iteration through RunBatch (none asked) and RunCovered (each asks),
// toolnorm's side included.
func BenchmarkGoCoverage(b *testing.B) {
	bin := buildCovered(b, true)
	cases := make([]impl.Case, 1000)
	for i := range cases {
		cases[i] = impl.Case{Schema: []byte(`{}`), Args: []byte(`{"a":"deep ` + strings.Repeat("x", i%7) + `"}`)}
	}
	for _, covered := range []bool{false, true} {
		b.Run(map[bool]string{false: "asked=none", true: "asked=all"}[covered], func(b *testing.B) {
			a, err := Start(Config{Command: bin})
			if err != nil {
				b.Fatal(err)
			}
			defer a.Close()
			for b.Loop() {
				run := a.RunBatch
				if covered {
					run = a.RunCovered
				}
				for _, r := range run(context.Background(), cases) {
					if r.Failed() {
						b.Fatal(r)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases)), "ns/request")
		})
	}
}

// TestStartSaysCoverage: with Config.Coverage the start request says the
// run will ask for coverage (for an adapter that must prepare before its
// code runs); without, it is the plain start, and an adapter that does not
// know the member answers it the same.
func TestStartSaysCoverage(t *testing.T) {
	for _, cov := range []bool{false, true} {
		var trace bytes.Buffer
		a := start(t, "good", Config{Trace: &trace, Coverage: cov})
		want := `> {"cmd":"start","version":1}` + "\n"
		if cov {
			want = `> {"cmd":"start","version":1,"coverage":true}` + "\n"
		}
		if !strings.HasPrefix(trace.String(), want) {
			t.Errorf("Coverage %v: the start sent %.80q, want %q", cov, trace.String(), want)
		}
		if r := a.Normalize(context.Background(), impl.Case{Schema: []byte(`{}`), Args: []byte(`{"t":"&amp;"}`)}); r.Failed() {
			t.Errorf("Coverage %v: %v", cov, r)
		}
	}
}
