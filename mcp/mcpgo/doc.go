// Package mcpgo repairs the arguments of tool calls to a server built on
// github.com/mark3labs/mcp-go, by rule RT-TOOL-8: against each tool's own
// input schema, a string that holds the JSON array or object the schema
// declares is decoded, and HTML character references in strings are
// decoded to a fixpoint; nothing else changes (package
// github.com/toolnorm/toolnorm/normalize is the rule).
//
// One line wires it in, once the server is built and before it serves:
//
//	mcpgo.Register(s, nil)
//
// # Why a hook, not a ToolHandlerMiddleware
//
// mcp-go validates a call's arguments against the input schema (with
// server.WithInputSchemaValidation) before it runs the tool handler
// middleware, so a server.ToolHandlerMiddleware comes too late: the
// stringified array has already been refused. The one place that runs
// before validation and binding, with the request in hand, is the
// OnBeforeCallTool hook, which gets the request by pointer. [Register]
// puts [Normalizer.BeforeCallTool] first among the server's
// OnBeforeCallTool hooks (creating the server's Hooks if it has none); it
// replaces both forms of the arguments mcp-go keeps:
// CallToolParams.RawArguments, the bytes the client sent, which
// GetRawArguments and BindArguments (so typed handlers) read, and
// CallToolParams.Arguments, encoding/json's map of them, which the input
// validation, GetArguments and GetString read. Where nothing is repaired
// the raw bytes keep member order, duplicates and number text; the map, as
// always in mcp-go, holds float64 numbers and the last of duplicate
// members. Where a repair brings a number out of a string that a float64
// cannot hold (1e400; mcp-go refuses such a number from a client), the
// map holds json.Number for every number instead.
//
// # Security: normalize first
//
// Normalization must run before anything that judges the arguments:
// validation, guards, policy checks, human approval. Never after: a check
// that passes "ls &amp;&amp; rm -rf ~" because it holds no "&&" is
// worthless once the tool receives "ls && rm -rf ~". After Register, the
// input validation, every tool handler middleware and every other
// OnBeforeCallTool hook see normalized arguments. OnBeforeAny and
// OnRequestInitialization hooks run earlier and see what the client sent:
// put no guard there.
//
// # Schemas
//
// A tool's schema is what tools/list shows for it: the session's own tool
// of that name if it has one, else the server's; its RawInputSchema, or
// its InputSchema as JSON. The hook looks it up only for calls whose
// arguments hold a string with '&', '[' or '{' in it, the only ones a
// repair can apply to: other calls cost a scan of their bytes and nothing
// more. Each distinct schema is compiled once: a tool added again, set
// anew or given to a session with another schema is compiled afresh on
// its next call, so the schema used is the one the call will be validated
// against. A schema that does not compile is reported once, as a warning
// on [Options.Logger], and that tool's calls pass through untouched. Task
// tools (AddTaskTool) are not reachable from a hook and pass through.
//
// [Options.OnRepair] is told, for each repaired call, the first
// [Options.MaxRepairs] repairs (1,000 unless set otherwise) with their
// JSON Pointers, and how many there were in all, so that an operator can
// see which clients send what; [LogRepairs] logs a line of them. The list
// is bounded because a call of megabytes can hold a million repairs:
// past it a repair is counted, and costs nothing more.
package mcpgo
