package explain

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/normalize"
)

// vendorKeys repairs as the reference does, but passes the strings of
// members whose name starts with x- through as sent: a bug of some names,
// which shows in one case as whatever class the string's repair has.
var vendorKeys = impl.Func("vendor keys", func(ctx context.Context, c impl.Case) impl.Result {
	r := impl.Reference.Normalize(ctx, c)
	out, err1 := jsonvalue.Parse(r.Output)
	sent, err2 := jsonvalue.Parse(c.Args)
	if !r.Answered() || err1 != nil || err2 != nil || out.Kind != jsonvalue.Object || sent.Kind != jsonvalue.Object {
		return r
	}
	for i, m := range out.Members {
		if s := sent.Member(m.Key); strings.HasPrefix(m.Key, "x-") && s != nil && s.Kind == jsonvalue.String {
			out.Members[i].Value = s
		}
	}
	return impl.OK(out.Append(nil))
})

// refDeclared repairs as the reference does, but passes the strings of
// members declared by a $ref through as sent: a bug of what the schema
// declares for them.
var refDeclared = impl.Func("ref declared", func(ctx context.Context, c impl.Case) impl.Result {
	r := impl.Reference.Normalize(ctx, c)
	out, err1 := jsonvalue.Parse(r.Output)
	sent, err2 := jsonvalue.Parse(c.Args)
	schema, err3 := jsonvalue.Parse(c.Schema)
	if !r.Answered() || err1 != nil || err2 != nil || err3 != nil || out.Kind != jsonvalue.Object || schema.Kind != jsonvalue.Object {
		return r
	}
	props := schema.Member("properties")
	for i, m := range out.Members {
		if props == nil {
			break
		}
		if d, s := props.Member(m.Key), sent.Member(m.Key); d != nil && d.Member("$ref") != nil && s != nil && s.Kind == jsonvalue.String {
			out.Members[i].Value = s
		}
	}
	return impl.OK(out.Append(nil))
})

// TestMemberNames: a bug of some members' names is titled by the name,
// not by the class of what differs under it (a named reference "missing
// from the table" that the implementation decodes under any other name);
// a bug that shows under every name keeps its class; and a name the
// schema reads otherwise is not renamed away.
func TestMemberNames(t *testing.T) {
	tests := []struct {
		name         string
		im           impl.Impl
		schema, args string
		title        string // what the title says, "": not a member name's
	}{
		// Minimized, the name is x- (what the bug needs).
		{"vendor key", vendorKeys, `{}`, `{"x-a&":"&mp;","b":"&mp;"}`, "The member named `x-` is not answered"},
		{"vendor key, declared", vendorKeys, `{"properties":{"x-ab":{"type":"string"}}}`, `{"x-ab":"a&amp;b"}`, "The member named `x-` is not answered"},
		{"vendor key, a pattern", vendorKeys, `{"patternProperties":{"^x-":{"type":"array"}}}`, `{"x-ab":"[1]"}`, "The member named `x-` is not answered"},
		{"every name", impl.Func("no entities", func(ctx context.Context, c impl.Case) impl.Result {
			c.Options.Repairs = 1 // JSON only
			return impl.Reference.Normalize(ctx, c)
		}), `{}`, `{"x-a":"&mp;"}`, ""},
		{"declared by a $ref", refDeclared, `{"properties":{"a":{"$ref":"#/$defs/s"}},"$defs":{"s":{"type":"string"}}}`, `{"a":"&mp;"}`, "The member `\"\"` (the empty name) is not answered as it is with nothing declared for it"},
		// Undeclared, the reference leaves the string: the declaration is
		// the rule's, and nothing is said of it.
		{"declared array by a $ref", refDeclared, `{"properties":{"a":{"$ref":"#/$defs/s"}},"$defs":{"s":{"type":"array"}}}`, `{"a":"[1]"}`, ""},
		// The JSON repair needs the declaration: an implementation that
		// decodes what is not JSON where an array is declared is not
		// "fixed" by taking the declaration away.
		{"not JSON decoded", impl.Func("trims and decodes", func(ctx context.Context, c impl.Case) impl.Result {
			args, err := jsonvalue.Parse(c.Args)
			if err != nil || args.Kind != jsonvalue.Object || !bytes.Contains(c.Schema, []byte(`"array"`)) {
				return impl.Reference.Normalize(ctx, c)
			}
			for i, m := range args.Members {
				if m.Value.Kind == jsonvalue.String && strings.HasPrefix(m.Value.Str, "\u00a0[") {
					v, err := jsonvalue.Parse([]byte(strings.TrimPrefix(m.Value.Str, "\u00a0")))
					if err == nil {
						args.Members[i].Value = v
					}
				}
			}
			return impl.OK(args.Append(nil))
		}), `{"properties":{"a":{"type":"array"}}}`, `{"a":"\u00a0[1]"}`, ""},
		// Under patternProperties the name decides the declaration: the
		// reference answers otherwise once renamed, so nothing is said of
		// an implementation that does not read the pattern.
		{"pattern not read", deviation.ByID("ignores-patternproperties").Impl(), `{"patternProperties":{"^x-":{"type":"array"}}}`, `{"x-ab":"[1]"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args)}
			got, w := tt.im.Normalize(ctx, c), want(c)
			if impl.Compare(got, w).Same() {
				t.Fatalf("%s on %s: no difference to explain", tt.im.Name(), tt.args)
			}
			rcs := Explain(ctx, Config{Impl: tt.im, Want: want, Keep: func() bool { return true }}, []Finding{{Source: Vector, ID: "v", Case: c, Want: w, Got: got, Clause: "rule/4"}})
			if len(rcs) != 1 {
				t.Fatalf("%d root causes", len(rcs))
			}
			rc := rcs[0]
			named := strings.HasPrefix(rc.Class, "member-")
			if tt.title == "" && named || tt.title != "" && !strings.HasPrefix(rc.Title, tt.title) {
				t.Errorf("%s: %q (%s), want %q", tt.args, rc.Title, rc.Class, tt.title)
			}
			if err := CheckTitle(ctx, tt.im, want, rc); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestRenameProbe: the member where points into is renamed, with its
// declaration; not where the schema reads the new name otherwise, where
// there is no member to rename, or where the name cannot be quoted.
func TestRenameProbe(t *testing.T) {
	tests := []struct {
		schema, args, where string
		schemaAfter, args2  string // "": not ok
	}{
		{`{}`, `{"x-a":"&amp;","b":1}`, "/x-a", `{}`, `{"k":"&amp;","b":1}`},
		{`{"properties":{"x-a":{"type":"array"},"k":{}}}`, `{"x-a":"[1]","k":2}`, "/x-a/0", `{"properties":{"k1":{"type":"array"},"k":{}}}`, `{"k1":"[1]","k":2}`},
		{`{"patternProperties":{"^x-":{"type":"array"}}}`, `{"x-a":"[1]"}`, "/x-a", "", ""},
		// A pattern is no name: the empty one, which every name matches,
		// declares the member under its new name too.
		{`{"patternProperties":{"":{"type":"array"}}}`, `{"":"[]"}`, "/", `{"patternProperties":{"":{"type":"array"}}}`, `{"k":"[]"}`},
		{`{}`, `{"a/b":"&amp;"}`, "/a~1b", `{}`, `{"k":"&amp;"}`},
		{`{}`, `{"a":"&amp;"}`, "", "", ""},
		{`{}`, `{"":"&amp;"}`, "/", `{}`, `{"k":"&amp;"}`},
		{`{}`, "{\"a`b\":\"&amp;\"}", "/a`b", "", ""},
		{`{}`, `["&amp;"]`, "/0", "", ""},
		// Declared elsewhere than the root's properties (an embedded
		// resource's, which the rename would not follow): not renamed.
		{`{"$defs":{"r":{"$id":"https://x.test/r","properties":{"a":{"type":"string"}}}},"$ref":"https://x.test/r"}`, `{"a":"[1]"}`, "/a", "", ""},
		{`{"properties":{"b":{"properties":{"a":{}}}}}`, `{"a":"&amp;"}`, "/a", "", ""},
	}
	for _, tt := range tests {
		c := impl.Case{Schema: []byte(tt.schema), Args: []byte(tt.args)}
		key, ok := memberAt(tt.where)
		renamed, w := c, impl.Result{}
		if ok {
			renamed, w, ok = renameProbe(c, want(c), key, want)
		}
		if ok != (tt.args2 != "") || ok && (string(renamed.Schema) != tt.schemaAfter || string(renamed.Args) != tt.args2 || !impl.Same(w, want(renamed))) {
			t.Errorf("%s %s at %q: %q %s %s %v", tt.schema, tt.args, tt.where, key, renamed.Schema, renamed.Args, ok)
		}
	}
}

// renumbered repairs as the reference does, then renumbers the integer
// keys of the arguments from 0 in their order, keeping their values where
// they are (PHP's array_merge).
var renumbered = impl.Func("renumbered", func(ctx context.Context, c impl.Case) impl.Result {
	r := impl.Reference.Normalize(ctx, c)
	out, err := jsonvalue.Parse(r.Output)
	if !r.Answered() || err != nil || out.Kind != jsonvalue.Object {
		return r
	}
	n := 0
	for i, m := range out.Members {
		if _, err := strconv.ParseUint(m.Key, 10, 32); err == nil {
			out.Members[i].Key = strconv.Itoa(n)
			n++
		}
	}
	return impl.OK(out.Append(nil))
})

// TestDistinctValues: a counterexample whose values are alike shows keys
// renumbered as keys reordered (a lossy reading of the adapter's); made
// different, they show what happened, and the two findings are one cause.
func TestDistinctValues(t *testing.T) {
	var fs []Finding
	for i, args := range []string{`{"1":[],"0":[]}`, `{"2":""}`} {
		c := impl.Case{Schema: []byte(`{}`), Args: []byte(args)}
		fs = append(fs, Finding{Source: Vector, ID: strconv.Itoa(i), Case: c, Want: want(c), Got: renumbered.Normalize(ctx, c), Clause: "rule/5"})
	}
	rcs := Explain(ctx, Config{Impl: renumbered, Want: want, Keep: func() bool { return true }}, fs)
	if len(rcs) != 1 || rcs[0].Class != "key-changed" || rcs[0].Count() != 2 {
		var got []string
		for _, rc := range rcs {
			got = append(got, rc.Class+": "+rc.Title)
		}
		t.Fatalf("root causes %q, want one key-changed of both findings", got)
	}
	if _, ok := distinctValues(impl.Case{Args: []byte(`{"a":[],"b":{},"c":1}`)}); ok {
		t.Error("values all different made different")
	}
	if c, ok := distinctValues(impl.Case{Args: []byte(`{"a":[],"b":"x","c":{"d":null,"e":null},"f":[]}`)}); !ok || string(c.Args) != `{"a":1,"b":"x","c":{"d":2,"e":3},"f":4}` {
		t.Errorf("distinctValues = %s, %v", c.Args, ok)
	}
}

// failsOnNames answers as the reference does, but fails (an error answer)
// where a member of the arguments or of the schema's properties has one
// of names: a bug of some names that shows as an error, with no place in
// the output to point at.
func failsOnNames(names ...string) impl.Impl {
	return impl.Func("fails on names", func(ctx context.Context, c impl.Case) impl.Result {
		for _, n := range names {
			q := []byte(strconv.Quote(n) + ":")
			if bytes.Contains(c.Args, q) || bytes.Contains(c.Schema, q) {
				return impl.Result{Error: impl.ErrorKind("invalid-arguments"), Detail: "Cannot read properties of undefined (reading 'push')"}
			}
		}
		return impl.Reference.Normalize(ctx, c)
	})
}

// TestErrorNames: an error the implementation gives where the reference
// answers is titled by the one name whose rename cures it, sent or only
// declared, the names every JavaScript object inherits as one class whose
// title lists the names shown; an error every name gives keeps its class.
func TestErrorNames(t *testing.T) {
	tests := []struct {
		name  string
		im    impl.Impl
		cases [][2]string // schema, arguments
		class string
		title []string // what the title says
	}{
		{"declared, not sent", failsOnNames("toString"), [][2]string{{`{"properties":{"toString":{"type":"number"}}}`, `{}`}},
			"member-name/prototype/error", []string{"`toString`"}},
		{"two of Object.prototype's, one cause", failsOnNames("toString", "constructor"), [][2]string{{`{}`, `{"toString":"x","b":1}`}, {`{"properties":{"a":{}}}`, `{"a":2,"constructor":[]}`}},
			"member-name/prototype/error", []string{"`constructor`, `toString`"}},
		{"another name", failsOnNames("secret"), [][2]string{{`{}`, `{"b":"x","secret":1}`}},
			"member-name/error-for-valid-input", []string{"a member named `secret`"}},
		{"every name", impl.Func("fails on members", func(ctx context.Context, c impl.Case) impl.Result {
			if bytes.Contains(c.Args, []byte(":")) {
				return impl.Result{Error: impl.ErrorKind("invalid-arguments"), Detail: "no"}
			}
			return impl.Reference.Normalize(ctx, c)
		}), [][2]string{{`{}`, `{"toString":"x"}`}}, "error-for-valid-input", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fs []Finding
			for i, sa := range tt.cases {
				c := impl.Case{Schema: []byte(sa[0]), Args: []byte(sa[1])}
				got, w := tt.im.Normalize(ctx, c), want(c)
				if impl.Compare(got, w).Same() {
					t.Fatalf("%s on %s: no difference to explain", tt.im.Name(), sa[1])
				}
				fs = append(fs, Finding{Source: Vector, ID: strconv.Itoa(i), Case: c, Want: w, Got: got, Clause: "reading/8"})
			}
			rcs := Explain(ctx, Config{Impl: tt.im, Want: want, Keep: func() bool { return true }}, fs)
			if len(rcs) != 1 {
				t.Fatalf("%d root causes, want 1", len(rcs))
			}
			rc := rcs[0]
			if rc.Class != tt.class {
				t.Errorf("class %s (%q), want %s", rc.Class, rc.Title, tt.class)
			}
			for _, w := range tt.title {
				if !strings.Contains(rc.Title, w) {
					t.Errorf("title %q does not say %q", rc.Title, w)
				}
			}
			if err := CheckTitle(ctx, tt.im, want, rc); err != nil {
				t.Error(err)
			}
		})
	}
}

// urlAttribute repairs as the reference does, but decodes the references
// of a string that looks like a URL as in an attribute value, as a
// normalizer that "protects query strings" does.
var urlAttribute = impl.Func("url attribute", func(ctx context.Context, c impl.Case) impl.Result {
	if bytes.Contains(c.Args, []byte(`"http`)) {
		c.Options.Profile = normalize.Attribute
	}
	return impl.Reference.Normalize(ctx, c)
})

// TestInContext: a reference decoded wrong in some strings only, by the
// text before it, is titled so (the same string from its first '&' on is
// answered right); one decoded wrong wherever it is keeps its class.
func TestInContext(t *testing.T) {
	tests := []struct {
		im      impl.Impl
		args    string
		context bool
	}{
		{urlAttribute, `{"u":"http://x.test/?a=1&not=2"}`, true},
		{deviation.ByID("entities-named-semicolon-required").Impl(), `{"u":"ab &not x"}`, false},
		{urlAttribute, `{"u":"&not=2"}`, false}, // nothing before it: no probe
	}
	for _, tt := range tests {
		c := impl.Case{Schema: []byte(`{}`), Args: []byte(tt.args)}
		got, w := tt.im.Normalize(ctx, c), want(c)
		if tt.args == `{"u":"&not=2"}` {
			if !impl.Compare(got, w).Same() {
				t.Errorf("%s: %s differs from the reference", tt.im.Name(), tt.args)
			}
			continue
		}
		rcs := Explain(ctx, Config{Impl: tt.im, Want: want, Keep: func() bool { return true }}, []Finding{{Source: Vector, ID: "v", Case: c, Want: w, Got: got, Clause: "reading/1"}})
		if len(rcs) != 1 {
			t.Fatalf("%s: %d root causes", tt.args, len(rcs))
		}
		if in := strings.HasPrefix(rcs[0].Class, "in-context/"); in != tt.context {
			t.Errorf("%s %s: %s %q, in context %v, want %v", tt.im.Name(), tt.args, rcs[0].Class, rcs[0].Title, in, tt.context)
		}
		if err := CheckTitle(ctx, tt.im, want, rcs[0]); err != nil {
			t.Error(err)
		}
	}
}

// TestSomeFixpoints: decoding stopped short of the fixpoint in some text
// only, where `&amp;amp;` is decoded to `&`, is not titled "decoded once";
// a decoder that makes one pass everywhere keeps that title.
func TestSomeFixpoints(t *testing.T) {
	shortOnSemicolons := impl.Func("short on &#59;", func(ctx context.Context, c impl.Case) impl.Result {
		if bytes.Contains(c.Args, []byte("&#59;")) {
			c.Options.MaxPasses = 1
		}
		return impl.Reference.Normalize(ctx, c)
	})
	onePass := impl.Func("one pass", func(ctx context.Context, c impl.Case) impl.Result {
		c.Options.MaxPasses = 1
		return impl.Reference.Normalize(ctx, c)
	})
	for _, tt := range []struct {
		im   impl.Impl
		some bool
	}{{shortOnSemicolons, true}, {onePass, false}} {
		c := impl.Case{Schema: []byte(`{}`), Args: []byte(`{"t":"&rightarrow&#59;"}`)}
		got, w := tt.im.Normalize(ctx, c), want(c)
		rcs := Explain(ctx, Config{Impl: tt.im, Want: want, Keep: func() bool { return true }}, []Finding{{Source: Vector, ID: "v", Case: c, Want: w, Got: got, Clause: "rule/4"}})
		if len(rcs) != 1 {
			t.Fatalf("%s: %d root causes", tt.im.Name(), len(rcs))
		}
		if some := strings.HasSuffix(rcs[0].Class, "/some"); some != tt.some {
			t.Errorf("%s: %s %q", tt.im.Name(), rcs[0].Class, rcs[0].Title)
		}
		if err := CheckTitle(ctx, tt.im, want, rcs[0]); err != nil {
			t.Error(err)
		}
	}
}
