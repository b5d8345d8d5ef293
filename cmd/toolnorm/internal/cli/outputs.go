package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/render"
)

// output is one --output FORMAT=FILE of check: the report of the same run
// written into FILE ("-": stdout, in place of --format's) in FORMAT.
type output struct {
	flag   string // the flag's value, as given, for errors
	format string
	file   string
}

// parseOutputs reads the values of --output, before the check runs: every
// mistake is a usage error that names the value, and a file that cannot
// be written where it is named is found here, not after the check. format
// is --format's value, given saying whether it was given.
func parseOutputs(values []string, format string, given bool, baseline, writeBaseline string) ([]output, error) {
	var outs []output
	seen := map[string]string{} // a file's absolute path: the flag that names it
	for flag, b := range map[string]string{"--baseline": baseline, "--write-baseline": writeBaseline} {
		if b != "" {
			if abs, err := filepath.Abs(b); err == nil {
				seen[abs] = flag + " " + b
			}
		}
	}
	for _, v := range values {
		f, file, ok := strings.Cut(v, "=")
		if !ok || f == "" || file == "" {
			return nil, usagef("--output %s: want FORMAT=FILE, such as junit=toolnorm.xml (formats: %s)", v, strings.Join(render.Formats, ", "))
		}
		if !contains(render.Formats, f) {
			return nil, usagef("--output %s: unknown format %q (want %s)", v, f, strings.Join(render.Formats, ", "))
		}
		o := output{flag: v, format: f, file: file}
		if file == "-" {
			if by, ok := seen["-"]; ok {
				return nil, usagef("--output %s: stdout is named by %s already", v, by)
			}
			if given {
				return nil, usagef("--output %s: stdout is --format's (%s) already", v, format)
			}
			seen["-"] = "--output " + v
			outs = append(outs, o)
			continue
		}
		abs, err := filepath.Abs(file)
		if err != nil {
			return nil, usagef("--output %s: %v", v, err)
		}
		if by, ok := seen[abs]; ok {
			return nil, usagef("--output %s: %s is named by %s already", v, filepath.Clean(file), by)
		}
		seen[abs] = "--output " + v
		if err := writable(file); err != nil {
			return nil, usagef("--output %s: %v", v, err)
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// writable says why file cannot be written atomically (a temporary file
// beside it, renamed into place), or nil.
func writable(file string) error {
	if st, err := os.Stat(file); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory", filepath.Clean(file))
	}
	dir := filepath.Dir(file)
	if !isDir(dir) {
		return fmt.Errorf("cannot write there: no directory %s", dir)
	}
	tmp, err := os.CreateTemp(dir, ".toolnorm-report-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write there: %v", err)
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// stdoutFormat is the format of the report on stdout: an --output's to
// "-", or --format's.
func stdoutFormat(outs []output, format string) string {
	for _, o := range outs {
		if o.file == "-" {
			return o.format
		}
	}
	return format
}

// wholeReport is where the whole report is, for the line that ends a cut
// Markdown report: the first file --output writes in HTML, or else in
// JSON; "" if none.
func wholeReport(outs []output) string {
	for _, f := range []string{"html", "json"} {
		for _, o := range outs {
			if o.format == f && o.file != "-" {
				return o.file
			}
		}
	}
	return ""
}

// writeOutputs writes the report into every --output file, each through a
// temporary file renamed into place: a CI step reading it never sees half
// a report. write renders one format into a writer.
func writeOutputs(outs []output, write func(w *bufio.Writer, format string) error) error {
	var errs []error
	for _, o := range outs {
		if o.file == "-" {
			continue
		}
		if err := writeAtomic(o.file, func(w *bufio.Writer) error { return write(w, o.format) }); err != nil {
			errs = append(errs, fmt.Errorf("--output %s: %v", o.flag, err))
		}
	}
	return errors.Join(errs...)
}

// errSkip, from writeOutputs's write, leaves that file unwritten.
var errSkip = errors.New("not written")

// writeAtomic writes file through a temporary file in its directory,
// renamed into place once whole.
func writeAtomic(file string, write func(w *bufio.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".toolnorm-report-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 64<<10)
	if err = write(w); errors.Is(err, errSkip) {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil
	}
	err = errors.Join(err, w.Flush(), tmp.Chmod(0o644), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// writeReports writes the report of a check to stdout and into every
// --output file, from the one report: the same seed, the same findings.
func writeReports(r *check.Report, stdout io.Writer, o *checkOptions) error {
	opts := render.Options{MaxMarkdown: o.maxMarkdown, Whole: wholeReport(o.outputs)}
	err := render.WriteWith(r, stdout, stdoutFormat(o.outputs, o.format), opts)
	return errors.Join(err, writeOutputs(o.outputs, func(w *bufio.Writer, format string) error {
		return render.WriteWith(r, w, format, opts)
	}))
}
