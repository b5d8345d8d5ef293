package oracle

import (
	"strings"
	"testing"
)

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		// Numbers by exact decimal value.
		{"1", "1", true},
		{"1.0", "1", true},
		{"1e2", "100", true},
		{"1E+2", "100", true},
		{"100e-2", "1", true},
		{"0.1", "1e-1", true},
		{"-1.50", "-15e-1", true},
		{"-1", "1", false},
		{"-0", "0", true},
		{"-0.0e-5", "0e99", true},
		{"0", "1e-400", false},
		{"12345678901234567890", "12345678901234567890.000", true},
		{"12345678901234567890", "12345678901234567891", false},
		{"1e400", "1e400", true},
		{"1e400", "10e399", true},
		{"1e400", "1e401", false},
		{"1e999999999", "10e999999998", true},
		{"1e999999999", "1e999999998", false},
		{"1e99999999999999999999999", "0.1e100000000000000000000000", true},
		{"1e-99999999999999999999999", "1e-99999999999999999999998", false},
		{"0.30000000000000004", "0.3", false},

		// Strings by value.
		{`"\u00e9\/"`, `"é/"`, true},
		{`"a"`, `"A"`, false},
		{`"\ud800"`, `"\ufffd"`, true}, // encoding/json's canonicalization

		// Kinds.
		{"1", `"1"`, false},
		{"null", "false", false},
		{"true", "true", true},
		{"{}", "[]", false},

		// Arrays element by element, objects member by member in order.
		{`[1,[2]]`, ` [ 1.0 , [ 2e0 ] ] `, true},
		{`[1]`, `[1,2]`, false},
		{`{"a":1,"b":2}`, `{"a":1.0,"b":2}`, true},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false},
		{`{"a":1,"a":2}`, `{"a":1}`, false},
		{`{"a":1,"a":2}`, `{"a":1e0,"a":0.2e1}`, true},
		{`{"a":1,"a":2}`, `{"a":2,"a":1}`, false},
	}
	for _, tt := range tests {
		for _, swap := range []bool{false, true} {
			a, b := tt.a, tt.b
			if swap {
				a, b = b, a
			}
			got, err := Equal([]byte(a), []byte(b))
			if err != nil {
				t.Errorf("Equal(%s, %s): %v", a, b, err)
				continue
			}
			if got != tt.want {
				t.Errorf("Equal(%s, %s) = %v, want %v", a, b, got, tt.want)
			}
		}
	}
}

func TestEqualErrors(t *testing.T) {
	tests := []struct {
		a, b string
		err  string
	}{
		{"", "1", "first argument: invalid JSON at offset 0"},
		{"1 2", "1", "first argument: invalid JSON: 2 after the value at offset 1"},
		{"1", "[1,]", "second argument: invalid JSON at offset 3"},
		{"1", "{", "second argument: invalid JSON at offset 1: unexpected EOF"},
		{"\"\xff\"", "1", "first argument: invalid UTF-8 at offset 1"},
		{"01", "1", "first argument: invalid JSON"},
	}
	for _, tt := range tests {
		_, err := Equal([]byte(tt.a), []byte(tt.b))
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Equal(%q, %q) error = %v, want one containing %q", tt.a, tt.b, err, tt.err)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	tests := []struct {
		num, digits, exp string
		neg              bool
	}{
		{"0", "", "0", false},
		{"-0.000", "", "-3", true},
		{"1", "1", "0", false},
		{"1200", "12", "2", false},
		{"-0.0120e+3", "12", "0", true},
		{"-0.0120e+1", "12", "-2", true},
		{"5E-2", "5", "-2", false},
		{"10.01", "1001", "-2", false},
		{"1e99999999999999999999", "1", "99999999999999999999", false},
	}
	for _, tt := range tests {
		d := parseDecimal(tt.num)
		if d.digits != tt.digits || d.exp.String() != tt.exp || d.neg != tt.neg {
			t.Errorf("parseDecimal(%q) = %v %q e%v, want %v %q e%s", tt.num, d.neg, d.digits, d.exp, tt.neg, tt.digits, tt.exp)
		}
	}
}
