package corpus

import (
	"encoding/binary"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A tree entry of FuzzLoad's input: what to make at vectors/<name>.
type treeEntry struct {
	kind byte   // 0 a file, 1 a directory, 2 a symlink, 3 a named pipe
	name string // under vectors/
	data string // a file's content, or a symlink's target
}

// encodeTree is the fuzz input that makes the entries: each one kind
// byte, a name length byte, the name, two bytes of data length (big
// endian) and the data.
func encodeTree(entries ...treeEntry) []byte {
	var b []byte
	for _, e := range entries {
		b = append(b, e.kind, byte(len(e.name)))
		b = append(b, e.name...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(e.data)))
		b = append(b, e.data...)
	}
	return b
}

func decodeTree(b []byte) []treeEntry {
	var out []treeEntry
	for len(b) >= 2 {
		e := treeEntry{kind: b[0] % 4}
		n := int(b[1])
		b = b[2:]
		if n > len(b) {
			n = len(b)
		}
		e.name, b = string(b[:n]), b[n:]
		if len(b) < 2 {
			b = nil
		} else {
			m := min(int(binary.BigEndian.Uint16(b)), len(b)-2)
			e.data, b = string(b[2:2+m]), b[2+m:]
		}
		out = append(out, e)
	}
	return out
}

// fuzzSecret is in a file beside the corpus, which symlinks may point at:
// nothing Load returns may hold it.
const fuzzSecret = "fuzz-secret-5b0c2e"

// FuzzLoad makes a corpus directory from its input (files, directories,
// symlinks anywhere, named pipes) and loads it through DirFS: Load ends,
// without a panic; every vector it returns is a .json file under vectors/;
// every error is one line about one file; nothing of the file outside the
// corpus shows.
func FuzzLoad(f *testing.F) {
	good := New("a case", "rule/4", "hand", nil, []byte(`{}`), []byte(`{"a":"&lt;"}`), Options{}, Reference)
	data, err := Encode(good)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(encodeTree(treeEntry{1, "rule", ""}, treeEntry{0, "rule/a.json", string(data)}))
	f.Add(encodeTree(treeEntry{2, "secret.json", "../../outside/secret.json"}, treeEntry{0, "b.json", string(data)}))
	f.Add(encodeTree(treeEntry{2, "zero.json", "/dev/zero"}, treeEntry{3, "pipe.json", ""}))
	f.Add(encodeTree(treeEntry{2, "loop.json", "loop.json"}, treeEntry{2, "up", ".."}, treeEntry{2, "in.json", "rule/a.json"}))
	f.Add(encodeTree(treeEntry{0, "x.json", "{\"id\":\"\xff\"}"}, treeEntry{0, "y.json", `{"description":"\u001b[2J"}`}))
	f.Fuzz(func(t *testing.T, in []byte) {
		top := t.TempDir()
		outside := filepath.Join(top, "outside")
		if err := os.MkdirAll(outside, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{"`+fuzzSecret+`":1}`), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(top, "corp")
		if err := os.MkdirAll(filepath.Join(dir, "vectors"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, e := range decodeTree(in) {
			name := path.Clean("vectors/" + e.name)
			if !strings.HasPrefix(name, "vectors/") || strings.ContainsRune(name, 0) {
				continue
			}
			p := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755) // fails where a file is on the way: then so does the entry
			switch e.kind {
			case 0:
				os.WriteFile(p, []byte(e.data), 0o644)
			case 1:
				os.MkdirAll(p, 0o755)
			case 2:
				os.Symlink(e.data, p)
			case 3:
				syscall.Mkfifo(p, 0o644)
			}
		}
		vectors, err := Load(DirFS(dir, MaxFileSize(1<<16)))
		for _, v := range vectors {
			if !strings.HasPrefix(v.File, "vectors/") || path.Ext(v.File) != ".json" {
				t.Errorf("a vector from %q", v.File)
			}
			if e, _ := Encode(v); strings.Contains(string(e), fuzzSecret) {
				t.Errorf("%s: a vector holds the file outside the corpus", v.File)
			}
		}
		if err == nil {
			return
		}
		if strings.Contains(err.Error(), fuzzSecret) {
			t.Errorf("the error shows the file outside the corpus: %v", err)
		}
		for _, e := range unjoin(err) {
			var fe *FileError
			if errors.As(e, &fe) && (!strings.HasPrefix(fe.File, "vectors") || strings.Contains(e.Error(), "\n")) {
				t.Errorf("an error not about one file of vectors/, in one line: %q", e)
			}
		}
	})
}
