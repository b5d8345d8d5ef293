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
	// ExitInterrupted is check's status when SIGINT or SIGTERM stopped it,
	// as a shell gives for a command SIGINT killed.
	ExitInterrupted = 130
)

// usageError marks an error in how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// startError is an implementation that cannot be started: exit status 2,
// without the usage.
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
	case errors.Is(err, errInterrupted):
		return ExitInterrupted
	}
	var se startError
	if errors.As(err, &se) {
		fmt.Fprintf(stderr, "toolnorm: %v\n", err)
		return ExitUsage
	}
	var ue usageError
	if errors.As(err, &ue) || cmd == nil || isCobraUsage(err) {
		fmt.Fprintf(stderr, "toolnorm: %v\n", err)
		if cmd != nil {
			fmt.Fprint(stderr, cmd.UsageString())
		}
		return ExitUsage
	}
	fmt.Fprintf(stderr, "toolnorm: %v\n", err)
	return ExitBad
}

// isCobraUsage recognises the errors cobra itself returns for a command
// line it cannot parse (unknown commands and the like).
func isCobraUsage(err error) bool {
	var fe *flagError
	return errors.As(err, &fe)
}

type flagError struct{ err error }

func (e *flagError) Error() string { return e.err.Error() }

func newRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "toolnorm",
		Short: "Normalize tool arguments under RT-TOOL-8, and check implementations of it",
		Long: `toolnorm applies rule RT-TOOL-8 of the FlowDrop Workflow Specification: it
repairs a model's tool arguments against the tool's own JSON Schema (strings
that hold the declared array or object are decoded; HTML character references
in every string are decoded until nothing changes) and changes nothing else.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q", args[0])
			}
			return usagef("no command given")
		},
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &flagError{err} })
	root.AddCommand(newNormalizeCmd(), newCorpusCmd(), newServeCmd(), newCheckCmd(), newFuzzCmd(), newReportCmd())
	return root
}
