package ecma

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCorpusPatternsAgainstNode replays the corpus's patterns as a
// JavaScript implementation reads them (corpus/runners/replay.mjs hands the
// schema to one, which builds `new RegExp(p, "u")`): every pattern and
// patternProperties key of every vector that has one is put to Node.js,
// with each key and string of the vector's arguments, and internal/ecma
// must agree: valid or not, and each match, by the translation and by the
// backtracking matcher alike (issue 27, item 5).
func TestCorpusPatternsAgainstNode(t *testing.T) {
	root := filepath.Join("..", "..", "corpus", "vectors")
	type use struct{ file, pattern string }
	var uses []use
	var qs []nodeQuery
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(text, []byte("pattern")) {
			return err
		}
		var v map[string]any
		if err := json.Unmarshal(text, &v); err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		schema, args := member(v, "schema"), member(v, "arguments")
		var patterns, inputs []string
		collect(schema, &patterns, nil)
		collect(args, nil, &inputs)
		slices.Sort(patterns)
		slices.Sort(inputs)
		for _, p := range slices.Compact(patterns) {
			uses = append(uses, use{path, p})
			qs = append(qs, nodeQuery{Pattern: p, Inputs: slices.Compact(inputs)})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 15 {
		t.Fatalf("found %d patterns in %s; the corpus has more", len(qs), root)
	}
	answers := askNode(t, qs)
	matched := 0
	for i, q := range qs {
		a, file := answers[i], filepath.Base(uses[i].file)
		re, err := Compile(q.Pattern)
		if (a.Err != nil) != (err != nil) {
			t.Errorf("%s: /%s/u: node says %v; toolnorm %v", file, q.Pattern, a.Err, err)
			continue
		}
		if err != nil {
			continue
		}
		for j, s := range q.Inputs {
			budget := int64(10_000_000)
			got, err := re.Match(s, &budget)
			if err != nil || got != a.V8[j] || got != (a.Matches[j] != nil) {
				t.Errorf("%s: /%s/u.test(%q): node %v (ECMA-262 %v); toolnorm %v, %v", file, q.Pattern, s, a.V8[j], a.Matches[j] != nil, got, err)
			}
			caps, _ := re.backtrack(s, &budget)
			if describe(s, caps) != describeNode(a.Matches[j]) {
				t.Errorf("%s: /%s/u.exec(%q): node %s; toolnorm %s", file, q.Pattern, s, describeNode(a.Matches[j]), describe(s, caps))
			}
			if got {
				matched++
			}
		}
	}
	t.Logf("%d patterns of the corpus, %d matches, the same in node", len(qs), matched)
}

// member returns a vector's schema or arguments, in whichever form it
// is given: a JSON value, a JSON text (_raw), or base64 (_base64).
func member(v map[string]any, name string) any {
	if x, ok := v[name]; ok {
		return x
	}
	var text []byte
	if raw, ok := v[name+"_raw"].(string); ok {
		text = []byte(raw)
	} else if b64, ok := v[name+"_base64"].(string); ok {
		text, _ = base64.StdEncoding.DecodeString(b64)
	}
	var x any
	if json.Unmarshal(text, &x) != nil {
		return nil // not JSON: it holds no pattern, and no input
	}
	return x
}

// collect appends what x holds: patterns (a "pattern" string, the keys of
// a "patternProperties" object) and inputs (every key and string).
func collect(x any, patterns, inputs *[]string) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if inputs != nil {
				*inputs = append(*inputs, k)
			}
			if patterns != nil {
				if s, ok := v.(string); ok && k == "pattern" {
					*patterns = append(*patterns, s)
				}
				if obj, ok := v.(map[string]any); ok && k == "patternProperties" {
					for p := range obj {
						*patterns = append(*patterns, p)
					}
				}
			}
			collect(v, patterns, inputs)
		}
	case []any:
		for _, v := range x {
			collect(v, patterns, inputs)
		}
	case string:
		if inputs != nil {
			*inputs = append(*inputs, x)
		}
	}
}
