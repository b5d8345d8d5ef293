package rootcause

// Probes: variants of a finding's case run on the implementation to tell
// classes apart that one case cannot (a keyword not followed from a miss
// behind one it follows, blind decoding from a type inferred, ...). Each
// sends a request only where its case has what it looks at.

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/diagnose"
	"github.com/toolnorm/toolnorm/internal/entity"
	"github.com/toolnorm/toolnorm/internal/jsonraw"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// valueAt is the compact text of the value at where (a JSON Pointer) in
// the JSON text out; nil when there is none.
func valueAt(out []byte, where string) []byte {
	v, err := jsonvalue.Parse(out)
	if err != nil {
		return nil
	}
	if v = v.Resolve("#" + where); v == nil {
		return nil
	}
	return v.Append(nil)
}

// ofDraft tells a keyword followed only under an explicit draft from one
// not followed at all: a decode missed behind a keyword (d) in a schema
// without `$schema` that the implementation makes once the schema says
// `"$schema"` 2020-12 is decode-missed/draft: it reads a schema without
// `$schema` by an older draft (Ajv's default, draft-07, has no
// `prefixItems`). It is run once on the finding's minimized case c, after
// minimizing; d is returned as it is otherwise.
func ofDraft(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) diagnose.Diagnosis {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return d
	}
	explicit, ok := withDraft(c)
	if !ok || !impl.Compare(cfg.Impl.Normalize(ctx, explicit), cfg.Want(explicit)).Same() {
		return d
	}
	d.Class, d.Title, d.Clause = "decode-missed/draft", diagnose.DraftTitle([]string{d.Detail}), "reading/4"
	return d
}

// olderDraftClass is the class of a finding of any kind (a declaration
// beside `$ref` ignored, a `$ref` to an `$anchor` unresolved, an error)
// in a schema without `$schema` that the implementation repairs as the
// rule says once the schema says `"$schema"` 2020-12: it reads such a
// schema by an older draft, one bug whatever it shows (ofOlderDraft).
// The keywords' misses of the same kind (decode-missed/draft) are folded
// into it where both are found.
const olderDraftClass = "older-draft"

const olderDraftTitle = "A schema without `$schema` is read by an older draft than 2020-12: with `\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"` added, each of these cases gets the rule's answer"

// ofOlderDraft is d, the class of a finding answered (an output or an
// error) on its minimized case c, as olderDraftClass where the
// implementation gives what the rule does on c with `"$schema"` 2020-12
// added, and the rule gives the same on both (a keyword's miss is
// ofDraft's). It sends one request, where c's schema is an object
// without `$schema`.
func ofOlderDraft(ctx context.Context, cfg Config, c impl.Case, got impl.Result, d diagnose.Diagnosis) diagnose.Diagnosis {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() || got.Failed() ||
		d.Class == "decode-missed/draft" || d.Class == olderDraftClass || strings.HasPrefix(d.Class, "artefact/") {
		return d
	}
	explicit, ok := withDraft(c)
	if !ok {
		return d
	}
	want := cfg.Want(explicit)
	if !impl.Compare(want, cfg.Want(c)).Same() || !impl.Compare(cfg.Impl.Normalize(ctx, explicit), want).Same() {
		return d
	}
	return diagnose.Diagnosis{Class: olderDraftClass, Title: olderDraftTitle, Clause: "reading/4", Where: d.Where}
}

// withDraft is c with `"$schema"` 2020-12 added to its schema, and
// whether the schema had none to add it to.
func withDraft(c impl.Case) (impl.Case, bool) {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil || schema.Kind != jsonvalue.Object || schema.Member("$schema") != nil {
		return c, false
	}
	schema.Members = append([]jsonvalue.Member{{Key: "$schema", Value: &jsonvalue.Value{Kind: jsonvalue.String, Str: Draft2020}}}, schema.Members...)
	c.Schema = schema.Append(nil)
	return c, true
}

// ofDecoded tells a keyword not followed from decoded text not walked: a
// decode missed behind a keyword (d), inside a string the rule decodes,
// that the implementation makes once that string is sent decoded (alone,
// or with `"$schema"` 2020-12 added, when ofDraft explains the rest) is
// decode-missed/in-decoded: it follows the keyword, and does not repair
// what it decodes. Run once on the finding's minimized case c, after
// minimizing; d is returned as it is otherwise.
func ofDecoded(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) diagnose.Diagnosis {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return d
	}
	sent, ok := decodedOnTheWay(c, d.Where)
	if !ok {
		return d
	}
	tries := []impl.Case{sent}
	if explicit, ok := withDraft(sent); ok {
		tries = append(tries, explicit)
	}
	for i, t := range tries {
		if impl.Compare(cfg.Impl.Normalize(ctx, t), cfg.Want(t)).Same() {
			in := diagnose.InDecoded
			in.Where = d.Where
			if i > 0 {
				// Cured only with the draft named: the case shows the
				// draft's miss too (withDraftToo).
				in.Detail = withDraftToo
			}
			return in
		}
	}
	return d
}

// withDraftToo is the detail of a miss in decoded text whose case shows a
// second fault, a keyword followed only under `"$schema"` 2020-12
// (qwen-code's `prefixItems`): a root cause is shown by a case without it
// where one is counted (secondFault).
const withDraftToo = "with-draft-too"

// secondFault reports whether d, the diagnosis of a counterexample, says
// that its case shows a second fault besides d's class.
func secondFault(d diagnose.Diagnosis) bool { return d.Detail == withDraftToo }

// decodedOnTheWay is c with each string on the way to where, short of
// the value there, put in as the JSON it holds: the text the rule decodes
// sent decoded. It reports false when there is none, or one does not
// parse.
func decodedOnTheWay(c impl.Case, where string) (impl.Case, bool) {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return c, false
	}
	v, changed := args, false
	for _, tok := range jsonvalue.PointerTokens(where) {
		if v.Kind == jsonvalue.String {
			inner, err := jsonvalue.Parse([]byte(v.Str))
			if err != nil {
				return c, false
			}
			*v, changed = *inner, true
		}
		if v = v.Step(tok); v == nil {
			return c, false
		}
	}
	if !changed {
		return c, false
	}
	c.Args = args.Append(nil)
	return c, true
}

// ofUntyped tells a keyword not followed from a type left unsaid: a
// decode missed behind a keyword (d) that the implementation makes once
// "type" is added on the way (in the branches of a combinator and what
// `$ref` leads to as well) is decode-missed/untyped: it follows the
// keyword, where the schema says the type (an `allOf` branch that
// declares members without `"type": "object"`). Run once on the
// finding's minimized case c; d is returned as it is otherwise.
//
// The keyword must matter once the types are said: an implementation that
// gives the same without it decodes there whatever the keyword declares
// (blind, under a typed root), and the keyword is still not followed.
func ofUntyped(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) diagnose.Diagnosis {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return d
	}
	typed, ok := withTypes(c)
	if !ok {
		return d
	}
	got := cfg.Impl.Normalize(ctx, typed)
	if !impl.Compare(got, cfg.Want(typed)).Same() {
		return d
	}
	kw, _, _ := strings.Cut(d.Detail, "/")
	kw = strings.TrimSuffix(kw, "[]")
	if without, ok := withoutKeyword(typed, kw); !ok || impl.Compare(cfg.Impl.Normalize(ctx, without), got).Same() {
		// The keyword out, the answer is the same: the implementation
		// may decode there whatever the keyword says (@ai-sdk-tool/parser
		// under a typed root). It follows the keyword if a string declared
		// in the keyword's place is then kept.
		s, ok := diagnose.Stringed(typed.Schema, typed.Args, d.Where, d.Shape)
		if !ok {
			return d
		}
		stringed := typed
		stringed.Schema = s
		if !impl.Compare(cfg.Impl.Normalize(ctx, stringed), cfg.Want(stringed)).Same() {
			return d
		}
	}
	d.Class, d.Title, d.Detail, d.Clause = untypedClass, untypedTitle, "", "rule/2"
	if kws := untypedOnlyUnder(ctx, cfg, c); len(kws) > 0 {
		d.Detail, d.Title = strings.Join(kws, " "), untypedKeywordTitle(kws)
	}
	return d
}

// withoutKeyword is c with the keyword kw taken out of its schema, in
// schema positions (not a property of that name), and whether there was
// one to take out.
func withoutKeyword(c impl.Case, kw string) (impl.Case, bool) {
	if kw == "" {
		return c, false
	}
	return editSchemas(c, func(s *jsonvalue.Value) bool {
		n := len(s.Members)
		s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == kw })
		return len(s.Members) < n
	})
}

// editSchemas is c with edit applied to each subschema of its schema
// (diagnose.WalkSchemas), and whether edit changed one (said true); a
// schema that does not parse is left as it is.
func editSchemas(c impl.Case, edit func(s *jsonvalue.Value) bool) (impl.Case, bool) {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return c, false
	}
	found := false
	diagnose.WalkSchemas(schema, func(s *jsonvalue.Value) {
		if edit(s) {
			found = true
		}
	})
	c.Schema = schema.Append(nil)
	return c, found
}

// withTypes is c with "type" added where its schema leaves one unsaid on
// the way to an object or array of the arguments (addTypes), and whether
// one was added.
func withTypes(c impl.Case) (impl.Case, bool) {
	schema, err := jsonvalue.Parse(c.Schema)
	if err != nil {
		return c, false
	}
	args, err := jsonvalue.Parse(c.Args)
	if err != nil || addTypes(schema, schema, args) == 0 {
		return c, false
	}
	c.Schema = schema.Append(nil)
	return c, true
}

// probed is the classification of a case, told apart further by running
// the implementation on a variant: a decode missed that types added along
// the path cure is decode-missed/untyped.
//
// A decode missed that the shortest text of its shape at the same place
// does not miss, for a string of at least LongText bytes, is
// decode-missed/long: a length limit. A string decoded where the
// reference keeps it, and decoded the same under the empty schema, is
// decoded-undeclared: the implementation reads no schema there, whatever
// the schema says (a type list, a union, a wrong shape are its details).
// A string decoded where the schema declares neither array nor object,
// that the implementation keeps once the keywords of an array's elements
// or an object's members (`items`, `properties`) are taken out there, is
// decoded-undeclared/inferred: a type inferred from those keywords, not
// decoding blind (inferredFrom).
// A string decoded where `string` is declared, not blindly, that the rule
// decodes once a keyword is taken out, and the implementation the same
// without it, is decoded-keyword-ignored (ignoredKeyword).
// A value converted inside text the rule decodes that is converted the
// same way once that text is sent decoded is coerced, not
// coerced-in-decoded (coercedWhenSent). A plain decode missed that taking
// out the string a type list or an `anyOf` branch admits cures is
// decode-missed/types-added (stringAdmitted); one that taking out a
// `$ref` with a `type` beside it cures, decode-missed/$ref-sibling
// (typeBesideRefDropped).
func probed(ctx context.Context, cfg Config, c impl.Case, want, got impl.Result) diagnose.Diagnosis {
	d := classify(c, want, got)
	if d.Class == diagnose.InDecoded.Class {
		// Text the rule decodes, sent decoded: a miss the implementation
		// makes there too is that place's miss, not one of decoded text
		// (qwen-code decodes no string element of a real array under
		// typed `items`).
		if sent, ok := decodedOnTheWay(c, d.Where); ok {
			if w, g := cfg.Want(sent), cfg.Impl.Normalize(ctx, sent); impl.Compare(g, w).Violation() {
				if p := probed(ctx, cfg, sent, w, g); p.Class != diagnose.InDecoded.Class {
					return p
				}
			}
		}
	}
	if d.Class == "coerced-in-decoded" && coercedWhenSent(ctx, cfg, c, d) {
		d.Class, d.Title = "coerced", diagnose.CoercedTitle("coerced", []string{d.Detail})
	}
	if d.Class == "no-fixpoint" {
		if again, ok := rerun(ctx, cfg, c, got); ok {
			return again
		}
	}
	switch {
	case strings.HasPrefix(d.Class, "error-for-valid-input/") && d.Clause == "reading/4":
		d = errorKeyword(ctx, cfg, c, want, got)
	case strings.HasPrefix(d.Class, "decode-missed") && surrogateMiss(ctx, cfg, c, d.Where):
		d.Class, d.Detail, d.Title, d.Clause = "decode-missed/lone-surrogate", "", "JSON text holding a lone surrogate escape (`\\ud800`), which parses, is not decoded", "reading/5"
	case d.Class == "no-error" && got.Answered() && answersOtherwise(ctx, cfg, c, got):
		// The answer shows a second bug (PHP's `{}` given as `[]`): a
		// class of its own, so that the missing error's counterexample
		// answers what the arguments repaired under `{}` are.
		d.Class, d.Title = "no-error/and-more", d.Title+", and the answer is not even the arguments repaired under `{}`"
	case (d.Class == "undecoded/named-two-code-points" || d.Class == "undecoded/named-case-variant") && !decodesHTML5Names(ctx, cfg, c.Options):
		// A table without HTML5's names (PHP's, HTML 4.01's) has none of
		// those that stand for two code points either, nor the case
		// variants HTML5 added (`&AMP;`): it is the table.
		d.Class, d.Title = "undecoded/named-not-in-table", "A named reference missing from the implementation's table is not decoded (HTML has 2,125 names)"
	case d.Class == "misdecoded" && semicolonMissed(ctx, cfg, c, d.Where):
		// `&not&#105;n;` read as "∉": `&not` was left, and the next pass
		// read `&notin;`.
		d.Class, d.Detail, d.Title = "undecoded/named-no-semicolon", "", diagnose.NoSemicolonTitle
	case d.Class == "decode-missed" && missedUnderSchema(ctx, cfg, c):
		name := diagnose.SchemaName(c.Schema)
		d.Class, d.Detail, d.Title, d.Clause = "decode-missed/$schema", name, diagnose.MissedSchemaTitle([]string{name}), "reading/4"
	case (d.Class == "decode-missed" || d.Class == "error-for-valid-input") && prototypeKey(ctx, cfg, c, got):
		names := protoNamesIn(c)
		if d.Class == "decode-missed" {
			d.Class, d.Detail, d.Title = "decode-missed/prototype-key", "", protoMissedTitle(names)
		} else {
			d.Class, d.Detail, d.Title = "error-for-valid-input/prototype-key", "", protoErrorTitle(names)
		}
	case d.Class == "decode-missed" && long(ctx, cfg, c, d.Where):
		d.Class, d.Detail, d.Title = "decode-missed/long", "", "A stringified array or object past a length is not decoded (the same shape, short, is)"
	case d.Class == "decode-missed" && untyped(ctx, cfg, c):
		d.Class, d.Detail, d.Title = untypedClass, "", untypedTitle
		if kws := untypedOnlyUnder(ctx, cfg, c); len(kws) > 0 {
			d.Detail, d.Title = strings.Join(kws, " "), untypedKeywordTitle(kws)
		}
	case d.Class == "decode-missed" && typeBesideRefDropped(ctx, cfg, c):
		d.Class, d.Detail, d.Title, d.Clause = refSiblingClass, "", refSiblingTitle, "reading/4"
	case d.Class == "decode-missed" && stringAdmitted(ctx, cfg, c):
		d.Class, d.Detail, d.Title, d.Clause = typesAddedClass, "", typesAddedTitle, "reading/4"
	case blindClasses[d.Class] && blind(ctx, cfg, c, got):
		d.Class, d.Title, d.Clause, d.Detail = "decoded-undeclared", blindTitle, "rule/2", ""
	case d.Class == "made-from-not-json/undeclared":
		// Made where the program infers a type (`""` under `{"items":{}}`
		// becomes `[]`): the inference's, where it has a root cause.
		if kws := inferredFrom(ctx, cfg, c, d.Where); len(kws) > 0 {
			d.Class, d.Detail = madeWhereInferred, strings.Join(kws, " ")
		}
	case d.Class == "decoded-undeclared":
		if kws := inferredFrom(ctx, cfg, c, d.Where); len(kws) > 0 {
			d.Class, d.Title, d.Clause, d.Detail = inferredClass, inferredTitle(kws), "reading/4", strings.Join(kws, " ")
		}
	case d.Class == "decoded-declared-string":
		if kw := ignoredKeyword(ctx, cfg, c, got); kw != "" {
			where := d.Where
			d = diagnose.Ignored(kw)
			d.Where = where
		}
	}
	return d
}

// coercedWhenSent reports whether a value converted inside text the rule
// decodes (d, of class coerced-in-decoded, on c) is converted the same
// way with that text sent decoded: the conversion is the place's, made in
// a real array as in decoded text (@openclaw/ai makes every element under
// `"items":{"type":"string"}` a string), not one of decoded text.
func coercedWhenSent(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) bool {
	sent, ok := decodedOnTheWay(c, d.Where)
	if !ok {
		return false
	}
	s := classify(sent, cfg.Want(sent), cfg.Impl.Normalize(ctx, sent))
	return s.Class == "coerced" && s.Detail == d.Detail && s.Where == d.Where
}

// ignoredKeyword names the keyword an implementation that decodes a
// string the rule keeps (got, on c) does not follow: of the notable
// keywords c's schema holds, most notable first, the first without which
// the rule decodes as the implementation did, and the implementation
// gives the same as with it. "" when there is none: the string is decoded
// for another reason (a union read wrongly). qwen-code gives a key a
// pattern matches `additionalProperties`' schema: `patternProperties` is
// what it does not follow, not a string it decodes.
func ignoredKeyword(ctx context.Context, cfg Config, c impl.Case, got impl.Result) string {
	for _, kw := range diagnose.Keywords(c.Schema) {
		without, ok := withoutKeyword(c, kw)
		if !ok || !impl.Compare(got, cfg.Want(without)).Same() {
			continue
		}
		if impl.Compare(cfg.Impl.Normalize(ctx, without), got).Same() {
			return kw
		}
	}
	return ""
}

// errorKeyword names an error for arguments the rule repairs (got, on
// c) after the schema keyword it needs: of the notable keywords the
// schema holds, most notable first, the first that taken out takes the
// error away (an answer, or an error of another shape); none when the
// same error stays without each. diagnose alone names the first the
// schema holds, which may be beside the point (`$ref` in a schema whose
// `"$schema"` is what the implementation does not know): the case could
// then not be minimized without it.
func errorKeyword(ctx context.Context, cfg Config, c impl.Case, want, got impl.Result) diagnose.Diagnosis {
	dc := diagnoseCase(c, want, got)
	shape := diagnose.ErrorShape(got.Detail)
	for _, kw := range diagnose.Keywords(c.Schema) {
		without, ok := withoutKeyword(c, kw)
		if !ok {
			continue
		}
		r := cfg.Impl.Normalize(ctx, without)
		if r.Failure != nil && r.Kind() != impl.KindNotSendable || r.Error != "" && diagnose.ErrorShape(r.Detail) == shape {
			// The same error without it, or no answer to tell. An
			// "unsupported" answer is one: the error is gone (mastra's
			// adapter says so of a validation error, once Ajv knows the
			// draft).
			continue
		}
		return diagnose.ErrorUnder(dc, kw)
	}
	return diagnose.ErrorUnder(dc, "")
}

// rerun tells decoding stopped short of the fixpoint from a reference
// the implementation never decodes: run again on what it gave, an
// implementation that stops short goes on; one at its own fixpoint
// changes nothing, and the case is the class of what it left (`&amp;#0;`
// giving `&#0;` is `&#0;` not decoded). It reports false when the second
// run changes the value, or shows no difference.
func rerun(ctx context.Context, cfg Config, c impl.Case, got impl.Result) (diagnose.Diagnosis, bool) {
	if got.Failure != nil || got.Output == nil {
		return diagnose.Diagnosis{}, false
	}
	again := c
	again.Args = got.Output
	got2 := cfg.Impl.Normalize(ctx, again)
	if !impl.Compare(got2, got).Same() {
		return diagnose.Diagnosis{}, false
	}
	d := classify(again, cfg.Want(again), got2)
	if d.Class == "same" || d.Class == "no-fixpoint" || d.Clause == "failure" {
		return diagnose.Diagnosis{}, false
	}
	return d, true
}

// inferredFrom names the keywords an implementation infers a type from
// where it decodes a string at where, on c, that the schema declares
// neither array nor object for: with the keywords of shapeKeywords taken
// out of the subschemas that apply there, the implementation keeps the
// string as the rule does; the ones named are those that, taken out
// alone, do the same (all taken out, when none does alone). None when
// the subschemas there hold none of them, or the implementation decodes
// without them as well: decoding blind, wherever, which is not a type
// inferred (nor is a string decoded under `{}`, which holds none).
func inferredFrom(ctx context.Context, cfg Config, c impl.Case, where string) []string {
	if cfg.Impl == nil || cfg.Want == nil {
		return nil
	}
	keeps := func(schema []byte) bool {
		s := c
		s.Schema = schema
		r := cfg.Impl.Normalize(ctx, s)
		return r.Failure == nil && r.Error == "" && bytes.Equal(valueAt(r.Output, where), valueAt(cfg.Want(s).Output, where))
	}
	schema, taken := diagnose.WithoutAt(c.Schema, c.Args, where, shapeKeywords)
	if len(taken) == 0 || !keeps(schema) {
		return nil
	}
	if len(taken) == 1 {
		return taken
	}
	var alone []string
	for _, kw := range taken {
		if s, _ := diagnose.WithoutAt(c.Schema, c.Args, where, []string{kw}); keeps(s) {
			alone = append(alone, kw)
		}
	}
	if len(alone) == 0 {
		return taken
	}
	return alone
}

// inferredTitle is the title of a type inferred from the keywords kws,
// in the order of shapeKeywords: the shapes it decodes are theirs.
func inferredTitle(kws []string) string {
	var shapes []string
	if slices.ContainsFunc(kws, func(kw string) bool { return slices.Contains(arrayKeywords, kw) }) {
		shapes = append(shapes, "array")
	}
	if slices.ContainsFunc(kws, func(kw string) bool { return slices.Contains(objectKeywords, kw) }) {
		shapes = append(shapes, "object")
	}
	return "A `type` is inferred from " + codeList(kws) + " where the schema declares none: a stringified " + strings.Join(shapes, " or ") + " is decoded there"
}

// codeList is names, each as code, joined by commas and a last "or".
func codeList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	if len(quoted) < 2 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

// long reports whether the string at where in c's arguments is at least
// LongText bytes and the implementation decodes "[]" or "{}" there (the
// shape the string has).
func long(ctx context.Context, cfg Config, c impl.Case, where string) bool {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return false
	}
	v := args.Resolve("#" + where)
	if v == nil || v.Kind != jsonvalue.String || len(v.Str) < LongText {
		return false
	}
	short := "[]"
	if strings.HasPrefix(strings.TrimSpace(v.Str), "{") {
		short = "{}"
	}
	v.Str = short
	s := c
	s.Args = args.Append(nil)
	return impl.Compare(cfg.Impl.Normalize(ctx, s), cfg.Want(s)).Same()
}

// answersOtherwise reports whether got, an answer where the rule rejects
// c, differs from what the arguments repaired under the schema `{}` are
// (for arguments the rule repairs under it: an object, nested within the
// limit).
func answersOtherwise(ctx context.Context, cfg Config, c impl.Case, got impl.Result) bool {
	free := c
	free.Schema = []byte(`{}`)
	w := cfg.Want(free)
	return w.Answered() && !impl.Compare(got, w).Same()
}

// decodesHTML5Names reports whether the implementation decodes `&Afr;`
// (𝔄), a name HTML5 added, of one code point, under the options o.
func decodesHTML5Names(ctx context.Context, cfg Config, o impl.Options) bool {
	c := impl.Case{Schema: []byte(`{}`), Args: []byte(`{"":"&Afr;"}`), Options: o}
	return impl.Compare(cfg.Impl.Normalize(ctx, c), cfg.Want(c)).Same()
}

// stringAt parses c's arguments and finds the string at where in them,
// for a probe to edit and send: false when there is none.
func stringAt(c impl.Case, where string) (args, v *jsonvalue.Value, ok bool) {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return nil, nil, false
	}
	v = args.Resolve("#" + where)
	return args, v, v != nil && v.Kind == jsonvalue.String
}

// surrogateMiss reports whether a decode missed at where, on c, is made
// by a lone surrogate escape in the text there (`\ud800`, which JSON's
// grammar allows and PHP's json_decode refuses): the same text with each
// lone surrogate written as another character is decoded.
func surrogateMiss(ctx context.Context, cfg Config, c impl.Case, where string) bool {
	args, v, ok := stringAt(c, where)
	if !ok {
		return false
	}
	fixed, ok := diagnose.WithoutLoneSurrogateEscapes(v.Str)
	if !ok {
		return false
	}
	v.Str = fixed
	s := c
	s.Args = args.Append(nil)
	return impl.Compare(cfg.Impl.Normalize(ctx, s), cfg.Want(s)).Same()
}

// untyped reports whether a decode missed is made on c only by types
// the schema leaves unsaid: with "type" added to each subschema on the
// way to every value of the arguments (object or array, as the value is),
// the implementation decodes.
func untyped(ctx context.Context, cfg Config, c impl.Case) bool {
	typed, ok := withTypes(c)
	return ok && impl.Compare(cfg.Impl.Normalize(ctx, typed), cfg.Want(typed)).Same()
}

// addTypes adds "type" to s, to the branches of its allOf, anyOf and
// oneOf and what its local `$ref` leads to (in root), and to the
// subschemas properties and items declare for v's members and elements,
// where they have none; it returns how many it added. A branch or a
// target that declares neither members nor items is left as it is: it
// says nothing on the way. Each subschema is visited once for each value.
func addTypes(root, s, v *jsonvalue.Value) int {
	type visit struct{ s, v *jsonvalue.Value }
	seen := map[visit]bool{}
	var add func(s, v *jsonvalue.Value, depth int) int
	add = func(s, v *jsonvalue.Value, depth int) int {
		if s == nil || s.Kind != jsonvalue.Object || depth > 64 || v.Kind != jsonvalue.Object && v.Kind != jsonvalue.Array || seen[visit{s, v}] {
			return 0
		}
		seen[visit{s, v}] = true
		added := 0
		if s.Member("type") == nil {
			s.Members = append([]jsonvalue.Member{{Key: "type", Value: &jsonvalue.Value{Kind: jsonvalue.String, Str: v.Kind.String()}}}, s.Members...)
			added++
		}
		var via []*jsonvalue.Value
		for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
			if bs := s.Member(kw); bs != nil {
				via = append(via, bs.Elems...)
			}
		}
		if r := s.Member("$ref"); r != nil && r.Kind == jsonvalue.String && strings.HasPrefix(r.Str, "#") {
			via = append(via, root.Resolve(r.Str))
		}
		for _, b := range via {
			if b.Member("properties") != nil || b.Member("items") != nil {
				added += add(b, v, depth+1)
			}
		}
		for _, m := range v.Members {
			added += add(s.Member("properties").Member(m.Key), m.Value, depth+1)
		}
		for _, e := range v.Elems {
			added += add(s.Member("items"), e, depth+1)
		}
		return added
	}
	return add(s, v, 0)
}

// typeBesideRefDropped reports whether a plain decode missed on c, whose
// schema has a `type` beside a `$ref`, is cured by taking out each such
// `$ref`: the `type` beside it is what the implementation does not read
// (qwen-code's resolvePropSchema puts the target in the schema's place).
// No request when the schema has no `type` beside a `$ref`.
func typeBesideRefDropped(ctx context.Context, cfg Config, c impl.Case) bool {
	if cfg.Impl == nil || cfg.Want == nil {
		return false
	}
	t, found := editSchemas(c, func(s *jsonvalue.Value) bool {
		if s.Member("$ref") == nil || s.Member("type") == nil {
			return false
		}
		s.Members = slices.DeleteFunc(s.Members, func(m jsonvalue.Member) bool { return m.Key == "$ref" })
		return true
	})
	return found && impl.Compare(cfg.Impl.Normalize(ctx, t), cfg.Want(t)).Same()
}

// stringAdmitted reports whether a plain decode missed on c is cured by
// taking out the string a `type` list or an `anyOf` branch admits
// beside the declared shape (withoutStringInLists), which the rule
// intersects away: the types added up (qwen-code's getAcceptedTypes adds
// an `anyOf`'s string branch to a `"type": "array"` beside it). No
// request when the schema admits no such string.
func stringAdmitted(ctx context.Context, cfg Config, c impl.Case) bool {
	t, ok := withoutStringInLists(c)
	if !ok || cfg.Impl == nil || cfg.Want == nil {
		return false
	}
	return impl.Compare(cfg.Impl.Normalize(ctx, t), cfg.Want(t)).Same()
}

// ofPlainest tells a keyword not followed from a miss behind a keyword
// the implementation follows: a decode missed behind the route d.Detail
// is put down to the route only when the implementation misses the
// plainest case of that route too (only the route's keywords between the
// root and a string of the shape, plainestRoute). When it misses that
// case, and the same case without the route's combinators and `$ref`
// as well, it is the plain miss (decode-missed: qwen-code decodes no
// string element of a real array of arrays, behind `anyOf` or not). When
// it decodes that case, the real cause is looked for on c, the finding's
// minimized case: elements a union repairs one at a time and misses
// together (decode-missed/union: @openclaw/ai's coerceWithUnionSchema
// keeps a branch's repair only where that branch validates the whole
// value); a string a `type` list admits, without which the
// implementation decodes (typesAddedClass: qwen-code's getAcceptedTypes
// adds up the types of every branch); a `$ref` followed as a plain `#/`
// pointer and missed in another form (the route's `$ref` becomes
// diagnose.RefOther); `allOf` branches read in order, which reversing
// them cures (allOfFirstClass: qwen-code's getEffectiveProperties takes
// the first branch's declaration of a member). d is returned as it is
// otherwise.
func ofPlainest(ctx context.Context, cfg Config, c impl.Case, d diagnose.Diagnosis) diagnose.Diagnosis {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return d
	}
	same := func(t impl.Case) bool {
		t.Options = c.Options
		return impl.Compare(cfg.Impl.Normalize(ctx, t), cfg.Want(t)).Same()
	}
	route := strings.Split(d.Detail, "/")
	prefix, ok := routePrefix(c, d.Where, route)
	if !ok {
		return d
	}
	p, ok := plainestRoute(prefix, route, d.Shape)
	if !ok {
		// No plainest form of the route (`items` as a list): the place
		// declared with plain nesting, missed too, is the plain miss.
		if q, ok := plainestRoute(prefix, nesting(route), d.Shape); ok && !slices.Equal(nesting(route), route) && !same(q) {
			d.Class, d.Detail, d.Title, d.Clause = "decode-missed", "", diagnose.MissedTitle(d.Shape, ""), "rule/2"
			return d
		}
		// A route with a step of no plainest form ($dynamicRef), through
		// `$ref`s none of which is a plain `#/` pointer, of an
		// implementation that follows the plain pointer: the `$ref`s'
		// form is what it misses first.
		if route[0] == "$ref" && !plainPointer(c.Schema) {
			if whole, ok := routePrefix(c, d.Where, nil); ok {
				if p, ok := plainestRoute(whole, []string{"$ref"}, d.Shape); ok && same(p) {
					return refOther(d, route)
				}
			}
		}
		return d
	}
	if !same(p) {
		// Missed there too: the keywords are not the cause when the same
		// place, declared with plain nesting alone (`properties`, `items`
		// on the way) or without the combinators and `$ref`, is missed as
		// well (an implementation that reads only the top level misses
		// everything below it, behind a keyword or not).
		plain := slices.DeleteFunc(slices.Clone(route), func(st string) bool {
			return st == "$ref" || st == "allOf" || st == "anyOf" || st == "oneOf"
		})
		for _, r := range [][]string{nesting(route), plain} {
			if r == nil || slices.Equal(r, route) {
				continue
			}
			if q, ok := plainestRoute(prefix, r, d.Shape); ok && !same(q) {
				d.Class, d.Detail, d.Title, d.Clause = "decode-missed", "", diagnose.MissedTitle(d.Shape, ""), "rule/2"
				break
			}
		}
		return d
	}
	if slices.Contains(route, "anyOf") || slices.Contains(route, "oneOf") {
		if cuts := cutElements(c, d.Where); len(cuts) > 1 && !slices.ContainsFunc(cuts, func(t impl.Case) bool { return !same(t) }) {
			d.Class, d.Detail, d.Title, d.Clause = "decode-missed/union", "", unionTitle, "reading/4"
			return d
		}
	}
	if t, ok := withoutStringInLists(c); ok && same(t) {
		d.Class, d.Detail, d.Title, d.Clause = typesAddedClass, "", typesAddedTitle, "reading/4"
		return d
	}
	if slices.Contains(route, "allOf") {
		if t, ok := reversedAllOf(c); ok && same(t) {
			d.Class, d.Detail, d.Title, d.Clause = allOfFirstClass, "", allOfFirstTitle, "reading/4"
			return d
		}
	}
	if slices.Contains(route, "$ref") {
		return refOther(d, route)
	}
	return d
}

// nesting is route with each step down made plain (`properties` for a
// member, `items` for an element) and the steps that stay in place
// (combinators, `$ref`) left out: the same place, declared the plainest
// way; nil when a step has no plain form.
func nesting(route []string) []string {
	out := []string{}
	for _, st := range route {
		switch st {
		case "properties", "additionalProperties", "patternProperties":
			out = append(out, "properties")
		case "items", "prefixItems", "items[]", "additionalItems":
			out = append(out, "items")
		case "allOf", "anyOf", "oneOf", "$ref":
		default:
			return nil
		}
	}
	return out
}

// refOther is d, a decode missed behind route, with the route's `$ref`
// steps made diagnose.RefOther.
func refOther(d diagnose.Diagnosis, route []string) diagnose.Diagnosis {
	for i, st := range route {
		if st == "$ref" {
			route[i] = diagnose.RefOther
		}
	}
	d.Detail = strings.Join(route, "/")
	d.Title = diagnose.KeywordTitle([]string{d.Detail})
	return d
}

// plainPointer reports whether the schema text holds a `$ref` that is a
// `#/` pointer without a %-escape, outside any resource an `$id` below
// the root embeds.
func plainPointer(schema []byte) bool {
	v, err := jsonvalue.Parse(schema)
	if err != nil {
		return false
	}
	var walk func(v *jsonvalue.Value, embedded bool, depth int) bool
	walk = func(v *jsonvalue.Value, embedded bool, depth int) bool {
		if depth > 200 {
			return false
		}
		if depth > 0 && (v.Member("$id") != nil || v.Member("id") != nil) {
			embedded = true
		}
		if r := v.Member("$ref"); !embedded && r != nil && r.Kind == jsonvalue.String && strings.HasPrefix(r.Str, "#/") && !strings.Contains(r.Str, "%") {
			return true
		}
		for _, m := range v.Members {
			if walk(m.Value, embedded, depth+1) {
				return true
			}
		}
		return slices.ContainsFunc(v.Elems, func(e *jsonvalue.Value) bool { return walk(e, embedded, depth+1) })
	}
	return walk(v, false, 0)
}

// routePrefix is the kinds of the containers (object or array) on the way
// to where in c's arguments, as sent, before the route begins: the steps
// of where the route's own steps (a member, an element) do not take. It
// reports false when the way passes through a string, or the route takes
// more steps than where has.
func routePrefix(c impl.Case, where string, route []string) ([]jsonvalue.Kind, bool) {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return nil, false
	}
	toks := jsonvalue.PointerTokens(where)
	n := len(toks)
	for _, st := range route {
		switch st {
		case "properties", "additionalProperties", "patternProperties", "items", "items[]", "prefixItems", "additionalItems":
			n--
		}
	}
	if n < 0 {
		return nil, false
	}
	var kinds []jsonvalue.Kind
	v := args
	for _, tok := range toks[:n] {
		if v.Kind == jsonvalue.String {
			// Text the rule decodes on the way: the container it holds
			// (its place declared plainly is a container there too).
			if v, err = jsonvalue.Parse([]byte(v.Str)); err != nil {
				return nil, false
			}
		}
		if v.Kind != jsonvalue.Object && v.Kind != jsonvalue.Array {
			return nil, false
		}
		kinds = append(kinds, v.Kind)
		if v = v.Step(tok); v == nil {
			return nil, false
		}
	}
	return kinds, true
}

// plainestRoute is the plainest case of the route (keywords and the
// "properties" and "items" steps between them, as a decode missed's
// detail gives them) to a stringified shape ("array" or "object"), as
// deep in the arguments as the finding's (prefix, the containers before
// the route: a member named "" of a typed object, or an element of a
// typed array, for each): each step its plainest (a combinator of one
// branch, a `#/$defs/…` pointer, a pattern "" that matches every key, a
// member named "", one element), and the empty text of the shape where
// the route ends, under a plain `type`. It reports false for a step it
// has no plainest form of, another shape, or a route that does not begin
// with an object at the root.
func plainestRoute(prefix []jsonvalue.Kind, route []string, shape string) (impl.Case, bool) {
	// Not empty: a program that gives `{}` as `[]` (PHP's arrays) misses
	// no declaration on `{"a":0}`.
	var text string
	switch shape {
	case "array":
		text = `"[0]"`
	case "object":
		text = `"{\"a\":0}"`
	default:
		return impl.Case{}, false
	}
	s, v := `{"type":"`+shape+`"}`, text
	var defs []string
	for i := len(route) - 1; i >= 0; i-- {
		switch st := route[i]; st {
		case "allOf", "anyOf", "oneOf":
			s = `{"` + st + `":[` + s + `]}`
		case "$ref":
			name := "t" + strconv.Itoa(len(defs))
			defs = append(defs, `"`+name+`":`+s)
			s = `{"$ref":"#/$defs/` + name + `"}`
		case "properties":
			s, v = `{"type":"object","properties":{"":`+s+`}}`, `{"":`+v+`}`
		case "additionalProperties":
			s, v = `{"type":"object","additionalProperties":`+s+`}`, `{"":`+v+`}`
		case "patternProperties":
			s, v = `{"type":"object","patternProperties":{"":`+s+`}}`, `{"":`+v+`}`
		case "items":
			s, v = `{"type":"array","items":`+s+`}`, `[`+v+`]`
		case "prefixItems":
			s, v = `{"type":"array","prefixItems":[`+s+`]}`, `[`+v+`]`
		case "":
			if len(route) > 1 {
				return impl.Case{}, false
			}
		default:
			return impl.Case{}, false
		}
	}
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] == jsonvalue.Array {
			s, v = `{"type":"array","items":`+s+`}`, `[`+v+`]`
		} else {
			s, v = `{"type":"object","properties":{"":`+s+`}}`, `{"":`+v+`}`
		}
	}
	if !strings.HasPrefix(v, "{") {
		return impl.Case{}, false
	}
	if len(defs) > 0 {
		s = s[:len(s)-1] + `,"$defs":{` + strings.Join(defs, ",") + `}}`
	}
	return impl.Case{Schema: []byte(s), Args: []byte(v)}, true
}

// cutElements is c with the array on the way to where (in the arguments
// as sent, the last one of two elements or more) cut to each of its
// elements in turn: one case for each element; none when the way has no
// such array, or passes through a string (text the rule decodes).
func cutElements(c impl.Case, where string) []impl.Case {
	args, err := jsonvalue.Parse(c.Args)
	if err != nil {
		return nil
	}
	toks := jsonvalue.PointerTokens(where)
	at, n := -1, 0 // the tokens before the array, its length
	v := args
	for i, tok := range toks {
		if v.Kind == jsonvalue.String {
			return nil
		}
		if v.Kind == jsonvalue.Array && len(v.Elems) > 1 {
			at, n = i, len(v.Elems)
		}
		if v = v.Step(tok); v == nil {
			return nil
		}
	}
	if at < 0 {
		return nil
	}
	var out []impl.Case
	for j := range n {
		a, _ := jsonvalue.Parse(c.Args)
		arr := a
		for _, tok := range toks[:at] {
			arr = arr.Step(tok)
		}
		arr.Elems = arr.Elems[j : j+1]
		t := c
		t.Args = a.Append(nil)
		out = append(out, t)
	}
	return out
}

// reversedAllOf is c with the branches of every `allOf` of its schema
// in reverse order, and whether one has two branches or more.
func reversedAllOf(c impl.Case) (impl.Case, bool) {
	return editSchemas(c, func(s *jsonvalue.Value) bool {
		a := s.Member("allOf")
		if a == nil || a.Kind != jsonvalue.Array || len(a.Elems) < 2 {
			return false
		}
		slices.Reverse(a.Elems)
		return true
	})
}

// withoutStringInLists is c with "string" taken out of every `type` list
// of its schema that names another type too, and the branches of an
// `anyOf` or `oneOf` of two branches or more that admit only a string
// taken out, and whether there was one: what the schema admits besides
// the string, which the rule intersects with the types beside it.
func withoutStringInLists(c impl.Case) (impl.Case, bool) {
	onlyString := func(b *jsonvalue.Value) bool {
		t := b.Member("type")
		switch {
		case t == nil:
			return false
		case t.Kind == jsonvalue.String:
			return t.Str == "string"
		}
		return t.Kind == jsonvalue.Array && len(t.Elems) > 0 && !slices.ContainsFunc(t.Elems, func(e *jsonvalue.Value) bool { return e.Kind != jsonvalue.String || e.Str != "string" })
	}
	return editSchemas(c, func(s *jsonvalue.Value) bool {
		found := false
		for _, kw := range []string{"anyOf", "oneOf"} {
			if u := s.Member(kw); u != nil && u.Kind == jsonvalue.Array && len(u.Elems) > 1 {
				n := len(u.Elems)
				if kept := slices.DeleteFunc(slices.Clone(u.Elems), onlyString); len(kept) > 0 {
					u.Elems = kept
					found = found || len(kept) < n
				}
			}
		}
		t := s.Member("type")
		if t == nil || t.Kind != jsonvalue.Array || len(t.Elems) < 2 {
			return found
		}
		n := len(t.Elems)
		t.Elems = slices.DeleteFunc(t.Elems, func(e *jsonvalue.Value) bool { return e.Kind == jsonvalue.String && e.Str == "string" })
		return found || len(t.Elems) < n
	})
}

// conversionCases are a value of each scalar type, as a top-level
// parameter declared of each other scalar type: a case for each
// conversion a coercing implementation may make.
var conversionCases = []struct{ typ, value string }{
	{"string", "true"}, {"string", "1"}, {"string", "null"},
	{"boolean", `"true"`}, {"boolean", "1"}, {"boolean", "null"},
	{"number", `"1"`}, {"number", "true"}, {"number", "null"},
	{"null", `""`}, {"null", "false"}, {"null", "0"},
	// An object where a scalar or an array is declared (ai-sdk-tool-parser
	// takes its one member's value, or makes an array of its values).
	{"string", `{"k":"v"}`}, {"number", `{"k":1}`}, {"boolean", `{"k":true}`}, {"null", `{"k":null}`}, {"array", `{"k":"x"}`},
}

// conversions are the conversions between scalar types the
// implementation makes (coerced details: "number to string"), each probed
// on a top-level parameter under options o, where the rule leaves the
// value as it is: a root cause of values converted names them all, not
// only those its findings happened to show (openclaw's listed 9 to 11 of
// its 12, by seed). It sends a request for each, one at a time.
func conversions(ctx context.Context, cfg Config, o impl.Options) []string {
	if cfg.Impl == nil || cfg.Want == nil {
		return nil
	}
	var out []string
	for _, cc := range conversionCases {
		if cfg.Keep != nil && !cfg.Keep() {
			return out
		}
		c := impl.Case{Schema: []byte(`{"type":"object","properties":{"p":{"type":"` + cc.typ + `"}}}`), Args: []byte(`{"p":` + cc.value + `}`), Options: o}
		if w := cfg.Want(c); !w.Answered() || !bytes.Equal(w.Output, c.Args) {
			continue // the rule changes it: no conversion to tell
		}
		got := cfg.Impl.Normalize(ctx, c)
		if !got.Answered() {
			continue
		}
		v, err := jsonvalue.Parse(got.Output)
		if err != nil || v.Kind != jsonvalue.Object || len(v.Members) != 1 || v.Members[0].Key != "p" {
			continue
		}
		from, _ := jsonvalue.Parse(c.Args)
		if v.Members[0].Value.Kind.String() == cc.typ {
			out = append(out, from.Members[0].Value.Kind.String()+" to "+cc.typ)
		}
	}
	return out
}

// protoNames are the member names a JavaScript object has from
// `Object.prototype` (`__proto__` aside: member-dropped/__proto__), and
// `prototype`, a function's, in the order a title names them: a program
// that reads members through a plain object, or guards against these,
// trips on them (qwen-code decodes no parameter named `constructor` or
// `prototype`; mastra's validation error list throws for a `toString`).
var protoNames = []string{"constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
	"toLocaleString", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__"}

// protoList writes names for a title: "`constructor` or `prototype`".
func protoList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	if len(q) > 1 {
		return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
	}
	return strings.Join(q, "")
}

// protoMissedTitle and protoErrorTitle are the titles of the classes of
// a prototypeKey cure, for the names the program trips on.
func protoMissedTitle(names []string) string {
	return "A stringified array or object is not decoded where the member is named " + protoList(names) + " (a name JavaScript objects have); under any other name it is"
}

func protoErrorTitle(names []string) string {
	return "An error where the schema's `properties` declare a member named " + protoList(names) + " (a name JavaScript objects have), which the rule repairs or passes through; renamed, there is none"
}

// protoTripped names the names of protoNames the program trips on, each
// probed as a top-level parameter (a miss: `"[1]"` declared array and
// kept a string; an error: `"x"` declared number, or a declared string
// not sent, an error that the name `k` does not get): a title names
// those, not every name JavaScript objects have (qwen-code skips
// `constructor` and `prototype`, not `toString`). It sends up to four
// requests for each name.
func protoTripped(ctx context.Context, cfg Config, o impl.Options, errors bool) []string {
	var out []string
	for _, name := range protoNames {
		if cfg.Keep != nil && !cfg.Keep() {
			break
		}
		key := string(jsonraw.AppendQuote(nil, []byte(name)))
		if !errors {
			c := impl.Case{Schema: []byte(`{"type":"object","properties":{` + key + `:{"type":"array"}}}`), Args: []byte(`{` + key + `:"[1]"}`), Options: o}
			if got := cfg.Impl.Normalize(ctx, c); got.Answered() && !impl.Compare(got, cfg.Want(c)).Same() {
				out = append(out, name)
			}
			continue
		}
		for _, p := range []struct{ typ, args string }{{"number", `:"x"}`}, {"string", ""}} {
			args := `{}`
			if p.args != "" {
				args = `{` + key + p.args
			}
			c := impl.Case{Schema: []byte(`{"type":"object","properties":{` + key + `:{"type":"` + p.typ + `"}}}`), Args: []byte(args), Options: o}
			got := cfg.Impl.Normalize(ctx, c)
			if got.Error == "" {
				continue
			}
			k := impl.Case{Schema: bytes.ReplaceAll(c.Schema, []byte(key), []byte(`"k"`)), Args: bytes.ReplaceAll(c.Args, []byte(key), []byte(`"k"`)), Options: o}
			// The same error but for the name it gives is no cure
			// ("prototype: must be number", "k: must be number").
			if r := cfg.Impl.Normalize(ctx, k); r.Kind() == impl.KindNotSendable || r.Failure == nil && (r.Error == "" || diagnose.ErrorShape(r.Detail) != diagnose.ErrorShape(strings.ReplaceAll(got.Detail, name, "k"))) {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// protoNamesIn names the names of protoNames c's arguments or its
// schema's `properties` hold, in protoNames.
func protoNamesIn(c impl.Case) []string {
	var out []string
	for _, name := range protoNames {
		key := jsonraw.AppendQuote(nil, []byte(name))
		if bytes.Contains(c.Args, key) || bytes.Contains(c.Schema, key) {
			out = append(out, name)
		}
	}
	return out
}

// missedUnderSchema reports whether the decode missed on c, whose schema
// names a `$schema`, is made once `$schema` is taken out: the
// implementation does not read the draft it names (qwen-code's Ajv knows
// draft-07 and 2020-12, and skips validation and repair under another).
func missedUnderSchema(ctx context.Context, cfg Config, c impl.Case) bool {
	if diagnose.SchemaName(c.Schema) == "" {
		return false
	}
	without, ok := withoutKeyword(c, "$schema")
	return ok && impl.Compare(cfg.Impl.Normalize(ctx, without), cfg.Want(without)).Same()
}

// prototypeKey reports whether c, on which the implementation gives got,
// holds members named by protoNames (in the arguments, or declared in
// the schema's `properties`) and renaming each, in both, cures it: the
// implementation gives the rule's answer, or, for an error, no longer
// that error (an answer "unsupported" included: mastra's adapter says so
// of the validation error it then gives). The names are the cause.
func prototypeKey(ctx context.Context, cfg Config, c impl.Case, got impl.Result) bool {
	args, err1 := jsonvalue.Parse(c.Args)
	schema, err2 := jsonvalue.Parse(c.Schema)
	if err1 != nil || err2 != nil {
		return false
	}
	used := map[string]bool{}
	var keys func(v *jsonvalue.Value, depth int)
	keys = func(v *jsonvalue.Value, depth int) {
		if depth > 200 {
			return
		}
		for _, m := range v.Members {
			used[m.Key] = true
			keys(m.Value, depth+1)
		}
		for _, e := range v.Elems {
			keys(e, depth+1)
		}
	}
	keys(args, 0)
	keys(schema, 0)
	to := map[string]string{}
	for k := range used {
		if slices.Contains(protoNames, k) {
			n := len(to)
			for used["k"+strconv.Itoa(n)] {
				n++
			}
			to[k] = "k" + strconv.Itoa(n)
			used[to[k]] = true
		}
	}
	if len(to) == 0 {
		return false
	}
	var rename func(v *jsonvalue.Value, depth int)
	rename = func(v *jsonvalue.Value, depth int) {
		if depth > 200 {
			return
		}
		for i, m := range v.Members {
			if n, ok := to[m.Key]; ok {
				v.Members[i].Key = n
			}
			rename(m.Value, depth+1)
		}
		for _, e := range v.Elems {
			rename(e, depth+1)
		}
	}
	rename(args, 0)
	diagnose.WalkSchemas(schema, func(s *jsonvalue.Value) {
		if p := s.Member("properties"); p != nil && p.Kind == jsonvalue.Object {
			for i, m := range p.Members {
				if n, ok := to[m.Key]; ok {
					p.Members[i].Key = n
				}
			}
		}
		if r := s.Member("required"); r != nil {
			for _, e := range r.Elems {
				if n, ok := to[e.Str]; ok && e.Kind == jsonvalue.String {
					e.Str = n
				}
			}
		}
	})
	renamed := c
	renamed.Args, renamed.Schema = args.Append(nil), schema.Append(nil)
	r := cfg.Impl.Normalize(ctx, renamed)
	if got.Error != "" {
		// The error as the renamed case would say it: one that only
		// names the member is the same error.
		detail := got.Detail
		for from, to := range to {
			detail = strings.ReplaceAll(detail, from, to)
		}
		return r.Kind() == impl.KindNotSendable || r.Failure == nil && (r.Error == "" || diagnose.ErrorShape(r.Detail) != diagnose.ErrorShape(detail))
	}
	return impl.Compare(r, cfg.Want(renamed)).Same()
}

// memberKeywords are the keywords other than `properties` and `items` that
// declare what a level holds, from which a program may or may not infer
// the level's type.
var memberKeywords = []string{"patternProperties", "additionalProperties", "prefixItems", "additionalItems"}

// untypedOnlyUnder names the keywords of memberKeywords in c's schema,
// where c is an untyped miss (untyped), when the implementation decodes
// below an untyped root that `properties` declares: the type it infers
// from `properties` it does not infer from those (ai-sdk-tool-parser's
// getSchemaType reads `properties` and `additionalProperties`, not
// `patternProperties`). None otherwise: nothing is decoded untyped.
func untypedOnlyUnder(ctx context.Context, cfg Config, c impl.Case) []string {
	plain := impl.Case{Schema: []byte(`{"properties":{"p":{"type":"array"}}}`), Args: []byte(`{"p":"[1]"}`), Options: c.Options}
	if !impl.Compare(cfg.Impl.Normalize(ctx, plain), cfg.Want(plain)).Same() {
		return nil
	}
	var kws []string
	for _, kw := range diagnose.Keywords(c.Schema) {
		if slices.Contains(memberKeywords, kw) {
			kws = append(kws, kw)
		}
	}
	return kws
}

// untypedKeywordTitle is the title of untyped misses under the keywords
// kws, by an implementation that decodes under an untyped `properties`.
func untypedKeywordTitle(kws []string) string {
	q := make([]string, len(kws))
	for i, k := range kws {
		q[i] = "`" + k + "`"
	}
	if len(q) == 1 {
		return "Nothing is decoded where a level's `type` is unsaid and " + q[0] + " declares what it holds: the type inferred from `properties` is not inferred from it"
	}
	return "Nothing is decoded where a level's `type` is unsaid and " + strings.Join(q, ", ") + " declare what it holds: the type inferred from `properties` is not inferred from them"
}

// semicolonMissed reports whether the string at where in c's arguments
// holds a legacy named reference without its `;` (`&not` before `&`) and
// the implementation gives the rule's answer once each such reference is
// sent decoded: text it misdecodes because it left the reference, and a
// later pass read it with what followed (`&notin;`).
func semicolonMissed(ctx context.Context, cfg Config, c impl.Case, where string) bool {
	args, v, ok := stringAt(c, where)
	if !ok {
		return false
	}
	b := []byte(v.Str)
	var out []byte
	changed := false
	for i := 0; i < len(b); i++ {
		if b[i] == '&' && i+1 < len(b) && b[i+1] != '#' {
			if r1, r2, n := entity.Decide(b[i:], entity.Text); n > 0 && b[i+n-1] != ';' {
				out = utf8.AppendRune(out, r1)
				if r2 != 0 {
					out = utf8.AppendRune(out, r2)
				}
				i += n - 1
				changed = true
				continue
			}
		}
		out = append(out, b[i])
	}
	if !changed {
		return false
	}
	v.Str = string(out)
	sent := c
	sent.Args = args.Append(nil)
	return impl.Compare(cfg.Impl.Normalize(ctx, sent), cfg.Want(sent)).Same()
}

// madeWhereInferred is the class of text that is not JSON made into a
// container where the program infers the type from keywords of elements
// or members (two faults: folded into the inference's root cause).
const madeWhereInferred = "made-from-not-json/inferred"

// keywordProbes declare array through one keyword for a top-level
// parameter p, where the plain declaration is plainProbe.
var keywordProbes = []struct{ kw, schema string }{
	{"$ref", `{"type":"object","properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"array"}}}`},
	{"patternProperties", `{"type":"object","patternProperties":{"^p$":{"type":"array"}}}`},
	{"additionalProperties", `{"type":"object","additionalProperties":{"type":"array"}}`},
	{"allOf", `{"type":"object","properties":{"p":{"allOf":[{"type":"array"}]}}}`},
	{"anyOf", `{"type":"object","properties":{"p":{"anyOf":[{"type":"array"},{"type":"null"}]}}}`},
	{"oneOf", `{"type":"object","properties":{"p":{"oneOf":[{"type":"array"},{"type":"null"}]}}}`},
}

const plainProbe = `{"type":"object","properties":{"p":{"type":"array"}}}`

// keywordsMissed names the keywords of keywordProbes the implementation
// does not follow, probed under options o: where it decodes "[1]" under a
// plain `type`, it keeps it a string under the keyword, and does under
// `"$schema"` 2020-12 too (else it is the draft's). A keyword root cause's
// title names them all, not only those its findings happened to show
// (n8n-mcp's left out `oneOf`), the same at every seed. None when the
// plain declaration is missed: the keywords say nothing then.
func keywordsMissed(ctx context.Context, cfg Config, o impl.Options) []string {
	if cfg.Impl == nil || cfg.Want == nil {
		return nil
	}
	args := []byte(`{"p":"[1]"}`)
	missed := func(schema []byte) bool {
		c := impl.Case{Schema: schema, Args: args, Options: o}
		got := cfg.Impl.Normalize(ctx, c)
		return got.Answered() && bytes.Equal(valueAt(got.Output, "/p"), []byte(`"[1]"`)) && !impl.Compare(got, cfg.Want(c)).Same()
	}
	if cfg.Keep != nil && !cfg.Keep() || missed([]byte(plainProbe)) {
		return nil
	}
	var out []string
	for _, kp := range keywordProbes {
		if cfg.Keep != nil && !cfg.Keep() {
			break
		}
		c := impl.Case{Schema: []byte(kp.schema), Args: args, Options: o}
		if !missed(c.Schema) {
			continue
		}
		if explicit, ok := withDraft(c); ok && !missed(explicit.Schema) {
			continue // followed under 2020-12: the draft's
		}
		out = append(out, kp.kw)
	}
	return out
}

// nullKept reports whether the implementation keeps a `null` member the
// schema admits (under `{}`), probed under options o: then its dropping
// a `null` is where the schema does not admit it (mastra's validate mode).
func nullKept(ctx context.Context, cfg Config, o impl.Options) bool {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return false
	}
	c := impl.Case{Schema: []byte(`{"type":"object","properties":{"a":{}}}`), Args: []byte(`{"a":null}`), Options: o}
	return impl.Compare(cfg.Impl.Normalize(ctx, c), cfg.Want(c)).Same()
}

// blindScalars reports whether the implementation decodes a string of a
// scalar's JSON (`"1"`) under `{}`, probed under options o: a blind
// decoding's title says "a string" then, else "a stringified array or
// object" (notion-mcp-server keeps `"1"` and `"true"`).
func blindScalars(ctx context.Context, cfg Config, o impl.Options) bool {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return true
	}
	c := impl.Case{Schema: []byte(`{"type":"object"}`), Args: []byte(`{"p":"1","q":"true"}`), Options: o}
	return !impl.Compare(cfg.Impl.Normalize(ctx, c), cfg.Want(c)).Same()
}

// plainCycleAnswered reports whether the implementation answers, as the
// rule does, a schema whose `$ref` leads straight back to itself, probed
// under options o: its error under a cycle is then one through a
// combinator (qwen-code's through `allOf`).
func plainCycleAnswered(ctx context.Context, cfg Config, o impl.Options) bool {
	if cfg.Impl == nil || cfg.Want == nil || cfg.Keep != nil && !cfg.Keep() {
		return false
	}
	c := impl.Case{Schema: []byte(`{"type":"object","$defs":{"a":{"$ref":"#/$defs/a"}},"properties":{"p":{"$ref":"#/$defs/a"}}}`), Args: []byte(`{"p":"[1]"}`), Options: o}
	return impl.Compare(cfg.Impl.Normalize(ctx, c), cfg.Want(c)).Same()
}
