package deviation

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// TestLeaves: the strings of a value, in order, each with its own path
// (member and element indexes from the value, after the path given),
// which a later change to another's does not touch; the caller's path is
// not written to.
func TestLeaves(t *testing.T) {
	deep := strings.Repeat("[", 3000) + `"x"` + strings.Repeat("]", 3000)
	for _, tc := range []struct {
		value string
		from  []int
		want  string
	}{
		{`"a"`, nil, `a[]`},
		{`{"a":["x",{"b":"y"}],"c":"z","d":1}`, nil, `x[0 0] y[0 1 0] z[1]`},
		{`["x",["y"]]`, []int{4, 2}, `x[4 2 0] y[4 2 1 0]`},
		{`[1,null,{}]`, []int{7}, ``},
	} {
		v, err := jsonvalue.Parse([]byte(tc.value))
		if err != nil {
			t.Fatal(err)
		}
		// The path given has room after it, which leaves must not use.
		from := append(make([]int, 0, len(tc.from)+4), tc.from...)
		room := from[:cap(from)]
		for i := len(from); i < len(room); i++ {
			room[i] = 99
		}
		before := slices.Clone(room)
		ls := leaves(v, from, nil)
		var got []string
		for _, l := range ls {
			got = append(got, fmt.Sprintf("%s%v", l.v.Str, l.path))
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("leaves(%s, %v) = %s, want %s", tc.value, tc.from, g, tc.want)
		}
		if !slices.Equal(room, before) {
			t.Errorf("leaves(%s, %v) wrote to the path given: %v", tc.value, tc.from, room)
		}
		for i := range ls {
			if len(ls[i].path) == 0 {
				continue
			}
			last := &ls[i].path[len(ls[i].path)-1]
			old := *last
			*last = -1 // each path its own: no other sees it
			for j := range ls {
				if j != i && len(ls[j].path) > 0 && ls[j].path[len(ls[j].path)-1] == -1 {
					t.Errorf("leaves(%s): paths %d and %d share memory", tc.value, i, j)
				}
			}
			*last = old
		}
	}
	v, err := jsonvalue.Parse([]byte(deep))
	if err != nil {
		t.Fatal(err)
	}
	if ls := leaves(v, nil, nil); len(ls) != 1 || len(ls[0].path) != 3000 {
		t.Errorf("3,000 levels deep: %d leaves", len(ls))
	}
}
