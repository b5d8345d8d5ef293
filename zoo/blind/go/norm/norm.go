// Package norm repairs the arguments a model hands to a tool against the
// tool's own JSON Schema, as rule RT-TOOL-8 asks: a string is decoded as
// JSON where the schema declares an array or an object for it and the
// string holds one; HTML character references in every string are decoded
// until nothing changes; nothing else changes.
package norm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxDepth is how deeply arrays and objects may nest, counted through
// values decoded from strings.
const MaxDepth = 1000

// Normalize repairs arguments (JSON text) against schema (JSON text) and
// returns the repaired arguments as JSON text.
func Normalize(schema, arguments []byte) ([]byte, error) {
	root, comp, err := compileSchema(schema)
	if err != nil {
		return nil, err
	}
	depth, err := scan(arguments)
	if err != nil {
		return nil, fmt.Errorf("arguments: invalid JSON: %v", err)
	}
	if depth > MaxDepth {
		return nil, fmt.Errorf("arguments: nesting deeper than %d", MaxDepth)
	}
	b := &builder{text: arguments}
	args := b.value()
	if args.kind != '{' {
		return nil, errors.New("arguments: not a JSON object")
	}
	n := &normalizer{ev: newEvaluator(comp)}
	rc := leaf(root, nil)
	if err := n.walk(args, rc, 1); err != nil {
		return nil, err
	}
	if n.ev.err != nil {
		return nil, n.ev.err
	}
	return args.write(make([]byte, 0, len(arguments))), nil
}

type normalizer struct {
	ev *evaluator
}

// walk repairs v in place; c is what applies at its position and depth the
// nesting v has if it is an array or an object.
func (n *normalizer) walk(v *value, c *ctx, depth int) error {
	switch v.kind {
	case '{':
		for i := range v.members {
			m := &v.members[i]
			var mc *ctx
			if sw.s2 {
				mc = n.ev.childAt(c, m.key, i)
			} else {
				mc = n.ev.child(c, '{', m.key, 0)
			}
			if err := n.walk(m.val, mc, depth+1); err != nil {
				return err
			}
		}
	case '[':
		for i, e := range v.elems {
			if err := n.walk(e, n.ev.child(c, '[', "", i), depth+1); err != nil {
				return err
			}
		}
	case '"':
		return n.repairString(v, c, depth)
	}
	return nil
}

func (n *normalizer) repairString(v *value, c *ctx, depth int) error {
	t := n.ev.declaredCtx(c)
	if sw.s4 && t.has(tString) && n.ev.stringRuledOut(c, v.str) {
		// This string cannot be valid as a string here: string is not
		// what the schema admits for it.
		t.bits &^= tString
	}
	wantArr := t.known && !t.has(tString) && t.has(tArray)
	wantObj := t.known && !t.has(tString) && t.has(tObject)
	if wantArr || wantObj {
		dec, err := n.tryJSON(v.str, wantArr, wantObj, c, depth)
		if err != nil || dec != nil {
			if dec != nil {
				*v = *dec
			}
			return err
		}
	}
	s := decodeEntities(v.str)
	if s == v.str {
		return nil
	}
	if wantArr || wantObj {
		dec, err := n.tryJSON(s, wantArr, wantObj, c, depth)
		if err != nil || dec != nil {
			if dec != nil {
				*v = *dec
			}
			return err
		}
	}
	v.raw = nil
	v.str = s
	return nil
}

// tryJSON decodes s when it is exactly one JSON value of a wanted shape,
// and repairs what it holds; otherwise it returns nil.
func (n *normalizer) tryJSON(s string, wantArr, wantObj bool, c *ctx, depth int) (*value, error) {
	i := 0
	for i < len(s) && isWS(s[i]) {
		i++
	}
	if i == len(s) || !(s[i] == '[' && wantArr || s[i] == '{' && wantObj) {
		return nil, nil
	}
	text := []byte(s)
	if sw.s5 {
		var raw json.RawMessage
		if err := json.NewDecoder(strings.NewReader(s)).Decode(&raw); err != nil {
			return nil, nil
		}
		text = raw
	}
	nest, err := scan(text)
	if err != nil {
		return nil, nil
	}
	if depth-1+nest > MaxDepth {
		return nil, fmt.Errorf("arguments: nesting deeper than %d inside a decoded string", MaxDepth)
	}
	b := &builder{text: text}
	dec := b.value()
	if sw.s1 {
		canonicalNumbers(dec)
	}
	if err := n.walk(dec, c, depth); err != nil {
		return nil, err
	}
	return dec, nil
}

// canonicalNumbers writes the numbers of a decoded value in one form
// (1.0 as 1, 1E2 as 100), as encoding/json writes a float64.
func canonicalNumbers(v *value) {
	switch v.kind {
	case '0':
		if f, err := strconv.ParseFloat(string(v.raw), 64); err == nil {
			if b, err := json.Marshal(f); err == nil {
				v.raw = b
			}
		}
	case '[':
		for _, e := range v.elems {
			canonicalNumbers(e)
		}
	case '{':
		for _, m := range v.members {
			canonicalNumbers(m.val)
		}
	}
}
