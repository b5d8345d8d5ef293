package explain

import (
	"context"
	"strings"
	"sync"

	"github.com/toolnorm/toolnorm/check/internal/deviation"
	"github.com/toolnorm/toolnorm/impl"
)

// A Memo remembers whether an explanation gives an answer on a case, for
// every Explain of one check: the steps ask the same question of the same
// case many times (a witness judged for each deviation it may excuse, a
// finding explained when the fuzzer files it and again with the root
// causes), and each answer is the reference run with the deviations, a
// tree parsed and walked. The answer is a function of the case, the
// answer and the explanation, so a remembered one is the one the
// deviations would give again. It is safe for concurrent use; its keys
// are the cases' texts, at most maxMemoBytes of them, past which it only
// answers what it holds. The zero Memo is ready to use.
type Memo struct {
	mu    sync.Mutex
	m     map[string]bool
	bytes int
}

// maxMemoBytes bounds the text a Memo keeps: a check that finds many
// large counterexamples still holds a bounded memory.
const maxMemoBytes = 32 << 20

// memoKey is the key of the Memo in an Explain's context.
type memoKey struct{}

// withMemo is ctx carrying m to explains; ctx itself when m is nil.
func withMemo(ctx context.Context, m *Memo) context.Context {
	if m == nil {
		return ctx
	}
	return context.WithValue(ctx, memoKey{}, m)
}

// explains reports whether the reference with x gives got on c,
// remembered in the Memo ctx carries, if any. An answer found while ctx
// is done is not kept: the reference may have stopped early.
func (x explanation) explains(ctx context.Context, c impl.Case, got impl.Result) bool {
	m, _ := ctx.Value(memoKey{}).(*Memo)
	if m == nil || got.Failure != nil {
		return deviation.Explains(ctx, c, got, x...)
	}
	key := memoKeyOf(x, c, got)
	m.mu.Lock()
	v, ok := m.m[key]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = deviation.Explains(ctx, c, got, x...)
	if ctx.Err() != nil {
		return v
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bytes+len(key) <= maxMemoBytes {
		if m.m == nil {
			m.m = map[string]bool{}
		}
		if _, dup := m.m[key]; !dup {
			m.m[key] = v
			m.bytes += len(key)
		}
	}
	return v
}

// memoKeyOf is the question x explains c's got as a key: what impl.Same
// reads of got (its error kind, else its output), the case and the
// explanation's deviations.
func memoKeyOf(x explanation, c impl.Case, got impl.Result) string {
	var b strings.Builder
	out := got.Output
	if got.Error != "" {
		out = nil
	}
	b.Grow(len(c.Schema) + len(c.Args) + len(out) + 64)
	for _, d := range x {
		b.WriteString(d.ID)
		b.WriteByte('+')
	}
	b.WriteByte(0)
	b.WriteString(string(got.Error))
	b.WriteByte(0)
	b.Write(out)
	b.WriteByte(0)
	b.WriteString(c.Key())
	return b.String()
}
