package cli

import (
	"reflect"
	"runtime"

	"github.com/spf13/cobra"
)

// A command is one toolnorm command as data, in the shape of cmd/go's
// base.Command: the help it prints, the flags it takes, bound to its
// options O, and the named function that runs it. cobra parses the
// command line and prints the help; build makes a cobra.Command with
// options of its own each time toolnorm runs.
//
// A new command is a file holding its command value, its options type,
// the function that binds its flags to them, and its run function; it is
// added to the Commands of its parent (rootCmd, or corpusCmd).
type command[O any] struct {
	Use     string // the usage line, the command's name first
	Short   string // one line, for the parent's list of commands
	Long    string // the help; "" prints Short
	Example string // command lines, each indented by two spaces
	Args    cobra.PositionalArgs

	// Flags binds the command's flags to o (nil: it takes none).
	Flags func(cmd *cobra.Command, o *O)
	// Run runs the command with the options its flags were parsed into,
	// and its arguments: a named function, runName.
	Run func(cmd *cobra.Command, o *O, args []string) error

	Commands []builder // the subcommands
}

// A builder is a command of any options type.
type builder interface {
	build() *cobra.Command
}

// noOptions are the options of a command that takes no flags.
type noOptions struct{}

// runAnnotation is the cobra.Command annotation that names the function
// a command runs, for TestCommandShape.
const runAnnotation = "toolnorm:run"

func (c *command[O]) build() *cobra.Command {
	o := new(O)
	cmd := &cobra.Command{
		Use:         c.Use,
		Short:       c.Short,
		Long:        c.Long,
		Example:     c.Example,
		Args:        c.Args,
		Annotations: map[string]string{runAnnotation: funcName(c.Run)},
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.Run(cmd, o, args)
		},
	}
	if c.Flags != nil {
		c.Flags(cmd, o)
	}
	for _, sub := range c.Commands {
		cmd.AddCommand(sub.build())
	}
	return cmd
}

// funcName is the name of the function f, package path and all; a
// function literal's ends in ".funcN".
func funcName(f any) string {
	if fn := runtime.FuncForPC(reflect.ValueOf(f).Pointer()); fn != nil {
		return fn.Name()
	}
	return ""
}
