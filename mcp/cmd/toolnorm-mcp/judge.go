package main

import (
	"bytes"
	"runtime/debug"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/normalize"
)

// judge is the answer to a case given what the server received (before
// the middleware) and what the tool's handler received (after).
func judge(o impl.Options, schema, args, before, after []byte) impl.Result {
	if reason := rejects(o, schema, args); reason != "" && bytes.Equal(before, after) {
		return impl.Reject(impl.ErrUnspecified, "the middleware passed the call on unnormalized, as it should: "+reason)
	}
	return impl.OK(after)
}

// rejects says why the reference, configured by o, rejects the case, or
// gives "" when it does not.
func rejects(o impl.Options, schema, args []byte) string {
	if _, err := reference(o, schema, args); err != nil {
		return err.Error()
	}
	return ""
}

// sameReference reports whether the reference, configured by o, gives the
// same for args under schemas a and b: the same output, or an error for
// both.
func sameReference(o impl.Options, a, b, args []byte) bool {
	outA, errA := reference(o, a, args)
	outB, errB := reference(o, b, args)
	if errA != nil || errB != nil {
		return (errA != nil) == (errB != nil)
	}
	return bytes.Equal(outA, outB)
}

func reference(o impl.Options, schema, args []byte) ([]byte, error) {
	s, err := normalize.Compile(schema, o.Normalize()...)
	if err != nil {
		return nil, err
	}
	return s.Normalize(args)
}

// moduleVersion is the version of the module at path this program was
// built with.
func moduleVersion(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == path {
				return m.Version
			}
		}
	}
	return "unknown"
}
