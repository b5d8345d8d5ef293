// Package gosdk repairs the arguments of tool calls to a server built on
// the official Go MCP SDK (github.com/modelcontextprotocol/go-sdk), by rule
// RT-TOOL-8: against each tool's own input schema, a string that holds the
// JSON array or object the schema declares is decoded, and HTML character
// references in strings are decoded to a fixpoint; nothing else changes
// (package github.com/toolnorm/toolnorm/normalize is the rule).
//
// One line wires it in:
//
//	server.AddReceivingMiddleware(gosdk.Middleware(nil))
//
// [Middleware] is an mcp.Middleware. It sees each tools/call request
// while its arguments are still the bytes the client sent
// (CallToolParamsRaw.Arguments), before the SDK validates them against the
// input schema, applies defaults and unmarshals them into the handler's
// input type; so member order, duplicate members and number text survive
// where nothing is repaired, and a typed tool (mcp.AddTool) receives the
// repaired values.
//
// # Security: normalize first
//
// Normalization must run before anything that judges the arguments:
// validation, guards, policy checks, human approval. Never after: a check
// that passes "ls &amp;&amp; rm -rf ~" because it holds no "&&" is
// worthless once the tool receives "ls && rm -rf ~". The SDK runs the
// middleware added last first, so add this one after every middleware that
// inspects tool arguments (or first in the same AddReceivingMiddleware
// call). The SDK validates input only after all middleware, in the
// tool's handler, so it always sees normalized arguments.
//
// # Schemas
//
// A tool's schema is what tools/list shows for it. The middleware looks it
// up with a tools/list request of its own sent down the middleware chain
// (the SDK gives middleware no other way to a tool), marked so that
// middleware beneath can tell it apart ([IsLookup]). It does so only for
// calls whose arguments hold a string with '&', '[' or '{' in it, the only
// ones a repair can apply to: other calls cost a scan of their bytes and
// nothing more. The lookup walks the tool list, so its cost grows with the
// number of tools (about 0.5 µs for 10 tools, 20 µs for 1,000).
//
// Each schema is compiled once per registered tool: a tool added again
// under the same name (mcp.AddTool, Server.AddTool) is a new registration
// and is compiled afresh on its next call, so the schema used is always
// the one the call will be validated against. A schema that does not
// compile is reported once, as a warning on [Options.Logger] (give it the
// logger of your ServerOptions), and that tool's calls pass through
// untouched.
//
// [Options.OnRepair] is told, for each repaired call, the first
// [Options.MaxRepairs] repairs (1,000 unless set otherwise) with their
// JSON Pointers, and how many there were in all, so that an operator can
// see which clients send what; [LogRepairs] logs a line of them. The list
// is bounded because a call of megabytes can hold a million repairs:
// past it a repair is counted, and costs nothing more.
package gosdk
