#!/usr/bin/env node
// toolnorm adapter for @notionhq/notion-mcp-server (pinned in
// package-lock.json): each case goes through the package's own
// deserializeParams (src/openapi-mcp-server/mcp/proxy.ts), which the MCP
// CallTool handler runs on every call's arguments before it sends them to
// the Notion API, and nothing else.
//
//   (cd implementations/typescript-notion-mcp-server && npm ci)
//   toolnorm check --impl 'node implementations/typescript-notion-mcp-server/adapter.mjs'
//
// The package ships one bundled, minified program, bin/cli.mjs, which starts
// the server when it is loaded, and exports nothing. The adapter reads the
// three functions out of the shipped file (read.mjs says how) and
// evaluates their text, unchanged, on their own: they use nothing but
// JSON, Object and Array.
//
// The function takes no schema (it decodes any string that parses to an
// object or array, at any depth), and decodes no character references:
// "repairs": ["json"]. It is called as the handler calls it:
// `params ? deserializeParams(params) : {}`.
import { deserializeParams } from './read.mjs';
import { installedVersion, serve } from '../lib/protocol.mjs';

serve({
  info: {
    name: '@notionhq/notion-mcp-server deserializeParams',
    language: 'TypeScript',
    version: installedVersion(new URL('./', import.meta.url), '@notionhq/notion-mcp-server'),
    homepage: 'https://www.npmjs.com/package/@notionhq/notion-mcp-server',
  },
  declares: { repairs: ['json'] },
  normalize(schema, args) {
    return args ? deserializeParams(args) : {};
  },
});
