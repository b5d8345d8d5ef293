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

// repairList collects the repairs of a call: in one slice that doubles up
// to repairBlock of them, then in blocks of repairBlock that it never
// copies, and copies once, into a slice of the exact length, at the end.
// A report of n repairs allocates at most about 2n for them, where append,
// growing a long slice by a quarter at a time, allocates up to 4n along
// the way. With a limit (max at 0 or more) it lists the first max and
// counts the rest (omitted).
type repairList struct {
	full    [][]Repair // blocks of repairBlock
	done    int        // the repairs in full
	cur     []Repair
	max     int // the most listed; below 0, no limit
	omitted int // the repairs made past max
}

const repairBlock = 4096

// keep reports whether the next repair is listed, and counts it when it
// is not: past the limit, a repair costs a count, not a Repair and the
// steps of its Pointer.
func (l *repairList) keep() bool {
	if l.max < 0 || l.len() < l.max {
		return true
	}
	l.omitted++
	return false
}

func (l *repairList) add(r Repair) {
	if len(l.cur) == cap(l.cur) {
		if cap(l.cur) < repairBlock { // the first block, doubled
			l.cur = append(make([]Repair, 0, min(max(2*cap(l.cur), 8), repairBlock)), l.cur...)
		} else {
			l.full = append(l.full, l.cur)
			l.done += len(l.cur)
			l.cur = make([]Repair, 0, repairBlock)
		}
	}
	l.cur = append(l.cur, r)
}

// len returns the number of repairs listed.
func (l *repairList) len() int { return l.done + len(l.cur) }

// total returns the number of repairs made, listed or not.
func (l *repairList) total() int { return l.len() + l.omitted }

// truncate drops the repairs made after the first n (n a total).
func (l *repairList) truncate(n int) {
	if n >= l.len() {
		l.omitted = n - l.len()
		return
	}
	l.omitted = 0
	for n < l.done {
		l.cur = l.full[len(l.full)-1]
		l.full = l.full[:len(l.full)-1]
		l.done -= len(l.cur)
	}
	l.cur = l.cur[:n-l.done]
}

// list returns the repairs listed, in the order added; nil if there are
// none.
func (l *repairList) list() []Repair {
	if len(l.full) == 0 {
		return l.cur
	}
	out := make([]Repair, 0, l.len())
	for _, b := range l.full {
		out = append(out, b...)
	}
	return append(out, l.cur...)
}
