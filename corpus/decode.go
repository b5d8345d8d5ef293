package corpus

import (
	"bytes"
	"encoding/json"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
)

// decodeCommon reads a vector file of the shape nearly every file has,
// without encoding/json: an object of id, description, clause, tags,
// origin, schema, arguments and expected, each at most once, the strings
// without escapes, schema, arguments and expected neither null nor
// nested deeply. It reports false for any other file, which Decode reads
// with encoding/json; for a file it reads, the vector is encoding/json's.
func decodeCommon(data []byte) (*Vector, bool) {
	var v Vector
	var seen uint
	i := jsonraw.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	i = jsonraw.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil, false // an empty object: Decode says what is missing, if anything
	}
	for {
		key, end, ok := plainString(data, i)
		if !ok {
			return nil, false
		}
		i = jsonraw.SkipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = jsonraw.SkipSpace(data, i+1)
		var bit uint
		var str *string
		var raw *json.RawMessage
		switch string(key) {
		case "id":
			bit, str = 1, &v.ID
		case "description":
			bit, str = 2, &v.Description
		case "clause":
			bit, str = 4, &v.Clause
		case "origin":
			bit, str = 8, &v.Origin
		case "tags":
			bit = 16
		case "schema":
			bit, raw = 32, &v.Schema
		case "arguments":
			bit, raw = 64, &v.Arguments
		case "expected":
			bit, raw = 128, &v.Expected
		default:
			return nil, false
		}
		if seen&bit != 0 {
			return nil, false
		}
		seen |= bit
		switch {
		case str != nil:
			s, end, ok := plainString(data, i)
			if !ok {
				return nil, false
			}
			*str, i = string(s), end
		case raw != nil:
			end, ok := skipValue(data, i)
			if !ok || bytes.Equal(data[i:end], []byte("null")) {
				return nil, false
			}
			*raw, i = bytes.Clone(data[i:end]), end
		default:
			if i >= len(data) || data[i] != '[' {
				return nil, false
			}
			v.Tags = []string{}
			i = jsonraw.SkipSpace(data, i+1)
			for i < len(data) && data[i] != ']' {
				if len(v.Tags) > 0 {
					if data[i] != ',' {
						return nil, false
					}
					i = jsonraw.SkipSpace(data, i+1)
				}
				s, end, ok := plainString(data, i)
				if !ok {
					return nil, false
				}
				v.Tags = append(v.Tags, string(s))
				i = jsonraw.SkipSpace(data, end)
			}
			if i >= len(data) {
				return nil, false
			}
			i++
		}
		i = jsonraw.SkipSpace(data, i)
		if i >= len(data) {
			return nil, false
		}
		if data[i] == '}' {
			break
		}
		if data[i] != ',' {
			return nil, false
		}
		i = jsonraw.SkipSpace(data, i+1)
	}
	if jsonraw.SkipSpace(data, i+1) != len(data) {
		return nil, false
	}
	return &v, true
}

// plainString is the text of the string at data[i], if it is one with no
// escape, and where it ends.
func plainString(data []byte, i int) ([]byte, int, bool) {
	if i >= len(data) || data[i] != '"' {
		return nil, 0, false
	}
	end, f, err := jsonraw.ScanString(data, i)
	if err != nil || f&jsonraw.Escaped != 0 {
		return nil, 0, false
	}
	return data[i+1 : end-1], end, true
}

// maxCommonDepth is how deeply a value decodeCommon takes may nest, far
// below encoding/json's limit.
const maxCommonDepth = 1000

// skipValue returns where the JSON value at data[i] ends, if it is valid
// and nested less than maxCommonDepth deep.
func skipValue(data []byte, i int) (int, bool) {
	depth := 0
	j := i
	for j < len(data) {
		switch data[j] {
		case '"':
			end, _, err := jsonraw.ScanString(data, j)
			if err != nil {
				return 0, false
			}
			j = end
			if depth == 0 {
				return j, true
			}
			continue
		case '{', '[':
			if depth++; depth >= maxCommonDepth {
				return 0, false
			}
		case '}', ']':
			if depth--; depth < 0 {
				return 0, false
			}
			if depth == 0 {
				j++
				return j, jsonraw.Valid(data[i:j])
			}
		case ',', ':':
			if depth == 0 {
				return 0, false
			}
		default:
			if depth == 0 {
				var end int
				var err error
				if c := data[j]; c == '-' || '0' <= c && c <= '9' {
					end, err = jsonraw.ScanNumber(data, j)
				} else {
					end, err = jsonraw.ScanLiteral(data, j)
				}
				return end, err == nil
			}
		}
		j++
	}
	return 0, false
}
