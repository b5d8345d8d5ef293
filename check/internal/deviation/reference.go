package deviation

import (
	"context"
	"sync"

	"github.com/toolnorm/toolnorm/impl"
)

// reference is the reference's answer to c, remembered: a deviation is
// applied starting from the reference's answer to the case (and to the
// schema a rewrite made of it), and the lab of package explain applies
// each of a hundred deviations, alone and in pairs, to the same witness,
// some of which nest deep or hold 64 KiB. The answer is the same
// whenever it is asked; failures (a context done) are not remembered.
// Callers must not change what the answer holds.
func reference(ctx context.Context, c impl.Case) impl.Result {
	k := c.Key()
	answers.mu.Lock()
	r, ok := answers.m[k]
	answers.mu.Unlock()
	if ok {
		return r
	}
	r = impl.Reference.Normalize(ctx, c)
	if r.Failure != nil {
		return r
	}
	answers.mu.Lock()
	defer answers.mu.Unlock()
	if answers.bytes+len(k)+len(r.Output) > maxRemembered {
		clear(answers.m) // started over: the cases of one explanation ask again and again, of another not
		answers.bytes = 0
	}
	answers.m[k] = r
	answers.bytes += len(k) + len(r.Output)
	return r
}

// maxRemembered bounds the bytes of the cases and answers reference keeps.
const maxRemembered = 32 << 20

var answers = struct {
	mu    sync.Mutex
	m     map[string]impl.Result
	bytes int
}{m: map[string]impl.Result{}}
