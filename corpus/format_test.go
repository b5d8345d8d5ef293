package corpus_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolnorm/toolnorm/corpus"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// vectorSchema compiles vector.schema.json.
func vectorSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("vector.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("vector.schema.json: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("vector.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("vector.schema.json")
	if err != nil {
		t.Fatalf("vector.schema.json: %v", err)
	}
	return sch
}

func validate(sch *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// committedVectors returns the number of vectors corpus.Load reads from
// the committed corpus.
func committedVectors(t *testing.T) int {
	t.Helper()
	vectors, err := corpus.Load(os.DirFS("."))
	if err != nil {
		t.Fatal(err)
	}
	if len(vectors) == 0 {
		t.Fatal("no vectors")
	}
	return len(vectors)
}

// TestSchemaAcceptsCorpus validates every committed vector file against
// vector.schema.json.
func TestSchemaAcceptsCorpus(t *testing.T) {
	sch := vectorSchema(t)
	n := 0
	err := filepath.WalkDir("vectors", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		n++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := validate(sch, data); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := committedVectors(t); n != want {
		t.Errorf("validated %d files, corpus.Load reads %d vectors", n, want)
	}
	t.Logf("%d vector files valid", n)
}

// goAccepts reports what the Go side (Decode, then Check) finds wrong
// with a vector file; nil when nothing.
func goAccepts(data []byte) error {
	v, err := corpus.Decode(data)
	if err != nil {
		return err
	}
	if p := corpus.Check(v); len(p) > 0 {
		return errors.New(strings.Join(p, "; "))
	}
	return nil
}

func encode(t *testing.T, v *corpus.Vector) []byte {
	t.Helper()
	data, err := corpus.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSchemaAgreesWithCheck holds vector.schema.json to corpus.Decode and
// corpus.Check on valid vectors of every form, and on broken ones.
func TestSchemaAgreesWithCheck(t *testing.T) {
	sch := vectorSchema(t)
	ref := corpus.Reference
	obj := []byte(`{"type":"object"}`)
	valid := map[string]*corpus.Vector{
		"embedded": corpus.New("embedded", "rule/4", "hand", []string{"entities"}, obj, []byte(`{"t":"&amp;amp;"}`), corpus.Options{}, ref),
		"error":    corpus.New("error", "reading/8", "hand", nil, obj, []byte(`[1]`), corpus.Options{}, ref),
		"raw":      corpus.New("raw", "reading/7", "found", nil, []byte(`{}`), []byte(`{"a":1,"a":12345678901234567890}`), corpus.Options{}, ref),
		"not json": corpus.New("not json", "reading/8", "imported", nil, []byte(`{"type":`), []byte(`{}`), corpus.Options{}, ref),
		"options":  corpus.New("options", "reading/3", "html5lib", []string{"html5lib"}, []byte(`{}`), []byte(`{"s":"&not=1"}`), corpus.Options{Profile: normalize.Attribute, MaxPasses: 1, MaxDepth: 5}, ref),
	}
	if valid["error"].Error == "" || valid["raw"].ArgumentsRaw == nil || valid["raw"].ExpectedRaw == nil || valid["not json"].SchemaRaw == nil {
		t.Fatal("the valid vectors do not have the forms this test is about")
	}
	for name, v := range valid {
		data := encode(t, v)
		if err := goAccepts(data); err != nil {
			t.Errorf("%s: Check rejects it: %v", name, err)
		}
		if err := validate(sch, data); err != nil {
			t.Errorf("%s: the schema rejects it: %v\n%s", name, err, data)
		}
	}

	base := encode(t, valid["embedded"])
	broken := map[string]func(m map[string]any){
		"missing id":               func(m map[string]any) { delete(m, "id") },
		"bad id":                   func(m map[string]any) { m["id"] = "ABC" },
		"missing description":      func(m map[string]any) { delete(m, "description") },
		"two-line description":     func(m map[string]any) { m["description"] = "one\ntwo" },
		"escape in description":    func(m map[string]any) { m["description"] = "clear \x1b[2J the screen" },
		"bell in description":      func(m map[string]any) { m["description"] = "title \x1b]0;x\x07" },
		"C1 in description":        func(m map[string]any) { m["description"] = "csi \u009b2J" },
		"bidi in description":      func(m map[string]any) { m["description"] = "txt.\u202egnp" },
		"isolate in description":   func(m map[string]any) { m["description"] = "a \u2066b\u2069" },
		"separator in description": func(m map[string]any) { m["description"] = "one\u2028two" },
		"bad clause":               func(m map[string]any) { m["clause"] = "rule/9" },
		"clause without a number":  func(m map[string]any) { m["clause"] = "reading" },
		"bad tag":                  func(m map[string]any) { m["tags"] = []any{"Entities"} },
		"bad origin":               func(m map[string]any) { m["origin"] = "fuzz" },
		"unknown field":            func(m map[string]any) { m["expect"] = m["expected"] },
		"unknown option":           func(m map[string]any) { m["options"] = map[string]any{"passes": 1} },
		"bad profile":              func(m map[string]any) { m["options"] = map[string]any{"profile": "html"} },
		"negative max_passes":      func(m map[string]any) { m["options"] = map[string]any{"max_passes": -1} },
		"expected and error":       func(m map[string]any) { m["error"] = "not-object" },
		"expected and raw":         func(m map[string]any) { m["expected_raw"] = `{"t":"&"}` },
		"neither expected nor error": func(m map[string]any) {
			delete(m, "expected")
		},
		"schema and schema_raw": func(m map[string]any) { m["schema_raw"] = "{}" },
		"no arguments":          func(m map[string]any) { delete(m, "arguments") },
		"raw form not a string": func(m map[string]any) { m["arguments_raw"] = m["arguments"]; delete(m, "arguments") },
		"bad error kind": func(m map[string]any) {
			delete(m, "expected")
			m["error"] = "invalid"
		},
	}
	for name, mutate := range broken {
		var m map[string]any
		if err := json.Unmarshal(base, &m); err != nil {
			t.Fatal(err)
		}
		mutate(m)
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(sch, data); err == nil {
			t.Errorf("%s: the schema accepts %s", name, data)
		}
		if err := goAccepts(data); err == nil {
			t.Errorf("%s: Decode and Check accept %s", name, data)
		}
	}
}

// replayScript returns the script README.md holds between the line
// <!-- replay.py --> and the end of the ```python block that follows it.
func replayScript(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\n<!-- replay.py -->\n```python\n(.*?\n)```\n").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md: no ```python block right after a line <!-- replay.py -->")
	}
	script := string(m[1])
	if n := strings.Count(script, "\n"); n > 30 {
		t.Errorf("README.md: the replay script has %d lines, want at most 30", n)
	}
	return script
}

// runReplay writes the README's script to a file and runs it with python3
// on dir and command; it returns the script's output and exit status.
func runReplay(t *testing.T, dir string, command ...string) (string, int) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH")
	}
	script := filepath.Join(t.TempDir(), "replay.py")
	if err := os.WriteFile(script, []byte(replayScript(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, append([]string{script, dir}, command...)...)
	cmd.Env = append(os.Environ(), "TOOLNORM_TEST_NORMALIZER=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return string(out), ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return string(out), 0
}

// TestReplayScriptReadsCorpus runs the README's script, without a command,
// on the committed corpus: it must read every vector.
func TestReplayScriptReadsCorpus(t *testing.T) {
	out, status := runReplay(t, "vectors")
	want := fmt.Sprintf("read %d vectors\n", committedVectors(t))
	if status != 0 || out != want {
		t.Errorf("replay.py vectors: exit status %d, output:\n%s\nwant exit status 0 and %q", status, out, want)
	}
}

// TestReplayScriptReplays runs the README's script with a command (this
// test binary, as TestHelperNormalizer) on vectors of every form, one of
// them wrong, and checks that it counts passes and failures.
func TestReplayScriptReplays(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH")
	}
	ref := corpus.Reference
	obj := []byte(`{"type":"object","properties":{"a":{"type":"array"}}}`)
	wrong := corpus.New("wrong: true is not 1", "reading/7", "hand", nil, []byte(`{}`), []byte(`{"n":1}`), corpus.Options{}, ref)
	wrong.SetResult(corpus.Result{Output: []byte(`{"n":true}`)})
	vectors := []*corpus.Vector{
		corpus.New("embedded", "rule/4", "hand", nil, obj, []byte(`{"t":"Ember &amp;amp; Oak","a":"[1.0, \"&lt;\"]"}`), corpus.Options{}, ref),
		corpus.New("error", "reading/8", "hand", nil, obj, []byte(`[1]`), corpus.Options{}, ref),
		corpus.New("bad schema", "reading/8", "hand", nil, []byte(`{"type":`), []byte(`{}`), corpus.Options{}, ref),
		corpus.New("raw", "reading/7", "hand", nil, obj, []byte(`{"a":"[12345678901234567890]","a":"\ud800 &amp;"}`), corpus.Options{}, ref),
		corpus.New("attribute", "reading/3", "hand", nil, []byte(`{}`), []byte(`{"u":"?a=1&not=2&amp;x"}`), corpus.Options{Profile: normalize.Attribute}, ref),
		corpus.New("bounded", "reading/2", "hand", nil, []byte(`{}`), []byte(`{"t":"&amp;amp;"}`), corpus.Options{MaxPasses: 1}, ref),
		wrong,
	}
	if vectors[3].ArgumentsRaw == nil || vectors[3].ExpectedRaw == nil {
		t.Fatal("the raw vector is not in the raw form")
	}
	dir := t.TempDir()
	for _, v := range vectors {
		if _, _, err := corpus.Add(dir, nil, v); err != nil {
			t.Fatal(err)
		}
	}
	out, status := runReplay(t, filepath.Join(dir, "vectors"), os.Args[0], "-test.run=^TestHelperNormalizer$")
	if !strings.HasSuffix(out, "read 7 vectors: 6 passed, 1 failed\n") || status != 1 ||
		!strings.Contains(out, "FAIL ") || !strings.Contains(out, "wrong-true-is-not-1.json") || strings.Count(out, "FAIL ") != 1 {
		t.Errorf("replay.py with a command: exit status %d, output:\n%s\nwant one failure (wrong-true-is-not-1), 6 passed, exit status 1", status, out)
	}
}

// TestHelperNormalizer is not a test: run by replay.py (through
// TestReplayScriptReplays), it is a normalizer command that reads one JSON
// line {"schema": TEXT, "arguments": TEXT, "options": {...}} and replies
// as the README says, using the reference.
func TestHelperNormalizer(t *testing.T) {
	if os.Getenv("TOOLNORM_TEST_NORMALIZER") != "1" {
		t.Skip("a helper process for TestReplayScriptReplays")
	}
	line, err := bufio.NewReader(os.Stdin).ReadBytes('\n')
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// jsonvalue keeps lone surrogates in the texts, as encoding/json
	// would not.
	req, err := jsonvalue.Parse(line)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var schema, args []byte
	var o corpus.Options
	for _, m := range req.Members {
		switch m.Key {
		case "schema":
			schema = []byte(m.Value.Str)
		case "arguments":
			args = []byte(m.Value.Str)
		case "options":
			for _, om := range m.Value.Members {
				n, _ := strconv.Atoi(om.Value.Number)
				switch om.Key {
				case "profile":
					_ = o.Profile.UnmarshalText([]byte(om.Value.Str))
				case "max_passes":
					o.MaxPasses = n
				case "max_depth":
					o.MaxDepth = n
				}
			}
		}
	}
	r := corpus.Reference.Normalize(context.Background(), impl.Case{Schema: schema, Args: args, Options: o})
	if r.Error != "" {
		fmt.Println(r.Error)
		os.Exit(1)
	}
	os.Stdout.Write(append(r.Output, '\n'))
	os.Exit(0)
}
