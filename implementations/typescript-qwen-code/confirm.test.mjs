// The findings of toolnorm check on @qwen-code/qwen-code, replayed on the
// package directly, without toolnorm or the adapter's protocol: each test
// calls SchemaValidator.validate (exported from the bundled chunk that
// defines fixStringifiedJsonValues) on the minimal counterexample and
// asserts what it makes of the arguments, in place, against what RT-TOOL-8
// gives (the reference, in the comments).
// Run: node --test implementations/typescript-qwen-code/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

const chunks = new URL('./node_modules/@qwen-code/qwen-code/chunks/', import.meta.url);
const chunk = readdirSync(chunks).find((f) => f.endsWith('.js') && readFileSync(new URL(f, chunks), 'utf8').includes('function fixStringifiedJsonValues('));
const { SchemaValidator } = await import(new URL(chunk, chunks).href);

// validate's answer: the arguments as it left them, and its message.
const validate = (schema, args) => {
  const message = SchemaValidator.validate(schema, args);
  return { args, message };
};
const object = (properties, extra = {}) => ({ type: 'object', properties, ...extra });

test('rule/3: values of other types are coerced (fixBooleanValues, fixStringValues, fixNumericValues)', () => {
  assert.deepEqual(validate(object({ p: { type: 'integer' } }), { p: '5' }).args, { p: 5 }); // the rule: "5"
  assert.deepEqual(validate(object({ p: { type: 'boolean' } }), { p: 'true' }).args, { p: true }); // the rule: "true"
  assert.deepEqual(validate(object({ p: { type: 'string' } }), { p: false }).args, { p: 'false' }); // the rule: false
  assert.deepEqual(validate(object({ t: object({ f: { type: 'string' } }) }), { t: { f: true } }).args, { t: { f: 'true' } });
});

test('rule/2: what a decoded string holds is not repaired again', () => {
  // fixStringifiedJsonValues puts JSON.parse's result in place and does
  // not walk it.
  const schema = object({ cfg: object({ ids: { type: 'array' } }) });
  assert.deepEqual(validate(schema, { cfg: '{"ids":"[1]"}' }).args, { cfg: { ids: '[1]' } }); // the rule: { cfg: { ids: [1] } }
  // The same through $ref: the reference is followed (sent decoded, "[1]"
  // is decoded), what JSON.parse gave is not walked.
  const ref = { $defs: { o: object({ ids: { type: 'array' } }) }, ...object({ cfg: { $ref: '#/$defs/o' } }) };
  assert.deepEqual(validate(ref, { cfg: '{"ids":"[1]"}' }).args, { cfg: { ids: '[1]' } }); // the rule: { cfg: { ids: [1] } }
  assert.deepEqual(validate(ref, { cfg: { ids: '[1]' } }).args, { cfg: { ids: [1] } });
});

test('reading/6: normalizing twice differs from once (the fixers run in turn, each once)', () => {
  // The coercions run before the JSON repair, so a value that the JSON
  // repair brings in is coerced only on the next call.
  const schema = object({ q: object({ b: { additionalProperties: { type: 'string' } } }) });
  const once = validate(schema, { q: '{"b":{"":0}}' }).args;
  assert.deepEqual(once, { q: { b: { '': 0 } } });
  assert.deepEqual(validate(schema, structuredClone(once)).args, { q: { b: { '': '0' } } });
});

test('rule/2: a string element of an array whose items are arrays is not decoded', () => {
  // Where items declares an array, fixStringifiedJsonValues walks the
  // elements that already are arrays (fixStringifiedJsonValuesInArray), and
  // skips the strings.
  const schema = object({ rows: { type: 'array', items: { type: 'array' } } });
  assert.deepEqual(validate(schema, { rows: ['[1,2]', '[3]'] }).args, { rows: ['[1,2]', '[3]'] }); // the rule: [[1,2],[3]]
});

test('rule/3: allOf is read as a union, so a shape its intersection excludes is decoded', () => {
  // getAcceptedTypes adds the types of every allOf branch.
  const p = { allOf: [{ type: ['object', 'array'] }, { type: 'object' }] };
  assert.deepEqual(validate(object({ p }), { p: '[]' }).args, { p: [] }); // the rule: "[]"
});

test('reading/4: patternProperties, $ref other than #/..., and draft-4 items lists are not followed', () => {
  assert.deepEqual(validate({ type: 'object', patternProperties: { _json$: { type: 'array' } } }, { ops_json: '[]' }).args, { ops_json: '[]' }); // the rule: []
  const embedded = { $id: 'https://example.com/root', type: 'object', $defs: { a: { $id: 'list', type: 'array' } }, properties: { p: { $ref: 'list' } } };
  assert.deepEqual(validate(embedded, { p: '[1]' }).args, { p: '[1]' }); // the rule: [1]
  const draft4 = object({ p: { type: 'array', items: [{ type: 'string' }, { type: 'array' }] } });
  assert.deepEqual(validate(draft4, { p: ['[1]', '[2]'] }).args, { p: ['[1]', '[2]'] }); // the rule: ["[1]", [2]]
  // resolveRef reads "#/..." as written: "#" alone, and a name with a
  // %-escape, name nothing.
  const escaped = object({ p: { $ref: '#/$defs/a%20b' } }, { $defs: { 'a b': { type: 'array' } } });
  assert.deepEqual(validate(escaped, { p: '[1]' }).args, { p: '[1]' }); // the rule: [1]
  const root = object({ q: { type: 'object' }, p: { $ref: '#' } });
  assert.deepEqual(validate(root, { p: { q: '{}' } }).args, { p: { q: '{}' } }); // the rule: { q: {} }
});

test('reading/4: items declared in the branches of an anyOf are not followed', () => {
  // fixStringifiedJsonValues reads the items of the level itself only.
  const p = { anyOf: [{ type: 'array', items: { type: 'array' } }, { type: 'array', items: { type: 'object' } }] };
  assert.deepEqual(validate(object({ p }), { p: ['[1]'] }).args, { p: ['[1]'] }); // the rule: [[1]]
  assert.deepEqual(validate(object({ p: { type: 'array', items: { type: 'object' } } }), { p: ['{}'] }).args, { p: [{}] });
});

test('reading/5: String.prototype.trim counts a no-break space, a BOM or a form feed as JSON whitespace', () => {
  for (const ws of ['\u00a0', '\ufeff', '\f']) {
    assert.deepEqual(validate(object({ p: { type: 'array' } }), { p: ws + '[1]' }).args, { p: [1] }, JSON.stringify(ws)); // the rule: the string as sent
  }
});

test('reading/7: JSON.parse keeps one of two duplicate members, rounds numbers, accepts a raw lone surrogate', () => {
  assert.deepEqual(validate(object({ ops: { type: 'object' } }), { ops: '{"k":1,"k":2}' }).args, { ops: { k: 2 } }); // the rule keeps both
  assert.deepEqual(validate(object({ n: { type: 'array' } }), { n: '[12345678901234567890,1e400]' }).args, { n: [12345678901234567000, Infinity] });
  assert.deepEqual(validate(object({ p: { type: 'array' } }), { p: '["\ud800"]' }).args, { p: ['\ud800'] }); // the rule: the string (not UTF-8 text)
});

test('reading/8: a schema Ajv cannot compile skips validation and repair, without an error; an array is taken for an object', () => {
  // validate catches the compile error and returns null.
  assert.deepEqual(validate(object({ n: { allOf: [] } }, { properties: { n: { allOf: [] }, p: { type: 'array' } } }), { p: '[1]' }), { args: { p: '[1]' }, message: null }); // the rule: an error
  assert.deepEqual(validate(object({ a: 5 }), { a: 'x' }), { args: { a: 'x' }, message: null });
  // typeof [] is "object"
  assert.deepEqual(validate({}, []), { args: [], message: null }); // the rule: an error
});

test('rule/4: character references are left as they are (the package does the JSON repair only)', () => {
  assert.deepEqual(validate(object({ t: { type: 'string' } }), { t: 'Ember &amp;amp; Oak' }).args, { t: 'Ember &amp;amp; Oak' });
});

test('rule/2: the repair runs only when Ajv rejects the arguments first, and Ajv (draft-07 unless $schema says 2020-12) ignores prefixItems', () => {
  const p = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'object' }] };
  assert.deepEqual(validate(object({ p }), { p: ['x', '{}'] }), { args: { p: ['x', '{}'] }, message: null }); // the rule: ["x", {}]
  // Under 2020-12 Ajv rejects it, and the same repair decodes it.
  const s2020 = object({ p }, { $schema: 'https://json-schema.org/draft/2020-12/schema' });
  assert.deepEqual(validate(s2020, { p: ['x', '{}'] }), { args: { p: ['x', {}] }, message: null });
});

test('reading/4: a key a pattern matches gets additionalProperties (patternProperties not followed, seen from the other side)', () => {
  // The rule: "s_" matches ^s_, so additionalProperties does not apply to
  // it and its declared string stays; qwen-code applies additionalProperties'
  // array to it.
  const schema = { patternProperties: { '^s_': { type: 'string' } }, additionalProperties: { type: 'array' } };
  assert.deepEqual(validate(schema, { s_: '[]', '': '' }).args, { s_: [], '': '' }); // the rule: { s_: "[]", "": "" }
});

test('reading/4: a $ref cycle through allOf overflows the stack in the compiled validator', () => {
  // Ajv compiles the cycle; validating recurses without end, and validate
  // lets the RangeError through. The rule: a cycle declares nothing, the
  // arguments pass through as they are.
  const schema = { $defs: { a: { allOf: [{ allOf: [{ $ref: '#/$defs/a' }] }] } }, properties: { p: { $ref: '#/$defs/a' } } };
  assert.throws(() => SchemaValidator.validate(schema, { p: '[1]' }), { name: 'RangeError', message: 'Maximum call stack size exceeded' });
});

test('rule/2: a type beside $ref is dropped (in 2020-12 it applies with the reference)', () => {
  const schema = { $defs: { sa: {} }, properties: { p: { $ref: '#/$defs/sa', type: 'array' } } };
  assert.deepEqual(validate(schema, { p: '[]' }).args, { p: '[]' }); // the rule: { p: [] }
});

test('rule/2: the types of type and anyOf are added, not intersected: a string they admit together is not decoded', () => {
  // getAcceptedTypes, as for allOf: ["array","string"] beside anyOf
  // [array] admits a string, so "[]" stays; the rule intersects to array.
  assert.deepEqual(validate(object({ p: { type: ['array', 'string'], anyOf: [{ type: 'array' }] } }), { p: '[]' }).args, { p: '[]' }); // the rule: { p: [] }
  assert.deepEqual(validate(object({ p: { type: 'array', anyOf: [{ type: 'string' }, {}] } }), { p: '[]' }).args, { p: '[]' });
  assert.deepEqual(validate(object({ p: { allOf: [{ type: ['array', 'string'] }, { type: ['array'] }] } }), { p: '[]' }).args, { p: '[]' });
});

test('reading/4: of the allOf branches that declare one member, the first is read (getEffectiveProperties)', () => {
  // A member a later branch declares too keeps the first branch's
  // declaration; the branches reversed, the array is decoded.
  const first = { allOf: [object({ p: {} }), object({ p: { type: 'array' } })] };
  assert.deepEqual(validate(first, { p: '[]' }).args, { p: '[]' }); // the rule: { p: [] }
  const reversed = { allOf: [object({ p: { type: 'array' } }), object({ p: {} })] };
  assert.deepEqual(validate(reversed, { p: '[]' }).args, { p: [] });
  // The object's own declaration is read before any branch's: a branch
  // that admits only a string does not narrow it.
  const own = object({ p: { type: 'array' } }, { allOf: [object({ p: { type: 'string' } })] });
  assert.deepEqual(validate(own, { p: '[]' }).args, { p: [] }); // the rule: { p: '[]' }
});

test('rule/2: a parameter named constructor or prototype is never decoded (DANGEROUS_PROP_KEYS)', () => {
  const schema = object({ constructor: { type: 'array' }, prototype: { type: 'object' }, p: { type: 'array' } });
  assert.deepEqual(validate(schema, { constructor: '[1]', prototype: '{}', p: '[1]' }).args, { constructor: '[1]', prototype: '{}', p: [1] }); // the rule: all three decoded
});

test('reading/4: under a $schema Ajv does not know (draft-06, 2019-09) nothing is repaired', () => {
  for (const $schema of ['http://json-schema.org/draft-06/schema#', 'https://json-schema.org/draft/2019-09/schema']) {
    assert.deepEqual(validate({ $schema, ...object({ p: { type: 'array' } }) }, { p: '[1]' }).args, { p: '[1]' }); // the rule: { p: [1] }
  }
  assert.deepEqual(validate(object({ p: { type: 'array' } }), { p: '[1]' }).args, { p: [1] });
});
