// The findings of toolnorm check on @cline/shared, replayed on the
// package directly, without toolnorm or the adapter: each test calls
// normalizeJsonLikeStringsForSchema on the minimal counterexample and
// asserts what the package gives, against what RT-TOOL-8 gives (the
// reference). Run: node --test implementations/typescript-cline-shared/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeJsonLikeStringsForSchema as normalize } from '@cline/shared';

const object = (properties, extra = {}) => ({ type: 'object', properties, ...extra });

test('rule/3: a string is decoded where the schema also declares string', () => {
  // A type list, anyOf or oneOf with a string branch declares string: the
  // rule never decodes it. The package decodes when any branch names
  // array or object (KD: any type in the list, any branch).
  for (const p of [{ type: ['string', 'array'] }, { anyOf: [{ type: 'string' }, { type: 'array' }] }, { oneOf: [{ type: 'string' }, { type: 'array' }] }]) {
    assert.deepEqual(normalize({ p: '[1]' }, object({ p })), { p: [1] }, JSON.stringify(p)); // the rule: { p: '[1]' }
  }
});

test('rule/3: allOf is read as a union, so a shape its intersection excludes is decoded', () => {
  const p = { allOf: [{ type: ['object', 'array'] }, { type: 'object' }] }; // declares object only
  assert.deepEqual(normalize({ p: '[]' }, object({ p })), { p: [] }); // the rule: { p: '[]' }, a wrong shape
});

test('reading/4: declarations through $ref, patternProperties, additionalProperties and prefixItems are not followed', () => {
  assert.deepEqual(normalize({ p: '{}' }, object({ p: { $ref: '#/$defs/map' } }, { $defs: { map: { type: 'object' } } })), { p: '{}' }); // the rule: { p: {} }
  assert.deepEqual(normalize({ list_a: '[1]' }, { type: 'object', patternProperties: { '^list_': { type: 'array' } } }), { list_a: '[1]' });
  assert.deepEqual(normalize({ x: '[1]' }, { type: 'object', additionalProperties: { type: 'array' } }), { x: '[1]' });
  assert.deepEqual(normalize({ p: ['x', '{}'] }, object({ p: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'object' }] } })), { p: ['x', '{}'] });
});

test('reading/5: String.prototype.trim counts a no-break space, a BOM or a form feed as JSON whitespace', () => {
  for (const ws of ['\u00a0', '\ufeff', '\f', '\u2028']) {
    assert.deepEqual(normalize({ p: ws + '[1]' }, object({ p: { type: 'array' } })), { p: [1] }, JSON.stringify(ws)); // the rule: the string as sent
  }
});

test('reading/7: JSON.parse keeps one of two duplicate members and rounds numbers past a double', () => {
  assert.deepEqual(normalize({ ops: '{"k":1,"k":2}' }, object({ ops: { type: 'object' } })), { ops: { k: 2 } }); // the rule keeps both members
  assert.deepEqual(normalize({ n: '[12345678901234567890,1e400]' }, object({ n: { type: 'array' } })), { n: [12345678901234567000, Infinity] });
});

test('reading/8: arguments that are not an object and broken schemas pass without an error', () => {
  assert.deepEqual(normalize([], {}), []);
  assert.deepEqual(normalize({ p: '[1]' }, object({ p: { anyOf: [] } })), { p: '[1]' }); // an empty anyOf is no schema
});

test('rule/4: character references are left as they are (the package does the JSON repair only)', () => {
  assert.deepEqual(normalize({ t: 'Ember &amp;amp; Oak' }, object({ t: { type: 'string' } })), { t: 'Ember &amp;amp; Oak' });
});

test('reading/4: under draft-07, a type beside $ref is read, where $ref makes its siblings not apply', () => {
  // KD (through XG) reads the subschema's own type and never looks at $ref
  // or $schema; draft-07 says a $ref's siblings are ignored, so nothing is
  // declared here. toolnorm's counterexample, as found.
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', definitions: { any: {} }, properties: { '': { $ref: '#/definitions/any', type: 'array' } } };
  assert.deepEqual(normalize({ '': '[]' }, schema), { '': [] }); // the rule: "[]"
});
