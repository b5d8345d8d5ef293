package properties

import (
	"context"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// BenchmarkDraw draws cases of every property as a check does (one seed
// per case, the built-in reference's options): what toolnorm spends on a
// case before any implementation sees it (docs/performance.md, "Cases per
// second").
func BenchmarkDraw(b *testing.B) {
	all := All()
	i := 0
	for b.Loop() {
		for _, p := range all {
			p.Draw(CaseSeed(1, p.ID, i), impl.Reference)
		}
		i++
	}
	b.ReportMetric(float64(b.N*len(all))/b.Elapsed().Seconds(), "cases/s")
}

// BenchmarkJudge judges drawn cases of every property on the reference,
// their first run given, as a check's round does.
func BenchmarkJudge(b *testing.B) {
	all := All()
	const n = 32 // every schema stays in the reference's cache, as in a check
	cases := make([][]Case, len(all))
	first := make([][]impl.Result, len(all))
	for k, p := range all {
		for i := range n {
			c := p.Draw(CaseSeed(1, p.ID, i), impl.Reference)
			cases[k] = append(cases[k], c)
			first[k] = append(first[k], impl.Reference.Normalize(context.Background(), c.Case))
		}
	}
	i := 0
	for b.Loop() {
		for k, p := range all {
			r := first[k][i%n]
			p.Judge(context.Background(), impl.Reference, cases[k][i%n], &r)
		}
		i++
	}
}
