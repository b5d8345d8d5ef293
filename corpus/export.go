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
	"path/filepath"
	"sort"
	"strings"
)

// ExportGoFuzz writes every vector the fuzz targets can take as a seed file
// outDir/<Target>/<id> for each of FuzzTargets, for testdata/fuzz/. It
// returns how many vectors it wrote and how many it skipped (see
// Vector.FuzzInput).
func ExportGoFuzz(vectors []*Vector, outDir string) (written, skipped int, err error) {
	for _, target := range FuzzTargets {
		if err := os.MkdirAll(filepath.Join(outDir, target), 0o755); err != nil {
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
			if err := writeFile(filepath.Join(outDir, target, v.ID), data); err != nil {
				return written, skipped, err
			}
		}
		written++
	}
	return written, skipped, nil
}

// ExportOSSFuzz writes outDir/<Target>_seed_corpus.zip for each of
// FuzzTargets, one libFuzzer input per vector (see EncodeLibFuzzer), and
// one for each other of the SeedTargets, with their seeds: OSS-Fuzz and
// ClusterFuzzLite seed a target from such a zip beside its binary.
func ExportOSSFuzz(vectors []*Vector, outDir string) (written, skipped int, err error) {
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
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return 0, 0, err
	}
	for _, target := range FuzzTargets {
		if err := writeFile(filepath.Join(outDir, target+"_seed_corpus.zip"), buf.Bytes()); err != nil {
			return written, skipped, err
		}
	}
	return written, skipped, exportSeeds(vectors, outDir)
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

// writeFile writes data to name through a temporary file and a rename, so
// that no reader sees half a file. Export files may be replaced.
func writeFile(name string, data []byte) error {
	return writeVia(name, data, os.Rename)
}

// A Source is one case read for import: a fuzz input, or a vector from
// another corpus.
type Source struct {
	Name   string // file, or file:line, for messages
	Input  FuzzInput
	Vector *Vector // for JSONL; nil for fuzz inputs
}

// ReadGoFuzz reads "go test fuzz v1" files: path is a file or a directory
// holding them (testdata/fuzz/<Target>, or testdata/fuzz itself).
func ReadGoFuzz(path string) ([]Source, error) {
	return readFiles(path, func(name string, data []byte) (Source, error) {
		in, err := DecodeGoFuzz(data)
		return Source{Name: name, Input: in}, err
	})
}

// ReadLibFuzzer reads libFuzzer inputs (crash-*, seeds) of the FuzzTargets:
// path is a file or a directory holding them.
func ReadLibFuzzer(path string) ([]Source, error) {
	return readFiles(path, func(name string, data []byte) (Source, error) {
		in, err := DecodeLibFuzzer(data)
		return Source{Name: name, Input: in}, err
	})
}

func readFiles(path string, read func(name string, data []byte) (Source, error)) ([]Source, error) {
	var names []string
	err := filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var sources []Source
	var errs []error
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err == nil {
			var s Source
			if s, err = read(name, data); err == nil {
				sources = append(sources, s)
				continue
			}
		}
		errs = append(errs, &FileError{name, err})
	}
	return sources, errors.Join(errs...)
}

// ReadJSONL reads vectors, one per line, as ExportJSONL writes them.
func ReadJSONL(path string) ([]Source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
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
// must be valid and give, on ref, the result it expects; no two cases may
// contradict each other or the corpus), and nothing is written if one
// fails. A fuzz input becomes a vector of origin "imported" and clause
// "found". It returns the files written, and how many cases were there
// already.
func Import(dir string, existing []*Vector, sources []Source, ref Impl) (files []string, already int, err error) {
	var batch []*Vector
	var errs []error
	descriptions := map[string]bool{}
	for _, e := range existing {
		descriptions[e.Description] = true
	}
	for _, s := range sources {
		v := s.Vector
		if v == nil {
			v = New("Imported fuzz input "+filepath.Base(s.Name), "found", "imported", []string{"imported"}, s.Input.Schema, s.Input.Args, s.Input.Options(), ref)
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
		if err := contradiction(v, existing, batch); err != nil {
			errs = append(errs, &FileError{s.Name, err})
			continue
		}
		batch = append(batch, v)
	}
	if len(errs) > 0 {
		return nil, 0, errors.Join(errs...)
	}
	all := append([]*Vector{}, existing...)
	for _, v := range batch {
		file, added, err := Add(dir, all, v)
		if err != nil {
			return files, already, err
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
