package normalize

// A selector picks a child of an object or array value: a member by its
// key or an element by its index.
type selector struct {
	key     []byte // raw key text, between the quotes
	index   int
	isIndex bool
}

func member(rawKey []byte) selector { return selector{key: rawKey} }
func element(i int) selector        { return selector{index: i, isIndex: true} }

// child returns the schema position of the child sel of a value of JSON
// type vt (tObject or tArray) at n, or nil where nothing is declared. It
// follows docs/readings.md section 4: n's own keywords, $ref and every
// allOf branch apply together; of the anyOf and oneOf branches only those
// that admit vt apply, as alternatives. A cyclic schema declares nothing.
func (n *node) child(vt typeSet, sel selector) *node {
	if n.ref == nil && n.allOf == nil && !n.hasAnyOf && !n.hasOneOf && !n.cyclic {
		switch parts := n.ownChildren(sel, nil); len(parts) {
		case 0:
			return nil
		case 1:
			return parts[0]
		default:
			return conjunction(parts)
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
	key := string(unquoteKey(sel.key))
	matched := false
	if c, ok := n.props[key]; ok {
		parts = append(parts, c)
		matched = true
	}
	for _, p := range n.patterns {
		if p.re.MatchString(key) {
			parts = append(parts, p.n)
			matched = true
		}
	}
	if !matched && n.additional != nil {
		parts = append(parts, n.additional)
	}
	return parts
}
