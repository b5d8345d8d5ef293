package main

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/cli"
	"github.com/toolnorm/toolnorm/internal/cputime"
)

// The benchmarks of toolnorm check measure cases per second: the corpus's
// vectors replayed, and every property's and the fuzzer's cases, over the
// wall time of the whole command (docs/performance.md, "Cases per
// second"). Each iteration is one run of the command as a user types it.

// BenchmarkCheckReference checks the built-in reference: no adapter, so
// what it measures is toolnorm's own cost per case (drawing, the
// reference's answer, comparing, bookkeeping).
func BenchmarkCheckReference(b *testing.B) {
	for _, jobs := range []string{"1", strconv.Itoa(runtime.NumCPU())} {
		b.Run("jobs="+jobs, func(b *testing.B) { benchCheck(b, "--checks", "1024", "--jobs", jobs) })
	}
}

// BenchmarkCheckServe checks the reference served by toolnorm serve: the
// protocol's round trip (encoding, a pipe each way, decoding) on top of
// BenchmarkCheckReference.
func BenchmarkCheckServe(b *testing.B) {
	for _, jobs := range []string{"1", strconv.Itoa(runtime.NumCPU())} {
		b.Run("jobs="+jobs, func(b *testing.B) { benchCheck(b, "--impl", "toolnorm serve", "--checks", "256", "--jobs", jobs) })
	}
}

// BenchmarkCheckNode checks the Node.js example (examples/node, after
// npm ci there): toolnorm's cost per case with a real adapter behind the
// protocol, the adapter's answers and the minimizing of what it gets
// wrong included. cpu-µs/case is toolnorm's own CPU (not the adapter's).
func BenchmarkCheckNode(b *testing.B) {
	adapter, err := filepath.Abs("../../examples/node/adapter.js")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("no node on PATH")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(adapter), "node_modules/he/package.json")); err != nil {
		b.Skip("the Node.js example's package is not installed: cd examples/node && npm ci")
	}
	benchCheck(b, "--impl", "node "+adapter, "--checks", "512", "--jobs", "1")
}

// BenchmarkCheckPython checks the Python example (examples/python, the
// standard library only), at --jobs 1 and 2: toolnorm's cost per case
// with an adapter whose answers give it root causes to explain, and the
// spread of --jobs. cpu-µs/case is toolnorm's own CPU.
func BenchmarkCheckPython(b *testing.B) {
	python, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("no python3 on PATH")
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		python = "/usr/bin/python3" // not a version manager's shim, which costs a start 0.15 s
	}
	adapter, err := filepath.Abs("../../examples/python/adapter.py")
	if err != nil {
		b.Fatal(err)
	}
	for _, jobs := range []string{"1", "2"} {
		b.Run("jobs="+jobs, func(b *testing.B) {
			benchCheck(b, "--impl", python+" "+adapter, "--checks", "1024", "--jobs", jobs)
		})
	}
}

// benchCheck runs toolnorm check with args each iteration, and reports
// cases per second of wall time and, steadier on a shared machine, the
// CPU time toolnorm used per case (cpu-µs/case: every core, the garbage
// collector's too; no adapter's).
func benchCheck(b *testing.B, args ...string) {
	args = append([]string{"check", "--seed", "1", "--format", "json"}, args...)
	cases, cpu := 0, cputime.Used()
	for b.Loop() {
		var out strings.Builder
		if code := cli.Main(args, strings.NewReader(""), &out, io.Discard); code > 1 {
			b.Fatalf("toolnorm %s: exit %d\n%s", strings.Join(args, " "), code, out.String())
		}
		cases += casesIn(b, out.String())
	}
	b.ReportMetric(float64(cases)/b.Elapsed().Seconds(), "cases/s")
	if used := cputime.Used() - cpu; used > 0 {
		b.ReportMetric(float64(used.Microseconds())/float64(cases), "cpu-µs/case")
	}
}

// casesIn counts the cases a JSON report ran: the vectors replayed, and
// the cases of every property and of the fuzzer.
func casesIn(b *testing.B, report string) int {
	var r struct {
		Corpus struct {
			Passed, Failed, Errors int
		}
		Properties []struct{ Cases int }
		Fuzz       struct{ Cases int }
	}
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		b.Fatalf("the JSON report: %v", err)
	}
	n := r.Corpus.Passed + r.Corpus.Failed + r.Corpus.Errors + r.Fuzz.Cases
	for _, p := range r.Properties {
		n += p.Cases
	}
	if n == 0 {
		b.Fatal("the report counts no case: " + strconv.Quote(report[:min(len(report), 200)]))
	}
	return n
}
