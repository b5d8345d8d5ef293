package corpus

import (
	"archive/zip"
	"bytes"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"
)

// consume reads the arguments of a fuzz function taking params from data,
// as go-118-fuzz-build's testing.F does (the version build.sh pins): each
// with go-fuzz-headers' consumer, in order; false where that F would not
// call the function.
func consume(data []byte, params []string) ([]any, bool) {
	c := fuzzheaders.NewConsumer(data)
	var vals []any
	for _, p := range params {
		var v any
		var err error
		switch p {
		case "[]byte":
			v, err = c.GetBytes()
		case "string":
			v, err = c.GetString()
		case "bool":
			v, err = c.GetBool()
		case "uint8":
			v, err = c.GetByte()
		default:
			return nil, false
		}
		if err != nil {
			return nil, false
		}
		vals = append(vals, v)
	}
	return vals, true
}

// TestEncodeLibFuzzerValues encodes argument lists, the awkward ones
// included, and reads them back with go-fuzz-headers.
func TestEncodeLibFuzzerValues(t *testing.T) {
	tests := []struct {
		vals []any
		ok   bool
	}{
		{[]any{[]byte(`{}`), []byte(`{"a":"&amp;"}`), true, uint8(2)}, true},
		{[]any{[]byte{}, []byte(`{}`), false, uint8(0)}, true}, // an empty []byte: twice what is left
		{[]any{[]byte(`{}`), []byte{}, false, uint8(1)}, true},
		{[]any{[]byte(strings.Repeat("x", 30))}, true}, // its length is all that is left
		{[]any{[]byte{}}, false},                       // nothing left to take
		{[]any{"a &amp; b", false, uint8(3)}, true},
		{[]any{"", true, uint8(0)}, true},
		{[]any{"&lt", ""}, false}, // an empty string last: the consumer refuses it
		{[]any{"", "x"}, true},
		{[]any{strings.Repeat("y", maxSeedString), "z"}, false}, // the second string starts past the limit
		{[]any{"s", "t", true}, true},
		{[]any{1}, false},
	}
	for _, tt := range tests {
		params := make([]string, len(tt.vals))
		for i, v := range tt.vals {
			params[i] = reflect.TypeOf(v).String()
			if params[i] == "[]uint8" {
				params[i] = "[]byte"
			}
		}
		data, ok := EncodeLibFuzzerValues(tt.vals...)
		if ok != tt.ok {
			t.Errorf("EncodeLibFuzzerValues(%.60q): ok %v, want %v", tt.vals, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		got, ok := consume(data, params)
		if !ok || !reflect.DeepEqual(got, tt.vals) {
			t.Errorf("go-fuzz-headers reads %.80q as %.60q (%v), want %.60q", data, got, ok, tt.vals)
		}
	}
}

// TestSeedCorpora exports the seed corpora of a sample of the corpus and
// reads every seed of every target as its binary would: each must reach
// the target, as the arguments the target's seeds function gave, and each
// target must get seeds.
func TestSeedCorpora(t *testing.T) {
	out := t.TempDir()
	vectors := sample(t)
	if _, _, err := ExportOSSFuzz(vectors, out); err != nil {
		t.Fatal(err)
	}
	for _, target := range SeedTargets {
		t.Run(target.Binary, func(t *testing.T) {
			want := map[string]bool{}
			for _, v := range vectors {
				if in, ok := v.FuzzInput(); ok {
					for _, vals := range target.seeds(v, in) {
						if data, ok := EncodeLibFuzzerValues(vals...); ok {
							want[string(data)] = true
						}
					}
				}
			}
			zr, err := zip.OpenReader(filepath.Join(out, target.Binary+"_seed_corpus.zip"))
			if err != nil {
				t.Fatal(err)
			}
			defer zr.Close()
			got := map[string]bool{}
			for _, f := range zr.File {
				r, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				data, err := io.ReadAll(r)
				r.Close()
				if err != nil {
					t.Fatal(err)
				}
				vals, ok := consume(data, target.Params)
				if !ok {
					t.Fatalf("seed %s does not reach the target: go-fuzz-headers cannot read %v from it", f.Name, target.Params)
				}
				if again, _ := EncodeLibFuzzerValues(vals...); !bytes.Equal(again, data) {
					t.Fatalf("seed %s reads as %.80q, which encodes otherwise", f.Name, vals)
				}
				if got[string(data)] {
					t.Errorf("seed %s is there twice", f.Name)
				}
				got[string(data)] = true
			}
			if len(got) == 0 || len(got) != len(want) {
				t.Errorf("%d seeds in the zip, want %d (one per distinct seed of the %d vectors)", len(got), len(want), len(vectors))
			}
			for data := range want {
				if !got[data] {
					t.Errorf("missing seed %.80q", data)
					break
				}
			}
		})
	}
}
