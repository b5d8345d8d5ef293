// Tests of the kit over the protocol's edge cases: node --test kits/javascript/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { call, members, parse, rawNumber, stringify, Unsupported } from './toolnorm-kit.mjs';

const kit = new URL('./toolnorm-kit.mjs', import.meta.url).href;

// session runs an adapter on the kit, with normalize given as source text,
// on the request lines, and returns its answer lines and stderr.
function session(normalize, lines, declares = '{}', options = '') {
  const program = `import { serve } from ${JSON.stringify(kit)};
    serve({ info: { name: 'test', language: 'JavaScript' }, declares: ${declares}, normalize: ${normalize}${options} });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    input: lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)) + '\n').join(''),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout === '' || r.stdout.endsWith('\n'));
  return { lines: r.stdout.split('\n').slice(0, -1), stderr: r.stderr };
}

const identity = '(schema, args) => args';

// one is the answer line to one normalize request with argsText as sent.
function one(normalize, argsText, schemaText = '{}') {
  const { lines } = session(normalize, [`{"cmd":"normalize","id":1,"schema":${schemaText},"arguments":${argsText}}`]);
  assert.equal(lines.length, 1);
  return lines[0];
}

test('start is answered with the implementation and its declares; stop ends the session', () => {
  const { lines } = session(identity, [{ cmd: 'start', version: 1 }, { cmd: 'hello' }, { cmd: 'stop' }, { cmd: 'start', version: 1 }],
    "{ profile: 'attribute', max_passes: 2, depth: 'top', repairs: ['json'] }");
  assert.deepEqual(lines.map((l) => JSON.parse(l)), [{
    version: 1, implementation: { name: 'test', language: 'JavaScript' },
    declares: { profile: 'attribute', max_passes: 2, depth: 'top', repairs: ['json'] },
    coverage: 'blocks',
  }]);
});

test('declares the protocol does not know are refused at once', () => {
  for (const bad of ["{ profile: 'html' }", '{ max_passes: -1 }', "{ depth: 'deep' }", '{ repairs: [] }', "{ repairs: ['html'] }"]) {
    const program = `import { serve } from ${JSON.stringify(kit)}; serve({ info: { name: 't' }, declares: ${bad}, normalize: (s, a) => a });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], { input: '', encoding: 'utf8' });
    assert.notEqual(r.status, 0, bad);
    assert.match(r.stderr, /serve: declares/);
  }
});

test('what the function leaves alone comes back as sent', () => {
  for (const text of [
    '{"a":1E+2,"b":1e400,"c":-0,"d":12345678901234567890,"e":-1e-400,"f":1.0,"g":0.1}',
    '{"1":1,"2":2,"b":3,"02":4,"":5}', // integer keys first and ascending: an object holds that
    '{"e":{},"a":[],"n":[{}],"m":{"x":[]}}',
    '{"s":"\\ud800","t":"\\udfff\\ud800","u":"😀"}', // a pair written \ud83d\ude00 is the same string
    '{"__proto__":{"constructor":null},"t":true,"f":false,"z":null}',
  ]) {
    assert.equal(one(identity, text), `{"id":1,"arguments":${text}}`);
  }
});

test('the id is echoed as it was written', () => {
  const { lines } = session(identity, ['{"cmd":"normalize","id":12345678901234567890,"schema":{},"arguments":{}}']);
  assert.deepEqual(lines, ['{"id":12345678901234567890,"arguments":{}}']);
});

test('what an object cannot hold is unsupported: order in the arguments, duplicates everywhere', () => {
  assert.deepEqual(JSON.parse(one(identity, '{"a":{"x":1,"x":2}}')), { id: 1, unsupported: 'duplicate member "x": a JavaScript object keeps one' });
  assert.match(JSON.parse(one(identity, '{"b":1,"1":2}')).unsupported, /would be reordered/);
  assert.equal(one(identity, '{"a":1}', '{"properties":{"b":{},"1":{}},"x":1}'), '{"id":1,"arguments":{"a":1}}');
  assert.deepEqual(JSON.parse(one(identity, '{"a":1}', '{"properties":{},"x":1,"x":2}')), { id: 1, unsupported: 'duplicate member "x": a JavaScript object keeps one' });
});

test('numbers the function makes are written as JavaScript writes them', () => {
  assert.equal(one('(s, a) => ({ a: JSON.parse(a.a), n: a.n * 2, i: Infinity })', '{"a":"[12345678901234567890]","n":1E+2}'),
    '{"id":1,"arguments":{"a":[12345678901234567000],"n":200,"i":null}}');
});

test('huge input', () => {
  const big = `{"s":"${'x&amp;'.repeat(200000)}","a":[${Array.from({ length: 100000 }, (_, n) => n).join(',')}]}`;
  assert.equal(one(identity, big), `{"id":1,"arguments":${big}}`);
});

test('deep input is read and written; too deep for the kit is unsupported', () => {
  const deep = `{"a":${'['.repeat(1001)}${']'.repeat(1001)}}`;
  assert.equal(one(identity, deep), `{"id":1,"arguments":${deep}}`);
  const tooDeep = `{"a":${'['.repeat(200000)}${']'.repeat(200000)}}`;
  const answer = JSON.parse(one(identity, tooDeep));
  assert.equal(answer.id, 1);
  assert.match(answer.unsupported, /cannot read this request/);
});

test('an exception is an error answer, and the session goes on', () => {
  const picky = "(s, a) => { if (Array.isArray(a)) throw new Error('arguments must be an object'); return a; }";
  const { lines } = session(picky, [
    { cmd: 'normalize', id: 1, schema: {}, arguments: [] },
    { cmd: 'normalize', id: 2, schema: {}, arguments: { a: 1 } },
  ]);
  assert.deepEqual(lines, ['{"id":1,"error":"arguments must be an object"}', '{"id":2,"arguments":{"a":1}}']);
});

test('a stack overflow, a BigInt and a Promise are error answers', () => {
  const { lines } = session('function f(s, a) { if (a.deep) return f(s, a); if (a.big) return { n: 1n }; if (a.later) return Promise.resolve(a); return a; }', [
    { cmd: 'normalize', id: 1, schema: {}, arguments: { deep: true } },
    { cmd: 'normalize', id: 2, schema: {}, arguments: { big: true } },
    { cmd: 'normalize', id: 3, schema: {}, arguments: { later: true } },
    { cmd: 'normalize', id: 4, schema: {}, arguments: {} },
  ]);
  assert.match(JSON.parse(lines[0]).error, /call stack/);
  assert.match(JSON.parse(lines[1]).error, /BigInt/);
  assert.match(JSON.parse(lines[2]).error, /Promise/);
  assert.equal(lines[3], '{"id":4,"arguments":{}}');
});

test('console.log goes to stderr; every answer is one line', () => {
  const { lines, stderr } = session("(s, a) => { console.log('hello'); return { t: 'a\\nb\\u2028' }; }", [
    { cmd: 'normalize', id: 1, schema: {}, arguments: {} },
    { cmd: 'normalize', id: 2, schema: {}, arguments: {} },
  ]);
  assert.deepEqual(lines, ['{"id":1,"arguments":{"t":"a\\nb\u2028"}}', '{"id":2,"arguments":{"t":"a\\nb\u2028"}}']);
  assert.equal(stderr, 'hello\nhello\n');
});

test('call: text in, text out', () => {
  assert.equal(call((s, a) => a, '{}', '{"1":[],"2":{},"n":1E+2}'), '{"1":[],"2":{},"n":1E+2}');
  assert.throws(() => call((s, a) => a, '{}', '{"a":1,"a":2}'), Unsupported);
  assert.throws(() => call((s, a) => a, '{}', '{"a":}'), SyntaxError);
});

test('parse and stringify, as implementations/lib/protocol.mjs exports them', () => {
  const { value, numbers } = parse('{"a":12345678901234567890,"b":1e400,"c":1.0,"d":[0.1,-0]}');
  assert.equal(stringify(value, numbers), '{"a":12345678901234567890,"b":1e400,"c":1.0,"d":[0.1,-0]}');
  assert.doesNotThrow(() => parse('{"b":1,"1":2}', null));
  assert.equal(stringify({ a: undefined, b: [1, undefined, , 3] }, new Map()), '{"b":[1,null,null,3]}');
});

test('an Unsupported the function throws, or an error the unsupported hook names, is unsupported', () => {
  const run = (hook) => {
    const program = `import { serve, Unsupported } from ${JSON.stringify(kit)};
      serve({ info: { name: 't' }, ${hook} normalize: (s, a) => { if (a.u) throw new Unsupported('u is not for me'); throw new RangeError('r'); } });`;
    const input = ['{"u":1}', '{"r":1}'].map((a, i) => `{"cmd":"normalize","id":${i},"schema":{},"arguments":${a}}\n`).join('');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], { input, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split('\n').slice(0, -1).map((l) => JSON.parse(l));
  };
  assert.deepEqual(run(''), [{ id: 0, unsupported: 'u is not for me' }, { id: 1, error: 'r' }]);
  assert.deepEqual(run('unsupported: (e) => e instanceof RangeError,'), [{ id: 0, unsupported: 'u is not for me' }, { id: 1, unsupported: 'r' }]);
  assert.deepEqual(run('unsupported: () => { throw new Error("hook"); },'), [{ id: 0, unsupported: 'u is not for me' }, { id: 1, error: 'r' }]);
});

// The function's own module, written where the coverage's root holds it:
// code given with -e is no script under any directory.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function covered(lines, coverage = null) {
  const dir = mkdtempSync(join(tmpdir(), 'kit-coverage-'));
  writeFileSync(join(dir, 'branchy.mjs'), `export function branchy(schema, args) {
  if ('x' in args) {
    return { x: args.x };
  }
  if (args.fail) {
    throw new Error('rejected');
  }
  return args;
}
`);
  const program = `import { serve } from ${JSON.stringify(kit)};
    import { branchy } from ${JSON.stringify(new URL('file://' + join(dir, 'branchy.mjs')).href)};
    serve({ info: { name: 'test' }, normalize: branchy, coverage: ${coverage ?? JSON.stringify([dir])} });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    input: lines.map((l) => JSON.stringify(l) + '\n').join(''), encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split('\n').slice(0, -1).map((l) => JSON.parse(l));
}

const ask = (id, args) => ({ cmd: 'normalize', id, schema: {}, arguments: args, coverage: true });

test('coverage: offered, and each request given the blocks it reached first', () => {
  const [start, first, same, other, rejected, again, plain] = covered([{ cmd: 'start', version: 1 },
    ask(1, { x: 1 }), ask(2, { x: 2 }), ask(3, { y: 1 }), ask(4, { fail: true }), ask(5, { fail: true }),
    { cmd: 'normalize', id: 6, schema: {}, arguments: { x: 3 } }]);
  assert.equal(start.coverage, 'blocks');
  assert.deepEqual(first.arguments, { x: 1 });
  assert.ok(first.coverage.length > 0, JSON.stringify(first));
  assert.deepEqual(first.coverage, [...first.coverage].sort((a, b) => a - b));
  assert.ok(first.coverage.every((id) => Number.isInteger(id) && id >= 0 && id < 2 ** 32));
  assert.deepEqual(same.coverage, [], 'nothing new');
  assert.ok(other.coverage.length > 0 && other.coverage.every((id) => !first.coverage.includes(id)), 'another branch');
  assert.equal(rejected.error, 'rejected');
  assert.ok(rejected.coverage.length > 0, 'the throw is another branch');
  assert.deepEqual(again.coverage, []);
  assert.deepEqual(plain, { id: 6, arguments: { x: 3 } }, 'not asked, not given');
});

test('coverage: the same requests give the same ids from one run to the next', () => {
  const lines = [ask(1, { y: 1 }), ask(2, { x: 1 }), ask(3, { fail: 1 })];
  const a = covered(lines);
  assert.ok(a.every((l) => l.coverage.length > 0), JSON.stringify(a));
  assert.deepEqual(covered(lines), a);
});

test('coverage: a branch first reached after hundreds of requests is told', () => {
  // V8's binary coverage (callCount: false) stopped listing a function
  // some takes after it first ran: a block first reached late went
  // untold, and a fuzzer could not climb to it.
  const lines = [];
  for (let i = 1; i <= 400; i++) lines.push(ask(i, { ['y' + i]: i }));
  lines.push(ask(401, { x: 1 }), ask(402, { fail: true }));
  const out = covered(lines);
  assert.equal(out.length, 402);
  assert.ok(out[400].coverage.length > 0, `the x branch: ${JSON.stringify(out[400])}`);
  assert.ok(out[401].coverage.length > 0, `the throw: ${JSON.stringify(out[401])}`);
});

test('coverage: a start that says coverage will be asked lets blocks of code run before be told', () => {
  // toolnorm fuzz's first batch asks for none: the function runs, and V8
  // compiles it, before the first request that asks. V8 counts the blocks
  // only of functions compiled once its coverage started: the start says
  // coverage will be asked, and the kit starts it then.
  const lines = [{ cmd: 'start', version: 1, coverage: true }];
  for (let i = 1; i <= 50; i++) lines.push({ cmd: 'normalize', id: i, schema: {}, arguments: { y: i } });
  lines.push(ask(51, { y: 0 }), ask(52, { x: 1 }), ask(53, { fail: true }));
  const out = covered(lines);
  assert.equal(out.length, 54);
  assert.ok(out[52].coverage.length > 0, `the x branch: ${JSON.stringify(out[52])}`);
  assert.ok(out[53].coverage.length > 0, `the throw: ${JSON.stringify(out[53])}`);
});

test('coverage: false offers none and answers none', () => {
  const [start, one] = covered([{ cmd: 'start', version: 1 }, ask(1, { x: 1 })], 'false');
  assert.equal(start.coverage, undefined);
  assert.deepEqual(one, { id: 1, arguments: { x: 1 } });
});

test('a number the function makes from decoded JSON text comes back exact as rawNumber', () => {
  // The function decodes "[12345678901234567890,1e400]" itself, keeping the
  // numbers' text: what JSON.parse would round, or make infinite.
  const decodeKeeping = `(schema, args) => ({ a: args.a.slice(1, -1).split(',').map((t) => (globalThis.kit.rawNumber(t))) })`;
  const program = `import * as kit from ${JSON.stringify(kit)}; globalThis.kit = kit;
    kit.serve({ info: { name: 'raw' }, normalize: ${decodeKeeping} });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    input: '{"cmd":"normalize","id":1,"schema":{},"arguments":{"a":"[12345678901234567890,1e400,-0.10]"}}\n', encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '{"id":1,"arguments":{"a":[12345678901234567890,1e400,-0.10]}}\n');
  assert.equal(stringify([rawNumber('1E+2')], new Map()), '[1E+2]');
  for (const bad of ['', '01', '1.', 'NaN', '1 ', '[1]', 5]) assert.throws(() => rawNumber(bad), TypeError, String(bad));
});

test('normalizeText gets the schema and arguments as sent, and its text is the answer', () => {
  const program = `import { serve } from ${JSON.stringify(kit)};
    serve({ info: { name: 'text' }, normalizeText: (schema, args) => {
      if (args === '"boom"') throw new Error('no');
      return '{"schema":' + schema + ',\\n"args":' + JSON.stringify(args) + '}';
    } });`;
  const lines = [
    '{"cmd":"normalize","id":1,"schema":{"a":{"b":"}\\""}},"arguments":{"d":1,"d":2,"n":1e400,"2":0}}',
    '{"cmd":"normalize","id":2,"schema":true,"arguments":"boom"}',
    '{"cmd":"stop"}',
  ];
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], { input: lines.join('\n') + '\n', encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(r.stdout.split('\n').slice(0, -1), [
    '{"id":1,"arguments":{"schema":{"a":{"b":"}\\""}},"args":"{\\"d\\":1,\\"d\\":2,\\"n\\":1e400,\\"2\\":0}"}}',
    '{"id":2,"error":"no"}',
  ]);
  assert.deepEqual(members('{ "id" : 3 , "arguments" : [ {"x":"]"} ] }'), { id: '3', arguments: '[ {"x":"]"} ]' });
});

test('serve takes normalize or normalizeText, one of them', () => {
  for (const both of ['normalize: (s, a) => a, normalizeText: (s, a) => a', '']) {
    const program = `import { serve } from ${JSON.stringify(kit)}; serve({ info: { name: 't' }${both ? ', ' + both : ''} });`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', program], { input: '', encoding: 'utf8' });
    assert.notEqual(r.status, 0, both);
    assert.match(r.stderr, /one of them/);
  }
});

