package corpus

import (
	"context"
	"encoding/base64"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/display"
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

// CheckClause says whether clause names a clause of the rule or a reading.
func CheckClause(clause string) error {
	if !clausePattern.MatchString(clause) {
		return fmt.Errorf("clause %q: want rule/1 to rule/5, reading/1 to reading/8, or found", clause)
	}
	return nil
}

// unseen returns the first control character (C0, DEL, C1), bidi control
// (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) or line or
// paragraph separator in s, if any.
func unseen(s string) (rune, bool) {
	for _, r := range s {
		if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' {
			return r, true
		}
	}
	return 0, false
}

// MaxDescription is the longest a vector's description may be, in bytes.
const MaxDescription = 200

// Description is a vector's description made of title and tail: the
// title clipped, saying how much, to leave room for tail after it within
// MaxDescription, so that the vector is valid however long the title (a
// root cause's, with a fuzzing bucket's name as its tail).
func Description(title, tail string) string {
	room := MaxDescription - len(tail)
	if len(title) > room {
		// Clip says how much it cut, in no more bytes than it would
		// say the whole title's length in.
		title = display.Clip(title, room-len(fmt.Sprintf("... (%d more bytes)", len(title))))
	}
	return title + tail
}

// Check returns what is wrong with v on its own: its fields, its ID, where
// its file is, and the forms of its values.
func Check(v *Vector) []string {
	var p []string
	bad := func(format string, args ...any) { p = append(p, fmt.Sprintf(format, args...)) }
	if v.Description == "" || strings.ContainsAny(v.Description, "\n\r") || len(v.Description) > MaxDescription {
		bad("description must be one non-empty line of at most %d bytes", MaxDescription)
	} else if r, ok := unseen(v.Description); ok {
		bad("description holds U+%04X, a control or bidi character: a description is shown in terminals and reports, where it could hide or rewrite text", r)
	}
	if err := CheckClause(v.Clause); err != nil {
		bad("%v", err)
	}
	if !origins[v.Origin] {
		bad("origin %q: want hand, html5lib, found or imported", v.Origin)
	}
	for _, t := range v.Tags {
		if !tagPattern.MatchString(t) {
			bad("tag %q: want lowercase letters, digits and dashes", t)
		}
	}
	if err := v.Options.Validate(); err != nil {
		bad("%v", err)
	}
	checkForm(&p, "schema", v.Schema, v.SchemaRaw, v.SchemaBase64)
	checkForm(&p, "arguments", v.Arguments, v.ArgumentsRaw, v.ArgumentsBase64)
	if v.Error != "" {
		if !slices.Contains(impl.ErrorKinds, v.Error) {
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
	return LintContext(context.Background(), vectors, impl)
}

// LintContext is [Lint], stopping once ctx is done: the vectors not
// checked then are each a problem saying so.
func LintContext(ctx context.Context, vectors []*Vector, impl Impl) []Problem {
	var problems []Problem
	ids := map[string]string{}
	descriptions := map[string]string{}
	for i, v := range vectors {
		if err := ctx.Err(); err != nil {
			problems = append(problems, Problem{"", fmt.Sprintf("%d vectors not checked: %v", len(vectors)-i, context.Cause(ctx))})
			break
		}
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
	// Pass is true when the result is the expected one (impl.Compare).
	Pass bool
	// Failure, when not nil, is a failure of the implementation (a
	// timeout, a crash, ...): the vector was not judged.
	Failure error
	Msg     string // why it failed
}

// Want is the result v expects.
func (v *Vector) Want() Result { return Result{Output: v.ExpectedText(), Error: v.Error} }

// Replay runs v on im and judges the result by impl.Compare, the one rule
// every check uses.
func Replay(v *Vector, im Impl) Outcome {
	return Judge(v, im.Normalize(context.Background(), impl.Case{Schema: v.SchemaText(), Args: v.ArgumentsText(), Options: v.Options}))
}

// Judge judges got, a result for v's input, against what v expects.
func Judge(v *Vector, got Result) Outcome {
	o := Outcome{Vector: v, Got: got}
	c := impl.Compare(got, v.Want())
	switch {
	case c.Failure != nil:
		o.Failure, o.Msg = c.Failure, c.Message(got, v.Want(), "want")
	case c.Diff != "":
		o.Msg = c.Message(got, v.Want(), "want")
	default:
		o.Pass = true
	}
	return o
}
