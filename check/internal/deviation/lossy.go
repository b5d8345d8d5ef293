package deviation

import (
	"strconv"
	"strings"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// lossyReader is how a value decoded from a string is read, beside its
// syntax: what a language's JSON reader loses.
type lossyReader uint8

const (
	exact        lossyReader = iota // nothing lost, as the rule says
	jsParse                         // JavaScript's JSON.parse
	pythonLoad                      // Python's json.loads
	collapseOnly                    // duplicate members collapsed, nothing else lost
)

// read changes v, a value just decoded, as r loses its content: numbers
// through float64 (every number for JSON.parse, which writes a number
// past float64 back as null; those with a fraction or exponent for
// json.loads, for which one past float64 is an infinity no answer can
// carry), duplicate members collapsed into the first with the last value,
// and, for JSON.parse, keys that are array indexes moved first.
func (r lossyReader) read(v *jsonvalue.Value) error {
	if r == exact {
		return nil
	}
	switch v.Kind {
	case jsonvalue.Number:
		if r == collapseOnly {
			return nil
		}
		return r.number(v)
	case jsonvalue.Array:
		for _, e := range v.Elems {
			if err := r.read(e); err != nil {
				return err
			}
		}
	case jsonvalue.Object:
		collapse(v)
		if r == jsParse {
			_ = integerKeysFirst(&stage{out: v})
		}
		for _, m := range v.Members {
			if err := r.read(m.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r lossyReader) number(v *jsonvalue.Value) error {
	if r == pythonLoad && !strings.ContainsAny(v.Number, ".eE") {
		return nil // a Python int keeps every digit
	}
	f, err := strconv.ParseFloat(v.Number, 64)
	switch {
	case err == nil:
		v.Number = strconv.FormatFloat(f, 'g', -1, 64)
	case r == jsParse:
		*v = jsonvalue.Value{Kind: jsonvalue.Null}
	default:
		return errNonFinite
	}
	return nil
}
