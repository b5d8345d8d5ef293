package corpus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
)

// New returns a vector for the case (schema, args, o), its expected
// result computed by ref, and its ID set.
func New(description, clause, origin string, tags []string, schema, args []byte, o Options, ref Impl) *Vector {
	return newVector(context.Background(), description, clause, origin, tags, schema, args, o, ref)
}

// newVector is New, ref given ctx.
func newVector(ctx context.Context, description, clause, origin string, tags []string, schema, args []byte, o Options, ref Impl) *Vector {
	v := &Vector{Description: description, Clause: clause, Origin: origin, Tags: tags, Options: o}
	setText(&v.Schema, &v.SchemaRaw, &v.SchemaBase64, schema)
	setText(&v.Arguments, &v.ArgumentsRaw, &v.ArgumentsBase64, args)
	v.SetResult(ref.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o}))
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
func sameResult(a, b *Vector) bool { return impl.Same(a.Want(), b.Want()) }

// ErrContradicts is wrapped by the error Add returns for a vector whose
// case is in the corpus already with another expected result.
var ErrContradicts = errors.New("contradicts a vector in the corpus")

// Add writes v into the corpus directory dir, under vectors/ and its
// group, and returns the file's path relative to dir. A vector with the
// same ID that expects the same is not written again (added is false);
// one that expects something else is an error. The file is written
// atomically, and an existing file is never replaced: a name already
// taken gets the ID added to it. Add writes inside dir only, and through
// no symlink: a vectors/ or group directory that is one is an error
// wrapping [ErrSymlink].
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
		return "", false, fmt.Errorf("invalid vector %s: %s", display.Quote(v.Description), problems[0])
	}
	data, err := Encode(v)
	if err != nil {
		return "", false, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", false, err
	}
	defer root.Close()
	group := path.Join("vectors", v.Group())
	if err := mkdirs(root, group); err != nil {
		return "", false, err
	}
	name := v.FileName()
	for _, candidate := range []string{name, name[:len(name)-len(".json")] + "-" + v.ID + ".json"} {
		rel := path.Join(group, candidate)
		err = writeIn(root, rel, data, false)
		if err == nil {
			v.File = rel
			return v.File, true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", false, &FileError{rel, err}
		}
		// Someone else wrote this name since existing was read: another
		// runner sharing the directory. The same case, or the same
		// finding (a finding's description names its bucket), is there.
		if other, rerr := readVectorIn(root, rel); rerr == nil && (other.ID == v.ID && sameResult(other, v) || v.Origin == "found" && other.Description == v.Description) {
			return rel, false, nil
		}
	}
	return "", false, &FileError{path.Join(group, name), err}
}

func readVectorIn(root *os.Root, name string) (*Vector, error) {
	f, err := openIn(root, name, newReadConfig(nil))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err == nil {
		err = checkUTF8(data)
	}
	if err != nil {
		return nil, err
	}
	return Decode(data)
}
