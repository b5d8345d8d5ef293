package oracle

import (
	"fmt"
	"math/big"
	"strings"
)

// equalMaxDepth is the nesting limit of Equal's parser, far above any
// Normalize limit in use.
const equalMaxDepth = 100_000

// Equal reports whether the JSON texts a and b hold equal values, the way the
// outputs of two normalizers are compared (docs/readings.md section 7):
//
//   - numbers by exact decimal value, whatever their spelling: 1.0 == 1,
//     1e2 == 100, -0 == 0, and 12345678901234567890 != 12345678901234567891;
//   - strings by value, after JSON unquoting: "\u00e9" == "é";
//   - arrays element by element;
//   - objects member by member, in order, duplicates included: {"a":1,"b":2}
//     and {"b":2,"a":1} differ.
//
// It is an error if a or b is not exactly one JSON value in valid UTF-8.
// Like Normalize, Equal reads strings with encoding/json, which decodes a
// lone surrogate escape as U+FFFD.
func Equal(a, b []byte) (bool, error) {
	va, err := parseJSON(a, equalMaxDepth)
	if err != nil {
		return false, fmt.Errorf("oracle: Equal: first argument: %w", err)
	}
	vb, err := parseJSON(b, equalMaxDepth)
	if err != nil {
		return false, fmt.Errorf("oracle: Equal: second argument: %w", err)
	}
	return equalNodes(va, vb), nil
}

func equalNodes(a, b *node) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case kindNull:
		return true
	case kindBool:
		return a.boolean == b.boolean
	case kindNumber:
		return parseDecimal(string(a.number)).equal(parseDecimal(string(b.number)))
	case kindString:
		return a.str == b.str
	case kindArray:
		if len(a.elems) != len(b.elems) {
			return false
		}
		for i := range a.elems {
			if !equalNodes(a.elems[i], b.elems[i]) {
				return false
			}
		}
		return true
	case kindObject:
		if len(a.members) != len(b.members) {
			return false
		}
		for i := range a.members {
			if a.members[i].key != b.members[i].key || !equalNodes(a.members[i].value, b.members[i].value) {
				return false
			}
		}
		return true
	}
	return false
}

// A decimal is the exact value of a JSON number, in a canonical form:
// (-1 if neg) × digits × 10^exp, where digits has no leading or trailing
// zero, and is empty for zero (of either sign).
//
// The exponent is a big.Int and is never applied, so 1e999999999 costs no
// more than 1e9; big.Rat.SetString would expand it into a billion digits.
type decimal struct {
	neg    bool
	digits string
	exp    *big.Int
}

// parseDecimal returns the value of num, which must be a valid JSON number
// (-? int frac? exp?).
func parseDecimal(num string) decimal {
	var d decimal
	num, d.neg = strings.CutPrefix(num, "-")
	mantissa, exponent := num, "0"
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		mantissa, exponent = num[:i], num[i+1:]
	}
	intPart, frac, _ := strings.Cut(mantissa, ".")

	d.exp = new(big.Int)
	if _, ok := d.exp.SetString(strings.TrimPrefix(exponent, "+"), 10); !ok {
		panic(fmt.Sprintf("oracle: bad exponent in number %q", num)) // parseJSON checked it
	}
	d.exp.Sub(d.exp, big.NewInt(int64(len(frac))))

	digits := strings.TrimLeft(intPart+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	d.exp.Add(d.exp, big.NewInt(int64(len(digits)-len(trimmed))))
	d.digits = trimmed
	return d
}

func (d decimal) equal(e decimal) bool {
	if d.digits == "" || e.digits == "" {
		return d.digits == e.digits // zero, whatever the sign and exponent
	}
	return d.neg == e.neg && d.digits == e.digits && d.exp.Cmp(e.exp) == 0
}
