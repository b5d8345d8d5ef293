// The deep zoo's JavaScript normalizer: clean with no switch, and each
// switch's bug shown by its witness (zoo/deep/witnesses.json), through the
// adapter and the kit as toolnorm runs it.
//
//   node --test zoo/deep/javascript/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SWITCHES } from './deep-normalizer.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const witnesses = JSON.parse(readFileSync(here('../witnesses.json'), 'utf8'));

// answers are the adapter's answers to each witness's case, ZOO_SWITCHES=sw.
function answers(sw, ws) {
  const lines = [JSON.stringify({ cmd: 'start', version: 1 })];
  ws.forEach((w, id) => lines.push(JSON.stringify({ cmd: 'normalize', id, schema: w.schema, arguments: w.arguments })));
  const out = spawnSync(process.execPath, [here('adapter.mjs')], { input: lines.join('\n') + '\n', env: { ...process.env, ZOO_SWITCHES: sw }, encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return out.stdout.trim().split('\n').slice(1).map((l) => JSON.parse(l));
}

test('every switch has a witness and an entry in zoo/deep/switches.json', () => {
  assert.deepEqual(Object.keys(SWITCHES).sort(), Object.keys(witnesses).sort());
  const listed = JSON.parse(readFileSync(here('../switches.json'), 'utf8')).filter((s) => s.lang === 'javascript').map((s) => s.id);
  assert.deepEqual(Object.keys(SWITCHES).sort(), listed.sort());
});

test('clean with no switch', () => {
  const ws = Object.values(witnesses);
  answers('', ws).forEach((a, i) => assert.deepEqual(a.arguments, ws[i].clean, JSON.stringify(a)));
});

test('each switch shows its bug', () => {
  for (const [sw, w] of Object.entries(witnesses)) {
    const [a] = answers(sw, [w]);
    assert.deepEqual(a.arguments, w.buggy, `${sw}: ${JSON.stringify(a)}`);
    assert.notDeepEqual(w.buggy, w.clean);
  }
});
