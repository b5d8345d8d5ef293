package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolnorm/toolnorm/impl"
)

// The JSON Schemas of the protocol's messages (docs/protocol.md), one per
// kind of message, and the file each lives in.
const protocolSchemaDir = "../docs/protocol"

var messageKinds = []string{"start", "normalize", "stop", "start-answer", "answer"}

// protocolSchemas compiles every message schema. A missing or broken file
// fails the test.
func protocolSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	schemas := map[string]*jsonschema.Schema{}
	for _, kind := range messageKinds {
		file := filepath.Join(protocolSchemaDir, kind+".schema.json")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("the schema of %s: %v", kind, err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if m, ok := doc.(map[string]any); !ok || m["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Fatalf("%s: not a draft 2020-12 schema", file)
		}
		if err := c.AddResource(kind+".schema.json", doc); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		sch, err := c.Compile(kind + ".schema.json")
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		schemas[kind] = sch
	}
	return schemas
}

// validateMessage validates one line against the schema of its kind; a
// line that is not JSON does not validate.
func validateMessage(schemas map[string]*jsonschema.Schema, kind, line string) error {
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	return schemas[kind].Validate(inst)
}

// schemaCases are the requests of the traffic tests: ordinary cases, bad
// input, references, numbers and escapes that generic JSON readers lose,
// and two cases no JSON line can carry (they must not be sent).
func schemaCases() (reqs []impl.Case, sendable int) {
	obj := `{"type":"object","properties":{"tags":{"type":"array"},"meta":{"type":"object"},"name":{"type":"string"}}}`
	deep := func(n int) string { return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }
	cases := []struct{ schema, args string }{
		{obj, `{"name":"Ember &amp;amp; Oak","tags":"[\"a\",\"b\"]","meta":"{\"k\":\"&lt;v&gt;\"}"}`},
		{obj, `{"name":"[1,2]","tags":"[1,","meta":"[1]"}`},
		{`{}`, `{}`},
		{`{}`, `[1,2]`},
		{`{}`, `"just a string"`},
		{`{}`, `null`},
		{`{}`, `42`},
		{`{}`, `{"q":"?a=1&region=eu&not=2","t":"&lt;b&gt; &#128512; &notit; &#x110000; &#4294967356;"}`},
		{`{}`, `{"n":1e400,"m":12345678901234567890,"f":1.0,"z":-0,"e":-1E-400}`},
		{`{}`, `{"s":"\ud800","t":"&amp;\udc00","\udbff":"key"}`},
		{`{}`, `{"nl":"a&#10;b","c":"\u0000\u001f\u2028 é 日本 😀","esc":"\/\"\\"}`},
		{`{}`, `{"a":1,"a":2}`},
		{`{"type":"object","properties":{"x":{"$ref":"#/$defs/list"}},"$defs":{"list":{"type":"array","items":{"type":"object"}}}}`, `{"x":"[{\"y\":\"&amp;\"}]"}`},
		{`{"type":"object","properties":{"x":{"$ref":"#/$defs/missing"}}}`, `{"x":"[]"}`},
		{`true`, `{"t":"&amp;"}`},
		{`{}`, deep(50)},
		{`{}`, deep(1001)},
		{`{}`, `{"long":"` + strings.Repeat("&amp;amp; ", 20000) + `"}`},
	}
	for _, c := range cases {
		reqs = append(reqs, impl.Case{Schema: []byte(c.schema), Args: []byte(c.args)})
	}
	sendable = len(reqs)
	reqs = append(reqs, impl.Case{Schema: []byte(`{}`), Args: []byte(`{"a":`)}, impl.Case{Schema: []byte(`{"type":`), Args: []byte(`{}`)})
	return reqs, sendable
}

// checkTrace validates every line of a trace against the schema of its
// kind: lines sent ("> ") by their cmd, lines received ("< ") as the answer
// to start when one is awaited and as the answer to the oldest request
// pending otherwise. Every line sent must validate. A line received
// validates exactly when the harness accepts it: the schemas and the
// harness agree. It returns how many lines of each kind validated, and the
// received lines that neither accepts.
func checkTrace(t *testing.T, schemas map[string]*jsonschema.Schema, trace string) (valid map[string]int, rejected []string) {
	t.Helper()
	valid = map[string]int{}
	var pending []int // ids sent to the adapter's current run, unanswered
	awaitingStart := false
	for n, l := range strings.SplitAfter(trace, "\n") {
		if l == "" {
			continue
		}
		line, ok := strings.CutSuffix(l, "\n")
		if !ok {
			t.Errorf("trace line %d is cut: %.200q", n+1, l)
			continue
		}
		switch {
		case strings.HasPrefix(line, "> "):
			msg := line[2:]
			var req struct {
				Cmd string `json:"cmd"`
				ID  int    `json:"id"`
			}
			if err := json.Unmarshal([]byte(msg), &req); err != nil {
				t.Errorf("trace line %d: toolnorm sent a line that is not a JSON request: %v: %.200q", n+1, err, msg)
				continue
			}
			switch req.Cmd {
			case "start":
				pending, awaitingStart = nil, true
			case "normalize":
				pending = append(pending, req.ID)
			case "stop":
			default:
				t.Errorf("trace line %d: toolnorm sent cmd %q", n+1, req.Cmd)
				continue
			}
			if err := validateMessage(schemas, req.Cmd, msg); err != nil {
				t.Errorf("trace line %d: the %s request does not validate: %v\n%.300s", n+1, req.Cmd, err, msg)
				continue
			}
			valid[req.Cmd]++
		case strings.HasPrefix(line, "< "):
			msg := line[2:]
			var kind, verdict string
			if awaitingStart {
				kind, awaitingStart = "start-answer", false
				if _, _, err := parseStart([]byte(msg)); err != nil {
					verdict = err.Error()
				}
			} else {
				if len(pending) == 0 {
					t.Errorf("trace line %d: an answer with no request pending: %.200q", n+1, msg)
					continue
				}
				kind = "answer"
				if r := parseAnswer([]byte(msg), pending[0]); r.Kind() == impl.KindProtocol {
					verdict = r.Detail
				}
				pending = pending[1:]
			}
			err := validateMessage(schemas, kind, msg)
			switch {
			case err == nil && verdict == "":
				valid[kind]++
			case err != nil && verdict != "":
				rejected = append(rejected, msg)
			case err != nil:
				t.Errorf("trace line %d: the harness accepts the %s, its schema does not: %v\n%.300s", n+1, kind, err, msg)
			default:
				t.Errorf("trace line %d: the %s validates, but the harness rejects it: %s\n%.300s", n+1, kind, verdict, msg)
			}
		default:
			t.Errorf("trace line %d has neither prefix: %.200q", n+1, line)
		}
	}
	return valid, rejected
}

// TestSchemasValidateTraffic records real traffic with Config.Trace and
// validates every line against the schema of its message. Against the
// reference served by Serve every line must validate, the stop included
// (recorded from the adapter's standard input, which Trace does not show).
// Against the example Python adapter, a line may break the protocol (it
// writes 1e400, read as inf, as Infinity), but then the harness must
// reject it too.
func TestSchemasValidateTraffic(t *testing.T) {
	schemas := protocolSchemas(t)
	reqs, sendable := schemaCases()

	t.Run("reference", func(t *testing.T) {
		stdin := filepath.Join(t.TempDir(), "stdin")
		var trace bytes.Buffer
		// A tee in front of the adapter records what it reads.
		a, err := Start(Config{Command: "tee " + strconv.Quote(stdin) + " | " + adapterCommand("good"), Trace: &trace})
		if err != nil {
			t.Fatal(err)
		}
		results := a.RunBatch(context.Background(), reqs)
		a.Close()
		for i, r := range results {
			switch {
			case i >= sendable:
				if r.Kind() != impl.KindNotSendable {
					t.Errorf("case %d, not JSON, gave %+v", i, r)
				}
			case r.Failed():
				t.Errorf("case %d: %+v", i, r)
			}
		}
		if a.Restarts() != 0 || len(a.Events()) != 0 {
			t.Fatalf("restarts %d, events %+v", a.Restarts(), a.Events())
		}
		valid, rejected := checkTrace(t, schemas, trace.String())
		for _, msg := range rejected {
			t.Errorf("the reference's answer does not validate: %.300s", msg)
		}
		want := map[string]int{"start": 1, "start-answer": 1, "normalize": sendable, "answer": sendable}
		for kind, n := range want {
			if valid[kind] != n {
				t.Errorf("%d valid %s lines in the trace, want %d", valid[kind], kind, n)
			}
		}

		// What the adapter read is what the trace says was sent, and then
		// the stop, which Close sends untraced.
		got, err := os.ReadFile(stdin)
		if err != nil {
			t.Fatal(err)
		}
		var sent strings.Builder
		for l := range strings.Lines(trace.String()) {
			if msg, ok := strings.CutPrefix(l, "> "); ok {
				sent.WriteString(msg)
			}
		}
		stop, ok := strings.CutPrefix(string(got), sent.String())
		if !ok {
			t.Fatalf("the adapter read other lines than the trace shows sent:\n%.500s", got)
		}
		if stop != `{"cmd":"stop"}`+"\n" {
			t.Fatalf("after the requests the adapter read %q, want the stop", stop)
		}
		if err := validateMessage(schemas, "stop", strings.TrimSuffix(stop, "\n")); err != nil {
			t.Errorf("the stop does not validate: %v", err)
		}
	})

	t.Run("python", func(t *testing.T) {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("no python3 on PATH")
		}
		var trace bytes.Buffer
		a, err := Start(Config{Command: "python3 ../examples/python/adapter.py", Trace: &trace})
		if err != nil {
			t.Fatal(err)
		}
		results := a.RunBatch(context.Background(), reqs)
		a.Close()
		answered := 0
		for _, r := range results {
			if !r.Failed() && r.Kind() != impl.KindNotSendable {
				answered++
			}
		}
		valid, rejected := checkTrace(t, schemas, trace.String())
		for _, msg := range rejected {
			t.Logf("the example adapter broke the protocol, and the schema and the harness both reject the line: %.200s", msg)
		}
		t.Logf("%d answers, %d restarts, events %+v", answered, a.Restarts(), a.Events())
		if valid["start"] == 0 || valid["start-answer"] == 0 || valid["normalize"] < sendable || valid["answer"] < answered || answered == 0 {
			t.Errorf("valid lines: %v; want every request and answer", valid)
		}
	})
}

// TestSchemasRejectBrokenMessages: the schemas reject broken messages,
// where the harness does too, and accept their own examples.
func TestSchemasRejectBrokenMessages(t *testing.T) {
	schemas := protocolSchemas(t)
	tests := []struct {
		kind, line string
		harness    bool // the harness also rejects it
	}{
		{"answer", `{"id":1,"arguments":{},"error":"x"}`, true},
		{"answer", `{"id":1}`, true},
		{"answer", `{"arguments":{}}`, true},
		{"answer", `{"id":"1","arguments":{}}`, true},
		{"answer", `{"id":1,"arguments":{"n":Infinity}}`, true},
		{"answer", `{"id":1,"error":{"kind":"not-object"}}`, false}, // the harness takes the JSON text as the message
		{"answer", `{"id":1.5,"arguments":{}}`, true},
		{"start-answer", `{"version":1,"implementation":{"language":"Go"}}`, true},
		{"start-answer", `{"version":1,"implementation":{"name":""}}`, true},
		{"start-answer", `{"version":1}`, true},
		{"start-answer", `{"implementation":{"name":"x"}}`, true},
		{"start-answer", `{"version":2,"implementation":{"name":"x"}}`, true},
		{"start-answer", `{"version":1,"implementation":{"name":"x"},"declares":{"profile":"html"}}`, true},
		{"start-answer", `{"version":1,"implementation":{"name":"x"},"declares":{"max_passes":-1}}`, true},
		{"start-answer", `{"version":1,"implementation":{"name":"x"},"declares":{"depth":"nested"}}`, true},
		{"start-answer", `{"version":1,"implementation":{"name":"x"},"declares":{"repairs":["html"]}}`, true},
		{"start-answer", `{"version":1,"implementation":{"name":"x"},"declares":{"repairs":[]}}`, true},
		{"start-answer", `{"version":1,"implementation":{"name":"x"},"declares":{"repairs":["json","json"]}}`, true},
		{"start-answer", `{"version":1,"implementation":{"name":"x"},"declares":{"repairs":"json"}}`, true},
		{"start-answer", `{"version":1,"implementation":{"name":"x"},"declares":{"maxPasses":2}}`, false}, // a typo the harness ignores
		{"start", `{"cmd":"start","version":2}`, false},
		{"start", `{"cmd":"begin","version":1}`, false},
		{"normalize", `{"cmd":"normalize","id":1,"schema":{}}`, false},
		{"normalize", `{"cmd":"normalize","id":0,"schema":{},"arguments":{}}`, false},
		{"stop", `{"cmd":"stop","now":true}`, false},
	}
	for _, tt := range tests {
		if err := validateMessage(schemas, tt.kind, tt.line); err == nil {
			t.Errorf("the %s schema accepts %s", tt.kind, tt.line)
		}
		if !tt.harness {
			continue
		}
		switch tt.kind {
		case "answer":
			if r := parseAnswer([]byte(tt.line), 1); r.Kind() != impl.KindProtocol {
				t.Errorf("the harness accepts the answer %s: %+v", tt.line, r)
			}
		case "start-answer":
			if _, _, err := parseStart([]byte(tt.line)); err == nil {
				t.Errorf("the harness accepts the answer to start %s", tt.line)
			}
		}
	}

	// Each schema's examples validate, and the harness accepts the answers.
	for _, kind := range messageKinds {
		data, err := os.ReadFile(filepath.Join(protocolSchemaDir, kind+".schema.json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Examples []json.RawMessage }
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Examples) == 0 {
			t.Errorf("%s.schema.json has no examples", kind)
		}
		for _, ex := range doc.Examples {
			if err := validateMessage(schemas, kind, string(ex)); err != nil {
				t.Errorf("%s.schema.json: its example %s does not validate: %v", kind, ex, err)
			}
			switch kind {
			case "start-answer":
				if _, _, err := parseStart(ex); err != nil {
					t.Errorf("the harness rejects the example %s: %v", ex, err)
				}
			case "answer":
				var a struct{ ID int }
				json.Unmarshal(ex, &a)
				if r := parseAnswer(ex, a.ID); r.Kind() == impl.KindProtocol {
					t.Errorf("the harness rejects the example %s: %s", ex, r.Detail)
				}
			}
		}
	}
}
