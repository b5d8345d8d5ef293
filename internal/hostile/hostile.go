package hostile

import (
	"strconv"
	"strings"
)

// Case is one hostile input: a tool's input schema and the arguments of a
// call, both JSON text.
type Case struct {
	Schema []byte
	Args   []byte
}

// Part is the part of a Case that a shape grows to its size.
type Part uint8

const (
	// Args grow; the schema stays small or grows much more slowly.
	Args Part = iota + 1
	// Schema grows; the arguments stay small.
	Schema
)

// Shape is one hostile shape: Build makes it at a size in bytes.
type Shape struct {
	// Name is short, for a benchmark's name: "long-key-leaves".
	Name string
	// Stresses says which cost the shape makes grow faster than its
	// size where the work is not shared, and which issue item it is.
	Stresses string
	// Grows is the part Build fits to the size.
	Grows Part
	// Build makes the shape at size bytes (of the part that grows).
	Build func(size int) Case
}

// MinSize and MaxSize bound the sizes Build is meant for: smaller sizes
// give the smallest instance of the shape, larger ones what they ask.
const (
	MinSize = 1 << 10
	MaxSize = 4 << 20
)

// Shapes returns every hostile shape, in a fixed order.
func Shapes() []Shape {
	return []Shape{
		{"long-key-leaves", "a JSON Pointer string per repair: key length times leaves (item 1)", Args, LongKeyLeaves},
		{"wide-applicators", "each member's schema looked up through the whole allOf/anyOf graph: members times schema (item 5)", Args, WideApplicators},
		{"many-patterns", "every key matched against every pattern: keys times patterns (item 5)", Args, ManyPatterns},
		{"deep-nesting", "nesting just under the default limit, with repairs at the bottom: pointers depth times leaves", Args, DeepNesting},
		{"ref-chain", "a chain of $ref hops, compiled (item 6)", Schema, RefChain},
		{"deep-tilde-keys", "a deep schema with long keys of ~ and /: a pointer per schema node, depth squared times key length (item 4)", Schema, DeepTildeKeys},
		{"backtracking-key", "a long key under a pattern matched by backtracking: recursion per character (item 2)", Args, BacktrackingKey},
		{"ref-chain-lookups", "members whose lookups each follow a chain of $ref hops: members times chain (items 5, 6)", Args, RefChainLookups},
	}
}

// LongKeyLeaves is one member whose key is a quarter of size bytes and
// whose value is an array of "&amp;" filling the rest: every leaf is
// repaired, below the one long key. The schema is {}, which declares
// nothing.
func LongKeyLeaves(size int) Case {
	size = max(size, MinSize)
	key := size / 4
	// {"k...":[ + "&amp;" per leaf, comma-separated + ]}
	leaves := max((size-key-7+1)/8, 1)
	var b strings.Builder
	b.Grow(size)
	b.WriteString(`{"`)
	b.WriteString(strings.Repeat("k", key))
	b.WriteString(`":[`)
	for i := range leaves {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"&amp;"`)
	}
	b.WriteString(`]}`)
	return Case{Schema: []byte(`{}`), Args: []byte(b.String())}
}

// wideBranches is the number of allOf and of anyOf branches of
// WideApplicators' schema: about 70 KB of schema, as in the issue.
const wideBranches = 700

// WideApplicators is an object schema of wideBranches allOf branches and
// as many anyOf branches, each declaring properties of its own (and a few
// referring to shared definitions), under arguments of many members: most
// with keys no branch names, a few with keys some branch does, every
// value a string to repair or an object (so that its schema is looked
// up).
func WideApplicators(size int) Case {
	size = max(size, MinSize)
	var s strings.Builder
	s.WriteString(`{"type":"object","$defs":{"obj":{"type":"object","properties":{"x":{"type":"array"}}}},"allOf":[`)
	for i := range wideBranches {
		if i > 0 {
			s.WriteByte(',')
		}
		n := strconv.Itoa(i)
		if i%10 == 0 {
			s.WriteString(`{"properties":{"p` + n + `":{"$ref":"#/$defs/obj"}}}`)
		} else {
			s.WriteString(`{"properties":{"p` + n + `":{"type":"array"},"r` + n + `":{"type":"string"}}}`)
		}
	}
	s.WriteString(`],"anyOf":[`)
	for i := range wideBranches {
		if i > 0 {
			s.WriteByte(',')
		}
		n := strconv.Itoa(i)
		s.WriteString(`{"type":"object","properties":{"q` + n + `":{"type":"object"}}}`)
	}
	s.WriteString(`]}`)
	var b strings.Builder
	b.Grow(size)
	b.WriteByte('{')
	for i := 0; ; i++ {
		var m string
		switch n := strconv.Itoa(i % wideBranches); {
		case i%50 == 0:
			m = `"p` + n + `":"[1]"`
		case i%50 == 25:
			m = `"p` + strconv.Itoa(i%wideBranches/10*10) + `":{"x":"[2]","y":"&lt;"}`
		case i%7 == 0:
			m = `"m` + strconv.Itoa(i) + `":{"z":"&amp;"}`
		default:
			m = `"m` + strconv.Itoa(i) + `":"&amp;"`
		}
		if b.Len()+len(m)+2 > size && i > 0 {
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(m)
	}
	b.WriteByte('}')
	return Case{Schema: []byte(s.String()), Args: []byte(b.String())}
}

// ManyPatternsCount is the number of patternProperties of ManyPatterns'
// schema.
const ManyPatternsCount = 200

// ManyPatterns is an object schema of ManyPatternsCount patternProperties
// (regular patterns: seven in eight anchored on a prefix of their own,
// "^x12_[a-z]+$", the others on a suffix, "_y15[0-9]*$"), under arguments
// of distinct keys, each with a value to repair: most keys match no
// pattern, one in eight matches one.
func ManyPatterns(size int) Case {
	size = max(size, MinSize)
	var s strings.Builder
	s.WriteString(`{"type":"object","patternProperties":{`)
	for i := range ManyPatternsCount {
		if i > 0 {
			s.WriteByte(',')
		}
		if i%8 == 7 {
			s.WriteString(`"_y` + strconv.Itoa(i) + `[0-9]*$":{"type":"array"}`)
		} else {
			s.WriteString(`"^x` + strconv.Itoa(i) + `_[a-z]+$":{"type":"array"}`)
		}
	}
	s.WriteString(`}}`)
	var b strings.Builder
	b.Grow(size)
	b.WriteByte('{')
	for i := 0; ; i++ {
		var m string
		if i%8 == 0 {
			m = `"x` + strconv.Itoa(i/8%ManyPatternsCount/8*8) + `_k` + letters(i) + `":"[1]"`
		} else {
			m = `"k` + strconv.Itoa(i) + `":"&amp;"`
		}
		if b.Len()+len(m)+2 > size && i > 0 {
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(m)
	}
	b.WriteByte('}')
	return Case{Schema: []byte(s.String()), Args: []byte(b.String())}
}

// letters spells i in the letters a to z.
func letters(i int) string {
	var b []byte
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}

// DeepDepth is how deep DeepNesting nests at most: just under the
// default limit of the reference normalizer (1,000).
const DeepDepth = 990

// DeepNesting is chains of objects nested DeepDepth deep (less at small
// sizes), each member's key 16 bytes long, with an array of 64 "&amp;"
// at the bottom of each chain (the last chain takes what is left), filling
// size; the schema declares every level, through a recursive $ref.
func DeepNesting(size int) Case {
	size = max(size, MinSize)
	key := `"` + strings.Repeat("d", 16) + `":`
	depth := min(DeepDepth, (size/2)/(len(key)+2))
	const leaf = `"&amp;",`
	var b strings.Builder
	b.Grow(size)
	b.WriteByte('{')
	for c := 0; ; c++ {
		name := `"c` + strconv.Itoa(c) + `":`
		skeleton := len(name) + depth*(len(key)+2) + 2
		leaves := 64
		room := size - b.Len() - 2 // a comma, and the closing brace
		if room < 2*(skeleton+leaves*len(leaf)) {
			leaves = max((room-skeleton)/len(leaf), 1) // the last chain
		}
		if c > 0 {
			b.WriteByte(',')
		}
		b.WriteString(name)
		for range depth {
			b.WriteByte('{')
			b.WriteString(key)
		}
		b.WriteString(`[`)
		b.WriteString(strings.Repeat(leaf, leaves)[:leaves*len(leaf)-1])
		b.WriteString(`]`)
		b.WriteString(strings.Repeat("}", depth))
		if leaves != 64 {
			break
		}
	}
	b.WriteByte('}')
	schema := `{"$defs":{"t":{"type":"object","additionalProperties":{"anyOf":[{"$ref":"#/$defs/t"},{"type":"array","items":{"type":"string"}}]}}},"$ref":"#/$defs/t"}`
	return Case{Schema: []byte(schema), Args: []byte(b.String())}
}

// RefChain is a schema whose root is the first of a chain of $defs, each
// a $ref to the next, the last a $ref to an object whose member "a" is an
// array; the arguments send "a" as a string.
func RefChain(size int) Case {
	size = max(size, MinSize)
	const head = `{"$ref":"#/$defs/d0","$defs":{`
	const tail = `"end":{"type":"object","properties":{"a":{"type":"array"}}}}}`
	def := func(i int, to string) string { return `"d` + strconv.Itoa(i) + `":{"$ref":"#/$defs/` + to + `"},` }
	var s strings.Builder
	s.Grow(size)
	s.WriteString(head)
	for i := 0; ; i++ {
		d := def(i, "d"+strconv.Itoa(i+1))
		if s.Len()+len(d)+len(def(i+1, "end"))+len(tail) > size {
			s.WriteString(def(i, "end"))
			break
		}
		s.WriteString(d)
	}
	s.WriteString(tail)
	return Case{Schema: []byte(s.String()), Args: []byte(`{"a":"[1,2,3]","b":"&amp;"}`)}
}

// DeepTildeDepth is how deep DeepTildeKeys nests at most.
const DeepTildeDepth = 2000

// DeepTildeKeys is a schema of properties nested DeepTildeDepth deep
// (less at small sizes), each named by a key of "~/" repeated (which a
// JSON Pointer escapes to twice its length), as long as fills size; the
// arguments follow the path down to a string that holds an array, which
// the deepest level declares.
func DeepTildeKeys(size int) Case {
	size = max(size, MinSize)
	const open1, open2 = `{"type":"object","properties":{"`, `":`
	const close = `}}`
	const leaf = `{"type":"array"}`
	fixed := len(open1) + len(open2) + len(close)
	depth := max(min((size-len(leaf))/(fixed+8), DeepTildeDepth), 1)
	keyLen := ((size-len(leaf))/depth - fixed) / 2 * 2
	key := strings.Repeat("~/", keyLen/2)
	var s, a strings.Builder
	s.Grow(size)
	for range depth {
		s.WriteString(open1 + key + open2)
		a.WriteString(`{"` + key + `":`)
	}
	s.WriteString(leaf)
	a.WriteString(`"[1]"`)
	s.WriteString(strings.Repeat(close, depth))
	a.WriteString(strings.Repeat("}", depth))
	return Case{Schema: []byte(s.String()), Args: []byte(a.String())}
}

// BacktrackingPattern is the pattern of BacktrackingKey: a lookahead,
// which RE2 cannot run, over a group repeated once per character.
const BacktrackingPattern = `^(?=a)((((?:b|c|(a)))))*$`

// BacktrackingKey is one key of size-16 bytes of "a" under a schema whose
// one patternProperties pattern is BacktrackingPattern: a matcher that
// recurses once per character overflows its stack.
func BacktrackingKey(size int) Case {
	size = max(size, MinSize)
	schema := `{"type":"object","patternProperties":{"` + BacktrackingPattern + `":{"type":"array"}}}`
	args := `{"` + strings.Repeat("a", size-16) + `":"[1]"}`
	return Case{Schema: []byte(schema), Args: []byte(args)}
}

// RefChainLookups' schema: RefChainProps properties, more than the walk
// keeps the lookups of (4,096 keys a position), and a chain of
// RefChainHops $refs.
const (
	RefChainProps = 4500
	RefChainHops  = 1000
)

// RefChainLookups is an array of objects whose members name the
// RefChainProps properties of the items' schema in turn, each a string to
// repair; that schema also has an allOf branch that is the head of a
// chain of RefChainHops $refs, so that looking up a member's schema
// reaches the chain. There are more distinct keys than the walk keeps the
// lookups of: a walk that followed the chain hop by hop at each lookup
// would cost members times hops. The schema is 79 KB at every size.
func RefChainLookups(size int) Case {
	size = max(size, MinSize)
	var s strings.Builder
	s.WriteString(`{"type":"object","properties":{"l":{"type":"array","items":{"$ref":"#/$defs/o"}}},"$defs":{"o":{"type":"object","allOf":[{"$ref":"#/$defs/d0"}],"properties":{`)
	for i := range RefChainProps {
		if i > 0 {
			s.WriteByte(',')
		}
		s.WriteString(`"p` + strconv.Itoa(i) + `":{}`)
	}
	s.WriteString(`}},`)
	for i := range RefChainHops {
		s.WriteString(`"d` + strconv.Itoa(i) + `":{"$ref":"#/$defs/d` + strconv.Itoa(i+1) + `"},`)
	}
	s.WriteString(`"d` + strconv.Itoa(RefChainHops) + `":{"type":"object","properties":{"z":{"type":"array"}}}}}`)
	var b strings.Builder
	b.Grow(size)
	b.WriteString(`{"l":[{`)
	for i := 0; ; i++ {
		m := `"p` + strconv.Itoa(i%RefChainProps) + `":"&amp;"`
		sep := ","
		if i%64 == 0 {
			sep = "},{" // 64 members an object
		}
		if b.Len()+len(sep)+len(m)+3 > size && i > 0 {
			break
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(m)
	}
	b.WriteString(`}]}`)
	return Case{Schema: []byte(s.String()), Args: []byte(b.String())}
}
