package norm

import (
	"math/rand"
	"strings"
	"testing"
	"time"
)

func TestSegmentedMatchesNaive(t *testing.T) {
	parts := []string{"&", "amp;", "amp", "lt", ";", "#", "x", "3", "8", "6", "0", "not", "in", "it", "&#38;", "&#x26;", "&amp;", "a", " ", "=", "#59;", "copy", "sr", "&lt;", "&#116;", "l", "t", "&#", "q", "uot", "#1", "0", "FFFF", "1114112"}
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 200000; n++ {
		var b strings.Builder
		k := 1 + r.Intn(40)
		for i := 0; i < k; i++ {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		s := b.String()
		pad := strings.Repeat("z", 256)
		for _, in := range []string{s, pad + s, s + pad + s} {
			want := decodeNaive(in)
			got := decodeEntities(in)
			if got != want {
				t.Fatalf("%q: got %q, want %q", in, got, want)
			}
		}
	}
}

func TestLongChainIsFast(t *testing.T) {
	s := "&" + strings.Repeat("amp;", 262143) + "lt;"
	start := time.Now()
	got := decodeEntities(s)
	if got != "<" {
		t.Fatalf("got %q", got[:20])
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	t.Logf("1 MB chain: %v", time.Since(start))
}
