// Command gosdk-stdio is a small MCP server on standard input and output,
// built on the official Go SDK, whose tool calls are repaired by rule
// RT-TOOL-8 before the SDK validates them. Its one tool, tag_note, takes
// an array of tags and a title; a client that sends the tags as a string
// holding the array, or an HTML-escaped title, gets what it meant instead
// of a validation error. Repairs are logged on standard error, a line a
// call. It runs under a soft memory limit of 150 MB unless GOMEMLIMIT
// sets another, so that a hostile call of 10 MB leaves it below 200 MB.
//
//	go -C mcp run ./examples/gosdk-stdio
package main

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnorm/toolnorm/mcp/gosdk"
)

// Note is the input of tag_note.
type Note struct {
	Tags  []string `json:"tags" jsonschema:"the tags to put on the note"`
	Title string   `json:"title" jsonschema:"the note's title"`
}

func tagNote(ctx context.Context, req *mcp.CallToolRequest, in Note) (*mcp.CallToolResult, any, error) {
	text := fmt.Sprintf("tagged %q with %s", in.Title, strings.Join(in.Tags, ", "))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
}

// newServer is the server, logging on logger.
func newServer(logger *slog.Logger) *mcp.Server {
	s := bareServer(logger)
	// Added last, so that it runs before any middleware added before it.
	s.AddReceivingMiddleware(gosdk.Middleware(&gosdk.Options{
		OnRepair: gosdk.LogRepairs(logger, slog.LevelInfo),
		Logger:   logger,
	}))
	return s
}

// bareServer is the server and its tool, without the middleware.
func bareServer(logger *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "gosdk-stdio", Version: "v0.1.0"}, &mcp.ServerOptions{Logger: logger})
	mcp.AddTool(s, &mcp.Tool{Name: "tag_note", Description: "Puts tags on a note."}, tagNote)
	return s
}

// memoryLimit is the soft memory limit of the server, unless GOMEMLIMIT
// sets one. A call of megabytes costs the SDK several copies of it at once
// (its decoding, validation, the typed input), and Go's collector lets the
// heap grow to twice what it keeps: under a valid tools/call of 10 MB
// holding a million repairs, this server reached 240 MB without the
// limit and 150 MB with it (mcp/README.md). A server that takes calls
// from clients it does not trust should set one, and bound the size of a
// request.
const memoryLimit = 150 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := newServer(logger).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
