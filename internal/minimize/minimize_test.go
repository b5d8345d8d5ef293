package minimize_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
	"github.com/toolnorm/toolnorm/internal/minimize"
)

// decodes says whether the reference changes the arguments under the
// schema: an implementation that changes nothing fails there.
func decodes(schema, args []byte) bool {
	r := impl.Reference.Normalize(context.Background(), impl.Case{Schema: schema, Args: args})
	if !r.Answered() {
		return false
	}
	eq, err := jsonvalue.EqualJSON(r.Output, args)
	return err == nil && !eq
}

// decodesTo says whether the reference gives a value of kind k at the
// member key of the output.
func decodesTo(key string, k jsonvalue.Kind) func(schema, args []byte) bool {
	return func(schema, args []byte) bool {
		r := impl.Reference.Normalize(context.Background(), impl.Case{Schema: schema, Args: args})
		if !r.Answered() {
			return false
		}
		v, err := jsonvalue.Parse(r.Output)
		if err != nil || v.Kind != jsonvalue.Object {
			return false
		}
		for _, m := range v.Members {
			if m.Key == key || key == "*" {
				return m.Value.Kind == k
			}
		}
		return false
	}
}

// lost says whether the reference's output has the text c (as JSON
// writes it) where the arguments do not: an implementation that loses what a reference stands
// for fails there.
func lost(schema, args []byte, c string) bool {
	r := impl.Reference.Normalize(context.Background(), impl.Case{Schema: schema, Args: args})
	return r.Answered() && strings.Contains(string(r.Output), c) && !strings.Contains(string(args), c)
}

// decodedInside says whether the reference repairs what a decoded string
// holds: the first member's value, text of an array, decodes to an array
// whose first element is a container.
func decodedInside(schema, args []byte) bool {
	r := impl.Reference.Normalize(context.Background(), impl.Case{Schema: schema, Args: args})
	if !r.Answered() {
		return false
	}
	in, err := jsonvalue.Parse(args)
	if err != nil || in.Kind != jsonvalue.Object || len(in.Members) == 0 || in.Members[0].Value.Kind != jsonvalue.String {
		return false
	}
	v, err := jsonvalue.Parse(r.Output)
	if err != nil || v.Kind != jsonvalue.Object || len(v.Members) == 0 {
		return false
	}
	a := v.Members[0].Value
	return a.Kind == jsonvalue.Array && len(a.Elems) > 0 && (a.Elems[0].Kind == jsonvalue.Object || a.Elems[0].Kind == jsonvalue.Array)
}

func TestMinimizeSteps(t *testing.T) {
	tests := []struct {
		name                 string
		schema, args         string
		fails                func(schema, args []byte) bool
		wantSchema, wantArgs string
	}{
		{"drop a member, shorten a key and a string", `{}`, `{"a":1,"b":"x &amp; y","c":[1,2]}`, decodes,
			`{}`, `{"":"&mp;"}`},
		{"shorten a key: keys with references in them are no key decoding", `{}`, `{"&amp;":"&#0"}`,
			func(_, a []byte) bool { return strings.Contains(string(a), `:"&#0"`) }, `{}`, `{"":"&#0"}`},
		{"lift a container, the schema following", `{"properties":{"a":{"type":"object","properties":{"p":{"type":"array"}}}}}`, `{"a":{"p":"[1]","q":1}}`,
			decodes, `{"properties":{"":{"type":"array"}}}`, `{"":"[]"}`},
		{"inline a $ref, and stringified JSON escaped as references", `{"properties":{"p":{"$ref":"#/$defs/m"}},"$defs":{"m":{"type":"object","title":"x"}}}`, `{"p":"{&quot;&quot;:&quot;&quot;}"}`,
			decodesTo("*", jsonvalue.Object), `{"properties":{"":{"type":"object"}}}`, `{"":"{}"}`},
		{"replace a subschema by one branch", `{"properties":{"p":{"anyOf":[{"type":"null"},{"type":"array","items":{"type":"integer"}}]}}}`, `{"p":"[1,2]"}`,
			decodesTo("*", jsonvalue.Array), `{"properties":{"":{"type":"array"}}}`, `{"":"[]"}`},
		{"replace a subschema by {}", `{"properties":{"p":{"type":"array"},"q":{"type":"string","minLength":2}}}`, `{"p":"[]"}`,
			func(s, a []byte) bool { return decodes(s, a) && strings.Contains(string(s), `"q":`) },
			`{"properties":{"":{"type":"array"},"q":{}}}`, `{"":"[]"}`},
		{"shorten a key of patternProperties", `{"patternProperties":{"_json$":{"type":"array"}}}`, `{"ops_json":"[1]"}`,
			decodes, `{"patternProperties":{"":{"type":"array"}}}`, `{"":"[]"}`},
		{"simplify a number", `{}`, `{"n":12345.678,"m":[true]}`,
			func(_, a []byte) bool {
				v, _ := jsonvalue.Parse(a)
				return v != nil && len(v.Members) > 0 && v.Members[0].Value.Kind == jsonvalue.Number && v.Members[0].Value.Number != "0"
			},
			`{}`, `{"":1}`},
		{"shrink JSON inside a string", `{"properties":{"p":{"type":"object"}}}`, `{"p":"{\"a\":[1,2,{\"b\":\"x&amp;\"}],\"c\":2}"}`,
			func(s, a []byte) bool {
				return decodesTo("*", jsonvalue.Object)(s, a) && strings.Contains(string(a), "&amp")
			},
			`{"properties":{"":{"type":"object"}}}`, `{"":"{\"\":\"&amp\"}"}`},
		{"a recursive $ref is not inlined without end", `{"$defs":{"a":{"allOf":[{"allOf":[{"$ref":"#/$defs/a"}]}]}},"properties":{"p":{"$ref":"#/$defs/a"}}}`, `{"p":"[1]"}`,
			// An implementation that overflows its stack where p leads into
			// a cycle through allOf (a bare self-reference it detects):
			// inlining the cycle's own $ref keeps it failing, one level
			// deeper each time, and taking a branch brings it back.
			func(s, _ []byte) bool {
				v, err := jsonvalue.Parse(s)
				if err != nil || v.Kind != jsonvalue.Object {
					return false
				}
				cycle, into := false, false
				for _, m := range v.Members {
					text := string(m.Value.Append(nil))
					switch m.Key {
					case "$defs":
						cycle = strings.HasPrefix(text, `{"a":{"allOf":`) && strings.Contains(text, `"$ref":"#/$defs/a"`)
					case "properties":
						into = strings.HasPrefix(text, `{"p":`) && strings.Contains(text, `"$ref":"#/$defs/a"`)
					}
				}
				return cycle && into
			},
			`{"$defs":{"a":{"allOf":[{"$ref":"#/$defs/a"}]}},"properties":{"p":{"$ref":"#/$defs/a"}}}`, `{}`},
		{"a one-element type list becomes the type name", `{"properties":{"p":{"type":["array"]}}}`, `{"p":"[1]"}`,
			decodes, `{"properties":{"":{"type":"array"}}}`, `{"":"[]"}`},
		{"a one-element type list at the root", `{"type":["array"],"title":"t"}`, `{}`,
			// An implementation that fails on any schema of type array.
			func(s, _ []byte) bool { return strings.Contains(string(s), `"array"`) },
			`{"type":"array"}`, `{}`},
		{"a type list the failure needs stays", `{"properties":{"p":{"type":["array"]}}}`, `{"p":"[1]"}`,
			// An implementation that decodes under "type":"array" but not
			// under ["array"].
			func(s, a []byte) bool { return decodes(s, a) && strings.Contains(string(s), `"type":[`) },
			`{"properties":{"":{"type":["array"]}}}`, `{"":"[]"}`},
		{"a prefixItems list of one schema becomes items", `{"properties":{"p":{"type":"array","prefixItems":[{"type":"object","title":"t"}]}}}`, `{"p":"[\"{}\"]"}`,
			// An implementation that does not repair what a decoded string
			// holds, whatever declares the element: items says it in the
			// words every draft knows, prefixItems only 2020-12.
			decodedInside, `{"properties":{"":{"type":"array","items":{"type":"object"}}}}`, `{"":"[\"{}\"]"}`},
		{"a prefixItems list the failure needs stays", `{"properties":{"p":{"type":"array","prefixItems":[{"type":"object"}]}}}`, `{"p":"[\"{}\"]"}`,
			func(s, a []byte) bool { return decodedInside(s, a) && strings.Contains(string(s), `"prefixItems"`) },
			`{"properties":{"":{"type":"array","prefixItems":[{"type":"object"}]}}}`, `{"":"[\"{}\"]"}`},
		{"unwrap a JSON string literal inside a string", `{}`, `{"p":"\"[]\""}`,
			// An implementation that decodes "[]" wherever it finds it, a
			// quoted literal peeled first: the literal is a second bug
			// (notion's wrong-shape-passes was shown by "\"[]\"").
			func(_, a []byte) bool {
				v, err := jsonvalue.Parse(a)
				if err != nil || len(v.Members) != 1 {
					return false
				}
				for v = v.Members[0].Value; v != nil && v.Kind == jsonvalue.String; {
					v, _ = jsonvalue.Parse([]byte(v.Str))
				}
				return v != nil && v.Kind == jsonvalue.Array
			}, `{}`, `{"":"[]"}`},
		{"lift a deep chain of containers many levels at once", `{}`, `{"p":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
			// An implementation that errs from 500 levels deep (the Python
			// example's recursion): one level a step took ~100 round trips.
			func(_, a []byte) bool { return strings.Count(string(a), "[") >= 499 }, `{}`, `{"":` + strings.Repeat("[", 499) + strings.Repeat("]", 499) + `}`},
		{"decode a legacy name without its ';', twice", `{}`, `{"p":"&ampamp#1"}`,
			// An implementation that loses the U+0001 a reference stands
			// for; chunks alone cannot reach &#1.
			func(s, a []byte) bool { return lost(s, a, `\u0001`) }, `{}`, `{"":"&#1"}`},
		{"decode a named reference, then shorten the hex one it leaves", `{}`, `{"p":"&amp;#x3C;"}`,
			func(s, a []byte) bool { return lost(s, a, "<") }, `{}`, `{"":"&#x3C"}`},
		{"decode a decimal reference", `{}`, `{"p":"&#38;#x3C;"}`,
			func(s, a []byte) bool { return lost(s, a, "<") }, `{}`, `{"":"&#x3C"}`},
		{"decode a reference in JSON text in a string", `{"properties":{"p":{"type":"object"}}}`, `{"p":"{\"a\":\"&ampamp#1\"}"}`,
			func(s, a []byte) bool {
				return decodesTo("*", jsonvalue.Object)(s, a) && lost(s, a, `\u0001`)
			},
			`{"properties":{"":{"type":"object"}}}`, `{"":"{\"\":\"&#1\"}"}`},
		{"shrink a JSON string literal inside a string", `{}`, `{"p":"\"\\n{\\\"a\\\":\\\"b\\\",\\\"c\\\":1}\""}`,
			// An implementation that unwraps a string literal holding
			// object text, as whitespace around it allows.
			func(_, a []byte) bool {
				v, err := jsonvalue.Parse(a)
				if err != nil || v.Kind != jsonvalue.Object || len(v.Members) != 1 || v.Members[0].Value.Kind != jsonvalue.String {
					return false
				}
				lit, err := jsonvalue.Parse([]byte(v.Members[0].Value.Str))
				if err != nil || lit.Kind != jsonvalue.String {
					return false
				}
				inner, err := jsonvalue.Parse([]byte(lit.Str))
				return err == nil && inner.Kind == jsonvalue.Object
			},
			`{}`, `{"":"\"{}\""}`},
		{"text that is not JSON", `{}`, `{"a": [1, 2,, 3]}`,
			func(_, a []byte) bool { return strings.Contains(string(a), ",,") }, `{}`, `,,`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.fails([]byte(tt.schema), []byte(tt.args)) {
				t.Fatal("the case does not fail to begin with")
			}
			s, a, cut := minimize.MinimizeCut(context.Background(), []byte(tt.schema), []byte(tt.args), tt.fails)
			if string(s) != tt.wantSchema || string(a) != tt.wantArgs || cut {
				t.Errorf("Minimize = %s %s (cut %v), want %s %s", s, a, cut, tt.wantSchema, tt.wantArgs)
			}
			// 1-minimal: no step keeps the failure, so a second run finds
			// nothing to do.
			calls := 0
			s2, a2, _ := minimize.MinimizeCut(context.Background(), s, a, func(s, a []byte) bool { calls++; return tt.fails(s, a) })
			if string(s2) != string(s) || string(a2) != string(a) || calls == 0 {
				t.Errorf("not 1-minimal: a second run gives %s %s after %d tries", s2, a2, calls)
			}
		})
	}
}

func TestMinimizeCutShort(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	fails := func(_, a []byte) bool {
		if calls++; calls == 3 {
			cancel()
		}
		return strings.Contains(string(a), "&")
	}
	s, a, cut := minimize.MinimizeCut(ctx, []byte(`{}`), []byte(`{"a":"&amp;","b":"&lt;","c":"&gt;","d":1}`), fails)
	if !cut || calls != 3 || !strings.Contains(string(a), "&") || string(s) != `{}` {
		t.Errorf("MinimizeCut = %s %s, cut %v after %d tries", s, a, cut, calls)
	}
	// The try budget cuts it short too: twenty long strings, none of which
	// may shrink, have more candidates than the budget.
	var b strings.Builder
	b.WriteString("{")
	for i := range 20 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"` + string(rune('a'+i)) + `":"` + text(i) + `"`)
	}
	b.WriteString("}")
	n := 0
	_, _, cut = minimize.MinimizeCut(context.Background(), []byte(`{}`), []byte(b.String()), func(_, a []byte) bool { n++; return len(a) >= b.Len() })
	if !cut || n > 5000 {
		t.Errorf("cut %v after %d tries", cut, n)
	}
}

// text is 1000 letters, no two chunks of which are alike.
func text(seed int) string {
	b := make([]byte, 1000)
	x := uint32(seed + 1)
	for i := range b {
		x = x*1664525 + 1013904223
		b[i] = 'a' + byte(x>>24)%26
	}
	return string(b)
}

// TestMinimizeNumbersSettle: simplifying numbers never undoes itself (0
// to 1 and back), so a case whose numbers do not matter settles at once.
func TestMinimizeNumbersSettle(t *testing.T) {
	n := 0
	_, a, cut := minimize.MinimizeCut(context.Background(), []byte(`{}`), []byte(`{"b":1,"0":2}`), func(_, a []byte) bool { n++; return strings.Contains(string(a), `"0":`) })
	if string(a) != `{"0":0}` || cut || n > 20 {
		t.Errorf("MinimizeCut = %s, cut %v, after %d tries", a, cut, n)
	}
}

// TestDeepChainFewTries: a case nested 600 levels deep that fails from
// 499 levels is minimized in tens of tries, not one a level: lifting a
// chain of single containers tries half of it, a quarter, and so on (the
// Python example's depth error cost its check 980 requests of 600
// levels).
func TestDeepChainFewTries(t *testing.T) {
	args := `{"p":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`
	calls := 0
	_, a, _ := minimize.MinimizeCut(context.Background(), []byte(`{}`), []byte(args), func(_, a []byte) bool {
		calls++
		return strings.Count(string(a), "[") >= 499
	})
	t.Logf("%d tries", calls)
	if strings.Count(string(a), "[") != 499 || calls > 120 {
		t.Errorf("%d levels after %d tries; want 499 in at most 120", strings.Count(string(a), "["), calls)
	}
}
