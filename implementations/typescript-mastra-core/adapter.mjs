#!/usr/bin/env node
// toolnorm adapter for @mastra/core (pinned in package-lock.json), for a tool
// whose input schema arrives as plain JSON Schema, in one of two modes, each
// a column of the matrix:
//
//   node adapter.mjs coerce    coerceStringifiedJsonValues alone (not
//                              exported; see README.md for how it is
//                              reached), on the schema as mastra gives it
//   node adapter.mjs validate  validateToolInput, exported from
//                              @mastra/core/tools: what reaches the tool
//
// How mastra 1.71.0 holds such a tool (README.md has the files): createTool
// (which @mastra/mcp calls for every MCP tool) wraps the JSON Schema with
// @mastra/schema-compat's toStandardSchema, which gives a JsonSchemaWrapper
// validated by Ajv, not a Zod schema. Tool.execute
// and CoreToolBuilder's execute both call
// validateToolInput(tool.inputSchema, args, id). The adapter builds the
// schema the same way, with createTool, and calls the same functions.
//
// Two more modes hand the functions the JSON Schema converted to Zod by
// @mastra/schema-compat's convertSchemaToZod, which is not what 1.71.0 does
// for a JSON Schema tool: they show what the coercion does where it does
// run (for a Zod schema), and are secondary columns:
//
//   node adapter.mjs coerce-zod
//   node adapter.mjs validate-zod
//
// No mode decodes character references (nothing in mastra's argument path
// does), so all declare "repairs": ["json"]; the coercion looks at the
// top-level properties only, so all declare "depth": "top". When
// validateToolInput returns a validation error, the arguments did not
// validate and the repair's result cannot be seen: the rule leaves such arguments to validation to
// report, so the answer is "unsupported" (not judged). When mastra cannot
// use the schema at all (createTool throws, or Ajv cannot compile it, which
// validateToolInput reports as a "Schema validation error" issue on every
// call), mastra rejects the call: that is an error answer.
import { expose } from '../lib/expose.mjs';
import { installedVersion, serve } from '../lib/protocol.mjs';

const modes = ['coerce', 'validate', 'coerce-zod', 'validate-zod'];
const mode = process.argv[2] || 'coerce';
if (!modes.includes(mode)) {
  console.error(`adapter.mjs: mode ${mode}: want one of ${modes.join(', ')}`);
  process.exit(2);
}
const zod = mode.endsWith('-zod');

// The chunk @mastra/core/tools re-exports from, with the export the hook adds.
expose(/\/@mastra\/core\/dist\/tool-[^/]+\.js$/, ['coerceStringifiedJsonValues']);
const { createTool, validateToolInput } = await import('@mastra/core/tools');
const chunk = await import(await chunkURL());
const coerceStringifiedJsonValues = chunk.__toolnorm_coerceStringifiedJsonValues;
if (!Object.values(chunk).includes(validateToolInput)) throw new Error('@mastra/core/tools no longer re-exports validateToolInput from the chunk that defines coerceStringifiedJsonValues');
const { convertSchemaToZod } = zod ? await import('@mastra/schema-compat') : {};

async function chunkURL() {
  const { readFileSync } = await import('node:fs');
  const entry = new URL('./node_modules/@mastra/core/dist/tools/index.js', import.meta.url);
  const m = /from "\.\.\/(tool-[^"]+\.js)"/.exec(readFileSync(entry, 'utf8'));
  if (!m) throw new Error('@mastra/core/dist/tools/index.js no longer re-exports a tool chunk');
  return new URL(`../${m[1]}`, entry).href;
}

export class NotSeen extends Error {}

// inputSchema is the tool's schema as mastra holds it: createTool runs
// toStandardSchema on whatever it is given (tool.ts, the Tool constructor).
function inputSchema(schema) {
  const tool = createTool({
    id: 'tool',
    description: 'toolnorm',
    inputSchema: zod ? convertSchemaToZod(schema) : schema,
    execute: async (input) => input,
  });
  return tool.inputSchema;
}

serve({
  info: {
    name: {
      coerce: '@mastra/core coerceStringifiedJsonValues',
      validate: '@mastra/core validateToolInput',
      'coerce-zod': '@mastra/core coerceStringifiedJsonValues (schema via convertSchemaToZod)',
      'validate-zod': '@mastra/core validateToolInput (schema via convertSchemaToZod)',
    }[mode],
    language: 'TypeScript',
    version: installedVersion(new URL('./', import.meta.url), '@mastra/core'),
    homepage: 'https://www.npmjs.com/package/@mastra/core',
  },
  // coerceStringifiedJsonValues walks the top-level properties only, by
  // design (its comment says so): depth "top".
  declares: { repairs: ['json'], depth: 'top' },
  normalize(schema, args) {
    const s = inputSchema(schema);
    if (mode.startsWith('coerce')) {
      // As validateToolInput calls it (step 4), on the tool's schema; it
      // copies the object it changes.
      return coerceStringifiedJsonValues(s, args);
    }
    const { data, error } = validateToolInput(s, args, 'tool');
    if (error) {
      if (/- [^\n]*: Schema validation error: /.test(error.message)) {
        // JsonSchemaWrapper's #validate caught Ajv failing to compile the
        // schema: every call of this tool is rejected.
        throw new Error(error.message);
      }
      // The issues, without the arguments mastra quotes after them.
      const issues = error.message.split('\n').filter((l) => l.startsWith('- ')).join('; ');
      throw new NotSeen(`validateToolInput rejected the arguments (validation, which the rule leaves to report), so the repair's result is not seen: ${issues}`);
    }
    return data;
  },
  unsupported: (e) => e instanceof NotSeen,
});
