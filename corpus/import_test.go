package corpus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportInterrupted: an import stopped at any point (an interrupt:
// its context done) leaves the corpus as it was, or, once its files are
// all written and it moves them into vectors/, completes: never part of
// it, and no stage or temporary file behind. It wrote each file into
// vectors/ as it went: SIGINT or SIGTERM left 1,271 to 3,547 files of
// 5,084, and a temporary file.
func TestImportInterrupted(t *testing.T) {
	vectors := sample(t)
	sources := make([]Source, len(vectors))
	for i, v := range vectors {
		c := *v
		sources[i] = Source{Name: "team.jsonl:" + v.ID, Vector: &c}
	}
	for _, tt := range []struct {
		name      string
		staged    int // cancel after this many files written into the stage
		moved     int // or after this many moved into vectors/
		wantFiles int
	}{
		{"before the first file", 0, 0, 0},
		{"after one file", 1, 0, 0},
		{"after all but one", len(sources) - 1, 0, 0},
		{"after all were written", len(sources), 0, 0},
		{"while they move in", 0, len(sources) / 2, len(sources)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeVector(t, dir, "vectors/rule/there-before.json", "There before")
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			interrupt := errors.New("interrupted")
			if tt.staged == 0 && tt.moved == 0 {
				cancel(interrupt)
			}
			importStaged = func(stage string, n int) {
				if n == tt.staged {
					cancel(interrupt)
				}
			}
			importMoved = func(stage string, n int) {
				if n == tt.moved {
					cancel(interrupt)
				}
			}
			defer func() { importStaged, importMoved = nil, nil }()
			files, _, err := ImportContext(ctx, dir, nil, sources, Reference)
			if tt.wantFiles == 0 && (!errors.Is(err, interrupt) || len(files) != 0) {
				t.Errorf("ImportContext = %d files, %v; want none, and the interrupt", len(files), err)
			}
			if tt.wantFiles > 0 && (err != nil || len(files) != tt.wantFiles) {
				t.Errorf("ImportContext = %d files, %v; want %d", len(files), err, tt.wantFiles)
			}
			if n := countFiles(t, filepath.Join(dir, "vectors")); n != tt.wantFiles+1 {
				t.Errorf("%d files in vectors/, want %d", n, tt.wantFiles+1)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if e.Name() != "vectors" {
					t.Errorf("%s left in the corpus directory", e.Name())
				}
			}
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.HasPrefix(d.Name(), ".") {
					t.Errorf("%s left behind", p)
				}
				return nil
			})
			if tt.wantFiles > 0 {
				loaded, err := Load(DirFS(dir))
				if err != nil || len(loaded) != tt.wantFiles+1 {
					t.Errorf("Load: %d vectors, %v", len(loaded), err)
				}
			}
		})
	}
}

// TestImportNameTaken: a file moved into vectors/ whose name another
// writer took since the import checked it fails the import, which takes
// back what it moved, and the directories it made.
func TestImportNameTaken(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "vectors"), 0o755)
	a := New("First case", "found", "found", nil, []byte(`{}`), []byte(`{"a":"&lt;"}`), Options{}, Reference)
	b := New("Second case", "found", "found", nil, []byte(`{}`), []byte(`{"a":"&gt;"}`), Options{}, Reference)
	importMoved = func(stage string, n int) {
		// Another runner writes the second name, now.
		os.WriteFile(filepath.Join(dir, "vectors", "found", "second-case.json"), []byte("{}"), 0o644)
	}
	defer func() { importMoved = nil }()
	files, _, err := ImportContext(context.Background(), dir, nil, []Source{{Name: "in:1", Vector: a}, {Name: "in:2", Vector: b}}, Reference)
	if err == nil || len(files) != 0 || !strings.Contains(err.Error(), "second-case.json") {
		t.Fatalf("ImportContext = %v, %v; want an error naming second-case.json", files, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "vectors", "found", "first-case.json")); !os.IsNotExist(err) {
		t.Errorf("first-case.json was not taken back: %v", err)
	}
	if n := countFiles(t, dir); n != 1 {
		t.Errorf("%d files in the corpus, want the other writer's alone", n)
	}
}
