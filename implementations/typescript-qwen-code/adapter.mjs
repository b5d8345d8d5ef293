#!/usr/bin/env node
// toolnorm adapter for @qwen-code/qwen-code (pinned in package-lock.json):
// each case goes through the package's own SchemaValidator.validate, the
// function qwen-code's tools run on the model's arguments
// (packages/core/src/utils/schemaValidator.ts), and nothing else.
//
//   (cd implementations/typescript-qwen-code && npm ci)
//   toolnorm check --impl 'node implementations/typescript-qwen-code/adapter.mjs'
//
// The package is a bundled CLI: SchemaValidator is exported from a chunk
// whose hashed name changes per version, chunks/chunk-*.js; the adapter
// finds the one that defines fixStringifiedJsonValues. validate(schema,
// data) validates with Ajv and, only when that fails, repairs data in place
// (booleans, strings, stringified JSON, numbers) and validates again; it
// returns null or an error message. The repaired value is the object it
// changed, so it can be seen whether or not the second validation passes:
// the adapter answers it either way (the rule leaves what does not validate
// to validation to report), and answers an error only where validate
// refuses the arguments without repairing them ("Value of params must be
// an object").
//
// Ajv keeps every schema it compiled, by object and by $id. In qwen-code a
// tool's schema is one object, compiled at its first call; here every case
// is a new tool, compiled afresh, and the adapter removes it from the
// package's Ajv instances after the call (they are reached like
// fixStringifiedJsonValues, see README.md). Otherwise a later schema with
// the same $id would fail to compile, and validate skips validation (and
// the repair) when it cannot compile: one case would change another's
// answer.
//
// Nothing in it decodes character references: "repairs": ["json"].
import { readdirSync, readFileSync } from 'node:fs';
import { expose } from '../lib/expose.mjs';
import { installedVersion, serve } from '../lib/protocol.mjs';

const chunks = new URL('./node_modules/@qwen-code/qwen-code/chunks/', import.meta.url);
const chunk = readdirSync(chunks).filter((f) => /^chunk-[^/]+\.js$/.test(f))
  .find((f) => readFileSync(new URL(f, chunks), 'utf8').includes('function fixStringifiedJsonValues('));
if (!chunk) throw new Error('@qwen-code/qwen-code: no chunk defines fixStringifiedJsonValues: the package changed');
const escaped = chunk.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
expose(new RegExp(`/@qwen-code/qwen-code/chunks/${escaped}$`), ['ajvDefault', 'ajv2020']);
const m = await import(new URL(chunk, chunks).href);
const { SchemaValidator, __toolnorm_ajvDefault: ajvDefault, __toolnorm_ajv2020: ajv2020 } = m;

serve({
  info: {
    name: '@qwen-code/qwen-code SchemaValidator.validate',
    language: 'TypeScript',
    version: installedVersion(new URL('./', import.meta.url), '@qwen-code/qwen-code'),
    homepage: 'https://www.npmjs.com/package/@qwen-code/qwen-code',
  },
  declares: { repairs: ['json'] },
  normalize(schema, args) {
    try {
      const err = SchemaValidator.validate(schema, args);
      // Refused without a repair; any other message is the second
      // validation's, after the repair changed args in place.
      if (err !== null && (typeof args !== 'object' || args === null)) throw new Error(err);
      return args;
    } finally {
      // By the object: a string would name a schema Ajv holds itself.
      if (schema !== null && typeof schema === 'object') {
        for (const ajv of [ajvDefault, ajv2020]) ajv.removeSchema(schema);
      }
    }
  },
});
