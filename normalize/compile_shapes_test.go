package normalize

// Hostile schemas for Compile (issue 34, "Bounded on every input"): shapes
// that made its cost grow faster than the schema, built at any size. The
// tests and benchmarks of compile_hostile_test.go and the fuzz target of
// compile_fuzz_test.go hold Compile to a cost linear in their size;
// docs/performance.md, "Bounded on every input: compile", has the numbers.

import (
	"fmt"
	"strings"
)

// A compileShape builds a hostile schema of about size bytes.
type compileShape struct {
	name  string
	build func(size int) []byte
	// What Compile does with it: compiles it, or refuses it with a
	// SchemaError (it asks for more than Compile follows), or either,
	// by its size.
	outcome shapeOutcome
}

type shapeOutcome int

const (
	compiles shapeOutcome = iota
	refused
	compilesOrRefused
)

var compileShapes = []compileShape{
	{"deep", func(n int) []byte { return deepSchema(n, "k") }, compiles},
	{"deeptilde", func(n int) []byte { return deepSchema(n, "~/") }, compiles},
	{"refchain", refChainSchema, compiles},
	{"longpointers", longPointerSchema, compiles},
	{"dynscopes", dynScopesSchema, refused},
	{"dynnames", dynNamesSchema, refused},
	{"manyprops", manyPropsSchema, compiles},
	{"hugeprops", hugePropsSchema, compiles},
	{"fanout", fanOutSchema, compiles},
	{"ids", nestedIDSchema, compilesOrRefused},
	{"manyids", manyIDsSchema, compiles},
	{"anchors", anchorsSchema, compiles},
}

func shapeNamed(name string) compileShape {
	for _, s := range compileShapes {
		if s.name == name {
			return s
		}
	}
	panic("no shape " + name)
}

// deepMaxLevels is how deeply deepSchema nests its schemas: each level is
// two JSON containers, and encoding/json (which reads a schema nested
// deeper than decodeOrdered does) refuses more than 10,000.
const deepMaxLevels = 4900

func deepLevels(size int) int { return min(deepMaxLevels, max(size/40, 1)) }

// deepSchema nests schemas through properties as deeply as JSON allows,
// with keys as long as the size then asks, made of unit repeated: the
// shape whose full pointer per schema cost depth squared times key length.
func deepSchema(size int, unit string) []byte {
	levels := deepLevels(size)
	open := `{"properties":{"`
	keyLen := max(size/levels-len(open)-4, 1)
	key := strings.Repeat(unit, keyLen/len(unit)+1)[:keyLen]
	if unit == "~/" {
		key = strings.Repeat(unit, max(keyLen/2, 1))
	}
	var b strings.Builder
	b.Grow(size + 64)
	for range levels {
		b.WriteString(open)
		b.WriteString(key)
		b.WriteString(`":`)
	}
	b.WriteString(`{"type":"array"}`)
	for range levels {
		b.WriteString(`}}`)
	}
	return []byte(b.String())
}

// refChainSchema is a chain of $refs through $defs, each to the next: the
// shape whose compile followed the chain from every hop.
func refChainSchema(size int) []byte {
	hops := max(size/32, 1)
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString(`{"$ref":"#/$defs/a0","$defs":{`)
	for i := range hops {
		fmt.Fprintf(&b, `"a%d":{"$ref":"#/$defs/a%d"},`, i, i+1)
	}
	fmt.Fprintf(&b, `"a%d":{"type":"object"}}}`, hops)
	return []byte(b.String())
}

// longPointerSchema nests schemas through properties, and refers from its
// root to every level by a JSON Pointer from the top: the shape whose
// references cost the square of their length each.
func longPointerSchema(size int) []byte {
	// The pointers of levels 1 to d take about 2d² bytes.
	d := 1
	for 2*(d+1)*(d+1)+24*(d+1) < size && d < deepMaxLevels {
		d++
	}
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString(`{"allOf":[`)
	for i := 1; i <= d; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`{"$ref":"#`)
		for range i {
			b.WriteString(`/p/a`)
		}
		b.WriteString(`"}`)
	}
	b.WriteString(`],`)
	for range d {
		b.WriteString(`"p":{"a":{`)
	}
	b.WriteString(`"type":"object"`)
	for range d {
		b.WriteString(`}}`)
	}
	b.WriteString(`}`)
	return []byte(b.String())
}

// dynScopesSchema has a large plain schema, "blob", that a $dynamicRef in
// it makes depend on the dynamic scope, and sixty resources that bind the
// name it looks up, each its own way, and refer to it: the shape that
// compiled the blob sixty times over, under the bound of 64 scopes.
func dynScopesSchema(size int) []byte {
	const resources = 60
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString(`{"$id":"https://h.test/root","$defs":{"anchors":{"$id":"anchors","$dynamicAnchor":"x"},`)
	for i := range resources {
		fmt.Fprintf(&b, `"s%d":{"$id":"s%d","$dynamicAnchor":"x","$ref":"root#/$defs/blob"},`, i, i)
	}
	b.WriteString(`"blob":{"type":"object","additionalProperties":{"$dynamicRef":"anchors#x"},"properties":{`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":{"type":"object"}`, i)
	}
	b.WriteString(`}}}}`)
	return []byte(b.String())
}

// dynNamesSchema has a resource, "big", that binds many $dynamicAnchor
// names and looks each up, entered from sixty resources that bind one name
// of their own first: the shape that copied every name into sixty scopes.
func dynNamesSchema(size int) []byte {
	const resources = 60
	names := max((size-resources*80)/60, 1)
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString(`{"$id":"https://h.test/root","$defs":{`)
	for i := range resources {
		fmt.Fprintf(&b, `"s%d":{"$id":"s%d","$dynamicAnchor":"y","$ref":"big"},`, i, i)
	}
	b.WriteString(`"big":{"$id":"big","allOf":[{"$dynamicRef":"#y"}`)
	for i := range names {
		fmt.Fprintf(&b, `,{"$dynamicRef":"#n%d"}`, i)
	}
	b.WriteString(`],"$defs":{"y":{"$dynamicAnchor":"y"}`)
	for i := range names {
		fmt.Fprintf(&b, `,"n%d":{"$dynamicAnchor":"n%d"}`, i, i)
	}
	b.WriteString(`}}}}`)
	return []byte(b.String())
}

// manyPropsSchema is a list of schemas with 256 properties each: the shape
// whose table of properties was tried 128 times per schema.
func manyPropsSchema(size int) []byte {
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString(`{"anyOf":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"properties":{`)
		for k := range 256 {
			if k > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":true`, k)
		}
		b.WriteString(`}}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// hugePropsSchema is one schema with as many properties as fit.
func hugePropsSchema(size int) []byte {
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"array"}`, i)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// fanOutSchema is anyOf and allOf branches, as many as fit, each of them
// small: the most schemas per byte.
func fanOutSchema(size int) []byte {
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString(`{"allOf":[{"anyOf":[`)
	for i := 0; b.Len() < size/2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{}`)
	}
	b.WriteString(`]},{"anyOf":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"object"}`)
	}
	b.WriteString(`]}]}`)
	return []byte(b.String())
}

// nestedIDSchema nests resources with relative $ids, each under the one
// before: their URIs grow with the depth.
func nestedIDSchema(size int) []byte {
	levels := min(deepMaxLevels, max(size/40, 1))
	open := `{"$id":"`
	seg := strings.Repeat("d", max(size/levels-30, 1)) + "/"
	var b strings.Builder
	b.Grow(size + 64)
	for range levels {
		b.WriteString(open)
		b.WriteString(seg)
		b.WriteString(`","properties":{"a":`)
	}
	b.WriteString(`{"$ref":"#/properties/a"}`)
	for range levels {
		b.WriteString(`}}`)
	}
	return []byte(b.String())
}

// manyIDsSchema has many resources side by side, with relative $ids, each
// referring to the next by its URI.
func manyIDsSchema(size int) []byte {
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString(`{"$id":"https://h.test/schemas/root","$defs":{`)
	i := 0
	for ; b.Len() < size; i++ {
		fmt.Fprintf(&b, `"r%d":{"$id":"r%d","items":{"$ref":"r%d"}},`, i, i, i+1)
	}
	fmt.Fprintf(&b, `"r%d":{"$id":"r%d","type":"array"}}}`, i, i)
	return []byte(b.String())
}

// anchorsSchema has many plain-name anchors, each referred to.
func anchorsSchema(size int) []byte {
	var b strings.Builder
	b.Grow(size + 64)
	b.WriteString(`{"$defs":{`)
	i := 0
	for ; b.Len() < size; i++ {
		fmt.Fprintf(&b, `"d%d":{"$anchor":"a%d","items":{"$ref":"#a%d"}},`, i, i, i+1)
	}
	fmt.Fprintf(&b, `"d%d":{"$anchor":"a%d","type":"array"}}}`, i, i)
	return []byte(b.String())
}

func (o shapeOutcome) String() string {
	return [...]string{"compiled", "refused", "compiled or refused"}[o]
}

var shapeSizes = []struct {
	name string
	n    int
}{{"64K", 64 << 10}, {"256K", 256 << 10}, {"1M", 1 << 20}, {"4M", 4 << 20}}

// Compile's cost per byte of schema, at most, on any input: the steps it
// counts, and the bytes it allocates (freed or not, so that the peak is
// less). The hostile shapes take up to 4 steps and 150 bytes a byte; the
// fixed parts are the budget of the dynamic scopes' floor (8,192 steps)
// and what a small schema costs.
const (
	maxStepsPerByte = 16
	maxStepsFixed   = 1 << 16
	maxAllocPerByte = 256
	maxAllocFixed   = 4 << 20
)
