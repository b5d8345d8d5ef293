// The findings of toolnorm check on @ai-sdk-tool/parser, replayed on the
// package directly, without toolnorm or the adapter's protocol: each test
// calls coerceBySchema (exported from @ai-sdk-tool/parser/schema-coerce) on
// the minimal counterexample and asserts what it gives, against what
// RT-TOOL-8 gives (the reference, in the comments).
// Run: node --test implementations/typescript-ai-sdk-tool-parser/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coerceBySchema as coerce } from '@ai-sdk-tool/parser/schema-coerce';

const object = (properties, extra = {}) => ({ type: 'object', properties, ...extra });

test('rule/3: a string no schema applies to is coerced blind (coerceStringWithoutSchema)', () => {
  // A key that no properties, patternProperties or additionalProperties
  // names: "true", "5" and JSON text become values.
  assert.deepEqual(coerce({ x: 'true', y: '5', z: '[1]' }, object({})), { x: true, y: 5, z: [1] }); // the rule: as sent
});

test('rule/3: scalars are coerced to the declared type', () => {
  assert.deepEqual(coerce({ p: '5' }, object({ p: { type: 'integer' } })), { p: 5 }); // the rule: "5"
  assert.deepEqual(coerce({ p: 'true' }, object({ p: { type: 'boolean' } })), { p: true });
  assert.deepEqual(coerce({ p: true }, object({ p: { type: 'string' } })), { p: 'true' }); // the rule: true
});

test('rule/5: a value that is not an array is wrapped in one where the schema declares array (coerceArrayValue)', () => {
  // toolnorm's coerced/wrapped: null under a nullable array, a number, an
  // object each become the one element of an array.
  assert.deepEqual(coerce({ p: null }, object({ p: { type: 'array', nullable: true } })), { p: [null] }); // the rule: null
  assert.deepEqual(coerce({ p: 5 }, object({ p: { type: 'array' } })), { p: [5] }); // the rule: 5
  assert.deepEqual(coerce({ p: { a: 1 } }, object({ p: { type: 'array' } })), { p: [{ a: 1 }] }); // the rule: {"a":1}
});

test('rule/3: a type list is read as its first of object, array, boolean, number, integer, string', () => {
  // getSchemaType: ["string","array"] is "array", so a string parameter is decoded.
  assert.deepEqual(coerce({ p: '[1]' }, object({ p: { type: ['string', 'array'] } })), { p: [1] }); // the rule: "[1]"
  assert.deepEqual(coerce({ p: ['{}'] }, object({ p: { items: { type: ['string', 'object'] } } })), { p: [{}] });
  // ["array","object"] is "object": a stringified array stays a string, an
  // object's text is decoded.
  assert.deepEqual(coerce({ p: '[1]' }, object({ p: { type: ['array', 'object'] } })), { p: '[1]' }); // the rule: [1]
  assert.deepEqual(coerce({ p: '{}' }, object({ p: { type: ['array', 'object'] } })), { p: {} });
});

test('reading/4: a type is inferred from items, prefixItems, properties or additionalProperties', () => {
  // getSchemaType: no type, but items, so "array".
  assert.deepEqual(coerce({ p: '[1]' }, object({ p: { items: {} } })), { p: [1] }); // the rule: "[1]", nothing declared
  assert.deepEqual(coerce({ p: '5' }, object({ p: { items: {} } })), { p: '5' }); // not blind: "5" stays
  assert.deepEqual(coerce({ p: '[1]' }, object({ p: { prefixItems: [{}] } })), { p: [1] });
  assert.deepEqual(coerce({ p: '{}' }, object({ p: { additionalProperties: {} } })), { p: {} });
  assert.deepEqual(coerce({ p: '{}' }, object({ p: { properties: {} } })), { p: {} });
});

test('rule/2: a string that is not JSON text becomes an array anyway: quotes swapped, then split on commas', () => {
  // coerceStringToArray, after JSON.parse fails.
  assert.deepEqual(coerce({ p: '' }, object({ p: { type: 'array' } })), { p: [] }); // the rule: ""
  assert.deepEqual(coerce({ p: 'x' }, object({ p: { type: 'array' } })), { p: ['x'] });
  assert.deepEqual(coerce({ p: '[1,2' }, object({ p: { type: 'array' } })), { p: ['[1', 2] }); // and "2", under no items schema, a number
  assert.deepEqual(coerce({ p: "['a']" }, object({ p: { type: 'array' } })), { p: ['a'] });
  assert.deepEqual(coerce({ p: "{'a':1}" }, object({ p: { type: 'object' } })), { p: { a: 1 } }); // coerceStringToObject
});

test('reading/4: $ref, anyOf, oneOf, allOf, prefixItems and draft-4 items lists are not followed', () => {
  assert.deepEqual(coerce({ p: '{}' }, object({ p: { $ref: '#/$defs/o' } }, { $defs: { o: { type: 'object' } } })), { p: '{}' }); // the rule: {}
  assert.deepEqual(coerce({ p: '[1]' }, object({ p: { anyOf: [{ type: 'array' }, { type: 'null' }] } })), { p: '[1]' });
  assert.deepEqual(coerce({ p: '[1]' }, object({ p: { oneOf: [{ type: 'array' }, { type: 'object' }] } })), { p: '[1]' });
  assert.deepEqual(coerce({ p: '[1]' }, object({ p: { allOf: [{ type: 'array' }] } })), { p: '[1]' });
  // The elements get items' schema, whatever prefixItems or an items list
  // says for their position, unless the array has as many elements as
  // prefixItems (coerceArrayToArray).
  assert.deepEqual(coerce({ p: ['[1]', ''] }, object({ p: { prefixItems: [{ type: 'array' }], items: {} } })), { p: ['[1]', ''] }); // the rule: [[1], ""]
  assert.deepEqual(coerce({ p: ['[1]', '[2]'] }, object({ p: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'array' }] } })), { p: ['[1]', [2]] }); // as the rule
  assert.deepEqual(coerce({ p: ['[1]', '[2]'] }, object({ p: { type: 'array', items: [{ type: 'string' }, { type: 'array' }] } })), { p: ['[1]', '[2]'] }); // the rule: ["[1]", [2]]
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

test('rule/5: a member named __proto__ is lost', () => {
  const args = JSON.parse('{"__proto__":{"x":"[1]"},"a":"b"}'); // an own member, as JSON.parse makes it
  const out = coerce(args, object({ a: { type: 'string' } }));
  assert.deepEqual(Object.keys(out), ['a']); // the rule: ["__proto__", "a"]
});

test('rule/5: a key is renamed to a missing required one (read in the code, not generated by toolnorm)', () => {
  // applyStrictRequiredKeyRename, for a schema with additionalProperties
  // false: one required key missing, one key not declared, the two a
  // singular/plural or snake_case/camelCase pair.
  const strict = (properties) => object(properties, { required: Object.keys(properties), additionalProperties: false });
  assert.deepEqual(coerce({ tag: ['a'] }, strict({ tags: { type: 'array' } })), { tags: ['a'] }); // the rule: { tag: ["a"] }
  assert.deepEqual(coerce({ file_path: 'x' }, strict({ filePath: { type: 'string' } })), { filePath: 'x' });
});

test('reading/8: arguments that are not an object and broken schemas pass without an error', () => {
  assert.deepEqual(coerce([], {}), []);
  assert.equal(coerce(null, {}), null);
  assert.deepEqual(coerce({ a: 'x' }, object({ a: 5 })), { a: 'x' });
});

test('rule/4: character references are left as they are (the package does the JSON repair only)', () => {
  assert.deepEqual(coerce({ t: 'Ember &amp;amp; Oak' }, object({ t: { type: 'string' } })), { t: 'Ember &amp;amp; Oak' });
});

test('reading/4: under draft-07, a type beside $ref is read, where $ref makes its siblings not apply', () => {
  // getSchemaType reads type whatever else the subschema holds; draft-07
  // says a $ref's siblings are ignored, so nothing is declared here.
  const schema = object({ p: { $ref: '#/definitions/any', type: 'array' } },
    { $schema: 'http://json-schema.org/draft-07/schema#', definitions: { any: {} } });
  assert.deepEqual(coerce({ p: '[]' }, schema), { p: [] }); // the rule: "[]"
});

test('rule/2: no object is inferred from patternProperties where the root says no type (getSchemaType)', () => {
  // properties alone is read as an object, patternProperties alone is not.
  assert.deepEqual(coerce({ p1: '[1]' }, { patternProperties: { '^p': { type: 'array' } } }), { p1: '[1]' }); // the rule: { p1: [1] }
  assert.deepEqual(coerce({ p1: '[1]' }, { properties: { p1: { type: 'array' } } }), { p1: [1] });
});

test('rule/3: an object is unwrapped to its one member where a scalar is declared, and made an array where an array is', () => {
  // coerceObjectToPrimitive, coerceObjectToArray.
  assert.deepEqual(coerce({ p: { k: 'v' } }, object({ p: { type: 'string' } })), { p: 'v' }); // the rule: { k: 'v' }
  assert.deepEqual(coerce({ p: { item: 'x' } }, object({ p: { type: 'array' } })), { p: ['x'] }); // the rule: { item: 'x' }
});

test('rule/3: a quoted string is unquoted to match an enum (coerceStringByEnumWhitespace)', () => {
  assert.deepEqual(coerce({ p: '"a"' }, object({ p: { type: 'string', enum: ['a'] } })), { p: 'a' }); // the rule: '"a"'
});
