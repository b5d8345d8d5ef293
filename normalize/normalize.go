package normalize

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonraw"
)

// Normalize applies RT-TOOL-8 to a tool's arguments, raw JSON in and raw
// JSON out. The arguments must be a JSON object. Only the strings it
// repairs change; every other byte, whitespace included, is kept.
//
// When nothing needs repair, which is the common case, the result is args
// itself, not a copy (as with x/text/unicode/norm's Form.Bytes), and
// Normalize allocates nothing. Its capacity is cut to its length, so that
// appending to it copies; writing into it writes into args. When something
// is repaired, the result is a new buffer and args is left as it was.
//
// On bad arguments it returns a [*Error] and no output.
//
// Its time and memory are linear in the length of args, for a given
// schema: each member's schema is looked up once per kind of key (see
// docs/performance.md, "Bounded on every input").
func (s *Schema) Normalize(args []byte) ([]byte, error) {
	out, _, err := s.normalize(nil, args, false)
	return out, err
}

// NormalizeContext is [Schema.Normalize] that stops when ctx is done: it
// looks at ctx before it starts and then every few thousand values, and
// returns a [*Error] wrapping ctx.Err() (errors.Is(err,
// context.DeadlineExceeded) holds) with the offset it reached.
func (s *Schema) NormalizeContext(ctx context.Context, args []byte) ([]byte, error) {
	out, _, err := s.normalize(ctx, args, false)
	return out, err
}

// NormalizeReport is [Schema.Normalize] that also lists every repair made,
// in document order. The repairs share the steps of their pointers (see
// [Pointer]), so that the report too costs memory linear in args: a
// Repair is 56 bytes, and each takes at least 6 bytes of args (about 12
// bytes of report a byte of args full of repairs). [Schema.NormalizeReportN]
// lists only the first few, for arguments one does not trust.
func (s *Schema) NormalizeReport(args []byte) ([]byte, []Repair, error) {
	return s.normalize(nil, args, true)
}

// NormalizeReportContext is [Schema.NormalizeReport] that stops when ctx
// is done, as [Schema.NormalizeContext] does.
func (s *Schema) NormalizeReportContext(ctx context.Context, args []byte) ([]byte, []Repair, error) {
	return s.normalize(ctx, args, true)
}

// NormalizeReportN is [Schema.NormalizeReportContext] that lists at most
// the first n repairs, in document order, and counts them all: total is
// how many repairs it made, len(repairs) or more. A negative n lists
// every repair. Past the first n a repair costs a count, not a [Repair]
// and the steps of its [Pointer], so that the report takes memory bounded
// by n however many repairs args hold (a call of 10 MB can hold a million:
// 60 MB of report). A server that reports the repairs of calls it does
// not trust should use it, as the MCP middlewares do.
func (s *Schema) NormalizeReportN(ctx context.Context, args []byte, n int) (out []byte, repairs []Repair, total int, err error) {
	w := s.walker(args, true, n)
	out, repairs, err = w.run(ctx, args, s.root)
	if err != nil {
		return nil, nil, 0, err
	}
	return out, repairs, w.repairs.total(), nil
}

func (s *Schema) normalize(ctx context.Context, args []byte, report bool) (out []byte, repairs []Repair, err error) {
	out, repairs, _, err = s.normalizeWork(ctx, args, report)
	return out, repairs, err
}

// normalizeWork is normalize that also says how much work it did, in the
// units of checkEvery but for the patterns tried on keys: the values
// walked and the schema positions visited, what the tests bound. (Keys
// are tried against the patterns that may match them, once per distinct
// key: see walker.child and prefilter.)
func (s *Schema) normalizeWork(ctx context.Context, args []byte, report bool) (out []byte, repairs []Repair, work int64, err error) {
	w := s.walker(args, report, -1)
	out, repairs, err = w.run(ctx, args, s.root)
	return out, repairs, w.work - w.tries, err
}

// walker is a walker of args, which lists up to max repairs (all when
// max is below 0) when report is set.
func (s *Schema) walker(args []byte, report bool, max int) *walker {
	return &walker{cfg: &s.cfg, report: report, repairs: repairList{max: max}, args: args, nextAmp: -1, patternSteps: patternSteps}
}

// run walks args under the schema root, stopping when ctx (if not nil) is
// done.
func (w *walker) run(ctx context.Context, args []byte, root *node) (out []byte, repairs []Repair, err error) {
	if ctx != nil && ctx.Done() != nil {
		if err := ctx.Err(); err != nil {
			return nil, nil, &Error{Offset: 0, Err: err}
		}
		w.ctx, w.nextCheck = ctx, checkEvery
	}
	return w.walk(args, root)
}

// walk normalizes args at the schema root.
func (w *walker) walk(args []byte, root *node) (out []byte, repairs []Repair, err error) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case patternSpent:
			out, repairs = nil, nil
			err = &Error{Offset: w.prev, Err: r.error()}
		default:
			panic(r)
		}
	}()
	i := jsonraw.SkipSpace(args, 0)
	end, err := w.value(args, i, root, nil)
	if err != nil {
		return nil, nil, err
	}
	if j := jsonraw.SkipSpace(args, end); j < len(args) {
		return nil, nil, &Error{Offset: j, Err: fmt.Errorf("%w: %s after the top-level value", ErrSyntax, jsonraw.Describe(args, j))}
	}
	if args[i] != '{' {
		return nil, nil, &Error{Offset: i, Err: fmt.Errorf("%w, not %s", ErrNotObject, kindAt(args[i]))}
	}
	if w.out == nil {
		return args[:len(args):len(args)], w.repairs.list(), nil
	}
	return append(w.out, args[w.prev:]...), w.repairs.list(), nil
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

// walker walks one set of arguments, and the values decoded from its
// strings, alongside the schema.
//
// It writes the result as it goes, once something changes: out holds the
// result up to src[prev], src being the text the walk is in, the arguments
// or a string being JSON-decoded. A repair of src[lo:hi] copies src[prev:lo]
// (begin), writes what replaces it, and sets prev to hi.
type walker struct {
	cfg     *config
	report  bool
	repairs repairList
	depth   int
	args    []byte // the arguments
	nextAmp int    // see textOnly
	// What is left of the call's budget of pattern steps.
	patternSteps int64

	// The work done (values walked, positions visited, see checkEvery),
	// and where the walk next looks at its context, when it has one.
	work      int64
	tries     int64 // of work, the patterns tried on keys
	ctx       context.Context
	nextCheck int64
	stopped   bool        // ctx was done: the error goes up as it is
	pos       *positions  // the lookups shared between members (walker.child)
	paths     []*pathStep // the Pointer steps of the path, by depth (see path)

	out  []byte
	prev int

	// Buffers reused from string to string, for the text of a string
	// without its escapes and with its references decoded.
	unquoted, decoded []byte
}

// begin starts a repair at src[lo]: the result gets src[prev:lo].
func (w *walker) begin(src []byte, lo int) {
	if w.out == nil {
		// Repairs hardly ever make the arguments longer.
		w.out = make([]byte, 0, len(w.args)+len(w.args)/64+64)
	}
	w.out = append(w.out, src[w.prev:lo]...)
	w.prev = lo
}

// step is the last step of a path, where the walk is (for pointers): an
// object member (its raw key, between the quotes) or an array element,
// below the step up, depth steps from the top. The steps live in the
// frames of the walk, so keeping track of the path costs no allocation;
// nil is the top.
type step struct {
	up      *step
	key     []byte
	index   int
	isIndex bool
	depth   int
}

// path returns the Pointer steps of the path that ends at at, making those
// it lacks: a step of the walk becomes a Pointer's only when a repair or
// an error below it asks, once for all of them, so that each key is copied
// once however many repairs lie below it. w.paths[d] is the Pointer step
// of the walk's step at depth d, while that step stays where it is (next
// clears it).
//
// The Pointer steps are kept apart from the walk's steps: a step holding
// one would have the compiler move every step to the heap.
func (w *walker) path(at *step) *pathStep {
	if at == nil {
		return nil
	}
	if at.depth < len(w.paths) && w.paths[at.depth] != nil {
		return w.paths[at.depth]
	}
	up := w.path(at.up)
	var p *pathStep
	if at.isIndex {
		p = newPathStep(up, "", at.index)
	} else {
		p = newPathStep(up, string(unquoteKey(at.key)), -1)
	}
	for len(w.paths) <= at.depth {
		w.paths = append(w.paths, nil)
	}
	w.paths[at.depth] = p
	return p
}

// next records that the walk's step at depth moved on, to another member
// or element: its Pointer step, if it had one, is no longer its own.
func (w *walker) next(depth int) {
	if depth < len(w.paths) {
		w.paths[depth] = nil
	}
}

// pointerTo returns the Pointer of a repair at at. An element's needs no
// step of its own unless something below it made one.
func (w *walker) pointerTo(at *step) Pointer {
	if at != nil && at.isIndex && (at.depth >= len(w.paths) || w.paths[at.depth] == nil) {
		return Pointer{last: w.path(at.up), elem: at.index + 1}
	}
	return Pointer{last: w.path(at)}
}

// pointer returns the JSON Pointer of the path that ends at at, as text.
func (w *walker) pointer(at *step) string { return Pointer{last: w.path(at)}.String() }

func depthOf(at *step) int {
	if at == nil {
		return 0
	}
	return at.depth
}

// tick counts n units of work and, every checkEvery, looks at the
// context: done, it gives the error that ends the walk, at b[i].
func (w *walker) tick(n int64, i int, at *step) error {
	w.work += n
	if w.ctx == nil || w.work < w.nextCheck {
		return nil
	}
	w.nextCheck = w.work + checkEvery
	if err := w.ctx.Err(); err != nil {
		w.stopped = true
		return &Error{Offset: i, Pointer: w.pointer(at), Err: err}
	}
	return nil
}

func (w *walker) syntaxError(err error, at *step) error {
	if err == nil {
		return nil
	}
	var se *jsonraw.SyntaxError
	if errors.As(err, &se) {
		return &Error{Offset: se.Offset, Pointer: w.pointer(at), Err: fmt.Errorf("%w: %s", ErrSyntax, se.Msg)}
	}
	return err
}

// value walks the JSON value that starts at b[i] under schema position n,
// at the end of the path at, making the repairs it needs, and returns
// where it ends.
func (w *walker) value(b []byte, i int, n *node, at *step) (int, error) {
	if i >= len(b) {
		return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: "unexpected end of input"}, at)
	}
	switch c := b[i]; {
	case c == '"':
		end, flags, err := jsonraw.ScanString(b, i)
		if err != nil {
			return 0, w.syntaxError(err, at)
		}
		if w.plain(b, i+1, end-1, flags) {
			return end, nil
		}
		return w.str(b, i, end, flags, n, at)
	case c == '{' || c == '[':
		if w.depth >= w.cfg.maxDepth {
			return 0, &Error{Offset: i, Pointer: w.pointer(at), Err: fmt.Errorf("%w: more than %d nested arrays and objects", ErrTooDeep, w.cfg.maxDepth)}
		}
		w.depth++
		var end int
		var err error
		if c == '{' {
			end, err = w.object(b, i, n, at)
		} else {
			end, err = w.array(b, i, n, at)
		}
		w.depth--
		return end, err
	case c == '-' || '0' <= c && c <= '9':
		end, err := jsonraw.ScanNumber(b, i)
		return end, w.syntaxError(err, at)
	default:
		end, err := jsonraw.ScanLiteral(b, i)
		return end, w.syntaxError(err, at)
	}
}

func (w *walker) object(b []byte, i int, n *node, at *step) (int, error) {
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	// Errors point at the object until a key is read, then at the member
	// of the last key read.
	st := step{up: at, depth: depthOf(at) + 1}
	cur := at
	members := n.memberSchemas()
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid %s looking for beginning of object key string", jsonraw.Describe(b, i))}, cur)
		}
		kend, kflags, err := jsonraw.ScanString(b, i)
		if err != nil {
			return 0, w.syntaxError(err, cur)
		}
		key := b[i+1 : kend-1]
		st.key = key
		w.next(st.depth)
		cur = &st
		if err := w.tick(1, i, cur); err != nil {
			return 0, err
		}
		i = jsonraw.SkipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid %s after object key", jsonraw.Describe(b, i))}, cur)
		}
		i = jsonraw.SkipSpace(b, i+1)
		// The member's schema is looked up only where the walk needs it:
		// for an object or array, and for a string that may change.
		var c byte
		if i < len(b) {
			c = b[i]
		}
		switch {
		case c == '"': // the most common value, directly
			end, flags, err := jsonraw.ScanString(b, i)
			if err != nil {
				return 0, w.syntaxError(err, cur)
			}
			if w.plain(b, i+1, end-1, flags) {
				i = end
				break
			}
			if i, err = w.str(b, i, end, flags, w.memberOf(n, members, key, kflags), cur); err != nil {
				return 0, err
			}
		case c == '{' || c == '[':
			if i, err = w.value(b, i, w.memberOf(n, members, key, kflags), cur); err != nil {
				return 0, err
			}
		default: // a number or a literal, or an error
			if i, err = w.value(b, i, nil, cur); err != nil {
				return 0, err
			}
		}
		i = jsonraw.SkipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = jsonraw.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return i + 1, nil
		}
		return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid %s after object member", jsonraw.Describe(b, i))}, cur)
	}
}

func (w *walker) array(b []byte, i int, n *node, at *step) (int, error) {
	i = jsonraw.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	st := step{up: at, isIndex: true, depth: depthOf(at) + 1}
	elem, same := n.elementSchema()
	for index := 0; ; index++ {
		st.index = index
		w.next(st.depth)
		if err := w.tick(1, i, &st); err != nil {
			return 0, err
		}
		var err error
		if i < len(b) && b[i] == '"' {
			end, flags, err := jsonraw.ScanString(b, i)
			if err != nil {
				return 0, w.syntaxError(err, &st)
			}
			if w.plain(b, i+1, end-1, flags) {
				i = end
			} else if i, err = w.str(b, i, end, flags, w.elementOf(n, elem, same, index), &st); err != nil {
				return 0, err
			}
		} else if i, err = w.value(b, i, w.elementOf(n, elem, same, index), &st); err != nil {
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
		return 0, w.syntaxError(&jsonraw.SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid %s after array element", jsonraw.Describe(b, i))}, &st)
	}
}

// memberOf returns the schema position of the member with the raw key key
// (flags from its scan) of an object at n; members is n.memberSchemas().
func (w *walker) memberOf(n, members *node, key []byte, kflags jsonraw.Flags) *node {
	if members != nil && kflags&jsonraw.Escaped == 0 {
		return members.member(key)
	}
	if n != nil {
		return w.child(n, tObject, member(unquoteKey(key), &w.patternSteps))
	}
	return nil
}

// elementOf returns the schema position of the element index of an array
// at n; elem and same are n.elementSchema().
func (w *walker) elementOf(n, elem *node, same bool, index int) *node {
	if !same && n != nil {
		return w.child(n, tArray, element(index))
	}
	return elem
}

// plain reports whether the string whose raw text is b[lo:hi] (flags
// from its scan) stays as it is wherever it stands, without looking at the
// schema: it holds no character reference, and its value cannot be JSON
// text of an array or an object, for it starts with neither '[' nor '{'.
// A string that starts with whitespace or an escape (which may be
// whitespace) is not taken to be plain. Small enough to be inlined: the
// walk asks it of every string.
func (w *walker) plain(b []byte, lo, hi int, flags jsonraw.Flags) bool {
	// b[hi] is the closing quote, so b[lo] is there even when lo == hi.
	return !mayOpen[b[lo]] && (w.nextAmp >= hi && flags == 0 || w.textOnly(b, lo, hi, flags))
}

// mayOpen holds the bytes that may start a string's JSON text: '[', '{'
// and whitespace, as they are or escaped.
var mayOpen = [256]bool{'[': true, '{': true, ' ': true, '\\': true}

// textOnly reports whether every '&' in the string b[lo:hi] (flags from
// its scan) stays text.
// In the arguments, which the walk reads from start to end, it keeps the
// offset of the next '&' (nextAmp) rather than look in each string: one
// search per '&', not one per string, and most strings have none. In
// other text (the value of a string being JSON-decoded), nextAmp is -1.
func (w *walker) textOnly(b []byte, lo, hi int, flags jsonraw.Flags) bool {
	if flags&jsonraw.EscapedAmp != 0 {
		return false
	}
	if len(b) != len(w.args) || &b[0] != &w.args[0] {
		return rawIsText(b[lo:hi], w.cfg.profile)
	}
	if w.nextAmp < lo {
		w.nextAmp = nextAmp(b, lo)
	}
	for w.nextAmp < hi {
		if !ampIsText(b[lo:hi], w.nextAmp-lo, flags&jsonraw.Escaped != 0, w.cfg.profile) {
			return false
		}
		w.nextAmp = nextAmp(b, w.nextAmp+1)
	}
	return true
}

// nextAmp returns the index of the first '&' in b at or after i, or len(b).
func nextAmp(b []byte, i int) int {
	if j := bytes.IndexByte(b[i:], '&'); j >= 0 {
		return i + j
	}
	return len(b)
}

// str repairs the string b[i:end] (docs/readings.md, sections 5 and 6),
// scanned with flags, at schema position n: JSON-decode the string as
// sent where the schema allows; else decode its references, and
// JSON-decode the result where it now qualifies.
func (w *walker) str(b []byte, i, end int, flags jsonraw.Flags, n *node, at *step) (int, error) {
	shapes := jsonShapes(n)
	if w.cfg.depth == TopLevel && (at == nil || at.up != nil) || !w.cfg.repairs.JSON() {
		shapes = 0 // not a top-level parameter, or no JSON repair
	}
	v := b[i+1 : end-1]
	if shapes == 0 && (!w.cfg.repairs.Entities() || flags&jsonraw.EscapedAmp == 0 && rawIsText(v, w.cfg.profile)) {
		return end, nil // nothing in it can change
	}
	w.begin(b, i)
	if flags&jsonraw.Escaped != 0 {
		if shapes != 0 {
			// Its text may be walked as JSON, and the strings in it
			// unquoted meanwhile: a buffer of its own.
			v = jsonraw.Unquote(make([]byte, 0, len(v)), v)
		} else {
			v = jsonraw.Unquote(w.unquoted[:0], v)
			w.unquoted = v
		}
	}
	if ok, err := w.decodeJSON(v, n, shapes, i, at); err != nil || ok {
		if ok {
			w.prev = end
		}
		return end, err
	}
	if !w.cfg.repairs.Entities() || bytes.IndexByte(v, '&') < 0 {
		return end, nil
	}
	d, res := entity.DecodeTo(w.decoded[:0], v, w.cfg.profile, w.cfg.maxPasses)
	if res.Passes == 0 {
		return end, nil
	}
	if w.report && w.repairs.keep() {
		w.repairs.add(Repair{Pointer: w.pointerTo(at), Kind: EntitiesDecoded, Passes: res.Passes, Fixpoint: res.Fixpoint})
	}
	if shapes != 0 {
		// The decoded text may be walked as JSON in turn: it keeps its
		// buffer meanwhile.
		w.decoded = nil
		ok, err := w.decodeJSON(d, n, shapes, i, at)
		if err != nil {
			return 0, err
		}
		if ok {
			w.prev = end
			return end, nil
		}
	}
	w.out = jsonraw.AppendQuote(w.out, d)
	w.prev = end
	if cap(d) > cap(w.decoded) {
		w.decoded = d[:0]
	}
	return end, nil
}

// rawIsText reports whether every '&' in raw, a string's text as sent,
// stays text, without unquoting the whole string (see ampIsText). An '&'
// escaped as \u0026 is not seen: the caller checks for it.
func rawIsText(raw []byte, mode Profile) bool {
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '&')
		if j < 0 {
			return true
		}
		if !ampIsText(raw, i+j, true, mode) {
			return false
		}
		i += j + 1
	}
}

// ampIsText reports whether the '&' at raw[q], raw being a string's text
// as sent, stays text. escaped says whether raw may hold an escape: the
// decision reads the [entity.Window] bytes of the value from the '&',
// which are the raw bytes when they hold none, else a few unquoted on the
// stack.
func ampIsText(raw []byte, q int, escaped bool, mode Profile) bool {
	win := raw[q:min(len(raw), q+entity.Window)]
	if escaped && bytes.IndexByte(win, '\\') >= 0 {
		var buf [entity.Window + 8]byte
		win, _ = jsonraw.UnquotePrefix(buf[:0], raw[q:], entity.Window)
	}
	_, _, n := entity.Decide(win, mode)
	return n == 0
}

// jsonShapes returns the shapes (tArray, tObject) a string at n may be
// JSON-decoded into: none where n admits a string or is unknown.
func jsonShapes(n *node) typeSet {
	if n == nil || n.types&tString != 0 {
		return 0
	}
	return n.types & (tArray | tObject)
}

// decodeJSON JSON-decodes the string value v, found at offset off (path
// at), if it is one JSON value (with whitespace around it) of a shape in
// shapes: it writes that value, normalized under n and without the
// whitespace around it, to the result. Text that does not parse is no
// error: the string stays a string, and the result is as it was. Only
// nesting past the limit is, as it would be anywhere else. The caller has
// begun the repair of the string.
func (w *walker) decodeJSON(v []byte, n *node, shapes typeSet, off int, at *step) (bool, error) {
	lo := jsonraw.SkipSpace(v, 0)
	if lo == len(v) {
		return false, nil
	}
	shape := typeSet(0)
	switch v[lo] {
	case '[':
		shape = tArray
	case '{':
		shape = tObject
	}
	if shape&shapes == 0 {
		return false, nil
	}
	mark, outMark, prev := w.repairs.total(), len(w.out), w.prev
	if w.report && w.repairs.keep() {
		w.repairs.add(Repair{Pointer: w.pointerTo(at), Kind: JSONDecoded, Shape: shapeName(shape), Fixpoint: true})
	}
	w.prev = lo
	nextAmp := w.nextAmp
	w.nextAmp = -1 // see textOnly
	hi, err := w.value(v, lo, n, at)
	w.nextAmp = nextAmp
	if err == nil && jsonraw.SkipSpace(v, hi) != len(v) {
		err = &Error{Err: ErrSyntax}
	}
	if err != nil {
		w.repairs.truncate(mark)
		w.out, w.prev = w.out[:outMark], prev
		// Stopped by the context, an error wherever it is. Too deep to
		// parse here: an error if the text is JSON (it would be decoded,
		// and nest past the limit), none if it is not.
		if e, ok := err.(*Error); ok && (w.stopped || errors.Is(e.Err, ErrTooDeep) && jsonraw.Valid(v)) {
			e.Offset = off
			return false, e
		}
		return false, nil
	}
	w.out = append(w.out, v[w.prev:hi]...)
	w.prev = prev
	return true, nil
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
