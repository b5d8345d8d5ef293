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
	if n.cyclic {
		return nil
	}
	var parts []*node
	parts = n.ownChildren(sel, parts)
	if n.ref != nil {
		if c := n.ref.child(vt, sel); c != nil {
			parts = append(parts, c)
		}
	}
	for _, b := range n.allOf {
		if c := b.child(vt, sel); c != nil {
			parts = append(parts, c)
		}
	}
	if n.hasAnyOf {
		if c := alternatives(n.anyOf, vt, sel); c != nil {
			parts = append(parts, c)
		}
	}
	if n.hasOneOf {
		if c := alternatives(n.oneOf, vt, sel); c != nil {
			parts = append(parts, c)
		}
	}
	switch len(parts) {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	t := tAll
	for _, p := range parts {
		t &= p.types
	}
	return &node{own: tAll, types: t, allOf: parts, resolved: true}
}

// alternatives is the child sel under the branches that admit vt, as a
// union: nil (unknown) when no branch admits vt or one that does declares
// nothing for sel.
func alternatives(branches []*node, vt typeSet, sel selector) *node {
	var alts []*node
	for _, b := range branches {
		if !b.types.admits(vt) {
			continue
		}
		c := b.child(vt, sel)
		if c == nil {
			return nil
		}
		alts = append(alts, c)
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
