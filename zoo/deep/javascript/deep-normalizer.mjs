// Bugs behind nested conditions, for issue 38: does coverage-guided fuzzing
// find them sooner? (See deep_normalizer.py beside it, in zoo/deep/python,
// for why: the same three bugs, as JavaScript code plants them.)
//
//   const buggy = createDeepNormalizer(['deep-quote-fallback']);
//
// Each switch wraps the zoo's normalizer (zoo/javascript), correct with no
// switch of its own, and adds its bug behind several conditions in a row,
// each an `if` of its own block, as V8's block coverage counts them.
import { createRequire } from 'node:module';
import { createNormalizer } from '../../javascript/zoo-normalizer.mjs';

const require = createRequire(new URL('../../javascript/', import.meta.url));
const { decodeHTML } = require('entities'); // one pass of the HTML5 table

export const SWITCHES = {
  'deep-quote-fallback': 'a string declared array or object that is not JSON, bracketed and holding single quotes, is decoded with them made double',
  'deep-many-refs': "an argument's string holding eight references or more is decoded in one pass of decodeHTML (a fast path for heavily escaped text)",
  'deep-ref-chain': 'an argument whose schema is a $ref to a $ref to a $ref is passed through as sent: the resolver gives up after two hops',
  'deep-vendor-keys': 'a string argument whose name starts with x- and is four characters or more is passed through unrepaired',
};

const REFERENCE = /&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/g;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

export function createDeepNormalizer(switches = []) {
  const unknown = switches.filter((s) => !Object.hasOwn(SWITCHES, s));
  if (unknown.length) throw new Error(`unknown switches: ${unknown.join(', ')}`);
  const on = new Set(switches);
  const bug = (name) => on.has(name);
  const zoo = createNormalizer();

  function quoteFallback(schema, out) {
    const properties = isObject(schema) ? schema.properties : undefined;
    if (!isObject(properties)) return;
    for (const key of Object.keys(out)) {
      const value = out[key];
      const declared = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (typeof value !== 'string' || !isObject(declared)) continue;
      const kind = declared.type;
      if (kind !== 'array' && kind !== 'object') continue;
      const text = value.trim();
      if (text[0] !== '[' && text[0] !== '{') continue;
      if (text.at(-1) !== ']' && text.at(-1) !== '}') continue;
      if (!text.includes("'")) continue;
      let parsed;
      try {
        parsed = JSON.parse(text.replaceAll("'", '"'));
      } catch {
        continue;
      }
      if (kind === 'array' ? Array.isArray(parsed) : isObject(parsed)) out[key] = parsed;
    }
  }

  function manyRefs(sent, out) {
    for (const key of Object.keys(sent)) {
      const value = sent[key];
      if (typeof out[key] !== 'string') continue;
      const n = (value.match(REFERENCE) ?? []).length;
      if (n >= 2) {
        if (n >= 4) {
          if (n >= 6) {
            if (n >= 8) {
              out[key] = decodeHTML(value);
            }
          }
        }
      }
    }
  }

  function vendorKeys(sent, out) {
    for (const key of Object.keys(out)) {
      if (key[0] === 'x') {
        if (key[1] === '-') {
          if (key.length >= 4) {
            if (Object.hasOwn(sent, key)) out[key] = sent[key];
          }
        }
      }
    }
  }

  // resolve is the schema a local $ref of s points to ("#/$defs/..." or
  // "#/definitions/..."), or null.
  function resolve(root, s) {
    if (!isObject(s) || typeof s.$ref !== 'string') return null;
    for (const prefix of ['#/$defs/', '#/definitions/']) {
      if (s.$ref.startsWith(prefix)) {
        const defs = root[prefix.slice(2, -1)];
        const name = s.$ref.slice(prefix.length);
        const target = isObject(defs) && Object.hasOwn(defs, name) ? defs[name] : null;
        return isObject(target) ? target : null;
      }
    }
    return null;
  }

  function refChain(schema, sent, out) {
    const properties = isObject(schema) ? schema.properties : undefined;
    if (!isObject(properties)) return;
    for (const key of Object.keys(properties)) {
      if (!Object.hasOwn(sent, key)) continue;
      const first = resolve(schema, properties[key]);
      if (first === null) continue;
      const second = resolve(schema, first);
      if (second === null) continue;
      const third = resolve(schema, second);
      if (third === null) continue;
      out[key] = sent[key];
    }
  }

  return (schema, args) => {
    // The arguments' own strings as sent, whatever the zoo's normalizer
    // does to the arguments.
    const sent = isObject(args) ? Object.fromEntries(Object.entries(args).filter(([, v]) => typeof v === 'string')) : null;
    const out = zoo(schema, args);
    if (!isObject(out) || sent === null) return out;
    if (bug('deep-quote-fallback')) quoteFallback(schema, out);
    if (bug('deep-many-refs')) manyRefs(sent, out);
    if (bug('deep-vendor-keys')) vendorKeys(sent, out);
    if (bug('deep-ref-chain')) refChain(schema, sent, out);
    return out;
  };
}
