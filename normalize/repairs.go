package normalize

import "fmt"

// Repairs is which of the rule's two repairs are done: both, the zero
// value and the rule, or one of them. An implementation that does only one
// is compared with the reference doing the same ([WithRepairs]): what it
// does is checked in full, and the repair it does not do is reported once,
// as a clause not implemented. Its text form, in declarations and flags, is
// "json", "entities", or "" for both ("json+entities" reads as both too).
type Repairs uint8

const (
	// AllRepairs is the rule: both repairs, the default.
	AllRepairs Repairs = iota
	// JSONRepair alone decodes a string that holds the JSON of the array
	// or object its position declares (clauses 2 and 3 of the rule).
	JSONRepair
	// EntityRepair alone decodes HTML character references in string
	// leaves to a fixpoint (clause 4).
	EntityRepair
)

// JSON reports whether r includes the JSON repair.
func (r Repairs) JSON() bool { return r != EntityRepair }

// Entities reports whether r includes the entity repair.
func (r Repairs) Entities() bool { return r != JSONRepair }

// Missing names the repair r leaves out, with its clause, as a report says
// it ("the entity repair (rule/4)"), or "" when it leaves none out.
func (r Repairs) Missing() string {
	switch r {
	case JSONRepair:
		return "the entity repair (rule/4)"
	case EntityRepair:
		return "the JSON repair (rule/2, rule/3)"
	}
	return ""
}

// String gives "json+entities", "json" or "entities", and "Repairs(n)"
// for a value out of range.
func (r Repairs) String() string {
	switch r {
	case AllRepairs:
		return "json+entities"
	case JSONRepair:
		return "json"
	case EntityRepair:
		return "entities"
	}
	return fmt.Sprintf("Repairs(%d)", uint8(r))
}

// MarshalText gives "json", "entities", or "" for both; a value out of
// range is an error.
func (r Repairs) MarshalText() ([]byte, error) {
	switch r {
	case AllRepairs:
		return []byte{}, nil
	case JSONRepair, EntityRepair:
		return []byte(r.String()), nil
	}
	return nil, fmt.Errorf("repairs %d: want json, entities or both", uint8(r))
}

// UnmarshalText reads "json", "entities", and "" or "json+entities" for
// both.
func (r *Repairs) UnmarshalText(b []byte) error {
	switch string(b) {
	case "", "json+entities":
		*r = AllRepairs
	case "json":
		*r = JSONRepair
	case "entities":
		*r = EntityRepair
	default:
		return fmt.Errorf("repairs %q: want json, entities or json+entities", b)
	}
	return nil
}

// WithRepairs sets which repairs are done; the default is [AllRepairs].
// With [JSONRepair], references are left as they are; with [EntityRepair],
// no string is JSON-decoded. A value out of range means both.
func WithRepairs(r Repairs) Option {
	return optionFunc(func(c *config) { c.repairs = r })
}

// Depth is where the JSON repair applies (docs/readings.md, section 4):
// at every depth the schema describes, the zero value and the rule, or
// only to the arguments' own members. The entity repair applies
// everywhere either way. Its text form, in declarations and flags, is
// "all" or "top". It is not the nesting limit, [WithMaxDepth].
type Depth uint8

const (
	// EveryDepth is every depth the schema describes: the default.
	EveryDepth Depth = iota
	// TopLevel is the arguments' own members (top-level parameters) only:
	// a reading some implementations declare (depth "top" in the
	// protocol), so that they can be compared with the reference
	// configured the same way.
	TopLevel
)

// String gives "all" or "top", and "Depth(n)" for a value out of range.
func (d Depth) String() string {
	switch d {
	case EveryDepth:
		return "all"
	case TopLevel:
		return "top"
	}
	return fmt.Sprintf("Depth(%d)", uint8(d))
}

// MarshalText gives "all" or "top"; a value out of range is an error.
func (d Depth) MarshalText() ([]byte, error) {
	if d > TopLevel {
		return nil, fmt.Errorf("depth %d: want all or top", uint8(d))
	}
	return []byte(d.String()), nil
}

// UnmarshalText reads "all" or "top"; the empty text is [EveryDepth].
func (d *Depth) UnmarshalText(b []byte) error {
	switch string(b) {
	case "", "all":
		*d = EveryDepth
	case "top":
		*d = TopLevel
	default:
		return fmt.Errorf("depth %q: want all or top", b)
	}
	return nil
}

// WithDepth sets where the JSON repair applies; the default is
// [EveryDepth].
func WithDepth(d Depth) Option {
	return optionFunc(func(c *config) { c.depth = d })
}
