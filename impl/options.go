package impl

import (
	"fmt"
	"strings"

	"github.com/toolnorm/toolnorm/normalize"
)

// Profile is how one pass of the entity repair reads references
// (docs/readings.md, section 3). Its text form, "text" or "attribute", is
// what vectors, declarations and flags carry.
type Profile uint8

// The profiles.
const (
	Text      Profile = iota // as in HTML text content: the rule's literal reading (the default)
	Attribute                // as in attribute values: "?a=1&region=eu" stays as it is
)

var profileNames = []string{"text", "attribute"}

func (p Profile) String() string { return name(profileNames, p) }

// MarshalText gives "text" or "attribute".
func (p Profile) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads "text" or "attribute"; the empty text is the default.
func (p *Profile) UnmarshalText(b []byte) error { return parseName(profileNames, "profile", b, p) }

// Depth is where the JSON repair applies (docs/readings.md, section 4).
// Its text form is "all" or "top".
type Depth uint8

// The depths.
const (
	All Depth = iota // every depth the schema describes (the default)
	Top              // the arguments' own members only
)

var depthNames = []string{"all", "top"}

func (d Depth) String() string { return name(depthNames, d) }

// MarshalText gives "all" or "top".
func (d Depth) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads "all" or "top"; the empty text is the default.
func (d *Depth) UnmarshalText(b []byte) error { return parseName(depthNames, "depth", b, d) }

// name is the text of an option's value: names[0] for the default and any
// value out of range (Validate reports those).
func name[T ~uint8](names []string, v T) string {
	if int(v) < len(names) {
		return names[v]
	}
	return names[0]
}

// parseName reads an option's text into v; the empty text is the default.
func parseName[T ~uint8](names []string, what string, b []byte, v *T) error {
	if len(b) == 0 {
		*v = 0
		return nil
	}
	for i, n := range names {
		if string(b) == n {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("%s %q: want %s", what, b, strings.Join(names, " or "))
}

// Repairs is which of the rule's two repairs an implementation does. Its
// text form, in declarations and flags, is "json", "entities", or "" for
// both (the default: the rule). Vectors are written for both.
type Repairs uint8

// The repairs an implementation may declare.
const (
	BothRepairs  Repairs = iota // the JSON repair and the entity repair: the rule (the default)
	JSONOnly                    // the JSON repair only (clauses 2 and 3)
	EntitiesOnly                // the entity repair only (clause 4)
)

var repairNames = []string{"", "json", "entities"}

func (r Repairs) String() string {
	if r == BothRepairs {
		return "json+entities"
	}
	return name(repairNames, r)
}

// MarshalText gives "json", "entities", or "" for both.
func (r Repairs) MarshalText() ([]byte, error) { return []byte(name(repairNames, r)), nil }

// UnmarshalText reads "json" or "entities"; the empty text is both.
func (r *Repairs) UnmarshalText(b []byte) error {
	if string(b) == "json+entities" {
		*r = BothRepairs
		return nil
	}
	return parseName(repairNames, "repairs", b, r)
}

// JSON reports whether r includes the JSON repair.
func (r Repairs) JSON() bool { return r != EntitiesOnly }

// Entities reports whether r includes the entity repair.
func (r Repairs) Entities() bool { return r != JSONOnly }

// Missing names the repair r leaves out, with its clause, as a report says
// it ("the entity repair (rule/4)"), or "" when it leaves none out.
func (r Repairs) Missing() string {
	switch r {
	case JSONOnly:
		return "the entity repair (rule/4)"
	case EntitiesOnly:
		return "the JSON repair (rule/2, rule/3)"
	}
	return ""
}

// DefaultMaxDepth is the nesting limit when Options.MaxDepth is 0.
const DefaultMaxDepth = normalize.DefaultMaxDepth

// Options are the readings of the rule a case is run under. The zero value
// is the rule's literal reading: the text profile, no pass bound, the
// default nesting limit, the JSON repair at every depth.
type Options struct {
	Profile Profile `json:"profile,omitempty"`
	// MaxPasses bounds the decoding passes; 0 means none.
	MaxPasses int `json:"max_passes,omitempty"`
	// MaxDepth is the nesting limit; 0 means DefaultMaxDepth.
	MaxDepth int   `json:"max_depth,omitempty"`
	Depth    Depth `json:"depth,omitempty"`
	// Repairs is which repairs are done: both, unless an implementation
	// declares it does one only. Vectors never set it.
	Repairs Repairs `json:"repairs,omitempty"`
}

// Validate says what is wrong with o, if anything.
func (o Options) Validate() error {
	switch {
	case o.Profile > Attribute:
		return fmt.Errorf("options: profile %d: want text or attribute", o.Profile)
	case o.Depth > Top:
		return fmt.Errorf("options: depth %d: want all or top", o.Depth)
	case o.MaxPasses < 0:
		return fmt.Errorf("options: max_passes %d: want 0 or more", o.MaxPasses)
	case o.MaxDepth < 0:
		return fmt.Errorf("options: max_depth %d: want 0 or more", o.MaxDepth)
	case o.Repairs > EntitiesOnly:
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
	if o.Profile != Text {
		c = append(c, "profile "+o.Profile.String())
	}
	if o.MaxPasses != 0 {
		c = append(c, fmt.Sprintf("max_passes %d", o.MaxPasses))
	}
	if o.MaxDepth != 0 && o.MaxDepth != DefaultMaxDepth {
		c = append(c, fmt.Sprintf("max_depth %d", o.MaxDepth))
	}
	if o.Depth != All {
		c = append(c, "depth "+o.Depth.String())
	}
	if o.Repairs != BothRepairs {
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
	opts := []normalize.Option{normalize.WithMaxPasses(o.MaxPasses)}
	if o.Profile == Attribute {
		opts = append(opts, normalize.WithProfile(normalize.Attribute))
	}
	if o.MaxDepth > 0 {
		opts = append(opts, normalize.WithMaxDepth(o.MaxDepth))
	}
	if o.Depth == Top {
		opts = append(opts, normalize.WithTopLevelOnly(true))
	}
	switch o.Repairs {
	case JSONOnly:
		opts = append(opts, normalize.WithRepairs(normalize.JSONRepair))
	case EntitiesOnly:
		opts = append(opts, normalize.WithRepairs(normalize.EntityRepair))
	}
	return opts
}
