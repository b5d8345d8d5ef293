package jsonvalue

import "testing"

func TestEqualJSON(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`1e2`, `100`, true},
		{`100E-2`, `1`, true},
		{`0`, `-0.0e5`, true},
		{`12345678901234567890`, `12345678901234567891`, false},
		{`1e400`, `10e399`, true},
		{`1e999999999999999999999`, `1e999999999999999999998`, false},
		{`"a"`, `"\u0061"`, true},
		{`"\ud800"`, `"\ufffd"`, false},
		{`"\ud800"`, `"\uD800"`, true},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false},
		{`{"a":1,"a":2}`, `{"a":1,"a":2}`, true},
		{`{"a":1,"a":2}`, `{"a":1}`, false},
		{`[1,[2]]`, ` [ 1 , [ 2.0 ] ] `, true},
		{`[]`, `{}`, false},
		{`null`, `false`, false},
		{`true`, `true`, true},
	}
	for _, tt := range tests {
		got, err := EqualJSON([]byte(tt.a), []byte(tt.b))
		if err != nil || got != tt.want {
			t.Errorf("EqualJSON(%s, %s) = %v, %v; want %v", tt.a, tt.b, got, err, tt.want)
		}
	}
}

func TestAppendRoundTrip(t *testing.T) {
	for _, s := range []string{`{"a":[1,2.50,-0,1e400],"b":{"\ud800":"x\u0001\"\\"},"a":null,"t":true,"f":false}`, `[]`, `{}`, `"\ud83d\ude00"`} {
		v, err := Parse([]byte(s))
		if err != nil {
			t.Fatalf("Parse(%s): %v", s, err)
		}
		out := v.Append(nil)
		w, err := Parse(out)
		if err != nil || !Equal(v, w) {
			t.Errorf("Append(Parse(%s)) = %s, which parses differently (%v)", s, out, err)
		}
	}
	for _, bad := range []string{``, `{`, `[1,]`, `{"a" 1}`, `01`, `"\x"`, `{} x`} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}
