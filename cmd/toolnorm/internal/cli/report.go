package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/render"
)

var reportCmd = &command[reportOptions]{
	Use:   "report FILE... [--html OUT.html] [--out OUT.md]",
	Short: "Combine check reports into one compliance matrix, in Markdown and HTML",
	Long: `Report reads the reports toolnorm check --format json wrote, one per
implementation, and puts them side by side: implementations in columns, and in
rows the properties (those the rule requires, then toolnorm's readings, each
with its clause and statement), the corpus replay (in all and by clause) and
the fuzzing. A cell holds (✅), is broken (❌, with the message and a command
that reproduces it) or was not run (—). Each implementation's header gives its
name, language, version, declared choices, verdict, seed and budget.

The Markdown goes to standard output, or to --out. --html also writes the
matrix as one static HTML page that opens from disk. FILE "-" is standard
input.

Exit status: 0 the matrix was written, 1 a file that is not a check report or
cannot be read or written, 2 usage error.`,
	Example: `  toolnorm check --format json > reference.json
  toolnorm check --impl 'python3 examples/python/adapter.py' --format json > python.json
  toolnorm report reference.json python.json --html matrix.html >> "$GITHUB_STEP_SUMMARY"`,
	Args:  cobra.ArbitraryArgs,
	Flags: reportFlags,
	Run:   runReport,
}

type reportOptions struct {
	htmlOut, mdOut, badgeDir string
}

func reportFlags(cmd *cobra.Command, o *reportOptions) {
	cmd.Flags().StringVar(&o.htmlOut, "html", "", "also write the matrix as a static HTML page to this file")
	cmd.Flags().StringVar(&o.badgeDir, "badges", "", "also write a shields.io endpoint badge (SLUG.json) per implementation into this directory")
	cmd.Flags().StringVar(&o.mdOut, "out", "", "write the Markdown to this file instead of standard output")
}

func runReport(cmd *cobra.Command, o *reportOptions, args []string) error {
	if len(args) == 0 {
		return usagef("no report given: give the files toolnorm check --format json wrote")
	}
	reports := make([]*check.Report, 0, len(args))
	for _, file := range args {
		r, err := readReport(cmd.InOrStdin(), file)
		if err != nil {
			return err
		}
		reports = append(reports, r)
	}
	if o.badgeDir != "" {
		if err := os.MkdirAll(o.badgeDir, 0o755); err != nil {
			return err
		}
		for _, b := range render.Badges(reports) {
			if err := os.WriteFile(filepath.Join(o.badgeDir, b.Slug+".json"), b.JSON(), 0o644); err != nil {
				return err
			}
		}
	}
	m := render.Matrix(reports)
	m.Made = "toolnorm " + version() + ", " + time.Now().UTC().Format("2006-01-02 15:04 MST")
	if o.htmlOut != "" {
		var b bytes.Buffer
		if err := m.WriteHTML(&b); err != nil {
			return err
		}
		if err := os.WriteFile(o.htmlOut, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if o.mdOut == "" || o.mdOut == "-" {
		return m.WriteMarkdown(cmd.OutOrStdout())
	}
	var b bytes.Buffer
	if err := m.WriteMarkdown(&b); err != nil {
		return err
	}
	return os.WriteFile(o.mdOut, b.Bytes(), 0o644)
}

// readReport reads one check report; an error names the file.
func readReport(stdin io.Reader, file string) (*check.Report, error) {
	var (
		data []byte
		err  error
	)
	if file == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(file)
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %v", file, pe.Err)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	r, err := check.ParseReport(data)
	if err != nil {
		name := file
		if file == "-" {
			name = "standard input"
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}
