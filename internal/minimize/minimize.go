// Package minimize is the one minimizer every finding goes through: it
// shrinks a failing case (a schema and arguments) while it still fails.
package minimize

import (
	"context"

	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// maxTries bounds how many candidates Minimize tries.
const maxTries = 5000

// Minimize shrinks a failing case while fails still holds: it drops object
// members and array elements (in the arguments and in the schema), and
// shortens strings in the arguments (a string that holds compact JSON text
// is shrunk as JSON first). Text that is not JSON is shortened a
// byte range at a time. It returns the smallest case it found; when ctx
// is done it stops trying and returns what it has.
func Minimize(ctx context.Context, schema, args []byte, fails func(schema, args []byte) bool) ([]byte, []byte) {
	tries := 0
	try := func(s, a []byte) bool {
		if tries >= maxTries || ctx.Err() != nil {
			return false
		}
		tries++
		return fails(s, a)
	}
	for changed := true; changed && tries < maxTries; {
		changed = false
		if a, ok := shrinkText(args, func(a []byte) bool { return try(schema, a) }, true); ok {
			args, changed = a, true
		}
		if s, ok := shrinkText(schema, func(s []byte) bool { return try(s, args) }, false); ok {
			schema, changed = s, true
		}
	}
	return schema, args
}

// shrinkText makes one round of reductions of b that keep ok true.
func shrinkText(b []byte, ok func([]byte) bool, strings bool) ([]byte, bool) {
	root, err := jsonvalue.Parse(b)
	if err != nil {
		return shrinkBytes(b, ok)
	}
	changed := false
	test := func() bool {
		if ok(root.Append(nil)) {
			changed = true
			return true
		}
		return false
	}
	shrinkValue(root, test, strings)
	if !changed {
		return b, false
	}
	return root.Append(nil), true
}

// shrinkValue tries, depth first, to drop each member and element of v and
// to shorten each string, keeping a change when test holds.
func shrinkValue(v *jsonvalue.Value, test func() bool, strings bool) {
	switch v.Kind {
	case jsonvalue.Object:
		for i := 0; i < len(v.Members); {
			saved := v.Members
			v.Members = append(append([]jsonvalue.Member{}, saved[:i]...), saved[i+1:]...)
			if test() {
				continue
			}
			v.Members = saved
			shrinkValue(v.Members[i].Value, test, strings)
			i++
		}
	case jsonvalue.Array:
		for i := 0; i < len(v.Elems); {
			saved := v.Elems
			v.Elems = append(append([]*jsonvalue.Value{}, saved[:i]...), saved[i+1:]...)
			if test() {
				continue
			}
			v.Elems = saved
			shrinkValue(v.Elems[i], test, strings)
			i++
		}
	case jsonvalue.String:
		if !strings {
			return
		}
		// A string that holds compact JSON text is shrunk as JSON first:
		// members and elements dropped from it, its strings shortened.
		if inner, err := jsonvalue.Parse([]byte(v.Str)); err == nil && (inner.Kind == jsonvalue.Object || inner.Kind == jsonvalue.Array) && string(inner.Append(nil)) == v.Str {
			shrinkValue(inner, func() bool {
				saved := v.Str
				v.Str = string(inner.Append(nil))
				if test() {
					return true
				}
				v.Str = saved
				return false
			}, strings)
		}
		// Drop chunks, halving their size, as delta debugging does.
		for size := len(v.Str) / 2; size >= 1; size /= 2 {
			for i := 0; i+size <= len(v.Str); {
				if !boundary(v.Str, i) || !boundary(v.Str, i+size) {
					i++
					continue
				}
				saved := v.Str
				v.Str = saved[:i] + saved[i+size:]
				if test() {
					continue
				}
				v.Str = saved
				i += size
			}
		}
	}
}

// shrinkBytes drops byte ranges of b, halving their size, while ok holds.
func shrinkBytes(b []byte, ok func([]byte) bool) ([]byte, bool) {
	changed := false
	for size := len(b) / 2; size >= 1; size /= 2 {
		for i := 0; i+size <= len(b); {
			c := append(append([]byte{}, b[:i]...), b[i+size:]...)
			if ok(c) {
				b, changed = c, true
				continue
			}
			i += size
		}
	}
	return b, changed
}

// boundary reports whether s[i:] starts a character (or s ends at i): cuts
// there keep every character whole.
func boundary(s string, i int) bool {
	return i == len(s) || s[i] < 0x80 || s[i] >= 0xC0
}
