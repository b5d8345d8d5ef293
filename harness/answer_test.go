package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

func TestParseAnswer(t *testing.T) {
	tests := []struct {
		line string
		kind impl.Kind
	}{
		{`{"id":1,"arguments":{"a":1}}`, impl.KindOutput},
		{`{"id":1,"error":"no"}`, impl.KindRejected},
		// What the adapter's language cannot hold: not judged, no failure.
		{`{"id":1,"unsupported":"duplicate member \"a\""}`, impl.KindNotSendable},
		{`{"id":1,"unsupported":""}`, impl.KindProtocol},
		{`{"id":1,"unsupported":true}`, impl.KindProtocol},
		{`{"id":1,"unsupported":"x","arguments":{}}`, impl.KindProtocol},
		{`{"id":1,"unsupported":"x","error":"y"}`, impl.KindProtocol},
		{`{"id":2,"unsupported":"x"}`, impl.KindProtocol},
	}
	for _, tt := range tests {
		r := parseAnswer([]byte(tt.line), 1)
		if r.Kind() != tt.kind {
			t.Errorf("parseAnswer(%s) = %v (%s), want %v", tt.line, r.Kind(), r.Detail, tt.kind)
		}
	}
	r := parseAnswer([]byte(`{"id":1,"unsupported":"keys reordered"}`), 1)
	if !errors.Is(r.Failure, impl.ErrNotSendable) || r.Detail != "the adapter cannot hold it as it is: keys reordered" {
		t.Errorf("unsupported: %+v", r)
	}
}

// TestServeUnsupported: a Go implementation behind Serve that cannot take
// a case says so with an unsupported answer, which the harness reads back
// as a case not judged.
func TestServeUnsupported(t *testing.T) {
	cannot := impl.Func("cannot", func(ctx context.Context, c impl.Case) impl.Result {
		return impl.Fail(impl.ErrNotSendable, "the library cannot carry 1e400")
	})
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	(&server{w: w, im: cannot, info: Info{Name: "x"}}).serveLine([]byte(`{"cmd":"normalize","id":4,"schema":{},"arguments":{"n":1e400}}`))
	w.Flush()
	answer := b.Bytes()
	if want := `{"id":4,"unsupported":"the library cannot carry 1e400"}` + "\n"; string(answer) != want {
		t.Fatalf("answer %q, want %q", answer, want)
	}
	if r := parseAnswer(answer[:len(answer)-1], 4); r.Kind() != impl.KindNotSendable {
		t.Errorf("read back as %v", r.Kind())
	}
}

// TestNamesID: an answer line that breaks the protocol is its request's
// when it starts with that id, JSON or not.
func TestNamesID(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{`{"id": 7, "arguments": {"x": Infinity}}`, true},
		{`{"id":7,"arguments":{"x":NaN}}`, true},
		{`{"id":7}`, true},
		{` {"id" : 7 ,"error":1,"arguments":{}}`, true},
		{`{"id": 70, "arguments": {}}`, false},
		{`{"id": 7.0, "arguments": {}}`, false},
		{`{"arguments": {"x": Infinity}, "id": 7}`, false}, // not where it can be read without the rest
		{`Traceback (most recent call last):`, false},
		{`{"id":999999,"arguments":{}}`, false},
		{``, false},
	}
	for _, tt := range tests {
		if got := namesID([]byte(tt.line), 7); got != tt.want {
			t.Errorf("namesID(%q, 7) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestAnswerMessagesLeaveOutTheID: the message of an answer that breaks
// the protocol does not quote the request's id: ids depend on restarts and
// on which run of the adapter took the request, and a report for the same
// --seed and --checks must not (the event keeps the id).
func TestAnswerMessagesLeaveOutTheID(t *testing.T) {
	for _, tt := range []struct {
		line string
		id   int
		want string
	}{
		{`{"id": 2435, "arguments": {"": Infinity}}`, 2435, `the answer is not a JSON object: "{\"id\": …, \"arguments\": {\"\": Infinity}}"`},
		{`{"id":12,"arguments":{"n":12}}x`, 12, `the answer is not a JSON object: "{\"id\":…,\"arguments\":{\"n\":12}}x"`},
		{`{"id":"12","arguments":{}}`, 12, `the answer has no id: "{\"id\":\"…\",\"arguments\":{}}"`},
		{`{"id":999999999,"arguments":{}}`, 3, `the answer's id is not its request's`},
		{`{"id": 12.5, "arguments": [125, 12e0, NaN]}`, 12, `the answer is not a JSON object: "{\"id\": 12.5, \"arguments\": [125, 12e0, NaN]}"`},
		{`{"id": 125, "arguments": Infinity}`, 12, `the answer is not a JSON object: "{\"id\": 125, \"arguments\": Infinity}"`},
		// Long, broken past what the start quoted shows: where it breaks.
		{`{"id": 7, "arguments": {"a": "` + strings.Repeat("x", 300) + `", "b": Infinity}}`, 7,
			`the answer is not a JSON object: invalid character 'I' looking for beginning of value: "…` + strings.Repeat("x", 52) + `\", \"b\": Infinity}}"`},
	} {
		if r := parseAnswer([]byte(tt.line), tt.id); r.Detail != tt.want {
			t.Errorf("parseAnswer(%s, %d): %s, want %s", tt.line, tt.id, r.Detail, tt.want)
		}
	}
}

// answerLines are answer lines of every shape for request 1: what
// parseArguments reads, and what it must leave to parseAnswerTree.
var answerLines = []string{
	`{"id":1,"arguments":{"a":1}}`,
	`{"id": 1, "arguments": {"a": 1, "b": [true, null, "x"]}}`,
	` { "id" : 1 , "arguments" : {"a":"\u0026amp;"} } ` + "\t",
	`{"id":1,"arguments":{"a":"é","b":"\"","c":"\ud800"}}`,
	`{"id":1,"arguments":{"a":"\"\\\n\u001f\ud800","b":"\u00e9"}}`,
	`{"id":1,"arguments":{"a":"\"\\\n\u001f\ud800","b":"\/"}}`,
	`{"id":1,"arguments":{"a":"\u001F"}}`,
	`{"id":1,"arguments":{"a":"\"", "b":1}}`,
	`{"id":1,"arguments":{"a":1,"a":2}}`,
	`{"id":1,"arguments":[1,-2.5e+3,1e400,0.10]}`,
	`{"id":1,"arguments":"x"}`,
	`{"id":1,"arguments":{}}`,
	`{"id":1,"arguments":}`,
	`{"id":1,"arguments":{"a":1}`,
	`{"id":1,"arguments":{"a":1}}}`,
	`{"id":1,"arguments":{"a":1},"error":"x"}`,
	`{"id":1,"arguments":{"a":1},"id":2}`,
	`{"id":1,"arguments":1},{"x":2}`,
	`{"id":1,"arguments":{"a":Infinity}}`,
	`{"id":1,"arguments":{"a":NaN}}`,
	`{"id":1,"arguments":{"a":"` + "\xff" + `"}}`,
	`{"id":1,"arguments":{"a":"` + "\x01" + `"}}`,
	`{"id":10,"arguments":{}}`,
	`{"id":1.0,"arguments":{}}`,
	`{"id":1e0,"arguments":{}}`,
	`{"id":"1","arguments":{}}`,
	`{"id":-1,"arguments":{}}`,
	`{"arguments":{},"id":1}`,
	`{"id":1,"error":"no"}`,
	`{"id":1}`,
	`{"id":1,"arguments":{}} x`,
	`{"id":1,"arguments":{}}` + "\r",
	`[{"id":1,"arguments":{}}]`,
	`not JSON`,
	``,
	`{"id":1,"arguments":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`,
	`{"id":1,"arguments":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
	`{"id":1,"arguments":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
	`{"id":1,"arguments":` + strings.Repeat(" [", 9999) + strings.Repeat("] ", 9999) + `}`,
	`{"id":1,"arguments":` + strings.Repeat("[", 9999) + `"\n"` + strings.Repeat("]", 9999) + `}`,
}

// TestParseArguments holds parseAnswer, which reads the arguments of the
// most common answers without a tree, to parseAnswerTree: the same result
// for every line, and the fast way taken where it should be.
func TestParseArguments(t *testing.T) {
	for _, line := range answerLines {
		sameAnswer(t, []byte(line), 1)
	}
	for _, line := range []string{
		`{"id":1,"arguments":{"a":1}}`,
		`{"id": 1, "arguments": {"a": 1}}`,
		`{"id":1,"arguments":{"a":"\u00e9"}}`,
	} {
		if _, ok := parseArguments([]byte(line), 1); !ok {
			t.Errorf("parseArguments(%s): not read", line)
		}
	}
}

// TestParseArgumentsMutated holds parseAnswer to parseAnswerTree on every
// line one byte away from the short answerLines: each byte deleted, or
// replaced by or preceded by one that matters to JSON.
func TestParseArgumentsMutated(t *testing.T) {
	for _, line := range answerLines {
		if len(line) > 200 {
			continue
		}
		for _, m := range mutations([]byte(line)) {
			sameAnswer(t, m, 1)
		}
	}
}

// mutations are the texts one byte away from b: each byte deleted, or
// replaced by or preceded by one of those that matter to JSON.
func mutations(b []byte) [][]byte {
	var ms [][]byte
	for i := range len(b) + 1 {
		if i < len(b) {
			ms = append(ms, append(slices.Clone(b[:i]), b[i+1:]...))
		}
		for _, c := range []byte("\"\\{}[],: \n01-e.nu\x00\x1f\xed\xff") {
			if i < len(b) {
				r := slices.Clone(b)
				r[i] = c
				ms = append(ms, r)
			}
			ms = append(ms, slices.Concat(b[:i], []byte{c}, b[i:]))
		}
	}
	return ms
}

func sameAnswer(t *testing.T, line []byte, id int) {
	t.Helper()
	got, want := parseAnswer(line, id), parseAnswerTree(line, id)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseAnswer(%.200q, %d) = %+v, parseAnswerTree: %+v", line, id, got, want)
	}
}

// TestWithID: a request line gets its id spliced in, as the line request
// writes for that id.
func TestWithID(t *testing.T) {
	for _, args := range []string{`{"a":1}`, `{ "a": "\u0026" }`} {
		for _, id := range []int{1, 9, 10, 123456789} {
			line, err := request(0, []byte(`{}`), []byte(args))
			if err != nil {
				t.Fatal(err)
			}
			want, _ := request(id, []byte(`{}`), []byte(args))
			if got := withID(line, id); string(got) != string(want) {
				t.Errorf("withID(%s, %d) = %s, want %s", line, id, got, want)
			}
			if got := appendWithID([]byte("x"), line, id); string(got) != "x"+string(want) {
				t.Errorf("appendWithID: %s", got)
			}
		}
	}
}

// TestDuplicateMembers: an answer with a member the protocol reads given
// twice is a protocol error naming it, whichever one would be read.
func TestDuplicateMembers(t *testing.T) {
	for _, tt := range []struct{ line, member string }{
		{`{"id":1,"id":1,"arguments":{}}`, `"id"`},
		{`{"id":2,"id":1,"arguments":{}}`, `"id"`},
		{`{"id":1,"arguments":{},"id":1}`, `"id"`},
		{`{"id":1,"arguments":{},"arguments":{"a":1}}`, `"arguments"`},
		{`{"id":1,"error":"a","error":"b"}`, `"error"`},
		{`{"id":1,"unsupported":"a","unsupported":"b"}`, `"unsupported"`},
		{`{"id": 1, "arguments": {"a": 1}, "arguments": {"a": 1}}`, `"arguments"`},
	} {
		r := parseAnswer([]byte(tt.line), 1)
		if r.Kind() != impl.KindProtocol || !strings.Contains(r.Detail, tt.member+" twice") {
			t.Errorf("parseAnswer(%s) = %v (%s), want a protocol error naming %s twice", tt.line, r.Kind(), r.Detail, tt.member)
		}
	}
	// A member the protocol does not read may come twice.
	if r := parseAnswer([]byte(`{"id":1,"arguments":{},"note":1,"note":2}`), 1); r.Kind() != impl.KindOutput {
		t.Errorf("a member the protocol does not read, twice: %v (%s)", r.Kind(), r.Detail)
	}
	for _, tt := range []struct{ line, member string }{
		{`{"version":1,"version":1,"implementation":{"name":"x"}}`, `"version"`},
		{`{"version":1,"implementation":{"name":"x"},"implementation":{"name":"y"}}`, `"implementation"`},
		{`{"version":1,"implementation":{"name":"x"},"declares":{},"declares":{"profile":"attribute"}}`, `"declares"`},
	} {
		if _, _, err := parseStart([]byte(tt.line)); err == nil || !strings.Contains(err.Error(), tt.member+" twice") {
			t.Errorf("parseStart(%s) = %v, want an error naming %s twice", tt.line, err, tt.member)
		}
	}
}
