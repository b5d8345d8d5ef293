package cli

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolnorm/toolnorm/cmd/toolnorm/internal/faults"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

var serveCmd = &command[serveOptions]{
	Use:   "serve",
	Short: "Serve the reference normalizer as an adapter (protocol version 1, on stdin and stdout)",
	Long: `Serve speaks the implementation protocol (docs/protocol.md) on standard input
and output, as an adapter for the built-in reference normalizer. It is what an
adapter looks like from toolnorm's side, a baseline for harness benchmarks, and
a way to check toolnorm's own harness:

  toolnorm check --impl 'toolnorm serve'`,
	Args:  cobra.NoArgs,
	Flags: serveFlags,
	Run:   runServe,
}

type serveOptions struct {
	profile, depth, repairs string
	maxPasses               int
	faultSpecs              []string
	sf                      schemaFlags
	delay                   time.Duration
	hangOn                  string
	crashOn                 string
	plant                   []string
}

func serveFlags(cmd *cobra.Command, o *serveOptions) {
	cmd.Flags().StringVar(&o.profile, "profile", "text", "the profile to declare and use: text or attribute")
	cmd.Flags().IntVar(&o.maxPasses, "max-passes", 0, "the pass bound to declare and use (0: none)")
	cmd.Flags().StringVar(&o.depth, "depth", "all", "where the JSON repair applies, to declare and use: all, or top (top-level parameters only)")
	cmd.Flags().StringVar(&o.repairs, "repairs", "json+entities", "the repairs to declare and do: json, entities, or json+entities (the rule)")
	o.sf.register(cmd.Flags())
	// For testing the harness and check on an adapter that misbehaves
	// (docs/verdicts.md): hidden, since no user needs them.
	cmd.Flags().StringSliceVar(&o.faultSpecs, "fault", nil, "misbehave on every N-th answer: KIND/N, KIND one of not-json, wrong-id, exit, huge, sleep, crash, unsupported, large")
	cmd.Flags().DurationVar(&o.delay, "delay", 0, "wait this long before each answer")
	cmd.Flags().StringVar(&o.hangOn, "hang-on", "", "never answer a request whose arguments hold this text")
	cmd.Flags().StringVar(&o.crashOn, "crash-on", "", "exit (status 3) on a request whose arguments hold this text, before answering it")
	cmd.Flags().StringSliceVar(&o.plant, "plant", nil, "a planted bug: use this reading without declaring it, NAME=VALUE: max-passes=N, depth=top, repairs=json or repairs=entities")
	_ = cmd.Flags().MarkHidden("plant")
	_ = cmd.Flags().MarkHidden("fault")
	_ = cmd.Flags().MarkHidden("hang-on")
	_ = cmd.Flags().MarkHidden("delay")
}

func runServe(cmd *cobra.Command, o *serveOptions, _ []string) error {
	var d harness.Declares
	if err := d.Profile.UnmarshalText([]byte(o.profile)); err != nil {
		return usagef("--profile: want text or attribute, not %q", o.profile)
	}
	if o.maxPasses < 0 {
		return usagef("--max-passes must be 0 or more")
	}
	if err := d.Depth.UnmarshalText([]byte(o.depth)); err != nil {
		return usagef("--depth: want all or top, not %q", o.depth)
	}
	d.MaxPasses = o.maxPasses
	var r normalize.Repairs
	if err := r.UnmarshalText([]byte(o.repairs)); err != nil {
		return usagef("--repairs: want json, entities or json+entities, not %q", o.repairs)
	}
	d.Repairs = harness.DeclareRepairs(r)
	info := harness.Info{Name: "toolnorm reference", Language: "Go", Version: version(), Homepage: "https://github.com/toolnorm/toolnorm"}
	out := cmd.OutOrStdout()
	if len(o.faultSpecs) > 0 || o.delay > 0 {
		w := &faults.Writer{W: out, Delay: o.delay, Exit: os.Exit, Sleep: time.Sleep}
		for _, spec := range o.faultSpecs {
			f, err := faults.Parse(spec)
			if err != nil {
				return usagef("--fault: %v", err)
			}
			w.Faults = append(w.Faults, f)
		}
		out = w
	}
	resolve, err := o.sf.options()
	if err != nil {
		return err
	}
	im := impl.ReferenceWith(resolve...)
	if o.hangOn != "" {
		im = hanging(im, o.hangOn)
	}
	if o.crashOn != "" {
		im = crashing(im, o.crashOn)
	}
	if len(o.plant) > 0 {
		if im, err = planted(im, o.plant); err != nil {
			return err
		}
	}
	return harness.Serve(cmd.InOrStdin(), out, cmd.ErrOrStderr(), im, info, d)
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

// crashing is im, except that the process exits on arguments that hold
// text: a crash that depends on the input (a recursion too deep).
func crashing(im impl.Impl, text string) impl.Impl {
	return impl.Func(im.Name(), func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Args, []byte(text)) {
			os.Exit(3)
		}
		return im.Normalize(ctx, c)
	})
}

// planted is im, except that it reads every case under the readings
// plant names (NAME=VALUE, as serve's flags take them) while the adapter
// declares the rule's: a bug whose root cause the check names by the
// deviation it is (max-passes=1 is entities-one-pass, depth=top
// json-top-level-only), for the tests of baselines.
func planted(im impl.Impl, plant []string) (impl.Impl, error) {
	var set []func(*impl.Options)
	for _, p := range plant {
		name, value, _ := strings.Cut(p, "=")
		switch name {
		case "max-passes":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return nil, usagef("--plant %s: want a pass bound of 1 or more", p)
			}
			set = append(set, func(o *impl.Options) { o.MaxPasses = n })
		case "depth":
			var d normalize.Depth
			if err := d.UnmarshalText([]byte(value)); err != nil {
				return nil, usagef("--plant %s: want depth=all or depth=top", p)
			}
			set = append(set, func(o *impl.Options) { o.Depth = d })
		case "repairs":
			var r normalize.Repairs
			if err := r.UnmarshalText([]byte(value)); err != nil {
				return nil, usagef("--plant %s: want repairs=json, entities or json+entities", p)
			}
			set = append(set, func(o *impl.Options) { o.Repairs = r })
		default:
			return nil, usagef("--plant %q: want max-passes=N, depth=VALUE or repairs=VALUE", p)
		}
	}
	return impl.Func(im.Name(), func(ctx context.Context, c impl.Case) impl.Result {
		for _, f := range set {
			f(&c.Options)
		}
		return im.Normalize(ctx, c)
	}), nil
}
