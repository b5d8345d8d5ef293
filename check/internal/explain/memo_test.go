package explain

import (
	"context"
	"reflect"
	"testing"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
)

// A Memo changes no root cause: Explain with one, shared by two runs (as
// a check's fuzzer and its root causes share it), gives what Explain
// without one gives, for deviations planted one at a time; and the
// second run finds its answers in the Memo.
func TestMemoSameRootCauses(t *testing.T) {
	vs := someVectors(t)
	for _, id := range []string{"entities-one-pass", "json-string-admitted", "json-any-branch"} {
		d := deviation.ByID(id)
		if d == nil {
			t.Fatalf("no deviation %s", id)
		}
		t.Run(id, func(t *testing.T) {
			im := d.Impl()
			fs := findings(im, vs)
			if len(fs) == 0 {
				t.Fatal("no vector of the sample shows it")
			}
			plain := Explain(ctx, Config{Impl: im, Want: want}, fs)
			var m Memo
			for run := range 2 {
				got := Explain(ctx, Config{Impl: im, Want: want, Memo: &m}, fs)
				if !reflect.DeepEqual(got, plain) {
					t.Fatalf("run %d with a memo: %v, without: %v", run, ids(got), ids(plain))
				}
				if len(m.m) == 0 {
					t.Fatalf("run %d: the memo holds nothing", run)
				}
			}
		})
	}
}

func ids(rcs []RootCause) []string {
	var out []string
	for _, rc := range rcs {
		out = append(out, rc.ID)
	}
	return out
}

// explains answers from the Memo its context carries when the question is
// in it, and remembers nothing for a failure, for a context done, or past
// maxMemoBytes.
func TestMemoAnswersAndBounds(t *testing.T) {
	d := deviation.ByID("entities-one-pass")
	c := impl.Case{Schema: []byte(`{"type":"object"}`), Args: []byte(`{"q":"&amp;amp;"}`)}
	got := deviation.Apply(ctx, c, d)
	x := explanation{d}
	var m Memo
	mctx := withMemo(ctx, &m)
	if !x.explains(mctx, c, got) {
		t.Fatal("the deviation does not explain its own answer")
	}
	if len(m.m) != 1 || m.bytes == 0 {
		t.Fatalf("memo %d entries, %d bytes, want 1", len(m.m), m.bytes)
	}
	// A remembered answer is the one given: set it false, and it is read.
	for k := range m.m {
		m.m[k] = false
	}
	if x.explains(mctx, c, got) {
		t.Error("the memo's answer was not read")
	}
	// A failure, or a context done, is not remembered.
	x.explains(mctx, c, impl.Fail(impl.ErrNotSendable, ""))
	done, cancel := context.WithCancel(mctx)
	cancel()
	x.explains(done, impl.Case{Schema: c.Schema, Args: []byte(`{"q":"&lt;"}`)}, got)
	if len(m.m) != 1 {
		t.Errorf("memo %d entries, want 1", len(m.m))
	}
	// Past its bound it keeps nothing new.
	m.bytes = maxMemoBytes
	x.explains(mctx, impl.Case{Schema: c.Schema, Args: []byte(`{"q":"&gt;"}`)}, got)
	if len(m.m) != 1 {
		t.Errorf("memo full: %d entries, want 1", len(m.m))
	}
}
