// toolnorm adapter kit for JavaScript (Node.js 18+, usable from TypeScript):
// the whole of toolnorm's protocol, version 1 (docs/protocol.md), around one
// function of yours. Standard library only, no build step; copy this file.
//
//   import { serve } from './toolnorm-kit.mjs';
//   import { normalize } from '../src/normalize.js'; // (schema, args) => args
//
//   serve({
//     info: { name: 'my-normalizer', language: 'JavaScript', version: '0.3.1' },
//     declares: { profile: 'text', max_passes: 0, depth: 'all', repairs: ['json', 'entities'] },
//     normalize,
//   });
//
// then: toolnorm check --impl 'node adapter.mjs'
//
// The plumbing must not be mistaken for your function: JSON.parse keeps one
// of two duplicate members, puts integer keys first, and rounds numbers to
// doubles, before the function is ever called. So this kit
//
//   - reads each request's arguments with its own parser, and answers
//     "unsupported" (the case is not judged) where a JavaScript object
//     cannot hold them as sent: duplicate members, integer keys not first
//     and ascending; and a schema with a duplicate member, which toolnorm
//     refuses but no function taking an object can see;
//   - writes the function's answer back with the exact text of every number
//     the function left where it was (12345678901234567890, 1e400, 1E+2 come
//     back as they were sent); numbers the function made itself (by
//     JSON.parse of a string) are written as JavaScript writes them: that is
//     the function's behaviour (NaN and Infinity as null, as JSON.stringify);
//   - turns anything the function throws (a stack overflow included) into an
//     "error" answer with its message, and goes on; what it logs with
//     console.log goes to stderr, where toolnorm shows it beside failures.
//
// A number the function makes from JSON text it decodes (a stringified
// array) is a double once JSON.parse reads it: to hand back its exact text
// (12345678901234567890, 1e400), return rawNumber(text) in its place, or a
// value of JSON.rawJSON(text) where Node.js has it (21 and later).
//
// A normalizer that works on JSON text rather than on values (its own
// reader and writer, which keep every number, duplicate and order) is
// served with serve({ normalizeText }) instead of normalize:
// normalizeText(schemaText, argumentsText) gets the request's schema and
// arguments as they were sent and returns the arguments as JSON text
// (newlines in it are white space, and are taken out); nothing is then
// "unsupported", since no JavaScript value holds the case.
//
// call(normalize, schemaText, argsText) does one case from JSON text to JSON
// text, for tests (the corpus replay test of `toolnorm init` uses it).
//
// Coverage (an addition to protocol version 1): the kit offers the blocks
// the implementation's code reaches (V8's block coverage, through
// node:inspector), by default of every script under the working directory
// (node_modules included: a published package is the implementation), the
// kit left out; serve({ coverage: [dirs or files] }) chooses, coverage:
// false offers none. `toolnorm fuzz` asks for it and keeps the cases that
// reach blocks no case reached before. V8's coverage starts at the first
// request that asks for it (a check, which asks for none, pays nothing).
// Taking it costs more than a small request, so the kit takes it once for
// the requests that arrived together, and only when that finds a block not
// seen before does it run them again one by one to tell which reached it
// first; it takes fewer together next time (from 1 to 32: halved when a
// group reached something new, doubled when not).
import { createInterface } from 'node:readline';
import { Session } from 'node:inspector';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// Unsupported is thrown where an object cannot hold what the text has.
export class Unsupported extends Error {}

// RawNumber is a number the function hands back as JSON text (rawNumber).
class RawNumber {
  constructor(text) { this.text = text; Object.freeze(this); }
}

// rawNumber is the number whose JSON text is text, for the function to put
// where it means that number exactly: the kit writes text as it is. A text
// that is not one JSON number throws a TypeError.
export function rawNumber(text) {
  number.lastIndex = 0;
  if (typeof text !== 'string' || !number.test(text) || number.lastIndex !== text.length) {
    throw new TypeError(`rawNumber: ${JSON.stringify(String(text))} is not a JSON number`);
  }
  return new RawNumber(text);
}

const ws = new Set([' ', '\t', '\n', '\r']);

const number = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

const token = (p) => p.replace(/~/g, '~0').replace(/\//g, '~1');

// parse reads JSON text into JavaScript values, recording at each JSON
// Pointer the text of every number that JavaScript would write otherwise,
// and throwing Unsupported where an object cannot hold what the text has:
// only under strictAt (a JSON Pointer prefix, '' for all of it; null for
// none of it) — elsewhere (the schema) it keeps what JSON.parse would, as
// the function would get it.
export function parse(text, strictAt = '') {
  let i = 0;
  const numbers = new Map(); // pointer -> number text
  const isStrict = (at) => strictAt !== null && at.startsWith(strictAt);
  const skip = () => { while (i < text.length && ws.has(text[i])) i++; };
  const fail = (what) => { throw new SyntaxError(`${what} at offset ${i}`); };
  const str = () => {
    const start = i;
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('unterminated string');
      if (c === '"') break;
      if (c === '\\') i++;
      i++;
    }
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const value = (at) => {
    skip();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj = {};
      const keys = [];
      skip();
      if (text[i] === '}') { i++; return obj; }
      const strict = isStrict(at);
      for (;;) {
        skip();
        if (text[i] !== '"') fail('expected a key');
        const k = str();
        // A duplicate member is unsupported everywhere: in the schema too,
        // where toolnorm refuses it (docs/readings.md §4) and no function
        // taking a JavaScript object can ever see it.
        if (Object.prototype.hasOwnProperty.call(obj, k)) {
          throw new Unsupported(`duplicate member ${JSON.stringify(k)}: a JavaScript object keeps one`);
        }
        keys.push(k);
        skip();
        if (text[i] !== ':') fail('expected :');
        i++;
        const v = value(at + '/' + token(k));
        Object.defineProperty(obj, k, { value: v, writable: true, enumerable: true, configurable: true });
        skip();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; break; }
        fail('expected , or }');
      }
      if (strict && Object.keys(obj).some((k, n) => k !== keys[n])) {
        throw new Unsupported(`members ${JSON.stringify(keys.slice(0, 4))} would be reordered: a JavaScript object puts integer keys first`);
      }
      return obj;
    }
    if (c === '[') {
      i++;
      const arr = [];
      skip();
      if (text[i] === ']') { i++; return arr; }
      for (;;) {
        arr.push(value(at + '/' + arr.length));
        skip();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; break; }
        fail('expected , or ]');
      }
      return arr;
    }
    if (c === '"') return str();
    number.lastIndex = i;
    const m = number.exec(text);
    if (m && m[0].length > 0) {
      i += m[0].length;
      const n = Number(m[0]);
      if (String(n) !== m[0]) numbers.set(at, m[0]);
      return n;
    }
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    fail('unexpected character');
  };
  const v = value('');
  skip();
  if (i !== text.length) fail('data after the value');
  return { value: v, numbers };
}

// stringify writes v as JSON, with the recorded text of each number the
// function left in its place.
export function stringify(v, numbers, at = '') {
  if (v instanceof RawNumber) return v.text;
  if (typeof JSON.isRawJSON === 'function' && JSON.isRawJSON(v)) return v.rawJSON;
  if (typeof v === 'number') {
    // The number sent here, if the function left it as it was read.
    const t = numbers.get(at);
    if (t !== undefined && Object.is(Number(t), v)) return t;
    return JSON.stringify(v); // Infinity and NaN become null, as JavaScript writes them
  }
  const absent = (x) => x === undefined || typeof x === 'function' || typeof x === 'symbol';
  if (Array.isArray(v)) {
    // As JSON.stringify writes them: a hole or an undefined element is null.
    return '[' + Array.from(v, (e, n) => (absent(e) ? 'null' : stringify(e, numbers, at + '/' + n))).join(',') + ']';
  }
  if (v !== null && typeof v === 'object') {
    if (typeof v.toJSON === 'function') return stringify(v.toJSON(), new Map(), at);
    // As JSON.stringify writes them: an undefined member is left out.
    const keys = Object.keys(v).filter((k) => !absent(v[k]));
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + stringify(v[k], numbers, at + '/' + token(k))).join(',') + '}';
  }
  if (absent(v)) return 'null';
  return JSON.stringify(v); // a BigInt throws, as JSON.stringify does
}

// call runs normalize on one case, JSON text in and out: the schema read as
// the function gets it, the arguments strictly (Unsupported for what an
// object cannot hold), the answer written back with the numbers' text.
export function call(normalize, schemaText, argsText) {
  const schema = parse(schemaText, null).value;
  const args = parse(argsText);
  return stringify(normalize(schema, args.value), args.numbers);
}

// The most requests whose coverage is taken at once, and the most ids an
// answer carries (the protocol's bound).
const COVERAGE_GROUP = 32;
const MAX_COVERAGE = 1 << 16;

// fnv32 hashes a string to a 32-bit id (FNV-1a).
function fnv32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

// Coverage takes V8's block coverage of the implementation's scripts: the
// blocks reached, each named by its script's path relative to the root
// that holds it and its offsets, so that the ids are the same from run to
// run. V8 lists a block only where it differs from the block around it (a
// branch not taken is a block of count 0 within its function), so the
// kit learns each function's blocks as V8 lists them, and counts a block
// reached when the innermost block listed around it ran.
class Coverage {
  constructor(roots) {
    this.roots = roots.map((r) => resolve(r));
    this.kit = fileURLToPath(import.meta.url);
    this.scripts = new Map(); // url -> its relative path, or null when it does not count
    this.blocks = new Map(); // a function's key -> its blocks known, [start, end]
    this.seen = new Set(); // blocks reported reached
    // size is how many requests are taken together: halved when a group
    // reached something new (its requests are then run again, one by
    // one), doubled when it did not, from 1 to COVERAGE_GROUP. Early in a
    // run most requests reach something new, and taking each alone costs
    // less than taking them together and then again one by one.
    this.size = 1;
    this.session = null;
    this.started = false;
  }

  // start starts V8's block coverage, at the first request that asks for
  // it: it makes every function count its blocks, which a check, asking
  // for none, need not pay.
  start() {
    if (this.started) return;
    this.started = true;
    try {
      this.session = new Session();
      this.session.connect();
      this.session.post('Profiler.enable');
      // Counts, not V8's binary coverage (callCount: false): in binary
      // mode V8 stops listing a function some takes after it first ran,
      // so a block first reached late went untold.
      this.session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    } catch (e) {
      // No inspector here: the answers carry empty coverage.
      console.error(`toolnorm-kit: no coverage: ${message(e)}`);
      this.session = null;
    }
  }

  path(url) {
    let rel = this.scripts.get(url);
    if (rel === undefined) {
      rel = null;
      if (url.startsWith('file:')) {
        const file = fileURLToPath(url);
        for (const root of file === this.kit ? [] : this.roots) {
          if (file === root) { rel = root.slice(root.lastIndexOf(sep) + 1); break; }
          if (file.startsWith(root + sep)) { rel = file.slice(root.length + 1); break; }
        }
      }
      this.scripts.set(url, rel);
    }
    return rel;
  }

  // take returns the blocks reached since the last take.
  take() {
    let result = [];
    this.session?.post('Profiler.takePreciseCoverage', (err, r) => { if (!err) result = r.result; });
    const reached = new Set();
    for (const script of result) {
      const rel = this.path(script.url);
      if (rel === null) continue;
      for (const f of script.functions) {
        const [outer] = f.ranges;
        if (!outer || outer.count === 0) continue;
        const key = `${rel}:${outer.startOffset}`;
        let known = this.blocks.get(key);
        if (!known) this.blocks.set(key, (known = new Map()));
        for (const r of f.ranges) known.set(`${r.startOffset}:${r.endOffset}`, [r.startOffset, r.endOffset]);
        for (const [name, [start, end]] of known) {
          let count = outer.count;
          for (const r of f.ranges) { // outer blocks first: the last around it is the innermost
            if (r.startOffset <= start && end <= r.endOffset) count = r.count;
          }
          if (count > 0) reached.add(`${rel}:${name}`);
        }
      }
    }
    return reached;
  }

  // group answers requests that asked for coverage, each {answer, run}:
  // answer its line without the coverage member, run a function that runs
  // it again. It returns the answer lines with their coverage: the ids of
  // the blocks each reached first. One take tells whether the requests
  // together reached a block not reached before; only then is each run
  // again alone, its blocks taken, to tell which reached it first.
  group(pending) {
    const fresh = [...this.take()].filter((b) => !this.seen.has(b));
    const ids = pending.map(() => []);
    this.size = fresh.length > 0 ? Math.max(1, this.size >> 1) : Math.min(COVERAGE_GROUP, this.size << 1);
    if (fresh.length > 0 && pending.length === 1) {
      for (const b of fresh) this.seen.add(b);
      ids[0] = fresh.map(fnv32);
    } else if (fresh.length > 0) {
      pending.forEach((p, k) => {
        p.run();
        for (const b of this.take()) {
          if (!this.seen.has(b)) { this.seen.add(b); ids[k].push(fnv32(b)); }
        }
      });
      // Reached by the requests together but by none again alone (state
      // the first runs left): the first request's.
      for (const b of fresh) if (!this.seen.has(b)) { this.seen.add(b); ids[0].push(fnv32(b)); }
    }
    return pending.map((p, k) => {
      const list = [...new Set(ids[k])].sort((a, b) => a - b).slice(0, MAX_COVERAGE);
      return p.answer.slice(0, -1) + ',"coverage":[' + list.join(',') + ']}';
    });
  }
}

const PROFILES = ['text', 'attribute'];
const DEPTHS = ['all', 'top'];
const REPAIRS = ['json', 'entities'];

// serve answers the protocol on stdin and stdout, until stop or the end of
// the input. info is the start answer's implementation ({ name, language,
// version, homepage }); declares its declares ({ profile, max_passes, depth,
// repairs }, each optional); normalize(schema, args) returns the normalized
// arguments or throws (an error answer). unsupported(e), if given, says
// whether an error normalize threw means that the function's answer cannot
// be seen (an "unsupported" answer, with the error's message) rather than
// that the function rejects the input; an Unsupported it throws always
// means that. coverage: true offers the blocks of every script under the
// working directory, an array of directories and files those under them,
// false none.
export function serve({ info, declares = {}, normalize, normalizeText, unsupported = () => false, coverage = true, input = process.stdin, output = process.stdout }) {
  if (!info || typeof info.name !== 'string' || info.name === '') throw new TypeError('serve: info.name must be a non-empty string');
  if ((typeof normalize === 'function') === (typeof normalizeText === 'function')) {
    throw new TypeError('serve: give normalize (values) or normalizeText (JSON text), one of them');
  }
  const d = declares;
  if ((d.profile !== undefined && !PROFILES.includes(d.profile)) || (d.depth !== undefined && !DEPTHS.includes(d.depth))
    || (d.max_passes !== undefined && !(Number.isInteger(d.max_passes) && d.max_passes >= 0))
    || (d.repairs !== undefined && !(Array.isArray(d.repairs) && d.repairs.length > 0 && d.repairs.every((r) => REPAIRS.includes(r))))) {
    throw new TypeError('serve: declares: profile text or attribute, depth all or top, max_passes 0 or more, repairs json, entities or both');
  }
  // Nothing but answers may reach stdout.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  let cov = null;
  if (coverage) {
    try {
      cov = new Coverage(coverage === true ? [process.cwd()] : [...coverage]);
    } catch (e) {
      console.error(`toolnorm-kit: no coverage: ${message(e)}`);
    }
  }
  const rl = createInterface({ input, crlfDelay: Infinity });
  const out = [];
  const asked = []; // the answers of requests that asked for coverage, not yet taken
  let scheduled = false;
  const answerAsked = () => {
    if (asked.length) for (const a of cov.group(asked.splice(0))) out.push(a + '\n');
  };
  const flush = () => { scheduled = false; answerAsked(); if (out.length) output.write(out.splice(0).join('')); };
  const later = () => { if (!scheduled) { scheduled = true; setImmediate(flush); } };
  const send = (answer) => {
    answerAsked();
    out.push(answer + '\n');
    later();
  };
  const start = JSON.stringify({ version: 1, implementation: info, declares, ...(cov ? { coverage: 'blocks' } : {}) });
  rl.on('line', (line) => {
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      // A line JSON.parse cannot read (nesting past its depth): answer it
      // if its id can be seen.
      const m = /"id"\s*:\s*(-?[0-9]+)/.exec(line);
      if (m) send(`{"id":${m[1]},"unsupported":${JSON.stringify('the adapter cannot read this request: ' + message(e))}}`);
      else console.error(`toolnorm-kit: unreadable request: ${message(e)}`);
      return;
    }
    if (req === null || typeof req !== 'object') return;
    if (req.cmd === 'start') {
      // A run that will ask for coverage says so: V8 counts the blocks
      // only of functions compiled once its coverage started, so it starts
      // now, before the function first runs (with requests that ask for
      // none, as toolnorm fuzz's first batch).
      if (req.coverage === true && cov !== null) cov.start();
      send(start);
    } else if (req.cmd === 'normalize' && cov !== null && req.coverage === true) {
      cov.start();
      asked.push({
        answer: answer(line, req, normalize, normalizeText, unsupported),
        run: () => {
          try {
            if (normalizeText) {
              const m = members(line);
              normalizeText(m.schema, m.arguments);
            } else {
              const p = parse(line, '/arguments');
              normalize(p.value.schema, p.value.arguments);
            }
          } catch { /* what it does is known: this run is for its coverage */ }
        },
      });
      if (asked.length >= cov.size) answerAsked();
      later();
    } else if (req.cmd === 'normalize') {
      send(answer(line, req, normalize, normalizeText, unsupported));
    } else if (req.cmd === 'stop') {
      rl.close();
      flush();
      // Exit once what was written has been taken by the pipe.
      output.write('', () => process.exit(0));
    }
  });
  rl.on('close', () => { flush(); });
}

// says is what the unsupported hook says of e; a hook that throws says no.
function says(unsupported, e) {
  try { return Boolean(unsupported(e)); } catch { return false; }
}

function message(e) {
  return String((e && e.message) || e);
}

// members returns the text of the schema and of the arguments of a request
// line, as sent: each top-level member's value, skipped over without being
// read (strings escape and all, containers by their brackets), so any
// nesting is taken.
export function members(line) {
  const out = {};
  let i = 0;
  const skipWS = () => { while (i < line.length && ws.has(line[i])) i++; };
  const skipString = () => {
    for (i++; i < line.length && line[i] !== '"'; i++) if (line[i] === '\\') i++;
    i++;
  };
  const skipValue = () => {
    if (line[i] === '"') { skipString(); return; }
    if (line[i] === '{' || line[i] === '[') {
      let depth = 0;
      while (i < line.length) {
        const c = line[i];
        if (c === '"') { skipString(); continue; }
        i++;
        if (c === '{' || c === '[') depth++;
        else if ((c === '}' || c === ']') && --depth === 0) return;
      }
      return;
    }
    while (i < line.length && !',}'.includes(line[i]) && !ws.has(line[i])) i++; // a number or a literal
  };
  skipWS();
  if (line[i] !== '{') throw new SyntaxError('a request is an object');
  i++;
  for (;;) {
    skipWS();
    if (line[i] !== '"') break;
    const k0 = i;
    skipString();
    const key = JSON.parse(line.slice(k0, i));
    skipWS();
    i++; // ':'
    skipWS();
    const v0 = i;
    skipValue();
    out[key] = line.slice(v0, i);
    skipWS();
    if (line[i] !== ',') break;
    i++;
  }
  return out;
}

// answer is the answer line to one normalize request.
function answer(line, req, normalize, normalizeText, unsupported) {
  if (normalizeText) return answerText(line, req, normalizeText, unsupported);
  let parsed;
  let id = JSON.stringify(req.id);
  try {
    // The whole request, read as sent: the schema is a JavaScript value
    // for the function too, as JSON.parse gives it.
    parsed = parse(line, '/arguments');
    id = parsed.numbers.get('/id') ?? id; // the id as it was written
  } catch (e) {
    if (e instanceof Unsupported) return `{"id":${id},"unsupported":${JSON.stringify(e.message)}}`;
    // Nesting deeper than this parser's recursion goes, or a line it
    // cannot read: the adapter's limit, not the function's answer.
    return `{"id":${id},"unsupported":${JSON.stringify('the adapter cannot read this request as sent: ' + message(e))}}`;
  }
  try {
    const result = normalize(parsed.value.schema, parsed.value.arguments);
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
      result.then(undefined, () => {}); // not left unhandled
      throw new TypeError('the function returned a Promise: the kit takes a synchronous function');
    }
    return `{"id":${id},"arguments":${stringify(result, parsed.numbers, '/arguments')}}`;
  } catch (e) {
    const msg = JSON.stringify(message(e));
    return e instanceof Unsupported || says(unsupported, e) ? `{"id":${id},"unsupported":${msg}}` : `{"id":${id},"error":${msg}}`;
  }
}

// answerText is answer for a function of JSON text: it gets the schema and
// the arguments as they were sent, and its text is the answer's arguments.
function answerText(line, req, normalizeText, unsupported) {
  let m;
  try {
    m = members(line);
  } catch (e) {
    return `{"id":${JSON.stringify(req.id)},"unsupported":${JSON.stringify('the adapter cannot read this request as sent: ' + message(e))}}`;
  }
  const id = m.id ?? JSON.stringify(req.id);
  try {
    const out = normalizeText(m.schema, m.arguments);
    if (typeof out !== 'string') throw new TypeError('normalizeText returned ' + typeof out + ', not JSON text');
    // Outside strings, JSON's newlines are white space; inside, none is raw.
    return `{"id":${id},"arguments":${out.replace(/[\r\n]/g, '')}}`;
  } catch (e) {
    const msg = JSON.stringify(message(e));
    return e instanceof Unsupported || says(unsupported, e) ? `{"id":${id},"unsupported":${msg}}` : `{"id":${id},"error":${msg}}`;
  }
}
