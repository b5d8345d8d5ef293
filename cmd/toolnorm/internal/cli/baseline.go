package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolnorm/toolnorm/check"
)

// maxBaselineSize bounds the baseline file read: a baseline holds tens
// of ids and titles, never megabytes.
const maxBaselineSize = 4 << 20

// readBaseline reads the baseline --baseline names. A file that cannot
// be read, or is not a baseline, stops the check before it runs (exit
// status 2), in one line that names it.
func readBaseline(file string) (*check.Baseline, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, startError{fmt.Errorf("--baseline %s: %v", file, err)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxBaselineSize+1))
	switch {
	case err != nil:
		return nil, startError{fmt.Errorf("--baseline %s: %v", file, err)}
	case len(data) > maxBaselineSize:
		return nil, startError{fmt.Errorf("--baseline %s: larger than %d MB: not a baseline", file, maxBaselineSize>>20)}
	}
	b, err := check.ParseBaseline(data)
	if err != nil {
		return nil, startError{fmt.Errorf("--baseline %s: %v", file, err)}
	}
	b.File = file
	return b, nil
}

// writeBaselineFile writes b into file, its directory made if missing,
// through a temporary file renamed into place: a baseline is never seen
// half written.
func writeBaselineFile(file string, b *check.Baseline) error {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--write-baseline %s: %v", file, err)
	}
	tmp, err := os.CreateTemp(dir, ".toolnorm-baseline-*")
	if err != nil {
		return fmt.Errorf("--write-baseline %s: %v", file, err)
	}
	_, err = tmp.Write(b.Marshal())
	err = errors.Join(err, tmp.Chmod(0o644), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("--write-baseline %s: %v", file, err)
	}
	return nil
}

// knownList counts a baseline's root causes and names them: "2 root
// causes (a, b)".
func knownList(b *check.Baseline) string {
	n := len(b.RootCauses)
	s := fmt.Sprintf("%d root cause", n)
	if n != 1 {
		s += "s"
	}
	if n > 0 {
		s += " (" + strings.Join(b.IDs(), ", ") + ")"
	}
	return s
}

// baselineCaveat says what a baseline written from r lacks: the failures
// of the program (never in one), and what a check cut short did not meet.
func baselineCaveat(r *check.Report) string {
	s := ""
	if r.Failures() > 0 {
		s += "; failures of the program are not written: fix them"
	}
	if r.Incomplete != nil && r.Incomplete.RanShort() {
		s += "; the check did not run all it would have: a root cause it did not meet is not in it (a larger --budget, or --checks, runs more)"
	}
	return s
}
