package corpus

import (
	"testing"
)

// BenchmarkLoad loads the corpus built into toolnorm.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		vs, err := Load(Embedded())
		if err != nil || len(vs) == 0 {
			b.Fatalf("%d vectors, %v", len(vs), err)
		}
	}
}

// BenchmarkLoadDir loads the committed corpus from its directory (the
// package's own, which embeds it), as
// check does with ./corpus or --corpus: through DirFS, every file opened
// inside the directory.
func BenchmarkLoadDir(b *testing.B) {
	for b.Loop() {
		vs, err := Load(DirFS("."))
		if err != nil || len(vs) == 0 {
			b.Fatalf("%d vectors, %v", len(vs), err)
		}
	}
}
