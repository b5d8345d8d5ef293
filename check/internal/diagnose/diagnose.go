// Package diagnose names what is wrong in one minimized counterexample: a
// pure function from a case (schema, arguments, options, the expected
// result and the one that came) to a Diagnosis, the class of the
// difference and where it is, with a title a maintainer could file.
//
// The check explains its findings by deviations first
// (check/internal/explain); findings no deviation explains are grouped by
// Diagnosis.Class, one root cause a class, and a diagnosis says where a
// deviation's finding differs. The classes are chosen so that two
// different bugs rarely share one and one bug rarely splits in two. What
// a class looks at:
//
//   - a failure of the program: its kind (timeout, crash, protocol error);
//   - errors: an error where output is expected (and which schema keyword,
//     in a schema position, it needs: the check takes each out to see;
//     whether the program ran out of stack), output where an error is,
//     another kind of error;
//   - a string: a reference left undecoded and its class (no ';', the
//     windows-1252 range, a surrogate, out of range, a name not in the
//     implementation's table, a case variant, a name of two code points),
//     a reference decoded that HTML leaves alone, decoding stopped short of
//     the fixpoint, text without references changed;
//   - the JSON repair: a string decoded where `string` is declared, a
//     wrong shape substituted, text that is not JSON decoded, a decode
//     missed behind a schema keyword ($ref, allOf, patternProperties, ...),
//     a decode missed after the references were decoded;
//   - the rest of the tree: a key changed, a member dropped or added,
//     number text changed, member order changed, a value of another type
//     (and which conversion), a value wrapped in an array;
//   - what JSON.parse-style reading loses (numbers past float64 rounded,
//     integer-like keys moved first, duplicates collapsed, 1e400 to null):
//     inside a string the implementation decoded it is the implementation's
//     (reading/7); in the arguments themselves it is marked an artefact,
//     probably the adapter's plumbing.
package diagnose

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/schemaview"
)

// A Case is one minimized counterexample.
type Case struct {
	Schema, Args []byte
	// Attribute is true under the attribute profile; MaxPasses is the
	// pass bound (0: none).
	Attribute bool
	MaxPasses int
	// Want is the expected result, Got what the implementation gave.
	Want, Got impl.Result
}

// A Diagnosis is what differs in a case, and where.
type Diagnosis struct {
	// Class is stable and short ("undecoded-reference/windows-1252"):
	// findings of one class are one root cause.
	Class string
	// Title says the bug as an issue title would.
	Title string
	// Detail is what a class leaves open: the schema keyword of a
	// decode-missed/keyword (see KeywordTitle), the conversion of a
	// coerced ("string to number", see CoercedTitle).
	Detail string
	// Clause is the clause of the rule, or the reading, it breaks:
	// "rule/2" ... "rule/5", "reading/1" ... "reading/8", or "failure" for
	// a failure of the program.
	Clause string
	// Where is the position in the arguments, a JSON pointer ("" for the
	// whole), when the difference has one.
	Where string
	// Artefact is true when the difference matches what lossy JSON
	// plumbing does to the arguments (JSON.parse and JSON.stringify in an
	// adapter): probably the adapter's, not the implementation's. Fix says
	// how to fix the adapter.
	Artefact bool
	Fix      string
	// Shape is the shape a decode missed misses ("array", "object"), for
	// a title that holds for every finding of its root cause.
	Shape string
}

// FixLossyAdapter is what an artefact's Fix says.
const FixLossyAdapter = "read the request and write the answer with a reader that keeps number text, member order and duplicates (a lossless JSON reader, as the adapter kits in kits/ have), or answer \"unsupported\" for a case the implementation's own values cannot hold"

// Classify diagnoses c. It never fails: what it cannot tell apart gets a
// broad class of its kind.
func Classify(c Case) Diagnosis {
	switch {
	case c.Got.Failure != nil:
		return failure(c)
	case c.Want.Failure != nil:
		return Diagnosis{Class: "reference-failed", Title: "The reference failed on this case", Clause: "failure"}
	case c.Want.Error != "" && c.Got.Error != "":
		return Diagnosis{Class: "wrong-error-kind", Title: fmt.Sprintf("The wrong kind of error: %s where %s is expected", c.Got.Error, c.Want.Error), Clause: "reading/8"}
	case c.Want.Error != "":
		return noError(c)
	case c.Got.Error != "":
		if d, ok := errorTrigger(c); ok {
			return d
		}
		return ErrorUnder(c, keyword(c.Schema))
	}
	want, err := jsonvalue.Parse(c.Want.Output)
	if err != nil {
		return Diagnosis{Class: "reference-output-not-json", Title: "The expected output is not JSON", Clause: "failure"}
	}
	got, err := jsonvalue.Parse(c.Got.Output)
	if err != nil {
		return Diagnosis{Class: "output-not-json", Title: "The output is not JSON text", Clause: "reading/7"}
	}
	in, _ := jsonvalue.Parse(c.Args)
	var schema *jsonvalue.Value
	if s, err := jsonvalue.Parse(c.Schema); err == nil {
		schema = s
	}
	d := differ{c: c, schema: schemaview.New(schema)}
	if r := d.walk(in, want, got, nil, false); r != nil {
		return *r
	}
	return Diagnosis{Class: "same", Title: "No difference", Clause: ""}
}

// failure diagnoses a failure of the program by its kind; an answer
// holding `NaN` or `Infinity` by what in the arguments brings it about
// (its Detail, see NonFiniteTitle).
func failure(c Case) Diagnosis {
	r := c.Got
	d := failureOf(r.Kind(), errors.Is(r.Failure, impl.ErrGaveUp), r.Detail)
	if d.Class == nonFiniteClass {
		d.Detail = nonFiniteCause(c.Args, r.Detail)
		d.Title = NonFiniteTitle([]string{d.Detail})
	}
	return d
}

// EventClass is the class Classify gives the failure a harness event
// records, by its kind as text (impl.Kind's String) and its detail.
func EventClass(kind, detail string) string {
	for k := impl.KindTimeout; k <= impl.KindNotRun; k++ {
		if k.String() == kind {
			return failureOf(k, false, detail).Class
		}
	}
	return ""
}

// failureOf diagnoses a failure of the program of kind k, given up on or
// not, that says detail.
func failureOf(k impl.Kind, gaveUp bool, detail string) Diagnosis {
	d := Diagnosis{Class: "failure/crash", Clause: "failure"}
	switch {
	case gaveUp:
		d.Class, d.Title = "failure/gave-up", "The program fails to start or keeps crashing"
	case k == impl.KindTimeout:
		d.Class, d.Title = "failure/timeout", "The program does not answer within the time limit"
	case k == impl.KindProtocol && nonFinite.MatchString(detail):
		d.Class, d.Title = nonFiniteClass, NonFiniteTitle(nil)
	case k == impl.KindProtocol:
		d.Class, d.Title = "failure/protocol", "The program's answer breaks the protocol"
	case k == impl.KindNotSendable:
		d.Class, d.Title = "failure/not-sendable", "A case no protocol line carries"
	case k == impl.KindNotRun:
		d.Class, d.Title = "failure/not-run", "A case not run"
	default:
		d.Title = "The program crashes"
	}
	return d
}

// ErrorUnder diagnoses an error for arguments the rule repairs or passes
// through (c.Got's) as one the schema keyword kw brings about ("": none),
// as Classify does with the first of schemaview.Keywords; the check, which can run
// the implementation, names the keyword whose removal takes the error
// away. An error of a program that runs out of stack (`Maximum call
// stack size exceeded`) is a class of its own, apart from a message of
// the implementation's, unless a `$ref` cycle of the schema explains it.
func ErrorUnder(c Case, kw string) Diagnosis {
	d := Diagnosis{Class: "error-for-valid-input", Title: "An error for arguments the rule repairs or passes through", Clause: "reading/8"}
	if kw != "" {
		d.Class += "/" + kw
		d.Title = "An error for arguments under a schema with " + code(kw)
		d.Clause = "reading/4"
	}
	switch {
	case kw == "$schema" && !stackExhausted.MatchString(c.Got.Detail):
		// Under which `$schema`: an implementation errs under some
		// drafts, not all (a validator set up with draft-07 and 2020-12
		// only knows no other).
		d.Detail = schemaName(c.Schema)
		d.Title = SchemaErrorTitle([]string{d.Detail})
	case kw == "$ref" && schemaview.RefCycle(c.Schema):
		d.Class += "-cycle"
		d.Title = "An error for arguments under a schema whose `$ref` leads back to itself (a recursive schema, which the rule reads as any other)"
	case stackExhausted.MatchString(c.Got.Detail):
		d.Class += "/stack"
		d.Title += ": the program runs out of stack (`" + stackExhausted.FindString(c.Got.Detail) + "`)"
	case kw == "$ref":
		// How its references name their targets, when they all do so
		// one way.
		if d.Detail = refForm(c.Schema); d.Detail != "" {
			d.Title = RefErrorTitle([]string{d.Detail})
		}
	}
	return d
}

// draftNames names the drafts a `$schema` value may name (its URI without
// the scheme and a trailing "#"), in the drafts' order.
var draftNames = []struct{ uri, name string }{
	{"json-schema.org/draft-03/schema", "draft-03"},
	{"json-schema.org/draft-04/schema", "draft-04"},
	{"json-schema.org/draft-06/schema", "draft-06"},
	{"json-schema.org/draft-07/schema", "draft-07"},
	{"json-schema.org/draft/2019-09/schema", "2019-09"},
	{"json-schema.org/draft/2020-12/schema", "2020-12"},
}

// schemaName names the `$schema` of schema: the root's, else the first
// one it holds: the draft it names ("draft-04", "2019-09"), else the
// value as written (a string's text, or JSON text); "" when there is none.
func schemaName(schema []byte) string {
	v, err := jsonvalue.Parse(schema)
	if err != nil {
		return ""
	}
	var s *jsonvalue.Value
	schemaview.Walk(v, func(o *jsonvalue.Value, _ bool) {
		if m := o.Member("$schema"); m != nil && s == nil {
			s = m
		}
	})
	switch {
	case s == nil:
		return ""
	case s.Kind != jsonvalue.String:
		return string(s.Append(nil))
	}
	u := strings.TrimSuffix(s.Str, "#")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
	for _, d := range draftNames {
		if u == d.uri {
			return d.name
		}
	}
	return s.Str
}

// SchemaErrorTitle is the title of an error for arguments the rule
// repairs or passes through, brought about by a `$schema` (class
// error-for-valid-input/$schema) that names the drafts names (schemaName's
// details; a value that names no draft is given as written): those its
// findings show, so that the title does not say every `$schema` errs.
func SchemaErrorTitle(names []string) string {
	return "An error for arguments the rule repairs or passes through, under a schema whose `$schema` is " + schemaList(names)
}

// schemaList writes `$schema` names for a title: drafts by name, other
// values as code, the last after "or".
func schemaList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = n
		if !slices.ContainsFunc(draftNames, func(d struct{ uri, name string }) bool { return d.name == n }) {
			q[i] = code(n)
		}
	}
	list := strings.Join(q, ", ")
	if len(q) > 1 {
		list = strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
	}
	return list
}

// SchemaName names the `$schema` of schema as the classes of a
// `$schema` do: the draft it names ("draft-06"), else its value; "" when
// there is none.
func SchemaName(schema []byte) string { return schemaName(schema) }

// MissedSchemaTitle is the title of decodes missed under a schema whose
// `$schema` is one of names, made once `$schema` is taken out (class
// decode-missed/$schema): the implementation does not read those drafts.
func MissedSchemaTitle(names []string) string {
	return "Nothing is decoded under a schema whose `$schema` is " + schemaList(names) + ", which declares there what 2020-12 does: without `$schema` the same case is repaired"
}

// stackExhausted matches what JavaScript engines, Python and the JVM say
// when a recursion runs out of stack.
var stackExhausted = regexp.MustCompile(`(?i)maximum call stack size exceeded|too much recursion|maximum recursion depth exceeded|stack ?overflow`)

// ErrorShape is the shape of an error message: what is left of it with
// quoted text, URLs, JSON-like values and numbers masked and white space
// collapsed. Two messages of one shape are taken for one error.
func ErrorShape(msg string) string {
	for _, re := range shapeMasks {
		for range 64 { // nested values, innermost first
			next := re.ReplaceAllString(msg, "…")
			if next == msg {
				break
			}
			msg = next
		}
	}
	return strings.Join(strings.Fields(msg), " ")
}

var shapeMasks = []*regexp.Regexp{
	regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'[^']*'|` + "`[^`]*`"),
	regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://\S+`),
	regexp.MustCompile(`\{[^{}]*\}|\[[^\[\]]*\]`),
	regexp.MustCompile(`-?\b\d+(?:\.\d+)?\b`),
}

// nonFinite matches what a writer of JSON that is not JSON puts in an
// answer for a number past float64, or not a number: JavaScript's and
// Python's `Infinity` and `NaN`, Perl's `Inf`, C's `inf` and `nan`.
var nonFinite = regexp.MustCompile(`[:,\[]\s*-?(Infinity|NaN|Inf|inf|nan)\b`)

// nonFiniteClass is the class of an answer that nonFinite matches.
const nonFiniteClass = "failure/protocol/non-finite"

// nonFiniteWhy says each cause of a `NaN` or `Infinity` in an answer, in
// the order NonFiniteTitle names them: a number past float64 in the
// arguments (or in JSON text a string of them holds), read as infinite
// and written as `Infinity`; the words `NaN`, `Infinity` in a string of
// the arguments, read as numbers by a JSON reader that takes them
// (Python's json.loads takes `[NaN]`, which is not JSON, where the rule
// keeps the string).
var nonFiniteWhy = []struct{ detail, says string }{
	{"past-float64", "a number past float64 written as `Infinity`"},
	{"past-float64-inf", "a number past float64 written as `Inf`"},
	{"word-in-string", "`NaN` or `Infinity` in a string read as a number"},
}

// shortInf reports whether detail holds the infinity Perl and C write,
// `Inf` or `inf`, where nonFinite matches.
func shortInf(detail string) bool {
	for _, m := range nonFinite.FindAllStringSubmatch(detail, -1) {
		if m[1] == "Inf" || m[1] == "inf" {
			return true
		}
	}
	return false
}

// nonFiniteWord matches the words a JSON reader that is not strict reads
// as numbers, standing alone.
var nonFiniteWord = regexp.MustCompile(`(?:^|[^A-Za-z0-9_$])-?(?:NaN|Infinity)\b`)

// nonFiniteCause is the cause (a detail of nonFiniteWhy, "" for none
// found) of an answer that says detail, holding `NaN` or `Infinity`, for
// the arguments args: a `NaN` in the answer comes from the word, never
// from a number past float64.
func nonFiniteCause(args []byte, detail string) string {
	in, err := jsonvalue.Parse(args)
	if err != nil {
		return ""
	}
	word := hasString(in, nonFiniteWord.MatchString)
	switch {
	case word && strings.Contains(detail, "NaN"):
		return "word-in-string"
	case hasHugeNumber(in) && shortInf(detail) && !strings.Contains(detail, "Infinity"):
		return "past-float64-inf" // Perl's, C's
	case hasHugeNumber(in):
		return "past-float64"
	case word:
		return "word-in-string"
	}
	return ""
}

// hasString reports whether a string of v (a key is none) is one that
// match matches.
func hasString(v *jsonvalue.Value, match func(string) bool) bool {
	if v.Kind == jsonvalue.String {
		return match(v.Str)
	}
	for _, m := range v.Members {
		if hasString(m.Value, match) {
			return true
		}
	}
	for _, e := range v.Elems {
		if hasString(e, match) {
			return true
		}
	}
	return false
}

// NonFiniteTitle is the title of answers holding `NaN` or `Infinity`
// (class failure/protocol/non-finite) whose findings show the causes
// details (of nonFiniteWhy, in any order): each named, in one order.
func NonFiniteTitle(details []string) string {
	t := "The answer holds `NaN` or `Infinity`, which JSON does not have"
	if slices.Equal(details, []string{"past-float64-inf"}) {
		t = "The answer holds `Inf`, which JSON does not have"
	}
	var q []string
	for _, w := range nonFiniteWhy {
		if slices.Contains(details, w.detail) {
			q = append(q, w.says)
		}
	}
	if len(q) == 0 {
		// Which word the answer used is not known here: Python's and
		// JavaScript's `Infinity`, Perl's `Inf`, C's `inf`.
		return "The answer holds an infinity or a NaN, which JSON has no number for"
	}
	return t + " (" + strings.Join(q, "; ") + ")"
}

// DeepArgs is the nesting from which an error for arguments is put down
// to a depth limit: well under the rule's limit (1,000 by default), above
// what a tool's arguments hold.
const DeepArgs = 100

// errorTrigger diagnoses an error for arguments the rule repairs or passes
// through by what in them triggers it: a number past float64, a lone
// surrogate escape, nesting, a numeric reference of more than LongDigits
// digits (Python's int() reads at most 4,300 decimal digits and raises
// past them, where HTML reads any number of digits).
func errorTrigger(c Case) (Diagnosis, bool) {
	d := Diagnosis{Clause: "reading/8"}
	in, err := jsonvalue.Parse(c.Args)
	switch {
	case err != nil:
		return d, false
	case in.Depth() >= DeepArgs:
		d.Class, d.Title = "error-for-valid-input/depth", fmt.Sprintf("An error for arguments nested %d levels deep or more, which the rule repairs (its limit is 1,000 by default)", in.Depth())
	case hasHugeNumber(in):
		d.Class, d.Title = "error-for-valid-input/number-range", "An error for a number past float64's range (`1e400`), which the rule passes through as written"
	case hasLoneSurrogate(in):
		d.Class, d.Title = "error-for-valid-input/lone-surrogate", "An error for a string with a lone surrogate escape (`\\ud800`), which the rule passes through"
	case longestReference(in) > LongDigits:
		// The digits of the case's longest: a minimized case has as many
		// as the implementation's limit lets through and one (Python's
		// int() takes 4,300), where "over 1,000" told its maintainer
		// nothing true.
		d.Class, d.Clause = "error-for-valid-input/long-reference", "reading/1"
		d.Title = "An error for a numeric character reference of " + grouped(longestReference(in)) + " digits or more, which HTML decodes (leading zeros count for nothing, a value past U+10FFFF is U+FFFD)"
	default:
		return d, false
	}
	return d, true
}

// hasLoneSurrogate reports whether a string or a key of v holds a
// surrogate no other half goes with: as parsed (WTF-8), the three bytes
// ED A0..BF xx, which an escape pair never leaves. (A pattern over the
// JSON text missed `\udfff` at the start of a string, and took `\\u`,
// an escaped backslash, for an escape.)
func hasLoneSurrogate(v *jsonvalue.Value) bool {
	lone := func(s string) bool {
		for i := 0; i+1 < len(s); i++ {
			if s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
				return true
			}
		}
		return false
	}
	if v.Kind == jsonvalue.String {
		return lone(v.Str)
	}
	for _, m := range v.Members {
		if lone(m.Key) || hasLoneSurrogate(m.Value) {
			return true
		}
	}
	return slices.ContainsFunc(v.Elems, hasLoneSurrogate)
}

// LongDigits is the number of digits from which an error for a numeric
// character reference is put down to its length: far more than a value
// of Unicode needs, well under the 4,300 decimal digits of Python's int().
const LongDigits = 1000

// longestReference is the most digits of a numeric character reference
// (`&#` and decimal digits, or `&#x` and hex digits, leading zeros
// included) in a string of v.
func longestReference(v *jsonvalue.Value) int {
	most := 0
	hasString(v, func(s string) bool {
		most = max(most, referenceDigits(s))
		return false
	})
	return most
}

// grouped writes n with commas between groups of three digits: 4,301.
func grouped(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// referenceDigits is the most digits of a numeric character reference in
// s.
func referenceDigits(s string) int {
	most := 0
	for {
		i := strings.Index(s, "&#")
		if i < 0 {
			return most
		}
		s = s[i+2:]
		digit := func(b byte) bool { return '0' <= b && b <= '9' }
		if s != "" && (s[0] == 'x' || s[0] == 'X') {
			s = s[1:]
			digit = func(b byte) bool { return '0' <= b && b <= '9' || 'a' <= b|0x20 && b|0x20 <= 'f' }
		}
		n := 0
		for n < len(s) && digit(s[n]) {
			n++
		}
		most = max(most, n)
		s = s[n:]
	}
}

// hasHugeNumber reports whether v holds a number past float64's range,
// or a string that is JSON text holding one.
func hasHugeNumber(v *jsonvalue.Value) bool {
	if v.Kind == jsonvalue.String && strings.Contains(v.Str, "e") {
		inner, err := jsonvalue.Parse([]byte(v.Str))
		return err == nil && inner.Kind != jsonvalue.String && hasHugeNumber(inner)
	}
	if v.Kind == jsonvalue.Number {
		f, _ := strconv.ParseFloat(v.Number, 64)
		return math.IsInf(f, 0)
	}
	for _, m := range v.Members {
		if hasHugeNumber(m.Value) {
			return true
		}
	}
	for _, e := range v.Elems {
		if hasHugeNumber(e) {
			return true
		}
	}
	return false
}

// noError diagnoses output where an error is expected. Arguments that
// are not an object, a broken schema, nesting past the limit are one
// class: an implementation that validates nothing misses them all, for
// one reason. Its Detail is the kind of error expected (an
// impl.ErrorKind), for a title that names only the kinds its findings
// show (NoErrorTitle).
func noError(c Case) Diagnosis {
	var kinds []string
	if slices.ContainsFunc(rejected, func(r struct{ kind, says string }) bool { return r.kind == string(c.Want.Error) }) {
		kinds = []string{string(c.Want.Error)}
	}
	return Diagnosis{Class: "no-error", Detail: strings.Join(kinds, ""), Title: NoErrorTitle(kinds), Clause: "reading/8"}
}

// rejected says each kind of input the rule rejects (an impl.ErrorKind),
// in the order NoErrorTitle names them.
var rejected = []struct{ kind, says string }{
	{string(impl.ErrInvalidJSON), "arguments not JSON"},
	{string(impl.ErrNotObject), "arguments not an object"},
	{string(impl.ErrInvalidSchema), "a broken schema"},
	{string(impl.ErrTooDeep), "nesting too deep"},
}

// NoErrorTitle is the title of input the rule rejects answered (class
// no-error) whose findings expect the kinds of error kinds (impl.ErrorKind
// text, in any order): each kind named, in one order.
func NoErrorTitle(kinds []string) string {
	var q []string
	for _, r := range rejected {
		if slices.Contains(kinds, r.kind) {
			q = append(q, r.says)
		}
	}
	if len(q) == 0 {
		return "Input the rule rejects is answered instead of rejected"
	}
	return "Input the rule rejects (" + strings.Join(q, ", ") + ") is answered instead of rejected"
}

// code quotes a keyword as Markdown code.
func code(s string) string { return "`" + s + "`" }
