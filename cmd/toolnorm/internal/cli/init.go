package cli

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/initcmd"
)

var initCmd = &command[initcmd.Options]{
	Use:   "init --lang python|javascript|php|go (--func F [--dir DIR] [--force] | --refresh [--dir DIR])",
	Short: "Set up a repository to check its implementation: adapter, corpus test, CI workflow",
	Long: `Init writes, in the current directory (your repository's root), what it
takes to check your implementation of RT-TOOL-8 with toolnorm:

  DIR/<kit>         the adapter kit of the language: the whole protocol, losing
                    nothing of a request (docs/protocol.md, "Writing an adapter")
  DIR/adapter.*     a small adapter that imports your function F
  DIR/<test>        a test in the language's own runner that replays the corpus
                    (DIR/vectors, without the html5lib group) through F, one
                    test per vector, judged as toolnorm check judges it under
                    what the adapter declares
  ` + initcmd.Workflow + `
                    toolnorm check on pull requests (Markdown report in the job
                    summary, JUnit in the test tab), and a nightly toolnorm
                    fuzz whose findings are kept between nights

F is the function (schema, arguments) -> arguments:
  python      MODULE:FUNCTION, importable from the repository's root (pkg.norm:normalize)
  javascript  PATH#EXPORT (src/normalize.js#normalize, or #default)
  php         PATH:FUNCTION (src/normalize.php:my_normalize)
  go          PACKAGE:FUNCTION, a package of the module at the repository's
              root, as ./DIR or its import path (./internal/norm:Normalize),
              with the signature func(schema, arguments []byte) ([]byte, error):
              JSON text in, JSON text out. DIR is then a main package
              (default cmd/toolnorm-adapter) serving F with harness.Serve,
              its test DIR/corpus_test.go (go test), its vectors in
              DIR/testdata/vectors; it imports github.com/toolnorm/toolnorm,
              and init prints the go get line when go.mod lacks it.

DIR is .toolnorm by default (cmd/toolnorm-adapter for go); . is the
repository's root (not for go).

It never overwrites a file without --force, and refuses an F it cannot find.
--no-workflow writes everything but the workflow.
--refresh writes the kit, the test and the vectors of this toolnorm again
and keeps the adapter and the workflow, which are yours to edit.
The last line it prints is the toolnorm check command to run now.`,
	Args:  cobra.NoArgs,
	Flags: initFlags,
	Run:   runInit,
}

func initFlags(cmd *cobra.Command, o *initcmd.Options) {
	cmd.Flags().StringVar(&o.Lang, "lang", "", "the language of the implementation: python, javascript, php or go")
	cmd.Flags().StringVar(&o.Func, "func", "", "the function to check: MODULE:FUNCTION (python), PATH#EXPORT (javascript), PATH:FUNCTION (php), PACKAGE:FUNCTION (go)")
	cmd.Flags().StringVar(&o.Dir, "dir", "", "the directory for the kit, the adapter, the test and the corpus (default .toolnorm; cmd/toolnorm-adapter for go)")
	cmd.Flags().BoolVar(&o.Force, "force", false, "overwrite files that exist")
	cmd.Flags().BoolVar(&o.Refresh, "refresh", false, "write the kit, the test and the vectors again, keeping the adapter and the workflow")
	cmd.Flags().BoolVar(&o.NoWorkflow, "no-workflow", false, "write no CI workflow ("+initcmd.Workflow+")")
	_ = cmd.RegisterFlagCompletionFunc("lang", cobra.FixedCompletions(initcmd.Languages, cobra.ShellCompDirectiveNoFileComp))
}

func runInit(cmd *cobra.Command, o *initcmd.Options, _ []string) error {
	if !slices.Contains(initcmd.Languages, o.Lang) {
		return cmd.FlagErrorFunc()(cmd, fmt.Errorf("--lang: want python, javascript, php or go, not %q", o.Lang))
	}
	if o.Refresh && (o.Func != "" || o.Force) {
		return cmd.FlagErrorFunc()(cmd, errors.New("--refresh keeps the adapter: it takes no --func nor --force"))
	}
	if o.Func == "" && !o.Refresh {
		return cmd.FlagErrorFunc()(cmd, errors.New("--func is required: the function to check (see --help)"))
	}
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	o.Root = root
	b := thisBuild()
	ref, exact := b.Ref()
	o.ActionRef = ref
	switch {
	case ref == "":
		// A note, not a failure: init goes on and writes everything.
		fmt.Fprintf(cmd.ErrOrStderr(), "toolnorm: note: this toolnorm (%s) was built without the commit it was built from (as go build -buildvcs=false or a copy outside a clone builds it), so the workflow pins the action to %s, the newest commit this source knows; to pin the toolnorm you ran, build it in a clone (go build ./cmd/toolnorm) or install a release (go install %s/cmd/toolnorm@vX.Y.Z)\n", b.Short(), initcmd.Action, "github.com/toolnorm/toolnorm")
	case !exact:
		fmt.Fprintf(cmd.ErrOrStderr(), "toolnorm: this toolnorm was built with changes not in commit %s, to which the workflow pins the action\n", ref)
	}
	return initcmd.Run(*o, cmd.OutOrStdout())
}
