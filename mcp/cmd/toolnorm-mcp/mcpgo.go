package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/mcp/mcpgo"
)

var mcpgoVersion = moduleVersion("github.com/mark3labs/mcp-go")

// mcpgoImpl sends each case through an mcp-go server with the hook, from
// its in-process client.
type mcpgoImpl struct {
	opts   impl.Options
	route  *router
	norm   *mcpgo.Normalizer
	server *server.MCPServer
	client *client.Client
	log    *slog.Logger

	mu            sync.Mutex
	before, after []byte // the arguments the server received, and the handler
}

func newMCPGo(o impl.Options, verbose bool, r *router) (*mcpgoImpl, error) {
	im := &mcpgoImpl{opts: o, route: r, log: newLogger(verbose)}
	hooks := &server.Hooks{}
	// OnBeforeAny runs before every OnBeforeCallTool hook: what the
	// server received.
	hooks.AddBeforeAny(func(ctx context.Context, id any, method mcp.MCPMethod, message any) {
		if c, ok := message.(*mcp.CallToolRequest); ok {
			im.mu.Lock()
			im.before = append([]byte{}, c.Params.RawArguments...)
			im.mu.Unlock()
		}
	})
	im.server = server.NewMCPServer("toolnorm-mcp", mcpgoVersion, server.WithHooks(hooks))
	im.norm = mcpgo.Register(im.server, &mcpgo.Options{Normalize: o.Normalize(), Logger: im.log})
	var err error
	if im.client, err = client.NewInProcessClient(im.server); err != nil {
		return nil, fmt.Errorf("mcp-go client: %w", err)
	}
	ctx := context.Background()
	if err := im.client.Start(ctx); err != nil {
		return nil, fmt.Errorf("mcp-go client: %w", err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "toolnorm-mcp client", Version: mcpgoVersion}
	if _, err := im.client.Initialize(ctx, init); err != nil {
		return nil, fmt.Errorf("mcp-go initialize: %w", err)
	}
	return im, nil
}

func (im *mcpgoImpl) Name() string { return "toolnorm-mcp mcp-go" }

func (im *mcpgoImpl) Close() error { return im.client.Close() }

func (im *mcpgoImpl) handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	im.mu.Lock()
	im.after = append([]byte{}, req.Params.RawArguments...)
	im.mu.Unlock()
	return mcp.NewToolResultText("received"), nil
}

// Normalize registers the case's schema as the raw input schema of the
// tool "case" (replacing the previous case's), calls it with the case's
// arguments, and answers with what the handler received.
func (im *mcpgoImpl) Normalize(ctx context.Context, c impl.Case) impl.Result {
	schema, args := c.Schema, c.Args
	im.server.DeleteTools("case")
	if err := im.addTool(mcp.NewToolWithRawSchema("case", "", json.RawMessage(schema))); err != nil {
		// The hook can reach only a registered tool: no direct answer.
		return impl.Reject(impl.ErrUnspecified, "mcp-go refuses the tool: "+err.Error())
	}
	im.mu.Lock()
	im.before, im.after = nil, nil
	im.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	var req mcp.CallToolRequest
	req.Params.Name = "case"
	req.Params.Arguments = json.RawMessage(args)
	res, err := im.client.CallTool(ctx, req)
	if err != nil && strings.Contains(err.Error(), "cannot unmarshal number") {
		// mcp-go decodes the arguments into a map of float64 numbers
		// before any hook runs, and refuses the call when that fails.
		return im.route.cannotCarry("mcp-go refuses a call whose arguments hold a number a float64 cannot hold, before any hook runs", func() impl.Result { return im.direct(schema, args) })
	}
	if err != nil {
		im.log.Info("mcp-go refuses the call", "error", err)
		return impl.Reject(impl.ErrUnspecified, "mcp-go refuses the call: "+err.Error())
	}
	im.route.carry()
	im.mu.Lock()
	before, after := im.before, im.after
	im.mu.Unlock()
	switch {
	case res.IsError:
		return impl.Reject(impl.ErrUnspecified, "the call failed: "+mcpgoText(res))
	case after == nil:
		return impl.Fail(impl.ErrCrash, "the handler was not called")
	}
	return judge(im.opts, schema, args, before, after)
}

// direct calls the hook itself on a request holding the case's arguments,
// for the registered tool "case", without mcp-go's decoding.
func (im *mcpgoImpl) direct(schema, args []byte) impl.Result {
	var req mcp.CallToolRequest
	req.Params.Name = "case"
	req.Params.RawArguments = append(json.RawMessage{}, args...)
	im.norm.BeforeCallTool(context.Background(), 1, &req)
	return judge(im.opts, schema, args, args, req.Params.RawArguments)
}

// addTool is MCPServer.AddTool, which panics on a tool it refuses.
func (im *mcpgoImpl) addTool(t mcp.Tool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	im.server.AddTool(t, im.handle)
	return nil
}

func mcpgoText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
