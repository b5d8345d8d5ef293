package normalize

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/toolnorm/toolnorm/internal/hostile"
)

// walkShapes are the hostile shapes whose cost the walk answers for (the
// others are compile's and the pattern engine's: see elsewhere).
var walkShapes = sync.OnceValue(func() []hostile.Shape {
	var shapes []hostile.Shape
	for _, sh := range hostile.Shapes() {
		if _, ok := elsewhere[sh.Name]; !ok {
			shapes = append(shapes, sh)
		}
	}
	return shapes
})

// hostileSchemas are the walk shapes' schemas compiled, by name: each
// shape's schema is the same at every size.
var hostileSchemas sync.Map

// workBound is the most work (walker.work: values walked, schema positions
// visited) the walk may do on args under schema: linear in each. Looking
// up each member through the whole schema, as the walk did, is their
// product, and far above it.
func workBound(args, schema []byte) int64 {
	return 2*int64(len(args)) + 16*int64(len(schema))
}

// FuzzHostile runs the walk's hostile shapes at sizes up to 1 MB, with a
// fuzzed string in place of each leaf and in front of the first key: no
// panic, a typed error or JSON out, and the work counted within
// workBound. The native fuzz targets of fuzz/ cap nesting at 50 and
// inputs are small there; here the shapes nest up to 990 deep.
func FuzzHostile(f *testing.F) {
	for i := range walkShapes() {
		f.Add(uint8(i), uint32(0), "&amp;", "")
		f.Add(uint8(i), uint32(60<<10), `[1,{"a":"&lt;"}]`, "k")
		f.Add(uint8(i), uint32(200<<10), `{"p1":"[\"&amp;amp;\"]","x":"[2]"}`, "x3_")
	}
	f.Fuzz(func(t *testing.T, shape uint8, size uint32, leaf, key string) {
		sh := walkShapes()[int(shape)%len(walkShapes())]
		// Up to 1 MB, most often much less: the top four bits of size
		// halve the rest up to 15 times, so that fuzzing does not spend
		// its time on megabytes.
		c := sh.Build(hostile.MinSize + int(size&(1<<20-1))>>(size>>28))
		args := splice(c.Args, leaf, key)
		v, ok := hostileSchemas.Load(sh.Name)
		if !ok {
			s, err := Compile(c.Schema)
			if err != nil {
				t.Fatal(err)
			}
			v, _ = hostileSchemas.LoadOrStore(sh.Name, s)
		}
		s := v.(*Schema)
		out, repairs, work, err := s.normalizeWork(nil, args, true)
		if err != nil {
			var e *Error
			if out != nil || repairs != nil || !errors.As(err, &e) ||
				!(errors.Is(err, ErrSyntax) || errors.Is(err, ErrTooDeep) || errors.Is(err, ErrPattern)) {
				t.Fatalf("%s at %d bytes: %v, want an *Error and no output", sh.Name, len(args), err)
			}
		} else if !json.Valid(out) {
			t.Fatalf("%s at %d bytes: the output is not JSON", sh.Name, len(args))
		}
		if limit := workBound(args, c.Schema); work > limit {
			t.Fatalf("%s at %d bytes, schema %d bytes: %d units of work, want at most %d", sh.Name, len(args), len(c.Schema), work, limit)
		}
	})
}

// splice puts leaf, as a JSON string, in place of every "&amp;" leaf of
// args, and key's text in front of its first key.
func splice(args []byte, leaf, key string) []byte {
	l, _ := json.Marshal(leaf)
	k, _ := json.Marshal(key)
	args = bytes.ReplaceAll(args, []byte(`"&amp;"`), l)
	return bytes.Replace(args, []byte(`{"`), append([]byte(`{"`), k[1:len(k)-1]...), 1)
}

// TestHostileWork holds the walk's hostile shapes at 256 KB within
// workBound, the fuzz target's seeds. A shape may end in ErrPattern (the
// call's budget of pattern steps, which regular matches pay from too,
// bounds many keys under many patterns) or ErrTooDeep (a shape of the
// schema's cost nests its arguments past the limit): the walk's work then
// stops where it ended.
func TestHostileWork(t *testing.T) {
	for _, sh := range walkShapes() {
		c := sh.Build(256 << 10)
		s, err := Compile(c.Schema)
		if err != nil {
			t.Fatal(err)
		}
		_, _, work, err := s.normalizeWork(nil, c.Args, true)
		if err != nil && !errors.Is(err, ErrPattern) && !errors.Is(err, ErrTooDeep) {
			t.Fatal(err)
		}
		limit := workBound(c.Args, c.Schema)
		t.Logf("%s: %d bytes, schema %d: %d units of work (bound %d)", sh.Name, len(c.Args), len(c.Schema), work, limit)
		if work > limit {
			t.Errorf("%s: %d units of work, want at most %d", sh.Name, work, limit)
		}
	}
}
