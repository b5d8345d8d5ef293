package corpus

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/toolnorm/toolnorm/internal/display"
	"github.com/toolnorm/toolnorm/normalize"
)

//go:embed vectors
var embedded embed.FS

// Embedded returns the committed corpus: a file system whose vectors/
// directory holds the vectors.
func Embedded() fs.FS { return embedded }

// FileError is a problem with one file of a corpus.
type FileError struct {
	File string // relative to the corpus directory
	Err  error
}

// Error names the file and says what is wrong, both as display shows
// text: a file name or a message quoting the file's content holds nothing
// a terminal would act on.
func (e *FileError) Error() string { return display.Text(e.File) + ": " + display.Text(e.Err.Error()) }
func (e *FileError) Unwrap() error { return e.Err }

// Load reads every vector under vectors/ in fsys, in file name order. A
// file that cannot be read or is not a vector is a *FileError; Load reads
// all it can and returns every error, joined. A corpus directory from
// someone else is read through [DirFS], which keeps every read inside it.
func Load(fsys fs.FS) ([]*Vector, error) { return LoadContext(context.Background(), fsys) }

// LoadContext is [Load], stopping with ctx's error, joined to the others,
// once ctx is done.
func LoadContext(ctx context.Context, fsys fs.FS) ([]*Vector, error) {
	cfg := newReadConfig(nil)
	if d, ok := fsys.(dirFS); ok {
		cfg = d.cfg
		// One root for the whole walk, not one for each file opened: the
		// same reads, inside the same directory, in half the system calls.
		if root, err := os.OpenRoot(d.dir); err == nil {
			r := newRootFS(root, d.cfg)
			defer r.Close()
			fsys = r
		}
	}
	if st, err := fs.Stat(fsys, "vectors"); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("no vectors/ directory: %w", errOr(bare(err), errors.New("not a directory")))
	}
	var vectors []*Vector
	var errs []error
	read := total{limit: cfg.maxCorpusSize}
	err := fs.WalkDir(fsys, "vectors", func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		if err != nil {
			errs = append(errs, &FileError{p, bare(err)})
			return nil
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		if path.Ext(p) != ".json" {
			errs = append(errs, &FileError{p, errors.New("not a vector: the name must end in .json")})
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, &FileError{p, bare(err)})
			return nil
		}
		if err := read.add(p, len(data)); err != nil {
			errs = append(errs, err)
			return fs.SkipAll
		}
		if err := checkUTF8(data); err != nil {
			errs = append(errs, &FileError{p, hideHardLinked(d, err)})
			return nil
		}
		v, err := Decode(data)
		if err != nil {
			errs = append(errs, &FileError{p, hideHardLinked(d, err)})
			return nil
		}
		v.File = p
		vectors = append(vectors, v)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	sort.Slice(vectors, func(i, j int) bool { return vectors[i].File < vectors[j].File })
	return vectors, errors.Join(errs...)
}

func errOr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// Decode reads one vector file. Unknown fields are an error, so that a
// misspelt field is not silently ignored.
func Decode(data []byte) (*Vector, error) {
	if v, ok := decodeCommon(data); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var v Vector
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not a vector: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not a vector: data after the vector")
	}
	return &v, nil
}

// DecodeStream reads vectors from r, one JSON object after another (a
// vector file's content, or one vector per line), as strictly as Decode.
func DecodeStream(r io.Reader) ([]*Vector, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var vs []*Vector
	for n := 1; ; n++ {
		var v Vector
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("vector %d: not a vector: %w", n, err)
		}
		vs = append(vs, &v)
	}
	if len(vs) == 0 {
		return nil, errors.New("no vector")
	}
	return vs, nil
}

// Encode returns the vector as its file holds it: indented JSON, with '&',
// '<' and '>' as they are.
func Encode(v *Vector) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Group is the directory under vectors/ where v belongs, so that a reader
// sees at once what the rule requires and what is a reading or an option:
// rule/ (the rule's clauses), reading/ (toolnorm's readings), optional/
// attribute/ and optional/max-passes/ (opt-in choices), html5lib/
// (generated from html5lib's tokenizer tests) and found/ (findings not yet
// classified).
func (v *Vector) Group() string {
	switch {
	case v.Origin == "html5lib":
		return "html5lib"
	case v.Options.Profile == normalize.Attribute:
		return "optional/attribute"
	case v.Options.MaxPasses > 0:
		return "optional/max-passes"
	case v.Clause == "found":
		return "found"
	case strings.HasPrefix(v.Clause, "rule/"):
		return "rule"
	}
	return "reading"
}

// FileName is the name a vector's file gets: its description as a slug.
func (v *Vector) FileName() string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(v.Description) {
		if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			if b.Len() >= 60 {
				break
			}
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return v.ID + ".json"
	}
	return b.String() + ".json"
}
