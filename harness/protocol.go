package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// Version is the protocol version this package speaks. Adapters that speak
// version 1 keep working with every later toolnorm.
const Version = 1

// Info is what an adapter says of its implementation.
type Info struct {
	Name     string `json:"name"`
	Language string `json:"language,omitempty"`
	Version  string `json:"version,omitempty"`
	Homepage string `json:"homepage,omitempty"`
	// Coverage names what the ids of the adapter's coverage count
	// ("lines", "arcs", "blocks", "edges"), when it offers coverage: the
	// answer to start's coverage member, an addition to version 1.
	Coverage string `json:"-"`
}

// Declares is the reading of the rule an adapter says it implements; the
// harness compares it with the reference configured the same way. Its
// members are those of impl.Options that an adapter may choose.
type Declares struct {
	Profile   normalize.Profile `json:"profile,omitempty"`    // text (default) or attribute
	MaxPasses int               `json:"max_passes,omitempty"` // 0: unbounded (default)
	Depth     normalize.Depth   `json:"depth,omitempty"`      // all (default) or top
	// Repairs lists the repairs the implementation does: "json" (clauses
	// 2 and 3), "entities" (clause 4); absent, both (the default).
	Repairs []string `json:"repairs,omitempty"`
}

// Options returns the options the reference runs with to compare with an
// implementation that declares d.
func (d Declares) Options() impl.Options {
	o := impl.Options{Profile: d.Profile, MaxPasses: d.MaxPasses, Depth: d.Depth}
	o.Repairs, _ = repairsOf(d.Repairs)
	return o
}

// DeclareRepairs is the declares.repairs list of r: nil for both.
func DeclareRepairs(r normalize.Repairs) []string {
	switch r {
	case normalize.JSONRepair:
		return []string{"json"}
	case normalize.EntityRepair:
		return []string{"entities"}
	}
	return nil
}

// repairsOf reads a declares.repairs list.
func repairsOf(list []string) (normalize.Repairs, error) {
	if list == nil {
		return normalize.AllRepairs, nil
	}
	var json, entities bool
	for _, r := range list {
		switch {
		case r == "json" && !json:
			json = true
		case r == "entities" && !entities:
			entities = true
		case r == "json" || r == "entities":
			return 0, fmt.Errorf("repairs: %q twice", r)
		default:
			return 0, fmt.Errorf("repairs: %q: want \"json\" or \"entities\"", r)
		}
	}
	switch {
	case json && entities:
		return normalize.AllRepairs, nil
	case json:
		return normalize.JSONRepair, nil
	case entities:
		return normalize.EntityRepair, nil
	}
	return 0, errors.New(`repairs: empty: an implementation does "json", "entities" or both`)
}

func (d Declares) check() error {
	if _, err := repairsOf(d.Repairs); err != nil {
		return fmt.Errorf("declares: %w", err)
	}
	if err := d.Options().Validate(); err != nil {
		return fmt.Errorf("declares: %w", err)
	}
	return nil
}

// startAnswer is the answer to start.
type startAnswer struct {
	Version        *int            `json:"version"`
	Implementation *Info           `json:"implementation"`
	Declares       json.RawMessage `json:"declares"`
	Coverage       json.RawMessage `json:"coverage"`
}

// memberName is the member encoding/json names, quoted as it quotes it
// (`"repairs"`), as one line of ASCII, at most 100 characters of it.
func memberName(quoted string) string {
	name := strings.TrimSuffix(strings.TrimPrefix(quoted, `"`), `"`)
	if utf8.RuneCountInString(name) > 100 {
		name = string([]rune(name)[:100]) + "..."
	}
	return strconv.QuoteToASCII(name)
}

func parseStart(line []byte) (Info, Declares, error) {
	// encoding/json takes the last of a member given twice: which the
	// adapter meant is not known.
	if jsonraw.Valid(line) {
		if twice := repeated(line, "version", "implementation", "declares", "coverage"); twice != "" {
			return Info{}, Declares{}, fmt.Errorf("the answer to start has the member %q twice", twice)
		}
	}
	var a startAnswer
	if err := json.Unmarshal(line, &a); err != nil {
		return Info{}, Declares{}, fmt.Errorf("the answer to start is not a JSON object with version, implementation and declares: %v", err)
	}
	var d Declares
	if len(a.Declares) > 0 && string(a.Declares) != "null" {
		// Strict: a misspelt choice must not leave the adapter compared
		// with the default reading unnoticed.
		dec := json.NewDecoder(bytes.NewReader(a.Declares))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
				// A misspelling, or a declaration of a newer protocol
				// than this toolnorm's (an adapter's kit newer than it):
				// one line says which toolnorm reads it.
				return Info{}, Declares{}, fmt.Errorf("the adapter declares %s, which this toolnorm does not know (it knows profile, max_passes, depth, repairs): misspelt, or newer than this toolnorm; then use a toolnorm at least as new as the adapter's kit (toolnorm version says which this is)", memberName(name))
			}
			return Info{}, Declares{}, fmt.Errorf("the answer to start declares a value toolnorm does not know: %v", err)
		}
	}
	switch {
	case a.Version == nil:
		return Info{}, Declares{}, errors.New("the answer to start has no version")
	case *a.Version != Version:
		return Info{}, Declares{}, fmt.Errorf("the adapter speaks protocol version %d; this toolnorm speaks %d", *a.Version, Version)
	case a.Implementation == nil || a.Implementation.Name == "":
		return Info{}, Declares{}, errors.New("the answer to start names no implementation")
	}
	if err := d.check(); err != nil {
		return Info{}, Declares{}, err
	}
	info := *a.Implementation
	unit, err := coverageUnit(a.Coverage)
	if err != nil {
		return Info{}, Declares{}, err
	}
	info.Coverage = unit
	return info, d, nil
}

// coverageUnit reads the answer to start's coverage member: absent or
// null, no coverage; else a name of what the ids count.
func coverageUnit(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var unit string
	if err := json.Unmarshal(raw, &unit); err != nil || !coverageName.MatchString(unit) {
		return "", fmt.Errorf("the answer to start offers coverage %.40s: want a name of what its ids count, such as \"lines\" or \"edges\" (lower-case letters, at most 32)", raw)
	}
	return unit, nil
}

// coverageName is the form of a unit of coverage.
var coverageName = regexp.MustCompile(`^[a-z][a-z-]{0,31}$`)

// MaxCoverage is the most ids one answer's coverage may hold: more is a
// protocol error (an answer's coverage is bounded, whatever the program).
const MaxCoverage = 1 << 16

// askCoverage returns a request line made by request (ending "}\n") that
// asks for the case's coverage.
func askCoverage(line []byte) []byte {
	out := make([]byte, 0, len(line)+len(coverageAsk))
	out = append(out, line[:len(line)-2]...)
	return append(append(out, coverageAsk...), "}\n"...)
}

const coverageAsk = `,"coverage":true`

// coverageMember is how an answer's coverage member starts, written
// compact as the kits write it: the answer's last member, its ids parsed
// apart from the rest of the line, which then goes the fast way.
const coverageMember = `,"coverage":[`

// splitCoverage cuts the coverage member off the end of an answer line
// that ends with it ({"id":7,"arguments":...,"coverage":[3,9]}): the line
// without it, and the ids. It reports false when the line does not end
// so; the line is then parsed whole. The member cannot be inside a
// string (a quote in one is escaped) and what follows it is only ids, so
// it is the outer object's.
func splitCoverage(line []byte) (head []byte, ids []uint32, ok bool, err error) {
	end := len(line)
	for end > 0 && jsonraw.IsSpace(line[end-1]) {
		end--
	}
	j := end - 1
	for j > 0 && jsonraw.IsSpace(line[j-1]) {
		j--
	}
	if end < 2 || line[end-1] != '}' || j < 1 || line[j-1] != ']' {
		return nil, nil, false, nil // most answers end with their arguments' '}'
	}
	at := bytes.LastIndex(line[:end], []byte(coverageMember))
	if at < 0 {
		return nil, nil, false, nil
	}
	list := line[at+len(coverageMember)-1 : end-1]
	for i := 1; i < len(list); i++ {
		if c := list[i]; c != ',' && c != ']' && !jsonraw.IsSpace(c) && (c < '0' || c > '9') || c == ']' && i != len(list)-1 {
			return nil, nil, false, nil
		}
	}
	if len(list) < 2 || list[len(list)-1] != ']' {
		return nil, nil, false, nil
	}
	ids, err = parseIDs(list)
	head = make([]byte, 0, at+1)
	head = append(append(head, line[:at]...), '}')
	return head, ids, true, err
}

// errCoverage is the error of a coverage member that is not a list of
// ids.
var errCoverage = errors.New("the answer's coverage is not a list of integers from 0 to 4294967295")

// parseIDs reads a coverage list of digits, commas and spaces as JSON
// reads it ([ 3 , 9 ], not [3,,9], [03] or [3 9]), without a tree: there
// may be 65,536 of them.
func parseIDs(list []byte) ([]uint32, error) {
	var ids []uint32
	i := jsonraw.SkipSpace(list, 1)
	if list[i] == ']' && i == len(list)-1 {
		return []uint32{}, nil
	}
	for {
		start := i
		var n uint64
		for i < len(list) && '0' <= list[i] && list[i] <= '9' {
			n = n*10 + uint64(list[i]-'0')
			if n > math.MaxUint32 {
				return nil, errCoverage
			}
			i++
		}
		if i == start || list[start] == '0' && i-start > 1 {
			return nil, errCoverage // no digits, or a leading zero
		}
		if len(ids) == MaxCoverage {
			return nil, fmt.Errorf("the answer's coverage holds more than %d ids", MaxCoverage)
		}
		ids = append(ids, uint32(n))
		i = jsonraw.SkipSpace(list, i)
		switch {
		case list[i] == ']' && i == len(list)-1:
			slices.Sort(ids)
			return slices.Compact(ids), nil
		case list[i] != ',':
			return nil, errCoverage
		}
		i = jsonraw.SkipSpace(list, i+1)
	}
}

// coverageOf reads an answer's coverage member, wherever it stands, as
// parseIDs reads the member written last: an array of integers from 0 to
// 4294967295 (written compact, as the tree writes it).
func coverageOf(v *jsonvalue.Value) ([]uint32, error) {
	if v.Kind != jsonvalue.Array {
		return nil, errCoverage
	}
	return parseIDs(v.Append(nil))
}

// idMark stands for the id in a request line until withID sets it.
const idMark = `"id":0,`

// idPrefix starts every request line request makes, up to its id.
const idPrefix = `{"cmd":"normalize","id":`

// withID returns a request line made by request with its id set.
func withID(line []byte, id int) []byte {
	return appendWithID(make([]byte, 0, len(line)+20), line, id)
}

// appendWithID appends a request line made by request to dst, with its id
// set: the id spliced in after the prefix, the line copied once.
func appendWithID(dst, line []byte, id int) []byte {
	if !bytes.HasPrefix(line, []byte(idPrefix+idMark[len(`"id":`):])) {
		return append(dst, bytes.Replace(line, []byte(idMark), fmt.Appendf(nil, `"id":%d,`, id), 1)...)
	}
	dst = append(dst, idPrefix...)
	dst = strconv.AppendInt(dst, int64(id), 10)
	return append(dst, line[len(idPrefix)+1:]...)
}

// request returns the line of a normalize request. schema and args must be
// JSON (within jsonvalue's nesting limit); they are sent compact, their
// number text and escapes kept.
func request(id int, schema, args []byte) ([]byte, error) {
	// Most cases are compact already, with no escape in their strings:
	// they go as they are, checked but not parsed.
	if asIs(schema) && asIs(args) {
		b := make([]byte, 0, len(schema)+len(args)+64)
		b = append(b, idPrefix...)
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, `,"schema":`...)
		b = append(b, schema...)
		b = append(b, `,"arguments":`...)
		b = append(b, args...)
		return append(b, "}\n"...), nil
	}
	return requestParsed(id, schema, args)
}

// requestParsed is request for any JSON: parsed, and written compact.
func requestParsed(id int, schema, args []byte) ([]byte, error) {
	s, err := jsonvalue.Parse(schema)
	if err != nil {
		return nil, fmt.Errorf("the schema is not JSON: %v", err)
	}
	a, err := jsonvalue.Parse(args)
	if err != nil {
		return nil, fmt.Errorf("the arguments are not JSON: %v", err)
	}
	b := fmt.Appendf(nil, `{"cmd":"normalize","id":%d,"schema":`, id)
	b = s.Append(b)
	b = append(b, `,"arguments":`...)
	b = a.Append(b)
	return append(b, "}\n"...), nil
}

// parseAnswer reads the answer to request id, its coverage too when it
// has one.
func parseAnswer(line []byte, id int) impl.Result {
	if head, ids, ok, err := splitCoverage(line); ok {
		if err != nil {
			return protocolError("%v", err)
		}
		r, ok := parseArguments(head, id)
		if !ok {
			r = parseAnswerTree(head, id)
		}
		switch {
		case r.Coverage != nil:
			return protocolError("the answer has the member %q twice", "coverage")
		case !r.Failed():
			r.Coverage = ids
		}
		return r
	}
	if r, ok := parseArguments(line, id); ok {
		return r
	}
	return parseAnswerTree(line, id)
}

// parseArguments reads the most common answer, the arguments to request
// id, {"id":id,"arguments":...} (with or without whitespace around the
// id's member), without parsing the line into a tree: the arguments are
// taken as they are when they are written as parseAnswerTree writes them
// (compact, escapes as jsonraw.AppendQuote writes them), else only they
// are parsed. It reports false for
// any other line, which parseAnswerTree reads; for a line it reads, the
// result is parseAnswerTree's.
// keyAt reads the member name key (quoted, as written) at line[i:] and
// the colon after it, spaces between skipped; it returns where the colon
// is.
func keyAt(line []byte, i int, key string) (int, bool) {
	if !bytes.HasPrefix(line[i:], []byte(key)) {
		return 0, false
	}
	i = jsonraw.SkipSpace(line, i+len(key))
	if i >= len(line) || line[i] != ':' {
		return 0, false
	}
	return i, true
}

func parseArguments(line []byte, id int) (impl.Result, bool) {
	i := jsonraw.SkipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return impl.Result{}, false
	}
	i, ok := keyAt(line, jsonraw.SkipSpace(line, i+1), `"id"`)
	if !ok {
		return impl.Result{}, false
	}
	i = jsonraw.SkipSpace(line, i+1)
	var digits [20]byte
	want := strconv.AppendInt(digits[:0], int64(id), 10)
	if !bytes.HasPrefix(line[i:], want) {
		return impl.Result{}, false
	}
	i = jsonraw.SkipSpace(line, i+len(want))
	if i >= len(line) || line[i] != ',' {
		return impl.Result{}, false // a longer number, or not a number
	}
	if i, ok = keyAt(line, jsonraw.SkipSpace(line, i+1), `"arguments"`); !ok {
		return impl.Result{}, false
	}
	end := len(line)
	for end > i && jsonraw.IsSpace(line[end-1]) {
		end--
	}
	if end <= i+1 || line[end-1] != '}' {
		return impl.Result{}, false
	}
	// What is between the colon and the last '}': if it is one JSON
	// value, the line is the object of the two members, nested one level
	// more than the value.
	args := line[i+1 : end-1]
	for len(args) > 0 && jsonraw.IsSpace(args[0]) {
		args = args[1:]
	}
	for len(args) > 0 && jsonraw.IsSpace(args[len(args)-1]) {
		args = args[:len(args)-1]
	}
	if jsonraw.Plain(args, jsonvalue.MaxDepth-1) || jsonraw.Valid(args) && compactQuoted(args) {
		return impl.OK(args[:len(args):len(args)]), true
	}
	// A value nested as deeply as the limit takes twice as many bytes:
	// shorter, the line is within the limit if the value is.
	if len(args) >= 2*(jsonvalue.MaxDepth-1) {
		return impl.Result{}, false
	}
	v, err := jsonvalue.Parse(args)
	if err != nil {
		return impl.Result{}, false
	}
	return impl.OK(v.Append(nil)), true
}

// parseAnswerTree is parseAnswer for any line: parsed into a tree.
func parseAnswerTree(line []byte, id int) impl.Result {
	v, err := jsonvalue.Parse(line)
	if err != nil || v.Kind != jsonvalue.Object {
		return protocolError("the answer is not a JSON object: %s", brokenAt(line, id, err))
	}
	var gotID, args, msg, unsupported, coverage *jsonvalue.Value
	for _, m := range v.Members {
		var member **jsonvalue.Value
		switch m.Key {
		case "id":
			member = &gotID
		case "arguments":
			member = &args
		case "error":
			member = &msg
		case "unsupported":
			member = &unsupported
		case "coverage":
			member = &coverage
		default:
			continue
		}
		if *member != nil {
			// Which of the two the adapter meant is not known.
			return protocolError("the answer has the member %q twice", m.Key)
		}
		*member = m.Value
	}
	switch {
	case gotID == nil || gotID.Kind != jsonvalue.Number:
		return protocolError("the answer has no id: %.200q", withoutID(line, id))
	case gotID.Number != strconv.Itoa(id):
		return protocolError("the answer's id is not its request's")
	case unsupported != nil && (args != nil || msg != nil):
		return protocolError("the answer has unsupported with arguments or error")
	case unsupported != nil && (unsupported.Kind != jsonvalue.String || unsupported.Str == ""):
		return protocolError("the answer's unsupported is not a string that says why")
	case unsupported != nil:
		// The adapter's language cannot hold the case as it was sent (a
		// JavaScript object keeps one of two duplicate members): the case
		// is not judged, like one no line can carry.
		return impl.Fail(fmt.Errorf("%w: the adapter cannot hold it as it is", impl.ErrNotSendable), impl.AdapterCannotHold+unsupported.Str)
	case args != nil && msg != nil:
		return protocolError("the answer has both arguments and error")
	case msg == nil && args == nil:
		return protocolError("the answer has neither arguments nor error")
	}
	var r impl.Result
	if msg != nil {
		detail := msg.Str
		if msg.Kind != jsonvalue.String {
			detail = string(msg.Append(nil))
		}
		r = impl.Reject(impl.ErrUnspecified, detail)
	} else {
		r = impl.OK(args.Append(nil))
	}
	if coverage != nil {
		ids, err := coverageOf(coverage)
		if err != nil {
			return protocolError("%v", err)
		}
		r.Coverage = ids
	}
	return r
}

// idMember is an "id" member's value in an answer line, JSON or not: its
// integer, or the digits of its string, and the byte after them.
var idMember = regexp.MustCompile(`("id"\s*:\s*"?)([0-9]+)([^0-9.eE]|$)`)

// withoutID is an answer line as a message quotes it: the request's id
// left out (…). Ids depend on restarts and on which run of the adapter
// took the request; a report for the same --seed and --checks must not.
// The event keeps the id, for debugging.
func withoutID(line []byte, id int) []byte {
	return idMember.ReplaceAllFunc(line, func(m []byte) []byte {
		sub := idMember.FindSubmatch(m)
		if string(sub[2]) != strconv.Itoa(id) {
			return m
		}
		return append(append(append([]byte{}, sub[1]...), "…"...), sub[3]...)
	})
}

// brokenAt quotes an answer line that is not a JSON object, without its
// request's id: its start, or, when the JSON breaks past what the start
// shows, what comes before and after the byte where it breaks (a long
// answer with `Infinity` near its end shows it, and diagnose can tell).
func brokenAt(line []byte, id int, err error) string {
	var se *jsonraw.SyntaxError
	if !errors.As(err, &se) || se.Offset < quoted-20 || len(line) <= quoted {
		return fmt.Sprintf("%.*q", quoted, withoutID(line, id))
	}
	from := max(se.Offset-60, 0)
	for from < se.Offset && !utf8.RuneStart(line[from]) {
		from++
	}
	to := min(se.Offset+40, len(line))
	for to < len(line) && !utf8.RuneStart(line[to]) {
		to++
	}
	return fmt.Sprintf("%s: \"…%s\"", se.Msg, strings.Trim(strconv.Quote(string(withoutID(line[from:to], id))), `"`)+cutMark(to < len(line)))
}

// cutMark ends a quoted excerpt cut short.
func cutMark(cut bool) string {
	if cut {
		return "…"
	}
	return ""
}

// quoted is how much of an answer line a protocol error quotes.
const quoted = 200

func protocolError(format string, args ...any) impl.Result {
	return impl.Fail(impl.ErrProtocol, fmt.Sprintf(format, args...))
}

// asIs reports whether b is one JSON value that request would send as it
// is: valid, compact (no whitespace outside strings), each string as
// jsonraw.AppendQuote writes it (one with no escape is; one with escapes
// is when they are the ones AppendQuote writes: \" but not \u0026),
// nested less deeply than jsonvalue.MaxDepth.
func asIs(b []byte) bool {
	if jsonraw.Plain(b, jsonvalue.MaxDepth) {
		return true
	}
	return jsonraw.Valid(b) && compactQuoted(b)
}

// compactQuoted reports whether b, valid JSON, has no whitespace outside
// its strings, each string with escapes as jsonraw.AppendQuote writes it,
// and no array or object nested jsonvalue.MaxDepth deep.
func compactQuoted(b []byte) bool {
	var value, quoted []byte
	depth := 0
	for i := 0; i < len(b); {
		switch b[i] {
		case '"':
			end, f, err := jsonraw.ScanString(b, i)
			if err != nil {
				return false
			}
			if f&jsonraw.Escaped != 0 {
				value = jsonraw.Unquote(value[:0], b[i+1:end-1])
				quoted = jsonraw.AppendQuote(quoted[:0], value)
				if !bytes.Equal(quoted, b[i:end]) {
					return false
				}
			}
			i = end
			continue
		case '{', '[':
			if depth++; depth >= jsonvalue.MaxDepth {
				return false
			}
		case '}', ']':
			depth--
		case ' ', '\t', '\n', '\r':
			return false
		}
		i++
	}
	return true
}

// namedID matches the start of an answer line whose first member is its
// id, whether or not the rest is JSON.
var namedID = regexp.MustCompile(`^[ \t]*\{[ \t]*"id"[ \t]*:[ \t]*(-?[0-9]+)[ \t]*[,}]`)

// namesID reports whether line, an answer that breaks the protocol, says
// it is the answer to request id: it starts as a JSON object whose first
// member is "id" with id's text (a line such as {"id": 7, "arguments":
// {"x": Infinity}}). Such a line is that request's: the lines are intact.
func namesID(line []byte, id int) bool {
	m := namedID.FindSubmatch(line)
	return m != nil && string(m[1]) == strconv.Itoa(id)
}

// members calls f with each member of the JSON object b (valid JSON, as
// jsonraw.Valid says), in order: its key, unquoted, and its value's text,
// until f returns false. It reports whether b is an object.
func members(b []byte, f func(key string, value []byte) bool) bool {
	i := jsonraw.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	var key []byte
	for i = jsonraw.SkipSpace(b, i+1); i < len(b) && b[i] == '"'; {
		end, flags, _ := jsonraw.ScanString(b, i)
		if flags&jsonraw.Escaped != 0 {
			key = jsonraw.Unquote(key[:0], b[i+1:end-1])
		} else {
			key = append(key[:0], b[i+1:end-1]...)
		}
		i = jsonraw.SkipSpace(b, end) // the colon
		i = jsonraw.SkipSpace(b, i+1) // the value
		end = skipValue(b, i)
		if !f(string(key), b[i:end]) {
			break
		}
		i = jsonraw.SkipSpace(b, jsonraw.SkipSpace(b, end)+1) // past the comma
	}
	return true
}

// skipValue returns the end of the JSON value at b[i], b being valid
// JSON.
func skipValue(b []byte, i int) int {
	switch c := b[i]; {
	case c == '"':
		end, _, _ := jsonraw.ScanString(b, i)
		return end
	case c == '-' || '0' <= c && c <= '9':
		end, _ := jsonraw.ScanNumber(b, i)
		return end
	case c != '{' && c != '[':
		end, _ := jsonraw.ScanLiteral(b, i)
		return end
	}
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i, _, _ = jsonraw.ScanString(b, i)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return i
}

// repeated returns the first of keys that is a member of the JSON object
// b (valid JSON) twice, or "".
func repeated(b []byte, keys ...string) string {
	seen := make([]bool, len(keys))
	twice := ""
	members(b, func(key string, _ []byte) bool {
		if k := slices.Index(keys, key); k >= 0 {
			if seen[k] {
				twice = key
				return false
			}
			seen[k] = true
		}
		return true
	})
	return twice
}
