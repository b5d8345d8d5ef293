package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnorm/toolnorm/impl"
	"github.com/toolnorm/toolnorm/mcp/gosdk"
)

var sdkVersion = moduleVersion("github.com/modelcontextprotocol/go-sdk")

// callTimeout bounds one tools/call, well within toolnorm's 10 s.
const callTimeout = 5 * time.Second

// sdkMaxNesting is how deeply the SDK lets a JSON-RPC message nest; it
// closes the session on a deeper one. A tools/call message nests its
// arguments two levels down (the message, its params).
const sdkMaxNesting = 1000

// sdkImpl sends each case through an official-SDK server with the
// middleware, from a client session over the SDK's in-memory transport.
type sdkImpl struct {
	opts   impl.Options
	route  *router
	server *mcp.Server
	mw     mcp.Middleware
	log    *slog.Logger

	session *mcp.ClientSession
	ss      *mcp.ServerSession

	mu            sync.Mutex
	before, after []byte // the arguments the server received, and the handler
}

func newSDK(o impl.Options, verbose bool, r *router) (*sdkImpl, error) {
	im := &sdkImpl{opts: o, route: r, log: newLogger(verbose)}
	im.server = mcp.NewServer(&mcp.Implementation{Name: "toolnorm-mcp", Version: sdkVersion}, &mcp.ServerOptions{Logger: im.log})
	im.mw = gosdk.Middleware(&gosdk.Options{Normalize: o.Normalize(), Logger: im.log})
	im.server.AddReceivingMiddleware(im.mw)
	im.server.AddReceivingMiddleware(im.capture) // added last, runs first: what the server received
	return im, im.connect()
}

func (im *sdkImpl) connect() error {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	var err error
	if im.ss, err = im.server.Connect(ctx, st, nil); err != nil {
		return fmt.Errorf("go-sdk server: %w", err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "toolnorm-mcp client", Version: sdkVersion}, nil)
	if im.session, err = client.Connect(ctx, ct, nil); err != nil {
		return fmt.Errorf("go-sdk client: %w", err)
	}
	return nil
}

func (im *sdkImpl) Name() string { return "toolnorm-mcp go-sdk" }

func (im *sdkImpl) Close() error {
	err := im.session.Close()
	im.ss.Wait()
	return err
}

func (im *sdkImpl) capture(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if c, ok := req.(*mcp.CallToolRequest); ok && c.Params != nil {
			im.mu.Lock()
			im.before = append([]byte{}, c.Params.Arguments...)
			im.mu.Unlock()
		}
		return next(ctx, method, req)
	}
}

func (im *sdkImpl) handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	im.mu.Lock()
	im.after = append([]byte{}, req.Params.Arguments...)
	im.mu.Unlock()
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "received"}}}, nil
}

// Normalize registers the case's schema as the input schema of the tool
// "case" (replacing the previous case's, so the middleware sees the tool
// list change at every case), calls it with the case's arguments, and
// answers with what the handler received.
func (im *sdkImpl) Normalize(ctx context.Context, c impl.Case) impl.Result {
	schema, args := c.Schema, c.Args
	direct := func() impl.Result { return im.direct(schema, args) }
	toolSchema, why := im.toolSchema(schema, args)
	if why == "" && nesting(args)+2 > sdkMaxNesting {
		why = fmt.Sprintf("the SDK closes the session on a message nested more than %d levels deep, and a tools/call nests its arguments two levels down", sdkMaxNesting)
	}
	if why != "" {
		return im.route.cannotCarry(why, direct)
	}
	if err := im.addTool(&mcp.Tool{Name: "case", InputSchema: json.RawMessage(toolSchema)}); err != nil {
		return im.route.cannotCarry("the SDK refuses the tool: "+err.Error(), direct)
	}
	im.mu.Lock()
	im.before, im.after = nil, nil
	im.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := im.session.CallTool(ctx, &mcp.CallToolParams{Name: "case", Arguments: json.RawMessage(args)})
	if err != nil {
		im.log.Info("the SDK refuses the call", "error", err)
		if perr := im.session.Ping(ctx, nil); perr != nil {
			im.session.Close()
			if cerr := im.connect(); cerr != nil {
				return impl.Fail(impl.ErrCrash, "the session closed ("+err.Error()+") and could not be opened again: "+cerr.Error())
			}
		}
		return impl.Reject(impl.ErrUnspecified, "the go-sdk refuses the call: "+err.Error())
	}
	im.route.carry()
	im.mu.Lock()
	before, after := im.before, im.after
	im.mu.Unlock()
	switch {
	case res.IsError:
		return impl.Reject(impl.ErrUnspecified, "the call failed: "+sdkText(res))
	case after == nil:
		return impl.Fail(impl.ErrCrash, "the handler was not called")
	}
	return judge(im.opts, schema, args, before, after)
}

// toolSchema is the input schema to register for the case's schema, or
// why there is none: the SDK takes only an object with "type": "object".
// To a schema without "type" it adds that member, as every SDK tool
// author must, unless that changes what the reference gives for the case
// (it can, through a "$ref" to the root).
func (im *sdkImpl) toolSchema(schema, args []byte) ([]byte, string) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(schema, &members); err != nil {
		return nil, "the SDK takes only an input schema that is a JSON object"
	}
	if t, ok := members["type"]; ok {
		if string(t) != `"object"` {
			return nil, `the SDK takes only an input schema of "type": "object"`
		}
		return schema, ""
	}
	typed := []byte(`{"type":"object"}`)
	if rest := bytes.TrimPrefix(bytes.TrimSpace(schema), []byte("{")); len(members) > 0 {
		typed = append([]byte(`{"type":"object",`), rest...)
	}
	if !sameReference(im.opts, schema, typed, args) {
		return nil, `the SDK takes only an input schema of "type": "object", and adding it changes this schema's meaning`
	}
	return typed, ""
}

// direct sends the case to the middleware itself, in front of a handler
// that lists the tool and takes the call, without the SDK's transport.
func (im *sdkImpl) direct(schema, args []byte) impl.Result {
	tool := &mcp.Tool{Name: "case", InputSchema: json.RawMessage(schema)}
	var after []byte
	h := im.mw(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			return &mcp.ListToolsResult{Tools: []*mcp.Tool{tool}}, nil
		case "tools/call":
			after = append([]byte{}, req.(*mcp.CallToolRequest).Params.Arguments...)
			return &mcp.CallToolResult{}, nil
		}
		return nil, fmt.Errorf("unexpected %s", method)
	})
	if _, err := h(context.Background(), "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "case", Arguments: args}}); err != nil {
		return impl.Reject(impl.ErrUnspecified, "the middleware: "+err.Error())
	}
	return judge(im.opts, schema, args, args, after)
}

// addTool is Server.AddTool, which panics on a tool it refuses.
func (im *sdkImpl) addTool(t *mcp.Tool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	im.server.AddTool(t, im.handle)
	return nil
}

func sdkText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}
