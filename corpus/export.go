package corpus

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/toolnorm/toolnorm/internal/display"
)

// ExportGoFuzz writes every vector the fuzz targets can take as a seed file
// outDir/<Target>/<id> for each of FuzzTargets, for testdata/fuzz/. It
// returns how many vectors it wrote and how many it skipped (see
// Vector.FuzzInput). A vector whose id is not 16 hex digits is an error,
// and then nothing is written; the files are written inside outDir, and
// through no symlink.
func ExportGoFuzz(vectors []*Vector, outDir string) (written, skipped int, err error) {
	if err := checkIDs(vectors); err != nil {
		return 0, 0, err
	}
	root, err := openOut(outDir)
	if err != nil {
		return 0, 0, err
	}
	defer root.Close()
	for _, target := range FuzzTargets {
		if err := mkdirs(root, target); err != nil {
			return 0, 0, err
		}
	}
	for _, v := range vectors {
		in, ok := v.FuzzInput()
		if !ok {
			skipped++
			continue
		}
		data := EncodeGoFuzz(in)
		for _, target := range FuzzTargets {
			if err := writeIn(root, target+"/"+v.ID, data, true); err != nil {
				return written, skipped, &FileError{target + "/" + v.ID, err}
			}
		}
		written++
	}
	return written, skipped, nil
}

// ExportOSSFuzz writes outDir/<Target>_seed_corpus.zip for each of
// FuzzTargets, one libFuzzer input per vector (see EncodeLibFuzzer), named
// by its id, and one for each other of the SeedTargets, with their seeds:
// OSS-Fuzz and ClusterFuzzLite seed a target from such a zip beside its
// binary. A vector whose id is not 16 hex digits is an error, and then
// nothing is written.
func ExportOSSFuzz(vectors []*Vector, outDir string) (written, skipped int, err error) {
	if err := checkIDs(vectors); err != nil {
		return 0, 0, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, v := range vectors {
		in, ok := v.FuzzInput()
		if !ok {
			skipped++
			continue
		}
		w, err := zw.Create(v.ID)
		if err != nil {
			return 0, 0, err
		}
		if _, err := w.Write(EncodeLibFuzzer(in)); err != nil {
			return 0, 0, err
		}
		written++
	}
	if err := zw.Close(); err != nil {
		return 0, 0, err
	}
	root, err := openOut(outDir)
	if err != nil {
		return 0, 0, err
	}
	defer root.Close()
	for _, target := range FuzzTargets {
		if err := writeIn(root, target+"_seed_corpus.zip", buf.Bytes(), true); err != nil {
			return written, skipped, &FileError{target + "_seed_corpus.zip", err}
		}
	}
	return written, skipped, exportSeeds(vectors, root)
}

// checkIDs checks every id that is to become a file name.
func checkIDs(vectors []*Vector) error {
	var errs []error
	for _, v := range vectors {
		if err := CheckID(v.ID); err != nil {
			errs = append(errs, &FileError{v.File, fmt.Errorf("%w: not exported", err)})
		}
	}
	return errors.Join(errs...)
}

// openOut makes the directory an export writes into, and opens it.
func openOut(dir string) (*os.Root, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return os.OpenRoot(dir)
}

// ExportJSONL writes every vector as one line of compact JSON.
func ExportJSONL(vectors []*Vector, w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, v := range vectors {
		var line bytes.Buffer
		enc := json.NewEncoder(&line)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("%s: %w", v.File, err)
		}
		bw.Write(line.Bytes())
	}
	return bw.Flush()
}

// A Source is one case read for import: a fuzz input, or a vector from
// another corpus.
type Source struct {
	Name   string // file, or file:line, for messages
	Input  FuzzInput
	Vector *Vector // for JSONL; nil for fuzz inputs
}

// ReadGoFuzz reads "go test fuzz v1" files: path is a file or a directory
// holding them (testdata/fuzz/<Target>, or testdata/fuzz itself). A
// directory is read as [DirFS] reads a corpus: nothing outside it, no
// device or named pipe, no file over the size limit.
func ReadGoFuzz(path string, opts ...ReadOption) ([]Source, error) {
	return readFiles(path, opts, func(name string, data []byte) (Source, error) {
		in, err := DecodeGoFuzz(data)
		return Source{Name: name, Input: in}, err
	})
}

// ReadLibFuzzer reads libFuzzer inputs (crash-*, seeds) of the FuzzTargets:
// path is a file or a directory holding them, read as ReadGoFuzz reads.
func ReadLibFuzzer(path string, opts ...ReadOption) ([]Source, error) {
	return readFiles(path, opts, func(name string, data []byte) (Source, error) {
		in, err := DecodeLibFuzzer(data)
		return Source{Name: name, Input: in}, err
	})
}

func readFiles(dir string, opts []ReadOption, read func(name string, data []byte) (Source, error)) ([]Source, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		data, err := ReadFile(dir, opts...)
		if err != nil {
			return nil, &FileError{dir, err}
		}
		s, err := read(dir, data)
		if err != nil {
			return nil, &FileError{dir, err}
		}
		return []Source{s}, nil
	}
	fsys := DirFS(dir, opts...)
	var sources []Source
	var errs []error
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		name := filepath.Join(dir, filepath.FromSlash(p))
		switch {
		case err != nil:
			errs = append(errs, &FileError{name, bare(err)})
			return nil
		case d.IsDir() || strings.HasPrefix(d.Name(), "."):
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err == nil {
			var s Source
			if s, err = read(name, data); err == nil {
				sources = append(sources, s)
				return nil
			}
		}
		errs = append(errs, &FileError{name, bare(err)})
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	return sources, errors.Join(errs...)
}

// ReadJSONL reads vectors, one per line, as ExportJSONL writes them: UTF-8
// text, read as ReadFile reads.
func ReadJSONL(path string, opts ...ReadOption) ([]Source, error) {
	data, err := ReadFile(path, opts...)
	if err == nil {
		err = checkUTF8(data)
	}
	if err != nil {
		return nil, &FileError{path, err}
	}
	var sources []Source
	var errs []error
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		name := fmt.Sprintf("%s:%d", path, i+1)
		v, err := Decode(line)
		if err != nil {
			errs = append(errs, &FileError{name, err})
			continue
		}
		sources = append(sources, Source{Name: name, Vector: v})
	}
	return sources, errors.Join(errs...)
}

// Import adds the cases of sources to the corpus in dir, as Add does, all
// or nothing: every case is checked first (a vector from another corpus
// must be valid and give, on ref, the result it expects; a fuzz input must
// make a valid vector; no two cases may contradict each other or the
// corpus), and nothing is written if one fails; a write that fails (a
// full disk) takes back the files written before it. A fuzz input becomes
// a vector of origin "imported" and clause "found", described by its file
// name as display shows it. It returns the files written, and how many
// cases were there already. Every error names the source it is about.
func Import(dir string, existing []*Vector, sources []Source, ref Impl) (files []string, already int, err error) {
	var batch []*Vector
	var names []string
	var errs []error
	descriptions := map[string]bool{}
	for _, e := range existing {
		descriptions[e.Description] = true
	}
	for _, s := range sources {
		v := s.Vector
		if v == nil {
			name := display.ClipText(filepath.Base(s.Name), 120)
			v = New("Imported fuzz input "+name, "found", "imported", []string{"imported"}, s.Input.Schema, s.Input.Args, s.Input.Options(), ref)
		} else {
			v.File = ""
			if p := Check(v); len(p) > 0 {
				errs = append(errs, &FileError{s.Name, errors.New(p[0])})
				continue
			}
			if o := Replay(v, ref); !o.Pass {
				errs = append(errs, &FileError{s.Name, fmt.Errorf("%s does not give the expected result: %s", ref.Name(), o.Msg)})
				continue
			}
		}
		if descriptions[v.Description] {
			v.Description += " (" + v.ID + ")"
		}
		descriptions[v.Description] = true
		if p := Check(v); len(p) > 0 {
			errs = append(errs, &FileError{s.Name, errors.New(p[0])})
			continue
		}
		if err := contradiction(v, existing, batch); err != nil {
			errs = append(errs, &FileError{s.Name, err})
			continue
		}
		batch = append(batch, v)
		names = append(names, s.Name)
	}
	if len(errs) > 0 {
		return nil, 0, errors.Join(errs...)
	}
	// The directories first, so that one that is a symlink stops the
	// import before any file is written.
	if err := checkDirs(dir, existing, batch); err != nil {
		return nil, 0, inDir(dir, err)
	}
	all := append([]*Vector{}, existing...)
	for i, v := range batch {
		file, added, err := Add(dir, all, v)
		if err != nil {
			return nil, 0, errors.Join(&FileError{names[i], inDir(dir, err)}, inDir(dir, takeBack(dir, files)))
		}
		if added {
			files = append(files, file)
			all = append(all, v)
		} else {
			already++
		}
	}
	return files, already, nil
}

// inDir names the corpus file an error of Add is about by its path
// (dir joined), as Import names its sources.
func inDir(dir string, err error) error {
	var errs []error
	for _, e := range unjoin(err) {
		if fe, ok := e.(*FileError); ok {
			e = &FileError{filepath.Join(dir, filepath.FromSlash(fe.File)), fe.Err}
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// checkDirs makes the directories the new vectors of the batch go into,
// and checks that none is a symlink.
func checkDirs(dir string, existing, batch []*Vector) error {
	there := map[string]bool{}
	for _, e := range existing {
		there[e.ID] = true
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, v := range batch {
		if there[v.ID] {
			continue
		}
		if err := mkdirs(root, path.Join("vectors", v.Group())); err != nil {
			return err
		}
	}
	return nil
}

// takeBack removes the files an import wrote before it failed.
func takeBack(dir string, files []string) error {
	if len(files) == 0 {
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("could not take back the %d files written: %w", len(files), err)
	}
	defer root.Close()
	var errs []error
	for _, f := range files {
		if err := root.Remove(f); err != nil {
			errs = append(errs, &FileError{f, fmt.Errorf("written, and not taken back: %w", bare(err))})
		}
	}
	return errors.Join(errs...)
}

// contradiction reports a vector with v's ID, in the corpus or the batch,
// that expects something else.
func contradiction(v *Vector, lists ...[]*Vector) error {
	for _, list := range lists {
		for _, e := range list {
			if e.ID == v.ID && !sameResult(e, v) {
				where := e.File
				if where == "" {
					where = "another imported case"
				}
				return fmt.Errorf("%w: %s has the same case (id %s) and expects something else", ErrContradicts, where, v.ID)
			}
		}
	}
	return nil
}
