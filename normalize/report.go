package normalize

import "fmt"

// RepairKind is one of the two repairs of RT-TOOL-8.
type RepairKind uint8

const (
	// JSONDecoded: a string was replaced by the array or object it held.
	JSONDecoded RepairKind = iota + 1
	// EntitiesDecoded: a string's character references were decoded.
	EntitiesDecoded
)

func (k RepairKind) String() string {
	switch k {
	case JSONDecoded:
		return "json-decoded"
	case EntitiesDecoded:
		return "entities-decoded"
	}
	return fmt.Sprintf("RepairKind(%d)", uint8(k))
}

// Repair is one change that normalizing made.
type Repair struct {
	// Pointer is the JSON Pointer of the value repaired. Keys never
	// change, so it names the same place in the arguments and the result.
	// The repairs of a call share the steps of their pointers: reading
	// one (Pointer.String) spells it out.
	Pointer Pointer
	Kind    RepairKind
	// Shape is "array" or "object" for JSONDecoded.
	Shape string
	// Passes is, for EntitiesDecoded, the number of decoding passes that
	// changed the string: 2 for "&amp;amp;".
	Passes int
	// Fixpoint is false when the pass bound ([WithMaxPasses]) stopped the
	// decoding while another pass would still have changed the string.
	Fixpoint bool
}

func (r Repair) String() string {
	at := r.Pointer.String()
	if at == "" {
		at = "(root)"
	}
	switch r.Kind {
	case JSONDecoded:
		return fmt.Sprintf("%s: JSON-decoded the string into an %s", at, r.Shape)
	case EntitiesDecoded:
		s := fmt.Sprintf("%s: decoded character references in %d pass", at, r.Passes)
		if r.Passes != 1 {
			s += "es"
		}
		if !r.Fixpoint {
			s += " (stopped by the pass bound before the fixpoint)"
		}
		return s
	}
	return at + ": " + r.Kind.String()
}
