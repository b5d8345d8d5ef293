// Replay toolnorm's RT-TOOL-8 corpus on a normalizer: Node.js 20 or later, standard library only.
//
// Copy this file into your test suite, beside a copy of corpus/vectors/. Then, in a test:
//
//   import { replay } from './replay.mjs';
//   assert.equal(await replay('corpus/vectors', normalize), 0);
//
// or from the shell:
//
//   node replay.mjs VECTORS                       check that every vector file is a vector; count them
//   node replay.mjs VECTORS --impl FILE.mjs       replay on FILE.mjs's default export (or its export normalize)
//   node replay.mjs VECTORS --answers FILE.jsonl  judge another implementation's answers, one JSON
//       object a line: {"id": ID, "output": JSON TEXT} or {"id": ID, "error": KIND} (later lines win)
//
// normalize(schema, args, options) is given the schema and the arguments as JSON text (strings) and
// the vector's options (an object, maybe empty: profile, max_passes, max_depth). It returns (or
// resolves to) the normalized arguments as JSON text; or throws to report an error, whose message is
// the kind (invalid-json, not-object, too-deep, invalid-schema) or anything else for an unspecified
// error, which matches every kind; or returns null to skip a vector whose options it does not offer.
// Results compare as corpus/README.md says: numbers by exact decimal value, members in order,
// duplicates kept (JSON.parse keeps neither big numbers, nor duplicates, nor the order of keys like
// "1", so this file reads JSON itself). Exit status 1 if any vector failed.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const KINDS = ['invalid-json', 'not-object', 'too-deep', 'invalid-schema'];
const FORMS = [['schema', 'schema_raw', 'schema_base64'], ['arguments', 'arguments_raw', 'arguments_base64'],
  ['expected', 'expected_raw', 'error']];
const ESC = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

// exact(text) is a canonical form of a JSON text: two texts have the same form exactly when the
// corpus counts them equal. It throws on anything that is not JSON. With top, it pushes [key,
// text] for each member of a top-level object, the member's text exactly as written.
export function exact(t, top) {
  let i = 0;
  const fail = (what) => { throw new SyntaxError(`${what} at offset ${i}`); };
  const ws = () => { while (t[i] === ' ' || t[i] === '\t' || t[i] === '\n' || t[i] === '\r') i++; };
  const eat = (c) => { ws(); if (t[i] !== c) fail(`want ${c}`); i++; };
  const RUN = /[^"\\\u0000-\u001f]*/y, NUM = /(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([-+]?\d+))?/y;
  const str = () => {
    eat('"');
    for (let s = ''; ;) {
      RUN.lastIndex = i; s += RUN.exec(t)[0]; i = RUN.lastIndex;
      const c = t[i++];
      if (c === '"') return s;
      if (c !== '\\') fail('bad string');
      const e = t[i++], hex = t.slice(i, i + 4);
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(hex)) { s += String.fromCharCode(parseInt(hex, 16)); i += 4; } // surrogates pair up by themselves
      else if (Object.hasOwn(ESC, e)) s += ESC[e];
      else fail('bad escape');
    }
  };
  const value = (depth) => {
    ws();
    const c = t[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']', parts = [];
      i++; ws();
      if (t[i] === close) { i++; return c + close; }
      for (;;) {
        const key = c === '{' ? str() : null;
        if (key !== null) eat(':');
        ws();
        const start = i, v = value(depth + 1);
        if (top && depth === 0 && key !== null) top.push([key, t.slice(start, i)]);
        parts.push(key === null ? v : JSON.stringify(key) + ':' + v);
        ws();
        if (t[i] !== ',') { eat(close); return c + parts.join(',') + close; }
        i++;
      }
    }
    if (c === '"') return JSON.stringify(str()); // lone surrogates come out as \udxxx
    for (const w of ['true', 'false', 'null']) if (t.startsWith(w, i)) { i += w.length; return w; }
    NUM.lastIndex = i;
    const m = NUM.exec(t);
    if (!m) fail('not JSON');
    i = NUM.lastIndex;
    // sign, digits without leading or trailing zeros, exponent: 1, 1.0 and 10e-1 are alike, -0 is 0
    const [, sign, int, frac = '', exp = '0'] = m, digits = (int + frac).replace(/^0+/, ''), d = digits.replace(/0+$/, '');
    return d ? `${sign}${d}e${BigInt(exp) - BigInt(frac.length) + BigInt(digits.length - d.length)}` : '0';
  };
  const v = value(0);
  ws();
  if (i !== t.length) fail('text after the value');
  return v;
}

function* files(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.isDirectory()) yield* files(join(dir, e.name));
    else if (e.name.endsWith('.json') && !e.name.startsWith('.')) yield join(dir, e.name);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

// text(src, k): the exact text of the schema, the arguments or the expected result; null if no
// JavaScript string holds it (bytes that are not UTF-8).
function text(src, k) {
  if (k + '_raw' in src) return JSON.parse(src[k + '_raw']);
  if (k + '_base64' in src) {
    try { return utf8.decode(Buffer.from(JSON.parse(src[k + '_base64']), 'base64')); } catch { return null; }
  }
  return src[k];
}

// vectors(root) yields the vector files under root, in order, as { path (relative to root), id,
// src (each member's text in the file), options }; a file that is not a vector throws, with one
// line naming it.
export function* vectors(root) {
  for (const path of files(root)) {
    const members = [];
    try { // a file that is not UTF-8, not JSON or too deep: one line naming it
      exact(new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path)), members);
    } catch (e) {
      throw new Error(`${path}: not a vector: ${String(e?.message ?? e).split('\n')[0]}`.slice(0, 500));
    }
    const src = Object.fromEntries(members); // member -> its text in the file
    if (!['id', 'description', 'clause', 'origin'].every((k) => k in src) ||
        !FORMS.every((form) => form.filter((k) => k in src).length === 1)) throw new Error(`${path}: not a vector`);
    yield { path: relative(root, path), id: JSON.parse(src.id), src, options: src.options ? JSON.parse(src.options) : {} };
  }
}

// judge(vector, normalize, answers) is one vector on normalize (or in answers): { ok: true },
// { ok: false, message } saying what was wrong, or { ok: null, message } saying why it was skipped.
export async function judge({ id, src, options }, normalize, answers) {
  const schema = text(src, 'schema'), args = text(src, 'arguments');
  if (schema === null || args === null) return { ok: null, message: 'not UTF-8, which no JavaScript string holds' };
  let got;
  if (answers) got = answers.get(id) ?? { missing: true };
  else {
    try {
      const out = await normalize(schema, args, options);
      if (out === null) return { ok: null, message: 'options not offered' };
      got = { output: typeof out === 'string' ? out : JSON.stringify(out) };
    } catch (e) {
      got = { error: KINDS.includes(e?.message) ? e.message : 'error', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
  }
  const error = src.error && JSON.parse(src.error), want = error || text(src, 'expected');
  let ok;
  if (error) ok = got.error === error || got.error === 'error';
  else {
    try { ok = typeof got.output === 'string' && exact(got.output) === exact(want); } catch { ok = false; } // not JSON
  }
  if (ok) return { ok: true };
  const said = got.missing ? 'no answer' : 'output' in got ? String(got.output)
    : got.error === 'error' && got.message !== undefined ? `an error (${got.message})` : `error ${got.error}`;
  const line = (s) => s.replace(/\n\s*/g, '').slice(0, 200); // raw newlines in JSON are whitespace
  return { ok: false, message: `got ${line(said)}, want ${error ? 'error ' : ''}${line(want)}` };
}

export async function replay(root, normalize, { answers, log = console.log } = {}) {
  let read = 0, passed = 0, failed = 0;
  const skipped = new Map(), skip = (why) => skipped.set(why, (skipped.get(why) ?? 0) + 1);
  for (const v of vectors(root)) {
    read++;
    if (!normalize && !answers) continue;
    const { ok, message } = await judge(v, normalize, answers);
    if (ok === null) skip(message);
    else if (ok) passed++;
    else {
      failed++;
      log(`FAIL ${v.path}: ${message}`);
    }
  }
  let summary = `read ${read} vectors`;
  if (normalize || answers) {
    summary += `: ${passed} passed, ${failed} failed, ${[...skipped.values()].reduce((a, b) => a + b, 0)} skipped`;
    if (skipped.size) summary += ` (${[...skipped].map(([why, n]) => `${n} ${why}`).join('; ')})`;
  }
  log(summary);
  return failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [root, flag, file, ...rest] = process.argv.slice(2);
  if (!root || rest.length || (flag && !['--impl', '--answers'].includes(flag)) || (flag && !file)) {
    console.error('usage: node replay.mjs VECTORS [--impl FILE.mjs | --answers FILE.jsonl]');
    process.exit(2);
  }
  let normalize, answers;
  if (flag === '--impl') {
    const m = await import(pathToFileURL(resolve(file)).href);
    normalize = m.default ?? m.normalize;
  } else if (flag === '--answers') {
    answers = new Map();
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.trim()) { const a = JSON.parse(line); answers.set(a.id, a); }
    }
  }
  try {
    process.exitCode = await replay(root, normalize, { answers });
  } catch (e) { // a bad vector file: its name and one line, no stack
    console.error(String(e?.message ?? e).split('\n')[0]);
    process.exitCode = 1;
  }
}
