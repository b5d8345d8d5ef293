package corpus

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"github.com/toolnorm/toolnorm/normalize"
)

// FuzzTargets are the native fuzz targets, in package fuzz, whose
// inputs are cases: (schema, args []byte, attribute bool, bound uint8),
// with bound%3 as the pass bound (0: none).
var FuzzTargets = []string{"FuzzNormalize", "FuzzDifferential"}

// FuzzInput is one input of the fuzz targets.
type FuzzInput struct {
	Schema, Args []byte
	Attribute    bool
	Bound        uint8 // bound%3 is the pass bound; 0 means none
}

// FuzzInput returns v as an input of the fuzz targets. It reports false
// when v needs an option those cannot express: a nesting limit, or a pass
// bound past 2.
func (v *Vector) FuzzInput() (FuzzInput, bool) {
	if v.Options.MaxDepth != 0 || v.Options.MaxPasses > 2 {
		return FuzzInput{}, false
	}
	return FuzzInput{v.SchemaText(), v.ArgumentsText(), v.Options.Profile == normalize.Attribute, uint8(v.Options.MaxPasses)}, true
}

// Options returns the options of a case given as a fuzz input.
func (in FuzzInput) Options() Options {
	o := Options{MaxPasses: int(in.Bound % 3)}
	if in.Attribute {
		o.Profile = normalize.Attribute
	}
	return o
}

const goFuzzHeader = "go test fuzz v1\n"

// EncodeGoFuzz returns in as a file of "go test fuzz v1", as go test
// -fuzz reads seeds from testdata/fuzz/<Target>/.
func EncodeGoFuzz(in FuzzInput) []byte {
	return fmt.Appendf(nil, "%s[]byte(%q)\n[]byte(%q)\nbool(%v)\nbyte(%q)\n", goFuzzHeader, in.Schema, in.Args, in.Attribute, in.Bound)
}

// DecodeGoFuzz reads a "go test fuzz v1" file of one of the FuzzTargets
// (schema, args, attribute, bound), or of a target that takes one string
// and optionally a bool and a byte (entity.FuzzDecode: the string becomes
// the one member "s" of the arguments, under the empty schema).
func DecodeGoFuzz(data []byte) (FuzzInput, error) {
	text, ok := bytes.CutPrefix(data, []byte(goFuzzHeader))
	if !ok {
		return FuzzInput{}, errors.New(`not a "go test fuzz v1" file`)
	}
	var vals []any
	for i, line := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
		v, err := parseGoFuzzValue(line)
		if err != nil {
			return FuzzInput{}, fmt.Errorf("line %d: %v", i+2, err)
		}
		vals = append(vals, v)
	}
	var in FuzzInput
	switch {
	case len(vals) == 4 && isBytes(vals[0]) && isBytes(vals[1]) && isBool(vals[2]) && isByte(vals[3]):
		in = FuzzInput{vals[0].([]byte), vals[1].([]byte), vals[2].(bool), vals[3].(uint8)}
	case len(vals) >= 1 && isString(vals[0]):
		args := append(append([]byte(`{"s":`), quoteWTF8(vals[0].(string))...), '}')
		in = FuzzInput{Schema: []byte(`{}`), Args: args}
		if len(vals) >= 2 && isBool(vals[1]) {
			in.Attribute = vals[1].(bool)
		}
		if len(vals) >= 3 && isByte(vals[2]) {
			in.Bound = vals[2].(uint8)
		}
	default:
		return FuzzInput{}, fmt.Errorf("its values (%d) are not those of a toolnorm fuzz target", len(vals))
	}
	return in, nil
}

func isBytes(v any) bool  { _, ok := v.([]byte); return ok }
func isString(v any) bool { _, ok := v.(string); return ok }
func isBool(v any) bool   { _, ok := v.(bool); return ok }
func isByte(v any) bool   { _, ok := v.(uint8); return ok }

// parseGoFuzzValue reads one line such as []byte("..."), string("..."),
// bool(true) or byte('\x00').
func parseGoFuzzValue(line string) (any, error) {
	expr, err := parser.ParseExpr(line)
	if err != nil {
		return nil, fmt.Errorf("not a Go expression: %q", line)
	}
	call, ok := expr.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, fmt.Errorf("want TYPE(VALUE), got %q", line)
	}
	typ := ""
	switch f := call.Fun.(type) {
	case *ast.Ident:
		typ = f.Name
	case *ast.ArrayType:
		if id, ok := f.Elt.(*ast.Ident); ok && f.Len == nil && (id.Name == "byte" || id.Name == "uint8") {
			typ = "[]byte"
		}
	}
	switch arg := call.Args[0].(type) {
	case *ast.BasicLit:
		switch {
		case (typ == "[]byte" || typ == "string") && arg.Kind == token.STRING:
			s, err := strconv.Unquote(arg.Value)
			if err != nil {
				return nil, err
			}
			if typ == "string" {
				return s, nil
			}
			return []byte(s), nil
		case (typ == "byte" || typ == "uint8") && arg.Kind == token.CHAR:
			s, err := strconv.Unquote(arg.Value)
			if err != nil || len(s) == 0 {
				return nil, fmt.Errorf("bad byte %s", arg.Value)
			}
			r := []rune(s)[0]
			if r > 0xFF {
				return nil, fmt.Errorf("bad byte %s", arg.Value)
			}
			if len(s) == 1 {
				return s[0], nil
			}
			return uint8(r), nil
		case (typ == "byte" || typ == "uint8") && arg.Kind == token.INT:
			n, err := strconv.ParseUint(arg.Value, 0, 8)
			if err != nil {
				return nil, err
			}
			return uint8(n), nil
		}
	case *ast.Ident:
		if typ == "bool" && (arg.Name == "true" || arg.Name == "false") {
			return arg.Name == "true", nil
		}
	}
	return nil, fmt.Errorf("unsupported value %q", line)
}

// EncodeLibFuzzer returns in as the bytes a libFuzzer binary built by
// go-118-fuzz-build (as OSS-Fuzz builds native Go fuzz targets) turns into
// the same arguments: go-fuzz-headers' consumer (the version
// go-118-fuzz-build pins) reads each []byte as a 4-byte big-endian length
// and the bytes, a bool as one byte (even is true), a uint8 as one byte.
func EncodeLibFuzzer(in FuzzInput) []byte {
	total := 4 + len(in.Schema) + 4 + len(in.Args) + 2
	b := make([]byte, 0, total)
	b = appendLength(b, len(in.Schema), total-4)
	b = append(b, in.Schema...)
	b = appendLength(b, len(in.Args), total-len(b)-4)
	b = append(b, in.Args...)
	boolByte := byte(1)
	if in.Attribute {
		boolByte = 0
	}
	return append(b, boolByte, in.Bound)
}

// appendLength writes n as the consumer will read it with left bytes left:
// it takes a length modulo what is left (0 means 30), so an empty slice is
// written as twice what is left.
func appendLength(b []byte, n, left int) []byte {
	if n == 0 {
		n = 2 * left
	}
	return binary.BigEndian.AppendUint32(b, uint32(n))
}

// DecodeLibFuzzer reads a libFuzzer input (a crash file, or a seed) of
// the FuzzTargets as go-118-fuzz-build's consumer does. It fails where the
// consumer would run out of bytes: such an input never reaches the target.
func DecodeLibFuzzer(data []byte) (FuzzInput, error) {
	pos := 0
	getBytes := func() ([]byte, error) {
		if len(data)-pos < 4 {
			return nil, errors.New("too short for a length")
		}
		n := binary.BigEndian.Uint32(data[pos:])
		pos += 4
		if n == 0 {
			n = 30
		}
		left := uint32(len(data) - pos)
		if left == 0 {
			return nil, errors.New("no bytes left")
		}
		if n != left {
			n %= left
		}
		b := data[pos : pos+int(n)]
		pos += int(n)
		return b, nil
	}
	schema, err := getBytes()
	if err != nil {
		return FuzzInput{}, fmt.Errorf("schema: %v", err)
	}
	args, err := getBytes()
	if err != nil {
		return FuzzInput{}, fmt.Errorf("arguments: %v", err)
	}
	if len(data)-pos < 2 {
		return FuzzInput{}, errors.New("too short for the attribute flag and the pass bound")
	}
	return FuzzInput{bytes.Clone(schema), bytes.Clone(args), data[pos]%2 == 0, data[pos+1]}, nil
}
