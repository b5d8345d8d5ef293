package normalize

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolnorm/toolnorm/internal/jsonraw"
)

// Members of a schema object are read in document order, so that the
// first error of a broken schema is the same on every run (Go's map order
// is not), and a key given twice is refused rather than the last one
// silently winning (docs/readings.md section 4).

// duplicateKey is a member named twice in one object of a schema document.
type duplicateKey struct {
	key string
	ptr string // canonical JSON Pointer of the object
}

// memberOrder scans text, which encoding/json has decoded, and returns
// the keys of each object of two or more members in document order, by
// the object's canonical pointer; or the first duplicate key in document
// order.
func memberOrder(text []byte) (map[string][]string, *duplicateKey) {
	s := orderScanner{b: text}
	s.value(jsonraw.SkipSpace(text, 0))
	return s.order, s.dup
}

type orderScanner struct {
	b     []byte
	path  []string // escaped pointer tokens of the value being scanned
	order map[string][]string
	dup   *duplicateKey
}

func (s *orderScanner) pointer() string {
	if len(s.path) == 0 {
		return ""
	}
	return "/" + strings.Join(s.path, "/")
}

// value scans the value at b[i] and returns the index past it.
func (s *orderScanner) value(i int) int {
	if s.dup != nil || i >= len(s.b) {
		return len(s.b)
	}
	switch c := s.b[i]; {
	case c == '{':
		return s.object(i)
	case c == '[':
		i = jsonraw.SkipSpace(s.b, i+1)
		for n := 0; i < len(s.b) && s.b[i] != ']'; n++ {
			s.path = append(s.path, strconv.Itoa(n))
			i = jsonraw.SkipSpace(s.b, s.value(i))
			s.path = s.path[:len(s.path)-1]
			if i < len(s.b) && s.b[i] == ',' {
				i = jsonraw.SkipSpace(s.b, i+1)
			}
		}
		return i + 1
	case c == '"':
		end, _, _ := jsonraw.ScanString(s.b, i)
		return end
	case c == '-' || '0' <= c && c <= '9':
		end, _ := jsonraw.ScanNumber(s.b, i)
		return end
	default:
		end, _ := jsonraw.ScanLiteral(s.b, i)
		return end
	}
}

func (s *orderScanner) object(i int) int {
	var keys []string
	var seen map[string]bool // once there are many keys
	i = jsonraw.SkipSpace(s.b, i+1)
	for i < len(s.b) && s.b[i] == '"' && s.dup == nil {
		end, f, _ := jsonraw.ScanString(s.b, i)
		var key string
		if f&jsonraw.Escaped == 0 {
			key = string(s.b[i+1 : end-1])
		} else {
			// As encoding/json reads it, which the schema's maps hold.
			_ = json.Unmarshal(s.b[i:end], &key)
		}
		if seen != nil && seen[key] || seen == nil && slices.Contains(keys, key) {
			s.dup = &duplicateKey{key: key, ptr: s.pointer()}
			return len(s.b)
		}
		keys = append(keys, key)
		if len(keys) == 16 {
			seen = make(map[string]bool, 32)
			for _, k := range keys {
				seen[k] = true
			}
		} else if seen != nil {
			seen[key] = true
		}
		i = jsonraw.SkipSpace(s.b, end)
		i = jsonraw.SkipSpace(s.b, i+1) // past ':'
		s.path = append(s.path, escapeToken(key))
		i = jsonraw.SkipSpace(s.b, s.value(i))
		s.path = s.path[:len(s.path)-1]
		if i < len(s.b) && s.b[i] == ',' {
			i = jsonraw.SkipSpace(s.b, i+1)
		}
	}
	if len(keys) > 1 && s.dup == nil {
		if s.order == nil {
			s.order = map[string][]string{}
		}
		s.order[s.pointer()] = keys
	}
	return i + 1
}

// members returns the keys of m, the object at ptr in d, in document
// order.
func (d *document) members(ptr string, m map[string]any) []string {
	if len(m) == 1 {
		for k := range m {
			return []string{k}
		}
	}
	if keys, ok := d.order[ptr]; ok && len(keys) == len(m) {
		return keys
	}
	// Not from JSON text: in the order of the keys' bytes, still the same
	// on every run.
	return slices.Sorted(maps.Keys(m))
}
