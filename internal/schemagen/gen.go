package schemagen

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// A Draft is a JSON Schema draft the reference reads.
type Draft uint8

// The drafts. DraftNone is a document without $schema (read as
// 2020-12).
const (
	DraftNone Draft = iota
	Draft4
	Draft6
	Draft7
	Draft2019
	Draft2020
)

var draftURIs = [...]string{
	Draft4:    "http://json-schema.org/draft-04/schema#",
	Draft6:    "http://json-schema.org/draft-06/schema#",
	Draft7:    "http://json-schema.org/draft-07/schema#",
	Draft2019: "https://json-schema.org/draft/2019-09/schema",
	Draft2020: "https://json-schema.org/draft/2020-12/schema",
}

// URI is the $schema value that names d ("" for DraftNone).
func (d Draft) URI() string { return draftURIs[d] }

// modern reports whether $ref applies beside other keywords, and $defs,
// $anchor, dependentRequired are the draft's own (2019-09 on).
func (d Draft) modern() bool { return d == DraftNone || d >= Draft2019 }

// draftOf is the draft a $schema value names, DraftNone for another.
func draftOf(uri string) Draft {
	for d, u := range draftURIs {
		if u != "" && trimURI(u) == trimURI(uri) {
			return Draft(d)
		}
	}
	return DraftNone
}

func trimURI(s string) string {
	if len(s) > 0 && s[len(s)-1] == '#' {
		s = s[:len(s)-1]
	}
	for _, p := range []string{"https://", "http://"} {
		if len(s) > len(p) && s[:len(p)] == p {
			return s[len(p):]
		}
	}
	return s
}

// The knobs of swarm testing: each case turns each on or off.
const (
	kTypeList        = iota // type lists with null, and other lists
	kStringContainer        // type lists mixing string with a container
	kNullable
	kMaxLength
	kMinLength
	kPattern
	kFormat
	kEnum
	kConst
	kNumeric // minimum, maximum, exclusive bounds, multipleOf
	kItemCount
	kUniqueItems
	kContains
	kRequired
	kPropCount
	kPropertyNames
	kDependent // dependentRequired, dependentSchemas, dependencies
	kItems
	kTuple // prefixItems, or an items list with additionalItems
	kPatternProps
	kAdditionalProps
	kAllOf
	kAnyOf
	kOneOf
	kNot
	kIf
	kUnevaluated
	kRef
	kDeepDefs
	kID
	kAnchor
	kRecursion
	kDynamic
	kBoolSchema
	kSchemaKeyword // $schema names the draft
	kOffDraft      // keywords of another draft than the document's
	kSpecialKeys
	kJSONText  // strings holding JSON text
	kJSONText2 // (two knobs: on in three cases of four)
	kBreak     // the arguments break the schema at one place
	kStray     // validation keywords beside types they do not apply to
	kWide      // more parameters, more members
	numKnobs
)

// Options say how to draw.
type Options struct {
	// Text draws a leaf string (text and references), if set; else the
	// package's own pool.
	Text func() string
	// Fit draws only what the generator models exactly: arguments that
	// fit the schema as any validator reads it (no JSON text the repair
	// decodes, no break, no keywords of another draft, and no not,
	// if/then/else, dependent schemas or unevaluated keywords, whose
	// values the generator does not draw against).
	Fit bool
}

// unmodelled are the knobs Options.Fit turns off.
const unmodelled = 1<<kJSONText | 1<<kJSONText2 | 1<<kBreak | 1<<kOffDraft | 1<<kNot | 1<<kIf | 1<<kDependent | 1<<kUnevaluated | 1<<kStray |
	1<<kNullable | 1<<kRecursion | 1<<kPatternProps | 1<<kUniqueItems | 1<<kPattern

// Case is a drawn case: the schema and arguments as JSON text, and the
// features they exercise.
type Case struct {
	Schema, Args []byte
	Features     Set
}

// Draw draws the case seed gives: the same seed, the same case.
func Draw(seed uint64, o Options) Case {
	schema, args, broke := DrawTrees(seed, o)
	st, at := schema.Append(nil), args.Append(nil)
	return Case{Schema: st, Args: at, Features: Of(st, at, broke)}
}

// DrawTrees is Draw before the schema and arguments are written out and
// their features read (Of), for a caller that changes them further
// (Mutate) or does not count features: broke says the arguments were
// drawn to break the schema at one place.
func DrawTrees(seed uint64, o Options) (schema, args *jsonvalue.Value, broke bool) {
	g := newGen(seed, o)
	schema, args = g.document()
	return schema, args, g.broke
}

// Of is the features of a drawn or mutated case, written out: AnalyzeText's,
// and whether its arguments were drawn to fit or to break the schema.
func Of(schema, args []byte, broke bool) Set {
	feats := AnalyzeText(schema, args)
	if broke {
		feats.Add(firstArguments + 1)
	} else {
		feats.Add(firstArguments)
	}
	return feats
}

// A typeSet is a set of JSON types.
type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBool
	tObject
	tArray
	tNumber // not integer
	tInteger
	tString
	tAll typeSet = 1<<iota - 1
)

var typeNames = []struct {
	t    typeSet
	name string
}{{tNull, "null"}, {tBool, "boolean"}, {tObject, "object"}, {tArray, "array"}, {tNumber, "number"}, {tInteger, "integer"}, {tString, "string"}}

func (t typeSet) has(u typeSet) bool { return t&u != 0 }

// A node is a drawn schema and what the generator knows of it: the types
// and children its values are drawn from, and the constraints they fit.
type node struct {
	v     *jsonvalue.Value // the schema: an object, or true or false
	types typeSet          // the types values take here (tAll: any)
	// refTo is the target of a $ref node: values are drawn from it.
	refTo *node
	// alts are anyOf or oneOf branches: a value is drawn from one of them
	// (the node's own keywords apply too).
	alts []*node
	// Objects.
	props  []member
	addl   *node // additionalProperties (or, as a decoy, unevaluatedProperties)
	closed bool  // additionalProperties false
	decoys []member
	// Arrays.
	items  *node
	prefix []*node
	// Constraints.
	minLen, maxLen       int // -1: none
	pat                  *patternSpec
	format               int // index of formatSpec, -1: none
	enum                 []*jsonvalue.Value
	lo, hi               int // numeric bounds (when bounded)
	bounded              bool
	multipleOf           int
	minItems, maxItems   int // -1: none
	unique               bool
	contains             *node
	required             []string
	minProps, maxProps   int // -1: none
	keyMax               int // propertyNames maxLength, -1: none
	depReq               [][2]string
	recursive, forbidden bool // recursive: a def that refers to itself; forbidden: false

	own     jsonvalue.Value     // v, as drawn
	members [4]jsonvalue.Member // room for own's first members
}

type member struct {
	key string
	n   *node
}

func newNode(types typeSet) *node {
	// One allocation: the schema object and room for its first members
	// are the node's own.
	n := &node{types: types, minLen: -1, maxLen: -1, format: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1, keyMax: -1}
	n.own = jsonvalue.Value{Kind: jsonvalue.Object, Members: n.members[:0]}
	n.v = &n.own
	return n
}

// set adds a member to the schema object.
func (n *node) set(key string, v *jsonvalue.Value) {
	n.v.Members = append(n.v.Members, jsonvalue.Member{Key: key, Value: v})
}

func str(s string) *jsonvalue.Value { return &jsonvalue.Value{Kind: jsonvalue.String, Str: s} }
func num(s string) *jsonvalue.Value { return &jsonvalue.Value{Kind: jsonvalue.Number, Number: s} }
func boolean(b bool) *jsonvalue.Value {
	return &jsonvalue.Value{Kind: jsonvalue.Bool, Bool: b}
}
func intv(i int) *jsonvalue.Value { return num(strconv.Itoa(i)) }
func arr(xs ...*jsonvalue.Value) *jsonvalue.Value {
	if xs == nil {
		xs = []*jsonvalue.Value{}
	}
	return &jsonvalue.Value{Kind: jsonvalue.Array, Elems: xs}
}
func obj() *jsonvalue.Value {
	return &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}}
}

// A def is a $defs member the document's root (or another def) holds.
type def struct {
	name   string
	n      *node
	inside *def   // the def whose own $defs hold this one (nil: the root's)
	uri    string // its $id, when it has one, resolved
	id     string // its $id as written (relative, under another's $id), when not uri
	anchor string
}

// inResource reports whether d sits inside a def that has an $id: a JSON
// Pointer from the root would cross into that resource.
func (d *def) inResource() bool {
	for x := d.inside; x != nil; x = x.inside {
		if x.uri != "" {
			return true
		}
	}
	return false
}

// gen draws one case.
type gen struct {
	r      *rand.Rand
	knobs  uint64
	draft  Draft
	defs   []*def
	nodes  int // schema nodes drawn
	text   func() string
	broke  bool
	sites  []site
	params *node // the root: for "#" references
	ids    int
	// drawingSchema is true while a value is drawn for the schema itself
	// (an enum's): it records no site.
	drawingSchema bool
	fitOnly       bool // Options.Fit

	// What value1 allocates from, a few at a time: a draw makes tens
	// of values, each its own allocation before.
	vals     []jsonvalue.Value
	valChunk int // how many it allocated last
}

// value1 returns a new value, v: str, num, boolean, intv, arr and obj
// are the functions of the same names, drawing from g's arrays.
func (g *gen) value1(v jsonvalue.Value) *jsonvalue.Value {
	if len(g.vals) == 0 {
		g.valChunk = min(max(2*g.valChunk, 8), 32)
		g.vals = make([]jsonvalue.Value, g.valChunk)
	}
	p := &g.vals[0]
	g.vals = g.vals[1:]
	*p = v
	return p
}

func (g *gen) str(s string) *jsonvalue.Value {
	return g.value1(jsonvalue.Value{Kind: jsonvalue.String, Str: s})
}
func (g *gen) num(s string) *jsonvalue.Value {
	return g.value1(jsonvalue.Value{Kind: jsonvalue.Number, Number: s})
}
func (g *gen) boolean(b bool) *jsonvalue.Value {
	return g.value1(jsonvalue.Value{Kind: jsonvalue.Bool, Bool: b})
}
func (g *gen) intv(i int) *jsonvalue.Value { return g.num(strconv.Itoa(i)) }
func (g *gen) arr(xs ...*jsonvalue.Value) *jsonvalue.Value {
	if xs == nil {
		xs = []*jsonvalue.Value{}
	}
	return g.value1(jsonvalue.Value{Kind: jsonvalue.Array, Elems: xs})
}
func (g *gen) obj() *jsonvalue.Value {
	return g.value1(jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}})
}

// maxNodes bounds a schema's size: past it, leaves.
const maxNodes = 10

func newGen(seed uint64, o Options) *gen {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.knobs = g.r.Uint64()
	if o.Fit {
		g.knobs &^= unmodelled
		g.fitOnly = true
	}
	g.text = o.Text
	if g.text == nil {
		g.text = func() string { return pick(g.r, strs) }
	}
	if g.on(kSchemaKeyword) {
		g.draft = Draft(1 + g.r.IntN(5))
	}
	return g
}

// on reports whether knob k is on for this case.
func (g *gen) on(k int) bool {
	if k == kJSONText {
		return g.knobs&(1<<kJSONText|1<<kJSONText2) != 0
	}
	return g.knobs&(1<<k) != 0
}

// chance is true once in n.
func (g *gen) chance(n int) bool { return g.r.IntN(n) == 0 }

// document draws the tool's schema (an object of one to four
// parameters, or more) and arguments for it.
func (g *gen) document() (*jsonvalue.Value, *jsonvalue.Value) {
	root := newNode(tObject)
	g.params = root
	if g.draft != DraftNone {
		root.set("$schema", g.str(g.draft.URI()))
	}
	root.set("type", g.str("object"))
	props := g.obj()
	n := 1 + g.r.IntN(3)
	if g.on(kWide) {
		n += g.r.IntN(2)
	}
	for _, k := range g.keys(n) {
		c := g.schema(3)
		root.props = append(root.props, member{k, c})
		props.Members = append(props.Members, jsonvalue.Member{Key: k, Value: c.v})
	}
	root.set("properties", props)
	g.objectKeywords(root, 3)
	if g.on(kRecursion) && g.chance(4) {
		// A parameter that is the whole schema again.
		k := g.freshKey(root)
		c := g.refNode(root, "#")
		root.props = append(root.props, member{k, c})
		props.Members = append(props.Members, jsonvalue.Member{Key: k, Value: c.v})
	}
	g.writeDefs(root)
	args := g.objectValue(root, 3)
	g.sites = append(g.sites, site{args, root})
	g.breakOnce()
	return root.v, args
}

// keys draws n distinct keys.
func (g *gen) keys(n int) []string {
	var out []string
	for len(out) < n {
		k := g.key()
		dup := false
		for _, o := range out {
			dup = dup || o == k
		}
		if !dup {
			out = append(out, k)
		}
	}
	return out
}

func (g *gen) key() string {
	if g.on(kSpecialKeys) && g.chance(3) {
		return pick(g.r, specialKeys)
	}
	return pick(g.r, plainKeys)
}

// freshKey is a key n declares nothing for.
func (g *gen) freshKey(n *node) string {
	for {
		k := g.key()
		if !declares(n, k) {
			return k
		}
	}
}

func declares(n *node, k string) bool {
	for _, m := range n.props {
		if m.key == k {
			return true
		}
	}
	return false
}

// schema draws a schema of at most the given depth.
func (g *gen) schema(depth int) *node {
	g.nodes++
	if depth <= 0 || g.nodes > maxNodes {
		return g.leaf()
	}
	// The kinds this case enables, weighted (an array, not closures: this
	// runs for every subschema drawn).
	const (
		kindLeaf = iota
		kindArray
		kindObject
		kindCombinator
		kindRef
		kindBool
		kindRecursive
	)
	type kind struct{ w, k int }
	var kinds [7]kind
	n := copy(kinds[:], []kind{{3, kindLeaf}, {4, kindArray}, {4, kindObject}})
	if g.on(kAllOf) || g.on(kAnyOf) || g.on(kOneOf) {
		kinds[n], n = kind{2, kindCombinator}, n+1
	}
	if g.on(kRef) {
		kinds[n], n = kind{3, kindRef}, n+1
	}
	if g.on(kBoolSchema) && g.draft != Draft4 {
		// (Draft 4 has no boolean schemas.)
		kinds[n], n = kind{1, kindBool}, n+1
	}
	if g.on(kRecursion) {
		kinds[n], n = kind{1, kindRecursive}, n+1
	}
	total := 0
	for _, k := range kinds[:n] {
		total += k.w
	}
	x := g.r.IntN(total)
	for _, k := range kinds[:n] {
		if x >= k.w {
			x -= k.w
			continue
		}
		switch k.k {
		case kindArray:
			return g.array(depth)
		case kindObject:
			return g.object(depth)
		case kindCombinator:
			return g.combinator(depth)
		case kindRef:
			if g.chance(2) {
				// Where a $ref matters most: to an array or an object.
				return g.ref(g.container(depth - 1))
			}
			return g.ref(g.schema(depth - 1))
		case kindBool:
			n := newNode(tAll)
			n.v = g.boolean(true)
			return n
		case kindRecursive:
			return g.recursive(depth)
		}
		return g.leaf()
	}
	return g.leaf()
}

// container draws an array or an object schema.
func (g *gen) container(depth int) *node {
	g.nodes++
	if depth <= 0 || g.nodes > maxNodes {
		return g.leaf()
	}
	if g.chance(2) {
		return g.array(depth)
	}
	return g.object(depth)
}

// typeForm writes n's type keyword: a name, a list with null, a list
// mixing string with a container (which then admits string), nullable,
// or (sometimes) nothing.
func (g *gen) typeForm(n *node, main typeSet) {
	name := func(t typeSet) string {
		for _, tn := range typeNames {
			if tn.t == t {
				return tn.name
			}
		}
		return "string"
	}
	n.types = main
	switch x := g.r.IntN(8); {
	case x == 0 && g.on(kTypeList):
		other := tNull
		if main == tNull {
			other = tString
		}
		n.set("type", g.arr(g.str(name(main)), g.str(name(other))))
		n.types |= other
	case x == 1 && g.on(kTypeList):
		other := pick(g.r, []typeSet{tString, tNumber, tObject, tArray, tBool, tInteger})
		if other == main {
			other = tNull
		}
		if other == main {
			other = tString
		}
		n.set("type", g.arr(g.str(name(main)), g.str(name(other))))
		n.types |= other
	case x <= 3 && g.on(kStringContainer):
		container := main
		if main != tArray && main != tObject {
			container = pick(g.r, []typeSet{tArray, tObject})
		}
		list := []*jsonvalue.Value{g.str("string"), g.str(name(container))}
		if g.chance(2) {
			list[0], list[1] = list[1], list[0]
		}
		if g.chance(3) {
			list = append(list, g.str("null"))
			n.types |= tNull
		}
		n.set("type", g.arr(list...))
		n.types |= tString | container
	case x == 4 && g.on(kNullable):
		n.set("type", g.str(name(main)))
		n.set("nullable", g.boolean(true))
		n.types |= tNull
	case x == 5 && g.chance(2):
		n.types = tAll // no type: what it declares, nothing
	default:
		n.set("type", g.str(name(main)))
	}
}

// leaf draws a scalar schema with the validation keywords beside it.
func (g *gen) leaf() *node {
	n := newNode(0)
	g.typeForm(n, pick(g.r, []typeSet{tString, tString, tNumber, tInteger, tBoolean(), tNull}))
	g.constraints(n)
	return n
}

func tBoolean() typeSet { return tBool }

// array draws an array schema: items, a tuple, counts, contains.
func (g *gen) array(depth int) *node {
	n := newNode(0)
	g.typeForm(n, tArray)
	tuple := g.on(kTuple) && g.chance(3)
	switch {
	case tuple && g.useModern():
		var list []*jsonvalue.Value
		for range 1 + g.r.IntN(2) {
			c := g.schema(depth - 1)
			n.prefix = append(n.prefix, c)
			list = append(list, c.v)
		}
		n.set("prefixItems", g.arr(list...))
		if g.on(kItems) && g.chance(2) {
			c := g.schema(depth - 1)
			n.items = c
			n.set("items", c.v)
		}
	case tuple:
		var list []*jsonvalue.Value
		for range 1 + g.r.IntN(2) {
			c := g.schema(depth - 1)
			n.prefix = append(n.prefix, c)
			list = append(list, c.v)
		}
		n.set("items", g.arr(list...))
		if g.chance(2) {
			c := g.schema(depth - 1)
			n.items = c
			n.set("additionalItems", c.v)
		}
	case g.on(kItems) || g.chance(2):
		c := g.schema(depth - 1)
		if g.chance(3) {
			c = g.container(depth - 1)
		}
		n.items = c
		n.set("items", c.v)
		if g.on(kTuple) && g.chance(4) {
			// additionalItems beside an items schema says nothing.
			n.set("additionalItems", g.decoy(depth).v)
		}
	}
	g.constraints(n)
	g.applicators(n, depth)
	return n
}

// useModern says whether a tuple is written as prefixItems: the
// document's draft's own way, or, off-draft, the other.
func (g *gen) useModern() bool {
	modern := g.draft == DraftNone || g.draft == Draft2020
	if g.on(kOffDraft) && g.chance(3) {
		return !modern
	}
	return modern
}

// object draws an object schema: properties, patterns, additional
// members, and the keywords about members.
func (g *gen) object(depth int) *node {
	n := newNode(0)
	g.typeForm(n, tObject)
	props := g.obj()
	for _, k := range g.keys(1 + g.r.IntN(3)) {
		c := g.schema(depth - 1)
		n.props = append(n.props, member{k, c})
		props.Members = append(props.Members, jsonvalue.Member{Key: k, Value: c.v})
	}
	if g.on(kAllOf) && g.chance(6) {
		// The member's type declared in an allOf branch, its own
		// declaration saying nothing: the two apply together.
		i := g.r.IntN(len(n.props))
		if c := n.props[i].n; c.types != tAll && c.types.has(tArray|tObject) {
			inner := g.obj()
			inner.Members = append(inner.Members, jsonvalue.Member{Key: n.props[i].key, Value: c.v})
			branch := g.obj()
			branch.Members = append(branch.Members, jsonvalue.Member{Key: "properties", Value: inner})
			props.Members[i].Value = g.obj()
			props.Members[i].Value.Members = append(props.Members[i].Value.Members, jsonvalue.Member{Key: "description", Value: g.str("see allOf")})
			n.set("allOf", g.arr(branch))
		}
	}
	n.set("properties", props)
	g.objectKeywords(n, depth)
	g.constraints(n)
	g.applicators(n, depth)
	return n
}

// objectKeywords adds patternProperties, additionalProperties and the
// keywords about members to an object schema.
func (g *gen) objectKeywords(n *node, depth int) {
	if g.on(kPatternProps) && g.chance(2) {
		pp := g.obj()
		for range 1 + g.r.IntN(2) {
			p := pick(g.r, keyPatterns)
			if pp.Member(p.re) != nil {
				continue
			}
			c := g.schema(depth - 1)
			pp.Members = append(pp.Members, jsonvalue.Member{Key: p.re, Value: c.v})
			for _, k := range p.keys {
				if !declares(n, k) {
					n.props = append(n.props, member{k, c})
				}
			}
		}
		n.set("patternProperties", pp)
	}
	if g.on(kAdditionalProps) && g.chance(2) {
		if g.chance(3) {
			n.set("additionalProperties", g.boolean(false))
			n.closed = true
		} else {
			c := g.schema(depth - 1)
			if g.chance(2) {
				// Where it matters most: an array or an object.
				c = g.container(depth - 1)
			}
			n.addl = c
			n.set("additionalProperties", c.v)
		}
	}
	if g.on(kRequired) && len(n.props) > 0 && g.chance(2) {
		var req []*jsonvalue.Value
		for _, m := range n.props[:1+g.r.IntN(len(n.props))] {
			req = append(req, g.str(m.key))
			n.required = append(n.required, m.key)
		}
		n.set("required", g.arr(req...))
	}
	if g.on(kPropCount) && g.chance(2) {
		if g.chance(2) {
			n.minProps = g.r.IntN(3)
			n.set("minProperties", g.intv(n.minProps))
		} else {
			n.maxProps = 1 + g.r.IntN(4)
			n.set("maxProperties", g.intv(n.maxProps))
		}
	}
	if g.on(kPropertyNames) && g.chance(2) {
		n.keyMax = 8 + g.r.IntN(8)
		pn := g.obj()
		pn.Members = append(pn.Members, jsonvalue.Member{Key: "maxLength", Value: g.intv(n.keyMax)})
		if g.chance(2) {
			pn.Members = append(pn.Members, jsonvalue.Member{Key: "type", Value: g.str("string")})
		}
		n.set("propertyNames", pn)
	}
	if g.on(kDependent) && len(n.props) >= 2 && g.chance(2) {
		a, b := n.props[0].key, n.props[1].key
		oldDraft := !g.draft.modern()
		if g.on(kOffDraft) && g.chance(3) {
			oldDraft = !oldDraft
		}
		switch {
		case oldDraft:
			deps := g.obj()
			if g.chance(2) {
				deps.Members = append(deps.Members, jsonvalue.Member{Key: a, Value: g.arr(g.str(b))})
				n.depReq = append(n.depReq, [2]string{a, b})
			} else {
				deps.Members = append(deps.Members, jsonvalue.Member{Key: a, Value: g.decoyObject(depth).v})
			}
			n.set("dependencies", deps)
		case g.chance(2):
			dr := g.obj()
			dr.Members = append(dr.Members, jsonvalue.Member{Key: a, Value: g.arr(g.str(b))})
			n.depReq = append(n.depReq, [2]string{a, b})
			n.set("dependentRequired", dr)
		default:
			ds := g.obj()
			ds.Members = append(ds.Members, jsonvalue.Member{Key: a, Value: g.decoyObject(depth).v})
			n.set("dependentSchemas", ds)
		}
	}
	if g.on(kUnevaluated) && n.addl == nil && !n.closed && g.chance(3) {
		// Read by no one for the repair: a decoy for members nothing
		// else declares.
		d := g.decoy(depth)
		n.decoys = append(n.decoys, member{"", d})
		n.set("unevaluatedProperties", d.v)
	}
}

// decoy is a subschema the reference does not read for the repair (under
// not, if, dependentSchemas, unevaluated*, additionalItems beside an
// items schema) that declares a container: values drawn from it may be
// JSON text an implementation that reads it would decode.
func (g *gen) decoy(depth int) *node {
	g.nodes++
	n := newNode(0)
	g.typeForm(n, pick(g.r, []typeSet{tArray, tObject}))
	if depth > 1 && g.nodes < maxNodes && g.chance(2) {
		c := g.leaf()
		n.items = c
		n.set("items", c.v)
	}
	return n
}

// decoyObject is a decoy that declares members: {"properties":{k:{"type":"array"}}}.
func (g *gen) decoyObject(depth int) *node {
	n := newNode(tAll)
	if g.chance(2) {
		n.set("type", g.str("object"))
		n.types = tObject
	}
	props := g.obj()
	k := g.key()
	d := g.decoy(depth - 1)
	props.Members = append(props.Members, jsonvalue.Member{Key: k, Value: d.v})
	n.set("properties", props)
	n.decoys = append(n.decoys, member{k, d})
	return n
}

// applicators adds not, if/then/else and unevaluatedItems beside a
// schema, as decoys: what they hold is no declaration of the value's
// type.
func (g *gen) applicators(n *node, depth int) {
	if g.nodes >= maxNodes {
		return
	}
	if g.on(kNot) && g.chance(4) {
		d := g.decoy(depth)
		if n.types == tAll || !n.types.has(tArray|tObject) {
			n.set("not", d.v)
		} else {
			// not of a type the node does not draw.
			x := newNode(0)
			x.set("type", g.str("boolean"))
			n.set("not", x.v)
		}
	}
	if g.on(kIf) && g.chance(4) {
		draftOK := g.draft == DraftNone || g.draft >= Draft7 || g.on(kOffDraft)
		if draftOK {
			cond := newNode(tAll)
			cond.set("type", g.str(pick(g.r, []string{"string", "array", "object"})))
			n.set("if", cond.v)
			then := g.decoyObject(depth)
			n.set("then", then.v)
			n.decoys = append(n.decoys, then.decoys...)
			if g.chance(2) {
				n.set("else", g.decoy(depth).v)
			}
		}
	}
	if g.on(kUnevaluated) && n.types.has(tArray) && g.chance(4) {
		n.set("unevaluatedItems", g.decoy(depth).v)
	}
}

// constraints adds validation keywords beside the type form, each of
// those the case turned on, for the types the node admits (and, with
// kStray, for others).
func (g *gen) constraints(n *node) {
	stray := g.on(kStray) && g.chance(4)
	kinds := n.types
	if kinds == tAll {
		// Declaring nothing (a $ref, no type): one kind's keywords.
		kinds = pick(g.r, []typeSet{tString, tString, tNumber, tArray, tObject})
	}
	for_ := func(t typeSet) bool { return kinds.has(t) || stray }
	if for_(tString) {
		if g.on(kMaxLength) && g.chance(3) {
			n.maxLen = g.r.IntN(5)
			n.set("maxLength", g.intv(n.maxLen))
		}
		if g.on(kMinLength) && g.chance(3) {
			n.minLen = 1 + g.r.IntN(5)
			if n.maxLen >= 0 && n.minLen > n.maxLen {
				n.minLen = n.maxLen
			}
			n.set("minLength", g.intv(n.minLen))
		}
		if g.on(kPattern) && g.chance(4) {
			p := pick(g.r, patterns)
			n.pat = &p
			n.set("pattern", g.str(p.re))
		}
		if g.on(kFormat) && g.chance(4) {
			n.format = g.r.IntN(len(formatSpec))
			n.set("format", g.str(formatSpec[n.format].name))
		}
	}
	if for_(tNumber | tInteger) {
		if g.on(kNumeric) && g.chance(3) {
			n.bounded = true
			n.lo, n.hi = -g.r.IntN(3), 1+g.r.IntN(100)
			switch g.r.IntN(3) {
			case 0:
				n.set("minimum", g.intv(n.lo))
				n.set("maximum", g.intv(n.hi))
			case 1:
				if g.draft == Draft4 {
					n.set("minimum", g.intv(n.lo-1))
					n.set("exclusiveMinimum", g.boolean(true))
					n.set("maximum", g.intv(n.hi+1))
					n.set("exclusiveMaximum", g.boolean(true))
				} else {
					n.set("exclusiveMinimum", g.intv(n.lo-1))
					n.set("exclusiveMaximum", g.intv(n.hi+1))
				}
			default:
				n.multipleOf = 1 + g.r.IntN(3)
				n.set("multipleOf", g.intv(n.multipleOf))
				n.set("minimum", g.intv(n.lo))
				n.set("maximum", g.intv(n.hi))
			}
		}
	}
	if for_(tArray) {
		if g.on(kItemCount) && g.chance(3) {
			if g.chance(2) {
				n.minItems = g.r.IntN(3)
				n.set("minItems", g.intv(n.minItems))
			}
			if g.chance(2) {
				n.maxItems = max(n.minItems, 1+g.r.IntN(3))
				n.set("maxItems", g.intv(n.maxItems))
			}
		}
		if g.on(kUniqueItems) && g.chance(3) {
			n.unique = true
			n.set("uniqueItems", g.boolean(true))
		}
		if g.on(kContains) && n.items == nil && len(n.prefix) == 0 && g.chance(4) {
			c := newNode(0)
			g.typeForm(c, pick(g.r, []typeSet{tString, tNumber, tArray}))
			n.contains = c
			n.set("contains", c.v)
		}
	}
	scalarish := len(n.props) == 0 && n.items == nil && len(n.prefix) == 0
	if g.on(kEnum) && g.chance(4) && scalarish {
		var vals []*jsonvalue.Value
		for range 1 + g.r.IntN(3) {
			v := g.plain(n, 0)
			if !slices.ContainsFunc(vals, func(w *jsonvalue.Value) bool { return jsonvalue.Equal(v, w) }) {
				vals = append(vals, v) // the metaschemas want enum's items unique
			}
		}
		n.enum = vals
		n.set("enum", g.arr(vals...))
	} else if g.on(kConst) && g.chance(5) && scalarish && (g.draft != Draft4 || g.on(kOffDraft)) {
		v := g.plain(n, 0)
		n.enum = []*jsonvalue.Value{v}
		n.set("const", v)
	}
}

// combinator draws allOf, anyOf or oneOf around a schema.
func (g *gen) combinator(depth int) *node {
	var kinds []string
	for _, k := range []struct {
		knob int
		kw   string
	}{{kAllOf, "allOf"}, {kAnyOf, "anyOf"}, {kOneOf, "oneOf"}} {
		if g.on(k.knob) {
			kinds = append(kinds, k.kw)
		}
	}
	kw := pick(g.r, kinds)
	form := g.r.IntN(4) // of an allOf's second branch
	var first *node
	if kw == "allOf" && form == 3 {
		first = g.container(depth - 1)
	} else {
		first = g.schema(depth - 1)
	}
	if kw == "allOf" {
		// The first branch declares; the second adds a constraint, or a
		// type list that keeps the first's types.
		n := *first
		n.v = g.obj()
		second := newNode(tAll)
		switch form {
		case 0:
			second.set("description", g.str("x"))
		case 1:
			g.constraints(second)
			mergeConstraints(&n, second)
		case 2:
			if first.types != tAll {
				second.set("type", typeList(first.types|tString))
			}
		default:
			if first.types != tAll && g.on(kAnyOf) {
				// A union as a branch: the first's types, or null. Its
				// branches do not meet: read as allOf branches, they
				// admit nothing.
				a, b := newNode(tAll), newNode(tNull)
				a.set("type", typeList(first.types))
				b.set("type", g.str("null"))
				second.set("anyOf", g.arr(a.v, b.v))
			}
		}
		branches := []*jsonvalue.Value{first.v, second.v}
		if g.chance(2) {
			branches[0], branches[1] = branches[1], branches[0]
		}
		if g.chance(8) {
			branches = append(branches, g.boolean(true)) // true: every value, nothing declared
		}
		n.set("allOf", g.arr(branches...))
		return &n
	}
	n := newNode(tAll)
	n.alts = []*node{first}
	list := []*jsonvalue.Value{first.v}
	null := false
	for range 1 + g.r.IntN(2) {
		var b *node
		if !null && g.chance(2) {
			null = true // (one null branch: two would both match, and oneOf fail)
			b = newNode(tNull)
			b.set("type", g.str("null"))
		} else if kw == "anyOf" && g.chance(4) {
			// A branch that declares no type: it admits every value, and
			// leaves the union's type unknown. (Not in a oneOf, where it
			// would match beside the branch a value is drawn from.)
			b = newNode(tAll)
			b.set("description", g.str("anything"))
		} else {
			b = g.schema(depth - 1)
			if g.on(kRef) && g.chance(6) {
				b = g.ref(b) // a branch whose type comes through $ref
			}
		}
		n.alts = append(n.alts, b)
		list = append(list, b.v)
	}
	if g.chance(8) {
		// A boolean branch: false admits nothing and is no alternative;
		// true admits anything, and leaves the union's type unknown.
		if g.chance(2) {
			list = append(list, g.boolean(false))
		} else {
			t := newNode(tAll)
			t.v = g.boolean(true)
			n.alts = append(n.alts, t)
			list = append(list, t.v)
		}
	}
	n.set(kw, g.arr(list...))
	if !g.fitOnly && g.chance(4) {
		// A type beside the branches narrows them.
		g.typeForm(n, pick(g.r, []typeSet{tArray, tObject}))
		n.types = tAll
	}
	return n
}

// typeList is the type keyword for a set of types.
func typeList(t typeSet) *jsonvalue.Value {
	var list []*jsonvalue.Value
	for _, tn := range typeNames {
		if t.has(tn.t) {
			list = append(list, str(tn.name))
		}
	}
	return arr(list...)
}

func mergeConstraints(n, c *node) {
	if c.maxLen >= 0 {
		n.maxLen = c.maxLen
	}
	if c.minLen >= 0 {
		n.minLen = c.minLen
	}
	if c.pat != nil {
		n.pat = c.pat
	}
	if c.enum != nil {
		n.enum = c.enum
	}
	if c.bounded {
		n.bounded, n.lo, n.hi, n.multipleOf = true, c.lo, c.hi, c.multipleOf
	}
	if c.minItems >= 0 {
		n.minItems = c.minItems
	}
	if c.maxItems >= 0 {
		n.maxItems = c.maxItems
	}
	n.unique = n.unique || c.unique
}

// ref puts a schema into $defs (at the root, or deeper) and refers to it
// by pointer, by $id or by anchor.
func (g *gen) ref(target *node) *node {
	d := &def{name: pick(g.r, defNames) + strconv.Itoa(len(g.defs)), n: target}
	canName := target.v.Kind == jsonvalue.Object && target.v.Member("$ref") == nil && !localRef(target.v)
	if g.on(kDeepDefs) && len(g.defs) > 0 && g.chance(2) {
		// Inside another def's own $defs.
		outer := g.defs[g.r.IntN(len(g.defs))]
		switch {
		case outer.uri == "" && !outer.inResource() && outer.n.v.Kind == jsonvalue.Object:
			d.inside = outer
		case canName && strings.HasPrefix(outer.uri, "https://") && g.chance(2):
			// Inside a resource, with an $id relative to the resource's:
			// it resolves against the enclosing resource's base, not the
			// document's.
			d.inside = outer
			g.ids++
			d.id = "sub/t" + strconv.Itoa(g.ids) + ".json"
			d.uri = outer.uri[:strings.LastIndexByte(outer.uri, '/')+1] + d.id
			g.defs = append(g.defs, d)
			return g.refNode(target, d.uri)
		}
	}
	g.defs = append(g.defs, d)
	canName = canName && d.inside == nil
	switch {
	case canName && g.on(kID) && g.chance(2):
		g.ids++
		d.uri = "https://toolnorm.test/s" + strconv.Itoa(g.ids) + ".json"
		if g.chance(3) {
			d.uri = "urn:toolnorm:s" + strconv.Itoa(g.ids)
		}
		return g.refNode(target, d.uri)
	case canName && g.on(kAnchor) && g.chance(2):
		g.ids++
		d.anchor = "a" + strconv.Itoa(g.ids)
		return g.refNode(target, "#"+d.anchor)
	}
	n := g.refNode(target, g.pointer(d))
	if g.draft.modern() && target.v.Kind == jsonvalue.Object && g.chance(4) && n.v.Member("type") == nil && target.v.Member("nullable") == nil {
		// The target's type written beside the $ref instead: the same
		// schema, read only where the keywords beside a $ref are.
		if i := slices.IndexFunc(target.v.Members, func(m jsonvalue.Member) bool { return m.Key == "type" }); i >= 0 {
			n.set("type", target.v.Members[i].Value)
			target.v.Members = slices.Delete(target.v.Members, i, i+1)
		}
	}
	return n
}

// localRef reports whether a schema holds a reference by fragment ("#",
// "#/...", "#name"): under an $id it would resolve against that resource.
func localRef(v *jsonvalue.Value) bool {
	switch v.Kind {
	case jsonvalue.Array:
		for _, e := range v.Elems {
			if localRef(e) {
				return true
			}
		}
	case jsonvalue.Object:
		for _, m := range v.Members {
			if m.Key == "$ref" && m.Value.Kind == jsonvalue.String && len(m.Value.Str) > 0 && m.Value.Str[0] == '#' || localRef(m.Value) {
				return true
			}
		}
	}
	return false
}

// pointer is the JSON Pointer reference to a def.
func (g *gen) pointer(d *def) string {
	var toks []string
	for x := d; x != nil; x = x.inside {
		toks = append([]string{g.defsKeyword(), escapeToken(x.name)}, toks...)
	}
	s := "#"
	for _, t := range toks {
		s += "/" + t
	}
	return s
}

func escapeToken(s string) string {
	out := ""
	for _, r := range s {
		switch r {
		case '~':
			out += "~0"
		case '/':
			out += "~1"
		default:
			out += string(r)
		}
	}
	return out
}

// defsKeyword is where the document keeps its definitions.
func (g *gen) defsKeyword() string {
	if g.draft != DraftNone && g.draft < Draft2019 {
		return "definitions"
	}
	return "$defs"
}

// refNode is a {"$ref": ref} schema whose values are target's, with (from
// 2019-09 on, sometimes) a constraint beside it.
func (g *gen) refNode(target *node, ref string) *node {
	n := newNode(tAll)
	n.refTo = target
	n.set("$ref", g.str(ref))
	if g.draft.modern() && g.chance(4) {
		switch g.r.IntN(3) {
		case 0:
			n.set("description", g.str("a reference"))
		case 1:
			g.constraints(n)
		default:
			if target.types != tAll && target.types.has(tArray|tObject) {
				// A type list beside the $ref that admits string too.
				n.set("type", typeList(target.types|tString))
			}
		}
	} else if !g.draft.modern() && g.chance(6) {
		// Ignored beside $ref in drafts 4 to 7.
		n.set("type", g.str("string"))
	}
	return n
}

// recursive draws a tree: a def whose children refer back to it.
func (g *gen) recursive(depth int) *node {
	n := newNode(0)
	g.typeForm(n, tObject)
	d := &def{name: "tree" + strconv.Itoa(len(g.defs)), n: n}
	g.defs = append(g.defs, d)
	var self *node
	if g.on(kDynamic) && (g.draft == DraftNone || g.draft == Draft2020) && g.chance(2) {
		// The children by $dynamicRef to the tree's $dynamicAnchor: in one
		// resource it resolves as the anchor does.
		anchor := "node" + strconv.Itoa(len(g.defs))
		n.set("$dynamicAnchor", g.str(anchor))
		self = newNode(tAll)
		self.refTo = n
		self.set("$dynamicRef", g.str("#"+anchor))
	} else {
		self = g.refNode(n, g.pointer(d))
	}
	props := g.obj()
	name := g.schema(depth - 1)
	n.props = append(n.props, member{"name", name})
	props.Members = append(props.Members, jsonvalue.Member{Key: "name", Value: name.v})
	kids := newNode(0)
	g.typeForm(kids, tArray)
	kids.items = self
	kids.set("items", self.v)
	n.props = append(n.props, member{"children", kids})
	props.Members = append(props.Members, jsonvalue.Member{Key: "children", Value: kids.v})
	n.set("properties", props)
	n.recursive = true
	return g.refNode(n, g.pointer(d))
}

// writeDefs writes the defs into the root and into their outer defs, with
// their identifiers.
func (g *gen) writeDefs(root *node) {
	kw := g.defsKeyword()
	holders := map[*def]*jsonvalue.Value{}
	var rootDefs *jsonvalue.Value
	for _, d := range g.defs {
		v := d.n.v
		if d.uri != "" || d.anchor != "" {
			// The identifier goes into the target's own object.
			switch {
			case d.uri != "" && g.draft == Draft4:
				d.n.set("id", g.str(cmp.Or(d.id, d.uri)))
			case d.uri != "":
				d.n.set("$id", g.str(cmp.Or(d.id, d.uri)))
			case g.draft == Draft4:
				d.n.set("id", g.str("#"+d.anchor))
			case g.draft == Draft6 || g.draft == Draft7:
				d.n.set("$id", g.str("#"+d.anchor))
			default:
				d.n.set("$anchor", g.str(d.anchor))
			}
			if d.uri != "" && g.on(kSchemaKeyword) && g.draft.modern() && !g.fitOnly && g.chance(3) {
				// An embedded resource that names its own draft (one that
				// spells $id as its document does: which draft reads the
				// identifier is left open between the drafts).
				d.n.v.Members = append([]jsonvalue.Member{{Key: "$schema", Value: g.str(pick(g.r, []Draft{Draft2019, Draft2020}).URI())}}, d.n.v.Members...)
			}
		}
		var holder *jsonvalue.Value
		if d.inside == nil {
			if rootDefs == nil {
				rootDefs = g.obj()
			}
			holder = rootDefs
		} else {
			if holders[d.inside] == nil {
				holders[d.inside] = g.obj()
				d.inside.n.v.Members = append(d.inside.n.v.Members, jsonvalue.Member{Key: kw, Value: holders[d.inside]})
			}
			holder = holders[d.inside]
		}
		holder.Members = append(holder.Members, jsonvalue.Member{Key: d.name, Value: v})
		if strings.Contains(d.name, "~1") {
			// Beside "x~1", a def "x/" that declares nothing: what a
			// pointer to the first names when its ~0 is unescaped
			// before its ~1.
			holder.Members = append(holder.Members, jsonvalue.Member{Key: strings.ReplaceAll(d.name, "~1", "/"), Value: g.obj()})
		}
	}
	if rootDefs != nil {
		root.set(kw, rootDefs)
	}
}
