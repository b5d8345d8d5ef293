package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/toolnorm/toolnorm/mcp/internal/mcptest"
	"github.com/toolnorm/toolnorm/mcp/mcpgo"
)

// TestHostileCall: the server answers a tools/call of 10 MB of arguments
// shaped as issue 34's (one key of 2.5 MB above 980,000 repairs), and a
// valid call of 2 MB holding 260,000 repairs, clearly: mcp-go's
// validation error, or the call repaired. With the middleware, with or
// without OnRepair, it allocates at most 12 times the arguments more than
// without: the middleware's output, and the arguments decoded again into
// the map mcp-go validates (about 10 times their size), less what the
// repaired arguments, shorter, spare the server after it. OnRepair is
// given the first DefaultMaxRepairs repairs and the count, and LogRepairs
// logs a line. Before, the middleware listed every repair for OnRepair:
// with LogRepairs this server allocated 118 MB more again under the 10 MB
// call, 11 times the arguments. Bytes allocated are what a test can count
// the same on every machine; the server's peak resident memory under the
// 10 MB call is in mcp/README.md.
func TestHostileCall(t *testing.T) {
	if testing.Short() {
		t.Skip("calls of megabytes")
	}
	logger := slog.New(slog.DiscardHandler)
	long, tags := mcptest.LongKeyLeaves(10<<20), mcptest.Tags(2<<20)
	logRepairs := func() *server.MCPServer { return newServer(logger) }
	noOnRepair := func() *server.MCPServer {
		s := bareServer()
		mcpgo.Register(s, &mcpgo.Options{Logger: logger})
		return s
	}
	without := map[string]uint64{} // bytes allocated by the bare server, by call
	for _, tc := range []struct {
		call   mcptest.Call
		server string
		new    func() *server.MCPServer
	}{{long, "LogRepairs", logRepairs}, {long, "no OnRepair", noOnRepair}, {tags, "LogRepairs", logRepairs}} {
		c := tc.call
		if _, ok := without[c.Name]; !ok {
			_, without[c.Name] = mcptest.Start(t, serveOn(bareServer())).Call(t, c)
		}
		answer, with := mcptest.Start(t, serveOn(tc.new())).Call(t, c)
		t.Logf("%s, %s: %d bytes of arguments; allocated %d MB with the middleware, %d MB without; answer %.120s", c.Name, tc.server, c.Args, with>>20, without[c.Name]>>20, answer)
		if c.Repaired && !strings.Contains(answer, `"text":"tagged \"t\u0026\" with \u0026, \u0026, `) ||
			!c.Repaired && !strings.Contains(answer, `"isError":true`) {
			t.Errorf("%s, %s: answer %.300s", c.Name, tc.server, answer)
		}
		if more := int64(with) - int64(without[c.Name]); more > 12*int64(c.Args) {
			t.Errorf("%s, %s: the middleware allocated %d MB more than the server without it, for %.1f MB of arguments: want 12 times that at most", c.Name, tc.server, more>>20, float64(c.Args)/(1<<20))
		}
	}
}

// serveOn runs s on a session's pipes.
func serveOn(s *server.MCPServer) func(context.Context, *io.PipeReader, *io.PipeWriter) {
	return func(ctx context.Context, in *io.PipeReader, out *io.PipeWriter) { _ = serve(ctx, s, in, out) }
}
