package corpus

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// QueueDir is the directory of a findings corpus that holds the queue of
// coverage-guided fuzzing: the cases that reached code of the
// implementation no case before them had, which a later run starts from.
// They are inputs, not vectors: each file is one request's schema and
// arguments, {"schema":...,"arguments":...}, named by a hash of them.
const QueueDir = "queue"

// A Queued case is a schema and arguments kept in a queue, each as its
// JSON text.
type Queued struct {
	Schema, Args []byte
	File         string // where it was read, relative to the corpus directory
}

// SaveQueued writes a case into dir's queue, once (the same case is the
// same file), atomically and inside dir. It returns the file's name,
// relative to dir.
func SaveQueued(dir string, schema, args []byte) (string, error) {
	if !jsonraw.Valid(schema) || !jsonraw.Valid(args) {
		return "", errors.New("a queued case must be JSON")
	}
	h := sha256.New()
	h.Write(schema)
	h.Write([]byte{0})
	h.Write(args)
	name := path.Join(QueueDir, hex.EncodeToString(h.Sum(nil))[:16]+".json")
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	defer root.Close()
	if err := mkdirs(root, QueueDir); err != nil {
		return "", err
	}
	if _, err := root.Lstat(name); err == nil {
		return name, nil
	}
	data := make([]byte, 0, len(schema)+len(args)+32)
	data = append(data, `{"schema":`...)
	data = append(data, schema...)
	data = append(data, `,"arguments":`...)
	data = append(data, args...)
	data = append(data, "}\n"...)
	if err := writeIn(root, name, data, false); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", &FileError{name, err}
	}
	return name, nil
}

// LoadQueue reads dir's queue (none is no error), in file name order, at
// most limit cases (limit <= 0: all), within the read limits opts set (as
// [DirFS] reads). A file that is not a queued case is a *FileError; it
// reads all it can and returns every error, joined.
func LoadQueue(ctx context.Context, dir string, limit int, opts ...ReadOption) ([]Queued, error) {
	if st, err := os.Stat(path.Join(dir, QueueDir)); err != nil || !st.IsDir() {
		return nil, nil
	}
	cfg := newReadConfig(opts)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	fsys := newRootFS(root, cfg)
	defer fsys.Close()
	entries, err := fs.ReadDir(fsys, QueueDir)
	if err != nil {
		return nil, &FileError{QueueDir, bare(err)}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	var out []Queued
	var errs []error
	read := total{limit: cfg.maxCorpusSize}
	for _, d := range entries {
		if ctx.Err() != nil {
			errs = append(errs, context.Cause(ctx))
			break
		}
		if limit > 0 && len(out) >= limit {
			break
		}
		p := path.Join(QueueDir, d.Name())
		if d.IsDir() || strings.HasPrefix(d.Name(), ".") || path.Ext(p) != ".json" {
			continue
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, &FileError{p, bare(err)})
			continue
		}
		if err := read.add(p, len(data)); err != nil {
			errs = append(errs, err)
			break
		}
		q, err := decodeQueued(data)
		if err != nil {
			errs = append(errs, &FileError{p, hideHardLinked(d, err)})
			continue
		}
		q.File = p
		out = append(out, q)
	}
	return out, errors.Join(errs...)
}

// decodeQueued reads a queue file: an object of exactly a schema and
// arguments, their text kept.
func decodeQueued(data []byte) (Queued, error) {
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return Queued{}, fmt.Errorf("not a queued case: %v", err)
	}
	if v.Kind != jsonvalue.Object {
		return Queued{}, errors.New("not a queued case: want an object of schema and arguments")
	}
	var q Queued
	for _, m := range v.Members {
		var into *[]byte
		switch m.Key {
		case "schema":
			into = &q.Schema
		case "arguments":
			into = &q.Args
		default:
			return Queued{}, fmt.Errorf("not a queued case: unknown member %q", m.Key)
		}
		if *into != nil {
			return Queued{}, fmt.Errorf("not a queued case: %q twice", m.Key)
		}
		*into = m.Value.Append(nil)
	}
	if q.Schema == nil || q.Args == nil {
		return Queued{}, errors.New("not a queued case: want both schema and arguments")
	}
	return q, nil
}
