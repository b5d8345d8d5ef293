package cli

import (
	"bytes"
	"context"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/faults"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

func newServeCmd() *cobra.Command {
	var profile, depth, repairs string
	var maxPasses int
	var faultSpecs []string
	var sf schemaFlags
	var delay time.Duration
	var hangOn string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the reference normalizer as an adapter (protocol version 1, on stdin and stdout)",
		Long: `Serve speaks the implementation protocol (docs/protocol.md) on standard input
and output, as an adapter for the built-in reference normalizer. It is what an
adapter looks like from toolnorm's side, a baseline for harness benchmarks, and
a way to check toolnorm's own harness:

  toolnorm check --impl 'toolnorm serve'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var d harness.Declares
			if err := d.Profile.UnmarshalText([]byte(profile)); err != nil {
				return usagef("--profile: want text or attribute, not %q", profile)
			}
			if maxPasses < 0 {
				return usagef("--max-passes must be 0 or more")
			}
			if err := d.Depth.UnmarshalText([]byte(depth)); err != nil {
				return usagef("--depth: want all or top, not %q", depth)
			}
			d.MaxPasses = maxPasses
			var r normalize.Repairs
			if err := r.UnmarshalText([]byte(repairs)); err != nil {
				return usagef("--repairs: want json, entities or json+entities, not %q", repairs)
			}
			d.Repairs = harness.DeclareRepairs(r)
			info := harness.Info{Name: "toolnorm reference", Language: "Go", Version: version(), Homepage: "https://github.com/toolnorm/toolnorm"}
			out := cmd.OutOrStdout()
			if len(faultSpecs) > 0 || delay > 0 {
				w := &faults.Writer{W: out, Delay: delay, Exit: os.Exit, Sleep: time.Sleep}
				for _, spec := range faultSpecs {
					f, err := faults.Parse(spec)
					if err != nil {
						return usagef("--fault: %v", err)
					}
					w.Faults = append(w.Faults, f)
				}
				out = w
			}
			resolve, err := sf.options()
			if err != nil {
				return err
			}
			im := impl.ReferenceWith(resolve...)
			if hangOn != "" {
				im = hanging(im, hangOn)
			}
			return harness.Serve(cmd.InOrStdin(), out, cmd.ErrOrStderr(), im, info, d)
		},
	}
	cmd.Flags().StringVar(&profile, "profile", "text", "the profile to declare and use: text or attribute")
	cmd.Flags().IntVar(&maxPasses, "max-passes", 0, "the pass bound to declare and use (0: none)")
	cmd.Flags().StringVar(&depth, "depth", "all", "where the JSON repair applies, to declare and use: all, or top (top-level parameters only)")
	cmd.Flags().StringVar(&repairs, "repairs", "json+entities", "the repairs to declare and do: json, entities, or json+entities (the rule)")
	sf.register(cmd.Flags())
	// For testing the harness and check on an adapter that misbehaves
	// (docs/verdicts.md): hidden, since no user needs them.
	cmd.Flags().StringSliceVar(&faultSpecs, "fault", nil, "misbehave on every N-th answer: KIND/N, KIND one of not-json, wrong-id, exit, huge, sleep, crash")
	cmd.Flags().DurationVar(&delay, "delay", 0, "wait this long before each answer")
	cmd.Flags().StringVar(&hangOn, "hang-on", "", "never answer a request whose arguments hold this text")
	_ = cmd.Flags().MarkHidden("fault")
	_ = cmd.Flags().MarkHidden("hang-on")
	_ = cmd.Flags().MarkHidden("delay")
	return cmd
}

// hanging is im, except that it never answers arguments that hold text:
// a hang that depends on the input, as a real one does.
func hanging(im impl.Impl, text string) impl.Impl {
	return impl.Func(im.Name(), func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Args, []byte(text)) {
			for {
				time.Sleep(time.Hour) // until the harness kills the process
			}
		}
		return im.Normalize(ctx, c)
	})
}
