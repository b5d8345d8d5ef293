// RT-TOOL-8: repair a model's tool arguments against the tool's own schema.
//
//   const tool = compileToolSchema(schemaJsonText);      // once per tool
//   const fixed = tool.normalizeText(argumentsJsonText);  // per call
//
// Two repairs, independent:
//   - JSON: a string is decoded as JSON only where the schema declares the
//     position array or object (and not string), the whole string parses
//     strictly, and the parsed value has the declared shape;
//   - entities: every string leaf has its HTML character references decoded
//     until it stops changing.
// Keys, numbers (their exact text), member order and duplicate members,
// and every string that needs no repair are passed through as they came.
import { parseJson, stringifyJson, toPlain, fromPlain } from './json.mjs';
import { decodeEntities } from './entities.mjs';
import { compileSchema, T_ARRAY, T_OBJECT, T_STRING } from './schema.mjs';
import { feature } from './config.mjs';

export const MAX_DEPTH = 1000;

export class ArgumentsError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ArgumentsError';
  }
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/[^\s]*$/i;

const entityOptions = feature('s3') ? { attributeLike: (s) => URL_LIKE.test(s) } : {};

/** @param {number} mask */
function wantsJson(mask) {
  if (feature('s4')) return (mask & (T_ARRAY | T_OBJECT)) !== 0 && mask !== 127;
  return (mask & T_STRING) === 0 && (mask & (T_ARRAY | T_OBJECT)) !== 0;
}

/**
 * The value a string holds as JSON, when it has a shape the mask allows.
 * @param {string} text @param {number} mask
 */
function parseShaped(text, mask) {
  let k = 0;
  while (k < text.length && ' \t\n\r'.includes(text[k])) k++;
  const c = text[k];
  if (!((c === '[' && mask & T_ARRAY) || (c === '{' && mask & T_OBJECT))) return null;
  if (!text.isWellFormed()) return null;
  let node;
  try {
    node = feature('s2') ? fromPlain(JSON.parse(text)) : parseJson(text);
  } catch {
    return null;
  }
  if (node.t === 'a' && mask & T_ARRAY) return node;
  if (node.t === 'o' && mask & T_OBJECT) return node;
  return null;
}

export class ToolSchema {
  /** @param {import('./schema.mjs').CompiledSchema} compiled */
  constructor(compiled) {
    this.compiled = compiled;
  }

  /** Normalize arguments given as JSON text; returns JSON text. */
  normalizeText(argsText) {
    return stringifyJson(this.normalizeNode(parseJson(argsText)));
  }

  /** Normalize arguments given as a lossless tree (see json.mjs). */
  normalizeNode(args) {
    if (args.t !== 'o') throw new ArgumentsError('arguments must be a JSON object');
    return this.#value(args, this.compiled.root(), 1, '');
  }

  #value(node, f, level, at) {
    const s = this.compiled;
    switch (node.t) {
      case 'o': {
        if (level > MAX_DEPTH) throw new ArgumentsError(`nesting deeper than ${MAX_DEPTH} at ${at || '(root)'}`);
        let changed = false;
        const m = node.m.map((mem) => {
          const v = this.#value(mem.v, s.childOf(f, T_OBJECT, mem.k), level + 1, `${at}/${mem.k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
          if (v !== mem.v) changed = true;
          return v === mem.v ? mem : { k: mem.k, kr: mem.kr, v };
        });
        return changed ? { t: 'o', m } : node;
      }
      case 'a': {
        if (level > MAX_DEPTH) throw new ArgumentsError(`nesting deeper than ${MAX_DEPTH} at ${at || '(root)'}`);
        let changed = false;
        const e = node.e.map((el, i) => {
          const v = this.#value(el, s.childOf(f, T_ARRAY, i), level + 1, `${at}/${i}`);
          if (v !== el) changed = true;
          return v;
        });
        return changed ? { t: 'a', e } : node;
      }
      case 's':
        return this.#string(node, f, level, at);
      default:
        return node;
    }
  }

  #string(node, f, level, at) {
    const mask = this.compiled.typesOf(f);
    const json = wantsJson(mask);
    if (json) {
      const parsed = parseShaped(node.v, mask);
      if (parsed) return this.#value(parsed, f, level, at);
    }
    const decoded = decodeEntities(node.v, entityOptions);
    if (decoded === node.v) return node;
    if (json) {
      const parsed = parseShaped(decoded, mask);
      if (parsed) return this.#value(parsed, f, level, at);
    }
    return { t: 's', v: decoded, r: null };
  }
}

/**
 * Compile a tool's input schema, given as JSON text or a lossless tree.
 * @param {string | import('./json.mjs').JsonNode} schema
 */
export function compileToolSchema(schema) {
  const node = typeof schema === 'string' ? parseJson(schema) : schema;
  let plain;
  try {
    plain = toPlain(node);
  } catch (e) {
    throw new Error(`invalid schema: ${e.message}`);
  }
  return new ToolSchema(compileSchema(plain));
}

/** One call: schema and arguments as JSON text, the repaired arguments as JSON text. */
export function normalizeToolArguments(schemaText, argsText) {
  return compileToolSchema(schemaText).normalizeText(argsText);
}
