// What a tool's JSON Schema declares at each position of its arguments.
//
// compileSchema() walks the whole schema once: it registers resources
// ($id / id), anchors and dynamic anchors per draft, and checks the
// keywords that can declare a type. A CompiledSchema then answers, lazily
// and per value, which JSON types a position declares (a bit set) and what
// the schema says one level down.
import { resolveUri, splitFragment } from './uri.mjs';
import { feature } from './config.mjs';

export class SchemaError extends Error {
  constructor(message) {
    super(`invalid schema: ${message}`);
    this.name = 'SchemaError';
  }
}

export const T_NULL = 1, T_BOOLEAN = 2, T_OBJECT = 4, T_ARRAY = 8, T_NUMBER = 16, T_INTEGER = 32, T_STRING = 64;
export const T_ANY = 127;
const TYPE_BITS = { null: T_NULL, boolean: T_BOOLEAN, object: T_OBJECT, array: T_ARRAY, number: T_NUMBER | T_INTEGER, integer: T_INTEGER, string: T_STRING };

const DEFAULT_BASE = 'tn://toolnorm.invalid/root.json';

/** @param {unknown} v */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o, k) => (Object.hasOwn(o, k) ? o[k] : undefined);
const has = (o, k) => Object.hasOwn(o, k);
const esc = (k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');

function draftOf(uri, fallback) {
  if (typeof uri !== 'string') return fallback;
  if (/draft-0[34]\b/.test(uri)) return 4;
  if (/draft-06\b/.test(uri)) return 6;
  if (/draft-07\b/.test(uri)) return 7;
  if (/2019-09/.test(uri)) return 2019;
  if (/2020-12/.test(uri)) return 2020;
  return fallback;
}

/**
 * @typedef {{ id: number, uri: string, base: string, root: any, draft: number,
 *   anchors: Map<string, any>, dynamicAnchors: Map<string, any>, recursiveAnchor: boolean }} Resource
 * @typedef {{ node: any, res: Resource, scope: Resource[], key: string }} Ctx
 * @typedef {{ op: 'leaf', ctx: Ctx } | { op: 'and', xs: Formula[] } | { op: 'or', xs: Formula[] }} Formula
 */

const APPLICATORS_CHECKED = ['allOf', 'anyOf', 'oneOf'];
const UNCHECKED_SINGLE = ['not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];
const UNCHECKED_MAPS = ['dependentSchemas'];

export function compileSchema(schema, { draft: defaultDraft = 2020 } = {}) {
  if (typeof schema !== 'boolean' && !isObject(schema)) {
    throw new SchemaError('a schema must be an object or a boolean');
  }
  /** @type {Map<string, Resource>} */
  const resources = new Map();
  /** @type {WeakMap<object, Resource>} */
  const nodeRes = new WeakMap();
  const refs = [];
  let nextId = 0;

  const newResource = (uri, root, draft) => {
    const res = { id: nextId++, uri, base: uri, root, draft, anchors: new Map(), dynamicAnchors: new Map(), recursiveAnchor: false };
    if (!resources.has(uri)) resources.set(uri, res);
    return res;
  };

  const checkSubschema = (v, at, checked) => {
    if (typeof v === 'boolean' || isObject(v)) return true;
    if (checked) throw new SchemaError(`the subschema at ${at} is not an object or a boolean`);
    return false;
  };

  /**
   * @param {any} node @param {Resource} res @param {string} at @param {boolean} checked
   * @param {boolean} isRoot
   */
  const walk = (node, res, at, checked, isRoot = false) => {
    if (!checkSubschema(node, at || '(root)', checked) || typeof node === 'boolean') return;
    let draft = res.draft;
    if (has(node, '$schema')) {
      if (typeof node.$schema !== 'string') {
        if (checked) throw new SchemaError(`$schema must be a string at ${at || '(root)'}`);
      } else draft = draftOf(node.$schema, draft);
    }
    const legacyRef = draft <= 7 && has(node, '$ref');
    const idKey = draft === 4 ? 'id' : '$id';
    const id = own(node, idKey);
    if (id !== undefined && !legacyRef) {
      if (typeof id !== 'string') {
        if (checked) throw new SchemaError(`${idKey} must be a string at ${at || '(root)'}`);
      } else if (draft <= 7 && id.startsWith('#')) {
        if (isRoot) res = newResource(DEFAULT_BASE, node, draft);
        res.anchors.set(id.slice(1), node);
      } else {
        const [uri] = splitFragment(resolveUri(res.base, id));
        res = newResource(uri, node, draft);
        if (isRoot && uri !== DEFAULT_BASE && !resources.has(DEFAULT_BASE)) resources.set(DEFAULT_BASE, res);
      }
    } else if (isRoot) {
      res = newResource(DEFAULT_BASE, node, draft);
    } else if (draft !== res.draft) {
      // A $schema without an $id: same resource, read by its draft.
      res = { ...res, draft };
    }
    nodeRes.set(node, res);
    if (draft >= 2019 && typeof own(node, '$anchor') === 'string') res.anchors.set(node.$anchor, node);
    if (draft >= 2020 && typeof own(node, '$dynamicAnchor') === 'string') {
      res.anchors.set(node.$dynamicAnchor, node);
      res.dynamicAnchors.set(node.$dynamicAnchor, node);
    }
    if (draft === 2019 && own(node, '$recursiveAnchor') === true && res.root === node) res.recursiveAnchor = true;

    const sub = (key, v, c) => walk(v, res, `${at}/${esc(key)}`, c);
    const subMap = (key, c) => {
      const m = own(node, key);
      if (m === undefined) return;
      if (!isObject(m)) { if (c) throw new SchemaError(`${key} must be an object at ${at || '(root)'}`); return; }
      for (const k of Object.keys(m)) walk(m[k], res, `${at}/${esc(key)}/${esc(k)}`, c);
    };
    const subList = (key, c, nonEmpty) => {
      const m = own(node, key);
      if (m === undefined) return;
      if (!Array.isArray(m) || (nonEmpty && m.length === 0)) {
        if (c) throw new SchemaError(`${key} must be a ${nonEmpty ? 'non-empty ' : ''}array at ${at || '(root)'}`);
        return;
      }
      m.forEach((v, n) => walk(v, res, `${at}/${key}/${n}`, c));
    };

    if (legacyRef) {
      recordRef(node, '$ref', res, at, checked);
      subMap('$defs', checked);
      subMap('definitions', checked);
      return;
    }
    if (checked) checkType(node, at);
    for (const [kw, ok] of [['$ref', true], ['$dynamicRef', draft === 2020], ['$recursiveRef', draft === 2019]]) {
      if (ok && has(node, kw)) recordRef(node, kw, res, at, checked);
    }
    subMap('properties', checked);
    const pp = own(node, 'patternProperties');
    if (pp !== undefined) {
      if (!isObject(pp)) { if (checked) throw new SchemaError(`patternProperties must be an object at ${at || '(root)'}`); }
      else {
        for (const p of Object.keys(pp)) {
          if (checked) compilePattern(p);
          walk(pp[p], res, `${at}/patternProperties/${esc(p)}`, checked);
        }
      }
    }
    if (has(node, 'additionalProperties')) sub('additionalProperties', node.additionalProperties, checked);
    if (has(node, 'items')) {
      if (Array.isArray(node.items)) subList('items', checked, false);
      else sub('items', node.items, checked);
    }
    if (has(node, 'prefixItems')) subList('prefixItems', checked, false);
    if (has(node, 'additionalItems')) sub('additionalItems', node.additionalItems, checked);
    for (const kw of APPLICATORS_CHECKED) subList(kw, checked, true);
    subMap('$defs', checked);
    subMap('definitions', checked);
    for (const kw of UNCHECKED_SINGLE) if (has(node, kw)) sub(kw, node[kw], false);
    for (const kw of UNCHECKED_MAPS) subMap(kw, false);
    const deps = own(node, 'dependencies');
    if (isObject(deps)) for (const k of Object.keys(deps)) if (isObject(deps[k]) || typeof deps[k] === 'boolean') walk(deps[k], res, `${at}/dependencies/${esc(k)}`, false);
  };

  const checkType = (node, at) => {
    const where = at || '(root)';
    if (has(node, 'type')) {
      const t = node.type;
      const names = Array.isArray(t) ? t : [t];
      if (Array.isArray(t) && t.length === 0) throw new SchemaError(`type must not be an empty list at ${where}`);
      for (const name of names) {
        if (typeof name !== 'string') throw new SchemaError(`type must be a string or a list of strings at ${where}`);
        if (!Object.hasOwn(TYPE_BITS, name)) throw new SchemaError(`unknown type ${JSON.stringify(name)} at ${where}`);
      }
      if (has(node, 'nullable') && typeof node.nullable !== 'boolean') throw new SchemaError(`nullable must be a boolean at ${where}`);
    }
  };

  const recordRef = (node, kw, res, at, checked) => {
    const ref = node[kw];
    if (typeof ref !== 'string') {
      if (checked) throw new SchemaError(`${kw} must be a string at ${at || '(root)'}/${kw}`);
      return;
    }
    refs.push({ ref, kw, res, at: `${at}/${kw}`, checked });
  };

  const rootRes = { id: -1, uri: DEFAULT_BASE, base: DEFAULT_BASE, root: schema, draft: defaultDraft, anchors: new Map(), dynamicAnchors: new Map(), recursiveAnchor: false };
  if (typeof schema === 'boolean') {
    return new CompiledSchema(schema, newResource(DEFAULT_BASE, schema, defaultDraft), resources, nodeRes);
  }
  walk(schema, rootRes, '', true, true);
  const root = nodeRes.get(schema);
  const compiled = new CompiledSchema(schema, root, resources, nodeRes);
  for (const r of refs) {
    if (!r.checked) continue;
    compiled.resolve(r.ref, r.res, r.at);
  }
  return compiled;
}

const patternCache = new Map();
function compilePattern(p) {
  let re = patternCache.get(p);
  if (re === undefined) {
    try {
      re = new RegExp(p, 'u');
    } catch (e) {
      throw new SchemaError(`pattern ${JSON.stringify(p)} is not an ECMA-262 regular expression: ${e.message}`);
    }
    patternCache.set(p, re);
  }
  return re;
}

function decodePointerToken(tok) {
  if (feature('s5')) return tok.replace(/~0/g, '~').replace(/~1/g, '/');
  return tok.replace(/~1/g, '/').replace(/~0/g, '~');
}

export class CompiledSchema {
  constructor(schema, rootRes, resources, nodeRes) {
    this.schema = schema;
    this.rootRes = rootRes;
    this.resources = resources;
    this.nodeRes = nodeRes;
    this.nodeIds = new WeakMap();
    this.nextNodeId = 0;
    this.typeCache = new Map();
    this.childCache = new Map();
    this.inProgress = new Set();
  }

  /** The formula at the root of the arguments. */
  root() {
    return { op: 'leaf', ctx: this.ctx(this.schema, this.rootRes, []) };
  }

  nodeId(node) {
    if (typeof node === 'boolean') return node ? 'T' : 'F';
    let id = this.nodeIds.get(node);
    if (id === undefined) { id = this.nextNodeId++; this.nodeIds.set(node, id); }
    return String(id);
  }

  /** @returns {Ctx} */
  ctx(node, res, scope) {
    if (isObject(node)) res = this.nodeRes.get(node) ?? res;
    if (!scope.includes(res)) scope = [...scope, res];
    return { node, res, scope, key: this.nodeId(node) + '@' + scope.map((r) => r.id).join('.') };
  }

  /**
   * Resolve a reference written in resource res.
   * @returns {{ node: any, res: Resource }}
   */
  resolve(ref, res, at) {
    const abs = resolveUri(res.base, ref);
    const [uri, rawFrag] = splitFragment(abs);
    const target = this.resources.get(uri);
    if (!target) throw new SchemaError(`$ref ${JSON.stringify(ref)} does not resolve: no schema ${JSON.stringify(uri)} (another document) at ${at}`);
    let frag;
    try {
      frag = decodeURIComponent(rawFrag);
    } catch {
      throw new SchemaError(`$ref ${JSON.stringify(ref)} has a malformed fragment at ${at}`);
    }
    if (frag === '') return { node: target.root, res: target };
    if (frag.startsWith('/')) {
      let node = target.root;
      for (const raw of frag.slice(1).split('/')) {
        const tok = decodePointerToken(raw);
        if (Array.isArray(node) && /^(0|[1-9][0-9]*)$/.test(tok) && Number(tok) < node.length) node = node[Number(tok)];
        else if (isObject(node) && Object.hasOwn(node, tok)) node = node[tok];
        else throw new SchemaError(`$ref ${JSON.stringify(ref)} does not resolve: no member ${JSON.stringify(tok)} at ${at}`);
      }
      return { node, res: (isObject(node) && this.nodeRes.get(node)) || target };
    }
    const node = target.anchors.get(frag);
    if (node === undefined) throw new SchemaError(`$ref ${JSON.stringify(ref)} does not resolve: no anchor ${JSON.stringify(frag)} at ${at}`);
    return { node, res: this.nodeRes.get(node) ?? target };
  }

  /** The targets of the references in ctx's schema, as contexts. */
  refTargets(ctx) {
    const { node, res } = ctx;
    const out = [];
    const draft = res.draft;
    if (typeof own(node, '$ref') === 'string') {
      const t = this.resolve(node.$ref, res, '$ref');
      out.push(this.ctx(t.node, t.res, ctx.scope));
    }
    if (draft <= 7) return out;
    if (draft === 2020 && typeof own(node, '$dynamicRef') === 'string') {
      let t = this.resolve(node.$dynamicRef, res, '$dynamicRef');
      const [, frag] = splitFragment(node.$dynamicRef);
      if (frag !== '' && !frag.startsWith('/') && isObject(t.node) && own(t.node, '$dynamicAnchor') === frag) {
        for (const r of ctx.scope) {
          const a = r.dynamicAnchors.get(frag);
          if (a !== undefined) { t = { node: a, res: r }; break; }
        }
      }
      out.push(this.ctx(t.node, t.res, ctx.scope));
    }
    if (draft === 2019 && typeof own(node, '$recursiveRef') === 'string') {
      let t = this.resolve(node.$recursiveRef, res, '$recursiveRef');
      if (isObject(t.node) && own(t.node, '$recursiveAnchor') === true) {
        for (const r of ctx.scope) {
          if (r.recursiveAnchor) { t = { node: r.root, res: r }; break; }
        }
      }
      out.push(this.ctx(t.node, t.res, ctx.scope));
    }
    return out;
  }

  child(ctx, v) {
    return this.ctx(v, ctx.res, ctx.scope);
  }

  /** The types ctx's schema declares, as a bit set (T_ANY: nothing known). */
  types(ctx) {
    const { node } = ctx;
    if (node === true) return T_ANY;
    if (node === false) return 0;
    if (!isObject(node)) return T_ANY;
    const cached = this.typeCache.get(ctx.key);
    if (cached !== undefined) return cached;
    if (this.inProgress.has(ctx.key)) return T_ANY; // a cycle declares nothing
    this.inProgress.add(ctx.key);
    try {
      let mask = T_ANY;
      const legacyRef = ctx.res.draft <= 7 && has(node, '$ref');
      if (!legacyRef && has(node, 'type')) {
        const t = node.type;
        let own = 0;
        for (const name of Array.isArray(t) ? t : [t]) {
          const bit = typeof name === 'string' && Object.hasOwn(TYPE_BITS, name) ? TYPE_BITS[name] : undefined;
          if (bit === undefined) throw new SchemaError(`unknown type ${JSON.stringify(name)}`);
          own |= bit;
        }
        if (own_(node, 'nullable') === true) own |= T_NULL;
        mask &= own;
      }
      for (const t of this.refTargets(ctx)) mask &= this.types(t);
      if (!legacyRef) {
        for (const b of arr(node, 'allOf')) mask &= this.types(this.child(ctx, b));
        for (const kw of ['anyOf', 'oneOf']) {
          const bs = arr(node, kw);
          if (bs.length === 0) continue;
          let u = 0;
          for (const b of bs) {
            const bt = this.types(this.child(ctx, b));
            if (bt === T_ANY && !feature('s6')) { u = T_ANY; break; }
            if (bt !== T_ANY) u |= bt;
          }
          if (u === 0 && feature('s6')) u = T_ANY;
          mask &= u;
        }
      }
      this.typeCache.set(ctx.key, mask);
      return mask;
    } finally {
      this.inProgress.delete(ctx.key);
    }
  }

  /**
   * What ctx's schema says of the member `key` (kind T_OBJECT) or the
   * element at index `key` (kind T_ARRAY) of a value of that kind.
   * @returns {Formula}
   */
  childParts(ctx, kind, key, visiting = new Set()) {
    const { node } = ctx;
    if (!isObject(node)) return AND_NONE;
    if (visiting.has(ctx.key)) return AND_NONE;
    const cacheKey = ctx.key + (kind === T_OBJECT ? '{' : '[') + key;
    const cached = this.childCache.get(cacheKey);
    if (cached !== undefined) return cached;
    visiting.add(ctx.key);
    try {
      const parts = [];
      const legacyRef = ctx.res.draft <= 7 && has(node, '$ref');
      if (!legacyRef) {
        if (kind === T_OBJECT) {
          let matched = false;
          const props = own(node, 'properties');
          if (isObject(props)) {
            const p = feature('s1') ? props[key] : own(props, key);
            if (p !== undefined) { matched = true; parts.push(leaf(this.child(ctx, p))); }
          }
          const pp = own(node, 'patternProperties');
          if (isObject(pp)) {
            for (const p of Object.keys(pp)) {
              if (compilePattern(p).test(key)) { matched = true; parts.push(leaf(this.child(ctx, pp[p]))); }
            }
          }
          if (!matched && has(node, 'additionalProperties')) parts.push(leaf(this.child(ctx, node.additionalProperties)));
        } else {
          const i = key;
          const items = own(node, 'items');
          const prefix = own(node, 'prefixItems');
          if (Array.isArray(prefix) && i < prefix.length) parts.push(leaf(this.child(ctx, prefix[i])));
          else if (Array.isArray(items)) {
            if (i < items.length) parts.push(leaf(this.child(ctx, items[i])));
            else if (has(node, 'additionalItems')) parts.push(leaf(this.child(ctx, node.additionalItems)));
          } else if (items !== undefined) parts.push(leaf(this.child(ctx, items)));
        }
      }
      for (const t of this.refTargets(ctx)) parts.push(this.childParts(t, kind, key, visiting));
      if (!legacyRef) {
        for (const b of arr(node, 'allOf')) parts.push(this.childParts(this.child(ctx, b), kind, key, visiting));
        for (const kw of ['anyOf', 'oneOf']) {
          const bs = arr(node, kw);
          if (bs.length === 0) continue;
          const alts = [];
          for (const b of bs) {
            const bc = this.child(ctx, b);
            if (this.types(bc) & kind) alts.push(this.childParts(bc, kind, key, visiting));
          }
          if (alts.length > 0) parts.push({ op: 'or', xs: alts });
        }
      }
      const f = parts.length === 1 ? parts[0] : { op: 'and', xs: parts };
      this.childCache.set(cacheKey, f);
      return f;
    } finally {
      visiting.delete(ctx.key);
    }
  }

  /** @param {Formula} f */
  typesOf(f) {
    switch (f.op) {
      case 'leaf': return this.types(f.ctx);
      case 'and': {
        let m = T_ANY;
        for (const x of f.xs) m &= this.typesOf(x);
        return m;
      }
      default: {
        let m = 0;
        for (const x of f.xs) m |= this.typesOf(x);
        return m;
      }
    }
  }

  /** The formula one level below f, for a value of kind at f. */
  childOf(f, kind, key) {
    switch (f.op) {
      case 'leaf': return this.childParts(f.ctx, kind, key);
      case 'and': return f.xs.length === 0 ? AND_NONE : { op: 'and', xs: f.xs.map((x) => this.childOf(x, kind, key)) };
      default: {
        const alts = f.xs.filter((x) => this.typesOf(x) & kind);
        if (alts.length === 0) return AND_NONE;
        return { op: 'or', xs: alts.map((x) => this.childOf(x, kind, key)) };
      }
    }
  }
}

const AND_NONE = Object.freeze({ op: 'and', xs: Object.freeze([]) });
const leaf = (ctx) => ({ op: 'leaf', ctx });
const own_ = own;
function arr(node, kw) {
  const v = own(node, kw);
  return Array.isArray(v) ? v : [];
}
