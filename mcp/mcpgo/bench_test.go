package mcpgo_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolnorm/toolnorm/mcp/mcpgo"
)

var benchTool = mcp.NewTool("t",
	mcp.WithArray("ids", mcp.Items(map[string]any{"type": "integer"})),
	mcp.WithObject("opts"),
	mcp.WithString("q"),
)

// session is a client session of the library.
type session = client.Client

func benchServer(withHook bool) *server.MCPServer {
	s := server.NewMCPServer("bench", "0.0.1")
	s.AddTool(benchTool, echoHandler)
	if withHook {
		mcpgo.Register(s, nil)
	}
	return s
}

var benchArgs = []struct{ name, args string }{
	// The common call: nothing to repair, so no schema lookup.
	{"clean", `{"ids":[1,2,3],"opts":{"deep":true},"q":"ember and oak, 2 rooms"}`},
	// A call with a stringified array and object and an escaped string.
	{"repair", `{"ids":"[1,2,3]","opts":"{\"deep\":true}","q":"ember &amp;amp; oak"}`},
}

// BenchmarkCallShare measures a tools/call round trip through the
// in-process client, from CallTool to its result, without and with the
// hook, the two calls interleaved, each first half the time, so that
// drift and order fall on both; it reports
// each, and the hook's cost as a share of the call with it.
func BenchmarkCallShare(b *testing.B) {
	for _, a := range benchArgs {
		b.Run(a.name, func(b *testing.B) {
			plain := connect(b, benchServer(false))
			with := connect(b, benchServer(true))
			ctx := context.Background()
			var req mcp.CallToolRequest
			req.Params.Name = "t"
			req.Params.Arguments = json.RawMessage(a.args)
			var tPlain, tWith time.Duration
			timed := func(cs *session) time.Duration {
				start := time.Now()
				if _, err := cs.CallTool(ctx, req); err != nil {
					b.Fatal(err)
				}
				return time.Since(start)
			}
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 { // each goes first half the time
					tPlain += timed(plain)
					tWith += timed(with)
				} else {
					tWith += timed(with)
					tPlain += timed(plain)
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(tPlain.Nanoseconds())/n, "ns/call-without")
			b.ReportMetric(float64(tWith.Nanoseconds())/n, "ns/call-with")
			b.ReportMetric(100*float64(tWith-tPlain)/float64(tWith), "%middleware")
		})
	}
}

// BenchmarkBeforeCallTool measures the hook alone, on a request for a
// tool of its server (built with mcp-go's options, so its schema is
// marshaled for each lookup).
func BenchmarkBeforeCallTool(b *testing.B) {
	s := benchServer(false)
	n := mcpgo.Register(s, nil)
	for _, a := range benchArgs {
		b.Run(a.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var req mcp.CallToolRequest
				req.Params.Name = "t"
				req.Params.RawArguments = json.RawMessage(a.args)
				n.BeforeCallTool(context.Background(), 1, &req)
			}
		})
	}
}
