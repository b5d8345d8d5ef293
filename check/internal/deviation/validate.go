package deviation

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolnorm/toolnorm/internal/ecma"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// compiled is a schema compiled for the validator, or nil when it does
// not compile: as 2020-12 when it names no draft, else as draft 7, the
// draft most validators default to.
func compiled(schema []byte) *jsonschema.Schema {
	if s := compiledAs(schema, jsonschema.Draft2020); s != nil {
		return s
	}
	return compiledAs(schema, jsonschema.Draft7)
}

func compiledAs(schema []byte, draft *jsonschema.Draft) *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(draft)
	c.UseLoader(noLoader{})
	c.UseRegexpEngine(ecmaEngine)
	const loc = "https://toolnorm.invalid/schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil
	}
	return s
}

// stringBroken returns the places in v (JSON Pointers' tokens joined by
// "/") where a string breaks a constraint of the schema on strings: its
// length (minLength, maxLength), or, unless lengths, its pattern, enum or
// const.
func stringBroken(schema []byte, v *jsonvalue.Value, lengths bool) map[string]bool {
	s := compiled(schema)
	if s == nil {
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(v.Append(nil)))
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	var ve *jsonschema.ValidationError
	if errors.As(s.Validate(inst), &ve) {
		var walk func(e *jsonschema.ValidationError)
		walk = func(e *jsonschema.ValidationError) {
			switch e.ErrorKind.(type) {
			case *kind.MaxLength, *kind.MinLength:
				out[strings.Join(e.InstanceLocation, "/")] = true
			case *kind.Pattern, *kind.Enum, *kind.Const:
				if !lengths {
					out[strings.Join(e.InstanceLocation, "/")] = true
				}
			}
			for _, c := range e.Causes {
				walk(c)
			}
		}
		walk(ve)
	}
	return out
}

// validates rejects an output the schema does not admit, as an
// implementation that runs a JSON Schema validator after its repair does
// (ajv, jsonschema, Zod built from the schema): an error answer where the
// repaired arguments break a constraint, such as a string left where an
// array is declared. A schema the validator cannot compile (one its
// metaschema refuses, such as `"type": []`) fails every call, as it does
// in those validators: ajv throws, jsonschema.validate raises
// SchemaError, and a validator that reads an empty type list admits
// nothing.
func validates(x *stage) error {
	s := compiled(x.schema)
	if s == nil {
		return errors.New("the validator refuses the schema")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(x.out.Append(nil)))
	if err != nil {
		return nil
	}
	if err := s.Validate(inst); err != nil {
		return fmt.Errorf("the repaired arguments do not fit the schema: %v", err)
	}
	return nil
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("no document is loaded: " + url)
}

// ecmaEngine matches patterns as ECMA-262 with the u flag, as the
// reference reads them (docs/readings.md section 4).
func ecmaEngine(s string) (jsonschema.Regexp, error) {
	re, err := ecma.Compile(s)
	if err != nil {
		return nil, err
	}
	return ecmaRegexp{re}, nil
}

type ecmaRegexp struct{ re *ecma.Regexp }

func (r ecmaRegexp) String() string { return r.re.String() }

func (r ecmaRegexp) MatchString(s string) bool {
	budget := int64(1_000_000)
	ok, _ := r.re.Match(s, &budget)
	return ok
}
