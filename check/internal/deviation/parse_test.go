package deviation

import "testing"

// Each reader reads what it accepts beside RFC 8259, and no more.
func TestReadJSON(t *testing.T) {
	for _, tt := range []struct {
		in     string
		r      reader
		want   string // the value read, as JSON text; "" for none
		finite bool
	}{
		{`[1, "a"]`, reader{}, `[1,"a"]`, true},
		{`['a']`, reader{}, "", true},
		{`['a']`, reader{lenient: true}, `["a"]`, true},
		{`{k: 1, /* c */ "j": [2,],}`, reader{lenient: true}, `{"k":1,"j":[2]}`, true},
		{`[+1, .5, 0x1F, True, None]`, reader{lenient: true}, `[1,0.5,31,true,null]`, true},
		{`[NaN]`, reader{}, "", true},
		{`[NaN]`, reader{nonFinite: true}, `[0]`, false},
		{`{"a": -Infinity}`, reader{nonFinite: true}, `{"a":0}`, false},
		{`[1,]`, reader{trailingCommas: true}, `[1]`, true},
		{`{"a":1 ,  }`, reader{trailingCommas: true}, `{"a":1}`, true},
		{`[,]`, reader{trailingCommas: true}, `[]`, true},
		{`["\ud800"]`, reader{}, `["\ud800"]`, true},
		{`["\ud800"]`, reader{loneEscapes: true}, "", true},
		{`["\ud83d\ude00"]`, reader{loneEscapes: true}, `["😀"]`, true},
		{"[\"\xed\xa0\x80\"]", reader{}, "", true},
		{"[\"\xed\xa0\x80\"]", reader{rawSurrogates: true}, `["\ud800"]`, true},
		{`["it\'s"]`, reader{lenient: true}, `["it's"]`, true},
		{`["it\'s"]`, reader{nonFinite: true}, "", true},
	} {
		v, finite := readJSON(tt.in, tt.r)
		got := ""
		if v != nil {
			got = string(v.Append(nil))
		}
		if got != tt.want || v != nil && finite != tt.finite {
			t.Errorf("readJSON(%q, %+v) = %s, finite %v; want %s, %v", tt.in, tt.r, got, finite, tt.want, tt.finite)
		}
	}
}
