"""Bugs behind nested conditions, for issue 38: does coverage-guided fuzzing find them sooner?

The bug zoo's bugs (zoo/python) sit where a normalizer's ordinary code runs, and toolnorm's
generators reach them within their first batch, so a guided fuzzer has nothing to climb. These
sit behind several conditions in a row, each an `if` of its own line, as a fallback parser, a
long-number edge or a special case for some keys would: a random case rarely meets all of them,
and a fuzzer that keeps the cases reaching each new line can meet them one at a time.

    normalize(schema, arguments, {"deep-quote-fallback"})

Each switch wraps the zoo's normalizer, correct with no switch of its own, and adds its bug.
"""
import html
import json
import os
import re
import sys

sys.path.insert(0, os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python")))

from zoo_normalizer import Normalizer  # noqa: E402

SWITCHES = {
    "deep-quote-fallback": "a string declared array or object that is not JSON, bracketed and holding "
                           "single quotes, is decoded with them made double",
    "deep-many-refs": "an argument's string holding eight references or more is decoded in one pass "
                      "of html.unescape (a fast path for heavily escaped text)",
    "deep-ref-chain": "an argument whose schema is a $ref to a $ref to a $ref is passed through as sent: "
                      "the resolver gives up after two hops",
    "deep-vendor-keys": "an argument whose name starts with x- and is four characters or more is "
                        "passed through unrepaired",
}

REFERENCE = re.compile(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def put(out, key, value):
    """out[key] = value, for a dict or the zoo's Members (whose pairs the kit writes)."""
    out[key] = value
    if hasattr(out, "pairs"):
        out.pairs = [(k, value if k == key else v) for k, v in out.pairs]


class DeepNormalizer:
    def __init__(self, switches=()):
        unknown = set(switches) - set(SWITCHES)
        if unknown:
            raise ValueError(f"unknown switches: {', '.join(sorted(unknown))}")
        self.switches = frozenset(switches)
        self.zoo = Normalizer()

    def bug(self, name):
        return name in self.switches

    def __call__(self, schema, arguments):
        # The arguments' own strings as sent: the zoo's normalizer repairs
        # the arguments in place.
        sent = {k: v for k, v in arguments.items() if isinstance(v, str)} if isinstance(arguments, dict) else None
        out = self.zoo(schema, arguments)
        if not isinstance(out, dict) or sent is None:
            return out
        if self.bug("deep-quote-fallback"):
            self.quote_fallback(schema, out)
        if self.bug("deep-many-refs"):
            self.many_refs(sent, out)
        if self.bug("deep-vendor-keys"):
            self.vendor_keys(sent, out)
        if self.bug("deep-ref-chain"):
            self.ref_chain(schema, sent, out)
        return out

    # -- deep-quote-fallback: an LLM's Python-style list, read as JSON anyway.

    def quote_fallback(self, schema, out):
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict):
            return
        for key, value in list(out.items()):
            declared = properties.get(key)
            if not isinstance(value, str) or not isinstance(declared, dict):
                continue
            kind = declared.get("type")
            if kind not in ("array", "object"):
                continue
            text = value.strip()
            if text[:1] not in ("[", "{"):
                continue
            if text[-1:] not in ("]", "}"):
                continue
            if "'" not in text:
                continue
            try:
                parsed = json.loads(text.replace("'", '"'))
            except ValueError:
                continue
            if isinstance(parsed, list if kind == "array" else dict):
                put(out, key, parsed)

    # -- deep-many-refs: one pass where there are many references.

    def many_refs(self, sent, out):
        for key, value in sent.items():
            if not isinstance(out.get(key), str):
                continue
            n = len(REFERENCE.findall(value))
            if n >= 2:
                if n >= 4:
                    if n >= 6:
                        if n >= 8:
                            put(out, key, html.unescape(value))

    # -- deep-vendor-keys: extension members kept as sent.

    def vendor_keys(self, sent, out):
        for key in list(out):
            if key[:1] == "x":
                if key[1:2] == "-":
                    if len(key) >= 4:
                        if key in sent:
                            put(out, key, sent[key])

    # -- deep-ref-chain: a resolver that gives up after two hops.

    def ref_chain(self, schema, sent, out):
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict):
            return
        for key, declared in properties.items():
            if key not in sent:
                continue
            first = self.resolve(schema, declared)
            if first is None:
                continue
            second = self.resolve(schema, first)
            if second is None:
                continue
            third = self.resolve(schema, second)
            if third is None:
                continue
            put(out, key, sent[key])

    @staticmethod
    def resolve(root, s):
        """The schema a local $ref of s points to ("#/$defs/..." or "#/definitions/..."), or None."""
        if not isinstance(s, dict) or not isinstance(s.get("$ref"), str):
            return None
        ref = s["$ref"]
        for prefix in ("#/$defs/", "#/definitions/"):
            if ref.startswith(prefix):
                defs = root.get(prefix[2:-1])
                target = defs.get(ref[len(prefix):]) if isinstance(defs, dict) else None
                return target if isinstance(target, dict) else None
        return None
