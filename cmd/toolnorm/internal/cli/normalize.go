package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

var normalizeCmd = &command[normalizeOptions]{
	Use:   "normalize --schema FILE [--args FILE]",
	Short: "Normalize one set of tool arguments against a schema",
	Long: `Normalize reads a tool's input schema and the arguments a model sent
(from --args FILE, or standard input when --args is absent or "-"), and prints
the normalized arguments on standard output.

Bad input (invalid JSON, arguments that are not an object, a broken schema)
exits with status 1 and one line on standard error:
  toolnorm: FILE: WHAT at WHERE

With --impl the case goes to the implementation as it is, a schema or
arguments the rule rejects too (only text that is not JSON is refused):
what it answers is printed, exit status 0, or its error, exit status 1.
With --explain too, it says how that differs from the reference, and a
difference is exit status 1.`,
	Example: `  toolnorm normalize --schema examples/basic/schema.json --args examples/basic/args.json
  echo '{"title":"Ember &amp;amp; Oak"}' | toolnorm normalize --schema schema.json --explain`,
	Args:  cobra.NoArgs,
	Flags: normalizeFlags,
	Run:   runNormalize,
}

type normalizeOptions struct {
	schemaFile, argsFile, profile string
	repairs, depth                string
	maxPasses, maxDepth           int
	explain                       bool
	f                             implFlags
	sf                            schemaFlags
}

func normalizeFlags(cmd *cobra.Command, o *normalizeOptions) {
	o.f.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&o.schemaFile, "schema", "", "the tool's input schema (JSON Schema)")
	fl.StringVar(&o.argsFile, "args", "", `the arguments (default, or "-": standard input)`)
	fl.StringVar(&o.profile, "profile", "text", "how references decode: text (the rule) or attribute (keeps &region= in URLs)")
	fl.IntVar(&o.maxPasses, "max-passes", 0, "bound on decoding passes per string (0: until nothing changes)")
	fl.IntVar(&o.maxDepth, "max-depth", normalize.DefaultMaxDepth, "how deeply arrays and objects may nest")
	fl.StringVar(&o.repairs, "repairs", "json+entities", "which repairs: json, entities or json+entities (the rule), as a report's options say")
	fl.StringVar(&o.depth, "depth", "all", "where the JSON repair applies: all (every depth the schema describes, the rule) or top (the arguments' own members)")
	o.sf.register(fl)
	fl.BoolVar(&o.explain, "explain", false, "list each repair on standard error (with --impl: the reference's result, if it differs)")
	_ = cmd.RegisterFlagCompletionFunc("profile", cobra.FixedCompletions([]string{"text", "attribute"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("repairs", cobra.FixedCompletions([]string{"json", "entities", "json+entities"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("depth", cobra.FixedCompletions([]string{"all", "top"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagFilename("schema", "json")
	_ = cmd.MarkFlagFilename("args", "json")
}

func runNormalize(cmd *cobra.Command, o *normalizeOptions, _ []string) error {
	if o.schemaFile == "" {
		return usagef("--schema is required")
	}
	var p normalize.Profile
	if err := p.UnmarshalText([]byte(o.profile)); err != nil {
		return usagef("--profile: want text or attribute, not %q", o.profile)
	}
	if o.f.command != "" {
		for _, name := range []string{"profile", "max-passes", "max-depth", "repairs", "depth"} {
			if cmd.Flags().Changed(name) {
				return usagef("--%s sets the reference's reading: with --impl, the adapter declares its own (docs/protocol.md)", name)
			}
		}
	}
	var which normalize.Repairs
	if err := which.UnmarshalText([]byte(o.repairs)); err != nil {
		return usagef("--repairs: want json, entities or json+entities, not %q", o.repairs)
	}
	var depth normalize.Depth
	if err := depth.UnmarshalText([]byte(o.depth)); err != nil {
		return usagef("--depth: want all or top, not %q", o.depth)
	}
	if o.maxPasses < 0 {
		return usagef("--max-passes must be 0 (no bound) or more")
	}
	if o.maxDepth < 1 {
		return usagef("--max-depth must be 1 or more")
	}
	resolve, err := o.sf.options()
	if err != nil {
		return err
	}
	schema, err := os.ReadFile(o.schemaFile)
	if err != nil {
		return fileError(o.schemaFile, err)
	}
	name := o.argsFile
	var args []byte
	if o.argsFile == "" || o.argsFile == "-" {
		name = "stdin"
		args, err = io.ReadAll(cmd.InOrStdin())
	} else {
		args, err = os.ReadFile(o.argsFile)
	}
	if err != nil {
		return fileError(name, err)
	}
	if o.f.command != "" {
		// The case goes to the adapter as it is, a schema the rule
		// rejects too: what it answers is what a report replays. Only
		// text that is not JSON, which no request line can carry, is
		// refused here, naming its file.
		for _, f := range []struct {
			name string
			text []byte
		}{{o.schemaFile, schema}, {name, args}} {
			if _, err := jsonvalue.Parse(f.text); err != nil {
				return fmt.Errorf("%s: not JSON: %v", f.name, err)
			}
		}
		return normalizeWith(cmd, &o.f, schema, args, o.explain)
	}
	s, err := normalize.Compile(schema, normalize.WithProfile(p), normalize.WithMaxPasses(o.maxPasses), normalize.WithMaxDepth(o.maxDepth), normalize.WithRepairs(which), normalize.WithDepth(depth), resolve[0], resolve[1])
	if err != nil {
		return fileError(o.schemaFile, err)
	}
	ctx, stop := signalContext(cmd)
	defer stop()
	var out []byte
	var repairs []normalize.Repair
	if o.explain {
		out, repairs, err = s.NormalizeReportContext(ctx, args)
	} else {
		out, err = s.NormalizeContext(ctx, args)
	}
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: interrupted\n", name)
			return errInterrupted
		}
		return fileError(name, err)
	}
	if o.explain {
		explainRepairs(cmd.ErrOrStderr(), repairs)
	}
	w := cmd.OutOrStdout()
	if len(out) == 0 || out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	_, err = w.Write(out)
	return err
}

// maxRepairsShown is how many repairs --explain lists; it counts the
// rest. Each pointer is cut too, to its first and last segments and each
// segment to maxTokenShown bytes, so that the list stays short whatever
// the arguments: 40,000 repairs below a key of 100,000 bytes would be 4 GB
// of pointers.
const (
	maxRepairsShown = 100
	maxTokenShown   = 64
)

// tokenEscaper escapes a JSON Pointer's reference token.
var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// explainRepairs lists the repairs on w, one a line, as --explain does.
func explainRepairs(w io.Writer, repairs []normalize.Repair) {
	if len(repairs) == 0 {
		fmt.Fprintln(w, "no repairs")
	}
	for i, r := range repairs {
		if i == maxRepairsShown {
			fmt.Fprintf(w, "and %d more repairs\n", len(repairs)-i)
			break
		}
		var at strings.Builder
		for tok := range r.Pointer.Tokens() {
			at.WriteByte('/')
			// Cut before escaping, which reads the whole token.
			cut := len(tok)
			if cut > maxTokenShown {
				cut = maxTokenShown
				for cut > 0 && !utf8.RuneStart(tok[cut]) {
					cut--
				}
			}
			at.WriteString(display.Text(tokenEscaper.Replace(tok[:cut])))
			if cut < len(tok) {
				fmt.Fprintf(&at, "... (%d more bytes)", len(tok)-cut)
			}
		}
		shown := display.Pointer(at.String(), 16)
		if shown == "" {
			shown = "(root)"
		}
		r.Pointer = normalize.Pointer{} // the rest of the line, without the whole pointer
		fmt.Fprintln(w, shown+strings.TrimPrefix(r.String(), "(root)"))
	}
}

// fileError turns err into the one line toolnorm prints for bad input:
// "FILE: WHAT at WHERE".
func fileError(file string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", file, pe.Err)
	}
	return fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "normalize: "))
}

// normalizeWith runs one case on an implementation behind the protocol and
// prints what it gives; with explain, also how that differs from the
// reference in the configuration the implementation declares.
func normalizeWith(cmd *cobra.Command, f *implFlags, schema, args []byte, explain bool) error {
	ctx, stop := signalContext(cmd)
	defer stop()
	im, closeImpl, err := f.open(ctx, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer closeImpl()
	opts := impl.Options{}
	if c, ok := im.(impl.Configured); ok {
		opts = c.Options()
	}
	c := impl.Case{Schema: schema, Args: args, Options: opts}
	got := im.Normalize(ctx, c)
	if ctx.Err() != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: interrupted\n", im.Name())
		return errInterrupted
	}
	differs := false
	if explain {
		want := impl.Reference.Normalize(ctx, c)
		if d := impl.Compare(got, want); !d.Same() {
			differs = true
			why := d.Diff
			if d.Failure != nil {
				why = "it failed: " + got.Show(check.MaxShown)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "%s differs from the reference (%s); the reference gives: %s\n", im.Name(), why, want.Show(check.MaxShown))
		} else {
			fmt.Fprintf(cmd.ErrOrStderr(), "%s agrees with the reference\n", im.Name())
		}
	}
	if !got.Answered() {
		return fmt.Errorf("%s: %s", im.Name(), got)
	}
	out := got.Output
	if len(out) == 0 || out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	if _, err := cmd.OutOrStdout().Write(out); err != nil {
		return err
	}
	if differs {
		return violationsFound // the output is shown; the exit status says it differs
	}
	return nil
}

// schemaFlags are the flags that say how a schema's references resolve:
// the documents they may name, and the draft of a schema that names none.
type schemaFlags struct {
	refDocs []string
	draft   string
}

func (f *schemaFlags) register(fl *pflag.FlagSet) {
	fl.StringArrayVar(&f.refDocs, "ref-doc", nil, "a document the schema's references may name, as URI=FILE (repeatable; a URI relative to the schema's base, or absolute)")
	fl.StringVar(&f.draft, "draft", "2020-12", "the JSON Schema draft of a schema whose $schema names none: 4, 6, 7, 2019-09 or 2020-12")
}

// options reads the flags' documents: the options WithDraft and
// WithDocuments, in that order.
func (f *schemaFlags) options() ([]normalize.Option, error) {
	d, err := normalize.ParseDraft(f.draft)
	if err != nil {
		return nil, usagef("--draft: want 4, 6, 7, 2019-09 or 2020-12, not %q", f.draft)
	}
	docs := map[string][]byte{}
	for _, rd := range f.refDocs {
		uri, file, ok := strings.Cut(rd, "=")
		if !ok || uri == "" || file == "" {
			return nil, usagef("--ref-doc: want URI=FILE, not %q", rd)
		}
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fileError(file, err)
		}
		docs[uri] = b
	}
	return []normalize.Option{normalize.WithDraft(d), normalize.WithDocuments(docs)}, nil
}
