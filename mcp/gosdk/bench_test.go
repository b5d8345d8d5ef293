package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnorm/toolnorm/mcp/gosdk"
)

// session is a client session of the library.
type session = mcp.ClientSession

// benchServer has tools echo tools, the last of them "t".
func benchServer(tools int, withMiddleware bool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench"}, nil)
	for i := range tools - 1 {
		echo(s, fmt.Sprintf("tool%03d", i), `{"type":"object"}`)
	}
	echo(s, "t", `{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer"}},"opts":{"type":"object"},"q":{"type":"string"}}}`)
	if withMiddleware {
		s.AddReceivingMiddleware(gosdk.Middleware(nil))
	}
	return s
}

var benchArgs = []struct{ name, args string }{
	// The common call: nothing to repair, so no schema lookup.
	{"clean", `{"ids":[1,2,3],"opts":{"deep":true},"q":"ember and oak, 2 rooms"}`},
	// A call with a stringified array and object and an escaped string.
	{"repair", `{"ids":"[1,2,3]","opts":"{\"deep\":true}","q":"ember &amp;amp; oak"}`},
}

// BenchmarkCallShare measures a tools/call round trip on the in-memory
// transport, from the client's CallTool to its result, without and with
// the middleware, the two calls interleaved, each first half the time, so that drift
// and order fall on both;
// it reports each, and the middleware's cost as a share of the call with
// it.
func BenchmarkCallShare(b *testing.B) {
	for _, tools := range []int{10, 100} {
		for _, a := range benchArgs {
			if a.name == "clean" && tools != 10 {
				continue // no lookup: the tool count does not matter
			}
			b.Run(fmt.Sprintf("%s/tools=%d", a.name, tools), func(b *testing.B) {
				plain := connect(b, benchServer(tools, false))
				with := connect(b, benchServer(tools, true))
				ctx := context.Background()
				params := &mcp.CallToolParams{Name: "t", Arguments: json.RawMessage(a.args)}
				var tPlain, tWith time.Duration
				timed := func(cs *session) time.Duration {
					start := time.Now()
					if _, err := cs.CallTool(ctx, params); err != nil {
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
}

// BenchmarkMiddleware measures the middleware alone, in front of a
// handler that lists the tools and takes the call.
func BenchmarkMiddleware(b *testing.B) {
	tool := &mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer"}},"opts":{"type":"object"},"q":{"type":"string"}}}`)}
	h := gosdk.Middleware(nil)(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" {
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{tool}}, nil
		}
		return &mcp.CallToolResult{}, nil
	})
	for _, a := range benchArgs {
		b.Run(a.name, func(b *testing.B) {
			req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "t", Arguments: json.RawMessage(a.args)}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := h(context.Background(), "tools/call", req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
