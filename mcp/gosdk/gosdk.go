package gosdk

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnorm/toolnorm/mcp/internal/core"
	"github.com/toolnorm/toolnorm/mcp/repair"
	"github.com/toolnorm/toolnorm/normalize"
)

// Options configure [Middleware]: the options every middleware of this module
// takes (see [repair.Options]).
type Options = repair.Options

// LogRepairs returns an [Options.OnRepair] that logs each repaired call
// on l at level, with attributes tool, repairs (how many, in all), and
// pointers (the JSON Pointers of the repaired values) and kinds of the
// first five repairs, each pointer cut to 128 bytes: a line, however many
// repairs.
func LogRepairs(l *slog.Logger, level slog.Level) func(ctx context.Context, tool string, repairs []normalize.Repair, total int) {
	return repair.LogRepairs(l, level)
}

type lookupKey struct{}

// IsLookup reports whether ctx is that of a tools/list request the
// middleware sent to look up a tool's schema, not one from a client: a
// middleware beneath it that counts or logs requests can skip those.
func IsLookup(ctx context.Context) bool { return ctx.Value(lookupKey{}) != nil }

// Middleware returns a receiving middleware that normalizes the arguments
// of every tools/call against the called tool's input schema; every other
// request passes through. Add it to one server with
// Server.AddReceivingMiddleware, after any middleware that inspects tool
// arguments (see the package documentation).
func Middleware(opts *Options) mcp.Middleware {
	if opts == nil {
		opts = &Options{}
	}
	n := &normalizer{
		cfg:   core.Config{Options: opts.Normalize, OnRepair: opts.OnRepair, MaxRepairs: opts.MaxRepairs, Logger: opts.Logger, Library: "go-sdk"},
		tools: map[string]compiled{},
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			c, ok := req.(*mcp.CallToolRequest)
			if !ok || c.Params == nil || !core.MayNeedRepair(c.Params.Arguments) {
				return next(ctx, method, req)
			}
			schema := n.schema(ctx, next, c)
			if schema == nil {
				return next(ctx, method, req)
			}
			out, changed := schema.Normalize(ctx, c.Params.Name, c.Params.Arguments)
			if changed {
				params := *c.Params
				params.Arguments = out
				repaired := *c
				repaired.Params = &params
				req = &repaired
			}
			return next(ctx, method, req)
		}
	}
}

type normalizer struct {
	cfg   core.Config
	mu    sync.Mutex
	tools map[string]compiled // by name: the registration last compiled
}

type compiled struct {
	tool   *mcp.Tool
	schema *core.Compiled
}

// schema returns the compiled input schema of the tool c calls, nil when
// there is no such tool (the SDK answers the call) or the listing fails.
func (n *normalizer) schema(ctx context.Context, next mcp.MethodHandler, c *mcp.CallToolRequest) *core.Compiled {
	name := c.Params.Name
	tool, err := lookup(ctx, next, c.Session, name)
	if err != nil || tool == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if e, ok := n.tools[name]; ok && e.tool == tool {
		return e.schema
	}
	// The SDK keeps the *Tool it was given (and asks that it not be
	// modified), so a new pointer is a new registration.
	var s *core.Compiled
	if b, err := json.Marshal(tool.InputSchema); err != nil {
		s = n.cfg.Unusable(ctx, name, fmt.Errorf("marshaling the input schema: %w", err))
	} else {
		s = n.cfg.Compile(ctx, name, b)
	}
	n.tools[name] = compiled{tool, s}
	return s
}

// lookup finds the tool named name in the server's tool list, as the
// rest of the chain gives it, page by page.
func lookup(ctx context.Context, next mcp.MethodHandler, session *mcp.ServerSession, name string) (*mcp.Tool, error) {
	ctx = context.WithValue(ctx, lookupKey{}, true)
	cursor := ""
	for {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: session, Params: &mcp.ListToolsParams{Cursor: cursor}})
		if err != nil {
			return nil, err
		}
		list, ok := res.(*mcp.ListToolsResult)
		if !ok {
			return nil, fmt.Errorf("tools/list gave a %T", res)
		}
		for _, t := range list.Tools {
			if t != nil && t.Name == name {
				return t, nil
			}
		}
		if list.NextCursor == "" || list.NextCursor == cursor {
			return nil, nil
		}
		cursor = list.NextCursor
	}
}
