"""RT-TOOL-8: normalize a model's tool arguments against the tool's own JSON Schema.

normalize(schema, arguments) -> arguments

* A string is decoded as JSON only where the schema declares `array`/`object` for it
  (and not `string`), the whole string is strict JSON, and the value has that shape.
* HTML character references in every string leaf are decoded as the HTML5 tokenizer
  does in text content, repeated until the value stops changing.
* Keys never change, member order is kept, numbers keep their text.
"""
import json

import ecma
import os
import re
import sys
from html.entities import html5 as _HTML5
from urllib.parse import unquote, urldefrag, urljoin

__all__ = ["normalize", "SchemaError", "ArgumentsError", "UnsupportedInput", "decode_entities"]

MAX_DEPTH = 1000


class SchemaError(ValueError):
    pass


class ArgumentsError(ValueError):
    pass


class UnsupportedInput(Exception):
    """Input that Python's data model cannot carry as sent."""


def _options():
    raw = os.environ.get("BLIND_SWITCHES", "")
    names = {s.strip() for s in raw.split(",") if s.strip()}
    known = {"s1", "s2", "s3", "s4", "s5", "s6"}
    bad = names - known
    if bad:
        sys.stderr.write("rtnorm: unknown BLIND_SWITCHES entry: %s\n" % ", ".join(sorted(bad)))
        sys.exit(2)
    return names


_OPT = _options()

# ---------------------------------------------------------------------------
# HTML character references
# ---------------------------------------------------------------------------

# windows-1252 for 0x80..0x9F (the HTML tokenizer's replacement table)
_C1 = {
    0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020,
    0x87: 0x2021, 0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152,
    0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022,
    0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
    0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
}

_LONGEST_NAME = max(len(k) for k in _HTML5)
_MODE_D = "s4" in _OPT
_NAME_CHARS = re.compile(r"[A-Za-z0-9]+;?")
_DEC = re.compile(r"[0-9]+")
_HEX = re.compile(r"[0-9A-Fa-f]+")


def _numeric(digits, base):
    # Never build a huge integer: strip leading zeros and cap the length.
    d = digits.lstrip("0")
    if not d:
        return "\uFFFD"
    if len(d) > 8:
        return "\uFFFD"
    n = int(d, base)
    if n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
        return "\uFFFD"
    if 0x80 <= n <= 0x9F:
        return chr(_C1.get(n, n))
    return chr(n)


def _ref_at(s, i):
    """Decide the reference starting at s[i] == '&'. Returns (replacement, end) or None."""
    j = i + 1
    if j < len(s) and s[j] == "#":
        k = j + 1
        if k < len(s) and s[k] in "xX":
            m = _HEX.match(s, k + 1)
            base = 16
        else:
            m = _DEC.match(s, k)
            base = 10
        if not m:
            return None
        end = m.end()
        if end < len(s) and s[end] == ";":
            end += 1
        return _numeric(m.group(), base), end
    m = _NAME_CHARS.match(s, j, min(len(s), j + _LONGEST_NAME))
    if not m:
        return None
    name = m.group()
    if name in _HTML5:
        return _HTML5[name], j + len(name)
    # longest name in the table that is a prefix (only the legacy ones lack ';')
    for n in range(len(name) - 1, 0, -1):
        cand = name[:n]
        if cand in _HTML5:
            return _HTML5[cand], j + n
    if _MODE_D and not name.endswith(";") and name + ";" in _HTML5:
        return _HTML5[name + ";"], j + len(name)
    return None


def _pass(s, starts):
    """One tokenizer pass over s, trying references only at the '&' offsets in starts
    (sorted). Returns (new string, list of (start, end) of replaced text in the new string)."""
    out = []
    produced = []
    pos = 0
    olen = 0
    for i in starts:
        if i < pos:
            continue
        r = _ref_at(s, i)
        if r is None:
            continue
        rep, end = r
        chunk = s[pos:i]
        out.append(chunk)
        olen += len(chunk)
        out.append(rep)
        produced.append((olen, olen + len(rep)))
        olen += len(rep)
        pos = end
    if not produced:
        return s, produced
    out.append(s[pos:])
    return "".join(out), produced


_WINDOW = _LONGEST_NAME + 2


_BLOCK = 4096


class _Text:
    """A long string being rewritten near a few places: the part being worked on (mid), with
    the text before and after it kept as views into larger strings, so that a pass that
    changes a few characters does not copy the whole string."""

    def __init__(self, s):
        self.head = []  # (string, start, end) pieces, in order
        self.tail = []  # (string, start, end) pieces, nearest last
        self.mid = s

    def pull_tail(self):
        while self.tail:
            t, a, b = self.tail.pop()
            if a >= b:
                continue
            n = min(_BLOCK, b - a)
            if a + n < b:
                self.tail.append((t, a + n, b))
            self.mid += t[a:a + n]
            return True
        return False

    def pull_head(self):
        while self.head:
            t, a, b = self.head.pop()
            if a >= b:
                continue
            n = min(_BLOCK, b - a)
            if a < b - n:
                self.head.append((t, a, b - n))
            self.mid = t[b - n:b] + self.mid
            return n
        return 0

    def push_head(self, cut):
        self.head.append((self.mid, 0, cut))
        self.mid = self.mid[cut:]

    def push_tail(self, cut):
        self.tail.append((self.mid, cut, len(self.mid)))
        self.mid = self.mid[:cut]

    def text(self):
        return ("".join(t[a:b] for t, a, b in self.head) + self.mid
                + "".join(t[a:b] for t, a, b in reversed(self.tail)))


def _reads_past(s, k):
    """Whether deciding the reference at s[k] may read past the end of s."""
    if len(s) <= k + _WINDOW:
        return True
    if s[k + 1] != "#":
        return False
    j = k + 2
    if s[j] in "xX":
        m = _HEX.match(s, j + 1)
    else:
        m = _DEC.match(s, j)
    return m is not None and m.end() >= len(s)


def decode_entities(s, max_passes=0):
    """Decode HTML character references until the string stops changing."""
    if "&" not in s:
        return s
    starts = [m.start() for m in re.finditer("&", s)]
    passes = 0
    txt = _Text(s)
    while starts:
        # everything a reference at the last start can read must be in mid
        while txt.tail and _reads_past(txt.mid, starts[-1]):
            txt.pull_tail()
        mid, produced = _pass(txt.mid, starts)
        txt.mid = mid
        passes += 1
        if not produced or (max_passes and passes >= max_passes):
            break
        # an '&' up to a window before the first replacement may now read into it
        shift = 0
        while produced[0][0] + shift < _WINDOW and txt.head:
            shift += txt.pull_head()
        if shift:
            produced = [(x + shift, y + shift) for x, y in produced]
        mid = txt.mid
        # Only an '&' inside a replacement, or close enough before one to read into it,
        # can decide differently next time.
        cand = set()
        for x, y in produced:
            lo = max(0, x - _WINDOW)
            k = mid.find("&", lo, y)
            while k != -1:
                cand.add(k)
                k = mid.find("&", k + 1, y)
        starts = sorted(cand)
        if not starts:
            break
        if len(mid) - starts[-1] > 4 * _BLOCK:
            txt.push_tail(starts[-1] + 2 * _BLOCK)
        if starts[0] > 4 * _BLOCK:
            cut = starts[0] - 2 * _BLOCK
            txt.push_head(cut)
            starts = [k - cut for k in starts]
    return txt.text()


# ---------------------------------------------------------------------------
# Strict JSON (for strings that hold an array or object)
# ---------------------------------------------------------------------------


class JInt(int):
    pass


class JFloat(float):
    pass


def _jint(text):
    n = JInt(text)
    n.text = text
    return n


def _jfloat(text):
    n = JFloat(text)
    n.text = text
    return n


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def _pairs(items):
    d = dict(items)
    if len(d) != len(items):
        raise UnsupportedInput("a decoded string holds an object with a duplicate member")
    return d


_SURROGATE = re.compile("[\ud800-\udfff]")
_MODE_E = (json.JSONDecoder(object_pairs_hook=_pairs, parse_int=_jint, parse_float=_jfloat,
                             parse_constant=_no_constant) if "s5" in _OPT else None)


def _parse_json(text):
    """The value of text if the whole of it is one strict RFC 8259 JSON value, else None."""
    if _SURROGATE.search(text):
        return None  # not Unicode text
    try:
        if _MODE_E is not None:
            return _MODE_E.raw_decode(text.lstrip(" \t\n\r"))[0]
        return json.loads(text, object_pairs_hook=_pairs, parse_int=_jint, parse_float=_jfloat,
                          parse_constant=_no_constant)
    except RecursionError:
        raise ArgumentsError("nesting deeper than %d levels" % MAX_DEPTH)
    except ValueError:
        return None


# ---------------------------------------------------------------------------
# The schema: what it declares at each position
# ---------------------------------------------------------------------------

_MODE_A = "s1" in _OPT
_TYPES = {"null", "boolean", "object", "array", "number", "integer", "string"}
_MODE_C = "s3" in _OPT
_OLD_DRAFTS = ("draft-04", "draft-06", "draft-07", "draft-03")
_SUBSCHEMA_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SUBSCHEMA_ONE = ("additionalProperties", "additionalItems", "not", "if", "then", "else",
                  "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties")
_SUBSCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")


def _compile_pattern(p):
    try:
        py = ecma.translate(p)
        try:
            return re.compile(py, re.ASCII)
        except re.error:
            if "(?<=" in py or "(?<!" in py:
                raise ecma.PatternUnsupported("lookbehinds of variable width")
            raise
    except ecma.PatternUnsupported as e:
        raise UnsupportedInput("pattern %s: %s have no equivalent in Python's re" % (json.dumps(p), e))


class Schema:
    def __init__(self, root):
        self.root = root
        self.old = False
        self.draft4 = False
        if isinstance(root, dict) and isinstance(root.get("$schema"), str):
            self.old = any(d in root["$schema"] for d in _OLD_DRAFTS)
            self.draft4 = "draft-04" in root["$schema"] or "draft-03" in root["$schema"]
        self.draft = "2020-12"
        if isinstance(root, dict) and isinstance(root.get("$schema"), str) and "2019-09" in root["$schema"]:
            self.draft = "2019-09"
        self.patterns = {}
        self._index()
        self._check(root, "")
        self._types_cache = {}

    # -- compile-time checks ------------------------------------------------
    def _check(self, s, ptr):
        stack = [(s, ptr)]
        seen = set()
        while stack:
            s, ptr = stack.pop()
            if isinstance(s, bool):
                continue
            if id(s) in seen:
                continue
            seen.add(id(s))
            if not isinstance(s, dict):
                raise SchemaError("subschema is not an object or a boolean at %s" % (ptr or "(root)"))
            for key in s:
                v = s[key]
                here = ptr + "/" + key.replace("~", "~0").replace("/", "~1")
                if key == "type":
                    names = v if isinstance(v, list) else [v]
                    for n in names:
                        if not isinstance(n, str) or n not in _TYPES:
                            raise SchemaError("unknown type %s at %s" % (json.dumps(n), here))
                elif key == "nullable":
                    if not isinstance(v, bool):
                        raise SchemaError("nullable is not a boolean at %s" % here)
                elif key in ("$ref", "$dynamicRef", "$recursiveRef"):
                    if not isinstance(v, str):
                        raise SchemaError("%s is not a string at %s" % (key, here))
                    if key == "$ref":
                        target = self._resolve(v, s, here)
                        if not isinstance(target, (dict, bool)):
                            raise SchemaError("$ref %s names a value that is not a schema at %s" % (json.dumps(v), here))
                        if id(target) not in seen:
                            stack.append((target, here))
                elif key in _SUBSCHEMA_MAP:
                    if not isinstance(v, dict):
                        raise SchemaError("%s is not an object at %s" % (key, here))
                    for k2 in v:
                        if key == "patternProperties":
                            self._pattern(k2, here)
                        stack.append((v[k2], here + "/" + k2.replace("~", "~0").replace("/", "~1")))
                elif key in _SUBSCHEMA_LIST:
                    if not isinstance(v, list) or (key != "prefixItems" and not v):
                        raise SchemaError("%s is not a non-empty array at %s" % (key, here))
                    for i, b in enumerate(v):
                        stack.append((b, "%s/%d" % (here, i)))
                elif key == "items":
                    if isinstance(v, list):
                        for i, b in enumerate(v):
                            stack.append((b, "%s/%d" % (here, i)))
                    else:
                        stack.append((v, here))
                elif key in _SUBSCHEMA_ONE:
                    stack.append((v, here))

    def _pattern(self, p, where):
        if p not in self.patterns:
            try:
                self.patterns[p] = _compile_pattern(p)
            except (re.error, ecma.PatternError) as e:
                raise SchemaError("pattern %s is not a regular expression (%s) at %s" % (json.dumps(p), e, where))
        return self.patterns[p]

    # -- identifiers ---------------------------------------------------------
    def _index(self):
        """Base URIs of every schema, the resources named by $id, and the anchors."""
        self.base = {}
        self.resources = {}
        self.anchors = {}
        self.dyn_anchors = {}
        root_base = ""
        stack = [(self.root, "")]
        while stack:
            node, base = stack.pop()
            if not isinstance(node, dict):
                continue
            idkey = "id" if self.draft4 else "$id"
            ident = node.get(idkey)
            if isinstance(ident, str) and not (self.old and "$ref" in node):
                if ident.startswith("#"):
                    if self.old and len(ident) > 1:
                        self.anchors[(base, ident[1:])] = node
                else:
                    full, frag = urldefrag(urljoin(base, ident))
                    base = full
                    self.resources[base] = node
                    if self.old and frag:
                        self.anchors[(base, frag)] = node
            if node is self.root:
                root_base = base
            if not self.old:
                if isinstance(node.get("$anchor"), str):
                    self.anchors[(base, node["$anchor"])] = node
                if isinstance(node.get("$dynamicAnchor"), str):
                    self.anchors.setdefault((base, node["$dynamicAnchor"]), node)
                    self.dyn_anchors[(base, node["$dynamicAnchor"])] = node
            self.base[id(node)] = base
            for key, v in node.items():
                if key in _SUBSCHEMA_MAP and isinstance(v, dict):
                    stack.extend((x, base) for x in v.values())
                elif key in _SUBSCHEMA_LIST or key == "items":
                    if isinstance(v, list):
                        stack.extend((x, base) for x in v)
                    else:
                        stack.append((v, base))
                elif key in _SUBSCHEMA_ONE:
                    stack.append((v, base))
        self.root_base = root_base
        self.resources.setdefault(root_base, self.root)

    def _resolve(self, ref, site=None, where=""):
        base = self.base.get(id(site), self.root_base) if site is not None else self.root_base
        full, frag = urldefrag(urljoin(base, ref)) if ref else (base, "")
        if ref.startswith("#"):
            full = base
        res = self.resources.get(full)
        if res is None:
            raise SchemaError("$ref %s does not resolve: %s is another document, which was not supplied, at %s"
                              % (json.dumps(ref), json.dumps(full), where or "(root)"))
        if not frag:
            return res
        if frag.startswith("/"):
            node = res
            for part in frag[1:].split("/"):
                part = unquote(part).replace("~1", "/").replace("~0", "~")
                if isinstance(node, dict) and part in node:
                    node = node[part]
                elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                    node = node[int(part)]
                else:
                    raise SchemaError("$ref %s does not resolve: no member %s at %s" % (json.dumps(ref), json.dumps(part), where or "(root)"))
            if isinstance(node, dict) and id(node) not in self.base:
                self.base[id(node)] = full
            return node
        found = self.anchors.get((full, unquote(frag)))
        if found is None:
            raise SchemaError("$ref %s does not resolve: no anchor %s at %s" % (json.dumps(ref), json.dumps(frag), where or "(root)"))
        return found

    def _dynamic(self, s):
        """The target of a $dynamicRef (2020-12) or $recursiveRef (2019-09), read statically:
        the outermost resource, the root, wins when it has the anchor."""
        if self.old:
            return None
        if "$dynamicRef" in s and self.draft == "2020-12":
            ref = s["$dynamicRef"]
            target = self._resolve(ref, s)
            frag = urldefrag(ref)[1]
            if isinstance(target, dict) and target.get("$dynamicAnchor") == frag:
                outer = self.dyn_anchors.get((self.root_base, frag))
                if outer is not None:
                    return outer
            return target
        if "$recursiveRef" in s and self.draft == "2019-09":
            target = self._resolve(s["$recursiveRef"], s)
            if isinstance(target, dict) and target.get("$recursiveAnchor") is True:
                if isinstance(self.root, dict) and self.root.get("$recursiveAnchor") is True:
                    return self.root
            return target
        return None

    # -- declared types ------------------------------------------------------
    def own_types(self, s, visiting=()):
        """The set of JSON types schema s declares, or None when it declares nothing."""
        if s is True or s is None:
            return None
        if s is False:
            return frozenset()
        if id(s) in visiting:
            return None
        visiting = visiting + (id(s),)
        sets = []
        if "$ref" in s:
            target = self._resolve(s["$ref"], s)
            t = self.own_types(target, visiting)
            if self.old:
                return t
            if t is not None:
                sets.append(t)
        dyn = self._dynamic(s)
        if dyn is not None:
            t = self.own_types(dyn, visiting)
            if t is not None:
                sets.append(t)
        if "type" in s:
            t = s["type"]
            names = set(t) if isinstance(t, list) else {t}
            if s.get("nullable") is True:
                names.add("null")
            sets.append(frozenset(names))
        if _MODE_A and "allOf" in s:
            merged = set()
            for b in s["allOf"]:
                t = self.own_types(b, visiting)
                if t is not None:
                    merged |= t
            if merged:
                sets.append(frozenset(merged))
        else:
            for b in s.get("allOf", ()):
                t = self.own_types(b, visiting)
                if t is not None:
                    sets.append(t)
        for key in ("anyOf", "oneOf"):
            if key in s:
                u = set()
                for b in s[key]:
                    t = self.own_types(b, visiting)
                    if t is None:
                        u = None
                        break
                    u |= t
                if u is not None:
                    sets.append(frozenset(u))
        if not sets:
            return None
        out = sets[0]
        for t in sets[1:]:
            out = _intersect(out, t)
        return out

    def expand(self, s, jtype, visiting=()):
        """The schemas that apply at a position of JSON type jtype, for looking below it:
        a list of alternatives, each a list of schemas that all apply."""
        if not isinstance(s, dict):
            return [[s]]
        if id(s) in visiting:
            return [[True]]
        visiting = visiting + (id(s),)
        conj = [[s]]
        if "$ref" in s:
            sub = self.expand(self._resolve(s["$ref"], s), jtype, visiting)
            if self.old:
                return sub
            conj = _product(conj, sub)
        dyn = self._dynamic(s)
        if dyn is not None:
            conj = _product(conj, self.expand(dyn, jtype, visiting))
        for b in s.get("allOf", ()):
            conj = _product(conj, self.expand(b, jtype, visiting))
        for key in ("anyOf", "oneOf"):
            if key in s:
                alts = []
                for b in s[key]:
                    if _admits(self.own_types(b), jtype):
                        alts.extend(self.expand(b, jtype, visiting))
                conj = _product(conj, alts)
        return conj

    def child_of_object(self, s, key):
        """The schemas that apply to member key under schema s (one schema's view)."""
        if not isinstance(s, dict):
            return [s] if s is False else []
        out = []
        matched = False
        props = s.get("properties")
        if isinstance(props, dict) and key in props:
            out.append(props[key])
            matched = True
        pats = s.get("patternProperties")
        if isinstance(pats, dict):
            for p, sub in pats.items():
                if self._pattern(p, "").search(key):
                    out.append(sub)
                    matched = True
        if _MODE_C:
            matched = isinstance(props, dict) and key in props
        if not matched and "additionalProperties" in s:
            out.append(s["additionalProperties"])
        return out

    def child_of_array(self, s, index):
        if not isinstance(s, dict):
            return [s] if s is False else []
        items = s.get("items")
        prefix = s.get("prefixItems")
        if isinstance(prefix, list):
            if index < len(prefix):
                return [prefix[index]]
            return [items] if items is not None and not isinstance(items, list) else []
        if isinstance(items, list):
            if index < len(items):
                return [items[index]]
            return [s["additionalItems"]] if "additionalItems" in s else []
        if items is not None:
            return [items]
        return []


def _intersect(a, b):
    out = set(a & b)
    if "integer" in a and "number" in b:
        out.add("integer")
    if "integer" in b and "number" in a:
        out.add("integer")
    return frozenset(out)


def _admits(types, jtype):
    if types is None:
        return True
    if jtype in types:
        return True
    return False


def _product(conj, alts):
    out = []
    for c in conj:
        for a in alts:
            out.append(c + a)
    return out


# A position: a list of alternatives, each a list of schemas that all apply.


def _position_types(schema, pos):
    union = set()
    for conj in pos:
        t = None
        for s in conj:
            st = schema.own_types(s)
            if st is None:
                continue
            t = st if t is None else _intersect(t, st)
        if t is None:
            return None
        union |= t
    return frozenset(union)


def _below(schema, pos, value):
    jtype = "object" if isinstance(value, dict) else "array"
    alts = []
    for conj in pos:
        sub = [[]]
        for s in conj:
            sub = _product(sub, schema.expand(s, jtype))
        alts.extend(sub)
    return alts


def _child_pos(schema, below, key=None, index=None):
    out = []
    for conj in below:
        c = []
        for s in conj:
            if key is not None:
                c.extend(schema.child_of_object(s, key))
            else:
                c.extend(schema.child_of_array(s, index))
        out.append(c)
    return out


# ---------------------------------------------------------------------------
# Normalization
# ---------------------------------------------------------------------------


def _shape_ok(types, value):
    if types is None or "string" in types:
        return False
    if isinstance(value, list):
        return "array" in types
    if isinstance(value, dict):
        return "object" in types
    return False


_MODE_B = "s2" in _OPT
_MODE_F = "s6" in _OPT


def _leaves(value, depth):
    if depth > MAX_DEPTH and isinstance(value, (dict, list)):
        raise ArgumentsError("nesting deeper than %d levels" % MAX_DEPTH)
    if isinstance(value, str):
        return decode_entities(value)
    if isinstance(value, dict):
        return {k: _leaves(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_leaves(v, depth + 1) for v in value]
    return value


def _decoded(schema, pos, value, depth):
    """A value decoded from a string, normalized in its turn."""
    if _MODE_F:
        return _leaves(value, depth)
    return _norm(schema, pos, value, depth)


def _norm(schema, pos, value, depth):
    if depth > MAX_DEPTH and isinstance(value, (dict, list)):
        raise ArgumentsError("nesting deeper than %d levels" % MAX_DEPTH)
    if isinstance(value, str):
        types = _position_types(schema, pos) if pos else None
        if types is not None and "string" not in types and ("array" in types or "object" in types):
            parsed = _parse_json(value)
            if _shape_ok(types, parsed):
                return _decoded(schema, pos, parsed, depth)
            text = decode_entities(value)
            if text != value:
                parsed = _parse_json(text)
                if _shape_ok(types, parsed):
                    return _decoded(schema, pos, parsed, depth)
            return text
        return decode_entities(value)
    if isinstance(value, dict):
        below = _below(schema, pos, value) if pos else []
        if _MODE_B:
            scalars = {k: v for k, v in value.items() if not isinstance(v, (str, dict, list))}
            work = {k: _norm(schema, _child_pos(schema, below, key=k) if below else [], v, depth + 1)
                    for k, v in value.items() if k not in scalars}
            return {**work, **scalars}
        out = {}
        for k, v in value.items():
            cp = _child_pos(schema, below, key=k) if below else []
            out[k] = _norm(schema, cp, v, depth + 1)
        return out
    if isinstance(value, list):
        below = _below(schema, pos, value) if pos else []
        return [_norm(schema, _child_pos(schema, below, index=i) if below else [], v, depth + 1)
                for i, v in enumerate(value)]
    return value


def normalize(schema, arguments):
    if not isinstance(arguments, dict):
        raise ArgumentsError("arguments are not a JSON object")
    compiled = Schema(schema)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 12 * MAX_DEPTH))
    try:
        return _norm(compiled, [[schema]], arguments, 1)
    finally:
        sys.setrecursionlimit(limit)
