package entity

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// adversarial is "&" followed by "amp;" k times and "lt;": k+1 passes.
func adversarial(k int) []byte {
	return []byte("&" + strings.Repeat("amp;", k) + "lt;")
}

// naiveXNet iterates x/net's UnescapeString until nothing changes: what a
// user would write, and quadratic on adversarial input.
func naiveXNet(s string) string {
	for {
		next := html.UnescapeString(s)
		if next == s {
			return s
		}
		s = next
	}
}

// BenchmarkAdversarial compares Decode with naive iteration on the input
// that makes naive iteration quadratic. Naive runs only up to a size where
// it still finishes; Decode also runs at the full size of about 1 MB
// (262,143 times "amp;").
func BenchmarkAdversarial(b *testing.B) {
	for _, k := range []int{1 << 10, 1 << 12, 1 << 14, 262143} {
		in := adversarial(k)
		b.Run(fmt.Sprintf("impl=toolnorm/k=%d", k), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if out, _ := Decode(in, Text, 0); string(out) != "<" {
					b.Fatalf("got %q", out)
				}
			}
		})
		if k > 1<<14 {
			continue
		}
		s := string(in)
		b.Run(fmt.Sprintf("impl=naive-xnet/k=%d", k), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if out := naiveXNet(s); out != "<" {
					b.Fatalf("got %q", out)
				}
			}
		})
	}
}
