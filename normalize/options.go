package normalize

import (
	"fmt"

	"github.com/toolnorm/toolnorm/internal/entity"
)

// Profile is the way references are decoded in strings.
type Profile uint8

const (
	// Text decodes references as the HTML tokenizer does in text content:
	// the literal rule RT-TOOL-8, and the default.
	Text Profile = iota
	// Attribute decodes them as the tokenizer does in attribute values: a
	// legacy name without ';' followed by '=' or an ASCII letter or digit
	// stays text, so "?a=1&region=eu" keeps its "&reg". Opt-in.
	Attribute
)

func (p Profile) String() string {
	switch p {
	case Text:
		return "text"
	case Attribute:
		return "attribute"
	}
	return fmt.Sprintf("Profile(%d)", uint8(p))
}

func (p Profile) mode() entity.Mode {
	if p == Attribute {
		return entity.Attribute
	}
	return entity.Text
}

// ParseProfile returns the profile named "text" or "attribute".
func ParseProfile(s string) (Profile, error) {
	switch s {
	case "text":
		return Text, nil
	case "attribute":
		return Attribute, nil
	}
	return 0, fmt.Errorf("normalize: unknown profile %q (want text or attribute)", s)
}

// DefaultMaxDepth is the nesting limit unless [WithMaxDepth] sets another.
const DefaultMaxDepth = 1000

// MaxDepthLimit is the largest nesting limit [WithMaxDepth] sets: deeper
// recursion would risk the goroutine's stack.
const MaxDepthLimit = 100000

// An Option configures [Compile] and [DecodeEntitiesWith]. Later options
// override earlier ones.
type Option interface{ apply(*config) }

type config struct {
	profile      Profile
	maxPasses    int
	maxDepth     int
	topLevelOnly bool
	repairs      Repairs
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

// WithTopLevelOnly limits the JSON repair to the arguments' own members
// (top-level parameters); the entity repair still applies everywhere. It is
// a reading some implementations declare (depth "top" in the protocol), so
// that they can be compared with the reference configured the same way.
// The default, and docs/readings.md section 4, is every depth.
func WithTopLevelOnly(v bool) Option {
	return optionFunc(func(c *config) { c.topLevelOnly = v })
}
