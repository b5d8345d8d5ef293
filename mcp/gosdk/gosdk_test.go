package gosdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolnorm/toolnorm/mcp/gosdk"
	"github.com/toolnorm/toolnorm/normalize"
)

// connect starts a client session with s over the in-memory transport.
func connect(t testing.TB, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0.0.1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

func call(t testing.TB, cs *mcp.ClientSession, tool, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("CallTool %s %s: %v", tool, args, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
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

// issueServer has a typed tool, create_issue, whose handler sends what it
// receives on got, and a raw tool, raw, with a schema that does not
// compile, which echoes its arguments.
func issueServer(got chan<- Issue) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "issues", Version: "v0.0.1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "create_issue", Description: "Files an issue."},
		func(ctx context.Context, req *mcp.CallToolRequest, in Issue) (*mcp.CallToolResult, any, error) {
			got <- in
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "filed"}}}, nil, nil
		})
	s.AddTool(&mcp.Tool{Name: "raw", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	return s
}

const stringified = `{"title":"Ember &amp;amp; Oak","labels":"[\"bug\",\"ui\"]","options":"{\"draft\":true,\"priority\":2}","query":"[1,2]"}`

func TestTypedToolFailsWithoutTheMiddleware(t *testing.T) {
	got := make(chan Issue, 1)
	cs := connect(t, issueServer(got))
	res := call(t, cs, "create_issue", stringified)
	// The SDK reports the first mismatch it meets, labels or options.
	msg := text(res)
	if !res.IsError || !strings.Contains(msg, `has type "string"`) || !strings.Contains(msg, "/properties/labels") && !strings.Contains(msg, "/properties/options") {
		t.Fatalf("without the middleware: IsError %v, %q; want a validation error about labels or options", res.IsError, msg)
	}
	if len(got) != 0 {
		t.Errorf("the handler ran: %+v", <-got)
	}
}

func TestTypedToolGetsRepairedValues(t *testing.T) {
	var (
		mu      sync.Mutex
		repairs []string
	)
	got := make(chan Issue, 1)
	s := issueServer(got)
	s.AddReceivingMiddleware(gosdk.Middleware(&gosdk.Options{
		OnRepair: func(_ context.Context, tool string, rs []normalize.Repair, _ int) {
			mu.Lock()
			defer mu.Unlock()
			for _, r := range rs {
				repairs = append(repairs, tool+" "+r.String())
			}
		},
	}))
	cs := connect(t, s)
	res := call(t, cs, "create_issue", stringified)
	if res.IsError {
		t.Fatalf("with the middleware: %q", text(res))
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
}

func TestUnusableSchemaPassesThroughAndIsReportedOnce(t *testing.T) {
	var log bytes.Buffer
	s := issueServer(make(chan Issue, 1))
	s.AddReceivingMiddleware(gosdk.Middleware(&gosdk.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))}))
	cs := connect(t, s)
	for i := range 3 {
		args := fmt.Sprintf(`{"a":"[%d] &amp;"}`, i)
		if got := text(call(t, cs, "raw", args)); got != args {
			t.Errorf("call %d: the handler got %s, want %s untouched", i, got, args)
		}
	}
	if n := strings.Count(log.String(), "unusable"); n != 1 || !strings.Contains(log.String(), "tool=raw") || !strings.Contains(log.String(), "/properties/a/$ref") {
		t.Errorf("logged %d warnings, want one naming the tool and the pointer:\n%s", n, log.String())
	}
}

// echo registers a raw tool that echoes its arguments.
func echo(s *mcp.Server, name, schema string) {
	s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(schema)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
}

// lookups counts, beneath the middleware, the tools/list requests the
// middleware sends to look schemas up, and checks that they are marked.
type lookups struct {
	mu       sync.Mutex
	n        int
	unmarked int
}

func (l *lookups) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/list" {
			l.mu.Lock()
			if gosdk.IsLookup(ctx) {
				l.n++
			} else {
				l.unmarked++
			}
			l.mu.Unlock()
		}
		return next(ctx, method, req)
	}
}

func (l *lookups) count() (int, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n, l.unmarked
}

func TestToolListChanges(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "changing"}, &mcp.ServerOptions{PageSize: 2})
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		echo(s, name, `{"type":"object","properties":{"x":{"type":"array"}}}`)
	}
	var l lookups
	s.AddReceivingMiddleware(l.middleware)
	s.AddReceivingMiddleware(gosdk.Middleware(nil))
	cs := connect(t, s)

	steps := []struct {
		do           func()
		tool, args   string
		want         string
		lookupsAfter int
	}{
		// Pages of two tools: e is on the third, so its lookup takes three
		// tools/list requests, a's one.
		{nil, "e", `{"x":"[1]"}`, `{"x":[1]}`, 3},
		{nil, "e", `{"x":[1],"y":"plain"}`, `{"x":[1],"y":"plain"}`, 3}, // nothing to repair: no lookup
		{nil, "a", `{"x":"[2]"}`, `{"x":[2]}`, 4},
		{func() { echo(s, "e", `{"type":"object","properties":{"x":{"type":"string"}}}`) }, "e", `{"x":"[1]"}`, `{"x":"[1]"}`, 7},
		{func() { echo(s, "f", `{"type":"object","properties":{"x":{"type":"object"}}}`) }, "f", `{"x":"{}"}`, `{"x":{}}`, 10},
		{func() { s.RemoveTools("f"); echo(s, "f", `{"type":"object"}`) }, "f", `{"x":"{}","y":"&lt;"}`, `{"x":"{}","y":"<"}`, 13},
	}
	for i, st := range steps {
		if st.do != nil {
			st.do()
		}
		if got := text(call(t, cs, st.tool, st.args)); got != st.want {
			t.Errorf("step %d: %s got %s, want %s", i, st.tool, got, st.want)
		}
		if n, unmarked := l.count(); n != st.lookupsAfter || unmarked != 0 {
			t.Errorf("step %d: %d lookups (%d unmarked), want %d", i, n, unmarked, st.lookupsAfter)
		}
	}
	s.RemoveTools("f")
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "f", Arguments: json.RawMessage(`{"x":"{}"}`)}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Errorf("a removed tool: err %v, want the SDK's unknown tool", err)
	}
}

// TestGuardSeesNormalizedArguments: a guard added before the middleware
// runs after it, on what the tool will get, so "&amp;&amp;" cannot slip
// past a check for "&&".
func TestGuardSeesNormalizedArguments(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "shell"}, nil)
	echo(s, "run", `{"type":"object","properties":{"cmd":{"type":"string"}}}`)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if c, ok := req.(*mcp.CallToolRequest); ok && bytes.Contains(c.Params.Arguments, []byte("&&")) {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "refused: &&"}}}, nil
			}
			return next(ctx, method, req)
		}
	})
	s.AddReceivingMiddleware(gosdk.Middleware(nil)) // added last: runs first
	cs := connect(t, s)
	for _, args := range []string{`{"cmd":"ls && rm -rf ~"}`, `{"cmd":"ls &amp;&amp; rm -rf ~"}`, `{"cmd":"ls &amp;amp;&amp;amp; rm -rf ~"}`} {
		if res := call(t, cs, "run", args); !res.IsError || text(res) != "refused: &&" {
			t.Errorf("%s reached the tool as %q", args, text(res))
		}
	}
	if got := text(call(t, cs, "run", `{"cmd":"ls &amp; date"}`)); got != `{"cmd":"ls & date"}` {
		t.Errorf("got %s", got)
	}
}

// TestExactText: the SDK hands a raw handler the arguments as bytes, so
// what the middleware leaves alone keeps its text: member order,
// duplicates, number text and escapes.
func TestExactText(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "exact"}, nil)
	echo(s, "t", `{"type":"object","properties":{"l":{"type":"array"}}}`)
	s.AddReceivingMiddleware(gosdk.Middleware(nil))
	cs := connect(t, s)
	tests := []struct{ args, want string }{
		{`{"z":1.0,"a":12345678901234567890,"z":1e400,"s":"\u00e9"}`, `{"z":1.0,"a":12345678901234567890,"z":1e400,"s":"\u00e9"}`},
		{`{"z":1.0,"l":"[1.50, 2e3]","a":"&amp;","a":2}`, `{"z":1.0,"l":[1.50, 2e3],"a":"&","a":2}`},
	}
	for _, tt := range tests {
		if got := text(call(t, cs, "t", tt.args)); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.args, got, tt.want)
		}
	}
}

func TestOtherMethodsPassThrough(t *testing.T) {
	s := issueServer(make(chan Issue, 1))
	s.AddReceivingMiddleware(gosdk.Middleware(nil))
	cs := connect(t, s)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 2 {
		t.Fatalf("ListTools: %v, %v", res, err)
	}
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Errorf("Ping: %v", err)
	}
}
