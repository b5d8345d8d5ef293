// The findings of toolnorm check on n8n-mcp, replayed on the package
// directly, without toolnorm or the adapter's protocol: each test registers
// a tool with the package's registerAdditionalTools, calls its
// coerceStringifiedJsonParams (a method of the exported
// N8NDocumentationMCPServer, private in TypeScript only) on the minimal
// counterexample, and asserts what it gives, against what RT-TOOL-8 gives
// (the reference, in the comments).
// Run: node --test implementations/typescript-n8n-mcp/
import { test } from 'node:test';
import assert from 'node:assert/strict';

process.env.DISABLE_CONSOLE_OUTPUT = 'true';
const { N8NDocumentationMCPServer } = await import('n8n-mcp');
const server = N8NDocumentationMCPServer.prototype;

// coerce(args, inputSchema): what the CallTool handler hands on.
const coerce = (args, inputSchema) => {
  const self = { additionalToolsByName: new Map(), findToolSchema: server.findToolSchema };
  server.registerAdditionalTools.call(self, [{ tool: { name: 't', description: 'd', inputSchema }, handler: async () => ({}) }]);
  return server.coerceStringifiedJsonParams.call(self, 't', args);
};
const object = (properties, extra = {}) => ({ type: 'object', properties, ...extra });

test('rule/3: values of other types are coerced, both ways', () => {
  assert.deepEqual(coerce({ p: '5' }, object({ p: { type: 'integer' } })), { p: 5 }); // the rule: "5"
  assert.deepEqual(coerce({ p: '5.9' }, object({ p: { type: 'integer' } })), { p: 5 }); // Math.trunc
  assert.deepEqual(coerce({ p: 'true' }, object({ p: { type: 'boolean' } })), { p: true });
  assert.deepEqual(coerce({ p: false }, object({ p: { type: 'string' } })), { p: 'false' }); // the rule: false
  // A number past a double is Infinity once JSON.parse has read it, and
  // String() writes that.
  assert.deepEqual(coerce({ p: JSON.parse('1e400') }, object({ p: { type: 'string' } })), { p: 'Infinity' });
});

test('rule/2: only a single type name is read: a type list, $ref, anyOf, ... declare nothing', () => {
  // expectedType = propSchema.type, compared with === to one name.
  assert.deepEqual(coerce({ p: '[]' }, object({ p: { type: ['array'] } })), { p: '[]' }); // the rule: []
  assert.deepEqual(coerce({ p: '[]' }, object({ p: { type: ['array', 'null'] } })), { p: '[]' });
  assert.deepEqual(coerce({ p: '{}' }, object({ p: { $ref: '#/$defs/o' } }, { $defs: { o: { type: 'object' } } })), { p: '{}' });
  assert.deepEqual(coerce({ p: '[1]' }, object({ p: { anyOf: [{ type: 'array' }, { type: 'null' }] } })), { p: '[1]' });
  assert.deepEqual(coerce({ x_a: '[1]' }, { type: 'object', patternProperties: { '^x_': { type: 'array' } } }), { x_a: '[1]' });
});

test('reading/5: String.prototype.trim counts a no-break space, a BOM or a form feed as JSON whitespace', () => {
  for (const ws of ['\u00a0', '\ufeff', '\f']) {
    assert.deepEqual(coerce({ p: ws + '[1]' }, object({ p: { type: 'array' } })), { p: [1] }, JSON.stringify(ws)); // the rule: as sent
  }
});

test('reading/7: JSON.parse keeps one of two duplicate members, rounds numbers, accepts a raw lone surrogate', () => {
  assert.deepEqual(coerce({ ops: '{"k":1,"k":2}' }, object({ ops: { type: 'object' } })), { ops: { k: 2 } });
  assert.deepEqual(coerce({ n: '[12345678901234567890,1e400]' }, object({ n: { type: 'array' } })), { n: [12345678901234567000, Infinity] });
  assert.deepEqual(coerce({ p: '["\ud800"]' }, object({ p: { type: 'array' } })), { p: ['\ud800'] });
});

test('reading/8: arguments that are not an object and broken schemas pass without an error', () => {
  assert.deepEqual(coerce([], {}), []);
  assert.equal(coerce(null, {}), null);
  assert.deepEqual(coerce({ a: 'x' }, object({ a: 5 })), { a: 'x' });
  assert.deepEqual(coerce({ a: '[1]' }, object({ a: { type: 'list' } })), { a: '[1]' });
});

test('rule/4: character references are left as they are (the package does the JSON repair only)', () => {
  assert.deepEqual(coerce({ t: 'Ember &amp;amp; Oak' }, object({ t: { type: 'string' } })), { t: 'Ember &amp;amp; Oak' });
});

test('reading/4: under draft-07, a type beside $ref is read, where $ref makes its siblings not apply', () => {
  // propSchema.type is read whatever else the subschema holds; draft-07
  // says a $ref's siblings are ignored, so nothing is declared here.
  const schema = object({ p: { $ref: '#/definitions/any', type: 'array' } },
    { $schema: 'http://json-schema.org/draft-07/schema#', definitions: { any: {} } });
  assert.deepEqual(coerce({ p: '[]' }, schema), { p: [] }); // the rule: "[]"
});
