package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/render"
	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
)

// violationsFound makes toolnorm exit with status 1 without printing an
// error line: the report says it all. Likewise nothingChecked (status 2),
// errIncomplete (status 3) and errInterrupted (status 130).
var (
	violationsFound = errors.New("violations found")
	nothingChecked  = errors.New("nothing checked")
	errIncomplete   = errors.New("incomplete")
	errInterrupted  = errors.New("interrupted")
)

// implFlags are the flags that name the implementation to check.
type implFlags struct {
	command string
	timeout time.Duration
	jobs    int // runs of the adapter at once (registerJobs); 0: one
	flags   *pflag.FlagSet
	// coverage: the run will ask for coverage if the adapter offers it
	// (toolnorm fuzz's --coverage): its start request says so.
	coverage bool
}

func (f *implFlags) register(cmd *cobra.Command) {
	f.flags = cmd.Flags()
	cmd.Flags().StringVar(&f.command, "impl", "", "the implementation: a command line that starts its adapter (docs/protocol.md); default: the built-in reference")
	cmd.Flags().DurationVar(&f.timeout, "timeout", check.DefaultTimeout, "how long one request may take")
}

// registerJobs adds --jobs, for the commands that run many cases.
func (f *implFlags) registerJobs(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.jobs, "jobs", runtime.NumCPU(), "how many runs of the adapter (and properties) at once; the report is the same whatever it is")
}

// open starts the implementation, waiting for the adapter's start only
// until ctx is done (the command's budget, a signal). An adapter that
// cannot be started is a usage error (exit status 2), and so is an empty
// --impl: a CI job whose variable is empty must not check the reference
// and pass. A start cut short by a signal (ctx canceled, not past its
// deadline) is said on stderr and ends the command with status 130.
func (f *implFlags) open(ctx context.Context, stderr io.Writer) (impl.Impl, func(), error) {
	if f.flags != nil && f.flags.Changed("impl") && strings.TrimSpace(f.command) == "" {
		return nil, nil, usagef("--impl is empty: give the adapter's command line, or leave out --impl to check the built-in reference")
	}
	if f.flags != nil && f.flags.Lookup("jobs") != nil && f.jobs < 1 {
		return nil, nil, usagef("--jobs must be 1 or more")
	}
	if f.command == "" {
		return impl.Reference, func() {}, nil
	}
	cfg := harness.Config{Command: f.command, Timeout: f.timeout, Coverage: f.coverage}
	failed := func(err error) (impl.Impl, func(), error) {
		if errors.Is(ctx.Err(), context.Canceled) {
			fmt.Fprintln(stderr, "toolnorm: interrupted while the adapter started")
			return nil, nil, errInterrupted
		}
		return nil, nil, startError{err}
	}
	runs := max(f.jobs, 1) // a command without --jobs runs one
	var im interface {
		impl.Impl
		Close() error
	}
	var err error
	if runs > 1 {
		im, err = harness.StartPoolContext(ctx, cfg, runs)
	} else {
		im, err = harness.StartContext(ctx, cfg)
	}
	if err != nil {
		return failed(err)
	}
	restore := leaveCores(runs)
	return im, func() { im.Close(); restore() }, nil
}

// leaveCores leaves an adapter's runs their cores: when there are fewer
// runs than cores for Go, toolnorm's own goroutines run on the others
// (GOMAXPROCS, unless it is set), and it returns what puts them back. The
// runs and toolnorm take turns (the lockstep), and while the runs answer
// an idle core of toolnorm's only looks for work: on two cores, --jobs 1
// on the Node.js example took 6% less wall time and 19% less CPU with one
// (docs/performance.md, "toolnorm's CPU against the adapter's").
func leaveCores(jobs int) (restore func()) {
	n := runtime.GOMAXPROCS(0)
	if os.Getenv("GOMAXPROCS") != "" || jobs >= n {
		return func() {}
	}
	runtime.GOMAXPROCS(n - jobs)
	return func() { runtime.GOMAXPROCS(n) }
}

// lessGC makes the garbage collector run a quarter as often, unless GOGC
// says otherwise: a check allocates much and keeps little (its heap stays
// under 100 MB), and at Go's default the collector took a sixth of the
// built-in reference's check (docs/performance.md).
func lessGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

// signalContext is the command's context, done on SIGINT, SIGTERM or
// SIGHUP (a terminal closed, a CI runner's job cancelled): the command
// then stops, says what it did, and exits 130; the adapter's process
// group is killed on the way out (its close is deferred). Until stop is
// called the signals do not end the process.
func signalContext(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}

// status shows one line of progress: redrawn in place on a terminal, a
// plain line now and then elsewhere (CI logs), the first of them only
// once something has run.
type status struct {
	w        io.Writer
	tty      bool
	now      func() time.Time
	last     time.Time
	interval time.Duration
}

func newStatus(w io.Writer) *status {
	s := &status{w: w, now: time.Now, interval: 10 * time.Second}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		s.tty, s.interval = true, 100*time.Millisecond
	}
	s.last = s.now()
	return s
}

func (s *status) show(format string, args ...any) {
	if s.now().Sub(s.last) < s.interval {
		return
	}
	s.last = s.now()
	if s.tty {
		fmt.Fprintf(s.w, "\r\033[K"+format, args...)
	} else {
		fmt.Fprintf(s.w, format+"\n", args...)
	}
}

func (s *status) done() {
	if s.tty {
		fmt.Fprint(s.w, "\r\033[K")
	}
}

// progressLine says what a check has run so far: elapsed time, what is
// left of the budget (if it has one), and what ran.
func progressLine(p check.Progress, budgeted bool) string {
	at := p.Elapsed.Round(time.Second).String()
	if budgeted {
		at += ", " + p.Left.Round(time.Second).String() + " left"
	}
	switch p.Phase {
	case "corpus":
		return fmt.Sprintf("%s: corpus, %d of %d vectors replayed, %d findings", at, p.Done, p.Total, p.Findings)
	}
	return fmt.Sprintf("%s: corpus replayed; properties and fuzzing, %d cases run, %d findings", at, p.Cases, p.Findings)
}

var checkCmd = &command[checkOptions]{
	Use:   "check [--impl CMD] [--budget DURATION | --checks N] [--seed N] [--format text|json|junit|markdown|html] [--output FORMAT=FILE ...]",
	Short: "Check an implementation: replay the corpus, run every property, fuzz it against the reference",
	Long: `Check replays the corpus on the implementation, runs every property of the
rule, and fuzzes it against the reference. Without --impl it checks the
built-in reference. The report groups results by property and clause, shows
each minimal counterexample as a corpus vector with a command that
reproduces it, keeps failures of the program (timeouts, crashes, protocol
errors) apart from violations of the rule, and ends with a verdict.

--budget bounds the whole check, the corpus replay included; a request waits
at most a tenth of it (at least 1s, at most 10s) unless --timeout says otherwise, and never
past it. --checks N runs
exactly N cases of every property and N of fuzzing, with no time limit: the
same --seed and --checks give the same findings on any machine. Every report
prints the --seed and --checks that repeat it (docs/verdicts.md). --jobs N
(default: the number of cores) runs N copies of the adapter, and the
properties and the fuzzer at once; the report is the same whatever N is.

--write-baseline FILE writes the root causes found into FILE; --baseline
FILE then fails only on root causes not in it (new), and on failures of the
program, which a baseline never holds, and says which known ones it did not
find. Every report marks each root cause new or known (docs/verdicts.md).

--format decides the report on stdout; --output FORMAT=FILE (repeatable)
writes the report of the same run in another format too, so that a CI
job's summary, its test report and its artifact never disagree: one seed,
one set of findings. Each file is written whole or not at all (a temporary
file renamed into place), also when the check is interrupted; a FILE that
cannot be written is a usage error found before the check runs.
--max-markdown-size BYTES cuts a Markdown report (a CI job's summary:
GitHub takes at most 1 MiB) where a section begins, the verdict and counts
whole, and ends it with a line saying what was left out and where the
whole report is: the first --output html or json file.

Exit status (docs/verdicts.md): 0 PASS, the check complete with no
violation and no failure of the program; 1 FAIL, violations (with
--baseline, new root causes) or failures of the program; 3 INCOMPLETE, nothing found but the budget cut the check short
(the report says what did not run and what would run it), or a part of it
judged under 90% of what it ran (an adapter that answers unsupported to
most requests: the report says which part and why); 2 usage error, an
implementation that cannot be started, or nothing checked; 130 interrupted
(SIGINT, SIGTERM or SIGHUP: the report of what ran is printed, and the
adapter's process group is killed).`,
	Example: `  toolnorm check
  toolnorm check --impl 'python3 examples/python/adapter.py' --budget 1m
  toolnorm check --impl 'python3 examples/python/adapter.py' --seed 7 --checks 500
  toolnorm check --impl './my-adapter' --write-baseline toolnorm-baseline.json
  toolnorm check --impl './my-adapter' --baseline toolnorm-baseline.json
  toolnorm check --impl './my-adapter' --format junit > toolnorm.xml
  toolnorm check --impl './my-adapter' --format markdown >> "$GITHUB_STEP_SUMMARY"
  toolnorm check --impl './my-adapter' --format markdown --max-markdown-size 921600 --output junit=toolnorm.xml --output html=toolnorm.html`,
	Args:  cobra.NoArgs,
	Flags: checkFlags,
	Run:   runCheck,
}

type checkOptions struct {
	f         implFlags
	budget    time.Duration
	checks    int
	seed      uint64
	format    string
	corpusDir string
	// baseline is the file of known root causes to check against;
	// writeBaseline, the file to write the root causes found into.
	baseline, writeBaseline string
	// addCorpus are corpus directories replayed beside the corpus.
	addCorpus []string
	// outputFlags are the values of --output; outputs, them read.
	outputFlags []string
	outputs     []output
	// maxMarkdown cuts a Markdown report to this many bytes (0: never).
	maxMarkdown int
}

// defaultBudget is check's --budget unless given.
const defaultBudget = 30 * time.Second

func checkFlags(cmd *cobra.Command, o *checkOptions) {
	o.f.register(cmd)
	o.f.registerJobs(cmd)
	cmd.Flags().DurationVar(&o.budget, "budget", defaultBudget, "time for the whole check, the corpus replay included")
	cmd.Flags().IntVar(&o.checks, "checks", 0, "run exactly N cases of every property and N of fuzzing, with no time limit (0: use --budget)")
	// The default of --timeout is runCheck's: the budget's, unless --checks.
	timeout := cmd.Flags().Lookup("timeout")
	timeout.Usage = fmt.Sprintf("how long one request may take (default: a tenth of --budget, 1s to %v, so %v for its default %v; %v with --checks)",
		check.DefaultTimeout, check.RequestTimeout(defaultBudget), defaultBudget, check.DefaultTimeout)
	timeout.DefValue = "0s" // not shown: the usage says it
	cmd.Flags().Uint64Var(&o.seed, "seed", 0, "seed of the random inputs (0: a random one, printed in the report)")
	cmd.Flags().StringVar(&o.format, "format", "text", "report format: "+strings.Join(render.Formats, ", "))
	cmd.Flags().StringVar(&o.corpusDir, "corpus", "", "the corpus to replay instead of the one built into toolnorm (--add-corpus replays one beside it)")
	cmd.Flags().StringArrayVar(&o.addCorpus, "add-corpus", nil, "a corpus directory to replay beside the corpus, such as the findings toolnorm fuzz keeps (repeatable; one with no vectors/ yet adds nothing)")
	cmd.Flags().StringVar(&o.baseline, "baseline", "", "a baseline of the root causes known (written by --write-baseline): fail only on those not in it, and on failures of the program")
	cmd.Flags().StringVar(&o.writeBaseline, "write-baseline", "", "write the root causes found into this file, as a baseline for --baseline, and judge the check against it")
	cmd.Flags().StringArrayVar(&o.outputFlags, "output", nil, "also write the report of the same run in FORMAT into FILE, as --output FORMAT=FILE (repeatable; FILE - is stdout, in place of --format's)")
	cmd.Flags().IntVar(&o.maxMarkdown, "max-markdown-size", 0, "cut a Markdown report longer than this many bytes where a section begins, saying what was left out and where the whole report is (the first --output html or json file); 0: never")
	maxFileSizeFlag(cmd.Flags())
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(render.Formats, cobra.ShellCompDirectiveNoFileComp))
}

func runCheck(cmd *cobra.Command, o *checkOptions, _ []string) error {
	if !contains(render.Formats, o.format) {
		return usagef("--format: want %s, not %q", strings.Join(render.Formats, ", "), o.format)
	}
	if o.budget < 0 {
		return usagef("--budget must not be negative")
	}
	if o.checks < 0 {
		return usagef("--checks must not be negative")
	}
	if o.checks > 0 && cmd.Flags().Changed("budget") {
		return usagef("--budget and --checks exclude each other: --checks has no time limit")
	}
	if o.baseline != "" && o.writeBaseline != "" {
		return usagef("--baseline and --write-baseline exclude each other: --write-baseline judges the check against what it writes (to update a baseline, write it again)")
	}
	if o.maxMarkdown < 0 {
		return usagef("--max-markdown-size must not be negative")
	}
	var err error
	if o.outputs, err = parseOutputs(o.outputFlags, o.format, cmd.Flags().Changed("format"), o.baseline, o.writeBaseline); err != nil {
		return err
	}
	// A check that cannot run still leaves a JUnit document that
	// says why, for the CI test report that expects one, on stdout and
	// in every --output junit file.
	cannotRun := func(err error) error {
		name := o.f.command
		if name == "" {
			name = "the built-in reference"
		}
		if stdoutFormat(o.outputs, o.format) == "junit" {
			_ = render.WriteJUnitError(cmd.OutOrStdout(), name, err)
		}
		_ = writeOutputs(o.outputs, func(w *bufio.Writer, format string) error {
			if format != "junit" {
				return errSkip
			}
			return render.WriteJUnitError(w, name, err)
		})
		return err
	}
	var baseline *check.Baseline
	if o.baseline != "" {
		if baseline, err = readBaseline(o.baseline); err != nil {
			return cannotRun(err)
		}
	}
	// SIGINT, SIGTERM or SIGHUP: stop, report what ran, exit 130. The
	// adapter's process group is killed on the way out.
	lessGC()
	ctx, stop := signalContext(cmd)
	defer stop()
	// The budget bounds the whole command: reading the corpus and
	// starting the adapter count against it too.
	start := time.Now()
	loadCtx := ctx
	if o.checks == 0 && o.budget > 0 {
		var cancel context.CancelFunc
		loadCtx, cancel = context.WithTimeoutCause(ctx, o.budget, fmt.Errorf("the budget (%v) ran out while reading the corpus", o.budget))
		defer cancel()
	}
	if o.checks == 0 && !cmd.Flags().Changed("timeout") {
		o.f.timeout = check.RequestTimeout(o.budget)
	}
	// The adapter starts while the corpus is read (a Node.js adapter
	// takes 80 ms to start, the committed corpus 50 ms to read); a corpus
	// that cannot be read is still the error reported first.
	type opened struct {
		im    impl.Impl
		close func()
		err   error
	}
	starting := make(chan opened, 1)
	startCtx := ctx
	if o.checks == 0 && o.budget > 0 {
		var cancel context.CancelFunc
		startCtx, cancel = context.WithTimeoutCause(ctx, o.budget, fmt.Errorf("the budget (%v) ran out while the adapter started", o.budget))
		defer cancel()
	}
	go func() {
		im, closeImpl, err := o.f.open(startCtx, cmd.ErrOrStderr())
		starting <- opened{im, closeImpl, err}
	}()
	vectors, err := loadVectors(loadCtx, o.corpusDir)
	var added []*corpus.Vector
	if err == nil {
		added, err = loadAdded(loadCtx, o.addCorpus)
	}
	op := <-starting
	if op.err == nil {
		defer op.close()
	}
	if (err != nil || op.err != nil) && ctx.Err() != nil {
		// A signal while the corpus was read or the adapter started:
		// nothing ran, and the adapter is stopped on the way out.
		fmt.Fprintln(cmd.ErrOrStderr(), "toolnorm: interrupted before the check began (reading the corpus, starting the adapter): nothing ran")
		_ = cannotRun(errors.New("interrupted before the check began: nothing ran"))
		return errInterrupted
	}
	if err != nil {
		return cannotRun(err)
	}
	if errors.Is(op.err, errInterrupted) {
		return op.err
	}
	if op.err != nil {
		return cannotRun(op.err)
	}
	im, closeImpl := op.im, op.close
	st := newStatus(cmd.ErrOrStderr())
	report := check.Run(ctx, check.Config{Version: version(), Timeout: o.f.timeout, Impl: im, Command: o.f.command, Vectors: vectors, CorpusDir: o.corpusDir, Added: added, AddedDirs: o.addCorpus, Budget: o.budget, Start: start, Checks: o.checks, Seed: o.seed, Jobs: o.f.jobs, Baseline: baseline,
		Progress: func(p check.Progress) { st.show("%s", progressLine(p, o.checks == 0)) }})
	st.done()
	closeImpl()
	if o.writeBaseline != "" && ctx.Err() == nil {
		b := check.BaselineOf(report)
		b.File = o.writeBaseline
		if err := writeBaselineFile(o.writeBaseline, b); err != nil {
			return err
		}
		report.CompareWith(b)
		fmt.Fprintf(cmd.ErrOrStderr(), "toolnorm: wrote %s: %s%s\n", o.writeBaseline, knownList(b), baselineCaveat(report))
	}
	if err := writeReports(report, cmd.OutOrStdout(), o); err != nil {
		return err
	}
	switch {
	case ctx.Err() != nil:
		return errInterrupted
	case report.Verdict == check.Pass:
		return nil
	case report.Verdict == check.NothingChecked:
		return nothingChecked
	case report.Verdict == check.Incomplete:
		return errIncomplete
	}
	return violationsFound
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// loadVectors loads a corpus directory, or the built-in corpus.
func loadVectors(ctx context.Context, dir string) ([]*corpus.Vector, error) {
	fsys := corpus.Embedded()
	if dir != "" {
		if !isDir(filepath.Join(dir, "vectors")) {
			return nil, startError{fmt.Errorf("--corpus %s: not a corpus: no vectors/ directory", dir)}
		}
		fsys = corpus.DirFS(dir, readLimit()...)
	} else {
		dir = "(built in)"
	}
	vectors, err := corpus.LoadContext(ctx, fsys)
	if err != nil {
		return nil, startError{corpusError(dir, err)}
	}
	return vectors, nil
}

// loadAdded loads the corpus directories --add-corpus names, each
// vector's File the path of its file. A directory with no vectors/ yet
// (no finding kept so far) adds nothing; one that does not exist is an
// error.
func loadAdded(ctx context.Context, dirs []string) ([]*corpus.Vector, error) {
	var out []*corpus.Vector
	for _, dir := range dirs {
		if !isDir(dir) {
			return nil, startError{fmt.Errorf("--add-corpus %s: no such directory", dir)}
		}
		if !isDir(filepath.Join(dir, "vectors")) {
			continue
		}
		vs, err := corpus.LoadContext(ctx, corpus.DirFS(dir, readLimit()...))
		if err != nil {
			return nil, startError{corpusError(dir, err)}
		}
		for _, v := range vs {
			if v.File != "" {
				v.File = filepath.Join(dir, v.File)
			}
		}
		out = append(out, vs...)
	}
	return out, nil
}

var fuzzCmd = &command[fuzzOptions]{
	Use:   "fuzz [--impl CMD] --duration D --corpus DIR",
	Short: "Fuzz an implementation against the reference, writing each new failure into a corpus",
	Long: `Fuzz compares the implementation with the reference on generated cases and on
mutations of corpus vectors (the built-in corpus and DIR's), for the given
duration. Every new failure is minimized and written into DIR as a vector, at
once and atomically; failures are bucketed by how they differ and the shape of
the minimal case, so one bug found a thousand times is one finding. Ctrl-C
stops it without losing a finding; running it again on DIR resumes (known
buckets are not reported again). Several runners may share DIR.`,
	Example: `  toolnorm fuzz --impl 'python3 examples/python/adapter.py' --duration 10m --corpus findings`,
	Args:    cobra.NoArgs,
	Flags:   fuzzFlags,
	Run:     runFuzz,
}

type fuzzOptions struct {
	f        implFlags // f.coverage: --coverage
	duration time.Duration
	cases    int
	dir      string
	seed     uint64
}

func fuzzFlags(cmd *cobra.Command, o *fuzzOptions) {
	o.f.register(cmd)
	o.f.registerJobs(cmd)
	cmd.Flags().DurationVar(&o.duration, "duration", time.Minute, "how long to fuzz")
	cmd.Flags().IntVar(&o.cases, "cases", 0, "stop after this many cases, drawn or mutated, if --duration is not spent first (0: run until it is); with --seed, a run that does the same on any machine")
	cmd.Flags().StringVar(&o.dir, "corpus", "", "the corpus directory findings are written into (created if missing)")
	maxFileSizeFlag(cmd.Flags())
	cmd.Flags().Uint64Var(&o.seed, "seed", 0, "seed (0: from the clock)")
	cmd.Flags().BoolVar(&o.f.coverage, "coverage", true, "be guided by the coverage the adapter offers, if it does (--coverage=false: fuzz as if it offered none)")
}

// maxResumed is the most cases of its queue a fuzzing run starts from.
const maxResumed = 4096

// coverageLine says what a coverage-guided run reached, and how that
// grew over its cases: the reach at each quarter of them.
func coverageLine(cov *check.CodeCoverage, resumed int, dir string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "coverage: %d %s of the implementation reached, %d cases queued in %s (%d resumed)", cov.Reached, display.Text(cov.Unit), cov.Queued, dir, resumed)
	if n := len(cov.Growth); n > 0 {
		cases := cov.Growth[n-1].Cases // the run's, the last point
		b.WriteString("; reached by case:")
		for _, q := range []int{1, 2, 3, 4} {
			at := cases * q / 4
			reached := 0
			for _, p := range cov.Growth {
				if p.Cases <= at {
					reached = p.Reached
				}
			}
			fmt.Fprintf(&b, " %d: %d", at, reached)
			if q < 4 {
				b.WriteString(",")
			}
		}
	}
	return b.String()
}

func runFuzz(cmd *cobra.Command, o *fuzzOptions, _ []string) error {
	if o.dir == "" {
		return usagef("--corpus is required")
	}
	if o.duration <= 0 {
		return usagef("--duration must be positive")
	}
	if o.cases < 0 {
		return usagef("--cases must not be negative")
	}
	// The signals are held from the start: one that comes while the
	// corpus is read or the adapter starts stops the run as soon as it
	// begins, and the adapter is stopped on the way out (closeImpl runs
	// before stop).
	ctx, stop := signalContext(cmd)
	defer stop()
	if err := os.MkdirAll(filepath.Join(o.dir, "vectors"), 0o755); err != nil {
		return err
	}
	existing, err := corpus.Load(corpus.DirFS(o.dir, readLimit()...))
	if err != nil {
		return corpusError(o.dir, err)
	}
	builtin, _ := corpus.Load(corpus.Embedded())
	known := map[string]bool{}
	for _, v := range existing {
		for _, b := range check.Buckets(v.Tags) {
			known[b] = true
		}
	}
	// SIGINT or SIGTERM during the adapter's start stops it too (the
	// duration counts from the start's end, as it always did).
	lessGC()
	im, closeImpl, err := o.f.open(ctx, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer closeImpl()
	out := cmd.OutOrStdout()
	// The queue of coverage-guided fuzzing, kept beside the findings: a
	// run resumes from it. An adapter that offers no coverage has none.
	var queue []impl.Case
	_, unit := impl.CoverageOf(im)
	if !o.f.coverage {
		unit = ""
	}
	if unit != "" {
		kept, err := corpus.LoadQueue(ctx, o.dir, maxResumed, readLimit()...)
		if err != nil {
			return corpusError(o.dir, err)
		}
		for _, q := range kept {
			queue = append(queue, impl.Case{Schema: q.Schema, Args: q.Args})
		}
	}
	fz := &check.Fuzzer{Impl: im, Command: o.f.command, Seeds: append(builtin, existing...), Known: known, Titled: true, Queue: queue, Blind: unit == "", MaxCases: o.cases,
		OnQueued: func(c impl.Case) error {
			if _, err := corpus.SaveQueued(o.dir, c.Schema, c.Args); err != nil {
				return corpusError(o.dir, err)
			}
			return nil
		},
		OnFinding: func(fd check.Finding) error {
			file, added, err := corpus.Add(o.dir, existing, fd.Vector)
			if err != nil {
				return corpusError(o.dir, err)
			}
			if added {
				existing = append(existing, fd.Vector)
				path := filepath.Join(o.dir, file)
				fmt.Fprintf(out, "finding %s: %s\n  %s\n  written to %s\n  reproduce: %s\n", fd.Bucket, display.Text(fd.Vector.Description), fd.Message, path, check.ReplayFileCommand(o.f.command, path))
			}
			return nil
		}}
	if o.seed == 0 {
		o.seed = uint64(time.Now().UnixNano())
	}
	st := newStatus(cmd.ErrOrStderr())
	fmt.Fprintf(out, "fuzzing %s for %v (seed %d, %d known buckets in %s)\n", im.Name(), o.duration, o.seed, len(known), o.dir)
	switch _, offered := impl.CoverageOf(im); {
	case offered == "":
		fmt.Fprintln(out, "not guided by coverage: the adapter offers none (the kits offer it: docs/protocol.md, \"Coverage\")")
	case unit == "":
		fmt.Fprintln(out, "not guided by coverage: --coverage=false")
	default:
		fmt.Fprintf(out, "guided by the coverage the adapter offers (%s), from %d cases queued in %s\n", display.Text(unit), len(queue), filepath.Join(o.dir, corpus.QueueDir))
	}
	start := time.Now()
	err = fz.Run(ctx, o.seed, start.Add(o.duration), func(s check.Stats) {
		st.show("%d cases, %.0f/s, %d new findings", s.Cases, float64(s.Cases)/max(s.Elapsed.Seconds(), 1e-9), s.Findings)
	})
	st.done()
	elapsed := time.Since(start)
	if fz.SameCause > 0 {
		fmt.Fprintf(out, "%d more fuzzing buckets of the same root causes, not written: a run writes one finding a root cause\n", fz.SameCause)
	}
	fmt.Fprintf(out, "%d cases in %v (%.0f/s), %d new findings in %s\n", fz.Cases, elapsed.Round(time.Second), float64(fz.Cases)/max(elapsed.Seconds(), 1e-9), len(fz.Findings), o.dir)
	if cov := fz.CodeCoverage(); cov != nil {
		fmt.Fprintln(out, coverageLine(cov, len(queue), filepath.Join(o.dir, corpus.QueueDir)))
	}
	if ctx.Err() != nil {
		fmt.Fprintln(out, "interrupted")
		return errInterrupted
	}
	if err != nil {
		return err
	}
	if len(fz.Findings) > 0 {
		return violationsFound
	}
	return nil
}
