package normalize_test

// TestSuite runs the schemas of the JSON-Schema-Test-Suite (a pinned copy,
// testdata/JSON-Schema-Test-Suite, with its licence and SOURCE) through
// Compile, draft by draft, and their object test data through Normalize
// and the oracle. See docs/engine.md, "The JSON-Schema-Test-Suite", and docs/readings.md section 4, "Every schema a tool can
// ship".

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolnorm/toolnorm/normalize"
	"github.com/toolnorm/toolnorm/oracle"
)

const suiteDir = "testdata/JSON-Schema-Test-Suite"

// suiteDrafts are the drafts toolnorm reads (draft 3 is not JSON Schema as
// Compile knows it: its type may be a schema, its required a boolean).
var suiteDrafts = []struct {
	dir   string
	draft normalize.Draft
	santa *jsonschema.Draft
}{
	{"draft4", normalize.Draft4, jsonschema.Draft4},
	{"draft6", normalize.Draft6, jsonschema.Draft6},
	{"draft7", normalize.Draft7, jsonschema.Draft7},
	{"draft2019-09", normalize.Draft2019, jsonschema.Draft2019},
	{"draft2020-12", normalize.Draft2020, jsonschema.Draft2020},
}

type suiteGroup struct {
	file        string
	Description string
	Schema      json.RawMessage
	Tests       []struct {
		Description string
		Data        json.RawMessage
	}
}

// suiteDocuments are the documents the remote schemas refer to: the
// suite's remotes/, served at http://localhost:1234/ as its README says,
// and the meta-schemas (testdata/metaschemas).
func suiteDocuments(t testing.TB) map[string][]byte {
	docs := map[string][]byte{}
	add := func(root, prefix string) {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || path.Base(p) == "README.md" {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			docs[prefix+filepath.ToSlash(rel)] = b
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	add(filepath.Join(suiteDir, "remotes"), "http://localhost:1234/")
	add(filepath.Join("testdata", "metaschemas"), "http://json-schema.org/")
	for u, b := range docs {
		if rest, ok := strings.CutPrefix(u, "http://json-schema.org/draft/"); ok {
			docs["https://json-schema.org/draft/"+rest] = b
			delete(docs, u)
		}
	}
	return docs
}

func suiteGroups(t testing.TB, dir string) []suiteGroup {
	var groups []suiteGroup
	root := filepath.Join(suiteDir, "tests", dir)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".json" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var gs []suiteGroup
		if err := json.Unmarshal(b, &gs); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		rel, _ := filepath.Rel(root, p)
		for i := range gs {
			gs[i].file = filepath.ToSlash(rel)
		}
		groups = append(groups, gs...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return groups
}

// remote reports whether a schema refers to another document, as a second
// implementation (santhosh-tekuri/jsonschema) resolves it: whether it asks
// its loader for a document that is not only a $schema, or refers to a
// meta-schema (which it knows without a loader).
func remote(t *testing.T, schema []byte, draft *jsonschema.Draft, docs map[string][]byte) bool {
	var loaded []string
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	c.UseRegexpEngine(ecmaEngine)
	c.UseLoader(loaderFunc(func(u string) (any, error) {
		loaded = append(loaded, u)
		b, ok := docs[u]
		if !ok {
			return nil, fmt.Errorf("no document %s", u)
		}
		return jsonschema.UnmarshalJSON(bytes.NewReader(b))
	}))
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	const url = "http://toolnorm.invalid/suite-schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Compile(url); err != nil {
		t.Fatalf("santhosh-tekuri/jsonschema does not compile %s: %v", schema, err)
	}
	schemas := map[string]bool{}
	collectSchemaURIs(doc, schemas)
	for _, u := range loaded {
		if b, ok := docs[u]; ok {
			d, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			collectSchemaURIs(d, schemas)
		}
	}
	for _, u := range loaded {
		if !schemas[u] {
			return true
		}
	}
	return bytes.Contains(schema, []byte(`"$ref":"http://json-schema.org/`)) || bytes.Contains(schema, []byte(`"$ref":"https://json-schema.org/`)) ||
		bytes.Contains(schema, []byte(`"$ref": "http://json-schema.org/`)) || bytes.Contains(schema, []byte(`"$ref": "https://json-schema.org/`))
}

// ecmaEngine gives santhosh-tekuri/jsonschema ECMA-262 patterns.
func ecmaEngine(s string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(s, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	return ecmaRegexp{re}, nil
}

type ecmaRegexp struct{ re *regexp2.Regexp }

func (r ecmaRegexp) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return ok && err == nil
}

func (r ecmaRegexp) String() string { return r.re.String() }

type loaderFunc func(string) (any, error)

func (f loaderFunc) Load(u string) (any, error) { return f(u) }

func collectSchemaURIs(v any, into map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		if s, ok := v["$schema"].(string); ok {
			into[strings.TrimSuffix(s, "#")] = true
		}
		for _, e := range v {
			collectSchemaURIs(e, into)
		}
	case []any:
		for _, e := range v {
			collectSchemaURIs(e, into)
		}
	}
}

// mayChange reports whether data holds a string that the rule itself may
// change wherever it stands: one whose references decode (section 1), or
// whose text is a JSON array or object (which the JSON repair decodes
// where the schema declares it). Such data is compared with the oracle
// instead of with itself.
func mayChange(data []byte) bool {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return true
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case string:
			if out, _, _ := oracle.Fixpoint(v, oracle.Unescape, 0); out != v {
				return true
			}
			s := strings.TrimLeft(v, " \t\r\n")
			return (strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{")) && json.Valid([]byte(v))
		case []any:
			return slices.ContainsFunc(v, walk)
		case map[string]any:
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// stringified returns data with each member at every depth whose value is
// an array or an object sent as a JSON string instead, one variant per
// member: the JSON repair decodes them back exactly where the schema
// declares them, so that the declared types of the suite's schemas are
// compared with the oracle's.
func stringified(data []byte) [][]byte {
	var top any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&top); err != nil {
		return nil
	}
	var out [][]byte
	var walk func(v any, set func(any))
	walk = func(v any, set func(any)) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, func(r any) { x[k] = r })
			}
		case []any:
			for i, e := range x {
				walk(e, func(r any) { x[i] = r })
			}
		default:
			return
		}
		if set == nil {
			return
		}
		text, _ := json.Marshal(v)
		set(string(text))
		b, _ := json.Marshal(top)
		out = append(out, b)
		set(v)
	}
	walk(top, nil)
	return out
}

func TestSuite(t *testing.T) {
	docs := suiteDocuments(t)
	for _, d := range suiteDrafts {
		t.Run(d.dir, func(t *testing.T) {
			var local, localOK, remotes, remoteOK, data, same, changed, variants int
			for _, g := range suiteGroups(t, d.dir) {
				name := g.file + ": " + g.Description
				isRemote := remote(t, g.Schema, d.santa, docs)
				var opts []normalize.Option
				opts = append(opts, normalize.WithDraft(d.draft))
				odocs := map[string][]byte(nil)
				if isRemote {
					remotes++
					// The default stays an error, naming the reference.
					if _, err := normalize.Compile(g.Schema, opts...); err == nil || !errors.Is(err, normalize.ErrSchema) || !strings.Contains(err.Error(), "$ref") && !strings.Contains(err.Error(), "Ref") {
						t.Errorf("%s: Compile without documents: %v; want an error that names the reference", name, err)
					}
					opts = append(opts, normalize.WithDocuments(docs))
					odocs = docs
				} else {
					local++
				}
				s, err := normalize.Compile(g.Schema, opts...)
				if err != nil {
					t.Errorf("%s: Compile(%s): %v", name, g.Schema, err)
					continue
				}
				if isRemote {
					remoteOK++
				} else {
					localOK++
				}
				oopts := oracle.Options{Draft: d.dir, Documents: odocs}
				for _, tc := range g.Tests {
					if !bytes.HasPrefix(bytes.TrimSpace(tc.Data), []byte("{")) {
						continue
					}
					data++
					out, err := s.Normalize(tc.Data)
					if err != nil {
						t.Errorf("%s / %s: Normalize(%s): %v", name, tc.Description, tc.Data, err)
						continue
					}
					want, err := oracle.Normalize(g.Schema, tc.Data, oopts)
					if err != nil {
						t.Errorf("%s / %s: oracle.Normalize(%s): %v", name, tc.Description, tc.Data, err)
						continue
					}
					if eq, err := oracle.Equal(out, want); err != nil || !eq {
						t.Errorf("%s / %s: Normalize(%s) = %s, the oracle %s", name, tc.Description, tc.Data, out, want)
					}
					if mayChange(tc.Data) {
						changed++
					} else if !bytes.Equal(out, tc.Data) {
						t.Errorf("%s / %s: Normalize(%s) = %s; want it unchanged", name, tc.Description, tc.Data, out)
					} else {
						same++
					}
					for _, v := range stringified(tc.Data) {
						variants++
						out, err := s.Normalize(v)
						want, oerr := oracle.Normalize(g.Schema, v, oopts)
						if err != nil || oerr != nil {
							t.Errorf("%s / %s: Normalize(%s): %v; oracle: %v", name, tc.Description, v, err, oerr)
							continue
						}
						if eq, err := oracle.Equal(out, want); err != nil || !eq {
							t.Errorf("%s / %s: Normalize(%s) = %s, the oracle %s", name, tc.Description, v, out, want)
						}
					}
				}
			}
			t.Logf("%s: self-contained %d/%d compile (%.1f%%), remote %d/%d with their documents; %d object data: %d unchanged, %d with strings the rule may change (compared with the oracle); %d stringified variants",
				d.dir, localOK, local, 100*float64(localOK)/float64(max(local, 1)), remoteOK, remotes, data, same, changed, variants)
		})
	}
}

// TestReadingVectorsOracle checks that the oracle gives every vector of
// section 4 in corpus/vectors/reading (what a schema declares: references,
// anchors, dynamic scope, patterns among them) the result the vector
// expects; the reference is held to the same vectors by the corpus tests.
func TestReadingVectorsOracle(t *testing.T) {
	checked := 0
	files, err := filepath.Glob(filepath.Join("..", "corpus", "vectors", "reading", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Clause                      string
			Schema, Arguments, Expected json.RawMessage
			Error                       string
			Options                     *struct {
				Profile   string
				MaxPasses int `json:"max_passes"`
				MaxDepth  int `json:"max_depth"`
				Depth     string
			}
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		// The oracle has no top-level-only depth; a vector without its
		// schema, arguments or result as JSON is for the corpus tests.
		if v.Clause != "reading/4" || v.Schema == nil || v.Arguments == nil || v.Error == "" && v.Expected == nil || v.Options != nil && v.Options.Depth != "" {
			continue
		}
		checked++
		var o oracle.Options
		if v.Options != nil {
			o = oracle.Options{Attribute: v.Options.Profile == "attribute", MaxPasses: v.Options.MaxPasses, MaxDepth: v.Options.MaxDepth}
		}
		out, err := oracle.Normalize(v.Schema, v.Arguments, o)
		switch {
		case v.Error != "":
			if err == nil {
				t.Errorf("%s: the oracle gives %s, the vector expects error %s", f, out, v.Error)
			}
		case err != nil:
			t.Errorf("%s: the oracle fails (%v), the vector expects %s", f, err, v.Expected)
		default:
			if eq, err := oracle.Equal(out, v.Expected); err != nil || !eq {
				t.Errorf("%s: the oracle gives %s, the vector expects %s", f, out, v.Expected)
			}
		}
	}
	if checked < 40 {
		t.Errorf("%d vectors of section 4 checked; want the 40 and more there are", checked)
	}
}
