// Package mcptest drives the example servers in their tests: a JSON-RPC
// session over pipes, as over standard input and output, and the hostile
// tools/call requests of issue 34 ("Bounded on every input"), with what
// each costs to answer counted in bytes allocated.
package mcptest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/toolnorm/toolnorm/internal/hostile"
)

// A Call is a tools/call request of the examples' tool, tag_note, with id
// 2, as one JSON-RPC line.
type Call struct {
	// Name names it in the tests' output; Line is the request.
	Name string
	Line string
	// Args is how long its arguments are.
	Args int
	// Repaired is whether the arguments repaired are a valid call of
	// tag_note (else the server answers with a validation error).
	Repaired bool
}

// LongKeyLeaves is a call of about size bytes of arguments shaped as
// internal/hostile's long-key-leaves: one key of a quarter of the size
// above an array of "&amp;" filling the rest (at 10 MB, a key of 2.5 MB
// above 980,000 repairs). Repaired, it is still no call of tag_note: the
// server answers with its validation error.
func LongKeyLeaves(size int) Call {
	args := hostile.LongKeyLeaves(size).Args
	return Call{Name: "long-key-leaves", Line: line(string(args)), Args: len(args)}
}

// Tags is a valid call of tag_note of about size bytes of arguments,
// whose tags are as many "&amp;" as fit (a repair each: 260,000 at 2 MB),
// and which goes through once repaired.
func Tags(size int) Call {
	n := (size - 40) / 8
	args := `{"title":"t&amp;","tags":[` + strings.Repeat(`"&amp;",`, n-1) + `"&amp;"]}`
	return Call{Name: "tags", Line: line(args), Args: len(args), Repaired: true}
}

// line is the tools/call request of tag_note with arguments args, id 2.
func line(args string) string {
	return `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tag_note","arguments":` + args + `}}`
}

// A Session is a client of a server that reads JSON-RPC lines from one
// pipe and writes its answers on another.
type Session struct {
	in      *io.PipeWriter
	answers *bufio.Reader
}

// Start starts serve on a pair of pipes and initializes the session.
func Start(t testing.TB, serve func(ctx context.Context, in *io.PipeReader, out *io.PipeWriter)) *Session {
	t.Helper()
	clientToServer, serverIn := io.Pipe()
	serverOut, serverToClient := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	go serve(ctx, clientToServer, serverToClient)
	s := &Session{in: serverIn, answers: bufio.NewReaderSize(serverOut, 1<<20)}
	t.Cleanup(func() {
		serverIn.Close()
		cancel()
		serverOut.Close()
	})
	s.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}`)
	s.answer(t, 1)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *Session) send(t testing.TB, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// answer returns the answer to the request id, skipping notifications.
func (s *Session) answer(t testing.TB, id int) string {
	t.Helper()
	prefix := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,`, id)
	for {
		l, err := s.answers.ReadString('\n')
		if err != nil {
			t.Fatalf("no answer to request %d: %v", id, err)
		}
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
}

// Call sends c and returns the answer, and how many bytes the process
// allocated from sending it to reading the answer (the server's work,
// and the pipes' copies).
func (s *Session) Call(t testing.TB, c Call) (answer string, allocated uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s.send(t, c.Line)
	answer = s.answer(t, 2)
	runtime.ReadMemStats(&after)
	return answer, after.TotalAlloc - before.TotalAlloc
}
