package norm

import (
	"strconv"
	"unicode/utf8"
)

// A typeSet is what a position declares: known types, or nothing known.
type typeSet struct {
	known bool
	bits  uint8
}

var unknown = typeSet{}

func (t typeSet) has(b uint8) bool { return t.known && t.bits&b != 0 }

func widen(b uint8) uint8 {
	if b&tNumber != 0 {
		b |= tInteger
	}
	return b
}

func inter(a, b typeSet) typeSet {
	if !a.known {
		return b
	}
	if !b.known {
		return a
	}
	return typeSet{true, widen(a.bits) & widen(b.bits)}
}

func union(a, b typeSet) typeSet {
	if !a.known || !b.known {
		return unknown
	}
	return typeSet{true, a.bits | b.bits}
}

// A scope is the dynamic scope: the resources entered on the way to a
// schema, outermost first (each once: entering one again changes nothing
// a dynamic reference looks for).
type scope struct {
	res []*resource
	key string
}

type evaluator struct {
	comp     *compiler
	scopes   map[string]*scope
	memo     map[evalKey]typeSet
	visiting map[evalKey]bool
	stack    []evalKey
	onCycle  map[evalKey]bool
	inChild  map[evalKey]bool
	err      error
}

type evalKey struct {
	s  *schema
	sc *scope
}

func newEvaluator(c *compiler) *evaluator {
	return &evaluator{comp: c, scopes: map[string]*scope{}, memo: map[evalKey]typeSet{}, visiting: map[evalKey]bool{}, onCycle: map[evalKey]bool{}, inChild: map[evalKey]bool{}}
}

func (e *evaluator) push(sc *scope, r *resource) *scope {
	if sc != nil {
		for _, x := range sc.res {
			if x == r {
				return sc
			}
		}
	}
	key := strconv.Itoa(r.idx)
	var res []*resource
	if sc != nil {
		key = sc.key + "," + key
		res = append(res, sc.res...)
	}
	if s, ok := e.scopes[key]; ok {
		return s
	}
	s := &scope{res: append(res, r), key: key}
	e.scopes[key] = s
	return s
}

func (e *evaluator) dynTarget(s *schema, sc *scope) *schema {
	if s.dynName != "" {
		for _, r := range sc.res {
			if a, ok := r.dynAnchors[s.dynName]; ok {
				if n, err := e.comp.node(a); err == nil {
					return n
				}
			}
		}
	}
	return s.dynRef
}

func (e *evaluator) recTarget(s *schema, sc *scope) *schema {
	if s.recDyn {
		for _, r := range sc.res {
			if r.recursiveAnchor {
				if n, err := e.comp.node(r.root); err == nil {
					return n
				}
			}
		}
	}
	return s.recRef
}

// declared is the set of types schema s declares, reached in scope sc. A
// schema on a cycle of $ref, allOf, anyOf and oneOf (one that leads back to
// itself, in the same scope) declares nothing.
func (e *evaluator) declared(s *schema, sc *scope) typeSet {
	sc = e.push(sc, s.at.res)
	k := evalKey{s, sc}
	if t, ok := e.memo[k]; ok {
		return t
	}
	if e.visiting[k] {
		for i := len(e.stack) - 1; i >= 0; i-- {
			e.onCycle[e.stack[i]] = true
			if e.stack[i] == k {
				break
			}
		}
		return unknown
	}
	switch s.boolv {
	case 1:
		return unknown
	case 2:
		return typeSet{known: true}
	}
	e.visiting[k] = true
	e.stack = append(e.stack, k)
	t := unknown
	if s.refOnly {
		t = e.declared(s.ref, sc)
	} else {
		if s.hasType {
			b := s.types
			if s.nullable {
				b |= tNull
			}
			t = typeSet{true, b}
		}
		if s.ref != nil {
			t = inter(t, e.declared(s.ref, sc))
		}
		if s.dynRef != nil {
			t = inter(t, e.declared(e.dynTarget(s, sc), sc))
		}
		if s.recRef != nil {
			t = inter(t, e.declared(e.recTarget(s, sc), sc))
		}
		for _, b := range s.allOf {
			if sw.s8 && alternativesOnly(b) {
				// Merge the branch into this schema.
				for _, x := range append(append([]*schema{}, b.anyOf...), b.oneOf...) {
					t = inter(t, e.declared(x, sc))
				}
				continue
			}
			t = inter(t, e.declared(b, sc))
		}
		for _, l := range [][]*schema{s.anyOf, s.oneOf} {
			if l == nil {
				continue
			}
			u := typeSet{known: true}
			for _, b := range l {
				u = union(u, e.declared(b, sc))
			}
			t = inter(t, u)
		}
	}
	delete(e.visiting, k)
	e.stack = e.stack[:len(e.stack)-1]
	if e.onCycle[k] {
		t = unknown
	}
	e.memo[k] = t
	return t
}

// A ctx is what applies at a position of the arguments: a schema (in its
// scope), all of several, or one of several alternatives.
type ctx struct {
	op   byte // 'l', '&', '|'
	s    *schema
	sc   *scope
	kids []*ctx
}

func leaf(s *schema, sc *scope) *ctx { return &ctx{op: 'l', s: s, sc: sc} }

func all(parts []*ctx) *ctx {
	switch len(parts) {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	return &ctx{op: '&', kids: parts}
}

func (e *evaluator) declaredCtx(c *ctx) typeSet {
	if c == nil {
		return unknown
	}
	switch c.op {
	case 'l':
		return e.declared(c.s, c.sc)
	case '&':
		t := unknown
		for _, k := range c.kids {
			t = inter(t, e.declaredCtx(k))
		}
		return t
	}
	t := typeSet{known: true}
	for _, k := range c.kids {
		t = union(t, e.declaredCtx(k))
	}
	return t
}

func kindBit(kind byte) uint8 {
	if kind == '[' {
		return tArray
	}
	return tObject
}

func (e *evaluator) admits(c *ctx, kind byte) bool {
	t := e.declaredCtx(c)
	return !t.known || t.bits&kindBit(kind) != 0
}

// child is what applies to member key (kind '{') or element idx (kind '[')
// of a value of that kind at a position where c applies.
func (e *evaluator) child(c *ctx, kind byte, key string, idx int) *ctx {
	if c == nil {
		return nil
	}
	switch c.op {
	case 'l':
		return e.childOf(c.s, c.sc, kind, key, idx)
	case '&':
		var parts []*ctx
		for _, k := range c.kids {
			if x := e.child(k, kind, key, idx); x != nil {
				parts = append(parts, x)
			}
		}
		return all(parts)
	}
	var alts []*ctx
	for _, k := range c.kids {
		if !e.admits(k, kind) {
			continue
		}
		x := e.child(k, kind, key, idx)
		if x == nil {
			return nil
		}
		alts = append(alts, x)
	}
	if len(alts) == 0 {
		return nil
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &ctx{op: '|', kids: alts}
}

func (e *evaluator) childOf(s *schema, sc *scope, kind byte, key string, idx int) *ctx {
	if s.boolv != 0 {
		return nil
	}
	e.declared(s, sc) // finds the cycles s is on
	sc = e.push(sc, s.at.res)
	k := evalKey{s, sc}
	if e.inChild[k] || e.onCycle[k] {
		return nil
	}
	e.inChild[k] = true
	defer delete(e.inChild, k)
	if s.refOnly {
		return e.childOf(s.ref, sc, kind, key, idx)
	}
	var parts []*ctx
	if kind == '{' {
		matched := false
		if x, ok := s.props[key]; ok {
			parts = append(parts, leaf(x, sc))
			matched = true
		}
		for _, p := range s.pats {
			ok, err := p.re.match(key)
			if err != nil && e.err == nil {
				e.err = err
			}
			if ok {
				parts = append(parts, leaf(p.s, sc))
				matched = true
			}
		}
		additional := !matched
		if sw.s3 {
			_, named := s.props[key]
			additional = !named
		}
		if additional && s.addProps != nil && (!sw.s6 || informative(s.addProps)) {
			parts = append(parts, leaf(s.addProps, sc))
		}
	} else {
		switch {
		case s.hasPrefix:
			if idx < len(s.prefix) {
				if !sw.s6 || informative(s.prefix[idx]) {
					parts = append(parts, leaf(s.prefix[idx], sc))
				}
			} else if s.items != nil {
				parts = append(parts, leaf(s.items, sc))
			}
		case s.hasItemsList:
			if idx < len(s.itemsList) {
				parts = append(parts, leaf(s.itemsList[idx], sc))
			} else if s.addItems != nil {
				parts = append(parts, leaf(s.addItems, sc))
			}
		case s.items != nil:
			parts = append(parts, leaf(s.items, sc))
		}
	}
	add := func(x *ctx) {
		if x != nil {
			parts = append(parts, x)
		}
	}
	if s.ref != nil {
		add(e.childOf(s.ref, sc, kind, key, idx))
	}
	if s.dynRef != nil {
		add(e.childOf(e.dynTarget(s, sc), sc, kind, key, idx))
	}
	if s.recRef != nil {
		add(e.childOf(e.recTarget(s, sc), sc, kind, key, idx))
	}
	for _, b := range s.allOf {
		if sw.s8 && alternativesOnly(b) {
			// Merge the branch into this schema.
			for _, x := range append(append([]*schema{}, b.anyOf...), b.oneOf...) {
				add(e.childOf(x, sc, kind, key, idx))
			}
			continue
		}
		add(e.childOf(b, sc, kind, key, idx))
	}
	for _, l := range [][]*schema{s.anyOf, s.oneOf} {
		if l == nil {
			continue
		}
		var alts []*ctx
		some := false
		for _, b := range l {
			if !e.admits(leaf(b, sc), kind) {
				continue
			}
			x := e.childOf(b, sc, kind, key, idx)
			if x == nil {
				alts = nil
				some = false
				break
			}
			alts = append(alts, x)
			some = true
		}
		if some {
			if len(alts) == 1 {
				add(alts[0])
			} else {
				add(&ctx{op: '|', kids: alts})
			}
		}
	}
	return all(parts)
}

// childAt is child for a member (key) or an element (idx).
func (e *evaluator) childAt(c *ctx, key string, idx int) *ctx {
	kind := byte('{')
	if key == "" {
		kind = '[' // elements have no key
	}
	return e.child(c, kind, key, idx)
}

// stringRuledOut says whether str breaks the length bounds that a schema
// admitting strings sets at a position where c applies.
func (e *evaluator) stringRuledOut(c *ctx, str string) bool {
	if c == nil {
		return false
	}
	switch c.op {
	case 'l':
		s := c.s
		if s.boolv != 0 || !s.hasType || s.types&tString == 0 {
			return false
		}
		n := utf8.RuneCountInString(str)
		return s.minLen >= 0 && n < s.minLen || s.maxLen >= 0 && n > s.maxLen
	case '&':
		for _, k := range c.kids {
			if e.stringRuledOut(k, str) {
				return true
			}
		}
		return false
	}
	for _, k := range c.kids {
		if !e.stringRuledOut(k, str) {
			return false
		}
	}
	return true
}
