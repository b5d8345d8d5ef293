"""What a tool's JSON Schema declares at each position of its arguments (drafts 4 to 2020-12).

Identifiers, anchors and dialects are read with `referencing`'s per-draft specifications; the
walk over the keywords that can declare a type, and the reading of what they declare, is ours
(a schema is not validated: keywords that never declare a type are not read)."""
import os
from urllib.parse import urldefrag, urljoin, unquote

from referencing import jsonschema as rj

from .patterns import compile_pattern, PatternError

_FLAGS = frozenset(f for f in os.environ.get("BLIND_SWITCHES", "").split(",") if f)

TYPES = frozenset(("string", "number", "integer", "boolean", "object", "array", "null"))

_DIALECTS = {
    "json-schema.org/draft-04/schema": 4,
    "json-schema.org/draft-06/schema": 6,
    "json-schema.org/draft-07/schema": 7,
    "json-schema.org/draft/2019-09/schema": 2019,
    "json-schema.org/draft/2020-12/schema": 2020,
}
_SPECS = {4: rj.DRAFT4, 6: rj.DRAFT6, 7: rj.DRAFT7, 2019: rj.DRAFT201909, 2020: rj.DRAFT202012}
if "s2" in _FLAGS:
    _SPECS[4] = rj.DRAFT6
_RECURSIVE = "\x00recursive"
# Boolean schemas as the schema objects they stand for.
_BOOLEAN = {True: {}, False: {} if "s4" in _FLAGS else False}
_EXTRA_MEMBERS = ("additionalProperties", "unevaluatedProperties") if "s6" in _FLAGS else ("additionalProperties",)

# Keywords whose values are subschemas, by shape: where identifiers and anchors may stand.
_SCHEMA_VALUE = ("additionalProperties", "additionalItems", "not", "if", "then", "else", "contains",
                 "propertyNames", "unevaluatedProperties", "unevaluatedItems", "contentSchema")
_SCHEMA_LIST = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


class SchemaError(ValueError):
    pass


def _pointer_text(path):
    if not path:
        return "(root)"
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)


def draft_of(contents, default):
    if not isinstance(contents, dict) or "$schema" not in contents:
        return default
    dialect = contents["$schema"]
    if not isinstance(dialect, str):
        raise SchemaError("$schema is not a string")
    key = dialect.split("://", 1)[-1].rstrip("#")
    return _DIALECTS.get(key, default)


def _join(base, sid, root):
    """The base URI an identifier sid sets, within the resource at base of the document at root."""
    within = root if "s1" in _FLAGS else base
    return urldefrag(urljoin(within, sid))[0]


def _ref_only(contents, draft):
    """Whether a $ref stands for its whole schema: its siblings are ignored before 2019-09."""
    return draft < (7 if "s3" in _FLAGS else 8) and isinstance(contents.get("$ref"), str)


def _id_of(contents, draft):
    if not isinstance(contents, dict):
        return None
    key = "id" if draft == 4 else "$id"
    value = contents.get(key)
    if value is not None and not isinstance(value, str):
        raise SchemaError(f"{key} is not a string")
    return _SPECS[draft].id_of(contents)


def _anchors_of(contents, draft):
    if not isinstance(contents, dict):
        return []
    for key in ("$anchor", "$dynamicAnchor"):
        if key in contents and not isinstance(contents[key], str):
            raise SchemaError(f"{key} is not a string")
    try:
        anchors = list(_SPECS[draft].anchors_in(contents))
    except (AttributeError, TypeError):
        return []
    return [(a.name, isinstance(a, rj.DynamicAnchor)) for a in anchors]


def _subschemas(contents):
    """(path step, subschema) for each schema position directly below contents."""
    for key in _SCHEMA_VALUE:
        if key in contents:
            yield (key,), contents[key]
    if "items" in contents:
        items = contents["items"]
        if isinstance(items, list):
            for i, s in enumerate(items):
                yield ("items", i), s
        else:
            yield ("items",), items
    for key in _SCHEMA_LIST:
        value = contents.get(key)
        if isinstance(value, list):
            for i, s in enumerate(value):
                yield (key, i), s
    for key in _SCHEMA_MAP:
        value = contents.get(key)
        if isinstance(value, dict):
            for k, s in value.items():
                yield (key, k), s
    deps = contents.get("dependencies")
    if isinstance(deps, dict):
        for k, s in deps.items():
            if isinstance(s, (dict, bool)):
                yield ("dependencies", k), s


class Index:
    """The resources and anchors of one schema document."""

    def __init__(self, root, draft):
        self.resources = {}  # uri -> (contents, draft)
        self.anchors = {}  # (uri, name) -> (contents, draft, dynamic)
        self.dynamic_names = {}  # uri -> names of its $dynamicAnchors
        self.recursive = {}  # uri -> has "$recursiveAnchor": true at its root
        self.root_draft = draft_of(root, draft)
        rid = _id_of(root, self.root_draft)
        self.root_base = _join("", rid, "") if rid else ""
        self.resources[""] = (root, self.root_draft)
        self._walk(root)

    def _add_resource(self, uri, contents, draft):
        self.resources.setdefault(uri, (contents, draft))
        self.dynamic_names.setdefault(uri, set())
        self.recursive.setdefault(
            uri, draft == 2019 and isinstance(contents, dict) and contents.get("$recursiveAnchor") is True)

    def _walk(self, root):
        stack = [(root, "", self.root_draft)]
        seen = set()
        while stack:
            contents, base, draft = stack.pop()
            if not isinstance(contents, dict):
                if base == "" and contents is root:
                    self._add_resource(self.root_base, contents, draft)
                continue
            if id(contents) in seen:
                continue
            seen.add(id(contents))
            draft = draft_of(contents, draft)
            sid = _id_of(contents, draft)
            if sid is not None:
                base = _join(base, sid, self.root_base)
                self._add_resource(base, contents, draft)
            elif contents is root:
                self._add_resource(base, contents, draft)
            for name, dynamic in _anchors_of(contents, draft):
                self.anchors.setdefault((base, name), (contents, draft, dynamic))
                if dynamic:
                    self.dynamic_names.setdefault(base, set()).add(name)
            for _, sub in _subschemas(contents):
                stack.append((sub, base, draft))

    def lookup(self, ref, base):
        """The schema ref names from base: (contents, draft, its base URI)."""
        if ref.startswith("#"):
            uri, fragment = base, ref[1:]
        else:
            uri, fragment = urldefrag(urljoin(base, ref))
        if uri not in self.resources:
            raise SchemaError(f"$ref {ref!r} does not resolve: no resource {uri!r}")
        contents, draft = self.resources[uri]
        if not fragment:
            return contents, draft, uri
        if fragment.startswith("/"):
            return self._pointer(ref, contents, draft, uri, fragment)
        found = self.anchors.get((uri, unquote(fragment)))
        if found is None:
            raise SchemaError(f"$ref {ref!r} does not resolve: no anchor {fragment!r}")
        target, tdraft, _ = found
        return target, tdraft, uri

    def _pointer(self, ref, contents, draft, base, fragment):
        tokens = unquote(fragment)[1:].split("/")
        for raw in tokens:
            token = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(contents, dict) and token in contents:
                contents = contents[token]
            elif isinstance(contents, list) and token.isdigit() and (token == "0" or token[0] != "0") \
                    and int(token) < len(contents):
                contents = contents[int(token)]
            else:
                raise SchemaError(f"$ref {ref!r} does not resolve: no member {token!r}")
            if isinstance(contents, dict):
                draft = draft_of(contents, draft)
                sid = _id_of(contents, draft)
                if sid is not None:
                    base = _join(base, sid, self.root_base)
        return contents, draft, base


def _intersect(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a & b


class Node:
    __slots__ = ("contents", "draft", "base", "bindings", "compiler", "_edges", "_types", "cyclic",
                 "scc_index", "scc_low", "on_stack", "_children")

    def __init__(self, compiler, contents, draft, base, bindings):
        self.compiler = compiler
        self.contents = contents
        self.draft = draft
        self.base = base
        self.bindings = bindings
        self._edges = None
        self._types = False
        self.cyclic = None
        self.scc_index = None
        self.scc_low = None
        self.on_stack = False
        self._children = {}

    # the keywords that apply in place: (all of them, [each union's branches])
    def edges(self):
        if self._edges is None:
            self._edges = self.compiler.inplace(self)
        return self._edges

    def successors(self):
        both, unions = self.edges()
        out = list(both)
        for u in unions:
            out.extend(u)
        return out


class Compiler:
    def __init__(self, schema, default_draft=2020):
        if not isinstance(schema, (dict, bool)):
            raise SchemaError("the schema is not an object or a boolean")
        self.index = Index(schema, default_draft)
        self.nodes = {}
        self.patterns = {}
        self.counter = 0
        self.root = self.node(schema, self.index.root_draft, "", ())
        self.check(schema, self.index.root_draft, "", [])

    # ---- scope: the outermost resource binding each dynamic name
    def bind(self, bindings, uri):
        names = self.index.dynamic_names.get(uri, ())
        add = []
        bound = {name for name, _ in bindings}
        for name in sorted(names):
            if name not in bound:
                add.append((name, uri))
        if self.index.recursive.get(uri) and _RECURSIVE not in bound:
            add.append((_RECURSIVE, uri))
        if not add:
            return bindings
        return tuple(sorted(bindings + tuple(add)))

    def node(self, contents, draft, base, bindings):
        if isinstance(contents, bool):
            contents = _BOOLEAN[contents]
        if isinstance(contents, dict):
            draft = draft_of(contents, draft)
            sid = _id_of(contents, draft)
            if sid is not None:
                base = _join(base, sid, self.index.root_base)
                bindings = self.bind(bindings, base)
            elif not bindings and base == "":
                bindings = self.bind(bindings, "")
        key = (id(contents), draft, base, bindings)
        n = self.nodes.get(key)
        if n is None:
            n = Node(self, contents, draft, base, bindings)
            self.nodes[key] = n
        return n

    def follow(self, src, ref):
        contents, draft, base = self.index.lookup(ref, src.base)
        return self.node(contents, draft, base, self.bind(src.bindings, base))

    def inplace(self, n):
        c = n.contents
        if not isinstance(c, dict):
            return [], []
        if _ref_only(c, n.draft):
            return [self.follow(n, c["$ref"])], []
        both = []
        if isinstance(c.get("$ref"), str):
            both.append(self.follow(n, c["$ref"]))
        if n.draft == 2020 and isinstance(c.get("$dynamicRef"), str):
            both.append(self.dynamic(n, c["$dynamicRef"]))
        if n.draft == 2019 and isinstance(c.get("$recursiveRef"), str):
            both.append(self.recursive(n, c["$recursiveRef"]))
        for s in c.get("allOf") or ():
            both.append(self.node(s, n.draft, n.base, n.bindings))
        unions = []
        for key in ("anyOf", "oneOf"):
            if isinstance(c.get(key), list):
                unions.append([self.node(s, n.draft, n.base, n.bindings) for s in c[key]])
        return both, unions

    def dynamic(self, n, ref):
        target = self.follow(n, ref)
        _, fragment = urldefrag(ref) if not ref.startswith("#") else ("", ref[1:])
        if not fragment or fragment.startswith("/"):
            return target
        tc = target.contents
        if not (isinstance(tc, dict) and tc.get("$dynamicAnchor") == fragment):
            return target
        bindings = target.bindings
        for name, uri in bindings:
            if name == fragment:
                found = self.index.anchors.get((uri, fragment))
                if found is not None:
                    contents, draft, _ = found
                    return self.node(contents, draft, uri, bindings)
        return target

    def recursive(self, n, ref):
        target = self.follow(n, ref)
        tc = target.contents
        if not (isinstance(tc, dict) and tc.get("$recursiveAnchor") is True):
            return target
        for name, uri in target.bindings:
            if name == _RECURSIVE:
                contents, draft = self.index.resources[uri]
                return self.node(contents, draft, uri, target.bindings)
        return target

    # ---- cycles through the keywords that apply in place (Tarjan, iterative)
    def settle(self, start):
        if start.cyclic is not None:
            return
        stack = []
        work = [(start, iter(start.successors()))]
        start.scc_index = start.scc_low = self.counter
        self.counter += 1
        stack.append(start)
        start.on_stack = True
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w.cyclic is not None:
                    continue
                if w.scc_index is None:
                    w.scc_index = w.scc_low = self.counter
                    self.counter += 1
                    stack.append(w)
                    w.on_stack = True
                    work.append((w, iter(w.successors())))
                    advanced = True
                    break
                if w.on_stack:
                    v.scc_low = min(v.scc_low, w.scc_index)
            if advanced:
                continue
            work.pop()
            if work:
                u = work[-1][0]
                u.scc_low = min(u.scc_low, v.scc_low)
            if v.scc_low == v.scc_index:
                members = []
                while True:
                    w = stack.pop()
                    w.on_stack = False
                    members.append(w)
                    if w is v:
                        break
                loop = len(members) > 1 or v in v.successors()
                for w in members:
                    w.cyclic = loop

    def types(self, n):
        """The JSON types n declares: a frozenset, or None when it declares nothing."""
        if n._types is not False:
            return n._types
        self.settle(n)
        c = n.contents
        if n.cyclic or c is True:
            result = None
        elif c is False:
            result = frozenset()
        else:
            both, unions = n.edges()
            result = None
            if not _ref_only(c, n.draft):
                t = c.get("type")
                if isinstance(t, str):
                    result = frozenset((t,))
                elif isinstance(t, list):
                    result = frozenset(t)
                if result is not None and c.get("nullable") is True:
                    result = result | {"null"}
            for m in both:
                result = _intersect(result, self.types(m))
            for u in unions:
                result = _intersect(result, self.union(self.types(b) for b in u))
        n._types = result
        return result

    @staticmethod
    def union(types):
        out = frozenset()
        for t in types:
            if t is None:
                return None
            out = out | t
        return out

    def admits(self, n, kind):
        t = self.types(n)
        return t is None or kind in t

    def direct(self, n, kind, key):
        """The schemas n's own keywords give the member key (object) or element key (array)."""
        c = n.contents
        if not isinstance(c, dict) or _ref_only(c, n.draft):
            return []
        out = []
        if kind == "object":
            matched = False
            props = c.get("properties")
            if isinstance(props, dict) and key in props:
                out.append(self.node(props[key], n.draft, n.base, n.bindings))
                matched = True
            pats = c.get("patternProperties")
            if isinstance(pats, dict):
                for p, s in pats.items():
                    if self.pattern(p).search(key):
                        out.append(self.node(s, n.draft, n.base, n.bindings))
                        matched = True
            if not matched:
                for extra in _EXTRA_MEMBERS:
                    if extra in c:
                        out.append(self.node(c[extra], n.draft, n.base, n.bindings))
                        break
        else:
            items = c.get("items")
            prefix = c.get("prefixItems")
            if not isinstance(prefix, list):
                prefix = items if isinstance(items, list) else []
            if key < len(prefix):
                out.append(self.node(prefix[key], n.draft, n.base, n.bindings))
            elif isinstance(items, (dict, bool)):
                out.append(self.node(items, n.draft, n.base, n.bindings))
            elif isinstance(items, list) and "additionalItems" in c:
                out.append(self.node(c["additionalItems"], n.draft, n.base, n.bindings))
        return out

    def children(self, n, kind, key):
        """What applies to member/element key of a value of kind at n: a context."""
        ck = (kind, key)
        cached = n._children.get(ck)
        if cached is not None:
            return cached
        self.settle(n)
        if n.cyclic or not isinstance(n.contents, dict):
            terms = []
        else:
            terms = [("n", m) for m in self.direct(n, kind, key)]
            both, unions = n.edges()
            for m in both:
                terms.extend(self.children(m, kind, key))
            for u in unions:
                alts = [self.children(b, kind, key) for b in u if self.admits(b, kind)]
                if alts:
                    terms.append(("or", alts))
        if kind == "object" or len(n._children) < 64:
            n._children[ck] = terms
        return terms

    # ---- contexts: lists of terms, all of which apply; a term is a node or alternatives
    def ctx_types(self, ctx):
        result = None
        for tag, v in ctx:
            if tag == "n":
                result = _intersect(result, self.types(v))
            else:
                result = _intersect(result, self.union(self.ctx_types(a) if a else None for a in v))
        return result

    def ctx_admits(self, ctx, kind):
        t = self.ctx_types(ctx)
        return t is None or kind in t

    def ctx_children(self, ctx, kind, key):
        out = []
        for tag, v in ctx:
            if tag == "n":
                out.extend(self.children(v, kind, key))
            else:
                alts = [self.ctx_children(a, kind, key) for a in v if self.ctx_admits(a, kind)]
                if alts:
                    out.append(("or", alts))
        return out

    def pattern(self, p):
        r = self.patterns.get(p)
        if r is None:
            r = compile_pattern(p)
            self.patterns[p] = r
        return r

    # ---- the errors a schema can have, in the keywords that declare a type
    def check(self, schema, draft, base, path):
        stack = [(schema, draft, base, path)]
        while stack:
            c, draft, base, path = stack.pop()
            where = _pointer_text(path)
            if isinstance(c, bool):
                continue
            if not isinstance(c, dict):
                raise SchemaError(f"a subschema is not an object or a boolean at {where}")
            draft = draft_of(c, draft)
            sid = _id_of(c, draft)
            if sid is not None:
                base = _join(base, sid, self.index.root_base)
            _anchors_of(c, draft)
            subs = []
            ref_only = "$ref" in c and _ref_only(c, draft)
            refs = ["$ref"] + (["$dynamicRef"] if draft == 2020 else []) + (
                ["$recursiveRef"] if draft == 2019 else [])
            for key in refs:
                if key in c:
                    if not isinstance(c[key], str):
                        raise SchemaError(f"{key} is not a string at {where}")
                    try:
                        self.index.lookup(c[key], base)
                    except SchemaError as e:
                        raise SchemaError(f"{e} at {where}/{key}") from None
            for key in ("$defs", "definitions"):
                if key in c:
                    if not isinstance(c[key], dict):
                        raise SchemaError(f"{key} is not an object at {where}")
                    subs.extend((s, path + [key, k]) for k, s in c[key].items())
            if not ref_only:
                if "type" in c:
                    t = c["type"]
                    names = [t] if isinstance(t, str) else t
                    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
                        raise SchemaError(f"type is not a string or a list of strings at {where}")
                    for x in names:
                        if x not in TYPES:
                            raise SchemaError(f"unknown type {x!r} at {where}")
                if "nullable" in c and "type" in c and not isinstance(c["nullable"], bool):
                    raise SchemaError(f"nullable is not a boolean at {where}")
                for key in ("properties", "patternProperties"):
                    if key in c:
                        if not isinstance(c[key], dict):
                            raise SchemaError(f"{key} is not an object at {where}")
                        for k, s in c[key].items():
                            if key == "patternProperties":
                                try:
                                    self.pattern(k)
                                except PatternError as e:
                                    raise SchemaError(f"pattern {k!r} is invalid: {e} at {where}") from None
                            subs.append((s, path + [key, k]))
                for key in ("additionalProperties", "additionalItems"):
                    if key in c:
                        subs.append((c[key], path + [key]))
                if "items" in c:
                    if isinstance(c["items"], list):
                        subs.extend((s, path + ["items", i]) for i, s in enumerate(c["items"]))
                    else:
                        subs.append((c["items"], path + ["items"]))
                for key in ("prefixItems", "allOf", "anyOf", "oneOf"):
                    if key in c:
                        if not isinstance(c[key], list) or (key != "prefixItems" and not c[key]):
                            raise SchemaError(f"{key} is not a non-empty list at {where}")
                        subs.extend((s, path + [key, i]) for i, s in enumerate(c[key]))
            for s, p in reversed(subs):
                stack.append((s, draft, base, p))
