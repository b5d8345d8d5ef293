package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
)

// deep is an object whose member "a" nests arrays, n levels in all.
func deep(n int) string {
	return `{"a":` + strings.Repeat("[", n-1) + strings.Repeat("]", n-1) + `}`
}

func TestCases(t *testing.T) {
	const tags = `{"type":"object","properties":{"tags":{"type":"array"},"q":{"type":"string"}}}`
	tests := []struct {
		name         string
		schema, args string
		want         string // the output, or "error"
		route        map[string]string
	}{
		{name: "repaired", schema: tags, args: `{"tags":"[\"a\"]","q":"[1] &amp;amp;","n":1.0}`, want: `{"tags":["a"],"q":"[1] &","n":1.0}`},
		{name: "untouched text", schema: tags, args: `{"z":1,"a":12345678901234567890,"z":2}`, want: `{"z":1,"a":12345678901234567890,"z":2}`},
		{name: "not an object", schema: tags, args: `["[1]"]`, want: "error"},
		{name: "null", schema: tags, args: `null`, want: "error"},
		{name: "schema does not compile", schema: `{"type":"object","properties":{"a":{"$ref":"#/nowhere"}}}`, args: `{"a":"&amp;"}`, want: "error"},
		{name: "too deep in a string", schema: `{"type":"object","properties":{"a":{"type":"array"}}}`, args: `{"a":"` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `"}`, want: "error"},
		{name: "untyped schema", schema: `{"properties":{"tags":{"type":"array"}}}`, args: `{"tags":"[1]"}`, want: `{"tags":[1]}`},
		{name: "untyped schema that refers to its root", schema: `{"properties":{"c":{"$ref":"#"}}}`, args: `{"c":"{}"}`, want: `{"c":"{}"}`,
			route: map[string]string{"go-sdk": "changes this schema's meaning"}},
		{name: "boolean schema", schema: `true`, args: `{"a":"&lt;"}`, want: `{"a":"<"}`, route: map[string]string{"go-sdk": "a JSON object"}},
		{name: "a schema of another type", schema: `{"type":"array"}`, args: `{"a":"&lt;"}`, want: `{"a":"<"}`, route: map[string]string{"go-sdk": `of "type": "object"`}},
		{name: "nested 998 levels", schema: `{}`, args: deep(998), want: deep(998)},
		{name: "nested 999 levels", schema: `{}`, args: deep(999), want: deep(999), route: map[string]string{"go-sdk": "nested more than 1000 levels"}},
		{name: "after the session closed", schema: tags, args: `{"tags":"[2]"}`, want: `{"tags":[2]}`}, // and not before: nothing was sent
		{name: "past float64", schema: tags, args: `{"n":1e400,"tags":"[1e400]"}`, want: `{"n":1e400,"tags":[1e400]}`,
			route: map[string]string{"mcp-go": "a number a float64 cannot hold"}},
	}
	for _, lib := range []string{"go-sdk", "mcp-go"} {
		for _, mode := range []string{Unsupported, Strict, Direct} {
			t.Run(lib+" "+mode, func(t *testing.T) {
				r := newRouter(lib, mode)
				im, _, err := newImpl(lib, impl.Options{}, false, r)
				if err != nil {
					t.Fatal(err)
				}
				defer im.Close()
				for _, tt := range tests {
					carried := r.stats().Carried
					res := im.Normalize(context.Background(), impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args), Options: impl.Options{}})
					route := tt.route[lib]
					want := tt.want
					switch {
					case route != "" && mode == Strict:
						want = "error"
					case route != "" && mode == Unsupported:
						want = "unsupported"
					}
					switch {
					case want == "unsupported":
						if res.Kind() != impl.KindNotSendable || !strings.Contains(res.Detail, route) {
							t.Errorf("%s: got %v, want unsupported saying %q", tt.name, res, route)
						}
					case res.Failed():
						t.Errorf("%s: a failure: %v", tt.name, res)
					case want == "error" && res.Answered():
						t.Errorf("%s: got %s, want an error", tt.name, res.Output)
					case want != "error" && (!res.Answered() || impl.Compare(res, impl.OK([]byte(want))).Diff != ""):
						t.Errorf("%s: got %v, want %s", tt.name, res, want)
					case mode == Strict && route != "" && !strings.Contains(res.Detail, route):
						t.Errorf("%s: the error %q does not say %q", tt.name, res.Detail, route)
					}
					if viaLibrary := r.stats().Carried > carried; viaLibrary != (route == "") {
						t.Errorf("%s: carried by the library %v, want %v", tt.name, viaLibrary, route == "")
					}
				}
				wantNot, routes := 0, ""
				for _, tt := range tests {
					if route := tt.route[lib]; route != "" {
						wantNot++
						routes += route + "\n"
					}
				}
				not := 0
				for why, n := range r.stats().NotCarried {
					not += n
					found := false
					for _, route := range strings.Split(strings.TrimSpace(routes), "\n") {
						found = found || strings.Contains(why, route)
					}
					if !found {
						t.Errorf("not carried for an unexpected reason: %q", why)
					}
				}
				if not != wantNot {
					t.Errorf("%d cases not carried, want %d", not, wantNot)
				}
			})
		}
	}
}

// TestProtocol runs the adapter as toolnorm does, on the protocol's
// lines, and checks its answers and the stats file.
func TestProtocol(t *testing.T) {
	in := strings.Join([]string{
		`{"cmd":"start","version":1}`,
		`{"cmd":"normalize","id":1,"schema":{"properties":{"tags":{"type":"array"}}},"arguments":{"t":"Ember &amp;amp; Oak","tags":"[\"a\",\"b\"]","n":1.0}}`,
		`{"cmd":"normalize","id":2,"schema":{},"arguments":[1]}`,
		`{"cmd":"normalize","id":3,"schema":true,"arguments":{"a":"&lt;"}}`,
		`{"cmd":"stop"}`,
	}, "\n") + "\n"
	for _, lib := range []string{"go-sdk", "mcp-go"} {
		t.Run(lib, func(t *testing.T) {
			stats := filepath.Join(t.TempDir(), "stats")
			var out, errOut bytes.Buffer
			if err := run([]string{"-lib", lib, "-stats", stats}, strings.NewReader(in), &out, &errOut); err != nil {
				t.Fatalf("run: %v\n%s", err, errOut.String())
			}
			sc := bufio.NewScanner(&out)
			var lines []string
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			if len(lines) != 4 {
				t.Fatalf("%d lines, want 4:\n%s", len(lines), out.String())
			}
			var start struct {
				Version        int
				Implementation struct{ Name, Language, Version string }
			}
			if err := json.Unmarshal([]byte(lines[0]), &start); err != nil || start.Version != 1 || start.Implementation.Name != "toolnorm-mcp "+lib || !strings.HasPrefix(start.Implementation.Version, lib+" v") {
				t.Errorf("the answer to start: %s", lines[0])
			}
			third := `{"id":3,"arguments":{"a":"<"}}`
			if lib == "go-sdk" {
				third = `{"id":3,"unsupported":"go-sdk cannot carry this case: ` // a boolean schema: the SDK takes no such tool
			}
			for i, want := range []string{
				`{"id":1,"arguments":{"t":"Ember & Oak","tags":["a","b"],"n":1.0}}`,
				`{"id":2,"error":`,
				third,
			} {
				if !strings.HasPrefix(lines[i+1], want) {
					t.Errorf("answer %d: %s, want %s", i+1, lines[i+1], want)
				}
			}
			b, err := os.ReadFile(stats)
			if err != nil {
				t.Fatal(err)
			}
			var s Stats
			if err := json.Unmarshal(b, &s); err != nil || s.Library != lib || s.Carried+len(s.NotCarried) != 3 {
				t.Errorf("stats %s (%v)", b, err)
			}
			if !strings.Contains(errOut.String(), "cases carried by the library") {
				t.Errorf("stderr %q lacks the summary", errOut.String())
			}
		})
	}
}

func TestBadLibrary(t *testing.T) {
	err := run([]string{"-lib", "other"}, strings.NewReader(""), &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), `-lib "other": want go-sdk or mcp-go`) {
		t.Errorf("got %v", err)
	}
}

func TestNesting(t *testing.T) {
	tests := []struct {
		json string
		want int
	}{
		{`1`, 0}, {`{}`, 1}, {`{"a":[[]]}`, 3}, {`{"a":"[[[[\"]"}`, 1}, {`[{"\\":[1]},{}]`, 3},
	}
	for _, tt := range tests {
		if got := nesting([]byte(tt.json)); got != tt.want {
			t.Errorf("nesting(%s) = %d, want %d", tt.json, got, tt.want)
		}
	}
}
