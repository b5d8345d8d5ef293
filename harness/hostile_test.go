package harness

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toolnorm/toolnorm/impl"
)

// hangLimit is how long a test waits for a call that must return before
// it says the call hangs: not a bound on its speed (it returns in well
// under a second), a guard against waiting for ever.
const hangLimit = 2 * time.Minute

// returns runs f and fails the test if it has not returned within
// hangLimit.
func returns(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(hangLimit):
		t.Fatalf("%s hangs", what)
	}
}

// notReading is an adapter that answers start, then every id in turn
// with an error, as fast as it can, and never reads another request.
const notReading = `read l; echo '{"version":1,"implementation":{"name":"a"}}'; i=1; while :; do echo "{\"id\":$i,\"error\":\"x\"}"; i=$((i+1)); done`

// bigCases are n cases of about size bytes each: a window of them is
// more than a pipe holds.
func bigCases(n, size int) []impl.Case {
	var cs []impl.Case
	for i := range n {
		cs = append(cs, impl.Case{Schema: []byte(`{}`), Args: fmt.Appendf(nil, `{"i":%d,"t":"%s"}`, i, strings.Repeat("x", size))})
	}
	return cs
}

// TestAdapterDoesNotRead: an adapter that answers every request without
// reading its input. The requests of a window (512 KiB) fill the pipe
// and the write of them never ends, while the answers come. The window's
// last answer came before its request could be read: a protocol error,
// and the adapter is restarted. Neither RunBatch nor Close waits for the
// write that never ends (Close used to write stop under the lock that
// write held, for ever).
func TestAdapterDoesNotRead(t *testing.T) {
	for _, tt := range []struct {
		name string
		jobs int
	}{{"adapter", 0}, {"pool", 2}} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Command: notReading, Timeout: 2 * time.Second}
			var im interface {
				impl.Batcher
				Close() error
			}
			var err error
			if tt.jobs == 0 {
				im, err = Start(cfg)
			} else {
				im, err = StartPool(cfg, tt.jobs)
			}
			if err != nil {
				t.Fatal(err)
			}
			var results []impl.Result
			returns(t, "RunBatch", func() { results = im.RunBatch(context.Background(), bigCases(128*max(tt.jobs, 1), 4000)) })
			protocol := 0
			for _, r := range results {
				if r.Kind() == impl.KindProtocol && strings.Contains(r.Detail, "before the adapter read") {
					protocol++
				}
			}
			if protocol == 0 {
				t.Errorf("no answer was refused as given before its request was read: %v", results[len(results)-1])
			}
			returns(t, "Close", func() { im.Close() })
		})
	}
}

// TestAdapterDoesNotReadStopped: stopped while a write to an adapter
// that does not read is under way, RunBatch and Close return.
func TestAdapterDoesNotReadStopped(t *testing.T) {
	a, err := Start(Config{Command: notReading, Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	returns(t, "RunBatch", func() { a.RunBatch(ctx, bigCases(128, 4000)) })
	returns(t, "Close", func() { a.Close() })
}

// TestStartStderrShown: the standard error of an adapter that cannot
// start is shown escaped: no control character reaches the terminal, and
// no line of it can act as a CI workflow command (GitHub Actions reads
// "::error::" at the start of a line, spaces skipped, and "##[error]"
// anywhere in one).
func TestStartStderrShown(t *testing.T) {
	_, err := Start(Config{Command: `printf '\033[2Jboom\n::error::pwned\n  ::warning file=x::y\nsee ##[error]z\n\033]0;title\007' >&2; exit 1`})
	if err == nil {
		t.Fatal("started")
	}
	msg := err.Error()
	if !strings.Contains(msg, "boom") || !strings.Contains(msg, "pwned") {
		t.Errorf("the standard error is not shown: %q", msg)
	}
	for _, c := range msg {
		if c < ' ' && c != '\n' || c == 0x7f {
			t.Errorf("a control character %U in %q", c, msg)
		}
	}
	for _, l := range strings.Split(msg, "\n") {
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") || strings.Contains(l, "##[") {
			t.Errorf("the line %q can act as a workflow command", l)
		}
	}
}

// TestStartContext: a start that gets no answer stops as soon as its
// context is done (a budget, an interrupt), whatever StartTimeout says,
// and says why; the program is killed.
func TestStartContext(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(100*time.Millisecond, func() { cancel(fmt.Errorf("the budget ran out")) })
	var err error
	returns(t, "StartContext", func() {
		_, err = StartContext(ctx, Config{Command: adapterCommand("silent"), StartTimeout: time.Hour})
	})
	if err == nil || !strings.Contains(err.Error(), "the budget ran out") {
		t.Errorf("StartContext = %v, want an error naming the cause", err)
	}
	ctx, cancel = context.WithCancelCause(context.Background())
	time.AfterFunc(100*time.Millisecond, func() { cancel(fmt.Errorf("interrupted")) })
	returns(t, "StartPoolContext", func() {
		_, err = StartPoolContext(ctx, Config{Command: adapterCommand("silent"), StartTimeout: time.Hour}, 2)
	})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("StartPoolContext = %v, want an error naming the cause", err)
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestReadAheadBounded: the answers read ahead of what the harness takes
// are bounded in bytes, not in lines: an adapter that writes 300 lines of
// 64 KiB that nothing takes has at most maxAhead of them read (it used to
// have 1,024 lines of up to a MiB each read, 939 MB for one adapter).
// Then each line taken lets the reader go on, to the end.
func TestReadAheadBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const n, size = 300, 64 << 10
		src := &countingReader{r: strings.NewReader(strings.Repeat(strings.Repeat("x", size-1)+"\n", n))}
		p := newProcess(Config{})
		p.limit.Store(1 << 20)
		go p.read(bufio.NewReaderSize(src, 64<<10))
		synctest.Wait()
		if most := maxAhead + 2*size + 64<<10; src.n > most {
			t.Errorf("%d bytes read ahead of the harness, want at most %d", src.n, most)
		}
		for i := range n {
			l := p.next()
			if l.err != nil || len(l.data) != size-1 {
				t.Fatalf("line %d: %d bytes, %v", i, len(l.data), l.err)
			}
		}
		if l := p.next(); l.err != io.EOF {
			t.Errorf("after the lines: %v, want EOF", l.err)
		}
		close(p.quit)
	})
}
