package corpus

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/display"
)

// A corpus, an import source and a crash file come from someone else. The
// readers of this package read them inside their directory only (an
// [os.Root]): a symlink that leads outside is not followed, a device, a
// named pipe or a socket is not opened for reading, a file over
// [DefaultMaxFileSize] (or the [MaxFileSize] given) is not read, a
// directory is read no further than [DefaultMaxCorpusSize] of its files in
// all (or the [MaxCorpusSize] given), and a vector file must be UTF-8. Each
// refusal is an error naming the file; the other files are still read.
// Nothing of a file that has more than one link (a hard link, which may be
// a file outside the directory) is shown when it is not what it should be. The writers write inside their directory
// only, and refuse to write through a directory that is a symlink.

// DefaultMaxFileSize is the largest file, in bytes, a reader of this
// package reads unless given [MaxFileSize]: 4 MiB, thirty times the
// largest committed vector.
const DefaultMaxFileSize = 4 << 20

// DefaultMaxCorpusSize is the most, in bytes, [Load] reads of a corpus
// directory (and an import reads of a directory), all its files together,
// unless given [MaxCorpusSize]: 64 MiB, 27 times the committed corpus
// (2.4 MB in 5,088 files). Without it, 300 files of 4 MiB took 1.4 GB.
const DefaultMaxCorpusSize = 64 << 20

// Why a file was not read, or a directory not written into: each error
// about such a file wraps one of these.
var (
	ErrOutside    = errors.New("a symlink that leads outside the directory, or nowhere: not followed")
	ErrNotRegular = errors.New("not a regular file: not read")
	ErrTooLarge   = errors.New("too large: not read")
	ErrNotUTF8    = errors.New("not UTF-8")
	ErrSymlink    = errors.New("a symlink: not written through")
	ErrBadID      = errors.New("not an id: want 16 hex digits")
	// ErrCorpusTooLarge is wrapped by a *TotalSizeError.
	ErrCorpusTooLarge = errors.New("the files of the directory pass the limit of their total size (--max-corpus-size)")
	// ErrHardLinked is the error about a file that has more than one
	// link and is not what it should be (a vector, a fuzz input): it may
	// be a file from outside the directory, which os.Root cannot tell, so
	// nothing of it is shown, as nothing is of a symlink's target.
	ErrHardLinked = errors.New("not a valid file, and a hard link (it may be a file outside the directory): nothing of it is shown")
)

// A TotalSizeError says that reading a directory stopped at File, once
// the files read passed Limit bytes in all: Read counts them, File
// included.
type TotalSizeError struct {
	File        string
	Read, Limit int64
}

func (e *TotalSizeError) Error() string {
	return fmt.Sprintf("over the limit of %d bytes for all its files together (--max-corpus-size): not read further than %s, at %d bytes", e.Limit, display.Text(e.File), e.Read)
}

func (e *TotalSizeError) Unwrap() error { return ErrCorpusTooLarge }

// A ReadOption changes what a reader of this package accepts; a later one
// overrides an earlier one.
type ReadOption func(*readConfig)

type readConfig struct{ maxFileSize, maxCorpusSize int64 }

// MaxFileSize sets the largest file, in bytes, a reader reads; n <= 0
// means [DefaultMaxFileSize].
func MaxFileSize(n int64) ReadOption {
	return func(c *readConfig) {
		if n <= 0 {
			n = DefaultMaxFileSize
		}
		c.maxFileSize = n
	}
}

// MaxCorpusSize sets the most, in bytes, a reader reads of a directory,
// all its files together; n <= 0 means [DefaultMaxCorpusSize]. Reading
// stops with a *TotalSizeError at the file that passes it.
func MaxCorpusSize(n int64) ReadOption {
	return func(c *readConfig) {
		if n <= 0 {
			n = DefaultMaxCorpusSize
		}
		c.maxCorpusSize = n
	}
}

func newReadConfig(opts []ReadOption) readConfig {
	c := readConfig{maxFileSize: DefaultMaxFileSize, maxCorpusSize: DefaultMaxCorpusSize}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// DirFS returns the directory dir as a file system for [Load] and
// [LoadContext] that reads inside dir only: opening a name that leads
// outside it (through a symlink) fails with [ErrOutside]; one that is
// not a regular file or a directory, with [ErrNotRegular] (a named pipe
// is never waited on); a file over the size limit, with [ErrTooLarge]
// (and reading one that grows past it fails too). [Load] reads it no
// further than its limit of all its files together ([MaxCorpusSize]).
func DirFS(dir string, opts ...ReadOption) fs.FS {
	return dirFS{dir: dir, cfg: newReadConfig(opts)}
}

type dirFS struct {
	dir string
	cfg readConfig
}

func (f dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	root, err := os.OpenRoot(f.dir)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: bare(err)}
	}
	defer root.Close()
	file, err := openIn(root, name, f.cfg)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return file, nil
}

// rootFS is a dirFS whose directory is open: Load's, for the length of a
// walk. Each directory a file is opened in is kept open too, so that a
// file is opened by its own name in it (one system call, where opening
// by its path inside root takes one a directory on the way); when that
// fails, it is opened by its path inside root, which is what decides (a
// symlink to a file in another directory of the corpus is followed).
type rootFS struct {
	root *os.Root
	cfg  readConfig
	dirs map[string]*os.Root // nil: not opened
}

func newRootFS(root *os.Root, cfg readConfig) *rootFS {
	return &rootFS{root: root, cfg: cfg, dirs: map[string]*os.Root{}}
}

func (f *rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if dir, base := path.Split(name); dir != "" {
		d, ok := f.dirs[dir]
		if !ok {
			d, _ = f.root.OpenRoot(strings.TrimSuffix(dir, "/"))
			f.dirs[dir] = d
		}
		if d != nil {
			if file, err := openIn(d, base, f.cfg); err == nil {
				return file, nil
			}
		}
	}
	file, err := openIn(f.root, name, f.cfg)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return file, nil
}

// Close closes the directories kept open, and root.
func (f *rootFS) Close() error {
	for _, d := range f.dirs {
		if d != nil {
			d.Close()
		}
	}
	return f.root.Close()
}

// openIn opens name inside root for reading, as DirFS says.
func openIn(root *os.Root, name string, cfg readConfig) (fs.File, error) {
	// Non-blocking, so that opening a named pipe does not wait for a
	// writer; the file is refused below.
	f, err := root.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		if st, lerr := root.Lstat(name); lerr == nil {
			switch {
			case st.Mode()&fs.ModeSymlink != 0:
				return nil, ErrOutside
			case !st.Mode().IsRegular() && !st.IsDir():
				// A socket, which open refuses.
				return nil, fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))
			}
		}
		return nil, bare(err)
	}
	return checkOpened(f, cfg)
}

// openFile opens a file named on the command line: a symlink is followed
// (the user named it), but the rest is as openIn.
func openFile(name string, cfg readConfig) (fs.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		if st, serr := os.Stat(name); serr == nil && !st.Mode().IsRegular() && !st.IsDir() {
			return nil, fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))
		}
		return nil, bare(err)
	}
	return checkOpened(f, cfg)
}

func checkOpened(f *os.File, cfg readConfig) (fs.File, error) {
	st, err := f.Stat()
	switch {
	case err != nil:
		f.Close()
		return nil, bare(err)
	case st.IsDir():
		return f, nil
	case !st.Mode().IsRegular():
		f.Close()
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))
	case st.Size() > cfg.maxFileSize:
		f.Close()
		return nil, fmt.Errorf("%w: %d bytes, over the limit of %d a file (--max-file-size)", ErrTooLarge, st.Size(), cfg.maxFileSize)
	}
	return &limitedFile{File: f, left: cfg.maxFileSize, stat: st}, nil
}

// total counts the bytes a reader read of a directory, against its
// limit.
type total struct {
	read, limit int64
}

// add counts n bytes of the file name, and says when they pass the
// limit.
func (t *total) add(name string, n int) error {
	t.read += int64(n)
	if t.read > t.limit {
		return &TotalSizeError{File: name, Read: t.read, Limit: t.limit}
	}
	return nil
}

// hideHardLinked is err, an error about the content of the file d (not
// UTF-8, not a vector), unless the file has more than one link: it may
// then be a file from outside the directory (a hard link cannot be told
// from the file it links), and the error, which can quote its content
// (its first key), says so instead, and shows nothing of it.
func hideHardLinked(d fs.DirEntry, err error) error {
	if info, ierr := d.Info(); ierr == nil {
		if n := links(info); n > 1 {
			return fmt.Errorf("%w (%d links)", ErrHardLinked, n)
		}
	}
	return err
}

// kind names a file mode that is not a regular file's.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// limitedFile fails a read past the size limit: a file that grows after
// it was opened is not read without end.
type limitedFile struct {
	*os.File
	left int64
	stat fs.FileInfo // as opened
}

// Stat is the file as it was when opened (fs.ReadFile takes its size as
// a hint only): asking again costs a system call a file.
func (f *limitedFile) Stat() (fs.FileInfo, error) { return f.stat, nil }

func (f *limitedFile) Read(p []byte) (int, error) {
	if f.left <= 0 {
		// One byte more, to tell a file of exactly the limit from a
		// longer one.
		var one [1]byte
		if n, _ := f.File.Read(one[:]); n > 0 {
			return 0, fmt.Errorf("%w: it grew past the limit while read", ErrTooLarge)
		}
		return 0, io.EOF
	}
	if int64(len(p)) > f.left {
		p = p[:f.left]
	}
	n, err := f.File.Read(p)
	f.left -= int64(n)
	return n, err
}

// ReadFile reads a file named on the command line (a vector, an import
// source) as the readers of this package read: not a device, a named pipe
// or a socket, and not over the size limit.
func ReadFile(name string, opts ...ReadOption) ([]byte, error) {
	f, err := openFile(name, newReadConfig(opts))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errors.New("is a directory")
	}
	return io.ReadAll(f)
}

// checkUTF8 says where data stops being UTF-8.
func checkUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	i := 0
	for i < len(data) {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		i += n
	}
	return fmt.Errorf("%w: byte 0x%02x at offset %d (a vector file is UTF-8 text; a value that is not goes in a _base64 form)", ErrNotUTF8, data[i], i)
}

// bare is err without the *fs.PathError around it, which names a path
// the caller names already.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CheckID says whether id is an id as the format has them, 16 hex digits:
// wherever an id becomes a file name, nothing else may.
func CheckID(id string) error {
	if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
		return fmt.Errorf("id %q: %w", id, ErrBadID)
	}
	return nil
}

// mkdirs makes the directories of dir (slash-separated, relative to
// root) that are missing, and checks that none on the way is a symlink
// or something else than a directory: a writer writes through none.
func mkdirs(root *os.Root, dir string) error {
	p := ""
	for seg := range strings.SplitSeq(dir, "/") {
		p = path.Join(p, seg)
		st, err := root.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if err := root.Mkdir(p, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return &FileError{p, bare(err)}
			}
			st, err = root.Lstat(p)
		}
		switch {
		case err != nil:
			return &FileError{p, bare(err)}
		case st.Mode()&fs.ModeSymlink != 0:
			return &FileError{p, ErrSymlink}
		case !st.IsDir():
			return &FileError{p, errors.New("not a directory")}
		}
	}
	return nil
}

// mkdirsMade is mkdirs, and says which directories it made.
func mkdirsMade(root *os.Root, dir string) (made []string, err error) {
	p := ""
	for seg := range strings.SplitSeq(dir, "/") {
		p = path.Join(p, seg)
		if _, err := root.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			if err := root.Mkdir(p, 0o755); err == nil {
				made = append(made, p)
			}
		}
	}
	return made, mkdirs(root, dir)
}

// writeIn writes data to name (slash-separated, in root) through a
// temporary file beside it, so that no reader sees half a file: with
// replace, an existing file is replaced; without, writeIn fails with
// fs.ErrExist and leaves it. The temporary file is removed in every case.
func writeIn(root *os.Root, name string, data []byte, replace bool) error {
	tmp := path.Join(path.Dir(name), ".tmp-"+rand.Text())
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return bare(err)
	}
	defer root.Remove(tmp)
	_, err = f.Write(data)
	if err == nil {
		// The umask may have taken bits away; a corpus is shared.
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return bare(err)
	}
	if replace {
		err = root.Rename(tmp, name)
	} else {
		err = root.Link(tmp, name)
	}
	return bare(err)
}
