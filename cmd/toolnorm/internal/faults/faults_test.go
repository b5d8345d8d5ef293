package faults

import (
	"bytes"
	"io"
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

// huge writes one line of 64 MB, an answer whose string is all "x"; when
// the reader has gone (the write fails), it stops at once.
func TestWriterHuge(t *testing.T) {
	var out shape
	w := &Writer{W: &out, Faults: []Fault{{"huge", 1}}}
	w.Write([]byte(`{"version":1}` + "\n" + `{"id":1,"arguments":{}}` + "\n"))
	const head, tail = `{"version":1}` + "\n" + `{"id":0,"arguments":{"x":"`, "\"}}\n"
	if got := out.head.String(); got != head {
		t.Errorf("began %q, want %q", got, head)
	}
	if string(out.tail) != tail || out.n != len(head)+64_000_000+len(tail) || out.xs != 64_000_000 {
		t.Errorf("wrote %d bytes, %d of them x, ending %q", out.n, out.xs, out.tail)
	}
	gone := &failing{after: 3}
	w = &Writer{W: gone, Faults: []Fault{{"huge", 1}}}
	if _, err := w.Write([]byte(`{"version":1}` + "\n" + `{"id":1,"arguments":{}}` + "\n")); err == nil {
		t.Error("no error from a writer that failed")
	}
	if gone.writes != 4 {
		t.Errorf("%d writes after the reader had gone, want none", gone.writes-4)
	}
}

// failing fails every write after the first after ones.
type failing struct{ after, writes int }

func (f *failing) Write(b []byte) (int, error) {
	f.writes++
	if f.writes > f.after {
		return 0, io.ErrClosedPipe
	}
	return len(b), nil
}

// shape keeps what a huge line is made of: its first bytes to the first
// "x", how many bytes and how many "x" in all, its last bytes after them.
type shape struct {
	head     bytes.Buffer
	tail     []byte
	n, xs    int
	inString bool
}

func (s *shape) Write(b []byte) (int, error) {
	s.n += len(b)
	for _, c := range b {
		switch {
		case c == 'x' && len(s.tail) == 0 && s.inString:
			s.xs++
		case s.xs == 0:
			s.head.WriteByte(c)
			s.inString = bytes.HasSuffix(s.head.Bytes(), []byte(`"x":"`))
		default:
			s.tail = append(s.tail, c)
		}
	}
	return len(b), nil
}
