// Lossless JSON: a tree that keeps number text, member order, duplicate
// members and the raw text of every string, so that what the normalizer
// does not repair goes back byte for byte as it came.
//
// Node shapes:
//   { t: 'o', m: Array<{ k: string, kr: string, v: Node }> }   object (k: key value, kr: raw key text)
//   { t: 'a', e: Node[] }                                      array
//   { t: 's', v: string, r: string | null }                    string (r: raw text, null once changed)
//   { t: 'n', r: string }                                      number (its exact text)
//   { t: 'l', r: 'true' | 'false' | 'null' }                   literal

/** @typedef {{t:'o', m:Array<{k:string,kr:string,v:JsonNode}>} | {t:'a', e:JsonNode[]} | {t:'s', v:string, r:string|null} | {t:'n', r:string} | {t:'l', r:string}} JsonNode */

export class JsonSyntaxError extends SyntaxError {}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function isWs(c) {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * Parse JSON text (RFC 8259, strict) into a lossless tree. Iterative: any
 * nesting depth is read without recursion; limits are the caller's.
 * @param {string} text
 * @returns {JsonNode}
 */
export function parseJson(text) {
  let i = 0;
  const n = text.length;
  const fail = (what) => {
    throw new JsonSyntaxError(`invalid JSON: ${what} at offset ${i}`);
  };
  const skip = () => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  const readString = () => {
    const start = i;
    i++;
    for (;;) {
      if (i >= n) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) i++;
      else if (c < 0x20) fail('control character in string');
      i++;
    }
    i++;
    const raw = text.slice(start, i);
    let v;
    try {
      v = JSON.parse(raw);
    } catch {
      i = start;
      fail('invalid string');
    }
    return { raw, v };
  };
  const scalar = () => {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const { raw, v } = readString();
      return { t: 's', v, r: raw };
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m && m[0].length > 0) {
      i += m[0].length;
      return { t: 'n', r: m[0] };
    }
    for (const w of ['true', 'false', 'null']) {
      if (text.startsWith(w, i)) {
        i += w.length;
        return { t: 'l', r: w };
      }
    }
    fail('unexpected character');
  };

  // stack of open containers; pendingKey for objects
  /** @type {Array<{node: any, key: {k:string,kr:string}|null}>} */
  const stack = [];
  let root;
  let done = false;

  // read a value start; returns node if scalar, or pushes container
  const beginValue = () => {
    skip();
    const c = text.charCodeAt(i);
    if (c === 0x7b) {
      i++;
      const node = { t: 'o', m: [] };
      return { node, open: true };
    }
    if (c === 0x5b) {
      i++;
      const node = { t: 'a', e: [] };
      return { node, open: true };
    }
    if (i >= n) fail('unexpected end of input');
    return { node: scalar(), open: false };
  };

  const attach = (node) => {
    if (stack.length === 0) {
      root = node;
      done = true;
      return;
    }
    const top = stack[stack.length - 1];
    if (top.node.t === 'o') {
      top.node.m.push({ k: top.key.k, kr: top.key.kr, v: node });
      top.key = null;
    } else {
      top.node.e.push(node);
    }
  };

  // state machine
  let first = beginValue();
  if (first.open) stack.push({ node: first.node, key: null, fresh: true });
  else attach(first.node);

  while (!done) {
    const top = stack[stack.length - 1];
    skip();
    const c = text.charCodeAt(i);
    if (top.fresh) {
      top.fresh = false;
      if (top.node.t === 'o' && c === 0x7d) { i++; stack.pop(); attach(top.node); continue; }
      if (top.node.t === 'a' && c === 0x5d) { i++; stack.pop(); attach(top.node); continue; }
    } else {
      // after a member/element: , or close
      if (c === 0x2c) {
        i++;
      } else if (top.node.t === 'o' && c === 0x7d) {
        i++; stack.pop(); attach(top.node); continue;
      } else if (top.node.t === 'a' && c === 0x5d) {
        i++; stack.pop(); attach(top.node); continue;
      } else {
        fail(top.node.t === 'o' ? "expected ',' or '}'" : "expected ',' or ']'");
      }
    }
    if (top.node.t === 'o') {
      skip();
      if (text.charCodeAt(i) !== 0x22) fail('expected a key');
      const { raw, v } = readString();
      skip();
      if (text.charCodeAt(i) !== 0x3a) fail("expected ':'");
      i++;
      top.key = { k: v, kr: raw };
    }
    const next = beginValue();
    if (next.open) stack.push({ node: next.node, key: null, fresh: true });
    else attach(next.node);
  }
  skip();
  if (i !== n) fail('data after the value');
  return root;
}

const ESC = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };

/**
 * Quote a string as JSON, escaping only '"', '\\', control characters and
 * lone surrogates.
 * @param {string} s
 */
export function quote(s) {
  let out = '"';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep = null;
    if (c < 0x20 || c === 0x22 || c === 0x5c) {
      rep = ESC[c] ?? '\\u' + c.toString(16).padStart(4, '0');
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
      }
      rep = '\\u' + c.toString(16);
    }
    if (rep !== null) {
      out += s.slice(last, i) + rep;
      last = i + 1;
    }
  }
  return out + s.slice(last) + '"';
}

/**
 * Write a tree as compact JSON.
 * @param {JsonNode} node
 * @returns {string}
 */
export function stringifyJson(node) {
  switch (node.t) {
    case 'o':
      return '{' + node.m.map((m) => m.kr + ':' + stringifyJson(m.v)).join(',') + '}';
    case 'a':
      return '[' + node.e.map(stringifyJson).join(',') + ']';
    case 's':
      return node.r ?? quote(node.v);
    default:
      return node.r;
  }
}

/**
 * Convert a tree into plain JavaScript values, as JSON.parse would make them
 * (own data properties, "__proto__" included), refusing duplicate members.
 * @param {JsonNode} node
 * @param {string} [at]
 */
export function toPlain(node, at = '') {
  switch (node.t) {
    case 'o': {
      const obj = {};
      for (const { k, v } of node.m) {
        if (Object.hasOwn(obj, k)) throw new Error(`duplicate key ${JSON.stringify(k)} at ${at || '(root)'}`);
        Object.defineProperty(obj, k, { value: toPlain(v, at + '/' + k.replace(/~/g, '~0').replace(/\//g, '~1')), writable: true, enumerable: true, configurable: true });
      }
      return obj;
    }
    case 'a':
      return node.e.map((e, n) => toPlain(e, at + '/' + n));
    case 's':
      return node.v;
    case 'n':
      return Number(node.r);
    default:
      return node.r === 'null' ? null : node.r === 'true';
  }
}

/**
 * Build a tree from a plain JavaScript value (as JSON.parse returns).
 * @param {unknown} v
 * @returns {JsonNode}
 */
export function fromPlain(v) {
  if (v === null) return { t: 'l', r: 'null' };
  if (typeof v === 'boolean') return { t: 'l', r: String(v) };
  if (typeof v === 'number') return { t: 'n', r: JSON.stringify(v) };
  if (typeof v === 'string') return { t: 's', v, r: null };
  if (Array.isArray(v)) return { t: 'a', e: v.map(fromPlain) };
  return { t: 'o', m: Object.keys(v).map((k) => ({ k, kr: quote(k), v: fromPlain(v[k]) })) };
}
