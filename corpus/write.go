package corpus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolnorm/toolnorm/impl"
)

// New returns a vector for the case (schema, args, o), its expected
// result computed by ref, and its ID set.
func New(description, clause, origin string, tags []string, schema, args []byte, o Options, ref Impl) *Vector {
	v := &Vector{Description: description, Clause: clause, Origin: origin, Tags: tags, Options: o}
	setText(&v.Schema, &v.SchemaRaw, &v.SchemaBase64, schema)
	setText(&v.Arguments, &v.ArgumentsRaw, &v.ArgumentsBase64, args)
	v.SetResult(ref.Normalize(context.Background(), impl.Case{Schema: schema, Args: args, Options: o}))
	v.ID = ComputeID(v.SchemaText(), v.ArgumentsText(), o)
	return v
}

// SetResult sets what v expects to r.
func (v *Vector) SetResult(r Result) {
	v.Expected, v.ExpectedRaw, v.Error = nil, nil, ""
	if r.Error != "" {
		v.Error = r.Error
		return
	}
	setText(&v.Expected, &v.ExpectedRaw, nil, r.Output)
}

// sameResult reports whether two vectors with one ID expect the same.
func sameResult(a, b *Vector) bool { return impl.Compare(a.Want(), b.Want()).Same() }

// ErrContradicts is wrapped by the error Add returns for a vector whose
// case is in the corpus already with another expected result.
var ErrContradicts = errors.New("contradicts a vector in the corpus")

// Add writes v into the corpus directory dir, under vectors/ and its
// group, and returns the file's path relative to dir. A vector with the
// same ID that expects the same is not written again (added is false);
// one that expects something else is an error. The file is written
// atomically, and an existing file is never replaced: a name already
// taken gets the ID added to it.
func Add(dir string, existing []*Vector, v *Vector) (file string, added bool, err error) {
	for _, e := range existing {
		if e.ID != v.ID {
			continue
		}
		if sameResult(e, v) {
			return e.File, false, nil
		}
		return "", false, &FileError{e.File, fmt.Errorf("%w: the same case (id %s) expects something else", ErrContradicts, v.ID)}
	}
	if problems := Check(v); len(problems) > 0 {
		return "", false, fmt.Errorf("invalid vector %q: %s", v.Description, problems[0])
	}
	data, err := Encode(v)
	if err != nil {
		return "", false, err
	}
	group := filepath.Join(dir, "vectors", filepath.FromSlash(v.Group()))
	if err := os.MkdirAll(group, 0o755); err != nil {
		return "", false, err
	}
	name := v.FileName()
	for _, candidate := range []string{name, name[:len(name)-len(".json")] + "-" + v.ID + ".json"} {
		full := filepath.Join(group, candidate)
		rel, _ := filepath.Rel(dir, full)
		rel = filepath.ToSlash(rel)
		err = writeNew(full, data)
		if err == nil {
			v.File = rel
			return v.File, true, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", false, err
		}
		// Someone else wrote this name since existing was read: another
		// runner sharing the directory. The same case, or the same
		// finding (a finding's description names its bucket), is there.
		if other, rerr := readVector(full); rerr == nil && (other.ID == v.ID && sameResult(other, v) || v.Origin == "found" && other.Description == v.Description) {
			return rel, false, nil
		}
	}
	return "", false, fmt.Errorf("%s: %w", filepath.Join(group, name), err)
}

func readVector(name string) (*Vector, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Decode(data)
}

// writeNew writes data to a temporary file beside name and links it into
// place, which fails if name exists: readers never see a partial file,
// and no file is replaced.
func writeNew(name string, data []byte) error {
	return writeVia(name, data, os.Link)
}

// writeVia writes data to a temporary file beside name, then puts it in
// place with place(temporary, name): os.Rename to replace, os.Link to
// refuse to. The temporary file is removed in every case.
func writeVia(name string, data []byte, place func(tmp, name string) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// CreateTemp makes the file private; a corpus is shared.
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return place(tmp.Name(), name)
}
