package mutants

import (
	"context"
	"strings"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// normalizer is the reference's algorithm (docs/readings.md, sections 5
// and 6) written again over a jsonvalue tree, with the parts that the
// decoder and ordering mutants get wrong made pluggable. Its zero value
// gives the reference's result (TestNormalizerIsReference checks it), so a
// mutant built on it differs only by the field it sets.
//
// It does not read the schema: it asks the reference what the schema
// declares at each position (see shapes), and it runs the reference first
// and returns the reference's error, if any. So no mutant built on it
// differs from the reference by a schema reading or an error of its own.
type normalizer struct {
	// pass is one decoding pass in the text profile, repeated to the
	// fixpoint (or the pass bound); nil is the reference's decoding.
	pass pass
	// entitiesFirst decodes references first, then tries the JSON repair
	// once, on the decoded text only.
	entitiesFirst bool
	// noRedecode never tries the JSON repair again on decoded text.
	noRedecode bool
	// anyShape substitutes the array or object a string parses to where
	// the JSON repair may fire, whatever shape was declared.
	anyShape bool
	// topLevelOnly makes the JSON repair fire only for the arguments' own
	// members, not below them or inside decoded values.
	topLevelOnly bool
	// unpadded refuses the JSON repair for JSON with whitespace around it.
	unpadded bool
}

// shape is the set of shapes a string may be JSON-decoded into.
type shape uint8

const (
	array shape = 1 << iota
	object
)

// leaf is a string in the tree that a repair could change, and its path:
// member or element indexes from the root.
type leaf struct {
	v    *jsonvalue.Value
	path []int
}

func (n *normalizer) Normalize(ctx context.Context, c impl.Case) impl.Result {
	schema, args, o := c.Schema, c.Args, c.Options
	ref := impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
	if ref.Error != "" {
		return ref
	}
	root, err := jsonvalue.Parse(args)
	if err != nil {
		return ref // deeper than jsonvalue parses
	}
	// Each round repairs the strings of the last one; strings inside the
	// values decoded from them are the next round's.
	for todo := leaves(root, nil, nil); len(todo) > 0; {
		shapes, ok := shapesOf(schema, root, todo)
		if !ok {
			return ref
		}
		var next []leaf
		for i, l := range todo {
			if n.topLevelOnly && len(l.path) != 1 {
				shapes[i] = 0
			}
			decoded, err := n.repair(l.v, shapes[i], o)
			if err != nil {
				return impl.Result{Error: impl.ErrInvalidJSON, Detail: err.Error()}
			}
			if decoded {
				next = leaves(l.v, l.path, next)
			}
		}
		todo = next
	}
	return impl.Result{Output: root.Append(nil)}
}

// repair repairs the string v in place, as the reference does
// (docs/readings.md section 6): the JSON repair on the string as sent;
// else decode its references and try the JSON repair again if that
// changed it. It reports whether v became an array or object.
func (n *normalizer) repair(v *jsonvalue.Value, shapes shape, o impl.Options) (bool, error) {
	s := v.Str
	if !n.entitiesFirst {
		if p := n.parse(s, shapes); p != nil {
			*v = *p
			return true, nil
		}
	}
	var d string
	var err error
	if n.pass == nil {
		d, err = referenceDecode(s, o)
	} else {
		d, err = fixpoint(s, inProfile(o.Profile, n.pass), o.MaxPasses)
	}
	if err != nil {
		return false, err
	}
	if (d != s && !n.noRedecode) || n.entitiesFirst {
		if p := n.parse(d, shapes); p != nil {
			*v = *p
			return true, nil
		}
	}
	v.Str = d
	return false, nil
}

// parse returns the value s holds if the JSON repair fires on it: s is one
// JSON value, whitespace around it allowed, of a shape in shapes.
func (n *normalizer) parse(s string, shapes shape) *jsonvalue.Value {
	if shapes == 0 || n.unpadded && strings.Trim(s, " \t\r\n") != s {
		return nil
	}
	p, err := jsonvalue.Parse([]byte(s))
	switch {
	case err != nil:
		return nil
	case p.Kind == jsonvalue.Array && (shapes&array != 0 || n.anyShape):
		return p
	case p.Kind == jsonvalue.Object && (shapes&object != 0 || n.anyShape):
		return p
	}
	return nil
}

// leaves appends to dst the strings in v, at path, that a repair could
// change: those with an '&' or that could be JSON arrays or objects.
func leaves(v *jsonvalue.Value, path []int, dst []leaf) []leaf {
	switch v.Kind {
	case jsonvalue.String:
		if t := strings.TrimLeft(v.Str, " \t\r\n"); strings.Contains(v.Str, "&") || t != "" && (t[0] == '[' || t[0] == '{') {
			dst = append(dst, leaf{v, path})
		}
	case jsonvalue.Array:
		for i, e := range v.Elems {
			dst = leaves(e, append(path[:len(path):len(path)], i), dst)
		}
	case jsonvalue.Object:
		for i, m := range v.Members {
			dst = leaves(m.Value, append(path[:len(path):len(path)], i), dst)
		}
	}
	return dst
}

// shapesOf asks the reference what the schema declares at each leaf: with
// every leaf replaced by the string "[]", the leaves it turns into arrays
// are those where the JSON repair may give an array; likewise "{}" for
// objects. A position depends only on the path to it and the JSON types
// of the values on the way, so replacing the leaves moves none of them.
func shapesOf(schema []byte, root *jsonvalue.Value, todo []leaf) ([]shape, bool) {
	shapes := make([]shape, len(todo))
	saved := make([]string, len(todo))
	for i, l := range todo {
		saved[i] = l.v.Str
	}
	defer func() {
		for i, l := range todo {
			l.v.Str = saved[i]
		}
	}()
	for _, probe := range []struct {
		text string
		kind jsonvalue.Kind
		s    shape
	}{{"[]", jsonvalue.Array, array}, {"{}", jsonvalue.Object, object}} {
		for _, l := range todo {
			l.v.Str = probe.text
		}
		r := impl.Reference.Normalize(context.Background(), impl.Case{Schema: schema, Args: root.Append(nil), Options: impl.Options{MaxDepth: normalize.MaxDepthLimit}})
		if r.Error != "" {
			return nil, false
		}
		out, err := jsonvalue.Parse(r.Output)
		if err != nil {
			return nil, false
		}
		for i, l := range todo {
			if v := at(out, l.path); v != nil && v.Kind == probe.kind {
				shapes[i] |= probe.s
			}
		}
	}
	return shapes, true
}

// at returns the value at path in v, or nil.
func at(v *jsonvalue.Value, path []int) *jsonvalue.Value {
	for _, i := range path {
		switch {
		case v.Kind == jsonvalue.Array && i < len(v.Elems):
			v = v.Elems[i]
		case v.Kind == jsonvalue.Object && i < len(v.Members):
			v = v.Members[i].Value
		default:
			return nil
		}
	}
	return v
}
