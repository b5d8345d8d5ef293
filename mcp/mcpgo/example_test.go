package mcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolnorm/toolnorm/mcp/mcpgo"
	"github.com/toolnorm/toolnorm/normalize"
)

func ExampleRegister() {
	type Input struct {
		Tags  []string `json:"tags"`
		Title string   `json:"title"`
	}
	s := server.NewMCPServer("notes", "0.1.0", server.WithInputSchemaValidation())
	s.AddTool(mcp.NewTool("tag_note", mcp.WithArray("tags", mcp.WithStringItems()), mcp.WithString("title")),
		mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in Input) (*mcp.CallToolResult, error) {
			fmt.Printf("tags %q, title %q\n", in.Tags, in.Title)
			return mcp.NewToolResultText("ok"), nil
		}))
	mcpgo.Register(s, &mcpgo.Options{
		OnRepair: func(ctx context.Context, tool string, repairs []normalize.Repair, total int) {
			for _, r := range repairs {
				fmt.Println(tool, r)
			}
		},
	})

	ctx := context.Background()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		panic(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		panic(err)
	}
	// What some models send: the array as a string, the title HTML-escaped.
	var req mcp.CallToolRequest
	req.Params.Name = "tag_note"
	req.Params.Arguments = json.RawMessage(`{"tags":"[\"home\",\"diy\"]","title":"Ember &amp;amp; Oak"}`)
	if _, err := c.CallTool(ctx, req); err != nil {
		panic(err)
	}
	// Output:
	// tag_note /tags: JSON-decoded the string into an array
	// tag_note /title: decoded character references in 2 passes
	// tags ["home" "diy"], title "Ember & Oak"
}

// A Normalizer's BeforeCallTool can go into Hooks of your own, first, so
// that your other hooks see normalized arguments.
func ExampleNormalizer_BeforeCallTool() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // a stable output
			}
			return a
		},
	}))
	hooks := &server.Hooks{}
	hooks.AddBeforeCallTool(mcpgo.New(&mcpgo.Options{OnRepair: mcpgo.LogRepairs(logger, slog.LevelInfo), Logger: logger}).BeforeCallTool)
	hooks.AddBeforeCallTool(func(ctx context.Context, id any, req *mcp.CallToolRequest) {
		fmt.Println("the guard sees", req.GetArguments()["q"])
	})
	s := server.NewMCPServer("search", "0.1.0", server.WithHooks(hooks))
	s.AddTool(mcp.NewTool("search", mcp.WithArray("ids"), mcp.WithString("q")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(string(req.Params.RawArguments)), nil
		})

	ctx := context.Background()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		panic(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		panic(err)
	}
	var req mcp.CallToolRequest
	req.Params.Name = "search"
	req.Params.Arguments = json.RawMessage(`{"ids":"[7,8]","q":"caf&eacute;"}`)
	res, err := c.CallTool(ctx, req)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].(mcp.TextContent).Text)
	// Output:
	// level=INFO msg="toolnorm: repaired tool arguments" tool=search repairs=2 pointers="[/ids /q]" kinds="[json-decoded entities-decoded]"
	// the guard sees café
	// {"ids":[7,8],"q":"café"}
}
