package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// A schema with a member named twice in one object is broken
// (docs/readings.md section 4): a reader that keeps the last would decide
// by an order the schema's author may not see. noDuplicateKeys walks the
// tokens of data, which must be JSON, and names the first such key.
func noDuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object  bool
		seen    map[string]bool
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the end, or an error json.Unmarshal reports
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].wantKey = true
			}
			continue
		}
		if top != nil && top.object && top.wantKey {
			key := tok.(string)
			if top.seen[key] {
				return fmt.Errorf("duplicate key %q", key)
			}
			top.seen[key] = true
			top.wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, seen: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		default:
			if top != nil && top.object {
				top.wantKey = true
			}
		}
	}
}
