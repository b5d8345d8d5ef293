// The bug zoo's JavaScript normalizer: RT-TOOL-8 as toolnorm reads it
// (docs/readings.md), written the way JavaScript writes it (Node.js 20, the
// HTML5 table of named references from the `entities` package), with
// switches that each plant one bug as real JavaScript code plants it.
//
//   const normalize = createNormalizer();                    // the rule
//   const buggy = createNormalizer(['js-replace-once']);     // one bug planted
//
// adapter.mjs serves it over toolnorm's protocol with the switches of
// ZOO_SWITCHES; SWITCHES below says in one line what each does wrong, and
// zoo/switches.json which deviation explains it. The code of a switch sits
// where the bug would sit, under `bug('...')`.
//
// It gets what the kit (kits/javascript/toolnorm-kit.mjs) reads: objects whose
// members are all own properties (a member named __proto__ too), arrays,
// strings, numbers (the kit writes back the text of those left in place),
// booleans and null. What a JavaScript value cannot carry is answered
// `unsupported` (an Unsupported error): a decoded object with duplicate
// members or integer keys out of order, a decoded number that a double
// cannot hold.
import { createRequire } from 'node:module';
import { parse, Unsupported } from '../../kits/javascript/toolnorm-kit.mjs';

const require = createRequire(import.meta.url);
const entities = require('entities/lib/maps/entities.json'); // names that need their ;
const legacy = require('entities/lib/maps/legacy.json'); // names that may go without
const windows1252 = require('entities/lib/maps/decode.json'); // numeric replacements

export { Unsupported };

export const MAX_DEPTH = 1000;
const TYPES = Object.freeze(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);
const ALL = new Set(TYPES);

// What each switch does wrong, in behaviour.
export const SWITCHES = {
  // The JSON repair.
  'js-json-top-level-only': 'JSON repair only for Object.entries(args), not below',
  'js-json-any-value': 'whatever JSON.parse gives is substituted where array/object is declared',
  'js-typeof-object': "typeof v === 'object' accepts an array where an object is declared",
  'js-json-schema-blind': 'every string holding a JSON array or object is decoded, whatever is declared',
  'js-type-includes-array': "types.includes('array') decodes where string is declared beside it",
  'js-json-startswith': "only strings that start with [ or { and end with ] or } are tried (padding refused)",
  'js-json-no-recurse': 'a value decoded from a string is returned as parsed, nothing repaired inside it',
  'js-json-parse-unguarded': 'JSON.parse without try: an error where a declared array/object string does not parse',
  'js-json-trailing-commas': 'text that does not parse is parsed again without the commas before ] and }',
  // The order of the repairs.
  'js-entities-first': 'references decoded first, JSON tried once on the result',
  'js-no-json-after-entities': 'JSON tried on the string as sent only',
  // The entity repair.
  'js-no-entities': 'no entity repair at all',
  'js-replace-once': 'one replace() over the string instead of a loop until nothing changes',
  'js-small-map-regex': 'a regex over &name; with a five-entry map, the ; needed',
  'js-named-only': 'numeric references are not decoded',
  'js-lowercase-lookup': 'a name not in the table is looked up again in lower case',
  'js-from-code-point': 'String.fromCodePoint for numeric references: no windows-1252, no U+FFFD for 0 and surrogates',
  'js-attribute-decoder': "an attribute value's decoder: &not= and &notx stay",
  'js-top-level-only': 'both repairs only for Object.entries(args)',
  // Reading the schema.
  'js-type-equals': "schema.type === 'array': a type list declares nothing",
  'js-no-ref': '$ref is not followed',
  'js-no-allof': 'allOf is not followed',
  'js-no-anyof': 'anyOf is not followed',
  'js-no-items': 'items (a schema) is not followed',
  'js-no-prefixitems': 'prefixItems is not followed',
  'js-no-pattern-properties': 'patternProperties is not followed',
  'js-no-additional-properties': 'additionalProperties is not followed',
  'js-ref-replaces': '$ref replaces its siblings in every draft',
  'js-ref-items': "an array's items are not looked up behind its $ref",
  // The output.
  'js-keys-decoded': 'keys get the entity repair too',
  'js-trim': 'every string is trim()med',
  'js-skip-null': 'members whose value is null are skipped',
  'js-wrap-array': 'a value that is not an array where an array is declared is wrapped in one',
  'js-assign-proto': 'objects rebuilt with out[k] = v: a member named __proto__ is lost',
  'js-proto-on-repair': 'Object.assign({}, obj, changes) where a member changed: __proto__ lost there',
  'js-to-well-formed': 'every string is toWellFormed(): lone surrogates become U+FFFD',
  'js-validate': "the repaired arguments are validated: an error where a value's type is not declared",
};

export class SchemaError extends Error {}
class TooDeep extends Error {}

const own = (o, k) => o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k);
const get = (o, k) => (own(o, k) ? o[k] : undefined);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isSchema = (v) => typeof v === 'boolean' || isObject(v);
const put = (o, k, v) => Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
const kind = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);
const jsonType = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);

// ---------------------------------------------------------------------------
// HTML character references: one pass is the HTML tokenizer's in text
// content (readings section 1).

const NAMED = new Map();
for (const [name, value] of Object.entries(entities)) NAMED.set(name + ';', value);
for (const [name, value] of Object.entries(legacy)) NAMED.set(name, value);
const LONGEST = Math.max(...[...NAMED.keys()].map((k) => k.length));
const SMALL_MAP = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const isAlnum = (c) => /^[0-9A-Za-z]$/.test(c);

function codePoint(digits, base) {
  const d = digits.replace(/^0+/, '');
  if (d.length > (base === 16 ? 6 : 7)) return '\uFFFD';
  const n = d === '' ? 0 : parseInt(d, base);
  if (n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return '\uFFFD';
  return String.fromCodePoint(windows1252[n] ?? n);
}

// ---------------------------------------------------------------------------
// URIs (RFC 3986)

const URI = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#([\s\S]*))?$/;

function removeDots(path) {
  const out = [];
  while (path) {
    if (path.startsWith('../')) path = path.slice(3);
    else if (path.startsWith('./')) path = path.slice(2);
    else if (path.startsWith('/./')) path = path.slice(2);
    else if (path === '/.') path = '/';
    else if (path.startsWith('/../')) { path = path.slice(3); out.pop(); }
    else if (path === '/..') { path = '/'; out.pop(); }
    else if (path === '.' || path === '..') path = '';
    else {
      let i = path.indexOf('/', 1);
      if (i < 0) i = path.length;
      out.push(path.slice(0, i));
      path = path.slice(i);
    }
  }
  return out.join('');
}

// resolveURI gives ref resolved against base: [the URI without fragment, the fragment or undefined].
export function resolveURI(base, ref) {
  let [, s, a, p, q, f] = URI.exec(ref);
  if (s === undefined) {
    const [, bs, ba, bp, bq] = URI.exec(base);
    if (a === undefined) {
      if (p === '') { p = bp; if (q === undefined) q = bq; }
      else if (p.startsWith('/')) p = removeDots(p);
      else p = removeDots(ba !== undefined && bp === '' ? '/' + p : bp.slice(0, bp.lastIndexOf('/') + 1) + p);
      a = ba;
    } else p = removeDots(p);
    s = bs;
  } else p = removeDots(p);
  let uri = (s !== undefined ? s + ':' : '') + (a !== undefined ? '//' + a : '') + p;
  if (q !== undefined) uri += '?' + q;
  return [uri, f];
}

// ---------------------------------------------------------------------------
// What the schema declares at a position (readings section 4)

const DRAFTS = { 'draft-04': 4, 'draft-06': 6, 'draft-07': 7, 'draft/2019-09': 2019, 'draft/2020-12': 2020 };
const DRAFT_URI = /^https?:\/\/json-schema\.org\/(draft-0[467]|draft\/2019-09|draft\/2020-12)\/schema#?$/;
const IN_PLACE = ['additionalProperties', 'items', 'additionalItems', 'not', 'if', 'then', 'else', 'contains',
  'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const IN_LISTS = ['items', 'prefixItems', 'allOf', 'anyOf', 'oneOf'];
const IN_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
const LEAF_KEYWORDS = ['properties', 'patternProperties', 'additionalProperties', 'items', 'prefixItems'];

class Cycle extends Error {
  constructor(key) { super('cycle'); this.key = key; }
}

const intersect = (a, b) => new Set([...a].filter((t) => b.has(t)));

// A position the schema says nothing about.
const NOTHING = { types: ALL, prop: () => NOTHING, item: () => NOTHING };
// false: admits nothing, declares nothing below.
const FALSE = { types: new Set(), prop: () => NOTHING, item: () => NOTHING };

function all(parts) {
  parts = parts.filter((p) => p !== NOTHING);
  if (parts.length === 0) return NOTHING;
  if (parts.length === 1) return parts[0];
  return {
    types: parts.reduce((t, p) => intersect(t, p.types), ALL),
    prop: (k, top) => all(parts.map((p) => p.prop(k, top))),
    item: (i) => all(parts.map((p) => p.item(i))),
  };
}

// some is anyOf or oneOf: alternatives, their types a union; below, only the
// branches that admit the value contribute (one branch too).
function some(branches) {
  if (branches.includes(NOTHING)) return NOTHING;
  return {
    types: new Set(branches.flatMap((b) => [...b.types])),
    prop: (k, top) => union(branches.filter((b) => b.types.has('object')).map((b) => b.prop(k, top))),
    item: (i) => union(branches.filter((b) => b.types.has('array')).map((b) => b.item(i))),
  };
}

// union is what the admitted branches declare at a position below them:
// alternatives again, but one is just itself.
function union(children) {
  if (children.length === 0 || children.includes(NOTHING)) return NOTHING;
  return children.length === 1 ? children[0] : some(children);
}

class Document {
  constructor(root, nz) {
    this.root = root;
    this.nz = nz;
    this.where = new Map(); // schema -> [base URI, draft]
    this.resources = new Map([['', root]]);
    this.anchors = new Map(); // `${uri}#${name}` -> schema
    this.dynamic = new Map();
    this.recursive = new Set();
    this.patterns = new Map();
    this.nodes = new Map(); // schema -> Map(scope -> node)
    this.path = new Set();
    this.scoped = false;
    if (!isSchema(root)) throw new SchemaError(`a schema must be an object or a boolean, not ${kind(root)}`);
    this.scan(root, '', 2020, true);
    this.check(root, '');
  }

  scan(s, base, draft, root = false) {
    if (!isObject(s)) return;
    let refOnly = draft <= 7 && own(s, '$ref');
    let ident = refOnly ? undefined : get(s, draft === 4 ? 'id' : '$id');
    const schemaURI = get(s, '$schema');
    if (typeof schemaURI === 'string' && (root || typeof ident === 'string')) {
      const m = DRAFT_URI.exec(schemaURI);
      if (m) {
        draft = DRAFTS[m[1]];
        refOnly = draft <= 7 && own(s, '$ref');
        ident = refOnly ? undefined : get(s, draft === 4 ? 'id' : '$id');
      }
    }
    if (typeof ident === 'string') {
      const [uri, fragment] = resolveURI(base, ident);
      if (!ident.startsWith('#')) {
        base = uri;
        this.resources.set(uri, s);
      }
      if (fragment) this.anchors.set(`${uri}#${fragment}`, s);
    }
    if (!refOnly) {
      if (draft >= 2019 && typeof get(s, '$anchor') === 'string') this.anchors.set(`${base}#${s.$anchor}`, s);
      if (draft >= 2020 && typeof get(s, '$dynamicAnchor') === 'string') {
        this.anchors.set(`${base}#${s.$dynamicAnchor}`, s);
        this.dynamic.set(`${base}#${s.$dynamicAnchor}`, s);
      }
      if (draft === 2019 && get(s, '$recursiveAnchor') === true) this.recursive.add(base);
      if ((draft === 2020 && own(s, '$dynamicRef')) || (draft === 2019 && own(s, '$recursiveRef'))) this.scoped = true;
    }
    this.where.set(s, [base, draft]);
    for (const kw of IN_PLACE) if (isObject(get(s, kw))) this.scan(s[kw], base, draft);
    for (const kw of IN_LISTS) if (Array.isArray(get(s, kw))) for (const sub of s[kw]) this.scan(sub, base, draft);
    for (const kw of IN_MAPS) if (isObject(get(s, kw))) for (const sub of Object.values(s[kw])) this.scan(sub, base, draft);
  }

  context(s) {
    return this.where.get(s) ?? ['', 2020];
  }

  check(s, at) {
    if (typeof s === 'boolean') return;
    if (!isObject(s)) throw new SchemaError(`a schema must be an object or a boolean, not ${kind(s)} at ${at || '(root)'}`);
    const [, draft] = this.context(s);
    const refOnly = draft <= 7 && own(s, '$ref');
    for (const [kw, v] of Object.entries(s)) {
      const where = `${at}/${kw}`;
      if (refOnly && !['$ref', '$defs', 'definitions'].includes(kw)) continue;
      if (kw === 'type') {
        for (const t of Array.isArray(v) ? v : [v]) {
          if (typeof t !== 'string') throw new SchemaError(`a type must be a string, not ${kind(t)} at ${where}`);
          if (!ALL.has(t)) throw new SchemaError(`unknown type ${JSON.stringify(t)} at ${where}`);
        }
      } else if (kw === 'nullable' && own(s, 'type') && typeof v !== 'boolean') {
        throw new SchemaError(`nullable must be a boolean, not ${kind(v)} at ${where}`);
      } else if (kw === '$ref' || (kw === '$dynamicRef' && draft === 2020) || (kw === '$recursiveRef' && draft === 2019)) {
        if (typeof v !== 'string') throw new SchemaError(`${kw} must be a string, not ${kind(v)} at ${where}`);
        this.resolve(s, v);
      } else if (['properties', 'patternProperties', '$defs', 'definitions'].includes(kw)) {
        if (!isObject(v)) throw new SchemaError(`${kw} must be an object, not ${kind(v)} at ${where}`);
        for (const [k, sub] of Object.entries(v)) {
          if (kw === 'patternProperties') this.pattern(k);
          this.check(sub, `${where}/${k}`);
        }
      } else if (kw === 'additionalProperties' || kw === 'additionalItems' || (kw === 'items' && !Array.isArray(v))) {
        this.check(v, where);
      } else if (kw === 'items' || kw === 'prefixItems') {
        if (!Array.isArray(v)) throw new SchemaError(`${kw} must be an array, not ${kind(v)} at ${where}`);
        v.forEach((sub, n) => this.check(sub, `${where}/${n}`));
      } else if (['allOf', 'anyOf', 'oneOf'].includes(kw)) {
        if (!Array.isArray(v) || v.length === 0) throw new SchemaError(`${kw} must be a non-empty array at ${where}`);
        v.forEach((sub, n) => this.check(sub, `${where}/${n}`));
      }
    }
  }

  pattern(p) {
    if (!this.patterns.has(p)) {
      try {
        this.patterns.set(p, new RegExp(p, 'u'));
      } catch (e) {
        throw new SchemaError(`pattern ${JSON.stringify(p)} is not an ECMA-262 regular expression (u flag): ${e.message}`);
      }
    }
    return this.patterns.get(p);
  }

  resolve(s, ref) {
    const [base] = this.context(s);
    const [uri, fragment] = resolveURI(base, ref);
    if (!this.resources.has(uri)) {
      throw new SchemaError(`$ref ${JSON.stringify(ref)} does not resolve: ${uri} is another document, and none was supplied`);
    }
    let target = this.resources.get(uri);
    if (fragment && !fragment.startsWith('/')) {
      const anchored = this.anchors.get(`${uri}#${fragment}`);
      if (anchored === undefined) throw new SchemaError(`$ref ${JSON.stringify(ref)} does not resolve: no anchor ${JSON.stringify(fragment)}`);
      return anchored;
    }
    let pointer;
    try {
      pointer = fragment ? decodeURIComponent(fragment) : '';
    } catch {
      throw new SchemaError(`$ref ${JSON.stringify(ref)} does not resolve: bad percent-encoding`);
    }
    for (let token of pointer.split('/').slice(1)) {
      token = token.replace(/~1/g, '/').replace(/~0/g, '~');
      if (isObject(target) && own(target, token)) target = target[token];
      else if (Array.isArray(target) && /^(0|[1-9][0-9]*)$/.test(token) && Number(token) < target.length) target = target[Number(token)];
      else throw new SchemaError(`$ref ${JSON.stringify(ref)} does not resolve: no member ${JSON.stringify(token)}`);
    }
    if (!isSchema(target)) throw new SchemaError(`$ref ${JSON.stringify(ref)} does not resolve to a schema`);
    if (isObject(target) && !this.where.has(target)) this.where.set(target, this.context(this.resources.get(uri)));
    return target;
  }

  dynamicTarget(s, ref, scope) {
    const target = this.resolve(s, ref);
    const name = resolveURI('', ref)[1];
    if (!isObject(target) || get(target, '$dynamicAnchor') !== name) return target;
    for (const uri of scope) if (this.dynamic.has(`${uri}#${name}`)) return this.dynamic.get(`${uri}#${name}`);
    return target;
  }

  recursiveTarget(s, ref, scope) {
    const target = this.resolve(s, ref);
    if (!isObject(target) || get(target, '$recursiveAnchor') !== true) return target;
    for (const uri of scope) if (this.recursive.has(uri)) return this.resources.get(uri);
    return target;
  }

  // node is what schema s declares, for each position below it too.
  node(s, scope = []) {
    if (s === true || (isObject(s) && Object.keys(s).length === 0)) return NOTHING;
    if (s === false) return FALSE;
    const [base, draft] = this.context(s);
    if (!this.scoped) scope = [];
    else if (!scope.includes(base)) scope = [...scope, base];
    const scopeKey = scope.join('\n');
    let byScope = this.nodes.get(s);
    if (!byScope) this.nodes.set(s, (byScope = new Map()));
    if (byScope.has(scopeKey)) return byScope.get(scopeKey);
    const key = { s, scopeKey };
    for (const k of this.path) if (k.s === s && k.scopeKey === scopeKey) throw new Cycle(k);
    this.path.add(key);
    let node;
    try {
      node = this.flatten(s, draft, scope);
    } catch (e) {
      if (!(e instanceof Cycle)) throw e;
      node = NOTHING; // a cycle back to this schema declares nothing
      if (e.key !== key) {
        byScope.set(scopeKey, node);
        throw e;
      }
    } finally {
      this.path.delete(key);
    }
    byScope.set(scopeKey, node);
    return node;
  }

  behind(node) {
    const nz = this.nz;
    return {
      types: node.types,
      prop: (k, top) => node.prop(k, top),
      // items looked up on the schema as written, where a $ref has none
      item: (i) => (nz.bug('js-ref-items') ? NOTHING : node.item(i)),
    };
  }

  flatten(s, draft, scope) {
    const { nz } = this;
    const hasRef = own(s, '$ref') && !nz.bug('js-no-ref');
    if (hasRef && (draft <= 7 || nz.bug('js-ref-replaces'))) return this.behind(this.node(this.resolve(s, s.$ref), scope));
    const parts = [];
    if (!nz.bug('js-type-equals') || !Array.isArray(get(s, 'type'))) {
      if (own(s, 'type') || LEAF_KEYWORDS.some((k) => own(s, k))) parts.push(this.leaf(s, scope));
    } else if (LEAF_KEYWORDS.some((k) => own(s, k))) {
      parts.push({ ...this.leaf(s, scope), types: ALL });
    }
    if (hasRef) parts.push(this.behind(this.node(this.resolve(s, s.$ref), scope)));
    if (draft === 2020 && own(s, '$dynamicRef')) parts.push(this.node(this.dynamicTarget(s, s.$dynamicRef, scope), scope));
    if (draft === 2019 && own(s, '$recursiveRef')) parts.push(this.node(this.recursiveTarget(s, s.$recursiveRef, scope), scope));
    if (own(s, 'allOf') && !nz.bug('js-no-allof')) parts.push(...s.allOf.map((b) => this.node(b, scope)));
    if (own(s, 'anyOf') && !nz.bug('js-no-anyof')) parts.push(some(s.anyOf.map((b) => this.node(b, scope))));
    if (own(s, 'oneOf')) parts.push(some(s.oneOf.map((b) => this.node(b, scope))));
    return all(parts);
  }

  // leaf is one schema object's own keywords: its types, the schemas of its children.
  leaf(s, scope) {
    const { nz } = this;
    let types = ALL;
    const t = get(s, 'type');
    if (t !== undefined) {
      types = new Set(Array.isArray(t) ? t : [t]);
      if (get(s, 'nullable') === true) types.add('null');
    }
    const sub = (schema) => this.node(schema, scope);
    return {
      types,
      prop: (k) => {
        const parts = [];
        let matched = false;
        const props = get(s, 'properties');
        if (own(props, k)) { parts.push(sub(props[k])); matched = true; }
        if (!nz.bug('js-no-pattern-properties')) {
          for (const [p, schema] of Object.entries(get(s, 'patternProperties') ?? {})) {
            if (this.pattern(p).test(k)) { parts.push(sub(schema)); matched = true; }
          }
        }
        if (!matched && own(s, 'additionalProperties') && !nz.bug('js-no-additional-properties')) parts.push(sub(s.additionalProperties));
        return all(parts);
      },
      item: (i) => {
        const items = get(s, 'items');
        const prefix = nz.bug('js-no-prefixitems') ? undefined : get(s, 'prefixItems');
        const itemsSchema = isSchema(items) && !nz.bug('js-no-items');
        if (Array.isArray(prefix)) {
          if (i < prefix.length) return sub(prefix[i]);
          return itemsSchema ? sub(items) : NOTHING;
        }
        if (Array.isArray(items)) {
          if (i < items.length) return sub(items[i]);
          return own(s, 'additionalItems') ? sub(s.additionalItems) : NOTHING;
        }
        return itemsSchema ? sub(items) : NOTHING;
      },
    };
  }
}

// ---------------------------------------------------------------------------
// Numbers: the decimal value of a number's text, to see whether a double
// keeps it.

function decimal(text) {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  const digits = (m[2] + (m[3] ?? '')).replace(/^0+/, '');
  if (digits === '') return '0';
  const exp = BigInt(m[4] ?? 0) - BigInt((m[3] ?? '').length) + BigInt(digits.length - digits.replace(/0+$/, '').length);
  return `${m[1]}${digits.replace(/0+$/, '')}e${exp}`;
}

// ---------------------------------------------------------------------------
// The normalizer

const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const SEMICOLON_REF = /&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/g;

// createNormalizer gives normalize(schema, args) with the switches' bugs.
export function createNormalizer(switches = []) {
  const unknown = switches.filter((s) => !Object.hasOwn(SWITCHES, s));
  if (unknown.length) throw new Error(`unknown switches: ${unknown.join(', ')}`);
  const on = new Set(switches);
  const nz = { bug: (name) => on.has(name) };
  const { bug } = nz;

  // reference is the reference at s[i] (an &): [what it decodes to, where it ends], or null.
  function reference(s, i) {
    const c = s[i + 1] ?? '';
    if (c === '#') {
      if (bug('js-named-only')) return null;
      let j = i + 2;
      const hex = s[j] === 'x' || s[j] === 'X';
      if (hex) j++;
      const digit = hex ? /[0-9a-fA-F]/ : /[0-9]/;
      let k = j;
      while (k < s.length && digit.test(s[k])) k++;
      if (k === j) return null;
      const end = s[k] === ';' ? k + 1 : k;
      if (bug('js-from-code-point')) {
        try {
          return [String.fromCodePoint(parseInt(s.slice(j, k), hex ? 16 : 10)), end];
        } catch {
          return ['\uFFFD', end];
        }
      }
      return [codePoint(s.slice(j, k), hex ? 16 : 10), end];
    }
    if (!isAlnum(c)) return null;
    for (let n = Math.min(LONGEST, s.length - i - 1); n > 0; n--) {
      const name = s.slice(i + 1, i + 1 + n);
      let value = NAMED.get(name);
      if (value === undefined && bug('js-lowercase-lookup')) value = NAMED.get(name.toLowerCase());
      if (value === undefined) continue;
      if (bug('js-attribute-decoder') && !name.endsWith(';') && /^[=0-9A-Za-z]/.test(s.slice(i + 1 + n))) return null;
      return [value, i + 1 + n];
    }
    return null;
  }

  function decodeOnce(s) {
    if (bug('js-small-map-regex')) {
      return s.replace(SEMICOLON_REF, (m, ref) => {
        if (ref[0] !== '#') return Object.hasOwn(SMALL_MAP, ref) ? SMALL_MAP[ref] : m;
        return ref[1] === 'x' || ref[1] === 'X' ? codePoint(ref.slice(2), 16) : codePoint(ref.slice(1), 10);
      });
    }
    let out = '';
    let i = 0;
    for (;;) {
      const j = s.indexOf('&', i);
      if (j < 0) return out + s.slice(i);
      out += s.slice(i, j);
      const ref = reference(s, j);
      if (ref === null) {
        out += '&';
        i = j + 1;
      } else {
        out += ref[0];
        i = ref[1];
      }
    }
  }

  // unescape decodes references until nothing changes (readings section 2).
  function unescape(s) {
    if (bug('js-no-entities')) return s;
    if (bug('js-replace-once')) return decodeOnce(s);
    while (s.includes('&')) {
      const decoded = decodeOnce(s);
      if (decoded === s) break;
      s = decoded;
    }
    return s;
  }

  // loads reads text as JSON (RFC 8259, whole, whitespace around allowed):
  // { value } or null where it does not parse.
  function loads(text) {
    if (!text.isWellFormed()) return null; // a lone surrogate is not Unicode text
    try {
      const { value, numbers } = parse(text);
      return { value, numbers };
    } catch (e) {
      if (!(e instanceof Unsupported)) return null;
      try {
        return { value: JSON.parse(text), unsupported: e }; // JSON all the same, but no object can hold it
      } catch {
        return null;
      }
    }
  }

  function parsed(s, fits) {
    if (bug('js-json-startswith') && !(/^[[{]/.test(s) && /[\]}]$/.test(s))) return { why: 'not JSON' };
    let got = loads(s);
    if (got === null && bug('js-json-trailing-commas')) got = loads(s.replace(/,(?=[ \t\n\r]*[\]}])/g, ''));
    if (got === null) return { why: 'not JSON' };
    if (!bug('js-json-any-value') && !fits(got.value)) return { why: 'another shape' };
    if (got.unsupported) throw got.unsupported;
    for (const text of got.numbers?.values() ?? []) {
      const n = Number(text);
      if (!Number.isFinite(n) || decimal(String(n)) !== decimal(text)) {
        throw new Unsupported(`the decoded number ${text.length > 40 ? text.slice(0, 40) + '...' : text} is not a double: a JavaScript number cannot carry it`);
      }
    }
    return { value: got.value };
  }

  // fitsOf is the test a parsed value passes to be put in place of the
  // string, or null where the JSON repair does not apply.
  function fitsOf(node, depth) {
    if (bug('js-json-top-level-only') && depth !== 2) return null;
    if (bug('js-json-schema-blind')) return (v) => v !== null && typeof v === 'object';
    const { types } = node;
    if (types.has('string') && !(bug('js-type-includes-array') && types.size < ALL.size)) return null;
    if (!types.has('array') && !types.has('object')) return null;
    return (v) => (types.has('array') && Array.isArray(v))
      || (types.has('object') && (bug('js-typeof-object') ? typeof v === 'object' && v !== null : isObject(v)));
  }

  function repairString(s, node, depth) {
    const top = depth === 2;
    if (bug('js-top-level-only') && !top) return s;
    const fits = fitsOf(node, depth);
    if (bug('js-entities-first')) {
      s = unescape(s);
      const got = fits ? parsed(s, fits) : {};
      return own(got, 'value') ? decoded(got.value, node, depth) : s;
    }
    let got = {};
    if (fits) {
      got = parsed(s, fits);
      if (own(got, 'value')) return decoded(got.value, node, depth);
    }
    const text = unescape(s);
    if (fits && text !== s && !bug('js-no-json-after-entities')) {
      got = parsed(text, fits);
      if (own(got, 'value')) return decoded(got.value, node, depth);
    }
    if (fits && got.why === 'not JSON' && bug('js-json-parse-unguarded')) {
      JSON.parse(text); // nobody thought it could throw
      throw new SyntaxError(`${JSON.stringify(text)} is not JSON`);
    }
    return text;
  }

  function decoded(value, node, depth) {
    if (bug('js-json-no-recurse')) {
      if (nesting(value) + depth - 1 > MAX_DEPTH) throw new TooDeep(`nesting too deep: more than ${MAX_DEPTH} nested arrays and objects`);
      return value;
    }
    return repair(value, node, depth);
  }

  function finishString(s, node) {
    if (bug('js-trim')) s = s.trim();
    if (bug('js-to-well-formed')) s = s.toWellFormed();
    return s;
  }

  function repair(value, node, depth) {
    let out = value;
    if (typeof value === 'string') {
      out = repairString(value, node, depth);
      if (typeof out === 'string') out = finishString(out, node);
    } else if (value !== null && typeof value === 'object') {
      if (depth > MAX_DEPTH) throw new TooDeep(`nesting too deep: more than ${MAX_DEPTH} nested arrays and objects`);
      if (Array.isArray(value)) {
        const items = value.map((v, i) => repair(v, node.item(i), depth + 1));
        out = items.some((v, i) => v !== value[i]) ? items : value;
      } else {
        out = repairObject(value, node, depth);
      }
    }
    if (bug('js-wrap-array') && depth > 1 && node.types.has('array') && !node.types.has('string') && !admits(node.types, out)) {
      out = [out];
    }
    return out;
  }

  function repairObject(obj, node, depth) {
    const entries = Object.entries(obj).map(([k, v]) => [k, repair(v, node.prop(k, depth === 1), depth + 1)]);
    const changed = entries.some(([k, v]) => v !== obj[k]);
    if (bug('js-proto-on-repair')) {
      if (!changed) return obj;
      const changes = {};
      for (const [k, v] of entries) if (v !== obj[k]) changes[k] = v;
      return Object.assign({}, obj, changes);
    }
    if (!changed && !bug('js-skip-null') && !bug('js-keys-decoded') && !bug('js-assign-proto')) return obj;
    const out = {};
    for (const [k, v] of entries) {
      if (bug('js-skip-null') && v === null) continue;
      const key = bug('js-keys-decoded') ? unescape(k) : k;
      if (bug('js-assign-proto')) out[key] = v;
      else put(out, key, v);
    }
    return out;
  }

  function validate(value, node, at = '') {
    const t = jsonType(value);
    if (!admits(node.types, value)) {
      throw new Error(`${at || '/'}: ${t} is not valid here (${[...node.types].sort().join(', ') || 'nothing'} is)`);
    }
    if (Array.isArray(value)) value.forEach((v, i) => validate(v, node.item(i), `${at}/${i}`));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) validate(v, node.prop(k, at === ''), `${at}/${k}`);
  }

  return function normalize(schema, args) {
    const doc = new Document(schema, nz);
    if (!isObject(args)) throw new Error(`arguments must be an object, not ${kind(args)}`);
    const root = doc.node(schema);
    const out = repair(args, root, 1);
    if (bug('js-validate')) validate(out, root);
    return out;
  };
}

function admits(types, v) {
  const t = jsonType(v);
  return types.has(t) || (t === 'number' && types.has('integer'));
}

function nesting(value) {
  let deepest = 0;
  const stack = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop();
    if (v !== null && typeof v === 'object') {
      deepest = Math.max(deepest, d);
      for (const x of Object.values(v)) stack.push([x, d + 1]);
    }
  }
  return deepest;
}
