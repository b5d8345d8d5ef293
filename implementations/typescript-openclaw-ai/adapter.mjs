#!/usr/bin/env node
// toolnorm adapter for @openclaw/ai (pinned in package-lock.json), in one
// of two modes, each a column of the matrix:
//
//   node adapter.mjs coerce    the repair alone: coerceWithJsonSchema, which
//                              validateToolArguments runs first (not
//                              exported; see README.md for how it is reached)
//   node adapter.mjs validate  validateToolArguments, exported: the repair,
//                              then TypeBox's Check, and Convert when Check
//                              fails; what reaches the tool
//
// Neither decodes character references, so both declare "repairs":
// ["json"]. When validateToolArguments throws because the repaired
// arguments do not validate, the repair's result cannot be seen: the rule
// leaves such arguments to validation to report, so the answer is
// "unsupported" (not judged), not an error blamed on the repair.
import { expose } from '../lib/expose.mjs';
import { installedVersion, serve } from '../lib/protocol.mjs';

const mode = process.argv[2] || 'coerce';
if (mode !== 'coerce' && mode !== 'validate') {
  console.error(`adapter.mjs: mode ${mode}: want coerce or validate`);
  process.exit(2);
}
expose(/\/@openclaw\/ai\/dist\/validation-[^/]+\.mjs$/, ['coerceWithJsonSchema']);
const { validateToolArguments } = await import('@openclaw/ai/validation');
// The chunk validation.mjs re-exports from, with the export the hook added.
const chunk = await import(await chunkURL());
const coerceWithJsonSchema = chunk.__toolnorm_coerceWithJsonSchema;

async function chunkURL() {
  const { readFileSync } = await import('node:fs');
  const entry = new URL('./node_modules/@openclaw/ai/dist/validation.mjs', import.meta.url);
  const m = /from "\.\/(validation-[^"]+\.mjs)"/.exec(readFileSync(entry, 'utf8'));
  if (!m) throw new Error('@openclaw/ai/dist/validation.mjs no longer re-exports a validation chunk');
  return new URL(m[1], entry).href;
}

export class NotSeen extends Error {}

serve({
  info: {
    name: mode === 'coerce' ? '@openclaw/ai coerceWithJsonSchema' : '@openclaw/ai validateToolArguments',
    language: 'TypeScript',
    version: installedVersion(new URL('./', import.meta.url), '@openclaw/ai'),
    homepage: 'https://www.npmjs.com/package/@openclaw/ai',
  },
  declares: { repairs: ['json'] },
  normalize(schema, args) {
    if (mode === 'coerce') {
      // As validateToolArguments calls it: on a copy, for a schema object.
      return coerceWithJsonSchema(structuredClone(args), schema);
    }
    try {
      return validateToolArguments({ name: 'tool', description: '', parameters: schema }, { type: 'toolCall', id: '1', name: 'tool', arguments: args });
    } catch (e) {
      if (/^Validation failed for tool/.test(String(e && e.message))) {
        throw new NotSeen('validateToolArguments rejected the repaired arguments (validation, which the rule leaves to report): the repair\'s result is not seen');
      }
      throw e;
    }
  },
  unsupported: (e) => e instanceof NotSeen,
});
