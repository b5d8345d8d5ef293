package normalize

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestPointer(t *testing.T) {
	for _, tc := range []struct {
		p      Pointer
		want   string
		tokens []string
	}{
		{Pointer{}, "", nil},
		{Pointer{}.AppendToken(""), "/", []string{""}},
		{Pointer{}.AppendToken("a/b").AppendToken("~0"), "/a~1b/~00", []string{"a/b", "~0"}},
		{Pointer{elem: 8}, "/7", []string{"7"}},
		{Pointer{last: newPathStep(newPathStep(nil, "k~", -1), "", 12), elem: 1}, "/k~0/12/0", []string{"k~", "12", "0"}},
		{Pointer{elem: 3}.AppendToken("x"), "/2/x", []string{"2", "x"}},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
		if got := slices.Collect(tc.p.Tokens()); !slices.Equal(got, tc.tokens) {
			t.Errorf("%s: Tokens() = %q, want %q", tc.want, got, tc.tokens)
		}
		var same Pointer
		for tok := range tc.p.Tokens() {
			same = same.AppendToken(tok)
		}
		if !tc.p.Equal(same) || !same.Equal(tc.p) || tc.p.Equal(same.AppendToken("x")) {
			t.Errorf("%s: Equal is not the same text", tc.want)
		}
		if b, err := json.Marshal(tc.p); err != nil || string(b) != `"`+tc.want+`"` {
			t.Errorf("%s: json.Marshal = %s, %v", tc.want, b, err)
		}
	}
}

// TestReportPointers: the pointers of a report, at every kind of step, and
// decoded keys; below one long key, one copy of it.
func TestReportPointers(t *testing.T) {
	s, err := Compile([]byte(`{"properties":{"a":{"type":"array","items":{"type":"object"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	args := `{"a":"[\"{\\\"k\\\":\\\"&lt;\\\"}\",{\"x/y\":[1,\"&amp;\"]}]","b\u007e":{"c":["&gt;",{"d":"&quot;"}]},"":"&amp;"}`
	_, repairs, err := s.NormalizeReport([]byte(args))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range repairs {
		got = append(got, r.Pointer.String())
	}
	want := []string{"/a", "/a/0", "/a/0/k", "/a/1/x~1y/1", "/b~0/c/0", "/b~0/c/1/d", "/"}
	if !slices.Equal(got, want) {
		t.Errorf("pointers %q, want %q", got, want)
	}
	long := strings.Repeat("k", 1000)
	_, repairs, err = s.NormalizeReport([]byte(`{"` + long + `":{"x":["&amp;","&amp;",{"y":"&amp;"}]}}`))
	if err != nil || len(repairs) != 3 || repairs[2].Pointer.String() != "/"+long+"/x/2/y" {
		t.Fatalf("long key: %v, %v", repairs, err)
	}
	if repairs[0].Pointer.last != repairs[1].Pointer.last || repairs[0].Pointer.last.up.tok != long || repairs[2].Pointer.last.up.up.up != repairs[0].Pointer.last.up {
		t.Error("the repairs below one key do not share its step")
	}
}
