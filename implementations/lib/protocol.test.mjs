// node --test implementations/lib/protocol.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, stringify, Unsupported } from './protocol.mjs';

test('numbers a double does not hold come back as sent', () => {
  const text = '{"a":12345678901234567890,"b":1e400,"c":1.0,"d":[0.1,-0],"e":"12345678901234567890"}';
  const { value, numbers } = parse(text);
  assert.equal(stringify(value, numbers), text);
  assert.deepEqual([...numbers.keys()], ['/a', '/b', '/c', '/d/1']);
});

test('a number the library made is written as JavaScript writes it', () => {
  const { value, numbers } = parse('{"a":"[12345678901234567890]"}');
  value.a = JSON.parse(value.a);
  assert.equal(stringify(value, numbers), '{"a":[12345678901234567000]}');
});

test('what an object cannot hold is unsupported', () => {
  assert.throws(() => parse('{"a":1,"a":2}'), Unsupported);
  assert.throws(() => parse('{"b":1,"2":2}'), Unsupported);
  assert.doesNotThrow(() => parse('{"1":1,"2":2,"b":3}'));
  assert.doesNotThrow(() => parse('{"b":1,"02":2}')); // not an integer key
});

test('strings, escapes, lone surrogates and __proto__ survive', () => {
  const text = '{"__proto__":{"x":"\\ud800"},"s":"a\\u0026b\\n"}';
  const { value, numbers } = parse(text);
  assert.equal(Object.keys(value).join(','), '__proto__,s');
  assert.equal(stringify(value, numbers), '{"__proto__":{"x":"\\ud800"},"s":"a&b\\n"}');
});

test('bad JSON is a syntax error', () => {
  for (const bad of ['{', '{"a":}', '[1,]', '{"a":1}x', '01']) {
    assert.throws(() => parse(bad), SyntaxError, bad);
  }
});

test('numbers of any length, and the schema read as JSON.parse reads it', () => {
  const digits = '1' + '0'.repeat(5000);
  const { value, numbers } = parse(`{"a":${digits}}`);
  assert.equal(stringify(value, numbers), `{"a":${digits}}`);
  // Only the arguments are held to member order; a duplicate member,
  // which toolnorm refuses in a schema, is unsupported there too.
  const req = '{"cmd":"normalize","id":1,"schema":{"properties":{"b":{},"1":{}},"x":1},"arguments":{"a":1}}';
  assert.doesNotThrow(() => parse(req, '/arguments'));
  assert.throws(() => parse('{"schema":{"type":"string","type":"array"},"arguments":{}}', '/arguments'), Unsupported);
  assert.throws(() => parse('{"arguments":{"b":1,"1":2}}', '/arguments'), Unsupported);
});

test('what the library leaves undefined is written as JSON.stringify writes it', () => {
  assert.equal(stringify({ a: undefined, b: [1, undefined, , 3] }, new Map()), '{"b":[1,null,null,3]}');
});
