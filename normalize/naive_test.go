package normalize

import (
	"encoding/json"
	"reflect"
	"testing"

	"golang.org/x/net/html"
)

// naiveNormalizer is the baseline of the benchmarks: RT-TOOL-8 as a user
// would write it in an afternoon. encoding/json into any; a top-level
// argument that the schema's properties declare "array" or "object" and
// that came as a string is unmarshalled, kept if it has that shape; every
// string leaf goes through x/net's UnescapeString until it stops changing;
// json.Marshal writes the result. It loses member order, number text and
// escapes, and reads only the top level of the schema, which is all the
// benchmark arguments need (TestBenchData checks it computes the same
// values there).
type naiveNormalizer struct {
	declared map[string]string // top-level property: "array" or "object"
}

func newNaive(schema []byte) (*naiveNormalizer, error) {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	n := &naiveNormalizer{declared: map[string]string{}}
	for k, p := range s.Properties {
		if t, ok := p.Type.(string); ok && (t == "array" || t == "object") {
			n.declared[k] = t
		}
	}
	return n, nil
}

func (n *naiveNormalizer) normalize(args []byte) ([]byte, error) {
	var v map[string]any
	if err := json.Unmarshal(args, &v); err != nil {
		return nil, err
	}
	for k, x := range v {
		if s, ok := x.(string); ok {
			switch n.declared[k] {
			case "array":
				var a []any
				if json.Unmarshal([]byte(s), &a) == nil && a != nil {
					x = a
				}
			case "object":
				var m map[string]any
				if json.Unmarshal([]byte(s), &m) == nil && m != nil {
					x = m
				}
			}
		}
		v[k] = naiveUnescape(x)
	}
	return json.Marshal(v)
}

func naiveUnescape(x any) any {
	switch x := x.(type) {
	case string:
		for {
			next := html.UnescapeString(x)
			if next == x {
				return x
			}
			x = next
		}
	case []any:
		for i, e := range x {
			x[i] = naiveUnescape(e)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = naiveUnescape(e)
		}
	}
	return x
}

// sameJSON reports whether a and b hold the same value for encoding/json.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(va, vb)
}
