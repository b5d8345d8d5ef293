// The findings of toolnorm check on @openclaw/ai, replayed on the package
// directly, without toolnorm or the adapter's protocol: each test calls the
// package's coerceWithJsonSchema (reached as README.md says) or its
// exported validateToolArguments on the minimal counterexample, and asserts
// what the package gives, against what RT-TOOL-8 gives (the reference).
// Run: node --test implementations/typescript-openclaw-ai/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { expose } from '../lib/expose.mjs';

expose(/\/@openclaw\/ai\/dist\/validation-[^/]+\.mjs$/, ['coerceWithJsonSchema']);
const { validateToolArguments } = await import('@openclaw/ai/validation');
const entry = new URL('./node_modules/@openclaw/ai/dist/validation.mjs', import.meta.url);
const chunk = /from "\.\/(validation-[^"]+\.mjs)"/.exec(readFileSync(entry, 'utf8'))[1];
const { __toolnorm_coerceWithJsonSchema: coerce } = await import(new URL(chunk, entry).href);
const validate = (parameters, args) => validateToolArguments({ name: 't', description: '', parameters }, { type: 'toolCall', id: '1', name: 't', arguments: args });
const object = (properties, extra = {}) => ({ type: 'object', properties, ...extra });

test('rule/3, rule/5: values of other types are coerced, which the rule never does', () => {
  // coercePrimitiveByType: strings to numbers and booleans, null to 0,
  // false and "", booleans to numbers, numbers to strings, 0 to null.
  const cases = [
    [{ type: 'integer' }, '5', 5],
    [{ type: 'number' }, '0', 0],
    [{ type: 'boolean' }, 'true', true],
    [{ type: 'number' }, null, 0],
    [{ type: 'boolean' }, null, false],
    [{ type: 'string' }, null, ''],
    [{ type: 'number' }, true, 1],
    [{ type: 'string' }, 1.5, '1.5'],
    [{ type: 'null' }, 0, null],
  ];
  for (const [p, sent, got] of cases) {
    assert.deepEqual(coerce({ p: sent }, object({ p })), { p: got }, `${JSON.stringify(p)} ${JSON.stringify(sent)}`); // the rule: { p: sent }
  }
});

test('rule/3: a union tries its branches in order, so an object branch before the string branch decodes a string parameter', () => {
  const p = { oneOf: [{ type: 'object' }, { type: 'string' }] };
  assert.deepEqual(coerce({ p: '{}' }, object({ p })), { p: {} }); // the rule: { p: '{}' }: string is declared
});

test('rule/3: a union takes the first branch whose repair of the whole value fits it, or keeps the value as sent', () => {
  // coerceWithUnionSchema coerces a copy under each branch in turn and
  // keeps it where that branch's validator passes it: elements that need
  // two branches fit none, and the array stays as sent.
  const p = { anyOf: [{ type: 'array', items: { type: 'array' } }, { type: 'array', items: { type: 'object' } }] };
  assert.deepEqual(coerce({ p: ['[1]', '{}'] }, object({ p })), { p: ['[1]', '{}'] }); // the rule: { p: [[1], {}] }
  assert.deepEqual(coerce({ p: ['{}'] }, object({ p })), { p: [{}] });
  // A branch whose validator cannot be made alone (a $ref cycle; any
  // $ref, compiled without the document) never fits: the next branch takes
  // the value.
  const cyclic = object({ p: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'array' }] } }, { $defs: { a: { $ref: '#/$defs/a' } } });
  assert.deepEqual(coerce({ p: '[1]' }, cyclic), { p: [1] }); // the rule: '[1]': the cycle declares nothing
  const viaRef = object({ p: { anyOf: [{ $ref: '#/$defs/s' }, { type: 'array' }] } }, { $defs: { s: { type: 'string' } } });
  assert.deepEqual(coerce({ p: '[1]' }, viaRef), { p: [1] }); // the rule: '[1]': string is admitted
});

test('rule/3: allOf applies each branch in turn, so a shape the intersection excludes is substituted', () => {
  const p = { allOf: [{ type: ['object', 'array'] }, { type: 'object' }] }; // declares object only
  assert.deepEqual(coerce({ p: '[]' }, object({ p })), { p: [] }); // the rule: { p: '[]' }, a wrong shape
});

test('rule/2: a stringified array longer than 64 KiB is not decoded (MAX_JSON_COERCE_LENGTH)', () => {
  const long = JSON.stringify(Array.from({ length: 20000 }, (_, i) => i)); // 108,890 bytes
  assert.equal(coerce({ p: long }, object({ p: { type: 'array' } })).p, long); // the rule decodes it
});

test('reading/4: $ref, patternProperties and prefixItems are not followed', () => {
  assert.deepEqual(coerce({ p: '{}' }, object({ p: { $ref: '#/$defs/map' } }, { $defs: { map: { type: 'object' } } })), { p: '{}' });
  assert.deepEqual(coerce({ list_a: '[1]' }, { type: 'object', patternProperties: { '^list_': { type: 'array' } } }), { list_a: '[1]' });
  assert.deepEqual(coerce({ p: ['x', '{}'] }, object({ p: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'object' }] } })), { p: ['x', '{}'] });
  // A pattern that narrows a type list is not read either: properties says
  // array or string, the pattern array or null, so ids is declared array;
  // getSchemaTypes sees ["array","string"], the string matches a member of
  // the union, and nothing is coerced (the corpus vector
  // properties-and-a-matching-pattern-both-apply). Under a root said to be
  // an object, so it is no level left untyped.
  assert.deepEqual(coerce({ ids: '[1]' }, object({ ids: { type: ['array', 'string'] } }, { patternProperties: { s$: { type: ['array', 'null'] } } })), { ids: '[1]' }); // the rule: [1]
  // additionalProperties applies to a key a pattern matched.
  assert.deepEqual(coerce({ s_x: '[1]' }, { type: 'object', patternProperties: { '^s_': { type: 'string' } }, additionalProperties: { type: 'array' } }), { s_x: [1] });
});

test('reading/7: JSON.parse keeps one of two duplicate members and rounds numbers past a double', () => {
  assert.deepEqual(coerce({ ops: '{"k":1,"k":2}' }, object({ ops: { type: 'object' } })), { ops: { k: 2 } });
  assert.deepEqual(coerce({ n: '[12345678901234567890,1e400]' }, object({ n: { type: 'array' } })), { n: [12345678901234567000, Infinity] });
});

test('reading/8: arguments that are not an object and broken schemas pass without an error', () => {
  assert.deepEqual(coerce([], {}), []);
  assert.deepEqual(coerce({ p: '[1]' }, object({ p: { anyOf: [] } })), { p: '[1]' });
});

test('rule/2: nothing is decoded below a level whose type is unsaid', () => {
  // coerceWithJsonSchema walks properties only when the schema's own type
  // names object, and items only when it names array (schemaTypes.includes
  // before applySchemaObjectCoercion / applySchemaArrayCoercion); properties
  // and items apply whatever type says. toolnorm's counterexample, as found,
  // then the same under items.
  assert.deepEqual(coerce({ '': '[]' }, { properties: { '': { type: 'array' } } }), { '': '[]' }); // the rule: { '': [] }
  assert.deepEqual(coerce({ q: ['[]'] }, object({ q: { items: { type: 'array' } } })), { q: ['[]'] }); // the rule: { q: [[]] }
  // Said, the same levels are walked.
  assert.deepEqual(coerce({ '': '[]' }, object({ '': { type: 'array' } })), { '': [] });
  assert.deepEqual(coerce({ q: ['[]'] }, object({ q: { type: 'array', items: { type: 'array' } } })), { q: [[]] });
});

test('reading/4: under draft-07, a type beside $ref is read, where $ref makes its siblings not apply', () => {
  // coerceWithJsonSchema never looks at $ref (cause 5) or $schema: it reads
  // the subschema's own type (getSchemaTypes) and coercePrimitiveByType
  // parses the string. Draft-07 says a $ref's siblings are ignored, so
  // nothing is declared here. toolnorm's counterexample, as found, in both
  // modes: validateToolArguments returns the repair's result, which
  // validates.
  const schema = object({ '': { $ref: '#/definitions/any', type: 'array' } }, { $schema: 'http://json-schema.org/draft-07/schema#', definitions: { any: {} } });
  assert.deepEqual(coerce({ '': '[]' }, schema), { '': [] }); // the rule: "[]"
  assert.deepEqual(validate(schema, { '': '[]' }), { '': [] });
});

test('rule/5: an element is converted at any depth, in a real array and in decoded text alike', () => {
  // coercePrimitiveByType(element, "string") on every element under items
  // string (cause 1), whether the array was sent or decoded: the repair's,
  // not TypeBox Convert's (Check passes on what the repair gives, so
  // validateToolArguments never reaches Convert).
  const p = { type: ['array'], items: { type: ['string'] } };
  assert.deepEqual(coerce({ p: '[1]' }, object({ p })), { p: ['1'] }); // the rule: [1]
  assert.deepEqual(coerce({ p: [1] }, object({ p })), { p: ['1'] }); // the rule: [1]
  assert.deepEqual(validate(object({ p }), { p: '[1]' }), { p: ['1'] });
  assert.deepEqual(validate(object({ p }), { p: [1] }), { p: ['1'] });
});

test('validateToolArguments: a $ref cycle overflows the stack', () => {
  const schema = object({ p: { $ref: '#/$defs/a' } }, { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } });
  assert.throws(() => validate(schema, { p: '[1]' }), /Maximum call stack size exceeded/); // the rule: { p: '[1]' }
});

test('rule/4: character references are left as they are (the package does the JSON repair only)', () => {
  assert.deepEqual(coerce({ t: 'Ember &amp;amp; Oak' }, object({ t: { type: 'string' } })), { t: 'Ember &amp;amp; Oak' });
});

test('reading/8: a declared parameter named after an inherited method, not sent, is made up from it and fails to clone (key in value)', () => {
  // The rule: {} stays {}.
  assert.throws(() => validate(object({ toString: { type: 'string' } }), {}), /could not be cloned/);
  assert.throws(() => validate(object({ constructor: { type: 'string' } }), {}), /could not be cloned/);
  assert.deepEqual(validate(object({ toStrinX: { type: 'string' } }), {}), {});
  // coerce alone fails where a union's branches are tried on a copy of
  // the function found.
  assert.throws(() => coerce({}, object({ constructor: { anyOf: [{}] } })), /could not be cloned/);
  assert.deepEqual(coerce({}, object({ constructor: { type: 'string' } })).constructor, Object); // written in, dropped by JSON
  assert.deepEqual(coerce({}, object({ c: { anyOf: [{}] } })), {});
});

test('reading/4: patternProperties are not read, so additionalProperties applies to a member a pattern matches', () => {
  // The rule: "ab" is declared by the pattern alone (nothing), "z" by
  // additionalProperties (array): {"ab":"[1]","z":[2]}.
  const schema = { type: 'object', patternProperties: { '^a': {} }, additionalProperties: { type: 'array' } };
  assert.deepEqual(coerce({ ab: '[1]', z: '[2]' }, schema), { ab: [1], z: [2] });
  assert.deepEqual(validate(schema, { ab: '[1]', z: '[2]' }), { ab: [1], z: [2] });
});
