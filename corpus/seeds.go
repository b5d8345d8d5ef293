package corpus

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// A SeedTarget is one libFuzzer binary that .clusterfuzzlite/build.sh
// builds, with the types of its fuzz function's arguments (after the
// *testing.T) and the seeds the corpus gives it. ExportOSSFuzz writes
// Binary_seed_corpus.zip for each, every seed in the encoding the binary
// reads (see EncodeLibFuzzerValues); fuzz/buildsh_test.go holds the list
// to build.sh and the types to the code.
type SeedTarget struct {
	Binary string
	Params []string // "[]byte", "string", "bool" or "uint8"
	// seeds returns the argument lists a vector gives the target, each as
	// Params says.
	seeds func(v *Vector, in FuzzInput) [][]any
}

// SeedTargets are the libFuzzer binaries, in build.sh's order.
var SeedTargets = []SeedTarget{
	{"FuzzNormalize", []string{"[]byte", "[]byte", "bool", "uint8"}, asCase},
	{"FuzzDifferential", []string{"[]byte", "[]byte", "bool", "uint8"}, asCase},
	{"FuzzDecode", []string{"string", "bool", "uint8"}, asDecode},
	{"FuzzStructured", []string{"[]byte"}, func(_ *Vector, in FuzzInput) [][]any {
		// The bytes fill a Shape, whatever they are: the arguments give
		// the fill variety.
		return [][]any{{in.Args}}
	}},
	{"entity_FuzzDecode", []string{"string", "bool", "uint8"}, asDecode},
	{"jsonraw_FuzzScan", []string{"[]byte"}, func(_ *Vector, in FuzzInput) [][]any {
		return [][]any{{in.Schema}, {in.Args}}
	}},
	{"jsonvalue_FuzzSame", []string{"[]byte", "[]byte"}, func(v *Vector, in FuzzInput) [][]any {
		// The arguments against what the vector expects of them (mostly
		// the same value, written otherwise), and the schema against itself.
		seeds := [][]any{{in.Schema, in.Schema}}
		if want := v.Want(); want.Failure == nil && want.Output != nil {
			seeds = append(seeds, []any{in.Args, want.Output})
		}
		return seeds
	}},
	{"oracle_FuzzNormalize", []string{"string", "string", "bool"}, func(_ *Vector, in FuzzInput) [][]any {
		return [][]any{{string(in.Schema), string(in.Args), in.Attribute}}
	}},
	{"oracle_FuzzFixpoint", []string{"string"}, func(_ *Vector, in FuzzInput) [][]any {
		var seeds [][]any
		for _, s := range referenceLeaves(in.Args) {
			seeds = append(seeds, []any{s})
		}
		return seeds
	}},
	{"oracle_FuzzUnescapeAttributeSplit", []string{"string", "string"}, func(_ *Vector, in FuzzInput) [][]any {
		// The target splits an attribute value in two: split each text
		// just inside its first reference. It skips quotes, NUL and CR.
		var seeds [][]any
		for _, s := range referenceLeaves(in.Args) {
			if strings.ContainsAny(s, "\"'\x00\r") {
				continue
			}
			i := strings.IndexByte(s, '&') + 2
			if i < len(s) {
				seeds = append(seeds, []any{s[:i], s[i:]})
			}
		}
		return seeds
	}},
	{"ecma_FuzzPattern", []string{"string", "string"}, func(_ *Vector, in FuzzInput) [][]any {
		// Each pattern of the schema, on each key of the arguments (what
		// patternProperties matches), or on "" when there is none.
		var seeds [][]any
		keys := topKeys(in.Args)
		if len(keys) == 0 {
			keys = []string{""}
		}
		for _, p := range schemaPatterns(in.Schema) {
			for _, k := range keys {
				seeds = append(seeds, []any{p, k})
			}
		}
		return seeds
	}},
	{"ecma_FuzzMatchLong", []string{"string", "string", "uint8", "uint8", "uint8"}, func(_ *Vector, in FuzzInput) [][]any {
		// Each pattern of the schema, on its first key (or "a") repeated
		// 2^20 times, outside any group.
		var seeds [][]any
		unit := "a"
		if keys := topKeys(in.Args); len(keys) > 0 && keys[0] != "" {
			unit = keys[0]
		}
		for _, p := range schemaPatterns(in.Schema) {
			seeds = append(seeds, []any{p, unit, uint8(20), uint8(0), uint8(0)})
		}
		return seeds
	}},
	{"corpus_FuzzLoad", []string{"[]byte"}, func(v *Vector, _ FuzzInput) [][]any {
		// The bytes make a corpus directory (corpus/fuzz_test.go's
		// encodeTree): one file, the vector's, where it lies.
		data, err := Encode(v)
		name := v.File
		if name == "" {
			name = v.ID + ".json"
		}
		name = strings.TrimPrefix(name, "vectors/")
		if err != nil || len(data) > 0xFFFF || len(name) > 0xFF {
			return nil
		}
		b := append([]byte{0, byte(len(name))}, name...)
		b = binary.BigEndian.AppendUint16(b, uint16(len(data)))
		return [][]any{{append(b, data...)}}
	}},
	{"normalize_FuzzLiteralPrefix", []string{"string", "string"}, func(_ *Vector, in FuzzInput) [][]any {
		// Each pattern of the schema, on each key of the arguments, as
		// for ecma_FuzzPattern.
		var seeds [][]any
		keys := topKeys(in.Args)
		if len(keys) == 0 {
			keys = []string{""}
		}
		for _, p := range schemaPatterns(in.Schema) {
			for _, k := range keys {
				seeds = append(seeds, []any{p, k})
			}
		}
		return seeds
	}},
	{"harness_FuzzCoverageMember", []string{"string", "string"}, func(_ *Vector, in FuzzInput) [][]any {
		// The arguments as an answer carries them, beside a coverage
		// list of ids.
		return [][]any{{string(in.Args), "[3,1,4294967295]"}}
	}},
}

func asCase(_ *Vector, in FuzzInput) [][]any {
	return [][]any{{in.Schema, in.Args, in.Attribute, in.Bound}}
}

// asDecode gives each text of the arguments with a character reference
// in it, under the vector's profile and pass bound.
func asDecode(_ *Vector, in FuzzInput) [][]any {
	var seeds [][]any
	for _, s := range referenceLeaves(in.Args) {
		seeds = append(seeds, []any{s, in.Attribute, in.Bound})
	}
	return seeds
}

// referenceLeaves returns the strings of args (a JSON text) with '&' in
// them, each once, in document order; none if args is not JSON.
func referenceLeaves(args []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if strings.Contains(x, "&") && !slices.Contains(out, x) {
				out = append(out, x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys) // a map's order would change the zip
			for _, k := range keys {
				walk(x[k])
			}
		}
	}
	walk(v)
	return out
}

// decodeJSON decodes text as encoding/json does, numbers as json.Number;
// nil if it is not JSON.
func decodeJSON(text []byte) any {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// topKeys returns the keys of args, a JSON object, sorted.
func topKeys(args []byte) []string {
	m, _ := decodeJSON(args).(map[string]any)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// schemaPatterns returns the patterns of a schema, each once, sorted: the
// values of "pattern" and the keys of "patternProperties", wherever they
// are.
func schemaPatterns(schema []byte) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if p, ok := x["pattern"].(string); ok {
				out = append(out, p)
			}
			if pp, ok := x["patternProperties"].(map[string]any); ok {
				for k := range pp {
					out = append(out, k)
				}
			}
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(decodeJSON(schema))
	slices.Sort(out)
	return slices.Compact(out)
}

// maxSeedString is how far into an input go-fuzz-headers reads a string
// (its MaxTotalLen): a seed with a string past it never reaches the target.
const maxSeedString = 2000000

// EncodeLibFuzzerValues returns the input from which a libFuzzer binary
// built by go-118-fuzz-build passes vals to its fuzz function: that
// binary's testing.F reads each argument with go-fuzz-headers' consumer, a
// []byte as a 4-byte big-endian length taken modulo what is left (0 means
// 30) and the bytes, a string as an exact 4-byte length and the bytes, a
// bool as one byte (even is true), a uint8 as one byte. It reports false
// for values no input gives: an empty string or []byte with nothing after
// it, a string past the consumer's limit, a type it does not read.
func EncodeLibFuzzerValues(vals ...any) ([]byte, bool) {
	total := 0
	for _, v := range vals {
		switch x := v.(type) {
		case []byte:
			total += 4 + len(x)
		case string:
			total += 4 + len(x)
		case bool, uint8:
			total++
		default:
			return nil, false
		}
	}
	b := make([]byte, 0, total)
	for _, v := range vals {
		switch x := v.(type) {
		case []byte:
			left := total - len(b) - 4
			if left == 0 {
				return nil, false // the consumer has no bytes left to take
			}
			b = appendLength(b, len(x), left)
			b = append(b, x...)
		case string:
			if len(b)+4 > maxSeedString || len(b)+4 == total {
				return nil, false
			}
			b = binary.BigEndian.AppendUint32(b, uint32(len(x)))
			b = append(b, x...)
		case bool:
			if x {
				b = append(b, 0)
			} else {
				b = append(b, 1)
			}
		case uint8:
			b = append(b, x)
		}
	}
	return b, true
}

// exportSeeds writes outDir/<Binary>_seed_corpus.zip for each of the
// SeedTargets that FuzzTargets does not hold (ExportOSSFuzz writes those),
// each seed once.
func exportSeeds(vectors []*Vector, root *os.Root) error {
	for _, t := range SeedTargets {
		if slices.Contains(FuzzTargets, t.Binary) {
			continue
		}
		data, err := seedZip(t, vectors)
		if err != nil {
			return err
		}
		if err := writeIn(root, t.Binary+"_seed_corpus.zip", data, true); err != nil {
			return &FileError{t.Binary + "_seed_corpus.zip", err}
		}
	}
	return nil
}

// seedZip is the seed corpus of t: its seeds from each vector the fuzz
// targets can take, named after the vector (and a number when it gives
// more than one).
func seedZip(t SeedTarget, vectors []*Vector) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	seen := map[string]bool{}
	for _, v := range vectors {
		in, ok := v.FuzzInput()
		if !ok {
			continue
		}
		n := 0
		for _, vals := range t.seeds(v, in) {
			data, ok := EncodeLibFuzzerValues(vals...)
			if !ok || seen[string(data)] {
				continue
			}
			seen[string(data)] = true
			name := v.ID
			if n++; n > 1 {
				name += fmt.Sprintf("-%d", n)
			}
			w, err := zw.Create(name)
			if err != nil {
				return nil, err
			}
			if _, err := w.Write(data); err != nil {
				return nil, err
			}
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
