package mcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolnorm/toolnorm/mcp/mcpgo"
	"github.com/toolnorm/toolnorm/normalize"
)

// connect starts an in-process client session with s.
func connect(t testing.TB, s *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatalf("NewInProcessClient: %v", err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test-client", Version: "0.0.1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func call(t testing.TB, c *client.Client, tool, args string) *mcp.CallToolResult {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = json.RawMessage(args)
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("CallTool %s %s: %v", tool, args, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// wire is args as mcp-go's client sends them: encoding/json writes a
// json.RawMessage compact, with '<', '>' and '&' escaped.
func wire(t testing.TB, args string) string {
	t.Helper()
	b, err := json.Marshal(json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s: %v", args, err)
	}
	return string(b)
}

// Issue is the input of a typed tool with an array and an object
// parameter and two string ones.
type Issue struct {
	Title   string   `json:"title"`
	Labels  []string `json:"labels"`
	Options struct {
		Draft    bool `json:"draft"`
		Priority int  `json:"priority"`
	} `json:"options"`
	Query string `json:"query"`
}

var issueTool = mcp.NewTool("create_issue",
	mcp.WithDescription("Files an issue."),
	mcp.WithString("title"),
	mcp.WithArray("labels", mcp.WithStringItems()),
	mcp.WithObject("options", mcp.Properties(map[string]any{
		"draft":    map[string]any{"type": "boolean"},
		"priority": map[string]any{"type": "integer"},
	})),
	mcp.WithString("query"),
)

// issueServer has a typed tool, create_issue, whose handler sends what it
// receives on got, and a raw tool, raw, with a schema that does not
// compile, which echoes its arguments.
func issueServer(got chan<- Issue, opts ...server.ServerOption) *server.MCPServer {
	s := server.NewMCPServer("issues", "0.0.1", opts...)
	s.AddTool(issueTool, mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in Issue) (*mcp.CallToolResult, error) {
		got <- in
		return mcp.NewToolResultText("filed"), nil
	}))
	echo(s, "raw", `{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`)
	return s
}

// echo registers a tool with a raw schema that echoes its raw arguments.
func echo(s *server.MCPServer, name, schema string) {
	s.AddTool(mcp.NewToolWithRawSchema(name, "", json.RawMessage(schema)), echoHandler)
}

func echoHandler(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultText(string(req.Params.RawArguments)), nil
}

const stringified = `{"title":"Ember &amp;amp; Oak","labels":"[\"bug\",\"ui\"]","options":"{\"draft\":true,\"priority\":2}","query":"[1,2]"}`

func TestTypedToolFailsWithoutTheHook(t *testing.T) {
	tests := []struct {
		name string
		opts []server.ServerOption
		want string
	}{
		{"input validation", []server.ServerOption{server.WithInputSchemaValidation()}, "input schema validation failed"},
		{"argument binding", nil, "failed to bind arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make(chan Issue, 1)
			c := connect(t, issueServer(got, tt.opts...))
			res := call(t, c, "create_issue", stringified)
			if !res.IsError || !strings.Contains(text(res), tt.want) {
				t.Errorf("IsError %v, %q; want an error with %q", res.IsError, text(res), tt.want)
			}
			if len(got) != 0 {
				t.Errorf("the handler ran: %+v", <-got)
			}
		})
	}
}

func TestTypedToolGetsRepairedValues(t *testing.T) {
	for _, validate := range []bool{false, true} {
		t.Run(fmt.Sprintf("validation %v", validate), func(t *testing.T) {
			var (
				mu      sync.Mutex
				repairs []string
			)
			var opts []server.ServerOption
			if validate {
				opts = append(opts, server.WithInputSchemaValidation())
			}
			got := make(chan Issue, 1)
			s := issueServer(got, opts...)
			mcpgo.Register(s, &mcpgo.Options{
				OnRepair: func(_ context.Context, tool string, rs []normalize.Repair, _ int) {
					mu.Lock()
					defer mu.Unlock()
					for _, r := range rs {
						repairs = append(repairs, tool+" "+r.String())
					}
				},
			})
			c := connect(t, s)
			res := call(t, c, "create_issue", stringified)
			if res.IsError {
				t.Fatalf("with the hook: %q", text(res))
			}
			in := <-got
			if in.Title != "Ember & Oak" || strings.Join(in.Labels, ",") != "bug,ui" || !in.Options.Draft || in.Options.Priority != 2 {
				t.Errorf("the handler got %+v", in)
			}
			if in.Query != "[1,2]" {
				t.Errorf("a string parameter that looks like JSON: got %q, want it untouched", in.Query)
			}
			mu.Lock()
			defer mu.Unlock()
			want := []string{
				"create_issue /title: decoded character references in 2 passes",
				"create_issue /labels: JSON-decoded the string into an array",
				"create_issue /options: JSON-decoded the string into an object",
			}
			if strings.Join(repairs, "\n") != strings.Join(want, "\n") {
				t.Errorf("OnRepair got\n%s\nwant\n%s", strings.Join(repairs, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestUnusableSchemaPassesThroughAndIsReportedOnce(t *testing.T) {
	var log bytes.Buffer
	s := issueServer(make(chan Issue, 1), server.WithInputSchemaValidation())
	mcpgo.Register(s, &mcpgo.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	c := connect(t, s)
	for i := range 3 {
		args := fmt.Sprintf(`{"a":"[%d] &amp;"}`, i)
		if got := text(call(t, c, "raw", args)); got != wire(t, args) {
			t.Errorf("call %d: the handler got %s, want %s untouched", i, got, wire(t, args))
		}
	}
	if n := strings.Count(log.String(), "unusable"); n != 1 || !strings.Contains(log.String(), "tool=raw") || !strings.Contains(log.String(), "/properties/a/$ref") {
		t.Errorf("logged %d warnings, want one naming the tool and the pointer:\n%s", n, log.String())
	}
}

// TestToolListChanges: whatever way the tool list changes, a call is
// normalized against the schema the server will use for it.
func TestToolListChanges(t *testing.T) {
	s := server.NewMCPServer("changing", "0.0.1")
	echo(s, "t", `{"type":"object","properties":{"x":{"type":"array"}}}`)
	mcpgo.Register(s, nil)
	c := connect(t, s)
	steps := []struct {
		do         func()
		tool, args string
		want       string
	}{
		{nil, "t", `{"x":"[1]"}`, `{"x":[1]}`},
		{func() { echo(s, "t", `{"type":"object","properties":{"x":{"type":"string"}}}`) }, "t", `{"x":"[1]"}`, `{"x":"[1]"}`},
		{func() { s.DeleteTools("t"); echo(s, "t", `{"type":"object","properties":{"x":{"type":"object"}}}`) }, "t", `{"x":"{}"}`, `{"x":{}}`},
		{func() {
			s.SetTools(server.ServerTool{Tool: mcp.NewToolWithRawSchema("t", "", json.RawMessage(`{"type":"object"}`)), Handler: echoHandler})
		}, "t", `{"x":"{}","y":"&lt;"}`, `{"x":"{}","y":"<"}`},
		{func() {
			// A tool built with mcp-go's options, not a raw schema.
			s.AddTool(mcp.NewTool("built", mcp.WithArray("ids"), mcp.WithString("q")), echoHandler)
		}, "built", `{"ids":"[1,2]","q":"[3]"}`, `{"ids":[1,2],"q":"[3]"}`},
	}
	for i, st := range steps {
		if st.do != nil {
			st.do()
		}
		if got := text(call(t, c, st.tool, st.args)); got != st.want {
			t.Errorf("step %d: %s got %s, want %s", i, st.tool, got, st.want)
		}
	}
}

// TestGuardsSeeNormalizedArguments: guards in a tool handler middleware
// and in a BeforeCallTool hook, even one added before Register, run after
// the normalization, so "&amp;&amp;" cannot slip past a check for "&&".
func TestGuardsSeeNormalizedArguments(t *testing.T) {
	// A guard must judge values, not JSON text: the client may have
	// escaped "&&" as "\u0026\u0026" (mcp-go's does).
	refuse := func(req mcp.CallToolRequest) bool { return strings.Contains(req.GetString("cmd", ""), "&&") }
	var hookSaw []string
	hooks := &server.Hooks{}
	hooks.AddBeforeCallTool(func(ctx context.Context, id any, req *mcp.CallToolRequest) {
		if refuse(*req) {
			hookSaw = append(hookSaw, req.GetString("cmd", ""))
		}
	})
	s := server.NewMCPServer("shell", "0.0.1", server.WithHooks(hooks),
		server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
			return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if refuse(req) {
					return mcp.NewToolResultError("refused: &&"), nil
				}
				return next(ctx, req)
			}
		}))
	echo(s, "run", `{"type":"object","properties":{"cmd":{"type":"string"}}}`)
	mcpgo.Register(s, nil)
	c := connect(t, s)
	for _, args := range []string{`{"cmd":"ls && rm -rf ~"}`, `{"cmd":"ls &amp;&amp; rm -rf ~"}`, `{"cmd":"ls &amp;amp;&amp;amp; rm -rf ~"}`} {
		if res := call(t, c, "run", args); !res.IsError || text(res) != "refused: &&" {
			t.Errorf("%s reached the tool as %q", args, text(res))
		}
	}
	if len(hookSaw) != 3 || hookSaw[2] != "ls && rm -rf ~" {
		t.Errorf("the hook guard saw %q, want the three commands decoded", hookSaw)
	}
	if got := text(call(t, c, "run", `{"cmd":"ls &amp; date"}`)); got != `{"cmd":"ls & date"}` {
		t.Errorf("got %s", got)
	}
}

// TestBothViews: a handler may read the raw arguments (GetRawArguments,
// BindArguments) or mcp-go's map of them (GetArguments, GetString, the
// input validation): both show the repaired arguments. The raw text keeps
// member order, duplicates and number text where nothing is repaired; the
// map has what encoding/json makes of it, with a json.Number for a
// repaired number a float64 cannot hold.
func TestBothViews(t *testing.T) {
	type view struct {
		raw string
		m   map[string]any
	}
	views := make(chan view, 1)
	s := server.NewMCPServer("views", "0.0.1")
	s.AddTool(mcp.NewToolWithRawSchema("t", "", json.RawMessage(`{"type":"object","properties":{"l":{"type":"array"}}}`)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			views <- view{string(req.Params.RawArguments), req.GetArguments()}
			return mcp.NewToolResultText("ok"), nil
		})
	mcpgo.Register(s, nil)
	c := connect(t, s)
	tests := []struct {
		args, raw string
		m         map[string]any
	}{
		{`{"z":1.0,"a":12345678901234567890,"s":"\u00e9"}`, `{"z":1.0,"a":12345678901234567890,"s":"\u00e9"}`,
			map[string]any{"z": 1.0, "a": 12345678901234567890.0, "s": "é"}},
		{`{"z":1.0,"l":"[1.50, 2e3]","a":"&amp;","a":2}`, `{"z":1.0,"l":[1.50, 2e3],"a":"&","a":2}`,
			map[string]any{"z": 1.0, "l": []any{1.5, 2000.0}, "a": 2.0}},
		{`{"l":"[1e400, 1]","a":"&amp;"}`, `{"l":[1e400, 1],"a":"&"}`,
			map[string]any{"l": []any{json.Number("1e400"), json.Number("1")}, "a": "&"}},
	}
	for _, tt := range tests {
		call(t, c, "t", tt.args)
		v := <-views
		if v.raw != tt.raw {
			t.Errorf("%s: raw %s, want %s", tt.args, v.raw, tt.raw)
		}
		if !reflect.DeepEqual(v.m, tt.m) {
			t.Errorf("%s: map %#v, want %#v", tt.args, v.m, tt.m)
		}
	}
}

// TestBeforeCallToolOutsideTheServer: the hook of a Normalizer made by
// Register finds its server's tools without the server's context, as when
// it is called directly.
func TestBeforeCallToolOutsideTheServer(t *testing.T) {
	s := server.NewMCPServer("direct", "0.0.1")
	echo(s, "t", `{"type":"object","properties":{"l":{"type":"array"}}}`)
	n := mcpgo.Register(s, nil)
	var req mcp.CallToolRequest
	req.Params.Name = "t"
	req.Params.RawArguments = json.RawMessage(`{"l":"[1]"}`)
	n.BeforeCallTool(context.Background(), 1, &req)
	if string(req.Params.RawArguments) != `{"l":[1]}` || !reflect.DeepEqual(req.Params.Arguments, map[string]any{"l": []any{1.0}}) {
		t.Errorf("got %s, %v", req.Params.RawArguments, req.Params.Arguments)
	}
	req.Params.RawArguments = json.RawMessage(`{"l":"[1]"}`)
	mcpgo.New(nil).BeforeCallTool(context.Background(), 1, &req)
	if string(req.Params.RawArguments) != `{"l":"[1]"}` {
		t.Errorf("a Normalizer of no server, outside a server's context: got %s, want the arguments untouched", req.Params.RawArguments)
	}
}

func TestNoArguments(t *testing.T) {
	s := server.NewMCPServer("none", "0.0.1")
	s.AddTool(mcp.NewTool("now"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(fmt.Sprintf("%v", req.Params.Arguments)), nil
	})
	mcpgo.Register(s, nil)
	c := connect(t, s)
	var req mcp.CallToolRequest
	req.Params.Name = "now"
	res, err := c.CallTool(context.Background(), req)
	if err != nil || text(res) != "<nil>" {
		t.Errorf("a call without arguments: %q, %v", text(res), err)
	}
	if _, err := c.CallTool(context.Background(), mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "missing", Arguments: json.RawMessage(`{"a":"[1]"}`)}}); err == nil {
		t.Errorf("an unknown tool: no error")
	}
}

// toolSession is a session with tools of its own (as mcp-go's HTTP
// sessions have; its in-process one has none).
type toolSession struct {
	mu    sync.Mutex
	tools map[string]server.ServerTool
	ch    chan mcp.JSONRPCNotification
}

func (s *toolSession) Initialize()                                         {}
func (s *toolSession) Initialized() bool                                   { return true }
func (s *toolSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.ch }
func (s *toolSession) SessionID() string                                   { return "tools-of-its-own" }
func (s *toolSession) GetSessionTools() map[string]server.ServerTool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools
}
func (s *toolSession) SetSessionTools(tools map[string]server.ServerTool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tools = tools
}

// TestSessionTools: a session's own tool takes the place of the server's
// tool of that name, for the call and for its schema.
func TestSessionTools(t *testing.T) {
	s := server.NewMCPServer("sessions", "0.0.1")
	echo(s, "t", `{"type":"object","properties":{"x":{"type":"string"}}}`)
	mcpgo.Register(s, nil)
	session := &toolSession{ch: make(chan mcp.JSONRPCNotification, 16)}
	ctx := context.Background()
	if err := s.RegisterSession(ctx, session); err != nil {
		t.Fatal(err)
	}
	ctx = s.WithContext(ctx, session)
	send := func(args string) string {
		t.Helper()
		resp := s.HandleMessage(ctx, json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":`+args+`}}`))
		b, err := json.Marshal(resp)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Result mcp.CallToolResult `json:"result"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		return text(&r.Result)
	}
	if got := send(`{"x":"[1]"}`); got != `{"x":"[1]"}` {
		t.Errorf("the server's tool: got %s", got)
	}
	tool := mcp.NewToolWithRawSchema("t", "", json.RawMessage(`{"type":"object","properties":{"x":{"type":"array"}}}`))
	if err := s.AddSessionTool(session.SessionID(), tool, echoHandler); err != nil {
		t.Fatalf("AddSessionTool: %v", err)
	}
	if got := send(`{"x":"[1]"}`); got != `{"x":[1]}` {
		t.Errorf("the session's tool: got %s", got)
	}
}
