package normalize

import "github.com/toolnorm/toolnorm/internal/entity"

// Profile is the way references are decoded in strings: [Text], the
// default, or [Attribute] (docs/readings.md, section 3). Its text form, in
// vectors, declarations and flags, is "text" or "attribute": it has
// String, MarshalText and UnmarshalText, the empty text reading as [Text].
type Profile = entity.Profile

const (
	// Text decodes references as the HTML tokenizer does in text content:
	// the literal rule RT-TOOL-8, and the default.
	Text = entity.Text
	// Attribute decodes them as the tokenizer does in attribute values: a
	// legacy name without ';' followed by '=' or an ASCII letter or digit
	// stays text, so "?a=1&region=eu" keeps its "&reg". Opt-in.
	Attribute = entity.Attribute
)

// DefaultMaxDepth is the nesting limit unless [WithMaxDepth] sets another.
const DefaultMaxDepth = 1000

// MaxDepthLimit is the largest nesting limit [WithMaxDepth] sets: deeper
// recursion would risk the goroutine's stack.
const MaxDepthLimit = 100000

// An Option configures [Compile] and [DecodeEntitiesWith]. Later options
// override earlier ones.
type Option interface{ apply(*config) }

type config struct {
	profile   Profile
	maxPasses int
	maxDepth  int
	depth     Depth
	repairs   Repairs
}

type optionFunc func(*config)

func (f optionFunc) apply(c *config) { f(c) }

func newConfig(opts []Option) config {
	c := config{profile: Text, maxDepth: DefaultMaxDepth, repairs: AllRepairs}
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	return c
}

// WithProfile sets how references are decoded. The default is [Text].
func WithProfile(p Profile) Option { return optionFunc(func(c *config) { c.profile = p }) }

// WithMaxPasses bounds the number of decoding passes per string; 0, the
// default, means none: decode until the string stops changing. A string
// stopped by the bound is reported (see [Repair.Fixpoint]).
func WithMaxPasses(n int) Option {
	return optionFunc(func(c *config) { c.maxPasses = max(n, 0) })
}

// WithMaxDepth sets how deeply arrays and objects may nest, counting
// through values decoded from strings; deeper arguments are an error
// ([ErrTooDeep]). The default is [DefaultMaxDepth]; n is clamped to the
// range 1 to [MaxDepthLimit].
func WithMaxDepth(n int) Option {
	return optionFunc(func(c *config) { c.maxDepth = min(max(n, 1), MaxDepthLimit) })
}
