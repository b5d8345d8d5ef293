package normalize

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonraw"
)

// Normalize applies RT-TOOL-8 to a tool's arguments, raw JSON in and raw
// JSON out. The arguments must be a JSON object. Only the strings it
// repairs change; every other byte, whitespace included, is kept, and
// when nothing needs repair the result is a copy of args.
//
// On bad arguments it returns a [*Error] and no output.
func (s *Schema) Normalize(args []byte) ([]byte, error) {
	out, _, err := s.normalize(args, false)
	return out, err
}

// NormalizeReport is [Schema.Normalize] that also lists every repair made,
// in document order.
func (s *Schema) NormalizeReport(args []byte) ([]byte, []Repair, error) {
	return s.normalize(args, true)
}

func (s *Schema) normalize(args []byte, report bool) ([]byte, []Repair, error) {
	w := &walker{cfg: &s.cfg, report: report}
	var edits []edit
	i := jsonraw.SkipSpace(args, 0)
	end, err := w.value(args, i, s.root, &edits)
	if err != nil {
		return nil, nil, err
	}
	if j := jsonraw.SkipSpace(args, end); j < len(args) {
		return nil, nil, &Error{Offset: j, Err: fmt.Errorf("%w: %s after the top-level value", ErrSyntax, jsonraw.Describe(args, j))}
	}
	if args[i] != '{' {
		return nil, nil, &Error{Offset: i, Err: fmt.Errorf("%w, not %s", ErrNotObject, kindAt(args[i]))}
	}
	return splice(args, edits), w.repairs, nil
}

func kindAt(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// edit replaces text[lo:hi] with repl.
type edit struct {
	lo, hi int
	repl   []byte
}

// splice returns a copy of text with the edits, which are in order and do
// not overlap, applied.
func splice(text []byte, edits []edit) []byte {
	n := len(text)
	for _, e := range edits {
		n += len(e.repl) - (e.hi - e.lo)
	}
	out := make([]byte, 0, n)
	prev := 0
	for _, e := range edits {
		out = append(out, text[prev:e.lo]...)
		out = append(out, e.repl...)
		prev = e.hi
	}
	return append(out, text[prev:]...)
}

// walker walks one set of arguments, and the values decoded from its
// strings, alongside the schema.
type walker struct {
	cfg     *config
	report  bool
	repairs []Repair
	path    []step // where the walk is, for pointers
	depth   int
}

// step is one step of a path: an object member (its raw key, between the
// quotes) or an array element.
type step struct {
	key     []byte
	index   int
	isIndex bool
}

// pointer returns the JSON Pointer of the current path.
func (w *walker) pointer() string {
	var b strings.Builder
	for _, st := range w.path {
		b.WriteByte('/')
		if st.isIndex {
			b.WriteString(strconv.Itoa(st.index))
			continue
		}
		b.WriteString(escapeToken(string(jsonraw.Unquote(nil, st.key))))
	}
	return b.String()
}

func (w *walker) syntaxError(err error) error {
	var se *jsonraw.SyntaxError
	if errors.As(err, &se) {
		return &Error{Offset: se.Offset, Pointer: w.pointer(), Err: fmt.Errorf("%w: %s", ErrSyntax, se.Msg)}
	}
	return err
}

// value walks the JSON value that starts at b[i] under schema position n,
// appending to edits the repairs it makes, and returns where it ends.
func (w *walker) value(b []byte, i int, n *node, edits *[]edit) (int, error) {
	if i >= len(b) {
		return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: "unexpected end of input"})
	}
	switch c := b[i]; {
	case c == '"':
		return w.str(b, i, n, edits)
	case c == '{' || c == '[':
		if w.depth >= w.cfg.maxDepth {
			return 0, &Error{Offset: i, Pointer: w.pointer(), Err: fmt.Errorf("%w: more than %d nested arrays and objects", ErrTooDeep, w.cfg.maxDepth)}
		}
		w.depth++
		var end int
		var err error
		if c == '{' {
			end, err = w.object(b, i, n, edits)
		} else {
			end, err = w.array(b, i, n, edits)
		}
		w.depth--
		return end, err
	case c == '-' || '0' <= c && c <= '9':
		end, err := jsonraw.ScanNumber(b, i)
		return end, w.syntaxError(err)
	default:
		end, err := jsonraw.ScanLiteral(b, i)
		return end, w.syntaxError(err)
	}
}

func (w *walker) object(b []byte, i int, n *node, edits *[]edit) (int, error) {
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	depth := len(w.path)
	w.path = append(w.path, step{})
	defer func() { w.path = w.path[:depth] }()
	w.path = w.path[:depth] // no member yet: errors point at the object
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid %s looking for beginning of object key string", jsonraw.Describe(b, i))})
		}
		kend, _, err := jsonraw.ScanString(b, i)
		if err != nil {
			return 0, w.syntaxError(err)
		}
		key := b[i+1 : kend-1]
		w.path = append(w.path[:depth], step{key: key})
		i = jsonraw.SkipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid %s after object key", jsonraw.Describe(b, i))})
		}
		i = jsonraw.SkipSpace(b, i+1)
		var child *node
		if n != nil {
			child = n.child(tObject, member(key))
		}
		if i, err = w.value(b, i, child, edits); err != nil {
			return 0, err
		}
		i = jsonraw.SkipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return i + 1, nil
		}
		return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid %s after object member", jsonraw.Describe(b, i))})
	}
}

func (w *walker) array(b []byte, i int, n *node, edits *[]edit) (int, error) {
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	w.path = append(w.path, step{isIndex: true})
	defer func() { w.path = w.path[:len(w.path)-1] }()
	for index := 0; ; index++ {
		w.path[len(w.path)-1].index = index
		var child *node
		if n != nil {
			child = n.child(tArray, element(index))
		}
		var err error
		if i, err = w.value(b, i, child, edits); err != nil {
			return 0, err
		}
		i = jsonraw.SkipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return i + 1, nil
		}
		return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid %s after array element", jsonraw.Describe(b, i))})
	}
}

// str repairs the string that starts at b[i] (docs/readings.md, sections 5
// and 6): JSON-decode the string as sent where the schema allows; else
// decode its references, and JSON-decode the result where it now
// qualifies.
func (w *walker) str(b []byte, i int, n *node, edits *[]edit) (int, error) {
	end, flags, err := jsonraw.ScanString(b, i)
	if err != nil {
		return 0, w.syntaxError(err)
	}
	shapes := jsonShapes(n)
	if flags&(jsonraw.Escaped|jsonraw.Amp) == 0 && shapes == 0 {
		return end, nil // the fast path: nothing in it can change
	}
	v := b[i+1 : end-1]
	if flags&jsonraw.Escaped != 0 {
		v = jsonraw.Unquote(make([]byte, 0, len(v)), v)
	}
	if repl, ok, err := w.decodeJSON(v, n, shapes, i); err != nil || ok {
		if ok {
			*edits = append(*edits, edit{i, end, repl})
		}
		return end, err
	}
	if bytes.IndexByte(v, '&') < 0 {
		return end, nil
	}
	d, res := entity.Decode(v, w.cfg.profile.mode(), w.cfg.maxPasses)
	if res.Passes == 0 {
		return end, nil
	}
	if w.report {
		w.repairs = append(w.repairs, Repair{Pointer: w.pointer(), Kind: EntitiesDecoded, Passes: res.Passes, Fixpoint: res.Fixpoint})
	}
	repl, ok, err := w.decodeJSON(d, n, shapes, i)
	if err != nil {
		return 0, err
	}
	if !ok {
		repl = jsonraw.AppendQuote(make([]byte, 0, len(d)+2), d)
	}
	*edits = append(*edits, edit{i, end, repl})
	return end, nil
}

// jsonShapes returns the shapes (tArray, tObject) a string at n may be
// JSON-decoded into: none where n admits a string or is unknown.
func jsonShapes(n *node) typeSet {
	if n == nil || n.types&tString != 0 {
		return 0
	}
	return n.types & (tArray | tObject)
}

// decodeJSON JSON-decodes the string value v, found at offset at, if it
// is one JSON value (with whitespace around it) of a shape in shapes, and
// returns that value normalized under n, whitespace around it dropped.
// Text that does not parse is no error: the string stays a string. Only
// nesting past the limit is, as it would be anywhere else.
func (w *walker) decodeJSON(v []byte, n *node, shapes typeSet, at int) ([]byte, bool, error) {
	lo := jsonraw.SkipSpace(v, 0)
	if lo == len(v) {
		return nil, false, nil
	}
	shape := typeSet(0)
	switch v[lo] {
	case '[':
		shape = tArray
	case '{':
		shape = tObject
	}
	if shape&shapes == 0 {
		return nil, false, nil
	}
	mark := len(w.repairs)
	if w.report {
		w.repairs = append(w.repairs, Repair{Pointer: w.pointer(), Kind: JSONDecoded, Shape: shapeName(shape), Fixpoint: true})
	}
	var edits []edit
	hi, err := w.value(v, lo, n, &edits)
	if err == nil && jsonraw.SkipSpace(v, hi) != len(v) {
		err = &Error{Err: ErrSyntax}
	}
	if err != nil {
		w.repairs = w.repairs[:mark]
		// Too deep to parse here: an error if the text is JSON (it would
		// be decoded, and nest past the limit), none if it is not.
		if e, ok := err.(*Error); ok && errors.Is(e.Err, ErrTooDeep) && jsonraw.Valid(v) {
			e.Offset = at
			return nil, false, e
		}
		return nil, false, nil
	}
	return splice(v[lo:hi], shiftEdits(edits, lo)), true, nil
}

func shiftEdits(edits []edit, by int) []edit {
	for k := range edits {
		edits[k].lo -= by
		edits[k].hi -= by
	}
	return edits
}

func shapeName(t typeSet) string {
	if t == tArray {
		return "array"
	}
	return "object"
}

// unquoteKey returns the value of a raw key, without copying when it has
// no escape.
func unquoteKey(raw []byte) []byte {
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw
	}
	return jsonraw.Unquote(make([]byte, 0, len(raw)), raw)
}
