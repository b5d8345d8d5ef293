package deviation

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// scope is where a repair is made.
type scope uint8

const (
	everywhere scope = iota // every string leaf, decoded values included
	topOnly                 // the arguments' own members only
	nowhere
)

// reader is how the JSON repair reads a string's text: what it accepts
// beside RFC 8259, which its zero value is, as the rule says.
type reader struct {
	nonFinite bool // NaN, Infinity and -Infinity (Python's json.loads)
	// rawSurrogates: a lone surrogate as it is in the text, not escaped
	// (what a JavaScript or Python string can hold)
	rawSurrogates bool
	lenient       bool // single quotes, trailing commas, comments, bare keys
	// trailingCommas reads text that does not parse again without each
	// comma that whitespace and then ] or } follow.
	trailingCommas bool
	// firstValue reads the first JSON value of text that does not parse,
	// and drops what follows it (Go's json.Decoder, Python's raw_decode).
	firstValue bool
	// loneEscapes refuses text with a lone surrogate escape (\ud800),
	// which RFC 8259 allows, as PHP's json_decode does.
	loneEscapes bool
}

func (r reader) strict() bool { return !r.nonFinite && !r.rawSurrogates && !r.lenient }

// model is the reference's algorithm (docs/readings.md, sections 5 and 6)
// written again over a JSON tree, with the parts that real normalizers get
// wrong made switches. Its zero value gives the reference's result
// (TestModelIsReference), so a deviation built on it differs only by the
// switches it sets.
//
// It does not read the schema itself: it asks the reference what the
// schema declares at each position (declared), so that the schema
// deviations, which rewrite the schema, compose with it.
type model struct {
	json, entities scope
	// blind makes the JSON repair ignore the schema: every string that
	// holds an array or an object is decoded.
	blind bool
	// anyShape substitutes an array for a declared object and the other
	// way round; anyValue substitutes whatever the string parses to,
	// scalars too, where an array or object is declared.
	anyShape, anyValue bool
	// arrayForObject substitutes an array where an object is declared
	// (JavaScript's typeof says "object" of both).
	arrayForObject bool
	// stringBroken decodes a string that breaks a constraint on strings
	// of its position (its length, pattern, enum or const) where a
	// container is declared beside string, as if string were not;
	// lengthOnly, only one that breaks its minLength or maxLength.
	stringBroken, lengthOnly bool
	unpadded                 bool // JSON with whitespace around it is refused
	// maxText, when not 0, is the longest text the JSON repair tries, in
	// UTF-16 code units (a JavaScript string's length): longer text stays.
	maxText int
	// elemArrays leaves a string element of an array where the elements
	// are declared arrays: only elements already arrays are walked.
	elemArrays bool
	read       reader
	// lossy is how a value decoded from a string is read besides: as
	// JSON.parse or json.loads read it, losing what they lose.
	lossy lossyReader

	// notRecursive leaves the values decoded from strings as they parse:
	// no repair below them.
	notRecursive bool
	// entitiesOnlyBelow repairs the strings inside values decoded from
	// strings by their references only: no JSON repair below.
	entitiesOnlyBelow bool
	// unparsable rejects the arguments where a string that the schema
	// declares an array or object does not parse.
	unparsable bool
	// entitiesFirst decodes references first, then tries the JSON repair
	// once, on the decoded text; noRedecode never tries it again on
	// decoded text.
	entitiesFirst, noRedecode bool
	// dec is how one decoding pass reads references; pass, when not nil,
	// is a whole pass of another decoder. Both zero are the reference's.
	// onePass stops after one pass where no bound is set.
	dec     decoder
	pass    pass
	onePass bool
}

// zero reports whether m is the reference's algorithm: no switch set.
func (m *model) zero() bool { return reflect.ValueOf(*m).IsZero() }

// leaf is a string in the tree that a repair could change, and its path:
// member or element indexes from the root.
type leaf struct {
	v    *jsonvalue.Value
	path []int
	// inner: a string inside a value decoded from a string
	inner bool
}

// errNonFinite is the error of a value that holds a NaN or an infinity,
// which no JSON text can carry (the adapter kits answer it as an error).
var errNonFinite = errors.New("a NaN or infinity in the result")

// normalize runs m on the case: schema is the schema it reads (rewritten
// by the deviations), c the case as given, ref the reference's result on
// it.
func (m *model) normalize(ctx context.Context, schema []byte, c impl.Case, ref impl.Result) (*jsonvalue.Value, impl.Result) {
	if ref.Error != "" || ref.Failure != nil {
		return nil, ref
	}
	root, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return nil, ref // deeper than jsonvalue parses
	}
	o := c.Options
	jsonOn := o.Repairs.JSON() && m.json != nowhere
	entitiesOn := o.Repairs.Entities() && m.entities != nowhere
	// Each round repairs the strings of the last one; strings inside the
	// values decoded from them are the next round's.
	for todo := leaves(root, nil, nil); len(todo) > 0; {
		r := &round{m: m, ctx: ctx, schema: schema, root: root, todo: todo, o: o}
		var next []leaf
		for i, l := range todo {
			top := len(l.path) == 1
			shapes := func() (shape, error) {
				if !jsonOn || m.json == topOnly && !top || o.Depth == normalize.TopLevel && !top || m.entitiesOnlyBelow && l.inner {
					return 0, nil
				}
				return r.at(i)
			}
			ents := entitiesOn && (m.entities != topOnly || top)
			decoded, err := m.repair(l.v, shapes, ents, o)
			switch {
			case errors.Is(err, errProbe):
				return nil, ref
			case err != nil:
				return nil, impl.Result{Error: impl.ErrUnspecified, Detail: err.Error()}
			}
			if decoded && !m.notRecursive {
				from := len(next)
				next = leaves(l.v, l.path, next)
				for k := from; k < len(next); k++ {
					next[k].inner = true
				}
			}
		}
		todo = next
	}
	return root, impl.Result{Output: root.Append(nil)}
}

// A round is one round's leaves, and the shapes each may be decoded
// into, asked of the reference the first time a leaf needs them: most
// strings hold no JSON text, and then no shape is asked for. A leaf
// repaired before the shapes are asked for does not move the others (a
// position depends only on the containers on the way to it).
type round struct {
	m      *model
	ctx    context.Context
	schema []byte
	root   *jsonvalue.Value
	todo   []leaf
	o      impl.Options
	shapes []shape
	failed bool
}

// errProbe is a reference that could not be asked what the schema
// declares: the model gives the reference's result.
var errProbe = errors.New("deviation: the schema could not be probed")

func (r *round) at(i int) (shape, error) {
	if r.shapes == nil && !r.failed {
		var ok bool
		r.shapes, ok = r.m.shapesOf(r.ctx, r.schema, r.root, r.todo, r.o)
		r.failed = !ok
	}
	if r.failed {
		return 0, errProbe
	}
	return r.shapes[i], nil
}

// repair repairs the string v in place, as the reference does
// (docs/readings.md section 6) but for m's switches: the JSON repair on
// the string as sent; else decode its references (when ents) and try the
// JSON repair again if that changed it. It reports whether v became
// another value. shapes gives the shapes v may be decoded into, asked
// only for text that may be JSON.
func (m *model) repair(v *jsonvalue.Value, shapes func() (shape, error), ents bool, o impl.Options) (bool, error) {
	s := v.Str
	try := func(text string) (*jsonvalue.Value, error) {
		if !m.candidate(text) {
			return nil, nil
		}
		sh, err := shapes()
		if err != nil {
			return nil, err
		}
		return m.parse(text, sh)
	}
	if !m.entitiesFirst {
		if p, err := try(s); err != nil || p != nil {
			return m.replace(v, p, err)
		}
	}
	d := s
	if ents {
		var err error
		if d, err = m.decode(s, o); err != nil {
			return false, err
		}
	}
	if (d != s && !m.noRedecode) || m.entitiesFirst {
		if p, err := try(d); err != nil || p != nil {
			return m.replace(v, p, err)
		}
	}
	if m.unparsable && m.candidate(s) {
		if sh, err := shapes(); err != nil || sh != 0 {
			if err != nil {
				return false, err
			}
			return false, errors.New("the string does not parse as the JSON its position declares")
		}
	}
	v.Str = d
	return false, nil
}

// candidate reports whether text may be JSON the repair decodes: text
// whose first character past whitespace opens an array or an object (or,
// for a repair that substitutes any value, or rejects what does not
// parse, any text but whitespace).
func (m *model) candidate(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n")
	if m.unparsable {
		return true
	}
	if m.anyValue {
		return t != ""
	}
	return t != "" && (t[0] == '[' || t[0] == '{' || m.read.lenient)
}

func (m *model) replace(v, p *jsonvalue.Value, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	*v = *p
	return true, nil
}

// decode is the entity repair of one string, with m's pass.
func (m *model) decode(s string, o impl.Options) (string, error) {
	max := o.MaxPasses
	if m.onePass && max == 0 {
		max = 1
	}
	p := m.pass
	if p == nil && m.dec != (decoder{}) {
		p = m.dec.pass()
	}
	if p == nil {
		o.MaxPasses = max
		d, _ := normalize.DecodeEntitiesWith(s, o.Normalize()...)
		return d, nil
	}
	return fixpoint(s, inProfile(o.Profile, p), max)
}

// parse returns the value s holds if the JSON repair fires on it, with m's
// reader and switches; an error where the repair fires on a value no JSON
// text can carry.
func (m *model) parse(s string, shapes shape) (*jsonvalue.Value, error) {
	if shapes == 0 || m.unpadded && strings.Trim(s, " \t\r\n") != s || m.maxText > 0 && utf16Len(s) > m.maxText {
		return nil, nil
	}
	p, finite := readJSON(s, m.read)
	if p == nil {
		return nil, nil
	}
	switch {
	case p.Kind == jsonvalue.Array && (shapes&array != 0 || m.anyShape || m.anyValue):
	case p.Kind == jsonvalue.Array && m.arrayForObject && shapes&object != 0:
	case p.Kind == jsonvalue.Object && (shapes&object != 0 || m.anyShape || m.anyValue):
	case m.anyValue:
	default:
		return nil, nil
	}
	if !finite {
		return nil, errNonFinite
	}
	return p, m.lossy.read(p)
}

// utf16Len is the length of s in UTF-16 code units, as JavaScript counts
// a string's length.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// leaves appends to dst the strings in v, at path: what the repairs may
// change. Each leaf gets its own copy of its path; the containers on the
// way share one, so that a chain nested thousands deep costs its depth
// once per leaf, not once per level.
func leaves(v *jsonvalue.Value, path []int, dst []leaf) []leaf {
	stack := slices.Clip(path) // the first append copies it: path is the caller's
	var walk func(v *jsonvalue.Value)
	walk = func(v *jsonvalue.Value) {
		switch v.Kind {
		case jsonvalue.String:
			dst = append(dst, leaf{v: v, path: slices.Clone(stack)})
		case jsonvalue.Array:
			for i, e := range v.Elems {
				stack = append(stack, i)
				walk(e)
				stack = stack[:len(stack)-1]
			}
		case jsonvalue.Object:
			for i, mb := range v.Members {
				stack = append(stack, i)
				walk(mb.Value)
				stack = stack[:len(stack)-1]
			}
		}
	}
	walk(v)
	return dst
}

// shape is a set of container shapes a string may be JSON-decoded into.
type shape uint8

const (
	array shape = 1 << iota
	object
)

// shapesOf gives the shapes each leaf may be decoded into: what the schema
// declares, or, for a blind repair, both.
func (m *model) shapesOf(ctx context.Context, schema []byte, root *jsonvalue.Value, todo []leaf, o impl.Options) ([]shape, bool) {
	shapes := make([]shape, len(todo))
	if m.blind {
		for i := range shapes {
			shapes[i] = array | object
		}
		return shapes, true
	}
	paths := make([][]int, len(todo))
	for i, l := range todo {
		paths[i] = l.path
	}
	if !shapesUnder(ctx, schema, root, paths, o, shapes) {
		return nil, false
	}
	if m.elemArrays {
		m.itemsArrays(ctx, schema, root, todo, paths, o, shapes)
	}
	if m.stringBroken {
		doc, err := jsonvalue.Parse(schema)
		if err != nil {
			return shapes, true
		}
		dropStringType(doc)
		admitted := make([]shape, len(todo))
		if !shapesUnder(ctx, doc.Append(nil), root, paths, o, admitted) {
			return shapes, true
		}
		broken := stringBroken(schema, root, m.lengthOnly)
		for i, l := range todo {
			if shapes[i] == 0 && admitted[i] != 0 && broken[strings.Join(tokens(root, l.path), "/")] {
				shapes[i] = admitted[i]
			}
		}
	}
	return shapes, true
}

// itemsArrays takes array out of the shapes of the strings that are
// elements of an array where it is `items` (a schema, not a list) that
// declares them arrays: without it they would not be.
func (m *model) itemsArrays(ctx context.Context, schema []byte, root *jsonvalue.Value, todo []leaf, paths [][]int, o impl.Options, shapes []shape) {
	doc, err := jsonvalue.Parse(schema)
	if err != nil {
		return
	}
	dropMembers("items", jsonvalue.Object, jsonvalue.Bool)(doc)
	without := make([]shape, len(todo))
	if !shapesUnder(ctx, doc.Append(nil), root, paths, o, without) {
		return
	}
	for i, l := range todo {
		if p := at(root, l.path[:len(l.path)-1]); p != nil && p.Kind == jsonvalue.Array && without[i]&array == 0 {
			shapes[i] &^= array
		}
	}
}

// shapesUnder sets, in shapes, the shapes the schema declares at each of
// paths; false when the reference cannot be asked.
func shapesUnder(ctx context.Context, schema []byte, root *jsonvalue.Value, paths [][]int, o impl.Options, shapes []shape) bool {
	for _, d := range []struct {
		kind jsonvalue.Kind
		s    shape
	}{{jsonvalue.Array, array}, {jsonvalue.Object, object}} {
		at, ok := declared(ctx, schema, root, paths, d.kind, o)
		if !ok {
			return false
		}
		for i := range at {
			if at[i] {
				shapes[i] |= d.s
			}
		}
	}
	return true
}

// tokens is the JSON Pointer's tokens of path in v: keys and indexes.
func tokens(v *jsonvalue.Value, path []int) []string {
	var out []string
	for _, i := range path {
		switch {
		case v.Kind == jsonvalue.Array && i < len(v.Elems):
			out = append(out, strconv.Itoa(i))
			v = v.Elems[i]
		case v.Kind == jsonvalue.Object && i < len(v.Members):
			out = append(out, v.Members[i].Key)
			v = v.Members[i].Value
		}
	}
	return out
}

// declared asks the reference, under schema, whether the JSON repair
// gives a value of kind (an array or an object) at each of paths in root:
// with every value there replaced by the string "[]" (or "{}"), those
// that come back an array (or object). A position depends only on the
// path to it and the types of the values on the way, so replacing the
// values at paths moves none of them. root is left as it was.
func declared(ctx context.Context, schema []byte, root *jsonvalue.Value, paths [][]int, kind jsonvalue.Kind, o impl.Options) ([]bool, bool) {
	text := "[]"
	if kind == jsonvalue.Object {
		text = "{}"
	}
	saved := make([]jsonvalue.Value, len(paths))
	for i, p := range paths {
		v := at(root, p)
		saved[i] = *v
		*v = jsonvalue.Value{Kind: jsonvalue.String, Str: text}
	}
	defer func() {
		for i, p := range paths {
			*at(root, p) = saved[i]
		}
	}()
	// The JSON repair at every depth, whatever the case declares: the
	// caller says where it applies.
	o.Depth, o.Repairs, o.MaxDepth = normalize.EveryDepth, normalize.AllRepairs, normalize.MaxDepthLimit
	r := reference(ctx, impl.Case{Schema: schema, Args: root.Append(nil), Options: o})
	if r.Error != "" || r.Failure != nil {
		return nil, false
	}
	out, err := jsonvalue.Parse(r.Output)
	if err != nil {
		return nil, false
	}
	got := make([]bool, len(paths))
	for i, p := range paths {
		if v := at(out, p); v != nil && v.Kind == kind {
			got[i] = true
		}
	}
	return got, true
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
