package faults

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestWriter(t *testing.T) {
	var out bytes.Buffer
	var exits []int
	var slept time.Duration
	w := &Writer{W: &out, Faults: []Fault{{"not-json", 3}, {"wrong-id", 2}, {"exit", 4}}, Delay: time.Millisecond,
		Exit: func(code int) { exits = append(exits, code) }, Sleep: func(d time.Duration) { slept += d }}
	in := `{"version":1}` + "\n"
	for i := 1; i <= 4; i++ {
		in += `{"id":` + string(rune('0'+i)) + `,"arguments":{}}` + "\n"
	}
	// Written in pieces that cut lines: faults go by whole lines.
	for _, piece := range []string{in[:5], in[5:40], in[40:]} {
		w.Write([]byte(piece))
	}
	want := `{"version":1}
{"id":1,"arguments":{}}
{"id":999999999,"arguments":{}}
Traceback (most recent call last): a fault on purpose
{"id":999999999,"arguments":{}}
`
	if out.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", out.String(), want)
	}
	if len(exits) != 1 || exits[0] != 0 || slept != 4*time.Millisecond {
		t.Errorf("exits %v, slept %v", exits, slept)
	}
}

func TestParse(t *testing.T) {
	if f, err := Parse("huge/9"); err != nil || f != (Fault{"huge", 9}) {
		t.Errorf("Parse(huge/9) = %v, %v", f, err)
	}
	for _, bad := range []string{"huge", "huge/0", "huge/x", "melt/3"} {
		if _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "want KIND/N") {
			t.Errorf("Parse(%q) = %v", bad, err)
		}
	}
}
