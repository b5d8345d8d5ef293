package normalize

import "fmt"

// Repairs is a set of the rule's two repairs. An implementation that does
// only one of them is compared with the reference doing the same
// ([WithRepairs]): what it does is checked in full, and the repair it does
// not do is reported once, as a clause not implemented.
type Repairs uint8

const (
	// JSONRepair decodes a string that holds the JSON of the array or
	// object its position declares (clauses 2 and 3 of the rule).
	JSONRepair Repairs = 1 << iota
	// EntityRepair decodes HTML character references in string leaves to
	// a fixpoint (clause 4).
	EntityRepair

	// AllRepairs is the rule: both, the default.
	AllRepairs = JSONRepair | EntityRepair
)

func (r Repairs) String() string {
	switch r {
	case AllRepairs:
		return "json+entities"
	case JSONRepair:
		return "json"
	case EntityRepair:
		return "entities"
	case 0:
		return "none"
	}
	return fmt.Sprintf("Repairs(%d)", uint8(r))
}

// WithRepairs sets which repairs are done; the default is [AllRepairs].
// With [JSONRepair] alone, references are left as they are; with
// [EntityRepair] alone, no string is JSON-decoded.
func WithRepairs(r Repairs) Option {
	return optionFunc(func(c *config) { c.repairs = r & AllRepairs })
}
