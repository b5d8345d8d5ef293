package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// decodeStdlib is Decode with encoding/json alone, as it was before
// decodeCommon.
func decodeStdlib(data []byte) (*Vector, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var v Vector
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errAfter
	}
	return &v, nil
}

var errAfter = errors.New("data after the vector")

// sameVector holds decodeCommon to encoding/json: where it reads a file,
// encoding/json reads it too, to the same vector.
func sameVector(t *testing.T, data []byte) bool {
	t.Helper()
	got, ok := decodeCommon(data)
	if !ok {
		return false
	}
	want, err := decodeStdlib(data)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("decodeCommon(%.300q) = %+v\nencoding/json: %+v, %v", data, got, want, err)
	}
	return true
}

// TestDecodeCommon: every committed vector file, and variants of one,
// read the same with decodeCommon as with encoding/json, and most of
// them with decodeCommon.
func TestDecodeCommon(t *testing.T) {
	files, read := 0, 0
	err := fs.WalkDir(Embedded(), "vectors", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(Embedded(), p)
		if err != nil {
			return err
		}
		files++
		if sameVector(t, data) {
			read++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if read < files*9/10 {
		t.Errorf("decodeCommon read %d of %d files", read, files)
	}
	for _, s := range commonVariants {
		sameVector(t, []byte(s))
	}
}

var commonVariants = []string{
	`{"id":"a","tags":[],"schema":{},"arguments":{"s":"x"},"expected":{"s":"x"}}`,
	`{"id":"a","tags":["x" , "y"],"schema":{ "a" : [1, 2.5e3, true, null, "]}"] },"arguments":"s","expected":-0.5}`,
	` {"id":"a"} ` + "\n",
	`{"id":"a"}}`,
	`{"id":"a"}{}`,
	`{"id":"a",}`,
	`{"id":"a","id":"b"}`,
	`{"ID":"a"}`,
	`{"id":"a\"b"}`,
	`{"id":1}`,
	`{"tags":null}`,
	`{"tags":["a",]}`,
	`{"tags":["a" "b"]}`,
	`{"tags":[1]}`,
	`{"schema":null}`,
	`{"schema":{"a":}}`,
	`{"schema":{"a":1]}`,
	`{"schema":[1,2}`,
	`{"schema":tru}`,
	`{"schema":01}`,
	`{"schema":"` + "\x01" + `"}`,
	`{"schema":{"a":1},"arguments":{"b":[{"c":"}"}]}}`,
	`{"schema":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`,
	`{"schema":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`,
	`{"colour":"red"}`,
	`{}`,
	`[]`,
	``,
}

// TestDecodeCommonMutated holds decodeCommon to encoding/json on every
// file one byte away from the variants above and from a few committed
// files: each byte deleted, or replaced by or preceded by one that matters
// to JSON.
func TestDecodeCommonMutated(t *testing.T) {
	texts := slices.Clone(commonVariants)
	for _, name := range []string{"vectors/rule", "vectors/reading", "vectors/html5lib"} {
		entries, err := fs.ReadDir(Embedded(), name)
		if err != nil || len(entries) == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := fs.ReadFile(Embedded(), name+"/"+entries[0].Name())
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
	}
	read := 0
	for _, s := range texts {
		if len(s) > 2000 {
			continue
		}
		for i := range len(s) + 1 {
			var ms []string
			if i < len(s) {
				ms = append(ms, s[:i]+s[i+1:])
			}
			for _, c := range "\"\\{}[],: \n01-nu\x00\x1f" {
				if i < len(s) {
					ms = append(ms, s[:i]+string(c)+s[i+1:])
				}
				ms = append(ms, s[:i]+string(c)+s[i:])
			}
			for _, m := range ms {
				if sameVector(t, []byte(m)) {
					read++
				}
			}
		}
	}
	if read == 0 {
		t.Error("decodeCommon read none of the files")
	}
}
