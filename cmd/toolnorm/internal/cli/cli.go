// Package cli implements the toolnorm command. Main runs it in-process, so
// that tests see its exit status and output without starting a process.
package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
)

// Exit statuses.
const (
	ExitOK    = 0 // success
	ExitBad   = 1 // bad input (or, for check, violations found)
	ExitUsage = 2 // usage error
	// ExitIncomplete is check's status when it found nothing but the
	// budget cut it short of complete, or it judged too little of what it
	// ran (docs/verdicts.md).
	ExitIncomplete = 3
	// ExitInterrupted is check's status when SIGINT, SIGTERM or SIGHUP
	// stopped it, as a shell gives for a command SIGINT killed.
	ExitInterrupted = 130
)

// usageError marks an error in how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// startError is a check that cannot run at all (an implementation that
// cannot be started, a corpus that cannot be read): exit status 2, with
// one line that says why.
type startError struct{ err error }

func (e startError) Error() string { return e.err.Error() }
func (e startError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// Main runs toolnorm with args (without the program name) and returns its
// exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	switch {
	case errors.Is(err, violationsFound):
		return ExitBad
	case errors.Is(err, nothingChecked):
		return ExitUsage
	case errors.Is(err, errIncomplete):
		return ExitIncomplete
	case errors.Is(err, errInterrupted):
		return ExitInterrupted
	}
	var se startError
	if errors.As(err, &se) {
		fmt.Fprintf(stderr, "toolnorm: %v\n", err)
		return ExitUsage
	}
	if cmd == nil {
		cmd = root
	}
	if isUsage(err) {
		// One line naming the mistake, and where the usage is: the whole
		// usage would bury the line that matters.
		fmt.Fprintf(stderr, "%s: %v\nrun '%s --help' for usage\n", cmd.CommandPath(), err, cmd.CommandPath())
		return ExitUsage
	}
	fmt.Fprintf(stderr, "toolnorm: %v\n", err)
	return ExitBad
}

// isUsage reports whether err is a mistake in how toolnorm was called:
// ours, or one cobra found in the flags or arguments.
func isUsage(err error) bool {
	var ue usageError
	return errors.As(err, &ue) || isCobraUsage(err)
}

// isCobraUsage recognises the errors cobra itself returns for a command
// line it cannot parse (unknown commands and the like).
func isCobraUsage(err error) bool {
	var fe *flagError
	return errors.As(err, &fe)
}

type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }

// rootCmd is toolnorm: its commands are what it does.
var rootCmd = &command[noOptions]{
	Use:   "toolnorm",
	Short: "Normalize tool arguments under RT-TOOL-8, and check implementations of it",
	Long: `toolnorm applies rule RT-TOOL-8 of the FlowDrop Workflow Specification: it
repairs a model's tool arguments against the tool's own JSON Schema (strings
that hold the declared array or object are decoded; HTML character references
in every string are decoded until nothing changes) and changes nothing else.`,
	Args:     cobra.ArbitraryArgs,
	Run:      runRoot,
	Commands: []builder{normalizeCmd, corpusCmd, serveCmd, checkCmd, fuzzCmd, reportCmd, versionCmd, initCmd},
}

// runRoot runs when no command is given, or one toolnorm does not have.
func runRoot(_ *cobra.Command, _ *noOptions, args []string) error {
	if len(args) > 0 {
		return usagef("unknown command %q", args[0])
	}
	return usagef("no command given")
}

// newRoot builds the command tree for one run of toolnorm, with its own
// options, reading stdin and writing stdout and stderr.
func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := rootCmd.build()
	root.SilenceErrors = true
	root.SilenceUsage = true
	root.Version = version()
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate(thisBuild().Long())
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &flagError{err} })
	strictArgs(root)
	return root
}

// strictArgs makes every command's argument check a usage error, naming
// the first argument it did not expect.
func strictArgs(cmd *cobra.Command) {
	check := cmd.Args
	cmd.Args = func(c *cobra.Command, args []string) error {
		if check == nil {
			return nil
		}
		if err := check(c, args); err != nil {
			if c.HasSubCommands() && len(args) > 0 {
				return usagef("unknown command %q", args[0])
			}
			if n := unexpected(check, c, args); n < len(args) {
				return usagef("unexpected argument %q", args[n])
			}
			return usageError{err}
		}
		return nil
	}
	for _, sub := range cmd.Commands() {
		strictArgs(sub)
	}
}

// unexpected returns the index of the first argument check refuses
// (len(args) if it cannot tell).
func unexpected(check cobra.PositionalArgs, cmd *cobra.Command, args []string) int {
	for n := 0; n < len(args); n++ {
		if check(cmd, args[:n+1]) != nil && check(cmd, args[:n]) == nil {
			return n
		}
	}
	return len(args)
}
