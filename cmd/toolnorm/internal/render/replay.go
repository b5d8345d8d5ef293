package render

import (
	"fmt"
	"io"

	"github.com/toolnorm/toolnorm/check"
	"github.com/toolnorm/toolnorm/internal/display"
)

// ReplayFailures writes what toolnorm corpus replay shows of the vectors
// that failed and those the implementation failed on: each with its
// input, what it expects and what came.
func ReplayFailures(w io.Writer, c check.CorpusResult) {
	for _, v := range c.Failures {
		fmt.Fprintf(w, "FAIL %s: %s\n", display.Text(v.Label()), display.Text(v.Description))
		writeFields(w, exchange(v))
	}
	for _, v := range c.ErrorList {
		fmt.Fprintf(w, "ERROR %s: %s: the implementation failed (a failure of the program, not judged)\n", display.Text(v.Label()), display.Text(v.Description))
		writeFields(w, exchange(v))
	}
}

// exchange is a failed vector's input, what it expects and what came.
func exchange(v check.VectorFailure) []Field {
	f := []Field{{"schema", v.Schema}, {"arguments", v.Arguments}}
	if v.Options != "" {
		f = append(f, Field{"options", v.Options})
	}
	return append(f, Field{"want", v.Want}, Field{"got", v.Got})
}
