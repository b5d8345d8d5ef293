package normalize

// The benchmarks of docs/performance.md. Each compares, in the same run,
// toolnorm with the naive normalizer a user would write (naive_test.go) and
// with the limit: bytes.IndexByte looking for '&' over the same bytes, and
// a plain copy of them.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"

	"github.com/toolnorm/toolnorm/internal/cputime"
	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/schemagen"
)

var (
	sinkBytes  []byte
	sinkString string
	sinkInt    int
)

// indexAll finds every '&' in b with bytes.IndexByte: the least any
// normalizer must do, look at every byte.
func indexAll(b []byte) int {
	n := 0
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '&')
		if j < 0 {
			return n
		}
		n++
		i += j + 1
	}
}

func BenchmarkNormalize(b *testing.B) {
	for _, c := range benchCases() {
		s, err := Compile(c.schema)
		if err != nil {
			b.Fatal(err)
		}
		naive, err := newNaive(c.schema)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range []struct {
			name string
			args []byte
		}{{"clean", c.clean}, {"dirty", c.dirty}} {
			args := v.args
			run := func(impl string, f func()) {
				b.Run(fmt.Sprintf("size=%s/args=%s/impl=%s", c.size, v.name, impl), func(b *testing.B) {
					b.SetBytes(int64(len(args)))
					b.ReportAllocs()
					for b.Loop() {
						f()
					}
				})
			}
			run("toolnorm", func() {
				out, err := s.Normalize(args)
				if err != nil {
					b.Fatal(err)
				}
				sinkBytes = out
			})
			run("naive", func() {
				out, err := naive.normalize(args)
				if err != nil {
					b.Fatal(err)
				}
				sinkBytes = out
			})
			run("indexbyte", func() { sinkInt = indexAll(args) })
			run("copy", func() { sinkBytes = bytes.Clone(args) })
		}
	}
}

// decodeTexts are the 1 MB strings of BenchmarkDecodeEntities: realistic
// text without any '&', and the same text with 5% of its bytes in
// references (some escaped twice).
var decodeTexts = sync.OnceValues(func() (plain, refs string) {
	clean := &gen{r: rand.New(rand.NewPCG(7, 1)), d: rand.New(rand.NewPCG(7, 2))}
	plain = strings.ReplaceAll(clean.text(1<<20, true), "&", "+")
	dirty := &gen{r: rand.New(rand.NewPCG(7, 1)), d: rand.New(rand.NewPCG(7, 2)), dirty: true}
	refs = dirty.text(1<<20, true)
	return plain, refs
})

func naiveFixpoint(s string) string {
	for {
		next := html.UnescapeString(s)
		if next == s {
			return s
		}
		s = next
	}
}

func BenchmarkDecodeEntities(b *testing.B) {
	plain, refs := decodeTexts()
	run := func(name string, s string, f func(string)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			b.ReportAllocs()
			for b.Loop() {
				f(s)
			}
		})
	}
	plainBytes := []byte(plain)
	run("text=plain/impl=toolnorm", plain, func(s string) { sinkString = DecodeEntities(s) })
	run("text=plain/impl=xnet-pass", plain, func(s string) { sinkString = html.UnescapeString(s) })
	run("text=plain/impl=indexbyte", plain, func(string) { sinkInt = bytes.IndexByte(plainBytes, '&') })
	run("text=refs/impl=toolnorm", refs, func(s string) { sinkString = DecodeEntities(s) })
	run("text=refs/impl=xnet-pass", refs, func(s string) { sinkString = html.UnescapeString(s) })
	run("text=refs/impl=xnet-fixpoint", refs, func(s string) { sinkString = naiveFixpoint(s) })
}

// adversarialText is "&" followed by "amp;" k times and "lt;": k+1 passes
// to its fixpoint, "<".
func adversarialText(k int) string { return "&" + strings.Repeat("amp;", k) + "lt;" }

// BenchmarkDecodeEntitiesAdversarial doubles k up to 524,287 (2 MB), for
// the time at 262,143 (1 MB) and the growth from one size to the next.
func BenchmarkDecodeEntitiesAdversarial(b *testing.B) {
	for _, k := range []int{1<<16 - 1, 1<<17 - 1, 1<<18 - 1, 1<<19 - 1} {
		s := adversarialText(k)
		b.Run(fmt.Sprintf("k=%d/impl=toolnorm", k), func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			b.ReportAllocs()
			for b.Loop() {
				if out := DecodeEntities(s); out != "<" {
					b.Fatalf("got %q", out)
				}
			}
		})
	}
}

// BenchmarkJSONLayer is the floor the JSON layer sets: jsonraw.Valid, the
// scanner Normalize walks with, over the same arguments, validating them
// and nothing else. docs/performance.md compares it with jsontext.
func BenchmarkJSONLayer(b *testing.B) {
	for _, c := range benchCases() {
		args := c.clean
		b.Run(fmt.Sprintf("size=%s/args=clean/impl=jsonraw-valid", c.size), func(b *testing.B) {
			b.SetBytes(int64(len(args)))
			b.ReportAllocs()
			for b.Loop() {
				if !jsonraw.Valid(args) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// BenchmarkCompile compiles the benchmark tools' schemas
// (testdata/bench): the cost of reading a schema, once per tool.
func BenchmarkCompile(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(fmt.Sprintf("size=%s", c.size), func(b *testing.B) {
			b.SetBytes(int64(len(c.schema)))
			b.ReportAllocs()
			for b.Loop() {
				s, err := Compile(c.schema)
				if err != nil {
					b.Fatal(err)
				}
				sinkSchema = s
			}
		})
	}
}

var sinkSchema *Schema

// BenchmarkCompileDrawn compiles schemas the schema search draws
// (internal/schemagen, every keyword and draft beside each other), as a
// check compiles each case's schema: the reference's cost per drawn
// schema, most of a searched case's. cpu-ns/op is the process's CPU time
// an op, steadier than the wall time on a shared machine.
func BenchmarkCompileDrawn(b *testing.B) {
	var schemas [][]byte
	size := 0
	for seed := range uint64(256) {
		s, _, _ := schemagen.DrawTrees(seed, schemagen.Options{})
		schemas = append(schemas, s.Append(nil))
		size += len(schemas[seed])
	}
	b.SetBytes(int64(size / len(schemas)))
	b.ReportAllocs()
	cpu := cputime.Used()
	for i := 0; b.Loop(); i++ {
		s, _ := Compile(schemas[i%len(schemas)])
		sinkSchema = s
	}
	if cpu := cputime.Used() - cpu; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkReadSchema reads the benchmark tools' schemas as Compile does
// (decodeOrdered: the values and member order in one pass), and as it did
// before (encoding/json, then memberOrder), in the same run.
func BenchmarkReadSchema(b *testing.B) {
	for _, c := range benchCases() {
		for _, r := range []struct {
			name string
			read func([]byte) (any, map[uintptr][]string, bool)
		}{{"once", decodeOrdered}, {"twice", readTwice}} {
			b.Run(fmt.Sprintf("size=%s/%s", c.size, r.name), func(b *testing.B) {
				b.SetBytes(int64(len(c.schema)))
				b.ReportAllocs()
				for b.Loop() {
					if _, _, ok := r.read(c.schema); !ok {
						b.Fatal("not read")
					}
				}
			})
		}
	}
}
