// The findings of toolnorm check on @mastra/core, replayed on the package
// directly, without toolnorm or the adapter's protocol: each test builds the
// tool the way mastra does for a JSON Schema (createTool, or makeCoreTool for
// the agent's path), calls the package's own functions on the minimal
// counterexample, and asserts what the package gives, against what RT-TOOL-8
// gives (the reference, in the comments).
// Run: node --test implementations/typescript-mastra-core/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { expose } from '../lib/expose.mjs';

expose(/\/@mastra\/core\/dist\/tool-[^/]+\.js$/, ['coerceStringifiedJsonValues']);
const { createTool, validateToolInput } = await import('@mastra/core/tools');
const { makeCoreTool } = await import('@mastra/core/utils');
const { convertSchemaToZod } = await import('@mastra/schema-compat');
const { toStandardSchema } = await import('@mastra/schema-compat/schema');
const { jsonSchema } = await import('@ai-sdk/provider-utils-v6'); // the AI SDK's jsonSchema(), as @mastra/core installs it
const entry = new URL('./node_modules/@mastra/core/dist/tools/index.js', import.meta.url);
const chunk = /from "\.\.\/(tool-[^"]+\.js)"/.exec(readFileSync(entry, 'utf8'))[1];
const { __toolnorm_coerceStringifiedJsonValues: coerce } = await import(new URL(`../${chunk}`, entry).href);

// The tool's schema as mastra holds it: createTool runs toStandardSchema.
const held = (inputSchema) => createTool({ id: 't', description: 'd', inputSchema, execute: async (i) => i }).inputSchema;
// validateToolInput's answer: the arguments that reach the tool, or its error.
const validate = (schema, args) => {
  const { data, error } = validateToolInput(held(schema), args, 't');
  return error ? { error: error.message.split('\n').filter((l) => l.startsWith('- ')).join('; ') } : { data };
};
const object = (properties, extra = {}) => ({ type: 'object', properties, ...extra });
// What runs when an agent calls the tool: CoreToolBuilder's execute.
const run = async (tool, args) => {
  let seen = 'execute did not run';
  const t = { ...tool, execute: async (input) => { seen = input; return 'ok'; } };
  const result = await makeCoreTool(tool.id ? createTool(t) : t, { name: 't' }).execute(args, { toolCallId: '1', messages: [] });
  return { result, seen };
};

// ---- The path 1.71.0 takes for a JSON Schema tool (modes coerce, validate).

test('rule/2: a JSON Schema tool gets no stringified-JSON coercion: its schema is a JsonSchemaWrapper, and coerceStringifiedJsonValues understands only Zod', async () => {
  const schema = object({ p: { type: 'array', items: { type: 'string' } } });
  const s = held(schema);
  assert.equal(s['~standard'].vendor, 'json-schema'); // @mastra/schema-compat's JsonSchemaWrapper (Ajv), not Zod
  const args = { p: '[]' };
  assert.equal(coerce(s, args), args); // returned as is; the rule: { p: [] }
  assert.deepEqual(validate(schema, args), { error: '- p: must be array' }); // so validation fails instead
  // The agent's path (CoreToolBuilder): the tool never runs, the model gets the error.
  const { result, seen } = await run({ id: 't', description: 'd', inputSchema: schema }, args);
  assert.equal(seen, 'execute did not run');
  assert.match(result.message, /- p: must be array/);
  // An MCP tool through @mastra/mcp 2.0.0: toStandardSchema of the schema with $schema 2020-12 added; the same.
  const mcp = toStandardSchema({ ...schema, $schema: 'https://json-schema.org/draft/2020-12/schema' });
  assert.equal(coerce(mcp, args), args);
  assert.match(validateToolInput(mcp, args, 't').error.message, /- p: must be array/);
  // The same schema as Zod (convertSchemaToZod): the coercion fires, and the value validates.
  assert.deepEqual(validateToolInput(held(convertSchemaToZod(schema)), args, 't').data, { p: [] });
});

test('rule/1: a Vercel AI SDK tool with jsonSchema() is neither validated nor coerced: validateToolInput returns arguments without a ~standard schema as they came', async () => {
  const { result, seen } = await run({ description: 'd', inputSchema: jsonSchema(object({ p: { type: 'array' } })) }, { p: '[1]', q: null });
  assert.equal(result, 'ok');
  assert.deepEqual(seen, { p: '[1]', q: null }); // the rule: { p: [1], q: null }
});

test('rule/5: a null where the schema does not admit null is deleted, with its key (validateToolInput step 5, stripNullishValuesAtPaths)', async () => {
  assert.deepEqual(validate(object({ title: { type: 'number' } }), { title: null }), { data: {} }); // the rule: { title: null }, left for validation to report
  assert.deepEqual(validate(object({ b: object({ x: { type: 'number' } }) }), { b: { x: null } }), { data: { b: {} } });
  const { seen } = await run({ id: 't', description: 'd', inputSchema: object({ title: { type: 'number' } }) }, { title: null });
  assert.deepEqual(seen, {}); // what reaches the tool
});

test('rule/5: a member named "__proto__" is lost (convertUndefinedToNull copies members with result[key] = value)', () => {
  const args = JSON.parse('{"__proto__":{"x":1},"a":"y"}'); // an own member, as JSON.parse and toolnorm's parser make it
  const { data } = validate(object({ a: { type: 'string' } }), args);
  assert.deepEqual(Object.keys(data), ['a']); // the rule: ["__proto__", "a"]
  assert.equal(Object.getPrototypeOf(data).x, 1); // it became the prototype
});

test('rule/5: a "prompt" member is added from "query", "message" or "input" when validation fails (validateToolInput step 6)', () => {
  const schema = object({ prompt: { type: 'string' } }, { required: ['prompt'] });
  assert.deepEqual(validate(schema, { query: 'hi' }), { data: { query: 'hi', prompt: 'hi' } }); // the rule: { query: 'hi' }, left for validation to report
});

test('reading/8: arguments that are not an object are not rejected: null becomes {} (normalizeNullishInput), and what the schema admits passes', () => {
  assert.deepEqual(validate(object({ a: { type: 'string' } }), null), { data: {} });
  assert.deepEqual(validate({}, null), { data: null });
  assert.deepEqual(validate({}, [1]), { data: [1] });
  assert.deepEqual(coerce(held(object({})), 42), 42); // the coercion alone returns anything that is not a plain object
  // A broken schema Ajv does not look at is used as it is.
  assert.deepEqual(validate({ type: 'object', $defs: [] }, { a: 'x' }), { data: { a: 'x' } });
  assert.deepEqual(validate({ type: 'object', $defs: { x: 5 } }, { a: 'x' }), { data: { a: 'x' } });
});

test('reading/4: a schema Ajv cannot compile makes every call fail: a $ref into an embedded $id resource, drafts other than 7 and 2020-12', () => {
  const fails = (schema) => assert.match(validate(schema, { a: 1 }).error, /Schema validation error/, JSON.stringify(schema));
  fails({ type: 'object', properties: { a: { $ref: 'https://example.com/inner' } }, $defs: { x: { type: 'string' }, inner: { $id: 'https://example.com/inner', $ref: '#/$defs/x', $defs: { x: { type: 'array' } } } } });
  fails({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }); // no schema with key or ref
  fails({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' });
});

test('reading/4: a schema whose $ref leads back to itself makes every call fail (Maximum call stack size exceeded)', () => {
  const fails = (schema) => assert.match(validate(schema, { a: 1 }).error, /Maximum call stack size exceeded/, JSON.stringify(schema));
  fails({ type: 'object', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, properties: { p: { $ref: '#/$defs/a' } } });
  fails({ $defs: { a: { $ref: '#/$defs/a' } }, properties: { '': { $ref: '#/$defs/a' } } }); // toolnorm's counterexample
});

test('reading/8: a validation issue at a member named toString or constructor makes validateToolInput throw (buildFormattedErrors)', () => {
  // The rule passes both strings through; the tool gets an exception.
  for (const key of ['toString', 'constructor']) {
    assert.throws(() => validateToolInput(held(object({ [key]: { type: 'number' } })), { [key]: 'x' }, 't'), /Cannot read properties of undefined \(reading 'push'\)/, key);
  }
  assert.match(validate(object({ k: { type: 'number' } }), { k: 'x' }).error, /- k: must be number/);
});

// ---- The same functions on the schema converted to Zod by convertSchemaToZod
// (modes coerce-zod, validate-zod; not what 1.71.0 does for a JSON Schema tool).

const zheld = (schema) => held(convertSchemaToZod(schema));

test('zod, rule/2: the root must convert to a ZodObject: without "type": "object" nothing is decoded', () => {
  const args = { q: '{}' };
  assert.equal(coerce(zheld({ properties: { q: { type: 'object' } } }), args), args); // the rule: { q: {} }
  assert.deepEqual(coerce(zheld(object({ q: { type: 'object' } })), args), { q: {} });
});

test('zod, rule/2: a parameter decodes only if its Zod type unwraps to exactly ZodArray or ZodObject: type lists, anyOf, oneOf, allOf, patternProperties, additionalProperties do not', () => {
  const stays = (schema, args) => assert.equal(coerce(zheld(schema), args), args, JSON.stringify(schema));
  stays(object({ p: { type: ['array', 'null'] } }), { p: '[1]' }); // z.union: the rule decodes
  stays(object({ p: { anyOf: [{ type: 'array' }, { type: 'null' }] } }), { p: '[1]' });
  stays(object({ p: { allOf: [{ type: 'array' }, { minItems: 1 }] } }), { p: '[1]' });
  stays(object({ p: { oneOf: [{ type: 'array' }, { type: 'object' }] } }), { p: '[1]' });
  stays({ type: 'object', patternProperties: { '^list_': { type: 'array' } } }, { list_a: '[1]' }); // only shape[key] is looked at
  stays({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'array' } }, { b: '[2]' });
});

test('zod, reading/4: the converter reads some schemas otherwise: a const array without type is decoded', () => {
  assert.deepEqual(coerce(zheld(object({ p: { const: [1] } })), { p: '[1]' }), { p: [1] }); // the rule: declares nothing, { p: '[1]' }
});

test('zod, reading/5 and reading/7: JSON.parse keeps the last of duplicate members, rounds numbers, accepts a raw lone surrogate', () => {
  const s = zheld(object({ cfg: { type: 'object' }, nums: { type: 'array' }, p: { type: 'array' } }));
  assert.deepEqual(coerce(s, { cfg: '{"k":1,"k":2}' }), { cfg: { k: 2 } }); // the rule keeps both
  assert.deepEqual(coerce(s, { nums: '[12345678901234567890,1e400]' }), { nums: [12345678901234567000, Infinity] }); // the rule keeps the digits
  assert.deepEqual(coerce(s, { p: '["\ud800"]' }), { p: ['\ud800'] }); // the rule: not Unicode text, does not parse
});

test('zod, rule/5: Zod\'s parse is what reaches the tool: members reordered, defaults added, nulls of an OpenAPI nullable deleted', () => {
  const v = (schema, args) => validateToolInput(zheld(schema), args, 't').data;
  assert.deepEqual(Object.keys(v(object({ tags: { type: 'array' } }), { title: 'x', tags: ['a'] })), ['tags', 'title']); // the rule: title, tags
  assert.deepEqual(v(object({ n: { type: 'number' }, s: { type: 'string', default: 'd' } }), { n: 1 }), { n: 1, s: 'd' }); // the rule: { n: 1 }
  assert.deepEqual(v(object({ p: { type: 'array', nullable: true } }), { p: null }), {}); // the rule: { p: null }
});

test('zod: a cyclic schema makes Zod validate asynchronously; safeValidate throws and leaves the rejected promise unhandled, which ends the process', () => {
  // In a process of its own: node:test would take the unhandled rejection as its own failure.
  const code = `
    import { validateToolInput, createTool } from '@mastra/core/tools';
    import { convertSchemaToZod } from '@mastra/schema-compat';
    const schema = { type: 'object', $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } }, properties: { p: { $ref: '#/$defs/a' } } };
    const s = createTool({ id: 't', description: 'd', inputSchema: convertSchemaToZod(schema), execute: async (i) => i }).inputSchema;
    try { validateToolInput(s, { p: '[1]' }, 't'); } catch (e) { console.log(e.message); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: new URL('./', import.meta.url), encoding: 'utf8' });
  assert.match(r.stdout, /Your schema is async/);
  assert.match(r.stderr, /RangeError: Maximum call stack size exceeded/);
  assert.equal(r.status, 1);
});
