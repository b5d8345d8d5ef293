// Command mcpgo-stdio is a small MCP server on standard input and output,
// built on github.com/mark3labs/mcp-go, whose tool calls are repaired by
// rule RT-TOOL-8 before mcp-go validates and binds them. Its one tool,
// tag_note, takes an array of tags and a title; a client that sends the
// tags as a string holding the array, or an HTML-escaped title, gets what
// it meant instead of a validation error. Repairs are logged on standard
// error, a line a call. It runs under a soft memory limit of 150 MB unless
// GOMEMLIMIT sets another, so that a hostile call of 10 MB leaves it below
// 200 MB.
//
//	go -C mcp run ./examples/mcpgo-stdio
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolnorm/toolnorm/mcp/mcpgo"
)

// Note is the input of tag_note.
type Note struct {
	Tags  []string `json:"tags"`
	Title string   `json:"title"`
}

func tagNote(ctx context.Context, req mcp.CallToolRequest, in Note) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText(fmt.Sprintf("tagged %q with %s", in.Title, strings.Join(in.Tags, ", "))), nil
}

// newServer is the server, logging on logger.
func newServer(logger *slog.Logger) *server.MCPServer {
	s := bareServer()
	mcpgo.Register(s, &mcpgo.Options{
		OnRepair: mcpgo.LogRepairs(logger, slog.LevelInfo),
		Logger:   logger,
	})
	return s
}

// bareServer is the server and its tool, without the middleware.
func bareServer() *server.MCPServer {
	s := server.NewMCPServer("mcpgo-stdio", "0.1.0", server.WithInputSchemaValidation())
	s.AddTool(mcp.NewTool("tag_note",
		mcp.WithDescription("Puts tags on a note."),
		mcp.WithArray("tags", mcp.Required(), mcp.WithStringItems(), mcp.Description("the tags to put on the note")),
		mcp.WithString("title", mcp.Required(), mcp.Description("the note's title")),
	), mcp.NewTypedToolHandler(tagNote))
	return s
}

// serve runs the server s on in and out until in ends.
func serve(ctx context.Context, s *server.MCPServer, in io.Reader, out io.Writer) error {
	stdio := server.NewStdioServer(s)
	stdio.SetErrorLogger(log.New(io.Discard, "", 0))
	return stdio.Listen(ctx, in, out)
}

// memoryLimit is the soft memory limit of the server, unless GOMEMLIMIT
// sets one. A call of megabytes costs mcp-go several copies of it at once
// (the arguments decoded into a map, again by the middleware once
// repaired, the typed input), and Go's collector lets the heap grow to
// twice what it keeps: under a valid tools/call of 10 MB holding a
// million repairs, this server reached 285 MB without the limit and
// 165 MB with it (mcp/README.md). A server that takes calls from clients
// it does not trust should set one, and bound the size of a request.
const memoryLimit = 150 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := serve(context.Background(), newServer(logger), os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
