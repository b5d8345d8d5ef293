package corpus

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// secret is the content of a file outside the corpus: no error, and no
// vector, may show any of it.
const secret = `{"client_secret":"s3cr3t-7f1d"}`

// writeVector writes a valid vector into dir at name (slash-separated).
func writeVector(t *testing.T, dir, name, description string) {
	t.Helper()
	v := New(description, "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"&lt;"}`), Options{}, Reference)
	data, err := Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	writeRaw(t, dir, name, data)
}

func writeRaw(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDirFSRefuses: each file a corpus must not hold is refused with one
// error naming it and saying why, and the valid vector beside it still
// loads.
func TestDirFSRefuses(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "credentials.json")
	if err := os.WriteFile(outside, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		make func(t *testing.T, p string) // makes the file at p
		want error
	}{
		{"symlink to /dev/zero", func(t *testing.T, p string) { symlink(t, "/dev/zero", p) }, ErrOutside},
		{"symlink outside", func(t *testing.T, p string) { symlink(t, outside, p) }, ErrOutside},
		{"symlink up", func(t *testing.T, p string) { symlink(t, "../../../"+filepath.Base(outside), p) }, ErrOutside},
		{"named pipe", func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}, ErrNotRegular},
		{"socket", func(t *testing.T, p string) {
			fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
			if err != nil {
				t.Skipf("socket: %v", err)
			}
			defer syscall.Close(fd)
			if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: p}); err != nil {
				t.Skipf("bind: %v", err)
			}
		}, ErrNotRegular},
		{"too large", func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte(`{"id":"`+strings.Repeat(" ", 5000)+`"}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}, ErrTooLarge},
		{"not UTF-8", func(t *testing.T, p string) {
			v := New("not utf-8", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"x"}`), Options{}, Reference)
			data, _ := Encode(v)
			data = []byte(strings.Replace(string(data), `"x"`, "\"\xff\"", 1))
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, ErrNotUTF8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeVector(t, dir, "vectors/rule/good.json", "good")
			if err := os.MkdirAll(filepath.Join(dir, "vectors", "found"), 0o755); err != nil {
				t.Fatal(err)
			}
			tt.make(t, filepath.Join(dir, "vectors", "found", "bad.json"))
			done := make(chan struct{})
			var vectors []*Vector
			var err error
			go func() {
				defer close(done)
				vectors, err = Load(DirFS(dir, MaxFileSize(4096)))
			}()
			<-done // a named pipe waited on would hang here, and the test time out
			if len(vectors) != 1 || vectors[0].File != "vectors/rule/good.json" {
				t.Errorf("Load read %d vectors, want the good one", len(vectors))
			}
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != "vectors/found/bad.json" || !errors.Is(err, tt.want) {
				t.Fatalf("Load: %v; want a *FileError for vectors/found/bad.json wrapping %q", err, tt.want)
			}
			if msg := err.Error(); strings.Contains(msg, "s3cr3t") || strings.Contains(msg, "client_secret") || strings.Count(msg, "\n") > 0 {
				t.Errorf("Load: %q: want one line, and nothing of the file outside", msg)
			}
		})
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("symlink: %v", err)
	}
}

// TestDirFSFollowsInside: a symlink to a vector in another directory of
// the corpus is followed, as one inside it should be, though Load opens a
// file by its own name in its directory (one system call) before it opens
// it by its path from the corpus's root; and one leading up and back into
// the corpus is too.
func TestDirFSFollowsInside(t *testing.T) {
	dir := t.TempDir()
	writeVector(t, dir, "vectors/rule/good.json", "good")
	if err := os.MkdirAll(filepath.Join(dir, "vectors", "found"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../rule/good.json", filepath.Join(dir, "vectors", "found", "sibling.json"))
	symlink(t, "../../vectors/rule/good.json", filepath.Join(dir, "vectors", "found", "round.json"))
	vectors, err := Load(DirFS(dir))
	if err != nil || len(vectors) != 3 {
		t.Fatalf("Load = %d vectors, %v; want 3", len(vectors), err)
	}
	for i, want := range []string{"vectors/found/round.json", "vectors/found/sibling.json", "vectors/rule/good.json"} {
		if vectors[i].File != want || vectors[i].Description != "good" {
			t.Errorf("vector %d = %s %q, want %s", i, vectors[i].File, vectors[i].Description, want)
		}
	}
}

// TestDirFSVectorsOutside: a vectors/ that is a symlink out of the
// corpus is not read.
func TestDirFSVectorsOutside(t *testing.T) {
	elsewhere := t.TempDir()
	writeRaw(t, elsewhere, "rule/x.json", []byte(secret))
	dir := t.TempDir()
	symlink(t, elsewhere, filepath.Join(dir, "vectors"))
	vectors, err := Load(DirFS(dir))
	if len(vectors) != 0 || !errors.Is(err, ErrOutside) || strings.Contains(err.Error(), "s3cr3t") {
		t.Fatalf("Load = %d vectors, %v; want none, and ErrOutside", len(vectors), err)
	}
}

// TestAddRefusesSymlinkedDirectory: Add writes through no symlink, be it
// vectors/ or a group directory, and wherever it leads.
func TestAddRefusesSymlinkedDirectory(t *testing.T) {
	for _, link := range []string{"vectors", "vectors/rule"} {
		for _, where := range []string{"outside", "inside"} {
			t.Run(link+" "+where, func(t *testing.T) {
				dir, target := t.TempDir(), t.TempDir()
				if where == "inside" {
					target = filepath.Join(dir, "real")
					os.MkdirAll(target, 0o755)
				}
				os.MkdirAll(filepath.Join(dir, "vectors"), 0o755)
				symlink(t, target, filepath.Join(dir, filepath.FromSlash(link)))
				v := New("a case", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"&lt;"}`), Options{}, Reference)
				_, added, err := Add(dir, nil, v)
				if added || !errors.Is(err, ErrSymlink) {
					t.Fatalf("Add = %v, %v; want ErrSymlink", added, err)
				}
				var fe *FileError
				if !errors.As(err, &fe) || fe.File != link {
					t.Errorf("Add: %v; want it to name %s", err, link)
				}
				if n := countFiles(t, target); n != 0 {
					t.Errorf("Add wrote %d files through the symlink", n)
				}
			})
		}
	}
}

func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return nil
	})
	return n
}

// TestExportRefusesBadID: an id that is not 16 hex digits becomes no file
// name, in a directory or a zip, and nothing is exported.
func TestExportRefusesBadID(t *testing.T) {
	for _, id := range []string{"../../../../x", "/tmp/x", "0123456789abcdeF", "0123456789abcde", ""} {
		good := New("good", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"&lt;"}`), Options{}, Reference)
		bad := New("bad", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"&gt;"}`), Options{}, Reference)
		bad.ID, bad.File = id, "vectors/rule/bad.json"
		for name, export := range map[string]func([]*Vector, string) (int, int, error){"gofuzz": ExportGoFuzz, "ossfuzz": ExportOSSFuzz} {
			parent := t.TempDir()
			out := filepath.Join(parent, "a", "b", "c", "out")
			_, _, err := export([]*Vector{good, bad}, out)
			var fe *FileError
			if !errors.Is(err, ErrBadID) || !errors.As(err, &fe) || fe.File != "vectors/rule/bad.json" {
				t.Errorf("%s with id %q: %v; want ErrBadID naming the file", name, id, err)
			}
			if n := countFiles(t, parent); n != 0 {
				t.Errorf("%s with id %q: wrote %d files", name, id, n)
			}
		}
	}
}

// TestExportZipNames: every name in an ossfuzz zip is an id.
func TestExportZipNames(t *testing.T) {
	out := t.TempDir()
	if _, _, err := ExportOSSFuzz(sample(t)[:20], out); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(filepath.Join(out, FuzzTargets[0]+"_seed_corpus.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if err := CheckID(f.Name); err != nil {
			t.Errorf("zip entry %q: %v", f.Name, err)
		}
	}
}

// TestImportOddNames: fuzz inputs whose file names hold a newline, a
// control character or 300 bytes are imported, every one, each described
// in one line that lint accepts.
func TestImportOddNames(t *testing.T) {
	from, dir := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(dir, "vectors"), 0o755)
	names := []string{"a-good-one", "two\nlines", "bell\a\x1b[2J", strings.Repeat("long", 60)}
	for i, name := range names {
		in := FuzzInput{Schema: []byte(`{}`), Args: []byte(`{"a":"&lt;` + strings.Repeat("x", i) + `"}`)}
		if err := os.WriteFile(filepath.Join(from, name), EncodeGoFuzz(in), 0o644); err != nil {
			t.Skipf("a file named %q: %v", name, err)
		}
	}
	sources, err := ReadGoFuzz(from)
	if err != nil {
		t.Fatal(err)
	}
	files, _, err := Import(dir, nil, sources, Reference)
	if err != nil || len(files) != len(names) {
		t.Fatalf("Import = %v, %v; want %d files", files, err, len(names))
	}
	vectors, err := Load(DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Lint(vectors, Reference) {
		t.Error(p)
	}
}

// TestImportSymlinkedGroup: when the directory a case goes into is a
// symlink, the import fails naming it, and writes no case, not even those
// of other groups.
func TestImportSymlinkedGroup(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(dir, "vectors"), 0o755)
	symlink(t, elsewhere, filepath.Join(dir, "vectors", "rule"))
	rule := New("rule case", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"&lt;"}`), Options{}, Reference)
	found := New("found case", "found", "found", nil, []byte(`{}`), []byte(`{"a":"&gt;"}`), Options{}, Reference)
	sources := []Source{{Name: "in.jsonl:1", Vector: found}, {Name: "in.jsonl:2", Vector: rule}}
	files, _, err := Import(dir, nil, sources, Reference)
	if !errors.Is(err, ErrSymlink) || len(files) != 0 {
		t.Fatalf("Import = %v, %v; want ErrSymlink and no file", files, err)
	}
	if !strings.Contains(err.Error(), filepath.Join(dir, "vectors", "rule")) {
		t.Errorf("Import: %v; want it to name the symlink", err)
	}
	if n := countFiles(t, dir) + countFiles(t, elsewhere); n != 0 {
		t.Errorf("Import wrote %d files", n)
	}
}

// TestLoadContext: a done context stops loading, with its cause.
func TestLoadContext(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("the budget ran out")
	cancel(cause)
	vectors, err := LoadContext(ctx, Embedded())
	if len(vectors) != 0 || !errors.Is(err, cause) {
		t.Fatalf("LoadContext = %d vectors, %v; want none, and the cause", len(vectors), err)
	}
	if p := LintContext(ctx, sample(t)[:3], Reference); len(p) != 1 || !strings.Contains(p[0].Msg, "3 vectors not checked: the budget ran out") {
		t.Fatalf("LintContext = %v", p)
	}
}

// TestLoadTotalSize: Load reads no more of a directory than its limit of
// all its files together, and stops with one error naming the file it
// stopped at, the bytes read and the limit; an import directory likewise.
// What it read before is bounded by the limit and one file.
func TestLoadTotalSize(t *testing.T) {
	dir := t.TempDir()
	for i := range 20 {
		writeVector(t, dir, fmt.Sprintf("vectors/rule/v%02d.json", i), fmt.Sprintf("Vector %02d", i))
	}
	one, _ := os.Stat(filepath.Join(dir, "vectors", "rule", "v00.json"))
	limit := 5*one.Size() + 1
	vectors, err := Load(DirFS(dir, MaxCorpusSize(limit)))
	var te *TotalSizeError
	if !errors.As(err, &te) || !errors.Is(err, ErrCorpusTooLarge) || te.File != "vectors/rule/v05.json" || te.Limit != limit || te.Read != 6*one.Size() {
		t.Fatalf("Load: %v (%+v)", err, te)
	}
	if len(vectors) != 5 {
		t.Errorf("%d vectors loaded, want the 5 before the limit", len(vectors))
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("over the limit of %d bytes for all its files together (--max-corpus-size): not read further than vectors/rule/v05.json", limit)) {
		t.Errorf("Load: %v", err)
	}
	if vectors, err := Load(DirFS(dir)); err != nil || len(vectors) != 20 {
		t.Errorf("Load with the default limit: %d vectors, %v", len(vectors), err)
	}
	sources, err := ReadGoFuzz(filepath.Join(dir, "vectors", "rule"), MaxCorpusSize(limit))
	if !errors.As(err, &te) || te.File != "v05.json" || len(sources) != 0 {
		t.Errorf("ReadGoFuzz: %d sources, %v", len(sources), err)
	}
}

// TestLoadHardLinked: a file of a corpus with more than one link may be a
// file outside it (a hard link cannot be told from the file it links):
// when it is not a vector, or not UTF-8, the error shows nothing of it.
// It showed its first key (json: unknown field "client_secret"). A
// vector hard-linked is read.
func TestLoadHardLinked(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	writeRaw(t, outside, "credentials.json", []byte(secret))
	writeRaw(t, outside, "binary", []byte("s3cr3t\xff"))
	writeVector(t, outside, "good.json", "A vector linked")
	os.MkdirAll(filepath.Join(dir, "vectors", "rule"), 0o755)
	for _, name := range []string{"credentials.json", "binary", "good.json"} {
		target := name
		if name == "binary" {
			target = "binary.json"
		}
		if err := os.Link(filepath.Join(outside, name), filepath.Join(dir, "vectors", "rule", target)); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
	}
	vectors, err := Load(DirFS(dir))
	if len(vectors) != 1 || vectors[0].Description != "A vector linked" {
		t.Errorf("%d vectors loaded, want the one linked", len(vectors))
	}
	if err == nil || strings.Contains(err.Error(), "client_secret") || strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "0xff") {
		t.Fatalf("Load: %v; want errors that show nothing of the files", err)
	}
	for _, name := range []string{"credentials.json", "binary.json"} {
		if !strings.Contains(err.Error(), "vectors/rule/"+name+": not a valid file, and a hard link (it may be a file outside the directory): nothing of it is shown (2 links)") {
			t.Errorf("Load: %v; want a line for %s", err, name)
		}
	}
	if !errors.Is(err, ErrHardLinked) {
		t.Errorf("Load: %v does not wrap ErrHardLinked", err)
	}
}
