package render

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/harness"
	"github.com/toolnorm/toolnorm/impl"
)

// reportSchema compiles docs/report.schema.json, with the vector schema it
// refers to.
func reportSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for file, id := range map[string]string{
		"../../../../docs/report.schema.json":   "https://github.com/toolnorm/toolnorm/docs/report.schema.json",
		"../../../../corpus/vector.schema.json": "https://github.com/toolnorm/toolnorm/corpus/vector.schema.json",
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if err := c.AddResource(id, doc); err != nil {
			t.Fatal(err)
		}
	}
	sch, err := c.Compile("https://github.com/toolnorm/toolnorm/docs/report.schema.json")
	if err != nil {
		t.Fatalf("docs/report.schema.json: %v", err)
	}
	return sch
}

func validReport(sch *jsonschema.Schema, data []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// logging is onePassCrashing with the failures a harness records.
type logging struct{ onePassCrashing }

func (logging) Events() []harness.Event {
	return []harness.Event{{Kind: "crash", Request: 7, Detail: "exit status 2", Stderr: "panic", Answered: true}}
}
func (logging) Restarts() int { return 1 }
func (logging) Info() harness.Info {
	return harness.Info{Name: "logging", Language: "Go", Version: "1.0"}
}

// TestReportSchema: every report check writes is valid under the
// documented schema, whose format version is the one written.
func TestReportSchema(t *testing.T) {
	sch := reportSchema(t)
	vs := vectors(t)
	reports := map[string]*check.Report{
		"the reference": check.Run(context.Background(), check.Config{Impl: impl.Reference, Vectors: vs, Checks: 16, Seed: 2, Version: "v9.9.9"}),
		"a failing one": check.Run(context.Background(), check.Config{Impl: logging{}, Command: "./x", Vectors: vs, Checks: 32, Seed: 5}),
		"by budget":     check.Run(context.Background(), check.Config{Impl: onePassCrashing{}, Vectors: vs, Budget: 1, Seed: 5}),
	}
	baselined := check.Run(context.Background(), check.Config{Impl: logging{}, Command: "./x", Vectors: vs, Checks: 32, Seed: 5})
	baselined.CompareWith(&check.Baseline{Version: check.BaselineVersion, File: "b.json", RootCauses: []check.Known{{ID: baselined.RootCauses[0].ID}, {ID: "fixed-since", Title: "t"}}})
	reports["against a baseline"] = baselined
	for name, r := range reports {
		r.FormatVersion = check.FormatVersion
		var b bytes.Buffer
		if err := Write(r, &b, "json"); err != nil {
			t.Fatal(err)
		}
		if err := validReport(sch, b.Bytes()); err != nil {
			t.Errorf("%s: the report does not validate: %v", name, err)
		}
	}
	// The schema is strict: a member it does not know is an error, so
	// that the schema cannot fall behind the report.
	var m map[string]any
	b, _ := json.Marshal(reports["a failing one"])
	json.Unmarshal(b, &m)
	m["surprise"] = 1
	b, _ = json.Marshal(m)
	if validReport(sch, b) == nil {
		t.Error("the schema accepts a member it does not describe")
	}
	delete(m, "surprise")
	m["format_version"] = check.FormatVersion + 1
	b, _ = json.Marshal(m)
	if validReport(sch, b) == nil {
		t.Error("the schema accepts another format version")
	}
}
