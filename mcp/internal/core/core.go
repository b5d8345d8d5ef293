package core

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/normalize"
)

// RepairFunc is told what was repaired in the arguments of a call to tool:
// the first repairs, and how many there were in all (total).
type RepairFunc func(ctx context.Context, tool string, repairs []normalize.Repair, total int)

// DefaultMaxRepairs is how many repairs of a call OnRepair is given
// unless Config.MaxRepairs says otherwise.
const DefaultMaxRepairs = 1000

// Config is how a middleware normalizes.
type Config struct {
	// Options configure the reference normalizer (a profile, a pass
	// bound); none is the rule's literal reading.
	Options []normalize.Option
	// OnRepair, when set, is called for each call whose arguments were
	// repaired, before the call goes on.
	OnRepair RepairFunc
	// MaxRepairs is how many repairs of a call OnRepair is given at most,
	// the first in document order: 0 is DefaultMaxRepairs, below 0 all.
	MaxRepairs int
	// Logger gets the one warning for each tool schema that does not
	// compile; nil is slog.Default().
	Logger *slog.Logger
	// Library names the MCP library in that warning.
	Library string
}

// Compiled is one tool's input schema, compiled, or the reason it could
// not be.
type Compiled struct {
	cfg    *Config
	schema *normalize.Schema // nil when the schema is unusable
}

// Compile compiles the input schema of tool. A schema that does not
// compile (or is not JSON) is reported, once for this call, on the
// logger, and gives a Compiled that passes every call through; callers
// keep the result so that the report is not repeated per call.
func (c *Config) Compile(ctx context.Context, tool string, schemaJSON []byte) *Compiled {
	s, err := normalize.Compile(schemaJSON, c.Options...)
	if err != nil {
		c.Unusable(ctx, tool, err)
		return &Compiled{cfg: c}
	}
	return &Compiled{cfg: c, schema: s}
}

// Unusable reports, once, that the schema of tool cannot be used (err
// says why) and that its calls pass through unnormalized, and returns the
// Compiled that does so.
func (c *Config) Unusable(ctx context.Context, tool string, err error) *Compiled {
	l := c.Logger
	if l == nil {
		l = slog.Default()
	}
	l.WarnContext(ctx, "toolnorm: tool input schema unusable; its arguments pass through unnormalized",
		slog.String("library", c.Library), slog.String("tool", tool), slog.String("error", err.Error()))
	return &Compiled{cfg: c}
}

// Usable reports whether the schema compiled.
func (c *Compiled) Usable() bool { return c.schema != nil }

// Normalize returns the arguments of a call to tool normalized, and
// whether that changed them. Arguments the normalizer rejects (not an
// object, not JSON, nested too deep), every argument of an unusable
// schema, and those of a call whose ctx is done before they are
// normalized come back as they are: the library then judges them as it
// would without the middleware.
//
// The repairs are listed only when OnRepair reads them, and then only the
// first MaxRepairs: past them a repair is counted (a call of 10 MB can
// hold a million, whose list took 118 MB to make).
func (c *Compiled) Normalize(ctx context.Context, tool string, args []byte) ([]byte, bool) {
	if c.schema == nil {
		return args, false
	}
	if c.cfg.OnRepair == nil {
		out, err := c.schema.NormalizeContext(ctx, args)
		// Arguments nothing repairs come back as they are, not a copy.
		if err != nil || len(out) == 0 || &out[0] == &args[0] {
			return args, false
		}
		return out, true
	}
	n := c.cfg.MaxRepairs
	if n == 0 {
		n = DefaultMaxRepairs
	}
	out, repairs, total, err := c.schema.NormalizeReportN(ctx, args, n)
	if err != nil || total == 0 {
		return args, false
	}
	c.cfg.OnRepair(ctx, tool, repairs, total)
	return out, true
}

// MayNeedRepair reports whether some repair could apply to the arguments
// args under some schema: whether a string in them (a key or a value)
// holds '&', '[' or '{', written as such or as a \u escape. Without one,
// neither repair can change anything (the entity repair needs an '&', the
// JSON repair a string holding an array or object), so the normalizer,
// whatever the schema, would give args back as they are, and a middleware
// need not look the schema up. Malformed input gives true: the normalizer
// judges it.
func MayNeedRepair(args []byte) bool {
	in := false
	for i := 0; i < len(args); i++ {
		c := args[i]
		if !in {
			in = c == '"'
			continue
		}
		switch c {
		case '"':
			in = false
		case '&', '[', '{':
			return true
		case '\\':
			if i+1 >= len(args) {
				return true
			}
			if args[i+1] != 'u' {
				i++
				continue
			}
			if i+5 >= len(args) {
				return true
			}
			r, ok := hex4(args[i+2 : i+6])
			if !ok || r == '&' || r == '[' || r == '{' {
				return true
			}
			i += 5
		}
	}
	return false
}

func hex4(b []byte) (rune, bool) {
	var r rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Logged bounds what LogRepairs logs of one call: the pointers and kinds
// of its first LoggedRepairs repairs, each pointer cut to
// LoggedPointerBytes, so that a call of 40,000 repairs below a long key
// logs a short line, not gigabytes.
const (
	LoggedRepairs      = 5
	LoggedPointerBytes = 128
)

// LogRepairs returns a RepairFunc that logs each repaired call on l at
// level, with attributes tool (its name), repairs (how many, in all), and
// the JSON Pointers and kinds of the first LoggedRepairs repairs (pointers
// and kinds), each pointer cut to LoggedPointerBytes.
func LogRepairs(l *slog.Logger, level slog.Level) RepairFunc {
	return func(ctx context.Context, tool string, repairs []normalize.Repair, total int) {
		shown := repairs[:min(len(repairs), LoggedRepairs)]
		pointers := make([]string, len(shown))
		kinds := make([]string, len(shown))
		for i, r := range shown {
			pointers[i], kinds[i] = clipPointer(r.Pointer, LoggedPointerBytes), r.Kind.String()
		}
		l.LogAttrs(ctx, level, "toolnorm: repaired tool arguments",
			slog.String("tool", tool), slog.Int("repairs", total), slog.Any("pointers", pointers), slog.Any("kinds", kinds))
	}
}

// clipPointer is p's text cut to at most n bytes, at a character boundary,
// with how many more there were: spelt out only as far as it is shown (a
// pointer below a key of megabytes is not built whole to be cut).
func clipPointer(p normalize.Pointer, n int) string {
	var b []byte
	size := 0 // of the whole text
	for tok := range p.Tokens() {
		size += 1 + len(tok) + strings.Count(tok, "~") + strings.Count(tok, "/")
		if len(b) > n {
			continue
		}
		b = append(b, '/')
		for i := 0; i < len(tok) && len(b) <= n; i++ {
			switch tok[i] {
			case '~':
				b = append(b, "~0"...)
			case '/':
				b = append(b, "~1"...)
			default:
				b = append(b, tok[i])
			}
		}
	}
	if size <= n {
		return string(b)
	}
	i := n
	for i > 0 && !utf8.RuneStart(b[i]) {
		i--
	}
	if i > 0 && b[i-1] == '~' {
		i-- // not inside an escape
	}
	return string(b[:i]) + "...(" + strconv.Itoa(size-i) + " more bytes)"
}
