package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnorm/toolnorm/mcp/gosdk"
	"github.com/toolnorm/toolnorm/normalize"
)

func ExampleMiddleware() {
	type Input struct {
		Tags  []string `json:"tags"`
		Title string   `json:"title"`
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "notes"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "tag_note"}, func(ctx context.Context, req *mcp.CallToolRequest, in Input) (*mcp.CallToolResult, any, error) {
		fmt.Printf("tags %q, title %q\n", in.Tags, in.Title)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	// Added last, so it runs before any middleware added earlier.
	server.AddReceivingMiddleware(gosdk.Middleware(&gosdk.Options{
		OnRepair: func(ctx context.Context, tool string, repairs []normalize.Repair, total int) {
			for _, r := range repairs {
				fmt.Println(tool, r)
			}
		},
	}))

	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		panic(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	defer session.Close()
	// What some models send: the array as a string, the title HTML-escaped.
	args := json.RawMessage(`{"tags":"[\"home\",\"diy\"]","title":"Ember &amp;amp; Oak"}`)
	if _, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "tag_note", Arguments: args}); err != nil {
		panic(err)
	}
	// Output:
	// tag_note /tags: JSON-decoded the string into an array
	// tag_note /title: decoded character references in 2 passes
	// tags ["home" "diy"], title "Ember & Oak"
}

func ExampleLogRepairs() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // a stable output
			}
			return a
		},
	}))
	server := mcp.NewServer(&mcp.Implementation{Name: "search"}, nil)
	server.AddTool(&mcp.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object","properties":{"ids":{"type":"array"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	server.AddReceivingMiddleware(gosdk.Middleware(&gosdk.Options{
		OnRepair: gosdk.LogRepairs(logger, slog.LevelInfo),
		Logger:   logger, // where an unusable schema is reported: the server's logger, if it has one
	}))

	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, st, nil); err != nil {
		panic(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "client"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: json.RawMessage(`{"ids":"[7,8]","q":"caf&eacute;"}`)})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// level=INFO msg="toolnorm: repaired tool arguments" tool=search repairs=2 pointers="[/ids /q]" kinds="[json-decoded entities-decoded]"
	// {"ids":[7,8],"q":"café"}
}
