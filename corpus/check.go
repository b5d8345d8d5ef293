package corpus

import (
	"encoding/base64"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// Problem is one thing wrong with a vector.
type Problem struct {
	File string
	Msg  string
}

func (p Problem) String() string { return p.File + ": " + p.Msg }

var (
	clausePattern = regexp.MustCompile(`^(rule/[1-5]|reading/[1-8]|found)$`)
	tagPattern    = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	origins       = map[string]bool{"hand": true, "html5lib": true, "found": true, "imported": true}
)

// Check returns what is wrong with v on its own: its fields, its ID, where
// its file is, and the forms of its values.
func Check(v *Vector) []string {
	var p []string
	bad := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	if v.Description == "" || strings.ContainsAny(v.Description, "\n\r") || len(v.Description) > 200 {
		bad("description must be one non-empty line of at most 200 bytes")
	}
	if !clausePattern.MatchString(v.Clause) {
		bad("clause %q: want rule/1 to rule/5, reading/1 to reading/8, or found", v.Clause)
	}
	if !origins[v.Origin] {
		bad("origin %q: want hand, html5lib, found or imported", v.Origin)
	}
	for _, t := range v.Tags {
		if !tagPattern.MatchString(t) {
			bad("tag %q: want lowercase letters, digits and dashes", t)
		}
	}
	if pr := v.Options.Profile; pr != "" && pr != "text" && pr != "attribute" {
		bad("options.profile %q: want text or attribute", pr)
	}
	if d := v.Options.Depth; d != "" && d != "all" && d != "top" {
		bad("options.depth %q: want all or top", d)
	}
	if v.Options.MaxPasses < 0 || v.Options.MaxDepth < 0 {
		bad("options.max_passes and options.max_depth must be 0 or more")
	}
	checkForm(&p, "schema", v.Schema, v.SchemaRaw, v.SchemaBase64)
	checkForm(&p, "arguments", v.Arguments, v.ArgumentsRaw, v.ArgumentsBase64)
	if v.Error != "" {
		if !errorKinds[v.Error] {
			bad("error %q: want invalid-json, not-object, too-deep or invalid-schema", v.Error)
		}
		if v.Expected != nil || v.ExpectedRaw != nil {
			bad("a vector has expected or error, not both")
		}
	} else {
		checkForm(&p, "expected", v.Expected, v.ExpectedRaw, nil)
	}
	if len(p) == 0 {
		if id := ComputeID(v.SchemaText(), v.ArgumentsText(), v.Options); v.ID != id {
			bad("id %q does not match the content: want %q", v.ID, id)
		}
	}
	if v.File != "" {
		if want := path.Join("vectors", v.Group()); path.Dir(v.File) != want {
			bad("belongs in %s/", want)
		}
	}
	return p
}

func checkForm(p *[]string, name string, embedded []byte, raw, b64 *string) {
	forms := 0
	for _, present := range []bool{embedded != nil, raw != nil, b64 != nil} {
		if present {
			forms++
		}
	}
	switch {
	case forms > 1:
		*p = append(*p, fmt.Sprintf("has more than one of %s, %s_raw and %s_base64", name, name, name))
	case forms == 0:
		*p = append(*p, fmt.Sprintf("has neither %s nor %s_raw", name, name))
	case b64 != nil:
		b, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			*p = append(*p, fmt.Sprintf("%s_base64: %v", name, err))
		} else if utf8.Valid(b) {
			*p = append(*p, fmt.Sprintf("%s_base64 holds UTF-8 text: use %s or %s_raw", name, name, name))
		}
	case embedded != nil:
		v, err := jsonvalue.Parse(embedded)
		if err != nil {
			*p = append(*p, fmt.Sprintf("%s: %v", name, err))
		} else if !portable(v) {
			*p = append(*p, fmt.Sprintf("%s would lose information in a generic JSON reader (number text past float64, a duplicate key, a lone surrogate, nesting past %d): use %s_raw", name, portableDepth, name))
		}
	}
}

// Lint checks every vector, and the corpus as a whole: no two vectors with
// one ID or one description, and impl (the reference, normally) gives
// every expected result. It returns the problems found, by file.
func Lint(vectors []*Vector, impl Impl) []Problem {
	var problems []Problem
	ids := map[string]string{}
	descriptions := map[string]string{}
	for _, v := range vectors {
		msgs := Check(v)
		if prev, ok := ids[v.ID]; ok && v.ID != "" {
			msgs = append(msgs, fmt.Sprintf("same id as %s", prev))
		}
		ids[v.ID] = v.File
		if prev, ok := descriptions[v.Description]; ok {
			msgs = append(msgs, fmt.Sprintf("same description as %s", prev))
		}
		descriptions[v.Description] = v.File
		if len(msgs) == 0 && impl != nil {
			if o := Replay(v, impl); !o.Pass {
				msgs = append(msgs, fmt.Sprintf("%s does not give the expected result: %s", impl.Name(), o.Msg))
			}
		}
		for _, m := range msgs {
			problems = append(problems, Problem{v.File, m})
		}
	}
	return problems
}

// Outcome is the result of replaying one vector.
type Outcome struct {
	Vector *Vector
	Got    Result
	Pass   bool
	Msg    string // why it failed
}

// Replay runs v on impl and compares the result with what v expects, as
// JSON values (see jsonvalue.Equal).
func Replay(v *Vector, impl Impl) Outcome {
	got := impl.Normalize(v.SchemaText(), v.ArgumentsText(), v.Options)
	o := Outcome{Vector: v, Got: got}
	switch {
	case v.Error != "" && got.Error == v.Error:
		o.Pass = true
	case v.Error != "":
		if got.Error != "" {
			o.Msg = fmt.Sprintf("error %s (%s), want error %s", got.Error, got.Detail, v.Error)
		} else {
			o.Msg = fmt.Sprintf("output %s, want error %s", got.Output, v.Error)
		}
	case got.Error != "":
		o.Msg = fmt.Sprintf("error %s (%s), want %s", got.Error, got.Detail, v.ExpectedText())
	default:
		eq, err := jsonvalue.EqualJSON(got.Output, v.ExpectedText())
		switch {
		case err != nil:
			o.Msg = fmt.Sprintf("cannot compare output %q: %v", got.Output, err)
		case !eq:
			o.Msg = fmt.Sprintf("output %s, want %s", got.Output, v.ExpectedText())
		default:
			o.Pass = true
		}
	}
	return o
}
