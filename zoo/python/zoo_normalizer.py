"""The bug zoo's Python normalizer: RT-TOOL-8 as toolnorm reads it (docs/readings.md), written
the way Python writes it, standard library only, with switches that each plant one bug as real
Python code plants it.

    normalize(schema, arguments)                         # the rule: no root cause in toolnorm check
    normalize(schema, arguments, {"py-html-unescape"})   # the same with one bug planted

adapter.py serves it over toolnorm's protocol with the switches of ZOO_SWITCHES; SWITCHES below
says in one line what each one does wrong, and zoo/switches.json which deviation explains it. The
code of a switch sits where the bug would sit, under `if self.bug("...")`: it is meant to read as
the code a developer wrote, not as a reimplementation of toolnorm's catalogue.

The function gets what the kit (kits/python/toolnorm_kit.py) reads: dicts, lists, str, numbers
that keep their text (int and float subclasses with a .text), True/False/None. What it makes
itself keeps the same: a number it decodes keeps its text, an object it decodes keeps its members
in order and its duplicates (Members, a dict that remembers its pairs).
"""
import html
import html.entities
import json
import re
import sys
import unicodedata
from urllib.parse import unquote

MAX_DEPTH = 1000  # arrays and objects nested deeper than this are an error (readings section 8)
TYPES = frozenset({"null", "boolean", "object", "array", "number", "integer", "string"})
DRAFT_DEFAULT = 2020

# What each switch does wrong, in behaviour. zoo/switches.json maps each to the deviations that
# explain it; the witness of each is in witnesses.json beside this file.
SWITCHES = {
    # The JSON repair.
    "py-json-top-level-loop": "JSON repair only in a loop over the arguments' own members",
    "py-json-loads-any-value": "whatever the string parses to is substituted where array/object is declared",
    "py-json-container-check": "a parsed list or dict is substituted whichever of the two was declared",
    "py-json-schema-blind": "every string holding a JSON array or object is decoded, whatever is declared",
    "py-json-type-list-any": "decodes where a type list admits string beside array/object",
    "py-json-string-too-long": "decodes where string is admitted beside array/object but the string breaks maxLength/minLength",
    "py-json-bracket-check": "only strings that start with [ or { and end with ] or } are tried as JSON (padding refused)",
    "py-json-nan": "json.loads reads NaN and Infinity in decoded text (an error when written back)",
    "py-json-no-recurse": "a value decoded from a string is returned as parsed, nothing repaired inside it",
    "py-json-loads-unguarded": "json.loads without try: an error where a declared array/object string does not parse",
    "py-json-none": "no JSON repair at all",
    "py-json-plain-dict": "decoded objects are plain dicts: duplicate members collapse to the last value",
    # The order of the repairs.
    "py-unescape-then-loads": "references decoded first, JSON tried once on the result",
    "py-loads-no-retry": "JSON tried on the string as sent only, not again once references are decoded",
    # The entity repair.
    "py-html-unescape": "html.unescape to a fixpoint: references to invalid code points decode to nothing",
    "py-html-unescape-once": "html.unescape once: one pass, invalid code points dropped",
    "py-unescape-top-level": "references decoded only in the arguments' own members",
    "py-top-level-only": "both repairs only on the arguments' own members",
    "py-semicolon-regex": "a regex that needs the ; of every reference",
    "py-basic-entities": "a small table: amp, lt, gt, quot, apos and numeric references",
    "py-html4-names": "the table of html.entities.name2codepoint (HTML 4)",
    "py-decimal-only": "&#x hex references are not decoded",
    "py-lowercase-lookup": "a name not in the table is looked up again in lower case",
    "py-chr-int": "chr(int(n)) for numeric references: no windows-1252, no U+FFFD for 0 and surrogates",
    # Reading the schema.
    "py-type-equals": "if schema.get('type') == 'array': a type list declares nothing",
    "py-no-ref": "$ref is not followed",
    "py-no-allof": "allOf is not followed",
    "py-first-allof": "only the first allOf branch is followed",
    "py-no-oneof": "oneOf is not followed",
    "py-no-items": "items (a schema) is not followed",
    "py-no-tuple-items": "a draft-4 items list (and additionalItems after it) is not followed",
    "py-no-pattern-properties": "patternProperties is not followed",
    "py-nested-properties": "properties is read only for the arguments' own members",
    "py-ref-replaces": "$ref replaces its siblings in every draft",
    "py-ref-items": "an array's items are not looked up behind its $ref",
    # The output.
    "py-unescape-keys": "keys get the entity repair too",
    "py-strip": "every string is .strip()ped",
    "py-drop-none": "members whose value is None are dropped",
    "py-coerce-scalars": "strings are converted to the declared number or boolean",
    "py-sort-keys": "members are sorted by key",
    "py-validate": "the repaired arguments are validated: an error where a value's type is not declared",
}


class SchemaError(ValueError):
    """A schema the rule rejects (readings section 4, compile-time errors)."""


class Int(int):
    """An integer decoded from a string, with its text (the kit writes .text back)."""


class Float(float):
    """A number with a fraction or an exponent decoded from a string, with its text."""


class Members(dict):
    """An object as JSON text had it: its members in order, duplicates included. A dict keeps
    one value per key; items() gives every pair, and the kit writes what items() gives."""

    def __init__(self, pairs=()):
        self.pairs = list(pairs)
        super().__init__(self.pairs)

    def items(self):
        return iter(self.pairs)

    def __iter__(self):
        return (k for k, _ in self.pairs)

    def __len__(self):
        return len(self.pairs)

    def values(self):
        return (v for _, v in self.pairs)


def _int(text):
    n = Int(text)
    n.text = text
    return n


def _float(text):
    n = Float(text)
    n.text = text
    return n


def _not_json(name):
    raise ValueError(f"{name} is not JSON")


# ---------------------------------------------------------------------------------------------
# HTML character references: one pass is the HTML tokenizer's in text content (readings section 1)

NAMED = html.entities.html5  # the 2,231 names, "amp;" and the legacy "amp" both
LONGEST_NAME = max(map(len, NAMED))
WINDOWS_1252 = {
    0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020,
    0x87: 0x2021, 0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152,
    0x8E: 0x017D, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022,
    0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC, 0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A,
    0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
}
ASCII_ALNUM = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
DIGITS = frozenset("0123456789")
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
BASIC_NAMES = ("amp", "lt", "gt", "quot", "apos")
SEMICOLON_REF = re.compile(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def code_point(digits, base):
    """The character a numeric reference stands for, as the tokenizer maps it."""
    digits = digits.lstrip("0")
    if len(digits) > (6 if base == 16 else 7):
        return "\ufffd"  # past U+10FFFF, however many digits
    n = int(digits, base) if digits else 0
    if n == 0 or n > 0x10FFFF or 0xD800 <= n <= 0xDFFF:
        return "\ufffd"
    return chr(WINDOWS_1252.get(n, n))


# ---------------------------------------------------------------------------------------------
# URIs (RFC 3986) and patterns (ECMA-262 with the u flag, translated for re)

_URI = re.compile(r"^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$", re.S)


def _remove_dots(path):
    out = []
    while path:
        if path.startswith("../"):
            path = path[3:]
        elif path.startswith("./"):
            path = path[2:]
        elif path.startswith("/./"):
            path = path[2:]
        elif path == "/.":
            path = "/"
        elif path.startswith("/../"):
            path = path[3:]
            if out:
                out.pop()
        elif path == "/..":
            path = "/"
            if out:
                out.pop()
        elif path in (".", ".."):
            path = ""
        else:
            i = path.find("/", 1)
            i = len(path) if i < 0 else i
            out.append(path[:i])
            path = path[i:]
    return "".join(out)


def resolve_uri(base, ref):
    """ref resolved against base: (the URI without its fragment, the fragment or None)."""
    s, a, p, q, f = _URI.match(ref).groups()
    if s is None:
        bs, ba, bp, bq, _ = _URI.match(base).groups()
        if a is None:
            if p == "":
                p, q = bp, (q if q is not None else bq)
            elif p.startswith("/"):
                p = _remove_dots(p)
            else:
                merged = "/" + p if ba is not None and bp == "" else bp[:bp.rfind("/") + 1] + p
                p = _remove_dots(merged)
            a = ba
        else:
            p = _remove_dots(p)
        s = bs
    else:
        p = _remove_dots(p)
    uri = (s + ":" if s is not None else "") + ("//" + a if a is not None else "") + p
    if q is not None:
        uri += "?" + q
    return uri, f


ECMA_SPACE = "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
CLASS_ESCAPES = {"d": "0-9", "w": "A-Za-z0-9_", "s": ECMA_SPACE}
SYNTAX = frozenset("^$\\.*+?()[]{}|/")
CONTROL_ESCAPES = {"f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_QUANTIFIER = re.compile(r"\{[0-9]+(,[0-9]*)?\}")
_categories = {}


def _category_class(name, negate):
    """A class for \\p{General_Category}: the code points unicodedata puts in it."""
    if name not in _categories:
        long_names = {"Letter": "L", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Number": "N",
                      "Decimal_Number": "Nd", "Punctuation": "P", "Symbol": "S", "Separator": "Z",
                      "Mark": "M", "Other": "C", "Control": "Cc", "digit": "Nd"}
        gc = long_names.get(name.split("=", 1)[-1], name.split("=", 1)[-1])
        if not re.fullmatch(r"[LMNPSZC][a-z]?", gc):
            raise SchemaError(f"\\p{{{name}}} is not supported here")
        ranges, start = [], None
        for cp in range(0x110001):
            inside = cp < 0x110000 and unicodedata.category(chr(cp)).startswith(gc)
            if inside and start is None:
                start = cp
            elif not inside and start is not None:
                ranges.append(f"\\U{start:08x}-\\U{cp - 1:08x}")
                start = None
        _categories[name] = "".join(ranges)
    return ("[^" if negate else "[") + _categories[name] + "]"


def ecma_pattern(p):
    """p, an ECMA-262 regular expression read with the u flag, as a compiled re pattern;
    SchemaError where ECMA-262 refuses it."""
    groups = []
    i = 0
    while i < len(p):  # the capturing groups, for backreferences
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i += 1
            while i < len(p) and p[i] != "]":
                i += 2 if p[i] == "\\" else 1
        elif c == "(":
            m = re.match(r"\(\?<([A-Za-z_$][A-Za-z0-9_$]*)>", p[i:])
            if m:
                groups.append(m.group(1))
            elif not p.startswith("(?", i):
                groups.append(None)
        i += 1

    def bad(why):
        raise SchemaError(f"pattern {json.dumps(p)} is not an ECMA-262 regular expression (u flag): {why}")

    def escape(i, in_class):
        """The escape at p[i] (a backslash) as re text, and where it ends."""
        if i + 1 >= len(p):
            bad("\\ at the end")
        c = p[i + 1]
        if c in CLASS_ESCAPES or c.lower() in CLASS_ESCAPES:
            body = CLASS_ESCAPES[c.lower()]
            if in_class:
                return (body if c.islower() else "\\" + {"d": "D", "w": "W", "s": "S"}[c.lower()]), i + 2
            return ("[" if c.islower() else "[^") + body + "]", i + 2
        if c in "bB" and not in_class:
            return "\\" + c, i + 2
        if c == "b":
            return "\\x08", i + 2
        if c == "-" and in_class:
            return "\\-", i + 2
        if c in SYNTAX:
            return "\\" + c, i + 2
        if c in CONTROL_ESCAPES:
            return re.escape(CONTROL_ESCAPES[c]), i + 2
        if c == "0" and not (i + 2 < len(p) and p[i + 2] in DIGITS):
            return "\\x00", i + 2
        if c in "123456789" and not in_class:
            m = re.match(r"[0-9]+", p[i + 1:])
            n = int(m.group())
            if n > len(groups):
                bad(f"\\{n} refers to no group")
            return f"(?:\\{n})", i + 1 + len(m.group())
        if c == "k" and not in_class:
            m = re.match(r"k<([A-Za-z_$][A-Za-z0-9_$]*)>", p[i + 1:])
            if not m or m.group(1) not in groups:
                bad("\\k names no group")
            return f"(?P={m.group(1)})", i + 1 + len(m.group())
        if c == "c" and i + 2 < len(p) and p[i + 2].isascii() and p[i + 2].isalpha():
            return re.escape(chr(ord(p[i + 2]) % 32)), i + 3
        if c == "x":
            m = re.match(r"x([0-9a-fA-F]{2})", p[i + 1:])
            if not m:
                bad("\\x needs two hex digits")
            return re.escape(chr(int(m.group(1), 16))), i + 4
        if c == "u":
            m = re.match(r"u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})", p[i + 1:])
            if not m:
                bad("\\u needs four hex digits or braces")
            n = int(m.group(1) or m.group(2), 16)
            end = i + 1 + len(m.group())
            if n > 0x10FFFF:
                bad("\\u{} past U+10FFFF")
            lo = re.match(r"\\u([dD][c-fC-F][0-9a-fA-F]{2})", p[end:])
            if m.group(2) and 0xD800 <= n <= 0xDBFF and lo:
                n = 0x10000 + ((n - 0xD800) << 10) + (int(lo.group(1), 16) - 0xDC00)
                end += 6
            return re.escape(chr(n)), end
        if c in "pP":
            m = re.match(r"[pP]\{([A-Za-z_=]+)\}", p[i + 1:])
            if not m:
                bad("\\p needs braces")
            cls = _category_class(m.group(1), c == "P")
            return (cls[1:-1] if in_class and c == "p" else cls), i + 1 + len(m.group())
        bad(f"\\{c} is no escape")

    out = []
    i = 0
    while i < len(p):
        c = p[i]
        if c == "\\":
            text, i = escape(i, False)
            out.append(text)
        elif c == "[":
            i += 1
            negate = p.startswith("^", i)
            i += negate
            items = []
            while True:
                if i >= len(p):
                    bad("unterminated class")
                if p[i] == "]":
                    i += 1
                    break
                if p[i] == "\\":
                    lo, i = escape(i, True)
                else:
                    lo, i = re.escape(p[i]), i + 1
                if p.startswith("-", i) and i + 1 < len(p) and p[i + 1] != "]":
                    if p[i + 1] == "\\":
                        hi, j = escape(i + 1, True)
                    else:
                        hi, j = re.escape(p[i + 1]), i + 2
                    if len(lo) > 2 and not lo.startswith("\\") or lo.startswith("\\") and lo[1:2] in "dDwWsS" \
                            or hi.startswith("\\") and hi[1:2] in "dDwWsS":
                        bad("a class in a range")
                    items.append(lo + "-" + hi)
                    i = j
                else:
                    items.append(lo)
            if not items:
                out.append("[\\s\\S]" if negate else "(?!)")
            else:
                out.append(("[^" if negate else "[") + "".join(items) + "]")
        elif c == "(":
            if p.startswith("(?", i):
                m = re.match(r"\(\?(?::|=|!|<=|<!|<([A-Za-z_$][A-Za-z0-9_$]*)>)", p[i:])
                if not m:
                    bad("invalid group")
                out.append(f"(?P<{m.group(1)}>" if m.group(1) else m.group())
                i += len(m.group())
            else:
                out.append("(")
                i += 1
        elif c == "{":
            m = _QUANTIFIER.match(p, i)
            if not m:
                bad("a lone {")
            out.append(m.group())
            i = m.end()
        elif c in "}]":
            bad(f"a lone {c}")
        elif c == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
            i += 1
        elif c == "$":
            out.append("\\Z")
            i += 1
        elif c in "^*+?|)":
            out.append(c)
            i += 1
        else:
            out.append(re.escape(c))
            i += 1
    try:
        return re.compile("".join(out), re.ASCII)
    except (re.error, OverflowError, RecursionError) as e:
        raise SchemaError(f"pattern {json.dumps(p)} is not an ECMA-262 regular expression (u flag): {e}") from None


# ---------------------------------------------------------------------------------------------
# What the schema declares at a position (readings section 4)

DRAFTS = {"draft-04": 4, "draft-06": 6, "draft-07": 7, "draft/2019-09": 2019, "draft/2020-12": 2020}
_DRAFT_URI = re.compile(r"https?://json-schema\.org/(draft-0[467]|draft/2019-09|draft/2020-12)/schema#?")
# Keywords whose values are schemas, where identifiers ($id, $anchor) are found.
IN_PLACE = ("additionalProperties", "items", "additionalItems", "not", "if", "then", "else", "contains",
            "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
IN_LISTS = ("items", "prefixItems", "allOf", "anyOf", "oneOf")
IN_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")


class Cycle(Exception):
    """A $ref/allOf/anyOf/oneOf path that came back to the schema it started from."""

    def __init__(self, key):
        super().__init__(key)
        self.key = key


class Nothing:
    """A position the schema says nothing about: only the entity repair applies."""
    types = TYPES

    def prop(self, key, top=False):
        return self

    def item(self, index):
        return self

    def limits(self):
        return ()


NOTHING = Nothing()


class All:
    """Schemas that apply together: their types intersect."""

    def __init__(self, parts):
        self.parts = parts
        types = TYPES
        for p in parts:
            types = types & p.types
        self.types = types

    def prop(self, key, top=False):
        return conjunction([p.prop(key, top) for p in self.parts])

    def item(self, index):
        return conjunction([p.item(index) for p in self.parts])

    def limits(self):
        return tuple(x for p in self.parts for x in p.limits())


class Some:
    """anyOf or oneOf: alternatives, their types a union; below, only those admitting the value."""

    def __init__(self, branches):
        self.branches = branches
        types = frozenset()
        for b in branches:
            types = types | b.types
        self.types = types

    def prop(self, key, top=False):
        return union([b.prop(key, top) for b in self.branches if "object" in b.types])

    def item(self, index):
        return union([b.item(index) for b in self.branches if "array" in b.types])

    def limits(self):
        return ()


class Behind:
    """What a $ref leads to, as a part of the schema beside it."""

    def __init__(self, node, nz):
        self.node, self.nz = node, nz
        self.types = node.types

    def prop(self, key, top=False):
        return self.node.prop(key, top)

    def item(self, index):
        if self.nz.bug("py-ref-items"):
            # items looked up on the schema as written, where a $ref has none
            return NOTHING
        return self.node.item(index)

    def limits(self):
        return self.node.limits()


def conjunction(parts):
    parts = [p for p in parts if p is not NOTHING]
    if not parts:
        return NOTHING
    return parts[0] if len(parts) == 1 else All(parts)


def alternatives(branches):
    """anyOf, oneOf: one branch too contributes below only where it admits the value."""
    if any(b is NOTHING for b in branches):
        return NOTHING
    return Some(branches)


def union(children):
    """What the admitted branches declare at a position below them: one is just itself."""
    if not children or any(c is NOTHING for c in children):
        return NOTHING
    return children[0] if len(children) == 1 else Some(children)


class Leaf:
    """One schema object's own keywords: type, nullable, and the schemas of its children."""

    def __init__(self, doc, schema, scope):
        self.doc, self.schema, self.scope = doc, schema, scope
        nz = doc.nz
        t = schema.get("type")
        if t is None or (isinstance(t, list) and nz.bug("py-type-equals")):
            self.types = TYPES
        else:
            self.types = frozenset([t] if isinstance(t, str) else t)
            if schema.get("nullable") is True:
                self.types |= {"null"}

    def limits(self):
        s = self.schema
        return tuple((k, s[k]) for k in ("minLength", "maxLength") if isinstance(s.get(k), int)
                     and not isinstance(s.get(k), bool))

    def sub(self, schema):
        return self.doc.node(schema, self.scope)

    def prop(self, key, top=False):
        s, nz = self.schema, self.doc.nz
        parts, matched = [], False
        props = s.get("properties")
        if nz.bug("py-nested-properties") and not top:
            props = None  # properties = schema["properties"] if it is the tool's schema
        if isinstance(props, dict) and key in props:
            parts.append(self.sub(props[key]))
            matched = True
        if not nz.bug("py-no-pattern-properties"):
            for pattern, schema in (s.get("patternProperties") or {}).items():
                if self.doc.pattern(pattern).search(key):
                    parts.append(self.sub(schema))
                    matched = True
        if not matched and "additionalProperties" in s:
            parts.append(self.sub(s["additionalProperties"]))
        return conjunction(parts)

    def item(self, index):
        s, nz = self.schema, self.doc.nz
        items, prefix = s.get("items"), s.get("prefixItems")
        if isinstance(prefix, list):
            if index < len(prefix):
                return self.sub(prefix[index])
            if isinstance(items, (dict, bool)) and not nz.bug("py-no-items"):
                return self.sub(items)
            return NOTHING
        if isinstance(items, list):
            if nz.bug("py-no-tuple-items"):
                return NOTHING  # if isinstance(items, dict): ... nothing else
            if index < len(items):
                return self.sub(items[index])
            return self.sub(s["additionalItems"]) if "additionalItems" in s else NOTHING
        if items is not None and not nz.bug("py-no-items"):
            return self.sub(items)
        return NOTHING


class Document:
    """A tool's schema, compiled: its resources, anchors and compile-time errors, and the node of
    each position, read once for each dynamic scope that reaches it."""

    def __init__(self, root, nz):
        self.root, self.nz = root, nz
        self.where = {}       # id(schema) -> (base URI, draft)
        self.resources = {}   # URI -> schema
        self.anchors = {}     # (URI, name) -> schema
        self.dynamic = {}     # (URI, $dynamicAnchor) -> schema
        self.recursive = set()  # URIs of resources with "$recursiveAnchor": true
        self.patterns = {}
        self.nodes = {}
        self.path = set()
        self.scoped = False   # whether any $dynamicRef or $recursiveRef is there to bind
        if not isinstance(root, (dict, bool)):
            raise SchemaError(f"a schema must be an object or a boolean, not {kind(root)}")
        self.resources[""] = root
        self.scan(root, "", DRAFT_DEFAULT, True)
        self.check(root, "")

    # -- finding resources and anchors

    def scan(self, s, base, draft, root=False):
        if not isinstance(s, dict):
            return
        idkw = "id" if draft == 4 else "$id"
        ref_only = draft <= 7 and "$ref" in s
        ident = s.get(idkw) if not ref_only else None
        if isinstance(s.get("$schema"), str) and (root or isinstance(ident, str)):
            m = _DRAFT_URI.fullmatch(s["$schema"])
            if m:
                draft = DRAFTS[m.group(1)]
                idkw = "id" if draft == 4 else "$id"
                ref_only = draft <= 7 and "$ref" in s
                ident = s.get(idkw) if not ref_only else None
        if isinstance(ident, str):
            uri, fragment = resolve_uri(base, ident)
            if ident.startswith("#"):
                if fragment:
                    self.anchors[(uri, fragment)] = s
            else:
                base = uri
                self.resources[uri] = s
                if fragment:
                    self.anchors[(uri, fragment)] = s
        if not ref_only:
            if draft >= 2019 and isinstance(s.get("$anchor"), str):
                self.anchors[(base, s["$anchor"])] = s
            if draft >= 2020 and isinstance(s.get("$dynamicAnchor"), str):
                self.anchors[(base, s["$dynamicAnchor"])] = s
                self.dynamic[(base, s["$dynamicAnchor"])] = s
            if draft == 2019 and s.get("$recursiveAnchor") is True:
                self.recursive.add(base)
            if (draft == 2020 and "$dynamicRef" in s) or (draft == 2019 and "$recursiveRef" in s):
                self.scoped = True
        self.where[id(s)] = (base, draft)
        for kw in IN_PLACE:
            if isinstance(s.get(kw), dict):
                self.scan(s[kw], base, draft)
        for kw in IN_LISTS:
            if isinstance(s.get(kw), list):
                for sub in s[kw]:
                    self.scan(sub, base, draft)
        for kw in IN_MAPS:
            if isinstance(s.get(kw), dict):
                for sub in s[kw].values():
                    self.scan(sub, base, draft)

    def context(self, s, near):
        return self.where.get(id(s)) or self.where.get(id(near)) or ("", DRAFT_DEFAULT)

    # -- compile-time errors, in document order

    def check(self, s, at):
        if isinstance(s, bool):
            return
        if not isinstance(s, dict):
            raise SchemaError(f"a schema must be an object or a boolean, not {kind(s)} at {at or '(root)'}")
        _, draft = self.context(s, self.root)
        ref_only = draft <= 7 and "$ref" in s
        for kw, v in s.items():
            where = f"{at}/{kw}"
            if ref_only and kw not in ("$ref", "$defs", "definitions"):
                continue
            if kw == "type":
                for t in (v if isinstance(v, list) else [v]):
                    if not isinstance(t, str):
                        raise SchemaError(f"a type must be a string, not {kind(t)} at {where}")
                    if t not in TYPES:
                        raise SchemaError(f"unknown type {json.dumps(t)} at {where}")
            elif kw == "nullable" and "type" in s and not isinstance(v, bool):
                raise SchemaError(f"nullable must be a boolean, not {kind(v)} at {where}")
            elif kw == "$ref" or (kw == "$dynamicRef" and draft == 2020) or (kw == "$recursiveRef" and draft == 2019):
                if not isinstance(v, str):
                    raise SchemaError(f"{kw} must be a string, not {kind(v)} at {where}")
                self.resolve(s, v)
            elif kw in ("properties", "patternProperties", "$defs", "definitions"):
                if not isinstance(v, dict):
                    raise SchemaError(f"{kw} must be an object, not {kind(v)} at {where}")
                for k, sub in v.items():
                    if kw == "patternProperties":
                        self.pattern(k)
                    self.check(sub, f"{where}/{k}")
            elif kw in ("additionalProperties", "additionalItems"):
                self.check(v, where)
            elif kw == "items" and isinstance(v, list) or kw == "prefixItems":
                if not isinstance(v, list):
                    raise SchemaError(f"{kw} must be an array, not {kind(v)} at {where}")
                for n, sub in enumerate(v):
                    self.check(sub, f"{where}/{n}")
            elif kw == "items":
                self.check(v, where)
            elif kw in ("allOf", "anyOf", "oneOf"):
                if not isinstance(v, list) or not v:
                    raise SchemaError(f"{kw} must be a non-empty array at {where}")
                for n, sub in enumerate(v):
                    self.check(sub, f"{where}/{n}")

    def pattern(self, p):
        if p not in self.patterns:
            self.patterns[p] = ecma_pattern(p)
        return self.patterns[p]

    # -- references

    def resolve(self, s, ref):
        """The schema ref names, written in schema s."""
        base, _ = self.context(s, self.root)
        uri, fragment = resolve_uri(base, ref)
        if uri not in self.resources:
            raise SchemaError(f"$ref {json.dumps(ref)} does not resolve: {uri} is another document, and none was supplied")
        target = self.resources[uri]
        if fragment and not fragment.startswith("/"):
            if (uri, fragment) not in self.anchors:
                raise SchemaError(f"$ref {json.dumps(ref)} does not resolve: no anchor {json.dumps(fragment)}")
            return self.anchors[(uri, fragment)]
        for token in (unquote(fragment).split("/")[1:] if fragment else []):
            token = token.replace("~1", "/").replace("~0", "~")
            if isinstance(target, dict) and token in target:
                target = target[token]
            elif isinstance(target, list) and re.fullmatch(r"0|[1-9][0-9]*", token) and int(token) < len(target):
                target = target[int(token)]
            else:
                raise SchemaError(f"$ref {json.dumps(ref)} does not resolve: no member {json.dumps(token)}")
        if not isinstance(target, (dict, bool)):
            raise SchemaError(f"$ref {json.dumps(ref)} does not resolve to a schema")
        if isinstance(target, dict) and id(target) not in self.where:
            self.where[id(target)] = self.context(self.resources[uri], self.root)
        return target

    def dynamic_target(self, s, ref, scope):
        """$dynamicRef (2020-12): the outermost resource in scope with the anchor, if the first
        target has it."""
        target = self.resolve(s, ref)
        name = resolve_uri("", ref)[1]
        if not isinstance(target, dict) or target.get("$dynamicAnchor") != name:
            return target
        for uri in scope:
            if (uri, name) in self.dynamic:
                return self.dynamic[(uri, name)]
        return target

    def recursive_target(self, s, ref, scope):
        """$recursiveRef (2019-09): the outermost resource in scope with "$recursiveAnchor": true,
        if the first target has it."""
        target = self.resolve(s, ref)
        if not isinstance(target, dict) or target.get("$recursiveAnchor") is not True:
            return target
        for uri in scope:
            if uri in self.recursive:
                return self.resources[uri]
        return target

    # -- nodes

    def node(self, s, scope=()):
        """The node of schema s: what it declares, for each position below it too."""
        if s is True or (isinstance(s, dict) and not s):
            return NOTHING
        if s is False:
            return FALSE
        base, draft = self.context(s, self.root)
        if self.scoped and base not in scope:
            scope = scope + (base,)
        elif not self.scoped:
            scope = ()
        key = (id(s), scope)
        if key in self.nodes:
            return self.nodes[key]
        if key in self.path:
            raise Cycle(key)
        self.path.add(key)
        try:
            node = self.flatten(s, draft, scope)
        except Cycle as c:
            node = NOTHING  # a cycle back to this schema declares nothing
            if c.key != key:
                self.nodes[key] = node
                raise
        finally:
            self.path.discard(key)
        self.nodes[key] = node
        return node

    def flatten(self, s, draft, scope):
        nz = self.nz
        if "$ref" in s and not nz.bug("py-no-ref") and (draft <= 7 or nz.bug("py-ref-replaces")):
            return Behind(self.node(self.resolve(s, s["$ref"]), scope), nz)  # siblings ignored
        parts = [Leaf(self, s, scope)]
        if "$ref" in s and not nz.bug("py-no-ref"):
            parts.append(Behind(self.node(self.resolve(s, s["$ref"]), scope), nz))
        if draft == 2020 and "$dynamicRef" in s:
            parts.append(self.node(self.dynamic_target(s, s["$dynamicRef"], scope), scope))
        if draft == 2019 and "$recursiveRef" in s:
            parts.append(self.node(self.recursive_target(s, s["$recursiveRef"], scope), scope))
        if "allOf" in s and not nz.bug("py-no-allof"):
            branches = s["allOf"][:1] if nz.bug("py-first-allof") else s["allOf"]
            parts.extend(self.node(b, scope) for b in branches)
        if "anyOf" in s:
            parts.append(alternatives([self.node(b, scope) for b in s["anyOf"]]))
        if "oneOf" in s and not nz.bug("py-no-oneof"):
            parts.append(alternatives([self.node(b, scope) for b in s["oneOf"]]))
        if parts[0].types == TYPES and not any(k in s for k in LEAF_KEYWORDS):
            parts = parts[1:]  # nothing of its own: what it refers to says it all
        return conjunction(parts)


LEAF_KEYWORDS = ("properties", "patternProperties", "additionalProperties", "items", "prefixItems",
                 "minLength", "maxLength")


class _False(Nothing):
    """false: admits nothing, declares nothing below."""
    types = frozenset()

    def prop(self, key, top=False):
        return NOTHING

    def item(self, index):
        return NOTHING


FALSE = _False()


def kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    return "an object"


def json_type(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"


# ---------------------------------------------------------------------------------------------
# The normalizer

NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class TooDeep(ValueError):
    """Arrays and objects nested past MAX_DEPTH."""


class Normalizer:
    def __init__(self, switches=()):
        unknown = set(switches) - set(SWITCHES)
        if unknown:
            raise ValueError(f"unknown switches: {', '.join(sorted(unknown))}")
        self.switches = frozenset(switches)
        table = NAMED
        if self.bug("py-basic-entities"):
            table = {k: v for k, v in NAMED.items() if k.rstrip(";") in BASIC_NAMES}
        if self.bug("py-html4-names"):
            table = {k: v for k, v in table.items() if k.rstrip(";") in html.entities.name2codepoint}
        self.table = table

    def bug(self, name):
        return name in self.switches

    # -- the entity repair

    def reference(self, s, i):
        """The reference at s[i] (an &): (what it decodes to, where it ends), or None."""
        c = s[i + 1:i + 2]
        if c == "#":
            j = i + 2
            hexadecimal = s[j:j + 1] in ("x", "X")
            if hexadecimal and self.bug("py-decimal-only"):
                return None
            j += hexadecimal
            allowed = HEX_DIGITS if hexadecimal else DIGITS
            k = j
            while k < len(s) and s[k] in allowed:
                k += 1
            if k == j:
                return None
            end = k + 1 if s[k:k + 1] == ";" else k
            if self.bug("py-chr-int"):
                try:
                    return chr(int(s[j:k].lstrip("0") or "0", 16 if hexadecimal else 10)), end
                except (ValueError, OverflowError):
                    return "\ufffd", end
            return code_point(s[j:k], 16 if hexadecimal else 10), end
        if c not in ASCII_ALNUM or not c:
            return None
        for n in range(min(LONGEST_NAME, len(s) - i - 1), 0, -1):
            name = s[i + 1:i + 1 + n]
            value = self.table.get(name)
            if value is None and self.bug("py-lowercase-lookup"):
                value = self.table.get(name.lower())
            if value is not None:
                return value, i + 1 + n
        return None

    def decode_once(self, s):
        """One pass of the HTML tokenizer's character references over s."""
        if self.bug("py-html-unescape") or self.bug("py-html-unescape-once"):
            return html.unescape(s)
        if self.bug("py-semicolon-regex"):
            def replace(m):
                ref = m.group(1)
                if ref[0] != "#":
                    return self.table.get(ref + ";", m.group())
                if ref[1] in "xX":
                    return m.group() if self.bug("py-decimal-only") else code_point(ref[2:], 16)
                return code_point(ref[1:], 10)
            return SEMICOLON_REF.sub(replace, s)
        out, i = [], 0
        while True:
            j = s.find("&", i)
            if j < 0:
                out.append(s[i:])
                return "".join(out)
            out.append(s[i:j])
            ref = self.reference(s, j)
            if ref is None:
                out.append("&")
                i = j + 1
            else:
                out.append(ref[0])
                i = ref[1]

    def unescape(self, s):
        """s with its references decoded until nothing changes (readings section 2)."""
        if self.bug("py-html-unescape-once"):
            return html.unescape(s)
        while "&" in s:
            decoded = self.decode_once(s)
            if decoded == s:
                break
            s = decoded
        return s

    # -- the JSON repair

    def loads(self, text):
        """text as JSON (RFC 8259, the whole string, whitespace around it allowed), or ValueError."""
        if LONE_SURROGATE.search(text):
            raise ValueError("a lone surrogate is not Unicode text")
        if self.bug("py-json-plain-dict"):
            return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_not_json)
        return json.loads(text, object_pairs_hook=Members, parse_int=_int, parse_float=_float,
                          parse_constant=(lambda name: float(name)) if self.bug("py-json-nan") else _not_json)

    def shapes(self, node, s, depth):
        """The types the JSON repair may put in place of string s at this position."""
        if self.bug("py-json-none"):
            return ()
        if self.bug("py-json-top-level-loop") and depth != 2:
            return ()  # for key, value in arguments.items(): ...
        if self.bug("py-json-schema-blind"):
            return (list, dict)
        types = node.types
        if "string" in types:
            if self.bug("py-json-type-list-any") and types != TYPES:
                types = types - {"string"}
            elif self.bug("py-json-string-too-long") and types != TYPES and not fits(s, node.limits()):
                types = types - {"string"}
            else:
                return ()
        return tuple(t for name, t in (("array", list), ("object", dict)) if name in types)

    def parsed(self, s, shapes):
        """s decoded, where it parses to one of the shapes; else None (and the reason)."""
        if self.bug("py-json-bracket-check") and not (s.startswith(("[", "{")) and s.endswith(("]", "}"))):
            return None, "not JSON"
        try:
            value = self.loads(s)
        except (ValueError, RecursionError):
            return None, "not JSON"
        if self.bug("py-json-loads-any-value"):
            return Parsed(value), None
        if isinstance(value, shapes) or (self.bug("py-json-container-check") and isinstance(value, (list, dict))):
            return Parsed(value), None
        return None, "another shape"

    def repair_string(self, s, node, depth):
        top = depth == 2  # a member of the arguments themselves
        if self.bug("py-top-level-only") and not top:
            return s  # {k: repair(v) for k, v in arguments.items()}
        decode = self.unescape
        if self.bug("py-unescape-top-level") and not top:
            decode = str  # the references of the arguments' own strings only
        shapes = self.shapes(node, s, depth)
        if self.bug("py-unescape-then-loads"):
            s = decode(s)
            got = self.parsed(s, shapes)[0] if shapes else None
            return self.decoded(got.value, node, depth) if got else s
        why = None
        if shapes:
            got, why = self.parsed(s, shapes)
            if got:
                return self.decoded(got.value, node, depth)
        text = decode(s)
        if shapes and text != s and not self.bug("py-loads-no-retry"):
            got, why = self.parsed(text, shapes)
            if got:
                return self.decoded(got.value, node, depth)
        if shapes and why == "not JSON" and self.bug("py-json-loads-unguarded"):
            json.loads(text)  # nobody thought it could fail
            raise ValueError(f"{text!r} is not JSON")
        return text

    def decoded(self, value, node, depth):
        if self.bug("py-json-no-recurse"):
            if nesting(value) + depth - 1 > MAX_DEPTH:
                raise TooDeep(f"nesting too deep: more than {MAX_DEPTH} nested arrays and objects")
            return value  # return json.loads(value)
        return self.repair(value, node, depth)

    # -- the walk

    def repair(self, value, node, depth):
        if isinstance(value, str):
            out = self.repair_string(value, node, depth)
            if isinstance(out, str):
                out = self.finish_string(out, node)
            return out
        if isinstance(value, (list, dict)) and depth > MAX_DEPTH:
            raise TooDeep(f"nesting too deep: more than {MAX_DEPTH} nested arrays and objects")
        if isinstance(value, list):
            return [self.repair(v, node.item(i), depth + 1) for i, v in enumerate(value)]
        if isinstance(value, dict):
            pairs = []
            for k, v in value.items():
                child = node.prop(k, top=depth == 1)
                v = self.repair(v, child, depth + 1)
                if self.bug("py-drop-none") and v is None:
                    continue
                if self.bug("py-unescape-keys"):
                    k = self.unescape(k)
                pairs.append((k, v))
            if self.bug("py-sort-keys"):
                pairs.sort(key=lambda kv: kv[0])
            return Members(pairs)
        return value

    def finish_string(self, s, node):
        if self.bug("py-strip"):
            s = s.strip()
        if self.bug("py-coerce-scalars") and "string" not in node.types:
            if ("number" in node.types or "integer" in node.types) and NUMBER.fullmatch(s):
                return _int(s) if re.fullmatch(r"-?[0-9]+", s) else _float(s)
            if "boolean" in node.types and s in ("true", "false"):
                return s == "true"
        return s

    def validate(self, value, node, at=""):
        """if not valid(value, schema): raise ValueError: every value's type is declared."""
        t = json_type(value)
        if t not in node.types and not (t == "number" and "integer" in node.types):
            raise ValueError(f"{at or '/'}: {t} is not valid here ({', '.join(sorted(node.types)) or 'nothing'} is)")
        if isinstance(value, list):
            for i, v in enumerate(value):
                self.validate(v, node.item(i), f"{at}/{i}")
        elif isinstance(value, dict):
            for k, v in value.items():
                self.validate(v, node.prop(k, top=not at), f"{at}/{k}")

    def __call__(self, schema, arguments):
        """The arguments normalized against the schema; ValueError for what the rule rejects."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 30000))
        try:
            return self.normalize(schema, arguments)
        except RecursionError:
            raise TooDeep("nested too deeply for this normalizer") from None
        finally:
            sys.setrecursionlimit(limit)

    def normalize(self, schema, arguments):
        if self.bug("py-json-none"):
            schema = True  # an entity sanitizer: the schema is never read
        doc = Document(schema, self)
        if not isinstance(arguments, dict):
            raise ValueError(f"arguments must be an object, not {kind(arguments)}")
        root = doc.node(schema)
        out = self.repair(arguments, root, 1)
        if self.bug("py-validate"):
            self.validate(out, root)
        return out


class Parsed:
    """A value json.loads gave (None is a value too)."""

    def __init__(self, value):
        self.value = value


def fits(s, limits):
    for keyword, n in limits:
        if keyword == "maxLength" and len(s) > n or keyword == "minLength" and len(s) < n:
            return False
    return True


def nesting(value):
    """How deeply arrays and objects nest in value (0 for a scalar)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def normalize(schema, arguments, switches=()):
    """The arguments normalized against the schema (RT-TOOL-8), with the switches' bugs."""
    return Normalizer(switches)(schema, arguments)
