package mcpgo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolnorm/toolnorm/mcp/internal/core"
	"github.com/toolnorm/toolnorm/mcp/repair"
	"github.com/toolnorm/toolnorm/normalize"
)

// Options configure a [Normalizer]: the options every middleware of this module
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

// maxSchemas bounds the compiled schemas kept per tool name: past it the
// name's cache starts again (a server that keeps changing one tool's
// schema recompiles, and may report an unusable schema again).
const maxSchemas = 64

// Normalizer normalizes the arguments of tool calls. It is safe for
// concurrent use, and may serve several servers.
type Normalizer struct {
	cfg    core.Config
	server *server.MCPServer // Register's server, for calls outside its context
	mu     sync.Mutex
	// schemas holds, by tool name, each schema text seen for it, compiled.
	schemas map[string]map[string]*core.Compiled
}

// New returns a Normalizer configured by opts.
func New(opts *Options) *Normalizer {
	if opts == nil {
		opts = &Options{}
	}
	return &Normalizer{
		cfg:     core.Config{Options: opts.Normalize, OnRepair: opts.OnRepair, MaxRepairs: opts.MaxRepairs, Logger: opts.Logger, Library: "mcp-go"},
		schemas: map[string]map[string]*core.Compiled{},
	}
}

// Register makes s normalize the arguments of every tools/call: it puts
// the BeforeCallTool of a new Normalizer first among s's OnBeforeCallTool
// hooks, giving s Hooks if it has none. Call it after server.NewMCPServer
// and before s serves.
func Register(s *server.MCPServer, opts *Options) *Normalizer {
	n := New(opts)
	n.server = s
	h := s.GetHooks()
	if h == nil {
		h = &server.Hooks{}
		server.WithHooks(h)(s)
	}
	h.OnBeforeCallTool = slices.Insert(h.OnBeforeCallTool, 0, n.BeforeCallTool)
	return n
}

// BeforeCallTool is a server.OnBeforeCallToolFunc: it replaces the
// arguments of req by their normalized form, against the input schema of
// the tool req calls. Arguments nothing repairs, calls to a tool the
// server does not have and calls whose tool schema does not compile are
// left as they are. Add it before any hook that inspects arguments.
func (n *Normalizer) BeforeCallTool(ctx context.Context, id any, req *mcp.CallToolRequest) {
	raw := req.Params.RawArguments
	if len(raw) == 0 {
		return
	}
	if !core.MayNeedRepair(raw) {
		return
	}
	name := req.Params.Name
	tool, ok := n.toolFor(ctx, name)
	if !ok {
		return
	}
	out, changed := n.compiled(ctx, tool).Normalize(ctx, name, raw)
	if !changed {
		return
	}
	// The map mcp-go decoded is dropped before the new one is made: the
	// two are each several times the arguments' size, and the collector
	// may take the first while the second is decoded.
	req.Params.RawArguments, req.Params.Arguments = out, nil
	req.Params.Arguments = decode(out)
}

// decode is mcp-go's map of the arguments args: what encoding/json gives,
// as for arguments a client sends, or, where a number a repair brought
// out of a string does not fit a float64 (1e400), which would fail
// there, the same with json.Number for every number.
func decode(args []byte) any {
	var m any
	if err := json.Unmarshal(args, &m); err == nil {
		return m
	}
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	m = nil
	if err := d.Decode(&m); err != nil {
		return nil // not reached: the normalizer's output is JSON
	}
	return m
}

// toolFor finds the tool that mcp-go will call for name, in the order it
// looks: the session's own tools, then the server's (the one whose
// context this is, else Register's).
func (n *Normalizer) toolFor(ctx context.Context, name string) (mcp.Tool, bool) {
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithTools); ok {
		if t, ok := s.GetSessionTools()[name]; ok {
			return t.Tool, true
		}
	}
	s := server.ServerFromContext(ctx)
	if s == nil {
		s = n.server
	}
	if s != nil {
		if t := s.GetTool(name); t != nil {
			return t.Tool, true
		}
	}
	return mcp.Tool{}, false
}

// compiled returns tool's input schema compiled, compiling it the first
// time this text is seen for this name.
func (n *Normalizer) compiled(ctx context.Context, tool mcp.Tool) *core.Compiled {
	// As mcp.Tool.MarshalJSON shows it in tools/list.
	schema := []byte(tool.RawInputSchema)
	var err error
	if tool.RawInputSchema == nil {
		schema, err = json.Marshal(tool.InputSchema)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	byText := n.schemas[tool.Name]
	if c, ok := byText[string(schema)]; ok {
		return c
	}
	if byText == nil || len(byText) >= maxSchemas {
		byText = map[string]*core.Compiled{}
		n.schemas[tool.Name] = byText
	}
	var c *core.Compiled
	if err != nil {
		c = n.cfg.Unusable(ctx, tool.Name, fmt.Errorf("marshaling the input schema: %w", err))
	} else {
		c = n.cfg.Compile(ctx, tool.Name, schema)
	}
	byText[string(schema)] = c
	return c
}
