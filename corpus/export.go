package corpus

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/toolnorm/toolnorm/impl"
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
	total := total{limit: newReadConfig(opts).maxCorpusSize}
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
		if err != nil {
			errs = append(errs, &FileError{name, bare(err)})
			return nil
		}
		if err := total.add(p, len(data)); err != nil {
			errs = append(errs, &FileError{dir, err})
			return fs.SkipAll
		}
		s, err := read(name, data)
		if err != nil {
			errs = append(errs, &FileError{name, hideHardLinked(d, bare(err))})
			return nil
		}
		sources = append(sources, s)
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

// Import is [ImportContext] with no context: it cannot be stopped.
func Import(dir string, existing []*Vector, sources []Source, ref Impl) (files []string, already int, err error) {
	return ImportContext(context.Background(), dir, existing, sources, ref)
}

// ImportContext adds the cases of sources to the corpus in dir, as Add
// does, all or nothing: every case is checked first (a vector from another
// corpus must be valid and give, on ref, the result it expects; a fuzz
// input must make a valid vector; no two cases may contradict each other
// or the corpus), and nothing is written if one fails. The new files are
// then written into a stage, a directory inside dir (.import-*, beside
// vectors/ and on its file system), and only once all are there are they
// moved into vectors/, each by a link (a file is never replaced), and the
// stage removed. When ctx is done before the move (an interrupt), nothing
// is moved, the stage is removed and the error wraps ctx's cause. The
// move is not stopped by ctx: it writes no data, a link a file (5,084
// files: 0.19 to 0.97 s on two cores shared with other work, the whole
// import 4 to 9 s), so that a command that holds its signals
// until ImportContext returns is all or nothing under them. A move that
// fails (a name taken since the check, by another writer) takes back what
// it moved. A fuzz input becomes a vector of origin "imported" and clause
// "found", described by its file name as display shows it. It returns the
// files written, and how many cases were there already. Every error names
// the source it is about.
func ImportContext(ctx context.Context, dir string, existing []*Vector, sources []Source, ref Impl) (files []string, already int, err error) {
	var batch []*Vector
	var names []string
	var errs []error
	descriptions := map[string]bool{}
	for _, e := range existing {
		descriptions[e.Description] = true
	}
	for _, s := range sources {
		if ctx.Err() != nil {
			return nil, 0, fmt.Errorf("nothing imported: %w", context.Cause(ctx))
		}
		v := s.Vector
		if v == nil {
			name := display.ClipText(filepath.Base(s.Name), 120)
			v = newVector(ctx, "Imported fuzz input "+name, "found", "imported", []string{"imported"}, s.Input.Schema, s.Input.Args, s.Input.Options(), ref)
		} else {
			v.File = ""
			if p := Check(v); len(p) > 0 {
				errs = append(errs, &FileError{s.Name, errors.New(p[0])})
				continue
			}
			// ref is given ctx: an interrupt stops a hostile vector's check.
			if o := Judge(v, ref.Normalize(ctx, impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options})); !o.Pass {
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
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, 0, err
	}
	defer root.Close()
	// The directories first, so that one that is a symlink stops the
	// import before any file is written.
	if err := checkDirs(root, existing, batch); err != nil {
		return nil, 0, inDir(dir, err)
	}
	st := &stage{root: root}
	defer st.remove()
	var moves []staged
	all := append([]*Vector{}, existing...)
	for i, v := range batch {
		if ctx.Err() != nil {
			return nil, 0, fmt.Errorf("nothing imported: %w", context.Cause(ctx))
		}
		if seen := sameID(v, all); seen != nil {
			already++ // in the corpus, or earlier in the batch
			continue
		}
		m, err := st.write(v)
		if err != nil {
			return nil, 0, &FileError{names[i], inDir(dir, err)}
		}
		if m.rel == "" {
			already++ // written since existing was read, by another writer
			continue
		}
		moves = append(moves, m)
		all = append(all, v)
		if importStaged != nil {
			importStaged(st.name, len(moves))
		}
	}
	if ctx.Err() != nil {
		return nil, 0, fmt.Errorf("nothing imported: %w", context.Cause(ctx))
	}
	// The move: not stopped by ctx (see above).
	files, err = st.commit(moves)
	if err != nil {
		return nil, 0, inDir(dir, err)
	}
	return files, already, nil
}

// importStaged, when set (by a test), is called with the stage's name
// after each file written into it, and importMoved after each file moved
// into vectors/.
var importStaged, importMoved func(stage string, n int)

// sameID returns the vector among all with v's id (contradiction has
// ruled out one that expects something else), or nil.
func sameID(v *Vector, all []*Vector) *Vector {
	for _, e := range all {
		if e.ID == v.ID {
			return e
		}
	}
	return nil
}

// A stage is where ImportContext writes the files of an import before it
// moves them all into vectors/: a directory .import-* in the corpus
// directory, made when the first file is written.
type stage struct {
	root  *os.Root
	name  string          // "" until made
	taken map[string]bool // names in vectors/ given to staged files
	dirs  map[string]bool // group directories made in the stage
}

// staged is a file written into the stage: its vector, and its path, the
// same relative to the stage and to the corpus directory.
type staged struct {
	v   *Vector
	rel string
}

// write writes v into the stage, under the name it gets in vectors/: its
// file name, or, when that is taken (in vectors/, or by a file staged
// before), the name with its id added, as Add names it. When a file of
// vectors/ with one of those names holds the same case (another writer
// put it there since the corpus was read), it writes nothing and returns
// no path.
func (st *stage) write(v *Vector) (staged, error) {
	if st.name == "" {
		st.name = ".import-" + rand.Text()
		if err := st.root.Mkdir(st.name, 0o755); err != nil {
			st.name = ""
			return staged{}, &FileError{".import-*", bare(err)}
		}
		st.taken, st.dirs = map[string]bool{}, map[string]bool{}
	}
	data, err := Encode(v)
	if err != nil {
		return staged{}, err
	}
	group := path.Join("vectors", v.Group())
	name := v.FileName()
	for _, candidate := range []string{name, name[:len(name)-len(".json")] + "-" + v.ID + ".json"} {
		rel := path.Join(group, candidate)
		if _, err := st.root.Lstat(rel); err == nil {
			if other, rerr := readVectorIn(st.root, rel); rerr == nil && other.ID == v.ID && sameResult(other, v) {
				return staged{}, nil
			}
			continue
		} else if st.taken[rel] {
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return staged{}, &FileError{rel, bare(err)}
		}
		if !st.dirs[group] {
			if err := st.root.MkdirAll(path.Join(st.name, group), 0o755); err != nil {
				return staged{}, &FileError{path.Join(st.name, group), bare(err)}
			}
			st.dirs[group] = true
		}
		if err := writeNew(st.root, path.Join(st.name, rel), data); err != nil {
			return staged{}, &FileError{path.Join(st.name, rel), err}
		}
		st.taken[rel] = true
		return staged{v, rel}, nil
	}
	return staged{}, &FileError{path.Join(group, name), fmt.Errorf("%w, and so is the name with the id added", fs.ErrExist)}
}

// commit moves the staged files into vectors/, each by a link, making the
// directories they go into; when one fails, it takes back the files moved
// and the directories made, and says why.
func (st *stage) commit(moves []staged) (files []string, err error) {
	var made []string // directories made, deepest last
	ready := map[string]bool{}
	defer func() {
		if err == nil {
			return
		}
		err = errors.Join(err, takeBackIn(st.root, files))
		for i := len(made) - 1; i >= 0; i-- {
			st.root.Remove(made[i]) // only if empty: another writer may use it
		}
		files = nil
	}()
	for _, m := range moves {
		if dir := path.Dir(m.rel); !ready[dir] {
			dirs, err := mkdirsMade(st.root, dir)
			made = append(made, dirs...)
			if err != nil {
				return files, err
			}
			ready[dir] = true
		}
		if err := st.root.Link(path.Join(st.name, m.rel), m.rel); err != nil {
			return files, &FileError{m.rel, bare(err)}
		}
		m.v.File = m.rel
		files = append(files, m.rel)
		if importMoved != nil {
			importMoved(st.name, len(files))
		}
	}
	return files, nil
}

// remove removes the stage and what it holds, if it was made.
func (st *stage) remove() {
	if st.name != "" {
		st.root.RemoveAll(st.name)
	}
}

// writeNew writes data into a new file name of root, which must not exist.
func writeNew(root *os.Root, name string, data []byte) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return bare(err)
	}
	_, err = f.Write(data)
	if err == nil {
		// The umask may have taken bits away; a corpus is shared.
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return bare(err)
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

// checkDirs checks that none of the directories the new vectors of the
// batch go into, as far as they exist, is a symlink or not a directory:
// an import writes through none. It makes none of them: the move does.
func checkDirs(root *os.Root, existing, batch []*Vector) error {
	there := map[string]bool{}
	for _, e := range existing {
		there[e.ID] = true
	}
	checked := map[string]bool{}
	for _, v := range batch {
		if there[v.ID] {
			continue
		}
		p := ""
		for seg := range strings.SplitSeq(path.Join("vectors", v.Group()), "/") {
			p = path.Join(p, seg)
			if checked[p] {
				continue
			}
			checked[p] = true
			st, err := root.Lstat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
			case err != nil:
				return &FileError{p, bare(err)}
			case st.Mode()&fs.ModeSymlink != 0:
				return &FileError{p, ErrSymlink}
			case !st.IsDir():
				return &FileError{p, errors.New("not a directory")}
			}
		}
	}
	return nil
}

// takeBackIn removes the files an import moved into vectors/ before it
// failed.
func takeBackIn(root *os.Root, files []string) error {
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
