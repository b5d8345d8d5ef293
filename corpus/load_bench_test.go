package corpus

import "testing"

// BenchmarkLoad reads the committed corpus, as every check starts by
// doing.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		vs, err := Load(Embedded())
		if err != nil || len(vs) == 0 {
			b.Fatalf("%d vectors, %v", len(vs), err)
		}
	}
}
