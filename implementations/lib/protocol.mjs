// The adapter side of toolnorm's line protocol (docs/protocol.md) for
// JavaScript libraries that take a tool's arguments as JavaScript values.
//
// The plumbing must not be mistaken for the library: JSON.parse keeps one
// of two duplicate members, puts integer keys first, and rounds numbers to
// doubles, before the library is ever called. So this module
//
//   - reads each request's arguments with its own parser, and answers
//     "unsupported" (the case is not judged) where a JavaScript object
//     cannot hold them as sent: duplicate members, integer keys not first
//     and ascending; and a schema with a duplicate member, which toolnorm
//     refuses (docs/readings.md §4) but which no library taking a
//     JavaScript object can ever see;
//   - writes the library's answer back with the exact text of every number
//     the library left where it was (a number JSON.parse would round, such
//     as 12345678901234567890 or 1e400, comes back as it was sent); numbers
//     the library made itself (by JSON.parse of a string) are written as
//     JavaScript writes them: that is the library's behaviour.
//
// Standard library only.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

// parse reads JSON text into JavaScript values, recording at each JSON
// Pointer the text of every number that a double does not hold exactly as
// written, and throwing Unsupported where an object cannot hold what the
// text has.
export class Unsupported extends Error {}

const ws = new Set([' ', '\t', '\n', '\r']);

const number = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

// parse reads the text with its own parser, where an object that cannot
// hold what the text has throws Unsupported; only under strictAt (a JSON
// Pointer prefix: the arguments) — elsewhere (the schema) it keeps what
// JSON.parse would, as the library would get it, except a duplicate
// member, which is Unsupported everywhere.
export function parse(text, strictAt = '') {
  let i = 0;
  const numbers = new Map(); // pointer -> number text
  const skip = () => { while (i < text.length && ws.has(text[i])) i++; };
  const fail = (what) => { throw new SyntaxError(`${what} at offset ${i}`); };
  const token = (p) => p.replace(/~/g, '~0').replace(/\//g, '~1');
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
      for (;;) {
        skip();
        if (text[i] !== '"') fail('expected a key');
        const k = str();
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
      const order = Object.keys(obj);
      if (at.startsWith(strictAt) && order.some((k, n) => k !== keys[n])) {
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
      if (!exact(m[0], n)) numbers.set(at, m[0]);
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

// exact says whether the double n holds the number written as text
// exactly: whether writing it back gives the same decimal value.
function exact(text, n) {
  if (!Number.isFinite(n)) return false;
  return sameDecimal(text, String(n));
}

// sameDecimal compares two decimal numbers' values, by their digits.
function sameDecimal(a, b) {
  const norm = (s) => {
    const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(s);
    let digits = m[2] + (m[3] || '');
    let exp = Number(m[4] || 0) - (m[3] || '').length;
    digits = digits.replace(/^0+/, '');
    if (digits === '') return '0';
    while (digits.endsWith('0')) { digits = digits.slice(0, -1); exp++; }
    return `${m[1]}${digits}e${exp}`;
  };
  return norm(a) === norm(b);
}

// stringify writes v as JSON, with the recorded text of each number the
// library left in its place.
export function stringify(v, numbers, at = '') {
  if (typeof v === 'number') {
    // The number sent here, if the library left it as JSON.parse read it.
    const t = numbers.get(at);
    if (t !== undefined && Number(t) === v) return t;
    return JSON.stringify(v); // Infinity and NaN become null, as JavaScript writes them
  }
  const absent = (x) => x === undefined || typeof x === 'function' || typeof x === 'symbol';
  if (Array.isArray(v)) {
    // As JSON.stringify writes them: a hole or an undefined element is null.
    return '[' + Array.from(v, (e, n) => (absent(e) ? 'null' : stringify(e, numbers, at + '/' + n))).join(',') + ']';
  }
  if (v !== null && typeof v === 'object') {
    const token = (p) => p.replace(/~/g, '~0').replace(/\//g, '~1');
    // As JSON.stringify writes them: an undefined member is left out.
    const keys = Object.keys(v).filter((k) => !absent(v[k]));
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + stringify(v[k], numbers, at + '/' + token(k))).join(',') + '}';
  }
  if (absent(v)) return 'null';
  return JSON.stringify(v);
}

// serve answers the protocol on stdin and stdout. info is the start
// answer's implementation; declares its declares; normalize(schema, args)
// returns the normalized arguments or throws (an error answer).
// unsupported(e), if given, says whether an error normalize threw means
// that the library's answer cannot be seen (an "unsupported" answer, with
// the error's message) rather than that the library rejects the input.
export function serve({ info, declares, normalize, unsupported = () => false }) {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  const out = [];
  let scheduled = false;
  const flush = () => { scheduled = false; if (out.length) process.stdout.write(out.splice(0).join('')); };
  const send = (answer) => {
    out.push(answer + '\n');
    if (!scheduled) { scheduled = true; setImmediate(flush); }
  };
  rl.on('line', (line) => {
    let req;
    try { req = JSON.parse(line); } catch { return; }
    if (req.cmd === 'start') {
      send(JSON.stringify({ version: 1, implementation: info, declares }));
    } else if (req.cmd === 'normalize') {
      send(answer(line, req, normalize, unsupported));
    } else if (req.cmd === 'stop') {
      flush();
      process.exit(0);
    }
  });
  rl.on('close', () => { flush(); });
}

// answer is the answer line to one normalize request.
function answer(line, req, normalize, unsupported) {
  const id = JSON.stringify(req.id);
  let parsed;
  try {
    // The whole request, read as sent: the schema is a JavaScript value
    // for the library too.
    parsed = parse(line, '/arguments');
  } catch (e) {
    if (e instanceof Unsupported) return `{"id":${id},"unsupported":${JSON.stringify(e.message)}}`;
    // Nesting deeper than this parser's recursion goes (JSON.parse goes
    // further), or a line it cannot read: the adapter's limit, not the
    // library's answer.
    return `{"id":${id},"unsupported":${JSON.stringify('the adapter cannot read this request as sent: ' + String((e && e.message) || e))}}`;
  }
  try {
    const result = normalize(parsed.value.schema, parsed.value.arguments);
    return `{"id":${id},"arguments":${stringify(result, parsed.numbers, '/arguments')}}`;
  } catch (e) {
    const msg = JSON.stringify(String((e && e.message) || e));
    return unsupported(e) ? `{"id":${id},"unsupported":${msg}}` : `{"id":${id},"error":${msg}}`;
  }
}

// installedVersion is the version of the package name installed beside the
// adapter at dir (a file: URL), read from its package.json: packages that
// do not export it cannot be required for it.
export function installedVersion(dir, name) {
  const url = new URL(`node_modules/${name}/package.json`, dir);
  return JSON.parse(readFileSync(url, 'utf8')).version;
}
