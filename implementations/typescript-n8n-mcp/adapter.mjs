#!/usr/bin/env node
// toolnorm adapter for n8n-mcp (pinned in package-lock.json): each case goes
// through the package's own coerceStringifiedJsonParams(toolName, args), a
// method of N8NDocumentationMCPServer (exported; dist/mcp/server.js) that the MCP
// CallTool handler runs on every call's arguments, and nothing else.
//
//   (cd implementations/typescript-n8n-mcp && npm ci)
//   toolnorm check --impl 'node implementations/typescript-n8n-mcp/adapter.mjs'
//
// The method is private in TypeScript only: it is on the class's prototype
// in the published JavaScript, and uses nothing of the server but
// this.findToolSchema(name). The adapter calls it with `this` holding what
// findToolSchema reads, the server's additional tools (the library's way to
// add a tool with any schema, registerAdditionalTools), registered by the
// package's own registerAdditionalTools and found by its own
// findToolSchema: no server is constructed (that opens n8n's node
// database), and no code of the adapter's stands in for the package's.
//
// The method looks at top-level parameters only ("depth": "top") and
// decodes no character references ("repairs": ["json"]).
process.env.DISABLE_CONSOLE_OUTPUT = 'true'; // its logger's warnings, per coercion: as under MCP_MODE=stdio
const { N8NDocumentationMCPServer } = await import('n8n-mcp');
const { installedVersion, serve } = await import('../lib/protocol.mjs');

const server = N8NDocumentationMCPServer.prototype;
const name = 'toolnorm_tool';

serve({
  info: {
    name: 'n8n-mcp coerceStringifiedJsonParams',
    language: 'TypeScript',
    version: installedVersion(new URL('./', import.meta.url), 'n8n-mcp'),
    homepage: 'https://www.npmjs.com/package/n8n-mcp',
  },
  declares: { repairs: ['json'], depth: 'top' },
  normalize(schema, args) {
    // A server as the three methods see it: its additional tools, none yet.
    const self = { additionalToolsByName: new Map(), findToolSchema: server.findToolSchema };
    // registerAdditionalTools keeps a structuredClone of the tool, as the
    // server does.
    server.registerAdditionalTools.call(self, [{ tool: { name, description: 'toolnorm', inputSchema: schema }, handler: async () => ({}) }]);
    return server.coerceStringifiedJsonParams.call(self, name, args);
  },
});
