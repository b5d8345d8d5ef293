package schemagen

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// A site is a value drawn for a node with something to break: a keyword,
// or the node's types.
type site struct {
	v *jsonvalue.Value
	n *node
}

// maxHops bounds a chain of $ref nodes followed for one value.
const maxHops = 8

// value draws a value for n: of a type n admits, fitting its keywords,
// its strings sometimes the JSON text of a container n declares (which
// the repair decodes), dressed as models send it.
func (g *gen) value(n *node, depth int) *jsonvalue.Value {
	for hops := 0; n.refTo != nil && !n.ownConstraints() && hops < maxHops; hops++ {
		n = n.refTo
	}
	var v *jsonvalue.Value
	switch {
	case n.enum != nil:
		v = clone(pick(g.r, n.enum))
	case n.refTo != nil:
		v = g.value(n.refTo, depth-1)
		g.fit(v, n, depth)
	case len(n.alts) > 0:
		v = g.value(pick(g.r, n.alts), depth)
		g.fit(v, n, depth)
	default:
		v = g.fresh(n, depth)
	}
	if !g.drawingSchema && (n.breakable() || n.types != tAll) {
		g.sites = append(g.sites, site{v, n})
	}
	return v
}

// ownConstraints reports whether a $ref node has keywords of its own
// beside the reference that values must fit.
func (n *node) ownConstraints() bool {
	return n.maxLen >= 0 || n.minLen >= 0 || n.pat != nil || n.format >= 0 || n.enum != nil || n.bounded ||
		n.minItems >= 0 || n.maxItems >= 0 || n.unique || n.contains != nil
}

// breakable reports whether n has a keyword a value can break.
func (n *node) breakable() bool {
	return n.ownConstraints() || len(n.required) > 0 || n.minProps >= 0 || n.maxProps >= 0 || n.keyMax >= 0 || len(n.depReq) > 0 || n.closed
}

// fresh draws a value of one of n's types.
func (g *gen) fresh(n *node, depth int) *jsonvalue.Value {
	t := g.pickType(n, depth)
	var v *jsonvalue.Value
	if depth < 0 {
		// Below the bottom (a required member of a tree, a tuple): the
		// smallest value of the type.
		switch t {
		case tObject:
			return g.obj()
		case tArray:
			return g.arr()
		}
	}
	switch t {
	case tObject:
		v = g.objectValue(n, depth)
	case tArray:
		v = g.arrayValue(n, depth)
	case tString:
		return g.stringValue(n, depth)
	case tNumber, tInteger:
		v = g.number(n, t)
	case tBool:
		v = g.boolean(g.chance(2))
	default:
		v = &jsonvalue.Value{Kind: jsonvalue.Null}
	}
	if (t == tObject || t == tArray) && g.on(kJSONText) && g.chance(3) && !g.drawingSchema {
		// The container as its JSON text, as models send it: the repair
		// decodes it where the container is declared and string is not.
		s := g.dress(string(v.Append(nil)))
		if !n.types.has(tString) || n.fitsString(s) {
			return g.str(s)
		}
	}
	return v
}

// pickType draws one of n's types: containers where n has children,
// scalars at the bottom.
func (g *gen) pickType(n *node, depth int) typeSet {
	types := n.types
	if types == tAll {
		switch {
		case len(n.props) > 0 || len(n.decoys) > 0:
			types = tObject | tString | tNull
		case n.items != nil || len(n.prefix) > 0:
			types = tArray | tString
		default:
			types = tString | tNumber | tBool | tNull | tArray | tObject
		}
	}
	if depth <= 0 && types&^(tArray|tObject) != 0 {
		types &^= tArray | tObject
	}
	var choices []typeSet
	for _, tn := range typeNames {
		if types.has(tn.t) {
			choices = append(choices, tn.t)
			if tn.t == tArray && (n.items != nil || len(n.prefix) > 0) || tn.t == tObject && len(n.props) > 0 {
				choices = append(choices, tn.t, tn.t)
			}
		}
	}
	if len(choices) == 0 {
		return tNull
	}
	return pick(g.r, choices)
}

// dress writes JSON text as models send it, sometimes: padded, escaped
// into references once or twice, or with garbage after it.
func (g *gen) dress(s string) string {
	switch g.r.IntN(10) {
	case 0:
		return pick(g.r, paddings) + s + pick(g.r, paddings)
	case 1:
		return htmlEscaper.Replace(s)
	case 2:
		return htmlEscaper.Replace(htmlEscaper.Replace(s))
	case 3:
		return s + pick(g.r, garbage)
	case 4:
		return g.nearJSON(s)
	}
	return s
}

// nearJSON is the JSON text s of a container made into text JSON does not
// parse, as lenient readers take it: a trailing comma, single quotes, a
// comment, or a NaN.
func (g *gen) nearJSON(s string) string {
	if len(s) < 2 {
		return s
	}
	last := len(s) - 1
	switch g.r.IntN(4) {
	case 0:
		if len(s) > 2 {
			return s[:last] + "," + s[last:]
		}
	case 1:
		if strings.Contains(s, `"`) && !strings.ContainsAny(s, `'\`) {
			return strings.ReplaceAll(s, `"`, "'")
		}
	case 2:
		if s[0] == '[' {
			if len(s) == 2 {
				return "[NaN]"
			}
			return "[NaN," + s[1:]
		}
	}
	return "/* c */ " + s
}

// fitsString reports whether a string fits n's string keywords.
func (n *node) fitsString(s string) bool {
	l := utf8.RuneCountInString(s)
	return (n.maxLen < 0 || l <= n.maxLen) && (n.minLen < 0 || l >= n.minLen) && (n.pat == nil || n.pat.match(s))
}

// stringValue draws a string for n: text with references, a format's
// value, a pattern's match, or JSON text (of a container n declares, or
// of another kind), fitted to n's lengths.
func (g *gen) stringValue(n *node, depth int) *jsonvalue.Value {
	var s string
	switch {
	case n.format >= 0 && !g.chance(4):
		s = formatSpec[n.format].valid
	case n.pat != nil && g.chance(2):
		s = pick(g.r, n.pat.matches)
	case g.on(kJSONText) && depth > 0 && g.chance(3):
		// JSON text at a position that declares string: never decoded.
		c := newNode(tArray | tObject)
		if n.types.has(tArray | tObject) {
			c = &node{types: n.types & (tArray | tObject), props: n.props, items: n.items, prefix: n.prefix,
				minLen: -1, maxLen: -1, format: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1, keyMax: -1}
		}
		s = string(g.fresh(c, depth-1).Append(nil))
	default:
		s = g.text()
	}
	if !n.fitsString(s) {
		s = fitLength(s, n.minLen, n.maxLen)
		if n.pat != nil && !n.pat.match(s) {
			s = pick(g.r, n.pat.matches)
			s = fitLength(s, n.minLen, n.maxLen)
		}
	}
	return g.str(s)
}

// fitLength cuts s to max code points, or pads it to min.
func fitLength(s string, lo, hi int) string {
	if hi >= 0 && utf8.RuneCountInString(s) > hi {
		r := []rune(s)
		s = string(r[:hi])
	}
	if lo >= 0 {
		if l := utf8.RuneCountInString(s); l < lo {
			s += strings.Repeat("x", lo-l)
		}
	}
	return s
}

// number draws a number (an integer where integer is drawn), in n's
// bounds when it has them.
func (g *gen) number(n *node, t typeSet) *jsonvalue.Value {
	if n.bounded {
		m := max(n.multipleOf, 1)
		lo, hi := ceilDiv(n.lo, m), n.hi/m
		if hi < lo {
			return g.intv(n.lo)
		}
		return g.intv(m * (lo + g.r.IntN(hi-lo+1)))
	}
	if t == tInteger || n.types.has(tInteger) && !n.types.has(tNumber) {
		return g.num(pick(g.r, integers))
	}
	return g.num(pick(g.r, numbers))
}

func ceilDiv(a, m int) int {
	q := a / m
	if q*m < a {
		q++
	}
	return q
}

// arrayValue draws the elements: the tuple's, then items', in n's counts.
func (g *gen) arrayValue(n *node, depth int) *jsonvalue.Value {
	count := len(n.prefix) + g.r.IntN(3)
	if len(n.prefix) > 0 && g.chance(3) {
		count = g.r.IntN(len(n.prefix) + 1)
	}
	if n.minItems >= 0 {
		count = max(count, n.minItems)
	}
	if n.maxItems >= 0 {
		count = min(count, n.maxItems)
	}
	v := g.arr()
	for i := range count {
		v.Elems = append(v.Elems, g.element(n, i, depth))
	}
	if n.contains != nil && len(v.Elems) > 0 {
		v.Elems[len(v.Elems)-1] = g.value(n.contains, depth-1)
	} else if n.contains != nil && (n.maxItems < 0 || n.maxItems > 0) {
		v.Elems = append(v.Elems, g.value(n.contains, depth-1))
	}
	if n.unique {
		g.unique(v, n, depth)
	}
	return v
}

// element draws element i of an array of n.
func (g *gen) element(n *node, i, depth int) *jsonvalue.Value {
	switch {
	case i < len(n.prefix):
		return g.value(n.prefix[i], depth-1)
	case n.items != nil:
		return g.value(n.items, depth-1)
	}
	return g.anyValue(depth - 1)
}

// unique drops elements written as others are, and fills up to minItems
// with distinct numbers where n's elements admit them.
func (g *gen) unique(v *jsonvalue.Value, n *node, depth int) {
	seen := map[string]bool{}
	out := v.Elems[:0]
	for _, e := range v.Elems {
		k := string(e.Append(nil))
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	v.Elems = out
	for i := 0; n.minItems >= 0 && len(v.Elems) < n.minItems && i < 8; i++ {
		e := g.element(n, len(v.Elems), depth)
		if k := string(e.Append(nil)); !seen[k] {
			seen[k] = true
			v.Elems = append(v.Elems, e)
		}
	}
}

// anyValue draws a value for a position that declares nothing.
func (g *gen) anyValue(depth int) *jsonvalue.Value {
	n := newNode(tAll)
	n.types = tString | tNumber | tBool | tNull
	if depth > 0 && g.chance(3) {
		n.types |= tArray | tObject
	}
	return g.fresh(n, depth)
}

// objectValue draws the members: declared ones (required ones always),
// members under decoys, and others, in n's counts.
func (g *gen) objectValue(n *node, depth int) *jsonvalue.Value {
	v := g.obj()
	has := func(k string) bool {
		return v.Member(k) != nil || slices.ContainsFunc(v.Members, func(m jsonvalue.Member) bool { return m.Key == k })
	}
	for _, m := range n.props {
		if has(m.key) || !slices.Contains(n.required, m.key) && g.chance(4) {
			continue
		}
		v.Members = append(v.Members, jsonvalue.Member{Key: m.key, Value: g.value(m.n, depth-1)})
	}
	for _, d := range n.decoys {
		if d.key != "" && !has(d.key) && g.chance(2) {
			v.Members = append(v.Members, jsonvalue.Member{Key: d.key, Value: g.value(d.n, depth-1)})
		}
	}
	if !n.closed && (g.chance(3) || n.addl != nil && g.chance(2)) {
		k := g.key()
		if n.addl != nil && g.on(kSpecialKeys) && g.chance(2) {
			// What a lookup of the name in an object of JavaScript finds,
			// where properties does not declare it.
			k = pick(g.r, protoKeys)
		}
		if !has(k) && !declares(n, k) {
			var mv *jsonvalue.Value
			switch {
			case n.addl != nil:
				mv = g.value(n.addl, depth-1)
			case len(n.decoys) > 0 && n.decoys[0].key == "":
				mv = g.value(n.decoys[0].n, depth-1)
			default:
				mv = g.anyValue(depth - 1)
			}
			v.Members = append(v.Members, jsonvalue.Member{Key: k, Value: mv})
		}
	}
	g.fitObject(v, n, depth)
	if g.r.IntN(8) != 0 {
		indexKeysFirst(v)
	}
	return v
}

// fitObject makes an object's members fit n's keywords about them.
func (g *gen) fitObject(v *jsonvalue.Value, n *node, depth int) {
	has := func(k string) bool { return v.Member(k) != nil }
	for _, d := range n.depReq {
		if has(d[0]) && !has(d[1]) {
			v.Members = append(v.Members, jsonvalue.Member{Key: d[1], Value: g.memberValue(n, d[1], depth)})
		}
	}
	if n.keyMax >= 0 {
		v.Members = slices.DeleteFunc(v.Members, func(m jsonvalue.Member) bool {
			return utf8.RuneCountInString(m.Key) > n.keyMax && !slices.Contains(n.required, m.Key)
		})
	}
	for i := 0; n.minProps >= 0 && len(v.Members) < n.minProps && i < 8; i++ {
		var k string
		if n.closed && i < len(n.props) {
			k = n.props[i].key
		} else if !n.closed {
			k = g.key()
		}
		if k != "" && !has(k) && (n.keyMax < 0 || utf8.RuneCountInString(k) <= n.keyMax) {
			v.Members = append(v.Members, jsonvalue.Member{Key: k, Value: g.memberValue(n, k, depth)})
		}
	}
	if n.maxProps >= 0 {
		for i := len(v.Members) - 1; i >= 0 && len(v.Members) > n.maxProps; i-- {
			if !slices.Contains(n.required, v.Members[i].Key) && !dependedOn(n, v, v.Members[i].Key) {
				v.Members = slices.Delete(v.Members, i, i+1)
			}
		}
	}
}

// dependedOn reports whether another member present requires k.
func dependedOn(n *node, v *jsonvalue.Value, k string) bool {
	for _, d := range n.depReq {
		if d[1] == k && v.Member(d[0]) != nil {
			return true
		}
	}
	return false
}

// memberValue draws the value of member k of an object of n.
func (g *gen) memberValue(n *node, k string, depth int) *jsonvalue.Value {
	for _, m := range n.props {
		if m.key == k {
			return g.value(m.n, depth-1)
		}
	}
	if n.addl != nil {
		return g.value(n.addl, depth-1)
	}
	return g.anyValue(depth - 1)
}

// fit makes a value drawn for a $ref target or a branch fit the keywords
// n has beside it, where it can.
func (g *gen) fit(v *jsonvalue.Value, n *node, depth int) {
	switch v.Kind {
	case jsonvalue.String:
		if !n.fitsString(v.Str) {
			v.Str = fitLength(v.Str, n.minLen, n.maxLen)
		}
	case jsonvalue.Array:
		if n.maxItems >= 0 && len(v.Elems) > n.maxItems {
			v.Elems = v.Elems[:n.maxItems]
		}
	case jsonvalue.Object:
		g.fitObject(v, n, depth)
	}
}

// isIndexKey reports whether a JavaScript object puts key k first: an
// array index, in decimal without a leading zero.
func isIndexKey(k string) bool {
	if k == "" || len(k) > 10 || k != "0" && k[0] == '0' {
		return false
	}
	for i := range len(k) {
		if k[i] < '0' || k[i] > '9' {
			return false // no ParseUint, whose error is an allocation
		}
	}
	n, err := strconv.ParseUint(k, 10, 64)
	return err == nil && n < 1<<32-1
}

// indexKeysFirst moves the index keys first, in numeric order, as a
// JavaScript object holds them (a kit answers unsupported otherwise).
func indexKeysFirst(v *jsonvalue.Value) {
	if !slices.ContainsFunc(v.Members, func(m jsonvalue.Member) bool { return isIndexKey(m.Key) }) {
		return // most objects: nothing moves, nothing to allocate
	}
	var idx, rest []jsonvalue.Member
	for _, m := range v.Members {
		if isIndexKey(m.Key) {
			idx = append(idx, m)
		} else {
			rest = append(rest, m)
		}
	}
	if len(idx) == 0 {
		return
	}
	slices.SortStableFunc(idx, func(a, b jsonvalue.Member) int {
		x, _ := strconv.ParseUint(a.Key, 10, 64)
		y, _ := strconv.ParseUint(b.Key, 10, 64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	v.Members = append(idx, rest...)
}

// clone is a deep copy of v.
func clone(v *jsonvalue.Value) *jsonvalue.Value {
	c := *v
	if v.Elems != nil {
		c.Elems = make([]*jsonvalue.Value, len(v.Elems))
		for i, e := range v.Elems {
			c.Elems[i] = clone(e)
		}
	}
	if v.Members != nil {
		c.Members = make([]jsonvalue.Member, len(v.Members))
		for i, m := range v.Members {
			c.Members[i] = jsonvalue.Member{Key: m.Key, Value: clone(m.Value)}
		}
	}
	return &c
}

// plain draws a value for n while the schema is drawn (an enum's, a
// const's): no site is recorded.
func (g *gen) plain(n *node, depth int) *jsonvalue.Value {
	was := g.drawingSchema
	g.drawingSchema = true
	defer func() { g.drawingSchema = was }()
	return g.value(n, depth)
}

// breakOnce, when the case turned breaking on, breaks the arguments at
// one place: a value made to break one keyword of its node (most often a
// length beside a type list that admits string and a container, broken by
// that container's JSON text), or its type.
func (g *gen) breakOnce() {
	if !g.on(kBreak) || len(g.sites) == 0 || !g.chance(2) {
		return
	}
	var weighted []site
	for _, s := range g.sites {
		w := 1
		if s.n.breakable() {
			w = 3
		}
		if (s.n.maxLen >= 0 || s.n.minLen >= 0) && s.n.types.has(tString) && s.n.types.has(tArray|tObject) {
			w = 12
		}
		for range w {
			weighted = append(weighted, s)
		}
	}
	s := pick(g.r, weighted)
	if nv := g.broken(s.v, s.n); nv != nil {
		*s.v = *nv
		g.broke = true
	}
}

// broken is a value that breaks one keyword of n (or its types) where v
// stood, or nil when there is none to break.
func (g *gen) broken(v *jsonvalue.Value, n *node) *jsonvalue.Value {
	var ways []func() *jsonvalue.Value
	containerText := func() string {
		c := &node{types: n.types & (tArray | tObject), props: n.props, items: n.items, prefix: n.prefix,
			minLen: -1, maxLen: -1, format: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1, keyMax: -1}
		if c.types == 0 {
			c.types = tArray
		}
		return string(g.fresh(c, 1).Append(nil))
	}
	admitsContainer := n.types != tAll && n.types.has(tArray|tObject)
	if n.maxLen >= 0 {
		ways = append(ways, func() *jsonvalue.Value {
			s := v.Str
			if admitsContainer || v.Kind != jsonvalue.String {
				s = containerText()
			}
			for utf8.RuneCountInString(s) <= n.maxLen {
				s = " " + s
			}
			return g.str(s)
		})
	}
	if n.minLen > 0 {
		ways = append(ways, func() *jsonvalue.Value {
			if admitsContainer && n.minLen > 2 {
				return g.str(pick(g.r, []string{"[]", "{}"}))
			}
			return g.str(string([]rune(v.Str + strings.Repeat("x", n.minLen))[:n.minLen-1]))
		})
	}
	if n.pat != nil {
		ways = append(ways, func() *jsonvalue.Value {
			if admitsContainer {
				if s := containerText(); !n.pat.match(s) {
					return g.str(s)
				}
			}
			return g.str(n.pat.other)
		})
	}
	if n.format >= 0 {
		ways = append(ways, func() *jsonvalue.Value { return g.str(formatSpec[n.format].invalid) })
	}
	if n.enum != nil {
		ways = append(ways, func() *jsonvalue.Value {
			cand := g.str("not listed &amp;")
			if admitsContainer {
				cand = g.str(containerText())
			}
			for _, e := range n.enum {
				if jsonvalue.Equal(e, cand) {
					return nil
				}
			}
			return cand
		})
	}
	if n.bounded {
		ways = append(ways, func() *jsonvalue.Value {
			if n.multipleOf > 1 && g.chance(2) {
				return g.intv(n.multipleOf*ceilDiv(n.lo, n.multipleOf) + 1)
			}
			if g.chance(2) {
				return g.intv(n.hi + 1 + g.r.IntN(5))
			}
			return g.intv(n.lo - 1 - g.r.IntN(5))
		})
	}
	if v.Kind == jsonvalue.Array {
		if n.minItems > 0 && len(v.Elems) >= n.minItems {
			ways = append(ways, func() *jsonvalue.Value { return g.arr(v.Elems[:n.minItems-1]...) })
		}
		if n.maxItems >= 0 {
			ways = append(ways, func() *jsonvalue.Value {
				c := clone(v)
				for len(c.Elems) <= n.maxItems {
					c.Elems = append(c.Elems, g.str("extra"))
				}
				return c
			})
		}
		if n.unique {
			ways = append(ways, func() *jsonvalue.Value {
				c := clone(v)
				if len(c.Elems) == 0 {
					c.Elems = append(c.Elems, g.str("x"))
				}
				c.Elems = append(c.Elems, clone(c.Elems[0]))
				return c
			})
		}
		if n.contains != nil {
			ways = append(ways, func() *jsonvalue.Value { return g.arr(&jsonvalue.Value{Kind: jsonvalue.Null}) })
		}
	}
	if v.Kind == jsonvalue.Object {
		for _, k := range n.required {
			if v.Member(k) != nil {
				ways = append(ways, func() *jsonvalue.Value { return withoutMember(v, k) })
				break
			}
		}
		if n.minProps > 0 && len(v.Members) >= n.minProps {
			ways = append(ways, func() *jsonvalue.Value {
				c := clone(v)
				c.Members = c.Members[:n.minProps-1]
				return c
			})
		}
		if n.maxProps >= 0 || n.closed || n.keyMax >= 0 {
			ways = append(ways, func() *jsonvalue.Value {
				c := clone(v)
				for i := 0; i < 8 && (n.maxProps < 0 || len(c.Members) <= n.maxProps); i++ {
					k := g.key()
					if n.keyMax >= 0 {
						k = strings.Repeat("k", n.keyMax+1)
					} else if n.closed {
						k = g.freshKey(n)
					}
					if c.Member(k) == nil {
						c.Members = append(c.Members, jsonvalue.Member{Key: k, Value: g.anyValue(1)})
					}
					if n.maxProps < 0 {
						break
					}
				}
				return c
			})
		}
		for _, d := range n.depReq {
			if v.Member(d[0]) != nil && v.Member(d[1]) != nil {
				ways = append(ways, func() *jsonvalue.Value { return withoutMember(v, d[1]) })
				break
			}
		}
	}
	if n.types != tAll && !n.types.has(tString) && (v.Kind == jsonvalue.Number || v.Kind == jsonvalue.Bool) {
		// The number or boolean as its text, as models send it.
		ways = append(ways, func() *jsonvalue.Value { return g.str(string(v.Append(nil))) })
	}
	if n != g.params && (n.types != tAll && len(ways) == 0 || n.types != tAll && g.chance(4)) {
		ways = append(ways, func() *jsonvalue.Value {
			for _, t := range []struct {
				t typeSet
				v *jsonvalue.Value
			}{{tNumber | tInteger, g.num("7")}, {tBool, g.boolean(false)}, {tNull, &jsonvalue.Value{Kind: jsonvalue.Null}}, {tString, g.str("&amp;x")}, {tObject, g.obj()}} {
				if !n.types.has(t.t) {
					return t.v
				}
			}
			return nil
		})
	}
	if len(ways) == 0 {
		return nil
	}
	return pick(g.r, ways)()
}

// withoutMember is a copy of v without member k.
func withoutMember(v *jsonvalue.Value, k string) *jsonvalue.Value {
	c := clone(v)
	c.Members = slices.DeleteFunc(c.Members, func(m jsonvalue.Member) bool { return m.Key == k })
	return c
}
