package impl

import (
	"fmt"
	"strings"

	"github.com/toolnorm/toolnorm/normalize"
)

// DefaultMaxDepth is the nesting limit when Options.MaxDepth is 0.
const DefaultMaxDepth = normalize.DefaultMaxDepth

// Options are the readings of the rule a case is run under. The zero value
// is the rule's literal reading: the text profile, no pass bound, the
// default nesting limit, the JSON repair at every depth.
type Options struct {
	Profile normalize.Profile `json:"profile,omitempty"`
	// MaxPasses bounds the decoding passes; 0 means none.
	MaxPasses int `json:"max_passes,omitempty"`
	// MaxDepth is the nesting limit; 0 means DefaultMaxDepth.
	MaxDepth int             `json:"max_depth,omitempty"`
	Depth    normalize.Depth `json:"depth,omitempty"`
	// Repairs is which repairs are done: both, unless an implementation
	// declares it does one only. Vectors never set it.
	Repairs normalize.Repairs `json:"repairs,omitempty"`
}

// Validate says what is wrong with o, if anything.
func (o Options) Validate() error {
	switch {
	case o.Profile > normalize.Attribute:
		return fmt.Errorf("options: profile %d: want text or attribute", o.Profile)
	case o.Depth > normalize.TopLevel:
		return fmt.Errorf("options: depth %d: want all or top", o.Depth)
	case o.MaxPasses < 0:
		return fmt.Errorf("options: max_passes %d: want 0 or more", o.MaxPasses)
	case o.MaxDepth < 0:
		return fmt.Errorf("options: max_depth %d: want 0 or more", o.MaxDepth)
	case o.Repairs > normalize.EntityRepair:
		return fmt.Errorf("options: repairs %d: want json, entities or both", o.Repairs)
	}
	return nil
}

// Canonical returns o with its defaults spelt out: MaxDepth 0 becomes
// DefaultMaxDepth. Two options mean the same when their canonical forms
// are equal.
func (o Options) Canonical() Options {
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	return o
}

// Same reports whether o and p mean the same reading.
func (o Options) Same(p Options) bool { return o.Canonical() == p.Canonical() }

// Bounded reports whether o bounds the decoding passes: the properties
// that speak of the unbounded fixpoint do not apply.
func (o Options) Bounded() bool { return o.MaxPasses > 0 }

// Choices lists the choices of o that differ from the defaults, for
// reports ("profile attribute", "max_passes 2", "depth top").
func (o Options) Choices() []string {
	var c []string
	if o.Profile != normalize.Text {
		c = append(c, "profile "+o.Profile.String())
	}
	if o.MaxPasses != 0 {
		c = append(c, fmt.Sprintf("max_passes %d", o.MaxPasses))
	}
	if o.MaxDepth != 0 && o.MaxDepth != DefaultMaxDepth {
		c = append(c, fmt.Sprintf("max_depth %d", o.MaxDepth))
	}
	if o.Depth != normalize.EveryDepth {
		c = append(c, "depth "+o.Depth.String())
	}
	if o.Repairs != normalize.AllRepairs {
		c = append(c, "repairs "+o.Repairs.String())
	}
	return c
}

// String is o's choices, or "defaults".
func (o Options) String() string {
	if c := o.Choices(); len(c) > 0 {
		return strings.Join(c, ", ")
	}
	return "defaults"
}

// Normalize returns the options of package normalize that make the
// reference run under o.
func (o Options) Normalize() []normalize.Option {
	opts := []normalize.Option{normalize.WithProfile(o.Profile), normalize.WithMaxPasses(o.MaxPasses), normalize.WithDepth(o.Depth), normalize.WithRepairs(o.Repairs)}
	if o.MaxDepth > 0 {
		opts = append(opts, normalize.WithMaxDepth(o.MaxDepth))
	}
	return opts
}
