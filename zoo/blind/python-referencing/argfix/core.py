"""RT-TOOL-8: a model's tool arguments, normalized against the tool's own input schema."""
import json
import os
import re
import sys

from .entities import decode_fixpoint
from .schema import Compiler, SchemaError

__all__ = ["normalize", "SchemaError", "ArgumentsError", "MAX_DEPTH"]

MAX_DEPTH = 1000
_FLAGS = frozenset(f for f in os.environ.get("BLIND_SWITCHES", "").split(",") if f)

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)
if sys.getrecursionlimit() < 20000:
    sys.setrecursionlimit(20000)

_SURROGATE = re.compile("[\ud800-\udfff]")


class ArgumentsError(ValueError):
    pass


class Members(dict):
    """An object decoded from a string: its members in order, duplicates kept."""

    def __init__(self, pairs):
        super().__init__(pairs)
        self.pairs = list(pairs)

    def items(self):
        return list(self.pairs)


class Int(int):
    pass


class Float(float):
    pass


def _int(text):
    n = Int(text)
    n.text = text
    return n


def _float(text):
    n = Float(text)
    n.text = text
    return n


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def _parse(text):
    """text as JSON (RFC 8259, the whole of it), or None when it is not."""
    if _SURROGATE.search(text):
        return None
    try:
        return json.loads(text, object_pairs_hook=Members, parse_int=_int, parse_float=_float,
                          parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None


def _pairs(d):
    return d.pairs if isinstance(d, Members) else list(d.items())


class _Run:
    def __init__(self, compiler):
        self.c = compiler

    def shape(self, ctx, text):
        """The value text decodes to, when the schema declares its shape here; else None."""
        t = self.c.ctx_types(ctx)
        if t is None or "string" in t or not ({"array", "object"} & t):
            return None
        stripped = text.strip(" \t\n\r")
        if not stripped or stripped[0] not in "[{":
            return None
        value = _parse(text)
        if isinstance(value, list) and "array" in t:
            return value
        if isinstance(value, dict) and "object" in t:
            return value
        return None

    def value(self, v, ctx, level):
        if isinstance(v, str):
            decoded = self.shape(ctx, v)
            if decoded is not None:
                return self.value(decoded, ctx, level)
            text = decode_fixpoint(v) if "&" in v else v
            if text != v:
                decoded = self.shape(ctx, text)
                if decoded is not None:
                    return self.value(decoded, ctx, level)
            return text
        if isinstance(v, dict):
            if level > MAX_DEPTH:
                raise ArgumentsError(f"arguments nest deeper than {MAX_DEPTH} levels")
            out = []
            for k, item in _pairs(v):
                out.append((k, self.value(item, self.c.ctx_children(ctx, "object", k), level + 1)))
            return Members(out)
        if isinstance(v, list):
            if level > MAX_DEPTH:
                raise ArgumentsError(f"arguments nest deeper than {MAX_DEPTH} levels")
            return [self.value(item, self.c.ctx_children(ctx, "array", i), level + 1)
                    for i, item in enumerate(v)]
        return v


def normalize(schema, arguments, default_draft=2020):
    """The arguments, repaired as RT-TOOL-8 says against schema. Raises SchemaError for a schema
    it cannot read, ArgumentsError for arguments that are not an object or nest too deeply."""
    if not isinstance(arguments, dict):
        raise ArgumentsError("arguments must be a JSON object")
    compiler = Compiler(schema, default_draft)
    run = _Run(compiler)
    return run.value(arguments, [("n", compiler.root)], 1)
