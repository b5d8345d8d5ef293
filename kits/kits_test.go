package kits_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolnorm/toolnorm/kits"
)

// TestEmbedded checks that every kit is embedded as it is on disk, and
// that an unknown language has none.
func TestEmbedded(t *testing.T) {
	for _, k := range kits.All {
		got, data, ok := kits.For(k.Lang)
		if !ok || got != k {
			t.Fatalf("For(%q) = %v, %v", k.Lang, got, ok)
		}
		disk, err := os.ReadFile(filepath.FromSlash(k.Path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, disk) || len(data) < 1000 {
			t.Errorf("%s: embedded %d bytes, %d on disk", k.Path, len(data), len(disk))
		}
		if filepath.Base(k.Path) != k.Name {
			t.Errorf("%s is written as %s", k.Path, k.Name)
		}
	}
	if _, _, ok := kits.For("cobol"); ok {
		t.Error("For(cobol) found a kit")
	}
}
