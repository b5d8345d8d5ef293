// The JavaScript zoo's tests: each switch changes the answer on its witness,
// to the answer committed in witnesses.json; with no switch, the normalizer
// answers as the reference on every witness of the zoo (both languages');
// the adapter serves a switch over the protocol.
//
//   node --test zoo/javascript/
//
// The answers come from toolnorm (zoo/witnesses.py fills them in).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { call } from '../../kits/javascript/toolnorm-kit.mjs';
import { createNormalizer, SWITCHES, Unsupported } from './zoo-normalizer.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const load = (lang) => JSON.parse(readFileSync(here(`../${lang}/witnesses.json`), 'utf8'));
const witnesses = load('javascript');

// canonical reads JSON text as toolnorm compares answers: members in order
// (duplicates kept), strings by value, numbers by decimal value.
function canonical(answer) {
  if (answer.error) return 'error';
  const text = answer.arguments;
  let i = 0;
  const ws = () => { while (' \t\n\r'.includes(text[i]) && i < text.length) i++; };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      const out = [c];
      ws();
      if (text[i] === (c === '{' ? '}' : ']')) { i++; return out; }
      for (;;) {
        if (c === '{') { const k = value(); ws(); i++; out.push([k, value()]); } else out.push(value());
        ws();
        if (text[i++] !== ',') return out;
      }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/s.exec(text.slice(i));
      i += m[0].length;
      return JSON.parse(m[0]);
    }
    const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?|^(true|false|null)/.exec(text.slice(i));
    i += m[0].length;
    if (m[5]) return m[5];
    const digits = (m[2] + (m[3] ?? '')).replace(/^0+/, '');
    if (!digits) return 'n0';
    const trimmed = digits.replace(/0+$/, '');
    return `n${m[1]}${trimmed}e${BigInt(m[4] ?? 0) - BigInt((m[3] ?? '').length) + BigInt(digits.length - trimmed.length)}`;
  };
  return JSON.stringify(value());
}

function answer(normalize, w) {
  try {
    return { arguments: call(normalize, w.schema, w.arguments) };
  } catch (e) {
    if (e instanceof Unsupported) throw e;
    return { error: true };
  }
}

test('every switch has a witness and an entry in zoo/switches.json', () => {
  assert.deepEqual(Object.keys(SWITCHES).sort(), Object.keys(witnesses).sort());
  const listed = JSON.parse(readFileSync(here('../switches.json'), 'utf8')).filter((s) => s.lang === 'javascript').map((s) => s.id);
  assert.deepEqual(Object.keys(SWITCHES).sort(), listed.sort());
});

for (const [sw, w] of Object.entries(witnesses)) {
  test(`${sw} changes its witness`, () => {
    const got = canonical(answer(createNormalizer([sw]), w));
    assert.equal(got, canonical(w.answer), 'the answer committed for the switch');
    assert.notEqual(got, canonical(w.reference), 'a witness the switch answers as the reference does');
    if (w.deviation_reference) assert.equal(got, canonical(w.deviation_reference));
  });
}

test('with no switch, the answer is the reference on every witness', () => {
  const clean = createNormalizer();
  const unsupported = [];
  for (const lang of ['javascript', 'python']) {
    for (const [sw, w] of Object.entries(load(lang))) {
      try {
        assert.equal(canonical(answer(clean, w)), canonical(w.reference), `${lang} witness of ${sw}`);
      } catch (e) {
        if (!(e instanceof Unsupported)) throw e;
        unsupported.push(sw);
      }
    }
  }
  // A decoded object with a duplicate member: no JavaScript object holds it.
  assert.deepEqual(unsupported, ['py-json-plain-dict']);
});

test('the adapter serves a switch, and refuses one it does not have', () => {
  const w = witnesses['js-replace-once'];
  const request = JSON.stringify({ cmd: 'normalize', id: 1, schema: JSON.parse(w.schema), arguments: JSON.parse(w.arguments) });
  const p = spawnSync(process.execPath, [here('adapter.mjs')], {
    input: `{"cmd":"start","version":1}\n${request}\n{"cmd":"stop"}\n`,
    env: { ...process.env, ZOO_SWITCHES: 'js-replace-once' },
    encoding: 'utf8',
  });
  const [start, got] = p.stdout.trim().split('\n');
  assert.equal(JSON.parse(start).implementation.version, 'js-replace-once');
  assert.equal(canonical({ arguments: JSON.stringify(JSON.parse(got).arguments) }), canonical(w.answer));
  const bad = spawnSync(process.execPath, [here('adapter.mjs')], { input: '', env: { ...process.env, ZOO_SWITCHES: 'js-no-such-bug' }, encoding: 'utf8' });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /js-no-such-bug/);
});
