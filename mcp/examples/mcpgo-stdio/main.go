// Command mcpgo-stdio is a small MCP server on standard input and output,
// built on github.com/mark3labs/mcp-go, whose tool calls are repaired by
// rule RT-TOOL-8 before mcp-go validates and binds them. Its one tool,
// tag_note, takes an array of tags and a title; a client that sends the
// tags as a string holding the array, or an HTML-escaped title, gets what
// it meant instead of a validation error. Repairs are logged on standard
// error.
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
	s := server.NewMCPServer("mcpgo-stdio", "0.1.0", server.WithInputSchemaValidation())
	s.AddTool(mcp.NewTool("tag_note",
		mcp.WithDescription("Puts tags on a note."),
		mcp.WithArray("tags", mcp.Required(), mcp.WithStringItems(), mcp.Description("the tags to put on the note")),
		mcp.WithString("title", mcp.Required(), mcp.Description("the note's title")),
	), mcp.NewTypedToolHandler(tagNote))
	mcpgo.Register(s, &mcpgo.Options{
		OnRepair: mcpgo.LogRepairs(logger, slog.LevelInfo),
		Logger:   logger,
	})
	return s
}

// serve runs the server on in and out until in ends.
func serve(ctx context.Context, logger *slog.Logger, in io.Reader, out io.Writer) error {
	stdio := server.NewStdioServer(newServer(logger))
	stdio.SetErrorLogger(log.New(io.Discard, "", 0))
	return stdio.Listen(ctx, in, out)
}

func main() {
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := serve(context.Background(), logger, os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
