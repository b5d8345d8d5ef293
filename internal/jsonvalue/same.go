package jsonvalue

import (
	"bytes"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
)

// Same reports whether a and b are each one JSON value that Parse reads,
// and the same value by Equal: EqualJSON's answer, its error taken for
// "not the same". It reads the two texts side by side, building neither
// value, and stops at the first difference: a megabyte answer is told
// from a small value after a few bytes, where EqualJSON parses both whole
// (what a check does many times over when it seeks what explains an
// answer).
func Same(a, b []byte) bool {
	if len(a) <= MaxDepth && bytes.Equal(a, b) {
		return jsonraw.Valid(a) // too short to nest past MaxDepth
	}
	i, j, ok := sameValue(a, jsonraw.SkipSpace(a, 0), b, jsonraw.SkipSpace(b, 0), 0)
	return ok && jsonraw.SkipSpace(a, i) == len(a) && jsonraw.SkipSpace(b, j) == len(b)
}

// sameValue compares the values at a[i] and b[j], nested depth deep, as
// parser.value reads them, and returns the indexes past them.
func sameValue(a []byte, i int, b []byte, j int, depth int) (int, int, bool) {
	if i >= len(a) || j >= len(b) {
		return 0, 0, false
	}
	switch ca, cb := a[i], b[j]; {
	case ca == '"':
		if cb != '"' {
			return 0, 0, false
		}
		return sameString(a, i+1, b, j+1)
	case ca == '-' || '0' <= ca && ca <= '9':
		ei, err := jsonraw.ScanNumber(a, i)
		if err != nil {
			return 0, 0, false
		}
		ej, err := jsonraw.ScanNumber(b, j)
		if err != nil {
			return 0, 0, false
		}
		x, y := a[i:ei], b[j:ej]
		return ei, ej, bytes.Equal(x, y) || EqualNumbers(string(x), string(y))
	case ca == '{' || ca == '[':
		if cb != ca || depth >= MaxDepth {
			return 0, 0, false
		}
		if ca == '{' {
			return sameObject(a, i, b, j, depth+1)
		}
		return sameArray(a, i, b, j, depth+1)
	}
	ei, err := jsonraw.ScanLiteral(a, i)
	if err != nil {
		return 0, 0, false
	}
	ej, err := jsonraw.ScanLiteral(b, j)
	return ei, ej, err == nil && bytes.Equal(a[i:ei], b[j:ej])
}

// sameString compares two strings by value, unit by unit, from past
// their opening quotes; it returns the indexes past their closing quotes.
func sameString(a []byte, i int, b []byte, j int) (int, int, bool) {
	var ua, ub [4]byte
	for {
		// Plain ASCII written alike: most of any two strings that are the same.
		for i < len(a) && j < len(b) && a[i] == b[j] && a[i] >= 0x20 && a[i] < 0x80 && a[i] != '"' && a[i] != '\\' {
			i, j = i+1, j+1
		}
		x, ni, endA, err := jsonraw.NextUnit(ua[:0], a, i)
		if err != nil {
			return 0, 0, false
		}
		y, nj, endB, err := jsonraw.NextUnit(ub[:0], b, j)
		if err != nil || endA != endB || !bytes.Equal(x, y) {
			return 0, 0, false
		}
		if endA {
			return ni, nj, true
		}
		i, j = ni, nj
	}
}

// sameObject compares the objects at a[i] and b[j], member by member in
// order, as parser.object reads them.
func sameObject(a []byte, i int, b []byte, j int, depth int) (int, int, bool) {
	i, j = jsonraw.SkipSpace(a, i+1), jsonraw.SkipSpace(b, j+1)
	if ea, eb := at(a, i, '}'), at(b, j, '}'); ea || eb {
		return i + 1, j + 1, ea && eb
	}
	for {
		if !at(a, i, '"') || !at(b, j, '"') {
			return 0, 0, false
		}
		var ok bool
		if i, j, ok = sameString(a, i+1, b, j+1); !ok {
			return 0, 0, false
		}
		i, j = jsonraw.SkipSpace(a, i), jsonraw.SkipSpace(b, j)
		if !at(a, i, ':') || !at(b, j, ':') {
			return 0, 0, false
		}
		if i, j, ok = sameValue(a, jsonraw.SkipSpace(a, i+1), b, jsonraw.SkipSpace(b, j+1), depth); !ok {
			return 0, 0, false
		}
		var end bool
		if i, j, end, ok = next(a, i, b, j, '}'); !ok || end {
			return i, j, ok
		}
	}
}

// sameArray compares the arrays at a[i] and b[j], element by element.
func sameArray(a []byte, i int, b []byte, j int, depth int) (int, int, bool) {
	i, j = jsonraw.SkipSpace(a, i+1), jsonraw.SkipSpace(b, j+1)
	if ea, eb := at(a, i, ']'), at(b, j, ']'); ea || eb {
		return i + 1, j + 1, ea && eb
	}
	for {
		var ok, end bool
		if i, j, ok = sameValue(a, i, b, j, depth); !ok {
			return 0, 0, false
		}
		if i, j, end, ok = next(a, i, b, j, ']'); !ok || end {
			return i, j, ok
		}
	}
}

// next reads what follows a member or an element on both sides: a comma
// on both (the indexes past it and its space), or the container's close
// on both (end, the indexes past it).
func next(a []byte, i int, b []byte, j int, close byte) (int, int, bool, bool) {
	i, j = jsonraw.SkipSpace(a, i), jsonraw.SkipSpace(b, j)
	switch {
	case at(a, i, ',') && at(b, j, ','):
		return jsonraw.SkipSpace(a, i+1), jsonraw.SkipSpace(b, j+1), false, true
	case at(a, i, close) && at(b, j, close):
		return i + 1, j + 1, true, true
	}
	return 0, 0, false, false
}

func at(b []byte, i int, c byte) bool { return i < len(b) && b[i] == c }
