package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestCommandShape walks every command toolnorm has and checks that it is
// data plus a named run function: help that reads as help, documented
// flags, and a RunE that calls runName, where Name is the command's path
func TestCommandShape(t *testing.T) {
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		path := cmd.CommandPath()
		t.Run(path, func(t *testing.T) { checkShape(t, cmd) })
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	// The tree as the commands' data builds it, before newRoot wraps
	// each Args (strictArgs).
	walk(rootCmd.build())
}

var shortLine = regexp.MustCompile(`^[A-Z][^\n]*[^.\s]$`)

func checkShape(t *testing.T, cmd *cobra.Command) {
	t.Helper()
	if !strings.HasPrefix(cmd.Use, cmd.Name()) || cmd.Name() == "" {
		t.Errorf("Use %q does not start with the command's name", cmd.Use)
	}
	if !shortLine.MatchString(cmd.Short) {
		t.Errorf("Short %q: want one line, capitalized, without a final period", cmd.Short)
	}
	if cmd.Long != "" && (cmd.Long != strings.TrimSpace(cmd.Long) || strings.HasPrefix(cmd.Long, cmd.Short)) {
		t.Errorf("Long: want help that does not repeat Short, with no space around it: %q", cmd.Long)
	}
	if cmd.Long == "" && cmd.HasAvailableLocalFlags() {
		t.Errorf("Long is empty, but the command takes flags of its own: say what it does with them")
	}
	for _, line := range strings.Split(cmd.Example, "\n") {
		if cmd.Example != "" && !strings.HasPrefix(line, "  toolnorm ") && !strings.HasPrefix(line, "  printf ") && !strings.HasPrefix(line, "  echo ") {
			t.Errorf("Example line %q: want a command line indented by two spaces", line)
		}
	}
	if cmd.RunE == nil || cmd.Run != nil {
		t.Errorf("want RunE, and no Run")
	}
	if cmd.Args == nil {
		t.Errorf("Args is nil: say which arguments the command takes")
	}
	name := funcNameRE.FindStringSubmatch(cmd.Annotations[runAnnotation])
	if want := runName(cmd); name == nil || name[1] != want {
		t.Errorf("runs %q, want the named function %s", cmd.Annotations[runAnnotation], want)
	}
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Usage == "" || strings.TrimSpace(f.Usage) != f.Usage || strings.HasSuffix(f.Usage, ".") {
			t.Errorf("--%s: usage %q: want a line that says what it is, without a final period", f.Name, f.Usage)
		}
	})
}

// funcNameRE takes the function's name from a function's full name; a
// function literal ("runX.func1", "glob..func1") does not match.
var funcNameRE = regexp.MustCompile(`/cli\.(run[A-Z][A-Za-z]*)$`)

// runName is the name of the function the command must run.
func runName(cmd *cobra.Command) string {
	words := strings.Fields(cmd.CommandPath())[1:]
	if len(words) == 0 {
		return "runRoot"
	}
	name := "run"
	for _, w := range words {
		name += strings.ToUpper(w[:1]) + w[1:]
	}
	return name
}
