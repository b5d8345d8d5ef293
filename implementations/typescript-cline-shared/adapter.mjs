#!/usr/bin/env node
// toolnorm adapter for @cline/shared (pinned in package-lock.json): each
// case goes through the package's own normalizeJsonLikeStringsForSchema,
// exported from its index, and nothing else.
//
//   (cd implementations/typescript-cline-shared && npm ci)
//   toolnorm check --impl 'node implementations/typescript-cline-shared/adapter.mjs'
//
// The function does the JSON repair only (a string that holds the array or
// object its schema declares is parsed), so the adapter declares
// "repairs": ["json"]. The protocol plumbing is ../lib/protocol.mjs.
import { normalizeJsonLikeStringsForSchema } from '@cline/shared';
import { installedVersion, serve } from '../lib/protocol.mjs';

serve({
  info: { name: '@cline/shared normalizeJsonLikeStringsForSchema', language: 'TypeScript', version: installedVersion(new URL('./', import.meta.url), '@cline/shared'), homepage: 'https://www.npmjs.com/package/@cline/shared' },
  declares: { repairs: ['json'] },
  normalize(schema, args) {
    return normalizeJsonLikeStringsForSchema(args, schema);
  },
});
