package normalize

import (
	"errors"
	"fmt"

	"github.com/toolnorm/toolnorm/internal/display"
)

// The kinds of bad arguments, for errors.Is on an [*Error].
var (
	// ErrSyntax: the arguments are not JSON text (RFC 8259), or not UTF-8.
	ErrSyntax = errors.New("invalid JSON")
	// ErrNotObject: the arguments are JSON, but not an object.
	ErrNotObject = errors.New("arguments must be a JSON object")
	// ErrTooDeep: arrays and objects nest deeper than the limit.
	ErrTooDeep = errors.New("nesting too deep")
	// ErrPattern: an ECMA-262 pattern of the schema did not finish
	// matching a key within the call's budget of pattern steps, or held
	// more than the backtracking matcher's bound: the declared type there
	// is not known, so there is no result.
	ErrPattern = errors.New("a pattern did not finish matching a key")
)

// Error reports arguments that cannot be normalized. No output is given
// with it.
type Error struct {
	// Offset is the byte offset in the arguments where the problem is. In
	// a value decoded from a string, it is the offset of that string.
	Offset int
	// Pointer is the JSON Pointer of the value being read ("" for the
	// arguments as a whole).
	Pointer string
	// Err is ErrSyntax, ErrNotObject, ErrTooDeep or ErrPattern, wrapped with the
	// detail; or, from [Schema.NormalizeContext], the error of the
	// context that stopped it (context.Canceled, context.DeadlineExceeded).
	Err error
}

func (e *Error) Error() string {
	if e.Pointer == "" {
		return fmt.Sprintf("normalize: %v at offset %d", e.Err, e.Offset)
	}
	// A pointer a thousand segments deep is cut to its ends.
	return fmt.Sprintf("normalize: %v at offset %d within %s", e.Err, e.Offset, display.Quote(display.Pointer(e.Pointer, 16)))
}

func (e *Error) Unwrap() error { return e.Err }
