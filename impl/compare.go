package impl

import (
	"github.com/toolnorm/toolnorm/internal/jsonvalue"
)

// Comparison is the judgement of one result against the expected one.
type Comparison struct {
	// Failure is not nil when the result is a failure of the program (a
	// timeout, a crash, a protocol error, a case not sent or not run):
	// nothing was compared, and it is no violation of the rule.
	Failure error
	// Diff says how an answer differs from the expected one: "" when they
	// are the same. It is short and stable, so that differences can be
	// told apart and bucketed by it.
	Diff string
}

// Same reports whether the result is the expected one.
func (c Comparison) Same() bool { return c.Failure == nil && c.Diff == "" }

// Violation reports whether the result is an answer other than the
// expected one.
func (c Comparison) Violation() bool { return c.Failure == nil && c.Diff != "" }

// Compare judges got against want, the one rule every check uses (corpus
// replay and lint, properties, fuzzing, minimization): outputs are equal
// when they are equal as JSON values (see jsonvalue.Equal); errors of one
// kind are equal, and an error of unspecified kind (all that the protocol
// carries) equals an error of any kind; an error where output is expected,
// or output where an error is, differs. A failure, on either side, is not
// compared.
func Compare(got, want Result) Comparison {
	switch {
	case got.Failure != nil:
		return Comparison{Failure: got.Failure}
	case want.Failure != nil: // no expected result (the reference stopped with its check)
		return Comparison{Failure: want.Failure}
	case want.Error != "" && got.Error != "" && (got.Error == want.Error || got.Error == ErrUnspecified || want.Error == ErrUnspecified):
		return Comparison{}
	case want.Error != "" && got.Error != "":
		return Comparison{Diff: got.Error.phrase() + ", want " + want.Error.phrase()}
	case want.Error != "":
		return Comparison{Diff: "output, want " + want.Error.phrase()}
	case got.Error != "":
		return Comparison{Diff: got.Error.phrase() + ", want output"}
	}
	if jsonvalue.Same(got.Output, want.Output) {
		return Comparison{}
	}
	if eq, err := jsonvalue.EqualJSON(got.Output, want.Output); err != nil {
		return Comparison{Diff: "output that is not JSON"}
	} else if !eq {
		return Comparison{Diff: "wrong output"}
	}
	return Comparison{}
}

// Same is Compare(got, want).Same(), found without parsing either
// output: side by side, to the first difference (jsonvalue.Same). Where
// only whether a result is the expected one matters (explaining a
// finding compares its answer with what each deviation gives), a large
// answer costs what its first difference costs.
func Same(got, want Result) bool {
	switch {
	case got.Failure != nil || want.Failure != nil:
		return false
	case want.Error != "" && got.Error != "":
		return got.Error == want.Error || got.Error == ErrUnspecified || want.Error == ErrUnspecified
	case want.Error != "" || got.Error != "":
		return false
	}
	return jsonvalue.Same(got.Output, want.Output)
}

// MaxShown is how many bytes of a value a message shows.
const MaxShown = 300

// Message says, for a report, how got differs from want: what differs
// when the values show it only in part ("wrong output"), then each value
// as Result.String shows it, cut at MaxShown bytes. wantName introduces
// the expected one: "want", "the reference gives".
func (c Comparison) Message(got, want Result, wantName string) string {
	if c.Failure != nil {
		return got.Show(MaxShown)
	}
	msg := "got " + got.Show(MaxShown) + ", " + wantName + " " + want.Show(MaxShown)
	if got.Kind() == KindOutput && want.Kind() == KindOutput {
		msg = c.Diff + ": " + msg
	}
	return msg
}
