package normalize

import (
	"errors"
	"flag"
	"fmt"
	"runtime"
	"testing"

	"github.com/toolnorm/toolnorm/internal/cputime"
	"github.com/toolnorm/toolnorm/internal/hostile"
)

// hostileAll runs the shapes whose fix is another branch's too (see
// BenchmarkHostile).
var hostileAll = flag.Bool("hostile.all", false, "run every hostile shape in BenchmarkHostile, those that crash or take minutes without their fix too")

// elsewhere are the hostile shapes whose cost is fixed outside the walk
// (schema compilation, the pattern engine): without -hostile.all,
// BenchmarkHostile skips them, for on a branch without their fix they take
// minutes and gigabytes (ref-chain, deep-tilde-keys) or end the process
// (backtracking-key: a stack overflow is not recovered).
// All three are fixed now: none is skipped, and the walk's tests hold
// them too.
var elsewhere = map[string]string{}

// hostileSizes are the sizes BenchmarkHostile runs each shape at: its cost
// per byte should stay flat from one to the next (n log n at most).
var hostileSizes = []int{64 << 10, 256 << 10, 1 << 20, 4 << 20}

// BenchmarkHostile runs each hostile shape of issue 34 at 64 KB to 4 MB,
// and reports its time and allocation per byte of input (ns/B, B/B), and
// the CPU time per byte of the process, garbage collection included, which
// other work on the machine slows less than the clock (cpu-ns/B):
// through Normalize and NormalizeReport for the shapes that grow the
// arguments (the schema compiled once), through Compile and Normalize for
// those that grow the schema.
func BenchmarkHostile(b *testing.B) {
	for _, sh := range hostile.Shapes() {
		for _, size := range hostileSizes {
			c := sh.Build(size)
			apis := []string{"normalize", "report"}
			if sh.Grows == hostile.Schema {
				apis = []string{"compile+normalize"}
			}
			for _, api := range apis {
				b.Run(fmt.Sprintf("shape=%s/size=%s/api=%s", sh.Name, sizeName(size), api), func(b *testing.B) {
					if why, ok := elsewhere[sh.Name]; ok && !*hostileAll {
						b.Skipf("fixed in %s: run with -hostile.all", why)
					}
					in := len(c.Args)
					if sh.Grows == hostile.Schema {
						in = len(c.Schema)
					}
					var s *Schema
					if api != "compile+normalize" {
						var err error
						if s, err = Compile(c.Schema); err != nil {
							b.Fatal(err)
						}
					}
					b.SetBytes(int64(in))
					b.ReportAllocs()
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					cpu := cputime.Used()
					for b.Loop() {
						var err error
						switch api {
						case "normalize":
							sinkBytes, err = s.Normalize(c.Args)
						case "report":
							sinkBytes, sinkRepairs, err = s.NormalizeReport(c.Args)
						default:
							var s *Schema
							if s, err = Compile(c.Schema); err == nil {
								sinkBytes, err = s.Normalize(c.Args)
							}
						}
						// A hostile shape may end in an error that bounds
						// it (the pattern steps spent): its cost is what
						// the benchmark measures.
						if err != nil && !errors.Is(err, ErrPattern) && !errors.Is(err, ErrTooDeep) {
							b.Fatal(err)
						}
					}
					cpu = cputime.Used() - cpu
					runtime.ReadMemStats(&after)
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(in), "ns/B")
					if cpu > 0 {
						b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(in), "cpu-ns/B")
					}
					b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(in), "B/B")
				})
			}
		}
	}
}

var sinkRepairs []Repair

func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%dM", n>>20)
	}
	return fmt.Sprintf("%dK", n>>10)
}
