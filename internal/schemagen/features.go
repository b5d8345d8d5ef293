package schemagen

import (
	"unicode/utf8"
)

// A Feature is one thing of the schema vocabulary (a keyword, a type
// form, a draft, a reference of a kind), of the arguments (a key that
// languages treat specially, arguments that break the schema at one
// place), or a pair of them that matters (a validation keyword beside a
// type form, a keyword under an applicator). A case exercises a feature
// when its schema or its arguments hold it (AnalyzeText says which).
type Feature uint16

// A Group is the kind of a feature, for a report's table.
type Group string

// The groups, in a report's order.
const (
	GroupType       Group = "type form"
	GroupValidation Group = "validation"
	GroupApplicator Group = "applicator"
	GroupReference  Group = "reference"
	GroupDraft      Group = "draft"
	GroupKey        Group = "key"
	GroupArguments  Group = "arguments"
	GroupBeside     Group = "beside"
	GroupUnder      Group = "under"
)

// The type forms: how a schema declares its types.
var typeForms = []string{
	"type-name",                  // "type": "array"
	"type-list-string-container", // a list mixing string with array or object
	"type-list-null",             // a list with null (and no string beside a container)
	"type-list",                  // another list
	"nullable",                   // OpenAPI's nullable: true beside a type
}

// validation are the validation keywords counted, each beside each type
// form. "dependencies" is draft 4 to 7's dependentRequired and
// dependentSchemas together.
var validation = []string{
	"maxLength", "minLength", "pattern", "format", "enum", "const",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minItems", "maxItems", "uniqueItems", "contains",
	"required", "minProperties", "maxProperties", "propertyNames", "dependentRequired", "dependencies",
}

// applicators are the keywords whose values are subschemas. "items-list"
// is an items array (a tuple, drafts 4 to 2019-09).
var applicators = []string{
	"properties", "patternProperties", "additionalProperties",
	"items", "items-list", "prefixItems", "additionalItems",
	"allOf", "anyOf", "oneOf", "not", "if", "then", "else",
	"dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
}

// references are the ways a schema refers to itself.
var references = []string{
	"$ref",            // a $ref
	"$ref-deep",       // a $ref into $defs (or definitions) not at the root, or deeper than a member of them
	"$defs",           // a $defs or definitions member
	"$id",             // an $id (id in draft 4) that names a resource
	"$id-relative",    // an $id written relative to that of an embedded resource it sits in
	"$anchor",         // an $anchor, or an $id (id) "#name" of drafts 4 to 7
	"recursion",       // a $ref to "#" or to a schema it is inside
	"$dynamicRef",     // a $dynamicRef or $recursiveRef
	"boolean-schema",  // true or false as a subschema
	"embedded-schema", // a $schema below the root
}

// drafts are the $schema values a document's root may name.
var drafts = []string{"draft-04", "draft-06", "draft-07", "draft-2019-09", "draft-2020-12", "no-$schema"}

// keyFeatures are the argument keys languages treat specially.
var keyFeatures = []string{
	"__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__class__",
	"0", "01", "-0", "1e3", "empty", "long", "non-BMP",
}

// argumentFeatures are said of the arguments as drawn: fitting the schema
// everywhere the generator knows of, or breaking it at one place (a
// mutation that adds a constraint the value breaks says so too).
var argumentFeatures = []string{"fit", "broken-once"}

// underChildren are the keywords counted under each of underParents.
var underChildren = []string{
	"type-list-string-container", "nullable", "maxLength", "minLength", "enum", "const",
	"properties", "patternProperties", "additionalProperties",
	"items", "items-list", "prefixItems", "additionalItems",
	"allOf", "anyOf", "oneOf", "$ref",
}

// underParents are the applicators a schema is reached through (a $defs
// member is reached through a $ref).
var underParents = []string{
	"$ref", "allOf", "anyOf", "oneOf", "not", "if-then-else",
	"items", "prefixItems", "properties", "patternProperties", "additionalProperties", "dependentSchemas",
}

// catalogue is every feature: id, group.
var catalogue []struct {
	id    string
	group Group
}

// The first feature of each group, and the index tables.
var (
	firstType, firstValidation, firstApplicator, firstReference, firstDraft, firstKey, firstArguments, firstBeside, firstUnder Feature
	featureByName                                                                                                              = map[string]Feature{}
	validationIndex                                                                                                            = map[string]int{}
	childIndex                                                                                                                 = map[string]int{}
	parentIndex                                                                                                                = map[string]int{}
)

// NumFeatures is how many features there are.
var NumFeatures int

func init() {
	add := func(g Group, ids []string) Feature {
		first := Feature(len(catalogue))
		for _, id := range ids {
			featureByName[string(g)+" "+id] = Feature(len(catalogue))
			catalogue = append(catalogue, struct {
				id    string
				group Group
			}{id, g})
		}
		return first
	}
	firstType = add(GroupType, typeForms)
	firstValidation = add(GroupValidation, validation)
	firstApplicator = add(GroupApplicator, applicators)
	firstReference = add(GroupReference, references)
	firstDraft = add(GroupDraft, drafts)
	firstKey = add(GroupKey, keyFeatures)
	firstArguments = add(GroupArguments, argumentFeatures)
	var beside, under []string
	for _, k := range validation {
		for _, t := range typeForms {
			beside = append(beside, k+" beside "+t)
		}
	}
	for _, c := range underChildren {
		for _, p := range underParents {
			under = append(under, c+" under "+p)
		}
	}
	firstBeside = add(GroupBeside, beside)
	firstUnder = add(GroupUnder, under)
	NumFeatures = len(catalogue)
	if NumFeatures > 64*setWords {
		panic("schemagen: more features than a Set holds")
	}
	for i, k := range validation {
		validationIndex[k] = i
	}
	for i, k := range underChildren {
		childIndex[k] = i
	}
	for i, k := range underParents {
		parentIndex[k] = i
	}
	for f, c := range catalogue {
		if byGroup[c.group] == nil {
			byGroup[c.group] = map[string]Feature{}
		}
		byGroup[c.group][c.id] = Feature(f)
	}
	ref := func(id string) Feature { return byGroup[GroupReference][id] }
	featBooleanSchema, featEmbeddedSchema, featRef, featRefDeep = ref("boolean-schema"), ref("embedded-schema"), ref("$ref"), ref("$ref-deep")
	featDynamicRef, featAnchor, featID, featDefs, featRecursion = ref("$dynamicRef"), ref("$anchor"), ref("$id"), ref("$defs"), ref("recursion")
	featIDRelative = ref("$id-relative")
}

// byGroup is every feature by group and name (addName looks a feature up
// without building its String).
var byGroup = map[Group]map[string]Feature{}

// The references, looked up once.
var featBooleanSchema, featEmbeddedSchema, featRef, featRefDeep, featDynamicRef, featAnchor, featID, featIDRelative, featDefs, featRecursion Feature

// Name is the feature's id within its group: a keyword ("maxLength"), a
// form ("type-list-string-container"), a pair ("items under $ref").
func (f Feature) Name() string { return catalogue[f].id }

// Group is the feature's group.
func (f Feature) Group() Group { return catalogue[f].group }

// Pair reports whether f is a pair of features (beside, under).
func (f Feature) Pair() bool { return f >= firstBeside }

// String is the group and the name: "validation maxLength".
func (f Feature) String() string { return string(f.Group()) + " " + f.Name() }

// ByName is the feature String names.
func ByName(s string) (Feature, bool) {
	f, ok := featureByName[s]
	return f, ok
}

// All is every feature, in the catalogue's order: the single features by
// group, then the pairs.
func All() []Feature {
	out := make([]Feature, NumFeatures)
	for i := range out {
		out[i] = Feature(i)
	}
	return out
}

const setWords = 8

// A Set is a set of features.
type Set [setWords]uint64

// Add adds f.
func (s *Set) Add(f Feature) { s[f/64] |= 1 << (f % 64) }

// Has reports whether s holds f.
func (s *Set) Has(f Feature) bool { return s[f/64]&(1<<(f%64)) != 0 }

// Union adds every feature of t.
func (s *Set) Union(t Set) {
	for i := range s {
		s[i] |= t[i]
	}
}

// Counts counts, per feature, the cases that exercised it.
type Counts struct {
	Cases int // cases counted
	N     []int
}

// Count counts one case that exercised the features of s.
func (c *Counts) Count(s Set) {
	if c.N == nil {
		c.N = make([]int, NumFeatures)
	}
	c.Cases++
	for w, bits := range s {
		for bits != 0 {
			b := bits & -bits
			c.N[w*64+trailingZeros(b)]++
			bits &^= b
		}
	}
}

// Add adds the counts of d.
func (c *Counts) Add(d Counts) {
	if d.N == nil {
		return
	}
	if c.N == nil {
		c.N = make([]int, NumFeatures)
	}
	c.Cases += d.Cases
	for i, n := range d.N {
		c.N[i] += n
	}
}

// Of is how many cases exercised f.
func (c *Counts) Of(f Feature) int {
	if c.N == nil {
		return 0
	}
	return c.N[f]
}

func trailingZeros(b uint64) int {
	n := 0
	for b&1 == 0 {
		b >>= 1
		n++
	}
	return n
}

func (s *Set) addName(g Group, id string) {
	if f, ok := byGroup[g][id]; ok {
		s.Add(f)
	}
}

// draftFeature is the feature of a $schema value.
func draftFeature(uri string) Feature {
	switch d := draftOf(uri); d {
	case Draft4:
		return firstDraft
	case Draft6:
		return firstDraft + 1
	case Draft7:
		return firstDraft + 2
	case Draft2019:
		return firstDraft + 3
	}
	return firstDraft + 4
}

// maxAnalyzed bounds the walk: a schema past so many subschemas, or so
// deep, is counted as far as it goes (a hostile corpus vector costs no
// more than an ordinary one).
const (
	maxAnalyzed      = 4096
	maxAnalyzedDepth = 64
)

// addValidation counts validation keyword i, beside the type form form
// (-1: none).
func (s *Set) addValidation(i, form int) {
	s.Add(firstValidation + Feature(i))
	if form >= 0 {
		s.Add(firstBeside + Feature(i*len(typeForms)+form))
	}
}

// addUnder counts keyword k under the parent.
func (s *Set) addUnder(k string, parent int) {
	c, ok := childIndex[k]
	if !ok || parent < 0 {
		return
	}
	s.Add(firstUnder + Feature(c*len(underParents)+parent))
}

// LongKey is how long a key must be, in bytes, to count as long.
const LongKey = 100

// keyFeatureBytes is keyFeature of a key's bytes.
func keyFeatureBytes(k []byte) (Feature, bool) {
	keys := byGroup[GroupKey]
	switch string(k) {
	case "__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__class__", "0", "01", "-0", "1e3":
		f, ok := keys[string(k)]
		return f, ok
	case "":
		return keys["empty"], true
	}
	if len(k) >= LongKey {
		return keys["long"], true
	}
	for _, r := range string(k) {
		if r > 0xFFFF && r != utf8.RuneError {
			return keys["non-BMP"], true
		}
	}
	return 0, false
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// listForm is the form of a type list, from what it names: 1 `string`
// beside a container, 2 `null` (and no such pair), 3 another list.
func listForm(str, container, null bool) int {
	switch {
	case str && container:
		return 1
	case null:
		return 2
	}
	return 3
}
