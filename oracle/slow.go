package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// DefaultMaxDepth is the nesting limit [Normalize] uses when
// [Options].MaxDepth is 0.
const DefaultMaxDepth = 1000

// Options configures [Normalize]. The zero value is the rule's literal
// reading: text-mode decoding, unbounded passes, [DefaultMaxDepth].
type Options struct {
	// Attribute selects the attribute profile (docs/readings.md section 3):
	// one pass of the entity repair is UnescapeAttribute instead of Unescape.
	Attribute bool

	// MaxPasses bounds the number of entity-decoding passes per string; 0
	// means unbounded. With a bound, a string may come out short of its
	// fixpoint.
	MaxPasses int

	// MaxDepth bounds the nesting of arrays and objects, both in the
	// arguments as sent and in what they become once stringified values are
	// decoded (the outermost object is at depth 1); 0 means DefaultMaxDepth.
	MaxDepth int

	// Draft is the JSON Schema draft of a schema (and of each document)
	// whose $schema names none: "4", "6", "7", "2019-09" or "2020-12" (or
	// "draft4" ... "draft2020-12"); "" means 2020-12.
	Draft string

	// Documents are the documents that references to other documents may
	// name, by URI (absolute, or relative to the base of a schema without
	// one). A reference to a document not here is an error.
	Documents map[string][]byte
}

// Normalize applies rule RT-TOOL-8, as docs/readings.md reads it, to the
// arguments args of a tool whose input schema is schema, and returns the
// normalized arguments as compact JSON. It is written to be obviously right, not fast.
//
// Every string leaf, at every depth, is looked at in this order:
//
//  1. If the schema declares its position array or object and not string,
//     and the string, as sent, parses strictly as one JSON value of a
//     declared shape (a list for array, a map for object), the parsed value
//     replaces it and is normalized in turn, under the same position.
//  2. Otherwise the entity repair applies: Unescape (or UnescapeAttribute)
//     until the value stops changing, at most MaxPasses times if that is set.
//  3. If that changed the string and the decoded text now qualifies as in
//     step 1, it is decoded and normalized too.
//
// Keys never change; numbers keep their text; member order and duplicate
// members are kept; nothing else changes. The output is written without
// HTML escaping.
//
// What the schema declares at a position follows docs/readings.md section
// 4: `type` (a name or a list) and `nullable: true` (which adds null to a
// known type, and alone says nothing); `$ref` (local JSON Pointers) in
// conjunction with its siblings; properties, patternProperties (Go regular
// expressions, unanchored; every matching pattern applies, as well as
// properties; additionalProperties only when neither applies),
// additionalProperties; prefixItems, then items; draft-4 list items, then
// additionalItems; allOf (intersection of the known type sets); anyOf and
// oneOf (union of their branches' type sets, unknown if any branch's is).
// Below a value, only the anyOf and oneOf branches that admit that value's
// JSON type (or whose type is unknown) contribute, as a union: a branch
// that says nothing about a child makes the union say nothing, and so does a
// combinator none of whose branches admits the value. The schema true
// declares nothing; false admits nothing (its type set is known and empty),
// and neither says anything about children. A schema node that can reach
// itself through $ref, allOf, anyOf and oneOf alone declares nothing, about
// its type or its children; nodes that lead into such a cycle are read as
// usual. Recursion through properties or items is followed.
//
// Normalize returns an error, and no output, for arguments that are not a
// JSON object, not JSON, not valid UTF-8, or nested deeper than MaxDepth
// (also once decoded); for a schema that is not JSON, has anything but an
// object or a boolean in a schema position, a keyword of the wrong JSON type,
// an unknown type name, a $ref that does not resolve (to a schema) or a
// pattern that does not compile, wherever Normalize could look (unused $defs
// and definitions included, whatever the arguments); and for negative
// options.
//
// # Known limitation
//
// Normalize is built on encoding/json, which decodes a lone surrogate escape
// such as "\ud800" as U+FFFD. So this oracle cannot represent lone
// surrogates, which docs/readings.md section 7 says must survive: the
// differential tests compare after the same canonicalization. Likewise a
// string with no '&' comes out equal as a value, not byte for byte
// ("\u00e9" is written "é"): compare outputs with [Equal].
func Normalize(schema, args []byte, opts Options) (out []byte, err error) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case patternSpent:
			out, err = nil, r.err
		default:
			panic(r)
		}
	}()
	if opts.MaxPasses < 0 {
		return nil, fmt.Errorf("oracle: MaxPasses is %d, want 0 (unbounded) or more", opts.MaxPasses)
	}
	if opts.MaxDepth < 0 {
		return nil, fmt.Errorf("oracle: MaxDepth is %d, want 0 (default) or more", opts.MaxDepth)
	}
	n := &normalizer{
		pass:      Unescape,
		maxPasses: opts.MaxPasses,
		maxDepth:  opts.MaxDepth,
	}
	if opts.Attribute {
		n.pass = UnescapeAttribute
	}
	if n.maxDepth == 0 {
		n.maxDepth = DefaultMaxDepth
	}

	if n.schema, err = parseSchema(schema, opts); err != nil {
		return nil, err
	}
	root, err := parseJSON(args, n.maxDepth)
	if err != nil {
		return nil, fmt.Errorf("oracle: arguments: %w", err)
	}
	if root.kind != kindObject {
		return nil, fmt.Errorf("oracle: arguments: a JSON %v, not an object", root.kind)
	}
	if err := n.value(root, &position{schemas: []string{n.schema.rootID}}, "", 0); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	appendJSON(&b, root)
	return b.Bytes(), nil
}

type normalizer struct {
	schema    *schema
	pass      func(string) string
	maxPasses int
	maxDepth  int
}

// value normalizes v in place. p is its position in the schema, ptr its JSON
// Pointer in the arguments and depth the number of arrays and objects that
// enclose it.
func (n *normalizer) value(v *node, p *position, ptr string, depth int) error {
	switch v.kind {
	case kindObject:
		for _, m := range v.members {
			c := n.schema.child(p, step{parent: kindObject, key: m.key})
			if err := n.value(m.value, c, ptr+"/"+escapePointerToken(m.key), depth+1); err != nil {
				return err
			}
		}
	case kindArray:
		for i, e := range v.elems {
			c := n.schema.child(p, step{parent: kindArray, index: i})
			if err := n.value(e, c, fmt.Sprintf("%s/%d", ptr, i), depth+1); err != nil {
				return err
			}
		}
	case kindString:
		return n.stringLeaf(v, p, ptr, depth)
	}
	return nil
}

// stringLeaf applies the two repairs to the string v, in the order of
// docs/readings.md section 6.
func (n *normalizer) stringLeaf(v *node, p *position, ptr string, depth int) error {
	declared := n.schema.types(p)
	qualifies := declared.known && declared.set&typeString == 0 && declared.set&(typeArray|typeObject) != 0

	if qualifies {
		parsed, err := n.decodeJSON(v.str, declared, ptr, depth)
		if err != nil {
			return err
		}
		if parsed != nil {
			*v = *parsed
			return n.value(v, p, ptr, depth)
		}
	}

	decoded, _, _ := Fixpoint(v.str, n.pass, n.maxPasses)
	if qualifies && decoded != v.str {
		parsed, err := n.decodeJSON(decoded, declared, ptr, depth)
		if err != nil {
			return err
		}
		if parsed != nil {
			*v = *parsed
			return n.value(v, p, ptr, depth)
		}
	}
	v.str = decoded
	return nil
}

// decodeJSON returns the value s parses to, if s parses strictly as one JSON
// value whose shape is declared: a list for array, a map for object. It
// returns nil otherwise. It is an error if that value, in place of the
// string at ptr, would nest deeper than the limit.
func (n *normalizer) decodeJSON(s string, declared types, ptr string, depth int) (*node, error) {
	if !utf8.ValidString(s) {
		return nil, nil
	}
	shapeDeclared := func(k kind) bool {
		return k == kindArray && declared.set&typeArray != 0 || k == kindObject && declared.set&typeObject != 0
	}
	parsed, err := parseJSON([]byte(s), n.maxDepth-depth)
	if errors.Is(err, errTooDeep) {
		// Too deep, but is it JSON of a declared shape at all?
		if k, ok := jsonKind([]byte(s)); ok && shapeDeclared(k) {
			return nil, fmt.Errorf("oracle: arguments: the string at %q decodes to JSON nested deeper than %d: %w", ptr, n.maxDepth, err)
		}
		return nil, nil
	}
	if err != nil || !shapeDeclared(parsed.kind) {
		return nil, nil
	}
	return parsed, nil
}

// jsonKind reports whether data is exactly one JSON value, and its kind,
// without a nesting limit and without recursion.
func jsonKind(data []byte) (kind, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	first, err := dec.Token()
	if err != nil {
		return 0, false
	}
	var k kind
	open := 0
	switch t := first.(type) {
	case json.Delim:
		k, open = kindArray, 1
		if t == '{' {
			k = kindObject
		}
	case string:
		k = kindString
	case json.Number:
		k = kindNumber
	case bool:
		k = kindBool
	case nil:
		k = kindNull
	}
	for open > 0 {
		tok, err := dec.Token()
		if err != nil {
			return 0, false
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			open++
		case json.Delim(']'), json.Delim('}'):
			open--
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		return 0, false
	}
	return k, true
}
