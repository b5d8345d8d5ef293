package diagnose

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/schemaview"
)

// differ walks the input, the expected and the given output together and
// diagnoses the first difference, in document order.
type differ struct {
	c      Case
	schema *schemaview.View
}

func (d *differ) mode() entity.Profile {
	if d.c.Attribute {
		return entity.Attribute
	}
	return entity.Text
}

// walk diagnoses the first difference between want and got at path; in
// is the input there (nil when it has none). decoded is true inside a
// value the rule decodes from a string: what JSON-style reading loses
// there is the implementation's own decoder's. It takes three steps: a
// string the rule decodes there (repaired), values of kinds that are
// compared as such (byKinds), else a value of another type (converted).
func (d *differ) walk(in, want, got *jsonvalue.Value, path []schemaview.Step, decoded bool) *Diagnosis {
	if jsonvalue.Equal(want, got) {
		return nil
	}
	if in != nil && in.Kind == jsonvalue.String && container(want) {
		return d.repaired(in, want, got, path, decoded)
	}
	if dg, ok := d.byKinds(in, want, got, path, decoded); ok {
		return dg
	}
	return at(path, d.converted(in, want, got, path, decoded))
}

// at is dg found at path.
func at(path []schemaview.Step, dg Diagnosis) *Diagnosis {
	dg.Where = schemaview.Pointer(path)
	return &dg
}

func container(v *jsonvalue.Value) bool {
	return v.Kind == jsonvalue.Array || v.Kind == jsonvalue.Object
}

// repaired diagnoses a difference at path where the rule decodes the
// input string in into want, an array or object: decoding stopped short
// of the fixpoint, the decode missed, or what it gave compared with want.
func (d *differ) repaired(in, want, got *jsonvalue.Value, path []schemaview.Step, decoded bool) *Diagnosis {
	if d.shortOfFixpoint(in.Str, got) {
		return at(path, noFixpoint)
	}
	switch {
	case got.Kind == jsonvalue.String:
		m := d.missed(in, want, got, path)
		if decoded && m.Class == "decode-missed" {
			// Inside JSON text the rule decoded, under a plain
			// declaration: the implementation does not walk what it
			// decodes (behind a keyword, the keyword is the cause).
			return at(path, InDecoded)
		}
		return at(path, m)
	case got.Kind == want.Kind:
		return d.walk(d.decodedInput(in), want, got, path, true)
	case emptyOther(want, got):
		return at(path, asArray(want, got))
	}
	return at(path, Diagnosis{Class: "wrong-shape", Title: "A stringified " + want.Kind.String() + " is decoded to another shape", Clause: "rule/3"})
}

// byKinds diagnoses want and got by their kinds: a string decoded into a
// container, two strings, two numbers (or a number read as null), two
// objects, two arrays; false for kinds it does not compare.
func (d *differ) byKinds(in, want, got *jsonvalue.Value, path []schemaview.Step, decoded bool) (*Diagnosis, bool) {
	switch {
	case want.Kind == jsonvalue.String && container(got):
		return at(path, d.decodedWrongly(in, want, got, path)), true
	case want.Kind == jsonvalue.String && got.Kind == jsonvalue.String:
		return at(path, d.text(in, want.Str, got.Str, path)), true
	case want.Kind == jsonvalue.Number && got.Kind == jsonvalue.Number:
		if lossyNumber(want.Number, got) {
			return at(path, lossy(decoded, numberLoss(want.Number))), true
		}
		return at(path, Diagnosis{Class: "number-changed", Title: "A number's value is changed", Clause: "rule/5"}), true
	case want.Kind == jsonvalue.Number && got.Kind == jsonvalue.Null && lossyNumber(want.Number, got):
		return at(path, lossy(decoded, numberLoss(want.Number))), true
	case want.Kind == jsonvalue.Object && got.Kind == jsonvalue.Object:
		return d.object(in, want, got, path, decoded), true
	case want.Kind == jsonvalue.Array && got.Kind == jsonvalue.Array:
		return d.array(in, want, got, path, decoded), true
	}
	return nil, false
}

// array diagnoses two arrays that differ: an element dropped or added,
// else the first element that differs.
func (d *differ) array(in, want, got *jsonvalue.Value, path []schemaview.Step, decoded bool) *Diagnosis {
	if len(want.Elems) != len(got.Elems) {
		what := "dropped"
		if len(got.Elems) > len(want.Elems) {
			what = "added"
		}
		return at(path, Diagnosis{Class: "element-" + what, Title: "An array element is " + what, Clause: "rule/5"})
	}
	for i := range want.Elems {
		var ie *jsonvalue.Value
		if in != nil && in.Kind == jsonvalue.Array && i < len(in.Elems) {
			ie = in.Elems[i]
		}
		if r := d.walk(ie, want.Elems[i], got.Elems[i], append(slices.Clip(path), schemaview.Element(i)), decoded); r != nil {
			return r
		}
	}
	return nil
}

// converted diagnoses a value given as one of another type: a string
// parsed as JSON where nothing is declared, a value wrapped in an array,
// an object given as an array (or the other way round), else a
// conversion, named by its types.
func (d *differ) converted(in, want, got *jsonvalue.Value, path []schemaview.Step, decoded bool) Diagnosis {
	if in != nil && in.Kind == jsonvalue.String && want.Kind == jsonvalue.String && !decoded && parsesTo(want.Str, got) && !d.typed(path) {
		// A string parsed as JSON where the schema declares nothing: the
		// blind decoding of decodedWrongly, of a scalar.
		return undeclared
	}
	if want.Kind != jsonvalue.Array && got.Kind == jsonvalue.Array && len(got.Elems) == 1 && jsonvalue.Equal(got.Elems[0], want) {
		// Not a conversion of the value: the value kept, put in an
		// array, whether the schema declares array or not (a reader that
		// takes `items` alone for array does so). A string so wrapped is
		// text made into an array, decodedWrongly's.
		return wrapped
	}
	if emptyOther(want, got) || listLike(want, got) {
		return asArray(want, got)
	}
	cls := "coerced"
	if decoded {
		cls = "coerced-in-decoded"
	}
	conv := want.Kind.String() + " to " + got.Kind.String()
	return Diagnosis{Class: cls, Detail: conv, Title: CoercedTitle(cls, []string{conv}), Clause: "rule/5"}
}

// wrapped is the diagnosis of a value that is not an array put in one.
var wrapped = Diagnosis{Class: "coerced/wrapped", Title: "A value that is not an array is wrapped in one (`5` gives `[5]`)", Clause: "rule/5"}

// CoercedTitle is the title of values converted to another type (class
// coerced or coerced-in-decoded) by the conversions convs ("string to
// number"): one bug, whichever conversions its findings show.
func CoercedTitle(class string, convs []string) string {
	list := " (" + strings.Join(convs, ", ") + ")"
	if class == "coerced-in-decoded" {
		return "A value inside decoded JSON text is converted to another type" + list
	}
	return "A value of another type is converted to the type the schema declares" + list
}

// MissedTitle is the title of a plain decode missed of a shape (class
// decode-missed), "array", "object" or, for findings of both, "array or
// object": declared as a plain type, or, when detail is "type-list", in a
// `type` list.
func MissedTitle(shape, detail string) string {
	declared := shape
	if strings.Contains(shape, " or ") {
		declared = "its shape" // both shapes among the findings
	}
	t := "A stringified " + shape + " is not decoded where the schema declares " + declared
	if detail == "type-list" {
		t += InTypeList
	}
	return t
}

// BelowTop ends the title of decode misses that are all below the top
// level of the arguments (in `items`, a nested `properties`): the
// top-level parameters are decoded.
const BelowTop = " below the top level"

// InElements ends the title of decode misses that are all of elements of
// an array (declared through `items`), where a program may decode below
// the top level through `properties`.
const InElements = " for the elements of an array (`items`)"

// InTypeList ends the title of a decode missed under a `type` list.
const InTypeList = " in a `type` list"

// InDecoded is the diagnosis of a decode missed inside JSON text the rule
// decoded, where the implementation makes the same decode in the
// arguments themselves: it does not walk what it decodes.
var InDecoded = Diagnosis{Class: "decode-missed/in-decoded", Title: "What a decoded string holds is not repaired: a stringified array or object inside it stays a string", Clause: "rule/2"}

// lossy is the diagnosis of what JSON.parse-style reading loses; what is
// the loss its counterexample shows ("duplicates", "key-order", "rounded",
// "1e400", "lone-surrogate").
func lossy(decoded bool, what string) Diagnosis {
	if decoded {
		return Diagnosis{Class: "decoded-json-lossy", Detail: what, Title: LossyTitle("decoded-json-lossy", []string{what}), Clause: "reading/7"}
	}
	return Diagnosis{Class: "artefact/lossy-json", Detail: what, Title: LossyTitle("artefact/lossy-json", []string{what}), Clause: "reading/7", Artefact: true, Fix: FixLossyAdapter}
}

// lossyWhat says each loss of lossy.
var lossyWhat = map[string]string{
	"duplicates":     "duplicate members collapsed to one",
	"key-order":      "integer-like keys moved first",
	"rounded":        "numbers rounded to float64",
	"1e400":          "a number past float64 (`1e400`) made null or infinite",
	"lone-surrogate": "a raw lone surrogate taken as text",
}

// lossyOrder is the order the losses of a lossy reading are named in.
var lossyOrder = []string{"rounded", "1e400", "key-order", "duplicates", "lone-surrogate"}

// OrderDetails sorts the details of one root cause (the schema keywords
// of decode-missed/keyword or /draft, the losses of a lossy reading, the
// conversions of coerced, the drafts of an error under `$schema`) into
// the one order its title names them in, whichever findings showed them
// first: keywords as schemaview.Notable lists them (the others after, by name),
// losses as lossyOrder does, drafts as draftNames does, conversions by
// name. It returns ds.
func OrderDetails(ds []string) []string {
	rank := func(d string) int {
		d, _, _ = strings.Cut(d, "/") // a route, by its first keyword
		if d == RefOther {
			d = "$ref"
		}
		if i := slices.Index(schemaview.Notable, d); i >= 0 {
			return i
		}
		if i := slices.Index(lossyOrder, d); i >= 0 {
			return i
		}
		if i := slices.IndexFunc(draftNames, func(n struct{ uri, name string }) bool { return n.name == d }); i >= 0 {
			return i
		}
		return len(schemaview.Notable) + len(lossyOrder) + len(draftNames)
	}
	slices.SortStableFunc(ds, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b)) })
	return ds
}

// LossyTitle is the title of a lossy reading (class decoded-json-lossy or
// artefact/lossy-json) showing the losses whats: one reader, whichever of
// its losses the findings show.
func LossyTitle(class string, whats []string) string {
	var q []string
	for _, w := range whats {
		if s, ok := lossyWhat[w]; ok {
			q = append(q, s)
		}
	}
	if class == "decoded-json-lossy" {
		return "Decoded JSON text is read lossily: " + strings.Join(q, ", ")
	}
	return "The arguments are read lossily (" + strings.Join(q, ", ") + "): probably the adapter's"
}

// lossyNumber reports whether got is what float64 makes of the number
// text want: rounded (and written with 6 to 17 significant digits), or
// null for a number past its range.
func lossyNumber(want string, got *jsonvalue.Value) bool {
	f, err := strconv.ParseFloat(want, 64)
	if math.IsInf(f, 0) {
		return got.Kind == jsonvalue.Null || got.Kind == jsonvalue.Number && strings.Contains(strings.ToLower(got.Number), "e+308")
	}
	if err != nil || got.Kind != jsonvalue.Number {
		return false
	}
	g, err := strconv.ParseFloat(got.Number, 64)
	if err != nil {
		return false
	}
	if g == f {
		return true
	}
	// float64 written with fewer digits than it holds: Perl's `%.15g`,
	// C's `%g`.
	for k := 6; k < 17; k++ {
		if r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', k, 64), 64); r == g {
			return true
		}
	}
	return false
}

// numberLoss is what float64 does to the number text n: "1e400" past its
// range, "rounded" within.
func numberLoss(n string) string {
	if f, _ := strconv.ParseFloat(n, 64); math.IsInf(f, 0) {
		return "1e400"
	}
	return "rounded"
}

// jsOrder is the order JavaScript gives an object's keys: integer-like
// keys first, ascending, then the others as written.
func jsOrder(keys []string) []string {
	var ints, rest []string
	for _, k := range keys {
		if n, err := strconv.ParseUint(k, 10, 32); err == nil && n < math.MaxUint32 && strconv.FormatUint(n, 10) == k {
			ints = append(ints, k)
		} else {
			rest = append(rest, k)
		}
	}
	slices.SortStableFunc(ints, func(a, b string) int {
		x, _ := strconv.ParseUint(a, 10, 32)
		y, _ := strconv.ParseUint(b, 10, 32)
		return int(int64(x) - int64(y))
	})
	return append(ints, rest...)
}

func keysOf(v *jsonvalue.Value) []string {
	keys := make([]string, len(v.Members))
	for i, m := range v.Members {
		keys[i] = m.Key
	}
	return keys
}

func unique(keys []string) []string {
	var out []string
	for _, k := range keys {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// object diagnoses two objects that differ: by their keys (keysDiffer),
// else the first member whose value differs.
func (d *differ) object(in, want, got *jsonvalue.Value, path []schemaview.Step, decoded bool) *Diagnosis {
	if dg, ok := d.keysDiffer(want, got, decoded); ok {
		return at(path, dg)
	}
	for i, m := range want.Members {
		var iv *jsonvalue.Value
		if in != nil && in.Kind == jsonvalue.Object {
			for _, im := range in.Members {
				if im.Key == m.Key {
					iv = im.Value
					break
				}
			}
		}
		if r := d.walk(iv, m.Value, got.Members[i].Value, append(slices.Clip(path), schemaview.Member(m.Key)), decoded); r != nil {
			return r
		}
	}
	return nil
}

// keysDiffer diagnoses two objects whose keys differ: duplicates
// collapsed, members reordered, a key changed (or decoded), a member
// dropped or added; false when their keys are the same, in one order.
func (d *differ) keysDiffer(want, got *jsonvalue.Value, decoded bool) (Diagnosis, bool) {
	wk, gk := keysOf(want), keysOf(got)
	switch {
	case len(unique(wk)) < len(wk) && slices.Equal(unique(wk), sortedLike(unique(gk), unique(wk))) && len(gk) == len(unique(gk)):
		// Duplicates collapsed to one member each.
		return lossy(decoded, "duplicates"), true
	case !slices.Equal(wk, gk) && sameSet(wk, gk) && !valuesInPlace(want, got):
		if slices.Equal(gk, jsOrder(wk)) {
			return lossy(decoded, "key-order"), true
		}
		return Diagnosis{Class: "member-order", Title: "Members are reordered", Clause: "reading/7"}, true
	case len(wk) == len(gk) && !slices.Equal(wk, gk) && sameSet(wk, gk):
		// The keys of the members moved, their values not: the keys
		// were renumbered or swapped (PHP's array_merge renumbers
		// integer keys).
		return Diagnosis{Class: "key-changed", Title: "A key is changed", Clause: "rule/5"}, true
	case len(wk) == len(gk) && !slices.Equal(wk, gk):
		for i := range wk {
			if wk[i] != gk[i] {
				if dec, _ := entity.Decode([]byte(wk[i]), d.mode(), 0); string(dec) == gk[i] {
					return Diagnosis{Class: "key-decoded", Title: "Keys have their character references decoded", Clause: "rule/5"}, true
				}
				return Diagnosis{Class: "key-changed", Title: "A key is changed", Clause: "rule/5"}, true
			}
		}
	case len(gk) < len(wk):
		return dropped(want, gk), true
	case len(gk) > len(wk):
		return Diagnosis{Class: "member-added", Title: "A member is added", Clause: "rule/5"}, true
	}
	return Diagnosis{}, false
}

// valuesInPlace reports whether got, of as many members as want, has
// want's values in want's order under keys moved among them, where the
// members moved would have brought their values: the keys were renamed,
// not the members reordered.
func valuesInPlace(want, got *jsonvalue.Value) bool {
	moved := true // each value under its key in got too
	for i, m := range want.Members {
		if !jsonvalue.Equal(m.Value, got.Members[i].Value) {
			return false
		}
		if g := got.Member(m.Key); g == nil || !jsonvalue.Equal(m.Value, g) {
			moved = false
		}
	}
	return !moved
}

// dropped diagnoses the first member of want whose key is not among the
// keys gk: one named `__proto__`, one whose value is null, or any.
func dropped(want *jsonvalue.Value, gk []string) Diagnosis {
	for _, m := range want.Members {
		if !slices.Contains(gk, m.Key) {
			switch {
			case m.Key == "__proto__":
				return Diagnosis{Class: "member-dropped/__proto__", Title: "A member named `__proto__` is lost", Clause: "rule/5"}
			case m.Value.Kind == jsonvalue.Null:
				return Diagnosis{Class: "member-dropped/null", Title: "A member whose value is `null` is dropped, key and all", Clause: "rule/5"}
			}
			break
		}
	}
	return Diagnosis{Class: "member-dropped", Title: "A member is dropped", Clause: "rule/5"}
}

// sortedLike returns keys in the order of order, when they are the same
// set; else keys.
func sortedLike(keys, order []string) []string {
	if !sameSet(keys, order) {
		return keys
	}
	return order
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// WrongShape diagnoses a parsed value of shape was substituted where the
// schema declares the other shape, declared: its detail says which way.
func WrongShape(was, declared string) Diagnosis {
	way := was + " where " + declared + " is declared"
	return Diagnosis{Class: "wrong-shape", Detail: way, Title: "A parsed value of the wrong shape is substituted (" + way + ")", Clause: "rule/3"}
}

// WrongShapeTitle is the title of the wrong shapes substituted the ways
// given (WrongShape's details), in their order.
func WrongShapeTitle(ways []string) string {
	return "A parsed value of the wrong shape is substituted (" + strings.Join(ways, "; ") + ")"
}

// emptyText is the empty container of kind k, as JSON text.
func emptyText(k jsonvalue.Kind) string {
	if k == jsonvalue.Object {
		return "{}"
	}
	return "[]"
}

// asArray diagnoses an object given as an array, or the other way round,
// as a language whose arrays are both writes them: an empty one either way
// (`{}` gives `[]`), or an object keyed 0 to n-1 as the list of its values
// (PHP's json_encode: `{"0":"a"}` gives `["a"]`).
func asArray(want, got *jsonvalue.Value) Diagnosis {
	way := "empty object"
	switch {
	case want.Kind == jsonvalue.Array:
		way = "empty array"
	case len(want.Members) > 0:
		way = "keyed object"
	}
	return Diagnosis{Class: "object-as-array", Detail: way, Title: AsArrayTitle([]string{way}), Clause: "rule/5"}
}

// AsArrayTitle is the title of objects given as arrays (asArray) the
// ways given ("empty object", "keyed object", "empty array").
func AsArrayTitle(ways []string) string {
	keyed, obj, arr := slices.Contains(ways, "keyed object"), slices.Contains(ways, "empty object"), slices.Contains(ways, "empty array")
	var t string
	switch {
	case keyed && obj:
		t = "An object whose keys are 0 to n-1 is given as an array (`{\"0\":\"a\"}` gives `[\"a\"]`, `{}` gives `[]`)"
	case keyed:
		t = "An object whose keys are 0 to n-1 is given as an array (`{\"0\":\"a\"}` gives `[\"a\"]`)"
	case obj:
		t = "An empty object is given as an empty array (`{}` gives `[]`)"
	}
	if arr {
		if t == "" {
			return "An empty array is given as an empty object (`[]` gives `{}`)"
		}
		t += ", and an empty array as an empty object (`[]` gives `{}`)"
	}
	return t
}

// listLike reports whether want is an object keyed 0 to n-1, in order,
// and got an array of n elements: the object written as a list.
func listLike(want, got *jsonvalue.Value) bool {
	if want.Kind != jsonvalue.Object || got.Kind != jsonvalue.Array || len(want.Members) != len(got.Elems) {
		return false
	}
	for i, m := range want.Members {
		if m.Key != strconv.Itoa(i) {
			return false
		}
	}
	return true
}

// emptyOther reports whether lit and got are empty containers of the two
// shapes: `{}` and `[]`, one way or the other.
func emptyOther(lit, got *jsonvalue.Value) bool {
	empty := func(v *jsonvalue.Value) bool {
		return v.Kind == jsonvalue.Object && len(v.Members) == 0 || v.Kind == jsonvalue.Array && len(v.Elems) == 0
	}
	return lit.Kind != got.Kind && empty(lit) && empty(got)
}

// decodedInput is what the rule decodes the input string in into: the
// string as sent, or after its references are decoded, its strings then
// holding the text they came from (see sourced).
func (d *differ) decodedInput(in *jsonvalue.Value) *jsonvalue.Value {
	if v, err := jsonvalue.Parse([]byte(in.Str)); err == nil {
		return v
	}
	return sourced(in.Str, d.mode(), d.c.MaxPasses)
}

// missed diagnoses a string the rule decodes (want) left a string (got).
func (d *differ) missed(in, want, got *jsonvalue.Value, path []schemaview.Step) Diagnosis {
	if _, err := jsonvalue.Parse([]byte(in.Str)); err != nil {
		if got.Str != in.Str {
			return Diagnosis{Class: "decode-missed/after-references", Title: "A stringified " + want.Kind.String() + " is not decoded once its character references are decoded", Clause: "reading/6"}
		}
		// JSON text only once its references are decoded, and left as
		// sent: the references are what is not decoded (PHP decodes only
		// those that end in `;`), as in any string.
		if dec, _ := entity.Decode([]byte(in.Str), d.mode(), d.c.MaxPasses); string(dec) != in.Str {
			if t := d.text(in, string(dec), got.Str, path); strings.HasPrefix(t.Class, "undecoded/") {
				return t
			}
		}
	}
	r, ok := schemaview.Shaping(d.schema.At(path), want.Kind.String())
	kw := ""
	switch {
	case ok && len(r.Via) > 0:
		kw = r.Way()
	case !ok:
		kw = keyword(d.c.Schema)
	}
	if kw == "" {
		d := Diagnosis{Class: "decode-missed", Title: MissedTitle(want.Kind.String(), ""), Clause: "rule/2", Shape: want.Kind.String()}
		if t := r.Schema.Member("type"); ok && t != nil && t.Kind == jsonvalue.Array {
			// Declared in a list: an implementation may read a list
			// where it reads a plain type, or not.
			d.Detail, d.Title = "type-list", MissedTitle(want.Kind.String(), "type-list")
		}
		return d
	}
	return Diagnosis{Class: "decode-missed/keyword", Detail: kw, Title: KeywordTitle([]string{kw}), Clause: "reading/4", Shape: want.Kind.String()}
}

// decodedWrongly diagnoses a string the rule leaves a string (want)
// decoded into a container (got): text that is not JSON made into one
// (madeUp), else JSON text decoded where the rule keeps it (decodedJSON),
// unless it is a JSON string literal unwrapped, or read lossily.
func (d *differ) decodedWrongly(in, want, got *jsonvalue.Value, path []schemaview.Step) Diagnosis {
	dc := declarationsAt(d.schema.At(path), got.Kind)
	lit, parseErr := jsonvalue.Parse([]byte(want.Str))
	if parseErr != nil {
		return madeUp(want, got, dc)
	}
	if dc.shape && lit.Kind == jsonvalue.String && unwraps(lit.Str, got) {
		return Diagnosis{Class: "decoded-string-literal", Title: "A JSON string literal holding JSON text is unwrapped and decoded (`\"[1]\"` gives `[1]`)", Clause: "reading/5"}
	}
	// JSON text decoded where the rule keeps it, and read lossily (its
	// duplicate members collapsed, its numbers rounded) is two faults:
	// neither's counterexample takes on the other (a property about keys,
	// minimized under `{}`, showed a decoding blind to the schema with a
	// collapsed duplicate).
	if !jsonvalue.Equal(lit, got) {
		if l := d.walk(nil, lit, got, path, true); l != nil && l.Class == "decoded-json-lossy" {
			return Diagnosis{Class: "decoded-json-lossy/where-kept", Detail: l.Detail, Title: "JSON text is decoded where the rule keeps the string, and read lossily (" + lossyWhat[l.Detail] + ")", Clause: "reading/7"}
		}
	}
	return d.decodedJSON(lit, got, dc)
}

// declarations is what a schema declares at a position, as decodedWrongly
// reads it for a string decoded into a container.
type declarations struct {
	rs []schemaview.Reach
	// str: a string admitted (`string` declared, or a branch of anyOf or
	// oneOf of any type); shape: the container's shape declared, first
	// by declared; otherShape: the other shape declared; union: the
	// shape declared in a branch of anyOf or oneOf.
	str, shape, otherShape, union bool
	declared                      schemaview.Reach
}

// declarationsAt is what rs declare, for a string decoded into a
// container of kind got.
func declarationsAt(rs []schemaview.Reach, got jsonvalue.Kind) declarations {
	dc := declarations{rs: rs}
	_, dc.str = schemaview.Declaring(rs, "string")
	dc.str = dc.str || schemaview.AnyBranch(rs)
	dc.declared, dc.shape = schemaview.Declaring(rs, got.String())
	_, dc.otherShape = schemaview.Declaring(rs, other(got))
	dc.union = dc.shape && (slices.Contains(dc.declared.Via, "anyOf") || slices.Contains(dc.declared.Via, "oneOf"))
	return dc
}

// madeUp diagnoses text that is not JSON (want) made into a container
// (got). Where the schema does not declare the shape, or lets the
// parameter be a string, that is two faults at once: a class of its
// own, so that a counterexample minimized for either fault alone (text
// made up; a string decoded) never takes on the other.
func madeUp(want, got *jsonvalue.Value, dc declarations) Diagnosis {
	switch {
	case dc.str || dc.union:
		return Diagnosis{Class: "made-from-not-json/declared-string", Title: "Text that is not JSON is made into an array or object where the parameter may be a string", Clause: "rule/3"}
	case !dc.shape:
		return Diagnosis{Class: "made-from-not-json/undeclared", Title: "Text that is not JSON is made into an array or object where the schema declares neither", Clause: "rule/2"}
	case parsesTo(strings.TrimFunc(want.Str, trimmable), got):
		what := OrderDetails(trimmed(want.Str))
		return Diagnosis{Class: "decoded-not-json", Detail: strings.Join(what, ", "), Title: TrimmedTitle(what), Clause: "reading/5"}
	}
	if fixed, ok := withoutLoneSurrogates(want.Str); ok && parsesTo(fixed, got) {
		return lossy(true, "lone-surrogate") // JSON.parse takes a raw lone surrogate
	}
	what := notJSON(want.Str)
	return Diagnosis{Class: "made-from-not-json", Detail: what, Title: NotJSONTitle([]string{what}), Clause: "rule/2"}
}

// trimmable reports whether r is a character an implementation may trim
// from around JSON text that JSON does not allow there: JavaScript's
// whitespace, and the controls other languages' trim functions take
// (PHP's trim takes NUL and the vertical tab).
func trimmable(r rune) bool { return jsSpace(r) || r < 0x20 || r == 0x7F }

// trimmed are the characters around s that JSON does not allow there and
// trimmable takes, each once, as a title names them.
func trimmed(s string) []string {
	inner := strings.TrimFunc(s, trimmable)
	at := strings.Index(s, inner)
	if inner == "" || at < 0 {
		return nil
	}
	var out []string
	for _, r := range s[:at] + s[at+len(inner):] {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			continue // JSON's own whitespace
		}
		if n := charName(r); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// charName is how a title names the character r.
func charName(r rune) string {
	switch r {
	case 0:
		return "a NUL"
	case 0x0B:
		return "a vertical tab"
	case 0x0C:
		return "a form feed"
	case 0xA0:
		return "a no-break space"
	case 0xFEFF:
		return "a byte order mark"
	}
	return fmt.Sprintf("U+%04X", r)
}

// TrimmedTitle is the title of JSON text with the characters whats around
// it, which JSON does not allow there, trimmed and decoded.
func TrimmedTitle(whats []string) string {
	t := "JSON text with characters around it that JSON does not allow there"
	if len(whats) > 0 {
		t += " (" + strings.Join(whats, ", ") + ")"
	}
	return t + " is trimmed and decoded"
}

// notJSON says what the text s, which is not JSON, is: empty, truncated
// JSON, JSON with single quotes, JSON with text after it, or other text
// (""), as far as its text shows it.
func notJSON(s string) string {
	t := strings.TrimFunc(s, trimmable)
	switch {
	case t == "":
		return "empty"
	case json.Valid([]byte(strings.ReplaceAll(t, "'", `"`))):
		return "single-quoted"
	}
	err := json.Unmarshal([]byte(t), new(any))
	if err != nil && err.Error() == "unexpected end of JSON input" {
		return "truncated"
	}
	var first json.RawMessage
	if json.NewDecoder(strings.NewReader(t)).Decode(&first) == nil {
		return "text after the JSON"
	}
	return ""
}

// NotJSONTitle is the title of text that is not JSON, of the kinds whats
// (notJSON's; "" for other text), made into an array or object.
func NotJSONTitle(whats []string) string {
	var shown []string
	for _, w := range OrderDetails(whats) {
		if w != "" {
			shown = append(shown, w)
		}
	}
	if len(shown) == 0 || len(shown) < len(whats) {
		return "Text that is not JSON is made into an array or object"
	}
	return "Text that is not JSON (" + strings.Join(shown, ", ") + ") is made into an array or object"
}

// decodedJSON diagnoses JSON text, whose value is lit, decoded into got
// where the rule keeps the string: a string admitted there, the other
// shape declared, an empty container of the other shape, a reading of
// the schema that differs (`allOf` as a union, a `type` beside `$ref`,
// a keyword), else a schema that declares neither shape.
func (d *differ) decodedJSON(lit, got *jsonvalue.Value, dc declarations) Diagnosis {
	switch {
	case dc.str || dc.union:
		// A union that names the shape in one branch, and admits a string
		// in another (declared, or through a branch of any type).
		return Diagnosis{Class: "decoded-declared-string", Title: "A parameter that may be a string (`string` declared, or a branch of `anyOf` or `oneOf` that admits any type) is decoded as JSON", Clause: "rule/3"}
	case dc.otherShape && !dc.shape:
		return WrongShape(got.Kind.String(), other(got.Kind))
	case dc.shape && emptyOther(lit, got):
		// `{}` decoded where array is declared comes out `[]`, of the
		// declared shape: a language with one empty container for both
		// (PHP's json_decode) substituted the wrong shape, and gave its
		// empty object as an empty array. Two faults: a class of its own,
		// so that neither's counterexample takes on the other.
		if _, litShape := schemaview.Declaring(dc.rs, lit.Kind.String()); !litShape {
			d := WrongShape(lit.Kind.String(), got.Kind.String())
			d.Class = "wrong-shape/empty"
			d.Title = "JSON text of the wrong shape is decoded, and its empty " + lit.Kind.String() + " given as an empty " + got.Kind.String() + " (`\"" + emptyText(lit.Kind) + "\"` gives `" + emptyText(got.Kind) + "` where " + got.Kind.String() + " is declared)"
			return d
		}
		return undeclared
	case dc.shape && slices.Contains(dc.declared.Via, "allOf"):
		return Diagnosis{Class: "wrong-shape/allOf", Title: "`allOf` is read as a union: a shape one branch declares and another excludes is substituted", Clause: "rule/3"}
	case dc.shape && d.typeBesideRef(dc.rs, got.Kind.String()):
		return besideRef
	case dc.shape:
		// The schema declares this shape, as this reading sees it, and
		// the reference leaves it: a reading of the schema differs.
		kw := keyword(d.c.Schema)
		if kw == "" {
			kw = "type"
		}
		return Diagnosis{Class: "decoded-undeclared/" + kw, Title: "A string is decoded where the schema, read through " + code(kw) + ", does not declare " + got.Kind.String(), Clause: "reading/4"}
	}
	return undeclared
}

// besideRef is the diagnosis of a string decoded where the `type` that
// names its shape is beside a `$ref`, in a schema of a draft that ignores
// what is beside `$ref` (drafts 4 to 7): the implementation reads that
// `type` (as one does that reads a level's own `type`, and never
// `$ref`).
var besideRef = Diagnosis{Class: "decoded-undeclared/$ref-sibling", Title: "A `type` beside `$ref` is read, where draft 7 and earlier ignore what is beside `$ref`: a string is decoded", Clause: "reading/4"}

// oldDrafts are the `$schema` values (without a trailing "#" and the
// scheme) of the drafts in which `$ref` makes its siblings ignored.
var oldDrafts = []string{"json-schema.org/draft-04/schema", "json-schema.org/draft-06/schema", "json-schema.org/draft-07/schema"}

// typeBesideRef reports whether every subschema among rs whose `type`
// names name is beside a `$ref`, and the schema is read by a draft that
// ignores what is beside `$ref`: its root's `$schema`, and every other
// `$schema` it holds, names draft 4, 6 or 7.
func (d *differ) typeBesideRef(rs []schemaview.Reach, name string) bool {
	if d.schema == nil {
		return false
	}
	root := d.schema.Root()
	if root == nil || root.Kind != jsonvalue.Object || root.Member("$schema") == nil {
		return false
	}
	old := true
	schemaview.Walk(root, func(s *jsonvalue.Value, _ bool) {
		if v := s.Member("$schema"); v != nil {
			u := strings.TrimSuffix(v.Str, "#")
			u = strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
			old = old && v.Kind == jsonvalue.String && slices.Contains(oldDrafts, u)
		}
	})
	if !old {
		return false
	}
	found := false
	for _, r := range rs {
		if !slices.Contains(schemaview.Types(r.Schema), name) {
			continue
		}
		if ref := r.Schema.Member("$ref"); ref == nil || ref.Kind != jsonvalue.String {
			return false
		}
		found = true
	}
	return found
}

// undeclared is the diagnosis of a string parsed as JSON where the schema
// declares no array or object for it.
var undeclared = Diagnosis{Class: "decoded-undeclared", Title: "A string is decoded as JSON where the schema declares neither array nor object", Clause: "rule/2"}

// parsesTo reports whether text is JSON text whose value is v.
func parsesTo(text string, v *jsonvalue.Value) bool {
	p, err := jsonvalue.Parse([]byte(text))
	return err == nil && jsonvalue.Equal(p, v)
}

// typed reports whether some subschema that applies at path declares a
// type.
func (d *differ) typed(path []schemaview.Step) bool {
	for _, r := range d.schema.At(path) {
		if len(schemaview.Types(r.Schema)) > 0 {
			return true
		}
	}
	return false
}

// jsSpace is what JavaScript's String.prototype.trim removes: its
// WhiteSpace and LineTerminator.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// withoutLoneSurrogates returns s with each lone surrogate (three bytes
// of WTF-8) written as its JSON escape, and whether it had one.
func withoutLoneSurrogates(s string) (string, bool) {
	return replaceSurrogates(s, func(r rune) string { return fmt.Sprintf(`\u%04X`, r) })
}

// replaceSurrogates is the WTF-8 string s with each lone surrogate it
// holds (three bytes, 0xED 0xA0-0xBF ..) replaced by with(it), and whether
// it held one.
func replaceSurrogates(s string, with func(r rune) string) (string, bool) {
	if strings.IndexByte(s, 0xED) < 0 {
		return s, false
	}
	var b strings.Builder
	found := false
	for i := 0; i < len(s); i++ {
		if s[i] == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
			b.WriteString(with(rune(s[i]&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)))
			i += 2
			found = true
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), found
}

// WithoutLoneSurrogateEscapes is JSON text with every lone surrogate its
// strings and keys hold (an escape such as `\ud800`) made U+FFFD, written
// back compact, and whether it held any; text that does not parse holds
// none.
func WithoutLoneSurrogateEscapes(text string) (string, bool) {
	v, err := jsonvalue.Parse([]byte(text))
	if err != nil {
		return text, false
	}
	found := false
	fix := func(s string) string {
		fixed, ok := replaceSurrogates(s, func(rune) string { return string(utf8.RuneError) })
		found = found || ok
		return fixed
	}
	var walk func(v *jsonvalue.Value, depth int)
	walk = func(v *jsonvalue.Value, depth int) {
		if depth > jsonvalue.MaxDepth {
			return
		}
		switch v.Kind {
		case jsonvalue.String:
			v.Str = fix(v.Str)
		case jsonvalue.Array:
			for _, e := range v.Elems {
				walk(e, depth+1)
			}
		case jsonvalue.Object:
			for i := range v.Members {
				v.Members[i].Key = fix(v.Members[i].Key)
				walk(v.Members[i].Value, depth+1)
			}
		}
	}
	walk(v, 0)
	if !found {
		return text, false
	}
	return string(v.Append(nil)), true
}

func other(k jsonvalue.Kind) string {
	if k == jsonvalue.Array {
		return "object"
	}
	return "array"
}

// noFixpoint is the diagnosis of decoding stopped short of the fixpoint.
var noFixpoint = Diagnosis{Class: "no-fixpoint", Title: "Character references are decoded once, not until the value stops changing (`&amp;amp;` gives `&amp;`)", Clause: "rule/4"}

// shortOfFixpoint reports whether got is what src gives after fewer
// passes than the fixpoint (and the pass bound) takes: as a string, or
// decoded as JSON text after those passes.
func (d *differ) shortOfFixpoint(src string, got *jsonvalue.Value) bool {
	cur := []byte(src)
	for n := 1; n <= 16 && (d.c.MaxPasses == 0 || n < d.c.MaxPasses); n++ {
		next, changed := entity.Pass(nil, cur, d.mode())
		if !changed {
			return false
		}
		if _, more := entity.Pass(nil, next, d.mode()); !more {
			return false // next is the fixpoint
		}
		if got.Kind == jsonvalue.String && got.Str == string(next) {
			return true
		}
		if v, err := jsonvalue.Parse(next); err == nil && jsonvalue.Equal(v, got) {
			return true
		}
		cur = next
	}
	return false
}

// KeywordTitle is the title of the decodes missed behind the schema
// keywords kws: one bug, an implementation that follows fewer keywords
// than the readings do, whichever keywords its findings show. A keyword
// is a route, the way from the first keyword to the declaration a
// finding misses ("anyOf/properties": a member a branch of `anyOf`
// declares, not the branch's own type; "items[]": a list of `items`), as
// its minimal case shows; KeywordTitle names each as it is given (see
// Routes).
func KeywordTitle(kws []string) string {
	return "Declarations through " + routes(kws) + " are not followed: a stringified array or object stays a string"
}

// RefOther is the step of a route through a `$ref` that is not a plain
// `#/` pointer read from the document root (`#`, an anchor, an `$id`, a
// %-escape, a pointer inside an embedded resource), for an
// implementation that follows the plain pointer: its route says so, not
// that `$ref` is not followed (a resolver may read `#/` pointers only).
const RefOther = "$ref(other)"

// IgnoredClass is the class of a string decoded where only keywords the
// implementation does not follow keep it a string (Ignored).
const IgnoredClass = "decoded-keyword-ignored"

// Ignored is the diagnosis of a string decoded as JSON where the schema
// without the keyword kw declares the shape, by an implementation that
// gives the same with kw and without it: it does not follow kw (one that
// ignores `patternProperties` applies `additionalProperties` to a key a
// pattern matches).
func Ignored(kw string) Diagnosis {
	return Diagnosis{Class: IgnoredClass, Detail: kw, Title: IgnoredTitle([]string{kw}), Clause: "reading/4"}
}

// KeywordBothWaysTitle is the title of decodes missed behind the keywords
// kws (KeywordTitle) where the keywords ignored, a subset (IgnoredTitle),
// show from the other side too: one bug seen both ways.
func KeywordBothWaysTitle(kws, ignored []string) string {
	keep := " keep it a string"
	if len(ignored) == 1 {
		keep = " keeps it a string"
	}
	return KeywordTitle(kws) + ", and a string is decoded as JSON where only " + routes(ignored) + keep
}

// IgnoredTitle is the title of strings decoded where only the keywords
// kws, not followed, keep them strings (class decoded-keyword-ignored).
func IgnoredTitle(kws []string) string {
	return "Declarations through " + routes(kws) + " are not followed: a string is decoded as JSON where only they keep it a string"
}

// routes writes the routes kws for a title: "`anyOf` then `properties`,
// `items` as a list".
func routes(kws []string) string {
	q := make([]string, len(kws))
	for i, k := range kws {
		steps := strings.Split(k, "/")
		for j, st := range steps {
			if st == RefOther {
				steps[j] = "`$ref` other than a plain `#/` pointer from the document root"
				continue
			}
			if name, ok := strings.CutSuffix(st, "[]"); ok {
				steps[j] = code(name) + " as a list"
			} else {
				steps[j] = code(st)
			}
		}
		q[i] = strings.Join(steps, " then ")
	}
	// A way of several steps, or a list, among others: semicolons, so
	// that "`anyOf`, `oneOf` then `items`" does not read as both of them
	// then `items`.
	sep := ", "
	if slices.ContainsFunc(kws, func(k string) bool { return strings.Contains(k, "/") || strings.HasSuffix(k, "[]") }) && len(kws) > 1 {
		sep = "; "
	}
	return strings.Join(q, sep)
}

// Routes is the routes ds (details of decode-missed/keyword or /draft)
// without those another of them begins: a finding missed through `$ref`
// says the implementation misses what `$ref` leads to, members and all,
// so "$ref/properties" beside "$ref" says nothing more. It returns ds,
// shortened.
func Routes(ds []string) []string {
	return slices.DeleteFunc(ds, func(d string) bool {
		return slices.ContainsFunc(ds, func(e string) bool { return strings.HasPrefix(d, e+"/") })
	})
}

// DraftTitle is the title of the decodes missed behind the keywords kws
// that the implementation makes under `"$schema"` 2020-12 and misses in a
// schema without `$schema` (class decode-missed/draft): it reads such a
// schema by an older draft, where 2020-12 is the default. It says what
// the cases show, not that the keywords are never followed without
// `$schema` (an implementation that validates first may follow
// `prefixItems` when its validator rejects the arguments for another
// reason).
func DraftTitle(kws []string) string {
	return "A schema without `$schema` is read by an older draft than 2020-12: a stringified array or object declared through " + routes(kws) +
		" stays a string, where it is decoded once the schema says `\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"`"
}

// unwraps reports whether text, peeled of JSON string literals (at most
// three more), is JSON text whose value is v.
func unwraps(text string, v *jsonvalue.Value) bool {
	for range 4 {
		p, err := jsonvalue.Parse([]byte(text))
		if err != nil {
			return false
		}
		if jsonvalue.Equal(p, v) {
			return true
		}
		if p.Kind != jsonvalue.String {
			return false
		}
		text = p.Str
	}
	return false
}
