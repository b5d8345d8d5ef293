package normalize

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/internal/hostile"
)

// The hostile shapes of issue 34 ("Bounded on every input") that the walk
// answers for, at a size a test runs in a moment: what each costs is
// counted (bytes allocated), never timed, so that the tests hold on any
// machine. The benchmarks (hostile_bench_test.go) time them from 64 KB to
// 4 MB.

// TestReportLinear: a report costs memory linear in the arguments. It
// built a JSON Pointer string per repair, the whole path each time: one
// key of 16 KB above 6,143 repaired leaves (64 KB of arguments) allocated
// 316 MB, 4,825 times the arguments (1 MB of them, 10 GB); chains 990
// objects deep, 59 MB (900 times).
func TestReportLinear(t *testing.T) {
	for _, shape := range []func(int) hostile.Case{hostile.LongKeyLeaves, hostile.DeepNesting} {
		c := shape(64 << 10)
		s, err := Compile(c.Schema)
		if err != nil {
			t.Fatal(err)
		}
		var repairs []Repair
		n := allocated(func() {
			if _, repairs, err = s.NormalizeReport(c.Args); err != nil {
				t.Fatal(err)
			}
		})
		ratio := float64(n) / float64(len(c.Args))
		t.Logf("%d bytes of arguments, %d repairs: %d bytes allocated (%.1fx)", len(c.Args), len(repairs), n, ratio)
		if ratio > 24 {
			t.Errorf("NormalizeReport allocated %.1f times the arguments' %d bytes, want at most 24", ratio, len(c.Args))
		}
		if len(repairs) < len(c.Args)/1024 {
			t.Errorf("%d repairs, want every leaf's", len(repairs))
		}
	}
}

// TestMemberLookupsShared: the schemas of an object's members are looked
// up once per kind of key, not once per member through the whole schema.
// Under a schema of 700 allOf and 700 anyOf branches (85 KB), each
// member's lookup walked all 1,400 with a memo of its own: 64 KB of
// arguments allocated 146 MB, 968 times the input.
func TestMemberLookupsShared(t *testing.T) {
	c := hostile.WideApplicators(64 << 10)
	s, err := Compile(c.Schema)
	if err != nil {
		t.Fatal(err)
	}
	n := allocated(func() {
		if _, err = s.Normalize(c.Args); err != nil {
			t.Fatal(err)
		}
	})
	in := len(c.Args) + len(c.Schema)
	ratio := float64(n) / float64(in)
	t.Logf("%d bytes of arguments under %d of schema: %d bytes allocated (%.1fx)", len(c.Args), len(c.Schema), n, ratio)
	if ratio > 16 {
		t.Errorf("Normalize allocated %.1f times its input's %d bytes, want at most 16", ratio, in)
	}
}

// TestSharedLookupsAgree: the walk's shared lookups (walker.child) give
// what the definition (node.child, one search per member) gives, on the
// schemas of the unit tests and of the JSON-Schema-Test-Suite, under
// arguments that look up many members and elements at each position: the
// schema's own names and patterns' prefixes as keys, again and again, and
// other keys, at every depth.
func TestSharedLookupsAgree(t *testing.T) {
	schemas := []string{
		// Arrays whose elements' schemas depend on the index, not simply.
		`{"properties":{"a":{"allOf":[{"prefixItems":[{"type":"array"},{"type":"object"},{"type":"string"}]},{"items":{"type":"array"}}]}},"additionalProperties":{"$ref":"#/properties/a"}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","additionalProperties":{"anyOf":[{"type":"array","items":[{"type":"object"},{"type":"array"}],"additionalItems":{"type":"object"}},{"type":"array","items":[{"type":"object"}]}]}}`,
		// Patterns and names together, through applicators.
		`{"allOf":[{"patternProperties":{"^a":{"type":"array"},"b$":{"type":"object"}}},{"properties":{"ab":{"type":"string"},"a":{"type":"array"}},"additionalProperties":{"type":"object"}}],"anyOf":[{"patternProperties":{"^a":{"items":{"type":"object"}}}},{"type":"object","properties":{"x":{"type":"array"}}}]}`,
		`{"$defs":{"t":{"type":"object","patternProperties":{"^[a-c]":{"$ref":"#/$defs/t"},"_1$":{"type":"array"}},"additionalProperties":{"type":"array","items":{"$ref":"#/$defs/t"}}}},"$ref":"#/$defs/t"}`,
	}
	for _, tt := range normCases {
		schemas = append(schemas, tt.schema)
	}
	for _, d := range []string{"draft4", "draft7", "draft2019-09", "draft2020-12"} {
		files, _ := filepath.Glob(filepath.Join("testdata/JSON-Schema-Test-Suite/tests", d, "*.json"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var groups []struct{ Schema json.RawMessage }
			if err := json.Unmarshal(b, &groups); err != nil {
				t.Fatal(err)
			}
			for _, g := range groups {
				schemas = append(schemas, string(g.Schema))
			}
		}
	}
	defer func(v bool) { shareLookups = v }(shareLookups)
	r := rand.New(rand.NewPCG(34, 5))
	compared := 0
	for _, schema := range schemas {
		s, err := Compile([]byte(schema))
		if err != nil {
			continue
		}
		names := schemaStrings(schema)
		for range 8 {
			args := lookupArgs(r, names, 3)
			shareLookups = false
			want, wantErr := s.Normalize(args)
			shareLookups = true
			got, err := s.Normalize(args)
			if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("schema %s\nargs %s\nshared lookups: %s, %v\ndefinition:     %s, %v", schema, args, got, err, want, wantErr)
			}
			compared++
		}
	}
	t.Logf("%d schemas, %d arguments compared", len(schemas), compared)
}

// schemaStrings returns the strings of a schema's text, and their prefixes
// before a regular expression's first special character: keys that name
// its properties or match its patterns.
func schemaStrings(schema string) []string {
	var v any
	if json.Unmarshal([]byte(schema), &v) != nil {
		return nil
	}
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				seen[k] = true
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		case string:
			seen[v] = true
			if i := strings.IndexAny(v, `^$.*+?()[]{}|\`); i >= 0 {
				seen[strings.TrimPrefix(v, "^")[:max(0, i-1)]] = true
			}
		}
	}
	walk(v)
	names := []string{"x", "", "a~b/c", "0"}
	for k := range seen {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// lookupArgs returns arguments of members named from names (and others),
// each a value to repair, nested depth deep.
func lookupArgs(r *rand.Rand, names []string, depth int) []byte {
	var b bytes.Buffer
	var value func(depth int)
	object := func(depth int) {
		b.WriteByte('{')
		for i := range 2 + r.IntN(6) {
			if i > 0 {
				b.WriteByte(',')
			}
			k := names[r.IntN(len(names))]
			if r.IntN(4) == 0 {
				k += "_" + strconv.Itoa(r.IntN(3))
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			value(depth)
		}
		b.WriteByte('}')
	}
	value = func(depth int) {
		switch c := r.IntN(6); {
		case depth > 0 && c == 0:
			object(depth - 1)
		case depth > 0 && c == 1:
			b.WriteByte('[')
			for i := range 1 + r.IntN(7) {
				if i > 0 {
					b.WriteByte(',')
				}
				value(depth - 1)
			}
			b.WriteByte(']')
		case c == 2:
			b.WriteString(`"[1,\"&amp;\"]"`)
		case c == 3:
			b.WriteString(`"{\"a\":\"&lt;\"}"`)
		default:
			b.WriteString(`"&amp;amp;"`)
		}
	}
	object(depth)
	return b.Bytes()
}

// stopAfter is a context that is done after its Err has said nil n
// times: a deadline that passes at a given point of the walk, the same on
// every machine.
type stopAfter struct {
	context.Context
	n    int
	done chan struct{}
}

func newStopAfter(n int) *stopAfter {
	return &stopAfter{Context: context.Background(), n: n, done: make(chan struct{})}
}

func (c *stopAfter) Done() <-chan struct{} { return c.done }

func (c *stopAfter) Err() error {
	if c.n == 0 {
		return context.DeadlineExceeded
	}
	c.n--
	return nil
}

// TestNormalizeContext: a context stops the walk, with an *Error that
// wraps its error and says how far the walk got; a context never done
// changes nothing.
func TestNormalizeContext(t *testing.T) {
	s, err := Compile([]byte(`{"properties":{"l":{"type":"array","items":{"type":"array"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	// 40,000 elements, then the same again inside a string the schema
	// decodes.
	elems := strings.Repeat(`"&amp;",`, 40_000) + `1`
	args := []byte(`{"a":[` + elems + `],"l":"[[` + strings.ReplaceAll(elems, `"`, `\"`) + `]]"}`)
	want, err := s.Normalize(args)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if got, err := s.NormalizeContext(ctx, args); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("NormalizeContext, not done: %.40s, %v", got, err)
	}
	if got, repairs, err := s.NormalizeReportContext(ctx, args); err != nil || !bytes.Equal(got, want) || len(repairs) != 80_001 {
		t.Fatalf("NormalizeReportContext, not done: %.40s, %d repairs, %v", got, len(repairs), err)
	}
	cancel()
	out, err := s.NormalizeContext(ctx, args)
	var e *Error
	if out != nil || !errors.As(err, &e) || !errors.Is(err, context.Canceled) || e.Offset != 0 {
		t.Fatalf("NormalizeContext, canceled: %.40s, %v; want an *Error at offset 0 wrapping context.Canceled", out, err)
	}
	lString := bytes.Index(args, []byte(`"[[`))
	for _, tc := range []struct {
		checks int
		// The error is in "/a", or in the string "/l", at its offset.
		inString bool
	}{{1, false}, {8, false}, {12, true}, {18, true}} {
		out, repairs, err := s.NormalizeReportContext(newStopAfter(tc.checks), args)
		if out != nil || repairs != nil || !errors.As(err, &e) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("stopped after %d checks: %.40s, %d repairs, %v; want an *Error wrapping context.DeadlineExceeded", tc.checks, out, len(repairs), err)
		}
		if tc.inString && (e.Offset != lString || !strings.HasPrefix(e.Pointer, "/l/0/")) ||
			!tc.inString && (e.Offset <= 0 || e.Offset >= lString || !strings.HasPrefix(e.Pointer, "/a/")) {
			t.Errorf("stopped after %d checks: %v (offset %d, pointer %s)", tc.checks, err, e.Offset, e.Pointer)
		}
		t.Logf("stopped after %d checks: %v", tc.checks, err)
	}
}

// TestNormalizeReportN: NormalizeReportN lists the first n repairs of
// what NormalizeReport lists, and counts them all, on the arguments of
// TestSharedLookupsAgree (strings JSON-decoded that fail to parse after a
// repair inside them, whose repairs are taken back, included); and past
// n a repair costs no memory: under 100 listed, 1 MB of 130,000 repairs
// below a key of 256 KB allocates what Normalize does, where the whole
// report allocates 12 times the arguments.
func TestNormalizeReportN(t *testing.T) {
	schemas := []string{
		`{"properties":{"a":{"type":"array"},"o":{"type":"object","properties":{"b":{"type":"array"}}}},"additionalProperties":{"type":"array","items":{"type":"object"}}}`,
		`{"$defs":{"t":{"type":"object","patternProperties":{"^[a-c]":{"$ref":"#/$defs/t"},"_1$":{"type":"array"}},"additionalProperties":{"type":"array","items":{"$ref":"#/$defs/t"}}}},"$ref":"#/$defs/t"}`,
	}
	fixed := []string{
		// A JSON repair taken back: the array does not parse once its
		// "&amp;" was decoded inside it; then its references are.
		`{"a":"[\"&amp;\",\"&lt;\"] x","o":"{\"b\":\"[1]\",\"c\":\"&quot;\"}","z":"[{\"q\":\"&amp;amp;\"}]"}`,
		`{"a":"[\"&amp;\",[\"&lt;\"]]","x":"&amp;"}`,
	}
	r := rand.New(rand.NewPCG(34, 6))
	compared := 0
	for _, schema := range schemas {
		s, err := Compile([]byte(schema))
		if err != nil {
			t.Fatal(err)
		}
		all := slices.Clone(fixed)
		for range 40 {
			all = append(all, string(lookupArgs(r, schemaStrings(schema), 3)))
		}
		for _, args := range all {
			want, wantRepairs, wantErr := s.NormalizeReport([]byte(args))
			for _, n := range []int{-1, 0, 1, 2, 3, len(wantRepairs) - 1, len(wantRepairs), len(wantRepairs) + 1} {
				out, repairs, total, err := s.NormalizeReportN(context.Background(), []byte(args), n)
				if fmt.Sprint(err) != fmt.Sprint(wantErr) || !bytes.Equal(out, want) {
					t.Fatalf("n=%d: %s, %v; want %s, %v", n, out, err, want, wantErr)
				}
				if err != nil {
					continue
				}
				head := wantRepairs
				if n >= 0 && n < len(head) {
					head = head[:n]
				}
				if total != len(wantRepairs) || fmt.Sprint(repairs) != fmt.Sprint(head) {
					t.Fatalf("schema %s\nargs %s\nn=%d: %d repairs of %d: %v\nwant %d of %d: %v", schema, args, n, len(repairs), total, repairs, len(head), len(wantRepairs), head)
				}
				compared++
			}
		}
	}
	t.Logf("%d reports compared", compared)

	c := hostile.LongKeyLeaves(1 << 20)
	s, err := Compile(c.Schema)
	if err != nil {
		t.Fatal(err)
	}
	plain := allocated(func() { sinkBytes, _ = s.Normalize(c.Args) })
	for _, tc := range []struct {
		n    int
		more uint64 // than Normalize: the long key, in the pointers listed
	}{{0, 0}, {100, uint64(len(c.Args)) / 4}} {
		var repairs []Repair
		var total int
		got := allocated(func() { sinkBytes, repairs, total, err = s.NormalizeReportN(context.Background(), c.Args, tc.n) })
		t.Logf("%d bytes of arguments, %d repairs: Normalize allocated %d bytes, NormalizeReportN(%d) %d", len(c.Args), total, plain, tc.n, got)
		if err != nil || len(repairs) != tc.n || total < 90_000 {
			t.Fatalf("%d repairs listed of %d, %v", len(repairs), total, err)
		}
		if limit := plain + plain/20 + tc.more; got > limit {
			t.Errorf("NormalizeReportN(%d) allocated %d bytes, Normalize %d: want at most %d", tc.n, got, plain, limit)
		}
	}
}
