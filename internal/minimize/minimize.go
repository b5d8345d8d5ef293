// Package minimize is the one minimizer every finding goes through: it
// shrinks a failing case (a schema and arguments) while it still fails,
// to a case no single step of it keeps failing.
package minimize

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// maxTries bounds how many candidates one minimization tries.
const maxTries = 5000

// Minimize is MinimizeCut for callers that need not know whether it was
// cut short.
func Minimize(ctx context.Context, schema, args []byte, fails func(schema, args []byte) bool) ([]byte, []byte) {
	s, a, _ := MinimizeCut(ctx, schema, args, fails)
	return s, a
}

// A Candidate is a case the minimizer tries: a schema and arguments.
type Candidate struct{ Schema, Args []byte }

// MinimizeCut shrinks a failing case while fails holds, to a case
// that is 1-minimal: no single step below keeps the failure. The steps:
//
//   - drop an object member or an array element (arguments and schema);
//   - replace a container of the arguments by one of its members or
//     elements, the schema following when it declares that member through
//     properties or items;
//   - replace a subschema by {}, by one branch of its anyOf, oneOf or
//     allOf; replace its one-element type list by the type name
//     (["array"] by "array"), its prefixItems list of one schema, with
//     no items beside it, by items of that schema, or inline the local
//     $ref it holds;
//   - shorten a key of the arguments (to "", or by chunks), the schema's
//     properties and required following, and a pattern of the schema's
//     patternProperties;
//   - shorten a string of the arguments: replace one character reference
//     in it by what it decodes to, where that is shorter (&ampamp#1 by
//     &amp#1, then by &#1), or drop a chunk (a string that holds compact
//     JSON text is shrunk as JSON first, with these same steps; one that
//     holds JSON text once its references are decoded is tried as that
//     JSON text);
//   - simplify a number to 0 or 1.
//
// Text that is not JSON is shortened a byte range at a time. Chunks are
// halves, quarters and so on down to 1/256 of a string, and single
// characters in strings of up to 256 bytes. It stops after maxTries
// candidates or when ctx is done, and then says cut: the case is smaller,
// not minimal. It tries one candidate at a time, in the order
// MinimizeBatch's batches hold them.
func MinimizeCut(ctx context.Context, schema, args []byte, fails func(schema, args []byte) bool) (_, _ []byte, cut bool) {
	m := &minimizer{ctx: ctx, schema: schema, args: args, most: 1}
	m.first = func(cs []Candidate) int {
		if fails(cs[0].Schema, cs[0].Args) {
			return 0
		}
		return -1
	}
	return m.run()
}

// MaxBatch is the most candidates MinimizeBatch sends in one batch.
const MaxBatch = 32

// MinimizeBatch is MinimizeCut trying several candidates at a time: first
// is given them in the order MinimizeCut tries them, and returns the index
// of the first that fails (or -1 when none does; it need not run those
// after the first that fails). The minimizer keeps that one, so that for a
// fails that depends on the case alone the case it gives, its tries (the
// candidates up to each kept one, and all of a batch none of which fails)
// and where maxTries cuts it short are those of MinimizeCut: only the
// candidates after a kept one in its batch are run besides, and counted
// nowhere. A batch starts at one candidate and doubles, up to MaxBatch,
// after each batch none of which fails; a kept candidate starts it at one
// again (the next candidate is often kept too). ctx is looked at while a
// batch is made, not while first runs it.
func MinimizeBatch(ctx context.Context, schema, args []byte, first func([]Candidate) int) (_, _ []byte, cut bool) {
	m := &minimizer{ctx: ctx, schema: schema, args: args, first: first, most: MaxBatch}
	return m.run()
}

func (m *minimizer) run() (_, _ []byte, cut bool) {
	m.size = 1
	m.tried = map[[2]uint64]bool{}
	m.seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	for changed := true; changed && !m.cut; {
		changed = false
		for _, st := range []func() bool{m.dropArgs, m.dropSchema, m.liftArgs, m.subschemas, m.keys, m.strings, m.numbers, m.bytes} {
			if st() {
				changed = true
			}
		}
	}
	return m.schema, m.args, m.cut
}

type minimizer struct {
	ctx          context.Context
	first        func([]Candidate) int
	most, size   int // the largest batch, the next batch's size
	tries        int
	cut          bool
	schema, args []byte
	// tried holds the candidates judged and not kept, by key: one made
	// again (a later pass, another step) is known not to fail, and is not
	// tried again: some 28% of the candidates of a check's minimizations
	// were such repeats, when it was measured.
	tried map[[2]uint64]bool
	seeds [2]maphash.Seed
}

// key is a candidate's key in tried: two hashes of its schema and
// arguments, 128 bits (a collision, at 5,000 candidates, is as likely as
// 1 in 10^31; it would keep a candidate untried, no more).
func (m *minimizer) key(c Candidate) [2]uint64 {
	var k [2]uint64
	for i, seed := range m.seeds {
		var h maphash.Hash
		h.SetSeed(seed)
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(c.Schema)))
		h.Write(n[:])
		h.Write(c.Schema)
		h.Write(c.Args)
		k[i] = h.Sum64()
	}
	return k
}

// An item is a candidate and where it comes from in a step (a node, a
// byte range), for the step to go on from there once it is kept.
type item struct {
	Candidate
	at [2]int
}

// keep pulls candidates from next (false: none left) and tries them in
// batches, in order; it keeps the first that fails and reports where it
// came from. A candidate that is the case as it is is not tried (nor
// counted). It reports false when none was kept: next ran dry, the tries
// ran out or ctx is done (then m.cut).
func (m *minimizer) keep(next func() (item, bool)) ([2]int, bool) {
	var batch []Candidate
	var at [][2]int
	var keys [][2]uint64
	for !m.cut {
		batch, at, keys = batch[:0], at[:0], keys[:0]
		dry := false
		for len(batch) < m.size {
			it, ok := next()
			if !ok {
				dry = true
				break
			}
			if bytes.Equal(it.Schema, m.schema) && bytes.Equal(it.Args, m.args) {
				continue
			}
			k := m.key(it.Candidate)
			if m.tried[k] || slices.Contains(keys, k) {
				continue // tried already, or about to be
			}
			if m.tries+len(batch) >= maxTries || m.ctx.Err() != nil {
				m.cut = true
				break
			}
			batch, at, keys = append(batch, it.Candidate), append(at, it.at), append(keys, k)
		}
		if len(batch) == 0 {
			return [2]int{}, false
		}
		j := m.first(batch)
		if j < 0 || j >= len(batch) {
			j = len(batch)
		}
		for _, k := range keys[:j] { // judged, and not kept
			m.tried[k] = true
		}
		if j < len(batch) {
			m.tries += j + 1
			m.schema, m.args = batch[j].Schema, batch[j].Args
			m.cut, m.size = false, 1 // the candidate after the cut was never tried
			return at[j], true
		}
		m.tries += len(batch)
		m.size = min(m.size*2, m.most)
		if dry {
			return [2]int{}, false
		}
	}
	return [2]int{}, false
}

// A cand is a candidate: a new tree for the arguments and, when the schema
// follows, for the schema (nil: as it is). A candidate that changes one
// node of the tree each walks is a patch of the tree's text instead of a
// new tree (args nil): that is the same text, without a copy of the tree.
type cand struct {
	args, schema *jsonvalue.Value
	patch        *patch
}

// A patch changes one node of a tree's compact text (as Append writes
// it): it drops the node (a member with its key), or replaces its key's
// text (key) or its value's by text.
type patch struct {
	n         *node
	drop, key bool
	text      []byte
}

// A span is where a node stands in its tree's compact text: its value
// from start to end, its key (a member's) from key, else -1.
type span struct{ key, start, end int }

// spans returns root's compact text (Append's) and the span of each node
// of walk(root), in the same order.
func spans(root *jsonvalue.Value) ([]byte, []span) {
	var text []byte
	var out []span
	var rec func(v *jsonvalue.Value, key int)
	rec = func(v *jsonvalue.Value, key int) {
		i := len(out)
		out = append(out, span{key: key, start: len(text)})
		switch v.Kind {
		case jsonvalue.Array:
			text = append(text, '[')
			for j, e := range v.Elems {
				if j > 0 {
					text = append(text, ',')
				}
				rec(e, -1)
			}
			text = append(text, ']')
		case jsonvalue.Object:
			text = append(text, '{')
			for j, mb := range v.Members {
				if j > 0 {
					text = append(text, ',')
				}
				k := len(text)
				text = append(jsonraw.AppendQuote(text, []byte(mb.Key)), ':')
				rec(mb.Value, k)
			}
			text = append(text, '}')
		default:
			text = v.Append(text)
		}
		out[i].end = len(text)
	}
	rec(root, -1)
	return text, out
}

// apply is text with the patch made; sp are the spans of text's nodes.
func (p *patch) apply(text []byte, sp []span) []byte {
	s := sp[p.n.i]
	lo, hi, with := s.start, s.end, p.text
	switch {
	case p.drop:
		if s.key >= 0 {
			lo = s.key
		}
		siblings := len(p.n.parent.Elems) + len(p.n.parent.Members)
		if p.n.at > 0 {
			lo-- // the comma before it
		} else if siblings > 1 {
			hi++ // the comma after it
		}
		with = nil
	case p.key:
		lo, hi = s.key, s.start-1 // the key, up to its colon
	}
	out := make([]byte, 0, len(text)-(hi-lo)+len(with))
	return append(append(append(out, text[:lo]...), with...), text[hi:]...)
}

// checkPatches makes each build every patched candidate as a tree too
// and panic when the texts differ (for tests).
var checkPatches = false

// tree is what the patch makes of root, as a new tree.
func (p *patch) tree(root *jsonvalue.Value) *jsonvalue.Value {
	switch {
	case p.drop:
		return dropAt(root, p.n)
	case p.key:
		k, err := jsonvalue.Parse(p.text)
		if err != nil || k.Kind != jsonvalue.String {
			panic(fmt.Sprintf("a key's text %q: %v", p.text, err))
		}
		path := p.n.path()
		r, parent := copyPath(root, path[:len(path)-1])
		parent.Members[p.n.at].Key = k.Str
		return r
	}
	v, err := jsonvalue.Parse(p.text)
	if err != nil {
		panic(err)
	}
	return edit(root, p.n.path(), func(*jsonvalue.Value) *jsonvalue.Value { return v })
}

// A lazy builds a candidate when it is tried: a step lists many.
type lazy func() cand

// each runs gen on each node of a tree (the arguments when args, else the
// schema), in pre-order, trying its candidates; after a candidate is kept
// it goes on at the same node of the new tree. It reports whether one was
// kept.
func (m *minimizer) each(args bool, gen func(root *jsonvalue.Value, n *node, schema *jsonvalue.Value) []lazy) bool {
	kept := false
	for i := 0; !m.cut; {
		root, schema := m.trees()
		tree := schema
		if args {
			tree = root
		}
		if tree == nil {
			return kept
		}
		nodes := walk(tree)
		text, sp := spans(tree)
		ni, at := i, 0
		var pending []lazy
		next := func() (item, bool) {
			for len(pending) == 0 {
				if ni >= len(nodes) {
					return item{}, false
				}
				pending, at = gen(tree, nodes[ni], schema), ni
				ni++
			}
			c := pending[0]()
			pending = pending[1:]
			a, s := m.args, m.schema
			t := []byte(nil)
			switch {
			case c.patch != nil:
				t = c.patch.apply(text, sp)
				if checkPatches {
					if want := c.patch.tree(tree).Append(nil); !bytes.Equal(t, want) {
						panic(fmt.Sprintf("patch of %.200q gives %.200q, its tree %.200q", text, t, want))
					}
				}
			case c.args != nil:
				t = c.args.Append(nil)
			}
			if t != nil && args {
				a = t
			}
			if t != nil && !args {
				s = t
			}
			if c.schema != nil {
				s = c.schema.Append(nil)
			}
			return item{Candidate{s, a}, [2]int{at}}, true
		}
		where, ok := m.keep(next)
		if !ok {
			return kept
		}
		kept, i = true, where[0]
	}
	return kept
}

// trees parses the current case; a text that is not JSON is nil.
func (m *minimizer) trees() (args, schema *jsonvalue.Value) {
	args, _ = jsonvalue.Parse(m.args)
	schema, _ = jsonvalue.Parse(m.schema)
	return args, schema
}

// A node is a value in a tree, where it is.
type node struct {
	i      int // its place in walk's order
	v      *jsonvalue.Value
	parent *jsonvalue.Value // nil for the root
	at     int              // its index among parent's members or elements
	up     *node
	kids   []*node // its members' and elements' nodes
	step   pathStep
}

// path is the steps from the root to n.
func (n *node) path() []pathStep {
	depth := 0
	for u := n; u.up != nil; u = u.up {
		depth++
	}
	p := make([]pathStep, depth)
	for ; n.up != nil; n = n.up {
		depth--
		p[depth] = n.step
	}
	return p
}

type pathStep struct {
	key   string
	index int // -1 for a member
	// pos is a member's place among its object's members plus one, or 0:
	// the first member of the key (a key may be there twice).
	pos int
}

// member is the index of the member st names in the members of v, or -1.
func member(v *jsonvalue.Value, st pathStep) int {
	if st.pos > 0 && st.pos <= len(v.Members) && v.Members[st.pos-1].Key == st.key {
		return st.pos - 1
	}
	for i, mb := range v.Members {
		if mb.Key == st.key {
			return i
		}
	}
	return -1
}

func walk(root *jsonvalue.Value) []*node {
	var out []*node
	var rec func(n *node)
	rec = func(n *node) {
		n.i = len(out)
		out = append(out, n)
		if n.up != nil {
			n.up.kids = append(n.up.kids, n)
		}
		switch n.v.Kind {
		case jsonvalue.Object:
			for i, mb := range n.v.Members {
				rec(&node{v: mb.Value, parent: n.v, at: i, up: n, step: pathStep{key: mb.Key, index: -1, pos: i + 1}})
			}
		case jsonvalue.Array:
			for i, e := range n.v.Elems {
				rec(&node{v: e, parent: n.v, at: i, up: n, step: pathStep{index: i}})
			}
		}
	}
	rec(&node{v: root})
	return out
}

// edit returns a copy of root with the node at path replaced by what f
// makes of its copy (nil: removed from its parent). The copy shares what
// is off the path with root, and f is given a copy of the node's own
// level alone (its elements and members are root's): neither is changed
// in place.
func edit(root *jsonvalue.Value, path []pathStep, f func(v *jsonvalue.Value) *jsonvalue.Value) *jsonvalue.Value {
	if len(path) == 0 {
		return f(shallow(root))
	}
	root, parent := copyPath(root, path[:len(path)-1])
	if parent == nil {
		return root
	}
	last := path[len(path)-1]
	if last.index < 0 {
		if i := member(parent, last); i >= 0 {
			if nv := f(shallow(parent.Members[i].Value)); nv == nil {
				parent.Members = slices.Delete(parent.Members, i, i+1)
			} else {
				parent.Members[i].Value = nv
			}
		}
	} else if last.index >= len(parent.Elems) {
		return root
	} else if nv := f(shallow(parent.Elems[last.index])); nv == nil {
		parent.Elems = slices.Delete(parent.Elems, last.index, last.index+1)
	} else {
		parent.Elems[last.index] = nv
	}
	return root
}

// shallow is a copy of v's own level: its lists of elements and members
// are its own, the values in them v's.
func shallow(v *jsonvalue.Value) *jsonvalue.Value {
	c := *v
	c.Elems, c.Members = slices.Clone(v.Elems), slices.Clone(v.Members)
	return &c
}

// copyPath returns a copy of root in which the values along path are
// copies of their level (shallow), and the last of them, or nil when path
// leads nowhere.
func copyPath(root *jsonvalue.Value, path []pathStep) (_, last *jsonvalue.Value) {
	root = shallow(root)
	v := root
	for _, st := range path {
		switch {
		case st.index >= 0 && v.Kind == jsonvalue.Array && st.index < len(v.Elems):
			v.Elems[st.index] = shallow(v.Elems[st.index])
			v = v.Elems[st.index]
		case st.index < 0 && v.Kind == jsonvalue.Object:
			i := member(v, st)
			if i < 0 {
				return root, nil
			}
			v.Members[i].Value = shallow(v.Members[i].Value)
			v = v.Members[i].Value
		default:
			return root, nil
		}
	}
	return root, v
}

// find returns the value at path (a member where it stands, or the first
// of its key).
func find(v *jsonvalue.Value, path []pathStep) *jsonvalue.Value {
	for _, st := range path {
		if v == nil {
			return nil
		}
		if st.index >= 0 {
			if v.Kind != jsonvalue.Array || st.index >= len(v.Elems) {
				return nil
			}
			v = v.Elems[st.index]
			continue
		}
		if v.Kind != jsonvalue.Object {
			return nil
		}
		i := member(v, st)
		if i < 0 {
			return nil
		}
		v = v.Members[i].Value
	}
	return v
}

func clone(v *jsonvalue.Value) *jsonvalue.Value {
	c := *v
	c.Elems = nil
	c.Members = nil
	for _, e := range v.Elems {
		c.Elems = append(c.Elems, clone(e))
	}
	for _, mb := range v.Members {
		c.Members = append(c.Members, jsonvalue.Member{Key: mb.Key, Value: clone(mb.Value)})
	}
	return &c
}

// drop: a member or an element removed.
func dropGen(root *jsonvalue.Value, n *node, _ *jsonvalue.Value) []lazy {
	if n.parent == nil {
		return nil
	}
	return []lazy{func() cand { return cand{patch: &patch{n: n, drop: true}} }}
}

// dropAt removes the node (the member at its index, which may share its
// key with another).
func dropAt(root *jsonvalue.Value, n *node) *jsonvalue.Value {
	path := n.path()
	root, parent := copyPath(root, path[:len(path)-1])
	if parent == nil {
		return root
	}
	if path[len(path)-1].index < 0 {
		parent.Members = slices.Delete(parent.Members, n.at, n.at+1)
	} else {
		parent.Elems = slices.Delete(parent.Elems, n.at, n.at+1)
	}
	return root
}

func (m *minimizer) dropArgs() bool {
	return m.each(true, func(root *jsonvalue.Value, n *node, schema *jsonvalue.Value) []lazy {
		if inChain(n) {
			// Cut from the chain's top (chainCuts): dropped here, each
			// level is a try of its own.
			return nil
		}
		return append(chainCuts(root, n, schema), dropGen(root, n, schema)...)
	})
}

// inChain reports whether n is two levels or more into a chain of single
// containers.
func inChain(n *node) bool {
	return n.up != nil && n.up.up != nil && n.up.up.parent != nil && onlyChild(n.parent) == n.v && onlyChild(n.up.parent) == n.parent
}
func (m *minimizer) dropSchema() bool { return m.each(false, dropGen) }

// liftArgs replaces a container of the arguments by one of its members or
// elements (the arguments stay an object): first with the schema
// following, then without.
func (m *minimizer) liftArgs() bool {
	// declaring is the subschema that declares node n through properties
	// and items, or nil, kept for each node of one schema: a node's is
	// its parent's one step on, so that a chain nested thousands deep,
	// whose schema declares nothing that deep, is not walked from its
	// root for each node.
	var declared map[*node]*jsonvalue.Value
	var of *jsonvalue.Value
	var declaring func(n *node, schema *jsonvalue.Value) *jsonvalue.Value
	declaring = func(n *node, schema *jsonvalue.Value) *jsonvalue.Value {
		if schema != of {
			declared, of = map[*node]*jsonvalue.Value{}, schema
		}
		if n.up == nil {
			return schema
		}
		d, ok := declared[n]
		if !ok {
			if up := declaring(n.up, schema); up != nil {
				d = schemaStep(up, n.step)
			}
			declared[n] = d
		}
		return d
	}
	return m.each(true, func(root *jsonvalue.Value, n *node, schema *jsonvalue.Value) []lazy {
		var out []lazy
		children := n.v.Elems
		var keys []string
		var path []pathStep
		for _, mb := range n.v.Members {
			children = append(children, mb.Value)
			keys = append(keys, mb.Key)
		}
		for i, c := range children {
			if c.Kind != jsonvalue.Object && c.Kind != jsonvalue.Array {
				continue
			}
			if n.parent == nil && c.Kind != jsonvalue.Object {
				continue
			}
			lifted := func() *patch { return &patch{n: n, text: c.Append(nil)} }
			if schema != nil {
				step := pathStep{index: i}
				if n.v.Kind == jsonvalue.Object {
					step = pathStep{key: keys[i], index: -1}
				}
				if own := declaring(n, schema); own != nil {
					if sub := schemaStep(own, step); sub != nil {
						if path == nil {
							path = n.path() // once for the node's children
						}
						if s := liftSchema(schema, path, sub); s != nil {
							out = append(out, func() cand { return cand{patch: lifted(), schema: s} })
						}
					}
				}
			}
			out = append(out, func() cand { return cand{patch: lifted()} })
		}
		return out
	})
}

// chainCuts lifts, for a node of the arguments at the top of a chain of
// single containers (nesting hundreds deep), the container half the
// chain down, a quarter and so on: a case that fails from some depth is
// cut to it in tens of tries, where dropping the innermost element cut
// one level a try (the Python example's depth error cost its check 980
// requests of 600 levels).
func chainCuts(root *jsonvalue.Value, n *node, _ *jsonvalue.Value) []lazy {
	// From the top of a chain only: cuts made lower down give the same
	// texts, or one a level, which is what they are to avoid.
	if n.parent == nil || n.up.parent != nil && onlyChild(n.parent) == n.v {
		return nil
	}
	var chain []*jsonvalue.Value
	for last := n.v; len(chain) < 1<<16; {
		next := onlyChild(last)
		if next == nil {
			break
		}
		chain, last = append(chain, next), next
	}
	var out []lazy
	for k := len(chain) / 2; k >= 1; k /= 2 {
		d := chain[k-1]
		out = append(out, func() cand { return cand{patch: &patch{n: n, text: d.Append(nil)}} })
	}
	return out
}

// onlyChild is v's one member or element when v has exactly one and it
// is a container, else nil.
func onlyChild(v *jsonvalue.Value) *jsonvalue.Value {
	var c *jsonvalue.Value
	switch {
	case len(v.Elems) == 1 && len(v.Members) == 0:
		c = v.Elems[0]
	case len(v.Members) == 1 && len(v.Elems) == 0:
		c = v.Members[0].Value
	}
	if c == nil || c.Kind != jsonvalue.Object && c.Kind != jsonvalue.Array {
		return nil
	}
	return c
}

// liftSchema returns the schema with the subschema that declares the
// value at path (through properties and items alone) replaced by sub, the
// one that subschema declares for a child of the value.
func liftSchema(schema *jsonvalue.Value, path []pathStep, sub *jsonvalue.Value) *jsonvalue.Value {
	ownPath := make([]pathStep, 0, 2*len(path))
	for _, p := range path {
		if p.index >= 0 {
			ownPath = append(ownPath, pathStep{key: "items", index: -1})
		} else {
			ownPath = append(ownPath, pathStep{key: "properties", index: -1}, pathStep{key: p.key, index: -1})
		}
	}
	return edit(schema, ownPath, func(old *jsonvalue.Value) *jsonvalue.Value {
		nv := clone(sub)
		if len(ownPath) == 0 && old.Kind == jsonvalue.Object && nv.Kind == jsonvalue.Object {
			// The root keeps what references may point at.
			for _, mb := range old.Members {
				if (mb.Key == "$defs" || mb.Key == "definitions") && nv.Member(mb.Key) == nil {
					nv.Members = append(nv.Members, mb)
				}
			}
		}
		return nv
	})
}

// schemaStep is the subschema of v that declares the child p names of a
// value v declares: an element's under "items", a member's under
// "properties" and its key; nil where v has none.
func schemaStep(v *jsonvalue.Value, p pathStep) *jsonvalue.Value {
	if p.index >= 0 {
		return find(v, []pathStep{{key: "items", index: -1}})
	}
	return find(v, []pathStep{{key: "properties", index: -1}, {key: p.key, index: -1}})
}

// subschemas replaces an object of the schema by {}, by one branch of its
// anyOf, oneOf or allOf, or by itself with its one-element type list
// replaced by the type name, or with its local $ref inlined.
func (m *minimizer) subschemas() bool {
	return m.each(false, func(root *jsonvalue.Value, n *node, _ *jsonvalue.Value) []lazy {
		v := n.v
		if v.Kind != jsonvalue.Object || len(v.Members) == 0 {
			return nil
		}
		replace := func(nv func() *jsonvalue.Value) lazy {
			return func() cand { return cand{patch: &patch{n: n, text: nv().Append(nil)}} }
		}
		out := []lazy{replace(func() *jsonvalue.Value { return &jsonvalue.Value{Kind: jsonvalue.Object} })}
		for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
			if b := v.Member(kw); b != nil && b.Kind == jsonvalue.Array {
				for _, e := range b.Elems {
					out = append(out, replace(func() *jsonvalue.Value { return clone(e) }))
				}
			}
		}
		for i, mb := range v.Members {
			// A type list of one name says what the name says, in more
			// words (a failure about lists keeps the list).
			if mb.Key == "type" && mb.Value.Kind == jsonvalue.Array && len(mb.Value.Elems) == 1 && mb.Value.Elems[0].Kind == jsonvalue.String {
				out = append(out, func() cand { return cand{patch: &patch{n: n.kids[i], text: mb.Value.Elems[0].Append(nil)}} })
			}
		}
		// A prefixItems list of one schema, with no items beside it,
		// declares the element in the words of one draft: items says it
		// in every draft's (a failure about prefixItems keeps the list).
		if p := v.Member("prefixItems"); p != nil && p.Kind == jsonvalue.Array && len(p.Elems) == 1 && v.Member("items") == nil {
			out = append(out, replace(func() *jsonvalue.Value {
				nv := &jsonvalue.Value{Kind: jsonvalue.Object}
				for _, mb := range v.Members {
					if mb.Key == "prefixItems" {
						mb = jsonvalue.Member{Key: "items", Value: clone(p.Elems[0])}
					}
					nv.Members = append(nv.Members, mb)
				}
				return nv
			}))
		}
		if ref := v.Member("$ref"); ref != nil && ref.Kind == jsonvalue.String {
			// A target that holds a $ref itself is not inlined: through a
			// cycle that would unroll it one level at a time, each a
			// larger case that fails, and the steps that take a branch
			// would fold it back, without end. Chains are inlined from
			// their last link.
			if t := root.Resolve(ref.Str); t != nil && t != v && !holdsRef(t) {
				out = append(out, replace(func() *jsonvalue.Value {
					nv := clone(t)
					if nv.Kind == jsonvalue.Object {
						for _, mb := range v.Members {
							if mb.Key != "$ref" && nv.Member(mb.Key) == nil {
								nv.Members = append(nv.Members, jsonvalue.Member{Key: mb.Key, Value: clone(mb.Value)})
							}
						}
					}
					return nv
				}))
			}
		}
		return out
	})
}

// holdsRef reports whether v, or a value inside it, has a "$ref" member.
func holdsRef(v *jsonvalue.Value) bool {
	if v.Member("$ref") != nil {
		return true
	}
	for _, m := range v.Members {
		if holdsRef(m.Value) {
			return true
		}
	}
	return slices.ContainsFunc(v.Elems, holdsRef)
}

// keys shortens the keys of the arguments' objects: to "", then by
// chunks; the schema's properties and required follow. Then it shortens
// the patterns of the schema's patternProperties the same way.
func (m *minimizer) keys() bool {
	args := m.each(true, func(root *jsonvalue.Value, n *node, schema *jsonvalue.Value) []lazy {
		if n.v.Kind != jsonvalue.Object {
			return nil
		}
		var out []lazy
		for i, mb := range n.v.Members {
			for _, k := range shorter(mb.Key) {
				if n.v.Member(k) != nil {
					continue
				}
				renamed := func() *patch {
					return &patch{n: n.kids[i], key: true, text: jsonraw.AppendQuote(nil, []byte(k))}
				}
				if schema != nil {
					if s := renameKey(schema, mb.Key, k); s != nil {
						out = append(out, func() cand { return cand{patch: renamed(), schema: s} })
					}
				}
				out = append(out, func() cand { return cand{patch: renamed()} })
			}
		}
		return out
	})
	// The patterns of patternProperties, which no key of the arguments
	// follows.
	patterns := m.each(false, func(root *jsonvalue.Value, n *node, _ *jsonvalue.Value) []lazy {
		if n.v.Kind != jsonvalue.Object || n.up == nil || n.step.key != "patternProperties" {
			return nil
		}
		var out []lazy
		for i, mb := range n.v.Members {
			for _, k := range shorter(mb.Key) {
				if n.v.Member(k) == nil {
					out = append(out, func() cand {
						return cand{patch: &patch{n: n.kids[i], key: true, text: jsonraw.AppendQuote(nil, []byte(k))}}
					})
				}
			}
		}
		return out
	})
	return args || patterns
}

// renameKey returns schema with each member of a properties object named
// old, and each element old of a required list, renamed new; nil when it
// has none.
func renameKey(schema *jsonvalue.Value, old, new string) *jsonvalue.Value {
	s := clone(schema)
	changed := false
	var rec func(v *jsonvalue.Value)
	rec = func(v *jsonvalue.Value) {
		switch v.Kind {
		case jsonvalue.Object:
			for i := range v.Members {
				mb := &v.Members[i]
				switch {
				case mb.Key == "properties" && mb.Value.Kind == jsonvalue.Object:
					for j := range mb.Value.Members {
						if mb.Value.Members[j].Key == old && mb.Value.Member(new) == nil {
							mb.Value.Members[j].Key, changed = new, true
						}
					}
				case mb.Key == "required" && mb.Value.Kind == jsonvalue.Array:
					for _, e := range mb.Value.Elems {
						if e.Kind == jsonvalue.String && e.Str == old {
							e.Str, changed = new, true
						}
					}
				}
				rec(mb.Value)
			}
		case jsonvalue.Array:
			for _, e := range v.Elems {
				rec(e)
			}
		}
	}
	rec(s)
	if !changed {
		return nil
	}
	return s
}

// shorter lists the shorter forms of s to try: "", then s without a
// chunk (see MinimizeCut), each cut on character boundaries.
func shorter(s string) []string {
	if s == "" {
		return nil
	}
	out := []string{""}
	for size, n := len(s)/2, 0; size >= 1 && n < 8; size, n = size/2, n+1 {
		for i := 0; i+size <= len(s); i += size {
			if boundary(s, i) && boundary(s, i+size) {
				out = append(out, s[:i]+s[i+size:])
			}
		}
	}
	if len(s) <= 256 {
		for i := 0; i < len(s); {
			j := i + 1
			for j < len(s) && !boundary(s, j) {
				j++
			}
			out = append(out, s[:i]+s[j:])
			i = j
		}
	}
	return dedupe(out, s)
}

// shorterText lists the shorter forms of a string of the arguments to
// try: "", then s with one character reference decoded, then s without a
// chunk.
func shorterText(s string) []string {
	if s == "" {
		return nil
	}
	return dedupe(append(append([]string{""}, decodedRefs(s)...), shorter(s)...), s)
}

// decodedRefs lists s with one of its character references replaced by
// what it decodes to (as text decodes it: a legacy name stands without its
// ';'), each where that makes s's JSON text shorter. A failure about what a
// reference stands for keeps failing in fewer words (&ampamp#1, &amp#1,
// &#1), which chunks cannot reach; a reference to a character that JSON
// escapes at more length (&#1, \u0001) stays.
func decodedRefs(s string) []string {
	b := []byte(s)
	var out []string
	for i, c := range b {
		if c != '&' {
			continue
		}
		r1, r2, n := entity.Decide(b[i:], entity.Text)
		if n == 0 {
			continue
		}
		d := string(r1)
		if r2 != 0 {
			d += string(r2)
		}
		// A reference is ASCII that JSON writes as it is: n bytes.
		if len(jsonraw.AppendQuote(nil, []byte(d)))-2 < n {
			out = append(out, s[:i]+d+s[i+n:])
		}
	}
	return out
}

func dedupe(list []string, not string) []string {
	var out []string
	var seen map[string]bool // for a long list: comparing each with all kept was quadratic
	if len(list) > 16 {
		seen = make(map[string]bool, len(list))
	}
	for _, s := range list {
		if s == not || seen != nil && seen[s] || seen == nil && slices.Contains(out, s) {
			continue
		}
		if seen != nil {
			seen[s] = true
		}
		out = append(out, s)
	}
	return out
}

// strings shortens the strings of the arguments (shorterText); a string
// that holds compact JSON text is first shrunk as JSON.
func (m *minimizer) strings() bool {
	return m.each(true, func(root *jsonvalue.Value, n *node, _ *jsonvalue.Value) []lazy {
		if n.v.Kind != jsonvalue.String {
			return nil
		}
		var out []lazy
		set := func(s string) lazy {
			return func() cand { return cand{patch: &patch{n: n, text: jsonraw.AppendQuote(nil, []byte(s))}} }
		}
		for _, s := range innerJSON(n.v.Str) {
			out = append(out, set(s))
		}
		// Stringified JSON with its quotes escaped as references: the
		// JSON text it stands for, as JSON, then shrunk.
		if dec, _ := entity.Decode([]byte(n.v.Str), entity.Text, 0); string(dec) != n.v.Str {
			if v, err := jsonvalue.Parse(dec); err == nil && (v.Kind == jsonvalue.Object || v.Kind == jsonvalue.Array) {
				plain := string(v.Append(nil))
				out = append(out, set(plain))
				for _, s := range innerJSON(plain) {
					out = append(out, set(s))
				}
			}
		}
		for _, s := range shorterText(n.v.Str) {
			out = append(out, set(s))
		}
		return out
	})
}

// innerJSON lists, for a string that holds compact JSON text, the texts
// the steps make of it: members and elements dropped, containers lifted,
// strings shortened, numbers simplified; for a JSON string literal, what
// it holds shortened.
func innerJSON(s string) []string {
	inner, err := jsonvalue.Parse([]byte(s))
	if err != nil || string(inner.Append(nil)) != s {
		return nil
	}
	if inner.Kind == jsonvalue.String {
		// A string literal: what it holds, shrunk as a string of the
		// arguments is, quoted again. Chunks of its text cannot take an
		// escape (\n, \") whole where it stands at an odd place.
		// And what it holds, unquoted: a literal around text is a
		// second thing a failure may need, or not.
		out := []string{inner.Str}
		for _, t := range append(innerJSON(inner.Str), shorterText(inner.Str)...) {
			out = append(out, string(jsonraw.AppendQuote(nil, []byte(t))))
		}
		return dedupe(out, s)
	}
	if inner.Kind != jsonvalue.Object && inner.Kind != jsonvalue.Array {
		return nil
	}
	var out []string
	for _, n := range walk(inner) {
		if n.parent != nil {
			out = append(out, string(dropAt(inner, n).Append(nil)))
		}
		for _, c := range append(slices.Clone(n.v.Elems), memberValues(n.v)...) {
			if c.Kind == jsonvalue.Object || c.Kind == jsonvalue.Array {
				out = append(out, string(edit(inner, n.path(), func(*jsonvalue.Value) *jsonvalue.Value { return c }).Append(nil)))
			}
		}
		switch n.v.Kind {
		case jsonvalue.String:
			for _, t := range shorterText(n.v.Str) {
				out = append(out, string(edit(inner, n.path(), func(v *jsonvalue.Value) *jsonvalue.Value { v.Str = t; return v }).Append(nil)))
			}
		case jsonvalue.Number:
			for _, t := range simpler(n.v.Number) {
				out = append(out, string(edit(inner, n.path(), func(v *jsonvalue.Value) *jsonvalue.Value { v.Number = t; return v }).Append(nil)))
			}
		}
	}
	return dedupe(out, s)
}

func memberValues(v *jsonvalue.Value) []*jsonvalue.Value {
	var out []*jsonvalue.Value
	for _, mb := range v.Members {
		out = append(out, mb.Value)
	}
	return out
}

// numbers simplifies the numbers of the arguments.
func (m *minimizer) numbers() bool {
	return m.each(true, func(root *jsonvalue.Value, n *node, _ *jsonvalue.Value) []lazy {
		if n.v.Kind != jsonvalue.Number {
			return nil
		}
		var out []lazy
		for _, t := range simpler(n.v.Number) {
			out = append(out, func() cand { return cand{patch: &patch{n: n, text: []byte(t)}} })
		}
		return out
	})
}

// simpler lists simpler texts of a number: 0, then 1, then the number
// with fewer digits; each simpler than num, so that no two undo each
// other.
func simpler(num string) []string {
	var out []string
	switch num {
	case "0":
		return nil
	case "1":
		return []string{"0"}
	}
	out = append(out, "0", "1")
	for _, s := range shorter(num) {
		if v, err := jsonvalue.Parse([]byte(s)); err == nil && v.Kind == jsonvalue.Number && s != "0" && s != "1" {
			out = append(out, s)
		}
	}
	return dedupe(out, num)
}

// bytes shortens a text that is not JSON, a byte range at a time.
func (m *minimizer) bytes() bool {
	kept := false
	if _, err := jsonvalue.Parse(m.args); err != nil && m.shrinkBytes(true) {
		kept = true
	}
	if _, err := jsonvalue.Parse(m.schema); err != nil && m.shrinkBytes(false) {
		kept = true
	}
	return kept
}

// shrinkBytes drops byte ranges of the arguments (else of the schema),
// halving their size, while the case keeps failing; after a range is
// dropped it goes on at the same place.
func (m *minimizer) shrinkBytes(args bool) bool {
	text := func() []byte {
		if args {
			return m.args
		}
		return m.schema
	}
	kept := false
	for size, i := len(text())/2, 0; !m.cut; {
		b, sz, off := text(), size, i
		next := func() (item, bool) {
			for ; sz >= 1; sz, off = sz/2, 0 {
				if off+sz <= len(b) {
					c := append(append([]byte{}, b[:off]...), b[off+sz:]...)
					it := item{Candidate{m.schema, c}, [2]int{sz, off}}
					if !args {
						it.Candidate = Candidate{c, m.args}
					}
					off += sz
					return it, true
				}
			}
			return item{}, false
		}
		where, ok := m.keep(next)
		if !ok {
			return kept
		}
		kept, size, i = true, where[0], where[1]
	}
	return kept
}

// boundary reports whether s[i:] starts a character (or s ends at i): cuts
// there keep every character whole.
func boundary(s string, i int) bool {
	return i == len(s) || s[i] < 0x80 || s[i] >= 0xC0
}
