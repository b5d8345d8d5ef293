package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/render"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

var corpusCmd = &command[noOptions]{
	Use:   "corpus",
	Short: "Check, replay and grow the shared regression corpus",
	Long: `The corpus is one JSON file per vector under DIR/vectors/, in a format any
language can replay (see corpus/README.md). Every subcommand works on the
directory given as its last argument; without one, on ./corpus, or, where there
is none, on the corpus built into toolnorm (read-only).`,
	Args:     cobra.NoArgs,
	Flags:    corpusFlags,
	Run:      runCorpus,
	Commands: []builder{corpusLsCmd, corpusStatsCmd, corpusLintCmd, corpusReplayCmd, corpusAddCmd, corpusExportCmd, corpusImportCmd},
}

// corpusFlags are the flags every corpus subcommand takes.
func corpusFlags(cmd *cobra.Command, _ *noOptions) {
	maxFileSizeFlag(cmd.PersistentFlags())
}

func runCorpus(_ *cobra.Command, _ *noOptions, _ []string) error {
	return usagef("no subcommand given")
}

// corpusDir opens the corpus a subcommand works on: the directory given
// (when writable, made with its vectors/ if it has none), else ./corpus,
// else (when writable is false) the embedded one.
func corpusDir(args []string, writable bool) (dir string, fsys fs.FS, err error) {
	switch {
	case len(args) > 0:
		dir = args[len(args)-1]
	case isDir(filepath.Join("corpus", "vectors")):
		dir = "corpus"
	case writable:
		return "", nil, usagef("no ./corpus directory: give the corpus directory as the last argument")
	default:
		return "(built in)", corpus.Embedded(), nil
	}
	vectors := filepath.Join(dir, "vectors")
	if _, err := os.Lstat(vectors); writable && len(args) > 0 && errors.Is(err, fs.ErrNotExist) {
		// A corpus to write into is made where there is none yet, as
		// fuzz --corpus makes it; a vectors/ that is something else (a
		// symlink leading nowhere) is not.
		if err := os.MkdirAll(vectors, 0o755); err != nil {
			return "", nil, err
		}
	}
	if !isDir(vectors) {
		return "", nil, fmt.Errorf("%s: not a corpus: no vectors/ directory", dir)
	}
	return dir, corpus.DirFS(dir, readLimit()...), nil
}

// maxFileSize and maxCorpusSize are the --max-file-size and
// --max-corpus-size of the command running: corpus readers read no file
// larger, and no more of a directory, all its files together.
var maxFileSize, maxCorpusSize int64

// maxFileSizeFlag adds --max-file-size and --max-corpus-size.
func maxFileSizeFlag(fl *pflag.FlagSet) {
	fl.Int64Var(&maxFileSize, "max-file-size", corpus.DefaultMaxFileSize, "read no corpus or import file larger than this many bytes")
	fl.Int64Var(&maxCorpusSize, "max-corpus-size", corpus.DefaultMaxCorpusSize, "read no more than this many bytes of a corpus, or of an import directory, all its files together")
}

// readLimit are the limits of what a corpus reader reads, as the flags say.
func readLimit() []corpus.ReadOption {
	return []corpus.ReadOption{corpus.MaxFileSize(maxFileSize), corpus.MaxCorpusSize(maxCorpusSize)}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func loadCorpus(args []string) (string, []*corpus.Vector, error) {
	dir, fsys, err := corpusDir(args, false)
	if err != nil {
		return "", nil, err
	}
	vectors, err := corpus.Load(fsys)
	if err != nil {
		return "", nil, corpusError(dir, err)
	}
	return dir, vectors, nil
}

// corpusError names the files a load error is about, one per line, each
// relative to dir ("": as they are).
func corpusError(dir string, err error) error {
	var lines []string
	for _, e := range unjoin(err) {
		var fe *corpus.FileError
		switch {
		case errors.As(e, &fe):
			name := fe.File
			if dir != "" {
				name = filepath.Join(dir, name)
			}
			lines = append(lines, display.Text(name)+": "+display.Text(fe.Err.Error()))
		case dir != "":
			lines = append(lines, display.Text(dir)+": "+display.Text(e.Error()))
		default:
			lines = append(lines, display.Text(e.Error()))
		}
	}
	return errors.New(strings.Join(lines, "\ntoolnorm: "))
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

var corpusLsCmd = &command[noOptions]{
	Use:   "ls [DIR]",
	Short: "List the vectors: id, file, clause, description",
	Args:  cobra.MaximumNArgs(1),
	Run:   runCorpusLs,
}

func runCorpusLs(cmd *cobra.Command, _ *noOptions, args []string) error {
	_, vectors, err := loadCorpus(args)
	if err != nil {
		return err
	}
	w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	for _, v := range vectors {
		// All of it from the corpus: shown as display shows text.
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", display.Text(v.ID), display.Text(strings.TrimPrefix(v.File, "vectors/")), display.Text(v.Clause), display.Text(v.Description))
	}
	return w.Flush()
}

var corpusStatsCmd = &command[noOptions]{
	Use:   "stats [DIR]",
	Short: "Count the vectors by clause, tag, origin and group",
	Args:  cobra.MaximumNArgs(1),
	Run:   runCorpusStats,
}

func runCorpusStats(cmd *cobra.Command, _ *noOptions, args []string) error {
	dir, vectors, err := loadCorpus(args)
	if err != nil {
		return err
	}
	counts := map[string]map[string]int{"clause": {}, "tag": {}, "origin": {}, "group": {}}
	for _, v := range vectors {
		counts["clause"][v.Clause]++
		counts["origin"][v.Origin]++
		counts["group"][v.Group()]++
		for _, t := range v.Tags {
			counts["tag"][t]++
		}
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "%d vectors in %s\n", len(vectors), dir)
	for _, by := range []string{"clause", "origin", "group", "tag"} {
		fmt.Fprintf(out, "\nby %s:\n", by)
		keys := make([]string, 0, len(counts[by]))
		for k := range counts[by] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(out, "  %-24s %5d\n", k, counts[by][k])
		}
	}
	return nil
}

var corpusLintCmd = &command[noOptions]{
	Use:   "lint [DIR]",
	Short: "Check every vector: format, id, place, and that the reference gives what it expects",
	Args:  cobra.MaximumNArgs(1),
	Run:   runCorpusLint,
}

func runCorpusLint(cmd *cobra.Command, _ *noOptions, args []string) error {
	dir, vectors, err := loadCorpus(args)
	if err != nil {
		return err
	}
	problems := corpus.Lint(vectors, corpus.Reference)
	for _, p := range problems {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", display.Text(filepath.Join(dir, p.File)), display.Text(p.Msg))
	}
	if len(problems) > 0 {
		return fmt.Errorf("corpus lint: %d problems in %d vectors", len(problems), len(vectors))
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d vectors, no problems\n", len(vectors))
	return nil
}

var corpusReplayCmd = &command[corpusReplayOptions]{
	Use:   "replay [--impl CMD] [--only ID...] [DIR | FILE... | -]",
	Short: "Replay vectors on an implementation (default: the built-in reference)",
	Long: `Replay runs vectors on the implementation and compares each result with the
expected one, as JSON values; for each that differs it shows the input, what
was expected and what came. The vectors are a corpus directory's (default:
./corpus, or the one built into toolnorm), or the vector files given, or,
with -, the vectors on standard input (one JSON object each, as a vector
file holds it). The exit status is 1 while any vector fails.

An implementation behind the protocol runs in the one configuration it
declares: a vector for other options that means something else under its
own is skipped, as is one whose input no JSON line can carry; the summary
counts them.`,
	Example: `  toolnorm corpus replay --impl 'python3 my_adapter.py'
  toolnorm corpus replay --impl 'python3 my_adapter.py' corpus/vectors/rule/a-stringified-array-is-decoded.json
  printf '%s\n' '{"id":"x","description":"d","clause":"found","origin":"found","schema":{},"arguments":{"a":"&amp;"},"expected":{"a":"&"}}' | toolnorm corpus replay -`,
	Args:  cobra.ArbitraryArgs,
	Flags: corpusReplayFlags,
	Run:   runCorpusReplay,
}

type corpusReplayOptions struct {
	verbose bool
	f       implFlags
	only    []string
}

func corpusReplayFlags(cmd *cobra.Command, o *corpusReplayOptions) {
	o.f.register(cmd)
	cmd.Flags().BoolVarP(&o.verbose, "verbose", "v", false, "also list every vector replayed")
	cmd.Flags().StringSliceVar(&o.only, "only", nil, "replay only the vectors with these ids")
}

func runCorpusReplay(cmd *cobra.Command, o *corpusReplayOptions, args []string) error {
	// The signals are held from the start (see runFuzz).
	ctx, stop := signalContext(cmd)
	defer stop()
	vectors, err := replayVectors(cmd, args)
	if err != nil {
		return err
	}
	if len(o.only) > 0 {
		pick := func(vectors []*corpus.Vector) (picked []*corpus.Vector) {
			for _, v := range vectors {
				if contains(o.only, v.ID) {
					picked = append(picked, v)
				}
			}
			return picked
		}
		picked := pick(vectors)
		if len(picked) == 0 && len(args) == 0 {
			// The ids a check prints for the corpus built into
			// toolnorm: a ./corpus of another project lacks them.
			builtin, err := corpus.Load(corpus.Embedded())
			if err != nil {
				return err
			}
			picked = pick(builtin)
		}
		if len(picked) == 0 {
			return fmt.Errorf("corpus replay: no vector with id %s", strings.Join(o.only, ", "))
		}
		vectors = picked
	}
	im, closeImpl, err := o.f.open(ctx, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer closeImpl()
	res := check.Replay(ctx, check.Config{Impl: im, Command: o.f.command, Vectors: vectors})
	out := cmd.OutOrStdout()
	render.ReplayFailures(out, res)
	if o.verbose {
		for _, v := range vectors {
			fmt.Fprintf(out, "%s %s\n", display.Text(v.ID), display.Text(v.File))
		}
	}
	fmt.Fprintf(out, "%s: %s\n", im.Name(), render.CorpusSummary(res))
	if ctx.Err() != nil {
		fmt.Fprintln(out, "interrupted")
		return errInterrupted
	}
	if res.Failed > 0 || res.Errors > 0 {
		return violationsFound
	}
	return nil
}

// replayVectors reads the vectors replay runs: a corpus directory (the
// default one without arguments), vector files, or - for vectors on
// standard input.
func replayVectors(cmd *cobra.Command, args []string) ([]*corpus.Vector, error) {
	if len(args) == 0 || len(args) == 1 && args[0] != "-" && isDir(args[0]) {
		_, vectors, err := loadCorpus(args)
		return vectors, err
	}
	var vectors []*corpus.Vector
	for _, a := range args {
		if a == "-" {
			vs, err := corpus.DecodeStream(cmd.InOrStdin())
			if err != nil {
				return nil, fmt.Errorf("standard input: %w", err)
			}
			vectors = append(vectors, vs...)
			continue
		}
		if isDir(a) {
			return nil, usagef("%s is a directory: give one corpus directory, or vector files", a)
		}
		data, err := corpus.ReadFile(a, readLimit()...)
		if err != nil {
			return nil, fileError(a, err)
		}
		v, err := corpus.Decode(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, err)
		}
		v.File = a
		vectors = append(vectors, v)
	}
	return vectors, nil
}

var corpusAddCmd = &command[corpusAddOptions]{
	Use:   "add --schema FILE --args FILE --description TEXT --clause CLAUSE [--impl CMD] [DIR]",
	Short: "Add a case as a vector, its expected result computed by the reference",
	Long: `Add turns a (schema, arguments) pair into a vector: it computes the expected
result with the reference normalizer, derives the id from the content, and
writes the file atomically under DIR/vectors/<group>/, never replacing a file.
A case already in the corpus with the same expected result is not written
again; one with another expected result is an error.

With --impl, the case is one an implementation fails: add first minimizes it
(fewer members, shorter strings, a smaller schema) while the implementation
still fails it the same way, and the vector's origin is "found".`,
	Args:  cobra.MaximumNArgs(1),
	Flags: corpusAddFlags,
	Run:   runCorpusAdd,
}

type corpusAddOptions struct {
	schemaFile, argsFile, description, clause, profile string
	expectFile, expectError                            string
	tags                                               []string
	maxPasses, maxDepth                                int
	f                                                  implFlags
}

func corpusAddFlags(cmd *cobra.Command, o *corpusAddOptions) {
	o.f.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&o.schemaFile, "schema", "", "the tool's input schema")
	fl.StringVar(&o.argsFile, "args", "", "the arguments as sent")
	fl.StringVar(&o.description, "description", "", "what the case shows, in one line")
	fl.StringVar(&o.clause, "clause", "", "rule/1..rule/5, reading/1..reading/8, or found")
	fl.StringSliceVar(&o.tags, "tags", nil, "tags, comma-separated")
	fl.StringVar(&o.expectFile, "expect", "", "the arguments the tool must receive: add fails unless the reference gives them")
	fl.StringVar(&o.expectError, "expect-error", "", "the error expected instead: invalid-json, not-object, too-deep or invalid-schema")
	fl.StringVar(&o.profile, "profile", "text", "text or attribute")
	fl.IntVar(&o.maxPasses, "max-passes", 0, "pass bound (0: none)")
	fl.IntVar(&o.maxDepth, "max-depth", 0, "nesting limit (0: the default)")
}

func runCorpusAdd(cmd *cobra.Command, o *corpusAddOptions, args []string) error {
	if o.schemaFile == "" || o.argsFile == "" || o.description == "" || o.clause == "" {
		return usagef("--schema, --args, --description and --clause are required")
	}
	if err := corpus.CheckClause(o.clause); err != nil {
		return usagef("--clause: %v", err)
	}
	dir, _, err := corpusDir(args, true)
	if err != nil {
		return err
	}
	schema, err := os.ReadFile(o.schemaFile)
	if err != nil {
		return fileError(o.schemaFile, err)
	}
	a, err := os.ReadFile(o.argsFile)
	if err != nil {
		return fileError(o.argsFile, err)
	}
	existing, err := corpus.Load(corpus.DirFS(dir, readLimit()...))
	if err != nil {
		return corpusError(dir, err)
	}
	opts := corpus.Options{MaxPasses: o.maxPasses, MaxDepth: o.maxDepth}
	if err := opts.Profile.UnmarshalText([]byte(o.profile)); err != nil {
		return usagef("--profile: want text or attribute, not %q", o.profile)
	}
	var v *corpus.Vector
	if o.f.command == "" {
		v = corpus.New(o.description, o.clause, "hand", o.tags, schema, a, opts, corpus.Reference)
	} else {
		// A failing case: shrink it while the implementation still
		// fails it the same way.
		im, closeImpl, err := o.f.open(cmd.Context(), cmd.ErrOrStderr())
		if err != nil {
			return err
		}
		defer closeImpl()
		if c, ok := im.(impl.Configured); ok {
			opts = c.Options()
		}
		if v = corpus.NewFinding(cmd.Context(), im, corpus.Reference, o.description, o.clause, "found", o.tags, schema, a, opts); v == nil {
			return fmt.Errorf("corpus add: %s gives the reference's result on this case: nothing to add", im.Name())
		}
		fmt.Fprintf(cmd.OutOrStdout(), "minimized to %d bytes of schema and %d of arguments\n", len(v.SchemaText()), len(v.ArgumentsText()))
	}
	if err := checkExpectation(v, o.expectFile, o.expectError); err != nil {
		return err
	}
	file, added, err := corpus.Add(dir, existing, v)
	if err != nil {
		return corpusError(dir, err)
	}
	if added {
		fmt.Fprintf(cmd.OutOrStdout(), "added %s %s\n", v.ID, filepath.Join(dir, file))
	} else {
		fmt.Fprintf(cmd.OutOrStdout(), "already there: %s %s\n", v.ID, filepath.Join(dir, file))
	}
	return nil
}

// checkExpectation holds a hand-written case to what its author expects:
// the reference must give it, so that a vector's expected result is
// written by a person and checked, not assumed.
func checkExpectation(v *corpus.Vector, expectFile, expectError string) error {
	switch {
	case expectFile != "" && expectError != "":
		return usagef("--expect and --expect-error exclude each other")
	case expectError != "":
		if string(v.Error) != expectError {
			return fmt.Errorf("corpus add: the reference gives %s, not error %s", describeExpected(v), expectError)
		}
	case expectFile != "":
		want, err := os.ReadFile(expectFile)
		if err != nil {
			return fileError(expectFile, err)
		}
		if v.Error != "" {
			return fmt.Errorf("corpus add: the reference gives %s, not %s", describeExpected(v), bytes.TrimSpace(want))
		}
		eq, err := jsonvalue.EqualJSON(v.ExpectedText(), want)
		if err != nil {
			return fileError(expectFile, err)
		}
		if !eq {
			return fmt.Errorf("corpus add: the reference gives %s, not %s", describeExpected(v), bytes.TrimSpace(want))
		}
	}
	return nil
}

func describeExpected(v *corpus.Vector) string {
	if v.Error != "" {
		return "error " + string(v.Error)
	}
	return string(v.ExpectedText())
}

var corpusExportCmd = &command[corpusExportOptions]{
	Use:   "export --format gofuzz|jsonl|ossfuzz --out PATH [DIR]",
	Short: "Write the vectors as fuzz seeds (go test, OSS-Fuzz) or as JSON Lines",
	Long: `Export writes the vectors in another form:
  gofuzz   PATH/<Target>/<id> in the "go test fuzz v1" encoding, for each native
           fuzz target that takes a case (copy into fuzz/testdata/fuzz/)
  ossfuzz  PATH/<binary>_seed_corpus.zip for every libFuzzer binary of
           .clusterfuzzlite/build.sh, inputs as go-118-fuzz-build reads them
           for its arguments (OSS-Fuzz ignores f.Add seeds)
  jsonl    one vector per line, to PATH ("-": standard output)
Vectors that need an option a fuzz target cannot take (a nesting limit, a pass
bound past 2) are skipped by gofuzz and ossfuzz, and counted.`,
	Args:  cobra.MaximumNArgs(1),
	Flags: corpusExportFlags,
	Run:   runCorpusExport,
}

type corpusExportOptions struct {
	format, out string
}

func corpusExportFlags(cmd *cobra.Command, o *corpusExportOptions) {
	cmd.Flags().StringVar(&o.format, "format", "gofuzz", "gofuzz, jsonl or ossfuzz")
	cmd.Flags().StringVar(&o.out, "out", "", "where to write")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"gofuzz", "jsonl", "ossfuzz"}, cobra.ShellCompDirectiveNoFileComp))
}

func runCorpusExport(cmd *cobra.Command, o *corpusExportOptions, args []string) error {
	if o.out == "" {
		return usagef("--out is required")
	}
	dir, vectors, err := loadCorpus(args)
	if err != nil {
		return err
	}
	var written, skipped int
	switch o.format {
	case "gofuzz":
		written, skipped, err = corpus.ExportGoFuzz(vectors, o.out)
	case "ossfuzz":
		written, skipped, err = corpus.ExportOSSFuzz(vectors, o.out)
	case "jsonl":
		written = len(vectors)
		if o.out == "-" {
			return corpus.ExportJSONL(vectors, cmd.OutOrStdout())
		}
		var f *os.File
		if f, err = os.Create(o.out); err == nil {
			err = corpus.ExportJSONL(vectors, f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	default:
		return usagef("--format: want gofuzz, jsonl or ossfuzz, not %q", o.format)
	}
	if err != nil {
		return corpusError(dir, err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "exported %d vectors as %s to %s (%d skipped)\n", written, o.format, o.out, skipped)
	return nil
}

// byGroup counts vector files by the group they were written under:
// " (found 3, rule 1)", or "" for none.
func byGroup(files []string) string {
	n := map[string]int{}
	for _, f := range files {
		g := strings.TrimPrefix(filepath.ToSlash(filepath.Dir(f)), "vectors/")
		n[g]++
	}
	if len(n) == 0 {
		return ""
	}
	groups := make([]string, 0, len(n))
	for g := range n {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for i, g := range groups {
		groups[i] = fmt.Sprintf("%s %d", g, n[g])
	}
	return " (" + strings.Join(groups, ", ") + ")"
}

var corpusImportCmd = &command[corpusImportOptions]{
	Use:   "import --from PATH [--from PATH...] [--format gofuzz|libfuzzer|jsonl] [DIR]",
	Short: "Add cases from fuzzing or from another team's corpus",
	Long: `Import adds cases to the corpus, each as 'corpus add' would:
  gofuzz     "go test fuzz v1" files (what go test -fuzz leaves in testdata/fuzz),
             a file or a directory of them
  libfuzzer  libFuzzer inputs of our targets (OSS-Fuzz crash files), a file or a
             directory
  jsonl      vectors, one per line (from 'corpus export --format jsonl')
All or nothing: if any case is malformed, contradicts another or (for jsonl)
does not give its expected result on the reference, nothing is written. The
files are written into a stage (DIR/.import-*) and moved into DIR/vectors/
once all are there: SIGINT, SIGTERM or SIGHUP before then writes nothing
(exit status 130), and one during the move, which writes no data (a link a
file), waits for it to end.`,
	Args:  cobra.MaximumNArgs(1),
	Flags: corpusImportFlags,
	Run:   runCorpusImport,
}

type corpusImportOptions struct {
	format  string
	from    []string
	verbose bool
}

func corpusImportFlags(cmd *cobra.Command, o *corpusImportOptions) {
	cmd.Flags().BoolVarP(&o.verbose, "verbose", "v", false, "list every file added")
	cmd.Flags().StringVar(&o.format, "format", "gofuzz", "gofuzz, libfuzzer or jsonl")
	cmd.Flags().StringArrayVar(&o.from, "from", nil, "a file or directory to import")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"gofuzz", "libfuzzer", "jsonl"}, cobra.ShellCompDirectiveNoFileComp))
}

func runCorpusImport(cmd *cobra.Command, o *corpusImportOptions, args []string) error {
	if len(o.from) == 0 {
		return usagef("--from is required")
	}
	read := map[string]func(string, ...corpus.ReadOption) ([]corpus.Source, error){
		"gofuzz": corpus.ReadGoFuzz, "libfuzzer": corpus.ReadLibFuzzer, "jsonl": corpus.ReadJSONL,
	}[o.format]
	if read == nil {
		return usagef("--format: want gofuzz, libfuzzer or jsonl, not %q", o.format)
	}
	dir, _, err := corpusDir(args, true)
	if err != nil {
		return err
	}
	// SIGINT, SIGTERM or SIGHUP, from the start: an import reading its
	// sources, checked or written into its stage stops, and writes
	// nothing; one moving its files into vectors/ (a link a file) ends
	// first, the signal held until then.
	ctx, stop := signalContext(cmd)
	defer stop()
	var sources []corpus.Source
	for _, p := range o.from {
		s, err := read(p, readLimit()...)
		if err != nil {
			return corpusError("", err)
		}
		sources = append(sources, s...)
	}
	existing, err := corpus.Load(corpus.DirFS(dir, readLimit()...))
	if err != nil {
		return corpusError(dir, err)
	}
	files, already, err := corpus.ImportContext(ctx, dir, existing, sources, corpus.Reference)
	if err != nil && ctx.Err() != nil {
		fmt.Fprintf(cmd.OutOrStdout(), "interrupted: nothing imported into %s\n", display.Text(dir))
		return errInterrupted
	}
	if err != nil {
		return corpusError("", err)
	}
	out := cmd.OutOrStdout()
	if o.verbose {
		for _, f := range files {
			fmt.Fprintf(out, "added %s\n", filepath.Join(dir, f))
		}
	}
	fmt.Fprintf(out, "imported %d cases into %s: %d added%s, %d already in the corpus\n", len(sources), dir, len(files), byGroup(files), already)
	return nil
}
