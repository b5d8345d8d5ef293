// The findings of toolnorm check on @notionhq/notion-mcp-server, replayed on
// the package directly, without toolnorm or the adapter's protocol: each
// test calls deserializeParams, read out of the shipped bin/cli.mjs
// (read.mjs: the bundle cannot be imported), on the minimal counterexample,
// as the CallTool handler does (`params ? deserializeParams(params) : {}`),
// and asserts what it gives, against what RT-TOOL-8 gives (the reference,
// in the comments). The function takes no schema: the schemas below are
// what the tool declares, and the function never sees them.
// Run: node --test implementations/typescript-notion-mcp-server/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deserializeParams, source } from './read.mjs';

const handler = (params) => (params ? deserializeParams(params) : {});

test('read.mjs: the text evaluated is the three functions of proxy.ts and nothing else', () => {
  assert.match(source, /^function \w+\(e\)\{let t=\{\};for\(let\[r,n\]of Object\.entries\(e\)\)t\[r\]=\w+\(n\);return t\}/);
  assert.equal((source.match(/function /g) || []).length, 3);
  assert.match(source, /var \w+=3;/); // MAX_UNWRAP_DEPTH
});

test('rule/3: a string parameter holding JSON text is decoded (the schema is never read)', () => {
  // declared {"type":"string"}
  assert.deepEqual(handler({ p: '[1,2]' }), { p: [1, 2] }); // the rule: "[1,2]"
  assert.deepEqual(handler({ p: '{"a":1}' }), { p: { a: 1 } });
  // and inside what was decoded, at any depth: cfg declared
  // {"type":"object","properties":{"q":{"type":"string"}}}
  assert.deepEqual(handler({ cfg: '{"q":"[1]"}' }), { cfg: { q: [1] } }); // the rule: { cfg: { q: "[1]" } }
  // and where nothing is declared: schema {}
  assert.deepEqual(handler({ a: '[]', b: ['{}'] }), { a: [], b: [{}] }); // the rule: as sent
});

test('reading/5: up to three JSON string literals around array or object text are peeled off', () => {
  // unwrapJsonString: a string that parses to a string is parsed again.
  assert.deepEqual(handler({ p: '"[1]"' }), { p: [1] }); // the rule: "\"[1]\"", for any declared type
  assert.deepEqual(handler({ p: JSON.stringify(JSON.stringify('{}')) }), { p: {} });
  assert.deepEqual(handler({ p: JSON.stringify(JSON.stringify(JSON.stringify('{}'))) }), { p: JSON.stringify(JSON.stringify(JSON.stringify("{}"))) }); // three wrappings: the loop makes three passes
});

test('reading/5: String.prototype.trim counts a no-break space, a BOM or a form feed as JSON whitespace', () => {
  for (const ws of ['\u00a0', '\ufeff', '\f']) {
    assert.deepEqual(handler({ p: ws + '[1]' }), { p: [1] }, JSON.stringify(ws)); // the rule: as sent
  }
});

test('reading/7: JSON.parse keeps one of two duplicate members, rounds numbers, accepts a raw lone surrogate', () => {
  assert.deepEqual(handler({ ops: '{"k":1,"k":2}' }), { ops: { k: 2 } });
  assert.deepEqual(handler({ n: '[12345678901234567890,1e400]' }), { n: [12345678901234567000, Infinity] });
  assert.deepEqual(handler({ p: '["\ud800"]' }), { p: ['\ud800'] });
});

test('rule/5: a member named __proto__ is lost', () => {
  // deserializeParams copies with t[r]=..., which sets the prototype.
  const out = handler(JSON.parse('{"__proto__":{"x":"[1]"},"a":"b"}'));
  assert.deepEqual(Object.keys(out), ['a']); // the rule: ["__proto__", "a"]
});

test('reading/8: arguments that are not an object become an object; a broken schema is never seen', () => {
  assert.deepEqual(handler([]), {}); // the rule: an error
  assert.deepEqual(handler(['x']), { 0: 'x' });
  assert.deepEqual(handler(null), {});
  assert.deepEqual(handler({ a: 'x' }), { a: 'x' }); // under {"properties":{"a":5}}: the rule, an error
});

test('rule/4: character references are left as they are (the package does the JSON repair only)', () => {
  assert.deepEqual(handler({ t: 'Ember &amp;amp; Oak' }), { t: 'Ember &amp;amp; Oak' });
});
