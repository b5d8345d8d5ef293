package normalize

import "slices"

// A selector picks a child of an object or array value: a member by its
// key or an element by its index.
type selector struct {
	key     []byte // raw key text, between the quotes
	index   int
	isIndex bool
	budget  *int64 // the call's pattern steps (patternSteps)
}

func member(rawKey []byte, budget *int64) selector { return selector{key: rawKey, budget: budget} }
func element(i int) selector                       { return selector{index: i, isIndex: true} }

// child returns the schema position of the child sel of a value of JSON
// type vt (tObject or tArray) at n, or nil where nothing is declared. It
// follows docs/readings.md section 4: n's own keywords, $ref and every
// allOf branch apply together; of the anyOf and oneOf branches only those
// that admit vt apply, as alternatives. A cyclic schema declares nothing.
func (n *node) child(vt typeSet, sel selector) *node {
	// A schema that is only a $ref (its own type aside) has the children
	// of what it refers to: such a node is not cyclic, so its target never
	// leads back to it. This is how arrays of $ref'd items are walked
	// without a memo per element.
	for n.pureRef() {
		n = n.ref
	}
	if n.ref == nil && n.allOf == nil && !n.hasAnyOf && !n.hasOneOf && !n.cyclic {
		var buf [4]*node
		switch parts := n.ownChildren(sel, buf[:0]); len(parts) {
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

type childFinder struct {
	vt   typeSet
	sel  selector
	memo map[*node]*node
}

func (c *childFinder) find(n *node) *node {
	if got, ok := c.memo[n]; ok {
		return got
	}
	c.memo[n] = nil
	if n.cyclic {
		return nil
	}
	parts := n.ownChildren(c.sel, nil)
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
	switch len(parts) {
	case 0:
	case 1:
		got = parts[0]
	default:
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
	switch len(alts) {
	case 0:
		return nil
	case 1:
		return alts[0]
	}
	var t typeSet
	for _, a := range alts {
		t |= a.types
	}
	return &node{own: tAll, types: t, anyOf: alts, hasAnyOf: true, resolved: true}
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
func (n *node) ownChildren(sel selector, parts []*node) []*node {
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
	key := unquoteKey(sel.key)
	matched := false
	if n.propTab != nil {
		if c := n.propTab.lookup(key); c != nil {
			parts = append(parts, c)
			matched = true
		}
	} else if c, ok := n.props[string(key)]; ok {
		parts = append(parts, c)
		matched = true
	}
	for _, p := range n.patterns {
		if p.match(key, sel.budget) {
			parts = append(parts, p.n)
			matched = true
		}
	}
	if !matched && n.additional != nil {
		parts = append(parts, n.additional)
	}
	return parts
}
