package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// A node is one JSON value in an ordered tree: unlike map[string]any, it keeps
// the order of an object's members and its duplicate members, and a number's
// exact text.
//
// The tree is built with encoding/json, which has one known limitation here: it
// decodes a lone surrogate escape such as "\ud800" as U+FFFD, so a node cannot
// hold a lone surrogate. Differential tests compare after the same
// canonicalization.
type node struct {
	kind    kind
	boolean bool        // kindBool
	number  json.Number // kindNumber: the number's text as it was written
	str     string      // kindString
	elems   []*node     // kindArray
	members []member    // kindObject, in order, duplicates included
}

type member struct {
	key   string
	value *node
}

type kind int

const (
	kindNull kind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k kind) String() string {
	switch k {
	case kindNull:
		return "null"
	case kindBool:
		return "boolean"
	case kindNumber:
		return "number"
	case kindString:
		return "string"
	case kindArray:
		return "array"
	case kindObject:
		return "object"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// errTooDeep is wrapped by the errors of parseJSON for input nested deeper
// than its limit.
var errTooDeep = errors.New("nesting too deep")

// parseJSON parses data as exactly one JSON value (RFC 8259), with JSON
// whitespace around it and nothing else. Arrays and objects may be nested at
// most maxDepth deep (the outermost one is at depth 1). Input that is not
// valid UTF-8 is rejected, because encoding/json would silently replace the
// bad bytes.
func parseJSON(data []byte, maxDepth int) (*node, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("invalid UTF-8 at offset %d", invalidUTF8Offset(data))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readValue(dec, 0, maxDepth)
	if err != nil {
		return nil, err
	}
	offset := dec.InputOffset()
	switch tok, err := dec.Token(); {
	case err == io.EOF:
		return v, nil
	case err != nil:
		return nil, fmt.Errorf("invalid JSON after the value at offset %d: %w", offset, err)
	default:
		return nil, fmt.Errorf("invalid JSON: %v after the value at offset %d", tok, offset)
	}
}

// readValue reads the next value from dec. depth is the number of arrays and
// objects that enclose it.
func readValue(dec *json.Decoder, depth, maxDepth int) (*node, error) {
	tok, err := readToken(dec)
	if err != nil {
		return nil, err
	}
	return valueFrom(dec, tok, depth, maxDepth)
}

// readToken is dec.Token, with an end of input reported as unexpected: it is
// only called where a token must follow.
func readToken(dec *json.Decoder) (json.Token, error) {
	tok, err := dec.Token()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		offset := dec.InputOffset()
		var se *json.SyntaxError
		if errors.As(err, &se) {
			offset = se.Offset
		}
		return nil, fmt.Errorf("invalid JSON at offset %d: %w", offset, err)
	}
	return tok, nil
}

// valueFrom builds the value that begins with tok.
func valueFrom(dec *json.Decoder, tok json.Token, depth, maxDepth int) (*node, error) {
	switch t := tok.(type) {
	case nil:
		return &node{kind: kindNull}, nil
	case bool:
		return &node{kind: kindBool, boolean: t}, nil
	case json.Number:
		return &node{kind: kindNumber, number: t}, nil
	case string:
		return &node{kind: kindString, str: t}, nil
	case json.Delim:
		if depth+1 > maxDepth {
			return nil, fmt.Errorf("%w: more than %d levels at offset %d", errTooDeep, maxDepth, dec.InputOffset()-1)
		}
		switch t {
		case '[':
			v := &node{kind: kindArray}
			for {
				tok, err := readToken(dec)
				if err != nil {
					return nil, err
				}
				if tok == json.Delim(']') {
					return v, nil
				}
				elem, err := valueFrom(dec, tok, depth+1, maxDepth)
				if err != nil {
					return nil, err
				}
				v.elems = append(v.elems, elem)
			}
		case '{':
			v := &node{kind: kindObject}
			for {
				tok, err := readToken(dec)
				if err != nil {
					return nil, err
				}
				if tok == json.Delim('}') {
					return v, nil
				}
				key, ok := tok.(string) // the Decoder only gives strings here
				if !ok {
					return nil, fmt.Errorf("invalid JSON at offset %d: object key %v", dec.InputOffset(), tok)
				}
				value, err := readValue(dec, depth+1, maxDepth)
				if err != nil {
					return nil, err
				}
				v.members = append(v.members, member{key, value})
			}
		}
	}
	return nil, fmt.Errorf("invalid JSON at offset %d: unexpected %v", dec.InputOffset(), tok)
}

// invalidUTF8Offset returns the offset of the first byte of data that is not
// part of a valid UTF-8 encoding.
func invalidUTF8Offset(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// appendJSON appends the compact JSON text of v to b. Strings are written
// with encoding/json without HTML escaping, so '<', '>' and '&' stay as they
// are; numbers are written with their original text.
func appendJSON(b *bytes.Buffer, v *node) {
	switch v.kind {
	case kindNull:
		b.WriteString("null")
	case kindBool:
		if v.boolean {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case kindNumber:
		b.WriteString(v.number.String())
	case kindString:
		appendString(b, v.str)
	case kindArray:
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			appendJSON(b, e)
		}
		b.WriteByte(']')
	case kindObject:
		b.WriteByte('{')
		for i, m := range v.members {
			if i > 0 {
				b.WriteByte(',')
			}
			appendString(b, m.key)
			b.WriteByte(':')
			appendJSON(b, m.value)
		}
		b.WriteByte('}')
	}
}

func appendString(b *bytes.Buffer, s string) {
	var out strings.Builder
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic("oracle: encoding a string: " + err.Error()) // cannot happen for a string
	}
	b.WriteString(strings.TrimSuffix(out.String(), "\n"))
}
