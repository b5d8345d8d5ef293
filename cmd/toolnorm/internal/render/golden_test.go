package render

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// goldenReport is a check that fails vectors, crashes on some, skips
// others, breaks properties and is found by fuzzing, run on a fixed sample
// of the corpus (testdata/golden/corpus, so that the corpus can grow) with
// virtual time (a synctest bubble), where nothing takes time: the same
// report every time.
func goldenReport(t *testing.T) *check.Report {
	t.Helper()
	vs, err := corpus.Load(os.DirFS("testdata/golden/corpus"))
	if err != nil {
		t.Fatal(err)
	}
	var r *check.Report
	synctest.Test(t, func(t *testing.T) {
		r = check.Run(context.Background(), check.Config{Impl: onePassCrashing{}, Command: "./one-pass", Vectors: vs, Checks: 16, Seed: 5, Version: "v0.0.0-golden"})
	})
	// The bubble's clock starts in 2000; the golden files were made on
	// the first of December 2026.
	r.Started = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	return r
}

// TestGolden compares each format of one report with its golden file
// (go test ./cmd/toolnorm/internal/render -run TestGolden -update rewrites them; read
// the diff before committing it).
func TestGolden(t *testing.T) {
	r := goldenReport(t)
	ext := map[string]string{"text": "txt", "json": "json", "junit": "xml", "markdown": "md", "html": "html"}
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(r, &b, format); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join("testdata", "golden", "report."+ext[format])
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				got, wantLines := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
				for i := range max(len(got), len(wantLines)) {
					g, w := "", ""
					if i < len(got) {
						g = got[i]
					}
					if i < len(wantLines) {
						w = wantLines[i]
					}
					if g != w {
						t.Fatalf("%s differs from the golden file at line %d:\n got: %.300s\nwant: %.300s\n(go test ./cmd/toolnorm/internal/render -run TestGolden -update rewrites it)", format, i+1, g, w)
					}
				}
			}
		})
	}
}

// vectors is the corpus built into toolnorm.
func vectors(t *testing.T) []*corpus.Vector {
	t.Helper()
	vs, err := corpus.Load(corpus.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	return vs
}
