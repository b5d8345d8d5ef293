package normalize

import (
	"encoding/binary"
	"slices"
)

// A selector picks a child of an object or array value: a member by its
// key or an element by its index.
type selector struct {
	key     []byte // the key, unquoted
	index   int
	isIndex bool
	budget  *int64 // the call's pattern steps (patternSteps)
}

func member(key []byte, budget *int64) selector { return selector{key: key, budget: budget} }
func element(i int) selector                    { return selector{index: i, isIndex: true} }

// child returns the schema position of the child sel of a value of JSON
// type vt (tObject or tArray) at n, or nil where nothing is declared. It
// follows docs/readings.md section 4: n's own keywords, $ref and every
// allOf branch apply together; of the anyOf and oneOf branches only those
// that admit vt apply, as alternatives. A cyclic schema declares nothing.
//
// It is the definition, and what the walk does at a simple node (one
// whose own keywords alone give its children); elsewhere the walk shares
// its lookups between the members of a call ([walker.child]), so that it
// does not walk the schema again for each.
func (n *node) child(vt typeSet, sel selector) *node {
	n = flatten(n)
	if n.isSimple() {
		var buf [4]*node
		switch parts := n.ownChildren(sel, buf[:0], nil); len(parts) {
		case 0:
			return nil
		case 1:
			return parts[0]
		default:
			return conjunction(slices.Clone(parts))
		}
	}
	// Schemas share subschemas through $ref, so the same node can be
	// reached many times over; the memo keeps the work linear in the
	// schema's size instead of exponential in its depth.
	c := childFinder{vt: vt, sel: sel, memo: map[*node]*node{}}
	return c.find(n)
}

// flatten returns the node that gives n's children: a schema that is only
// a $ref (its own type aside) has the children of what it refers to. Such
// a node is not cyclic, so its target never leads back to it. Compile
// follows the chain once (n.flat); the nodes child makes have none.
func flatten(n *node) *node {
	if n.flat != nil {
		return n.flat
	}
	for n.pureRef() {
		n = n.ref
	}
	return n
}

// isSimple reports whether n's own keywords alone give its children: no
// $ref, allOf, anyOf or oneOf, and not on a cycle.
func (n *node) isSimple() bool {
	return n.ref == nil && n.allOf == nil && !n.hasAnyOf && !n.hasOneOf && !n.cyclic
}

// shareLookups is whether the walk shares lookups between the members of
// a call (see walker.child): a variable, so that a test can compare with
// the definition.
var shareLookups = true

// child is [node.child] for the walk, with what one lookup learns kept
// for the next ones of the same call. Of an object at n, a member's schema
// depends on its key only through which properties it names and which
// patterns it matches, anywhere in what n's applicators reach (n's
// closure); so the walk gathers, once per position, the names of those
// properties and those patterns, and keeps a result for each property
// named, one for each set of patterns matched, and one for every other
// key. Of an array, an element's schema depends on its index only below
// the longest prefixItems (or draft-4 items array) of the closure.
// Results that are the same conjunction or union of positions are one
// node, so that what is learned below them is shared too.
//
// The first lookup at a position goes without gathering, as child does:
// a call with one member there pays no more than it did.
func (w *walker) child(n *node, vt typeSet, sel selector) *node {
	n = flatten(n)
	if n.isSimple() && (sel.isIndex || n.patterns == nil) || !shareLookups {
		return n.child(vt, sel) // at most one part: nothing to share
	}
	if n.cyclic {
		return nil
	}
	if w.pos == nil {
		w.pos = &positions{closures: map[closureKey]*closure{}}
	}
	got := w.pos.child(n, vt, sel)
	w.work += w.pos.work + w.pos.tries
	w.tries += w.pos.tries
	w.pos.work, w.pos.tries = 0, 0
	return got
}

// child is walker.child at a position that is not simple.
func (p *positions) child(n *node, vt typeSet, sel selector) *node {
	cl := p.closure(n, vt)
	if sel.isIndex {
		if got, ok := cl.byIndex[sel.index]; ok && (!cl.gathered || sel.index < cl.prefix) {
			return got
		}
		if !cl.gathered && len(cl.byIndex) == 0 {
			got := p.find(n, vt, sel, nil)
			cl.byIndex[sel.index] = got
			return got
		}
		cl.gather()
		if sel.index < cl.prefix {
			got := p.find(n, vt, sel, nil)
			cl.byIndex[sel.index] = got
			return got
		}
		if !cl.hasRest {
			cl.rest, cl.hasRest = p.find(n, vt, sel, nil), true
		}
		return cl.rest
	}
	if got, ok := cl.byKey[string(sel.key)]; ok {
		return got
	}
	if !cl.gathered && len(cl.byKey) == 0 {
		got := p.find(n, vt, sel, nil)
		cl.byKey[string(sel.key)] = got
		return got
	}
	cl.gather()
	_, named := cl.props[string(sel.key)]
	if !named && len(cl.pats) == 0 {
		if !cl.hasRest {
			cl.rest, cl.hasRest = p.find(n, vt, sel, nil), true
		}
		return cl.rest
	}
	// The patterns the key matches: each distinct one once, and only
	// those it may match (prefilter).
	m := cl.matched[:0]
	for range (len(cl.pats) + 7) / 8 {
		m = append(m, 0)
	}
	var str string // the key's copy, made by its first match
	cl.filter.candidates(sel.key, func(i int) {
		p.tries++
		if cl.pats[i].match(sel.key, &str, sel.budget) {
			m[i/8] |= 1 << (i % 8)
		}
	})
	cl.matched = m
	var got *node
	if named {
		got = p.find(n, vt, sel, cl)
	} else {
		var ok bool
		if got, ok = cl.byMatch[string(m)]; !ok {
			got = p.find(n, vt, sel, cl)
			cl.byMatch[string(m)] = got
		}
	}
	// A key seen again is not matched again: repeated keys (an array of
	// objects) are the common case. Each is kept once, and at most
	// maxKeysKept of them: a map of every distinct key grows slower to
	// read, and as large as the arguments.
	if len(cl.byKey) >= maxKeysKept {
		clear(cl.byKey)
	}
	if len(str) == len(sel.key) {
		cl.byKey[str] = got // the copy the matches made serves
	} else {
		cl.byKey[string(sel.key)] = got
	}
	return got
}

// maxKeysKept bounds the keys a closure with patterns keeps the results of
// (walker.child).
const maxKeysKept = 1 << 12

// positions is what one call learned of the children of the positions
// that are not simple (see walker.child).
type positions struct {
	closures map[closureKey]*closure
	// The conjunctions and unions made, by their kind and parts (ids).
	interned map[string]*node
	ids      map[*node]uint32
	scratch  []byte
	// Work done since the walk last took it: one per position visited,
	// and one per pattern tried on a key.
	work, tries int64
}

type closureKey struct {
	n  *node
	vt typeSet
}

// closure is what the children of the position n, of a value of type vt,
// depend on, and the results found so far.
type closure struct {
	pos *positions
	n   *node
	vt  typeSet

	gathered bool
	props    map[string]struct{} // the properties named in the closure
	pats     []*pattern          // its patterns, one per source
	index    map[string]int      // a pattern's source: its index in pats
	filter   *prefilter          // of pats
	prefix   int                 // its longest prefixItems or items array

	byKey   map[string]*node
	byMatch map[string]*node // by the set of pats matched, for keys not in props
	byIndex map[int]*node
	rest    *node // for the other keys, or indexes from prefix on
	hasRest bool
	matched []byte // scratch
}

func (p *positions) closure(n *node, vt typeSet) *closure {
	k := closureKey{n, vt}
	cl, ok := p.closures[k]
	if !ok {
		cl = &closure{pos: p, n: n, vt: vt}
		if vt == tArray {
			cl.byIndex = map[int]*node{}
		} else {
			cl.byKey = map[string]*node{}
		}
		p.closures[k] = cl
	}
	return cl
}

// gather collects, once, the properties, patterns and prefix lengths of
// every position n's applicators reach, as find would visit them.
func (cl *closure) gather() {
	if cl.gathered {
		return
	}
	cl.gathered = true
	if cl.vt == tObject {
		cl.props = map[string]struct{}{}
		cl.byMatch = map[string]*node{}
	}
	defer func() {
		if len(cl.pats) > 0 {
			cl.filter = newPrefilter(cl.pats)
		}
	}()
	seen := map[*node]bool{}
	stack := []*node{cl.n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		cl.pos.work++
		if n.cyclic {
			continue
		}
		if cl.vt == tObject {
			for k := range n.props {
				cl.props[k] = struct{}{}
			}
			for i := range n.patterns {
				src := n.patterns[i].re.String()
				if _, ok := cl.index[src]; !ok {
					if cl.index == nil {
						cl.index = map[string]int{}
					}
					cl.index[src] = len(cl.pats)
					cl.pats = append(cl.pats, &n.patterns[i])
				}
			}
		} else {
			if n.hasPrefixItems {
				cl.prefix = max(cl.prefix, len(n.prefixItems))
			}
			if n.hasTupleItems {
				cl.prefix = max(cl.prefix, len(n.tupleItems))
			}
		}
		if n.ref != nil {
			stack = append(stack, flatten(n.ref))
		}
		for _, b := range n.allOf {
			stack = append(stack, flatten(b))
		}
		for _, branches := range [2][]*node{n.anyOf, n.oneOf} {
			for _, b := range branches {
				if b.types.admits(cl.vt) {
					stack = append(stack, flatten(b))
				}
			}
		}
	}
}

// matches reports whether the key of the lookup under way matched p, as
// the closure's scratch bits say.
func (cl *closure) matches(p *pattern) bool {
	i := cl.index[p.re.String()]
	return cl.matched[i/8]&(1<<(i%8)) != 0
}

// find is child's search from n, whose result it interns; with cl, the
// patterns matched are cl's scratch bits.
func (p *positions) find(n *node, vt typeSet, sel selector, cl *closure) *node {
	c := childFinder{vt: vt, sel: sel, memo: map[*node]*node{}, matched: cl, pos: p}
	return c.find(n)
}

// intern returns the one node of the kind (a conjunction or a union) of
// parts: made by mk the first time.
func (p *positions) intern(kind byte, parts []*node, mk func([]*node) *node) *node {
	if p.ids == nil {
		p.ids = map[*node]uint32{}
		p.interned = map[string]*node{}
	}
	k := append(p.scratch[:0], kind)
	for _, n := range parts {
		id, ok := p.ids[n]
		if !ok {
			id = uint32(len(p.ids))
			p.ids[n] = id
		}
		k = binary.AppendUvarint(k, uint64(id))
	}
	p.scratch = k
	if got, ok := p.interned[string(k)]; ok {
		return got
	}
	got := mk(parts)
	p.interned[string(k)] = got
	return got
}

type childFinder struct {
	vt   typeSet
	sel  selector
	memo map[*node]*node
	// With the walk's positions (pos): the patterns matched, when known
	// (matched), and the conjunctions and unions made are interned.
	matched *closure
	pos     *positions
}

func (c *childFinder) find(n *node) *node {
	// A pure $ref chain has the children of its end, which Compile
	// found once (n.flat): following it hop by hop at every lookup cost
	// members times hops.
	n = flatten(n)
	if got, ok := c.memo[n]; ok {
		return got
	}
	c.memo[n] = nil
	if c.pos != nil {
		c.pos.work++
	}
	if n.cyclic {
		return nil
	}
	parts := n.ownChildren(c.sel, nil, c.matched)
	if n.ref != nil {
		if ch := c.find(n.ref); ch != nil {
			parts = append(parts, ch)
		}
	}
	for _, b := range n.allOf {
		if ch := c.find(b); ch != nil {
			parts = append(parts, ch)
		}
	}
	if n.hasAnyOf {
		if ch := c.alternatives(n.anyOf); ch != nil {
			parts = append(parts, ch)
		}
	}
	if n.hasOneOf {
		if ch := c.alternatives(n.oneOf); ch != nil {
			parts = append(parts, ch)
		}
	}
	var got *node
	switch {
	case len(parts) == 1:
		got = parts[0]
	case len(parts) > 1 && c.pos != nil:
		got = c.pos.intern('&', parts, conjunction)
	case len(parts) > 1:
		got = conjunction(parts)
	}
	c.memo[n] = got
	return got
}

// conjunction is a position where all of parts apply.
func conjunction(parts []*node) *node {
	t := tAll
	for _, p := range parts {
		t &= p.types
	}
	return &node{own: tAll, types: t, allOf: parts, resolved: true}
}

// union is a position where one of alts applies.
func union(alts []*node) *node {
	var t typeSet
	for _, a := range alts {
		t |= a.types
	}
	return &node{own: tAll, types: t, anyOf: alts, hasAnyOf: true, resolved: true}
}

// alternatives is the child under the branches that admit the value's
// type, as a union: nil (unknown) when no branch admits it or one that does
// declares nothing for the child.
func (c *childFinder) alternatives(branches []*node) *node {
	var alts []*node
	for _, b := range branches {
		if !b.types.admits(c.vt) {
			continue
		}
		ch := c.find(b)
		if ch == nil {
			return nil
		}
		alts = append(alts, ch)
	}
	switch {
	case len(alts) == 0:
		return nil
	case len(alts) == 1:
		return alts[0]
	case c.pos != nil:
		return c.pos.intern('|', alts, union)
	}
	return union(alts)
}

// pureRef reports whether n is a $ref and nothing else that bears on
// children: then it has the children of n.ref.
func (n *node) pureRef() bool {
	return n.ref != nil && n.allOf == nil && !n.hasAnyOf && !n.hasOneOf && !n.cyclic && !n.hasOwnChildren()
}

// memberSchemas returns the node whose properties and additionalProperties
// alone give the schema of every member of an object at n, or nil when
// finding it takes more (see child).
func (n *node) memberSchemas() *node {
	if n == nil || n.flat == nil || !n.flat.simple || n.flat.patterns != nil {
		return nil
	}
	return n.flat
}

// member returns the schema of the member whose key, between the quotes,
// is the raw text key with no escape in it. n came from memberSchemas.
func (n *node) member(key []byte) *node {
	var c *node
	if n.propTab != nil {
		c = n.propTab.lookup(key)
	} else if n.props != nil {
		c = n.props[string(key)]
	}
	if c == nil {
		c = n.additional
	}
	return c
}

// elementSchema reports the schema of every element of an array at n,
// when it is the same for all and found without more ado (ok).
func (n *node) elementSchema() (c *node, ok bool) {
	if n == nil || n.flat == nil || !n.flat.simple || n.flat.hasPrefixItems || n.flat.hasTupleItems {
		return nil, false
	}
	return n.flat.items, true
}

// hasOwnChildren reports whether n has a keyword of its own that gives
// children a schema.
func (n *node) hasOwnChildren() bool {
	return n.props != nil || n.patterns != nil || n.additional != nil ||
		n.hasPrefixItems || n.items != nil || n.hasTupleItems || n.additionalItems != nil
}

// ownChildren appends the schemas n's own keywords give the child sel.
// With matched, the patterns the key matches are those it says (see
// closure.matches); else each is matched.
func (n *node) ownChildren(sel selector, parts []*node, matched *closure) []*node {
	if sel.isIndex {
		i := sel.index
		switch {
		case n.hasPrefixItems && i < len(n.prefixItems):
			return append(parts, n.prefixItems[i])
		case n.hasTupleItems && !n.hasPrefixItems:
			if i < len(n.tupleItems) {
				return append(parts, n.tupleItems[i])
			}
			if n.additionalItems != nil {
				return append(parts, n.additionalItems)
			}
		case n.items != nil:
			return append(parts, n.items)
		}
		return parts
	}
	if n.props == nil && n.patterns == nil && n.additional == nil {
		return parts
	}
	key := sel.key
	named := false
	if n.propTab != nil {
		if c := n.propTab.lookup(key); c != nil {
			parts = append(parts, c)
			named = true
		}
	} else if c, ok := n.props[string(key)]; ok {
		parts = append(parts, c)
		named = true
	}
	var str string // the key's copy, made by its first match
	for i := range n.patterns {
		p := &n.patterns[i]
		if matched != nil && matched.matches(p) || matched == nil && p.match(key, &str, sel.budget) {
			parts = append(parts, p.n)
			named = true
		}
	}
	if !named && n.additional != nil {
		parts = append(parts, n.additional)
	}
	return parts
}
