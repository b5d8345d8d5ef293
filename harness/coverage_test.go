package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// TestParseStartCoverage: the answer to start may offer coverage, naming
// what its ids count; anything else in its place is refused, saying why.
func TestParseStartCoverage(t *testing.T) {
	const base = `{"version":1,"implementation":{"name":"x"}`
	tests := []struct {
		tail, unit, err string
	}{
		{`}`, "", ""},
		{`,"coverage":null}`, "", ""},
		{`,"coverage":"lines"}`, "lines", ""},
		{`,"coverage":"basic-blocks"}`, "basic-blocks", ""},
		{`,"coverage":true}`, "", "offers coverage true"},
		{`,"coverage":"Lines"}`, "", "offers coverage"},
		{`,"coverage":""}`, "", "offers coverage"},
		{`,"coverage":"lines","coverage":"edges"}`, "", `"coverage" twice`},
	}
	for _, tt := range tests {
		info, _, err := parseStart([]byte(base + tt.tail))
		switch {
		case tt.err == "" && (err != nil || info.Coverage != tt.unit):
			t.Errorf("%s: %q, %v; want %q", tt.tail, info.Coverage, err, tt.unit)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: %v, want an error saying %s", tt.tail, err, tt.err)
		}
	}
}

// TestParseAnswerCoverage: an answer carries its case's coverage as its
// last member (read apart, the rest the fast way) or anywhere in it; ids
// come back sorted and distinct; a coverage that is not a list of 32-bit
// ids, given twice, or larger than MaxCoverage is a protocol error.
func TestParseAnswerCoverage(t *testing.T) {
	many := strings.Repeat("1,", MaxCoverage) + "1"
	tests := []struct {
		line string
		kind impl.Kind
		ids  []uint32
	}{
		{`{"id":1,"arguments":{"a":1},"coverage":[9,3,3,4294967295]}`, impl.KindOutput, []uint32{3, 9, 4294967295}},
		{`{"id":1,"arguments":{"a":1},"coverage":[]}`, impl.KindOutput, []uint32{}},
		{`{"id":1,"arguments":{"a":1} , "coverage" : [ 2 , 1 ] }`, impl.KindOutput, []uint32{1, 2}},
		{`{"id":1,"coverage":[5],"arguments":{"a":1}}`, impl.KindOutput, []uint32{5}},
		{`{"id":1,"error":"no","coverage":[7]}`, impl.KindRejected, []uint32{7}},
		{`{"id":1,"arguments":{"coverage":[1]}}`, impl.KindOutput, nil}, // a member of the arguments
		{`{"id":1,"arguments":{"a":"x"},"coverage":[1,,2]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":[03]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":[3 9]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":[3,]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":[ 3 ,	9 ]}`, impl.KindOutput, []uint32{3, 9}},
		{`{"id":1,"arguments":{},"coverage":[ ]}`, impl.KindOutput, []uint32{}},
		{`{"id":1,"arguments":{},"coverage":[0]}`, impl.KindOutput, []uint32{0}},
		{`{"id":1,"arguments":{},"coverage":[99999999999999999999]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":[4294967296]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":[-1]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":[1.5]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":["1"]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":{}}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":[1],"coverage":[2]}`, impl.KindProtocol, nil},
		{`{"id":1,"arguments":{},"coverage":[` + many + `]}`, impl.KindProtocol, nil},
	}
	for _, tt := range tests {
		r := parseAnswer([]byte(tt.line), 1)
		if r.Kind() != tt.kind || !reflect.DeepEqual(r.Coverage, tt.ids) {
			t.Errorf("parseAnswer(%.80s) = %v %v (%s), want %v %v", tt.line, r.Kind(), r.Coverage, r.Detail, tt.kind, tt.ids)
		}
	}
	// The fast way and the tree give the same arguments.
	fast := parseAnswer([]byte(`{"id":1,"arguments":{"t":"\u00e9 &amp;"},"coverage":[1]}`), 1)
	tree := parseAnswer([]byte(`{"id":1,"coverage":[1],"arguments":{"t":"\u00e9 &amp;"}}`), 1)
	if string(fast.Output) != string(tree.Output) || fmt.Sprint(fast.Coverage) != fmt.Sprint(tree.Coverage) {
		t.Errorf("%s %v and %s %v", fast.Output, fast.Coverage, tree.Output, tree.Coverage)
	}
}

func TestAskCoverage(t *testing.T) {
	line, err := request(0, []byte(`{}`), []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	got := string(withID(askCoverage(line), 5))
	if want := `{"cmd":"normalize","id":5,"schema":{},"arguments":{"a":1},"coverage":true}` + "\n"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// needPython returns python3's path, or skips the test where there is
// none (a failure in CI, which installs it: TOOLNORM_CI).
func needPython(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("TOOLNORM_CI") != "" {
			t.Fatal("no python3 on PATH")
		}
		t.Skip("no python3 on PATH")
	}
	return p
}

// TestCoverageFromTheKit: the Python kit offers coverage; RunCovered gets
// each case's lines, the lines of a branch only the first time a case
// reaches it, and RunBatch asks for none.
func TestCoverageFromTheKit(t *testing.T) {
	python := needPython(t)
	kit, err := filepath.Abs("../kits/python")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "adapter.py")
	src := fmt.Sprintf(`import sys
sys.path.insert(0, %q)
import toolnorm_kit

def normalize(schema, arguments):
    if "x" in arguments:
        return {"x": 1}
    return arguments

toolnorm_kit.serve(normalize, name="branchy")
`, kit)
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Start(Config{Command: python + " " + script})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if c, unit := impl.CoverageOf(a); c == nil || unit != "lines" {
		t.Fatalf("the kit offers %q", unit)
	}
	cases := []impl.Case{{Schema: []byte(`{}`), Args: []byte(`{"x":0}`)}, {Schema: []byte(`{}`), Args: []byte(`{"x":2}`)}, {Schema: []byte(`{}`), Args: []byte(`{"y":0}`)}}
	got := a.RunCovered(context.Background(), cases)
	for i, r := range got {
		if r.Failed() {
			t.Fatalf("case %d: %v", i, r)
		}
	}
	if len(got[0].Coverage) == 0 || len(got[1].Coverage) != 0 || len(got[2].Coverage) == 0 {
		t.Errorf("coverage %v, %v, %v: want lines, none new, lines of the other branch", got[0].Coverage, got[1].Coverage, got[2].Coverage)
	}
	for _, r := range a.RunBatch(context.Background(), cases) {
		if r.Coverage != nil {
			t.Errorf("RunBatch got coverage %v", r.Coverage)
		}
	}
}

// FuzzCoverageMember: an answer's coverage read the fast way (the last
// member, cut off, its ids read without a tree) is what the tree gives
// for the same answer with the member first.
func FuzzCoverageMember(f *testing.F) {
	for _, seed := range [][2]string{
		{`{"a":1}`, `[9,3,3,4294967295]`}, {`{}`, `[ 3 ,	9 ]`}, {`{}`, `[03]`}, {`{}`, `[3 9]`},
		{`{}`, `[3,]`}, {`{}`, `[]`}, {`{}`, `[4294967296]`}, {`{"coverage":[1]}`, `[2]`}, {`"x"`, `[1e3]`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, args, list string) {
		last := parseAnswer([]byte(`{"id":1,"arguments":`+args+`,"coverage":`+list+`}`), 1)
		first := parseAnswer([]byte(`{"id":1,"coverage":`+list+`,"arguments":`+args+`}`), 1)
		if last.Kind() != first.Kind() || string(last.Output) != string(first.Output) || !reflect.DeepEqual(last.Coverage, first.Coverage) {
			t.Fatalf("last: %v %s %v (%s)\nfirst: %v %s %v (%s)", last.Kind(), last.Output, last.Coverage, last.Detail, first.Kind(), first.Output, first.Coverage, first.Detail)
		}
	})
}
