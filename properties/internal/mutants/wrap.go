package mutants

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// The three ways to wrap the reference: change the options, rewrite the
// schema, rewrite the output.

type normalizeFunc = func(ctx context.Context, c impl.Case) impl.Result

// withOptions is the reference run with changed options.
func withOptions(change func(o *impl.Options)) normalizeFunc {
	return func(ctx context.Context, c impl.Case) impl.Result {
		schema, args, o := c.Schema, c.Args, c.Options
		change(&o)
		return impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
	}
}

// withSchema is the reference run on a schema that rewrite changed: rewrite
// is called on every object in the schema document (also on objects that
// are not schemas, such as enum values: the reference does not read
// those). A broken schema gets the reference's error; a rewrite that
// breaks the schema (a $ref into a removed keyword) gets the reference's
// result.
func withSchema(rewrite func(obj *jsonvalue.Value)) normalizeFunc {
	return func(ctx context.Context, c impl.Case) impl.Result {
		schema, args, o := c.Schema, c.Args, c.Options
		ref := impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
		if ref.Error == impl.ErrInvalidSchema {
			return ref
		}
		doc, err := jsonvalue.Parse(schema)
		if err != nil {
			return ref
		}
		_ = each(doc, func(v *jsonvalue.Value) error {
			if v.Kind == jsonvalue.Object {
				rewrite(v)
			}
			return nil
		})
		got := impl.Reference.Normalize(ctx, impl.Case{Schema: doc.Append(nil), Args: args, Options: o})
		if got.Error == impl.ErrInvalidSchema {
			return ref
		}
		return got
	}
}

// withOutput is the reference with its output rewritten: rewrite is called
// on every value in it, an object before its members. An error from
// rewrite is an invalid-json result.
func withOutput(rewrite func(v *jsonvalue.Value, o impl.Options) error) normalizeFunc {
	return func(ctx context.Context, c impl.Case) impl.Result {
		schema, args, o := c.Schema, c.Args, c.Options
		ref := impl.Reference.Normalize(ctx, impl.Case{Schema: schema, Args: args, Options: o})
		if ref.Error != "" {
			return ref
		}
		out, err := jsonvalue.Parse(ref.Output)
		if err != nil {
			return ref
		}
		if err := each(out, func(v *jsonvalue.Value) error { return rewrite(v, o) }); err != nil {
			return impl.Result{Error: impl.ErrInvalidJSON, Detail: err.Error()}
		}
		return impl.Result{Output: out.Append(nil)}
	}
}

// each calls f on v and then on every value below it.
func each(v *jsonvalue.Value, f func(v *jsonvalue.Value) error) error {
	if err := f(v); err != nil {
		return err
	}
	for _, e := range v.Elems {
		if err := each(e, f); err != nil {
			return err
		}
	}
	for _, m := range v.Members {
		if err := each(m.Value, f); err != nil {
			return err
		}
	}
	return nil
}

// Schema rewrites.

// dropMembers removes the members named key whose value is of kind k.
func dropMembers(key string, k jsonvalue.Kind) func(obj *jsonvalue.Value) {
	return func(obj *jsonvalue.Value) {
		obj.Members = slices.DeleteFunc(obj.Members, func(m jsonvalue.Member) bool {
			return m.Key == key && m.Value.Kind == k
		})
	}
}

// neutralizeAnyOf appends the branch true to every anyOf and oneOf. A union
// with a branch that says nothing says nothing, about the type and about
// children (docs/readings.md section 4): the keyword then contributes
// nothing, as if it were ignored, while its branches are still compiled
// and $refs into them still resolve.
func neutralizeAnyOf(obj *jsonvalue.Value) {
	for _, m := range obj.Members {
		if (m.Key == "anyOf" || m.Key == "oneOf") && m.Value.Kind == jsonvalue.Array {
			m.Value.Elems = append(m.Value.Elems, &jsonvalue.Value{Kind: jsonvalue.Bool, Bool: true})
		}
	}
}

// dropStringType removes "string" from every type: "string" becomes [],
// ["string","array"] becomes ["array"]. Whether string is admitted matters
// to nothing but the JSON repair (a string value has no children), so
// this changes nothing else.
func dropStringType(obj *jsonvalue.Value) {
	isString := func(v *jsonvalue.Value) bool { return v.Kind == jsonvalue.String && v.Str == "string" }
	for _, m := range obj.Members {
		if m.Key != "type" {
			continue
		}
		switch {
		case isString(m.Value):
			*m.Value = jsonvalue.Value{Kind: jsonvalue.Array, Elems: []*jsonvalue.Value{}}
		case m.Value.Kind == jsonvalue.Array:
			m.Value.Elems = slices.DeleteFunc(m.Value.Elems, isString)
		}
	}
}

// Output rewrites.

// decodeKeys decodes the references in object keys as the reference does
// in string values.
func decodeKeys(v *jsonvalue.Value, o impl.Options) error {
	for i, m := range v.Members {
		v.Members[i].Key, _ = referenceDecode(m.Key, o)
	}
	return nil
}

// viaFloat64 reads numbers into a float64 and writes them back as
// encoding/json does, failing as it does on numbers past float64.
func viaFloat64(v *jsonvalue.Value, _ impl.Options) error {
	if v.Kind != jsonvalue.Number {
		return nil
	}
	f, err := strconv.ParseFloat(v.Number, 64)
	if err != nil {
		return fmt.Errorf("json: cannot unmarshal number %s into Go value of type float64", v.Number)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	v.Number = string(b)
	return nil
}

// trimStrings trims the whitespace around string values.
func trimStrings(v *jsonvalue.Value, _ impl.Options) error {
	if v.Kind == jsonvalue.String {
		v.Str = strings.TrimSpace(v.Str)
	}
	return nil
}

// sortMembers orders members by key and keeps only the last of duplicates,
// as decoding into a Go map and encoding it does.
func sortMembers(v *jsonvalue.Value, _ impl.Options) error {
	if v.Kind != jsonvalue.Object {
		return nil
	}
	last := map[string]*jsonvalue.Value{}
	for _, m := range v.Members {
		last[m.Key] = m.Value
	}
	v.Members = v.Members[:0]
	for k, val := range last {
		v.Members = append(v.Members, jsonvalue.Member{Key: k, Value: val})
	}
	slices.SortFunc(v.Members, func(a, b jsonvalue.Member) int { return cmp.Compare(a.Key, b.Key) })
	return nil
}

// surrogatesToFFFD replaces lone surrogates (kept as WTF-8, three bytes
// starting 0xED 0xA0-0xBF) in strings and keys with U+FFFD, as
// encoding/json does.
func surrogatesToFFFD(v *jsonvalue.Value, _ impl.Options) error {
	fix := func(s string) string {
		var b strings.Builder
		for i := 0; i < len(s); {
			if s[i] == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 {
				b.WriteRune(utf8.RuneError)
				i += 3
				continue
			}
			b.WriteByte(s[i])
			i++
		}
		return b.String()
	}
	v.Str = fix(v.Str)
	for i, m := range v.Members {
		v.Members[i].Key = fix(m.Key)
	}
	return nil
}
