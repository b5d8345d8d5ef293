#!/usr/bin/env node
// toolnorm adapter for @ai-sdk-tool/parser (pinned in package-lock.json):
// each case goes through the package's own coerceBySchema(value, schema),
// exported from @ai-sdk-tool/parser/schema-coerce, and nothing else. The
// package's tool-call parsers (the XML, YAML and JSON protocols of its AI
// SDK middleware) run it on the arguments a model wrote, with the tool's
// input schema.
//
//   (cd implementations/typescript-ai-sdk-tool-parser && npm ci)
//   toolnorm check --impl 'node implementations/typescript-ai-sdk-tool-parser/adapter.mjs'
//
// It decodes no character references: "repairs": ["json"].
import { coerceBySchema } from '@ai-sdk-tool/parser/schema-coerce';
import { installedVersion, serve } from '../lib/protocol.mjs';

serve({
  info: {
    name: '@ai-sdk-tool/parser coerceBySchema',
    language: 'TypeScript',
    version: installedVersion(new URL('./', import.meta.url), '@ai-sdk-tool/parser'),
    homepage: 'https://www.npmjs.com/package/@ai-sdk-tool/parser',
  },
  declares: { repairs: ['json'] },
  normalize(schema, args) {
    return coerceBySchema(args, schema);
  },
});
