#!/usr/bin/env python3
"""The zoo's normalizers against the reference on random schemas and arguments.

    python3 zoo/difftest/difftest.py [--seed 1] [--n 3000] [--lang python,javascript]
        [--py SWITCHES] [--js SWITCHES] [--options JSON] [--show 3]

toolnorm check draws its schemas from a few shapes; this draws them from what the reference reads
(docs/readings.md section 4): type names and lists, nullable, properties, patternProperties,
additionalProperties, items (a schema or a list), prefixItems, additionalItems, allOf, anyOf, oneOf,
$ref to $defs (or definitions), to "#", to an $anchor or an "$id": "#name", to an embedded $id by
URI, from drafts 4, 7, 2019-09 and 2020-12, cycles included; and arguments of the keys those
schemas name, with JSON text, escaped JSON text, references and numbers in their strings. Each case
goes to the reference (the Go program beside this file, built once into a temporary directory),
to the Python zoo in this process and to the JavaScript zoo in one node process, and the answers
are compared as toolnorm compares them. With no switch, every answer must be the reference's
(an `unsupported` answer is counted apart). With --options the reference is read that way
(depth "top", profile "attribute", max_passes N, repairs "json"/"entities"), to hold a switch
whose bug is such a reading to it: --js js-replace-once --options '{"max_passes": 1}'.

Exits 1 when some answer differs, printing the first --show of them.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "kits", "python"))
sys.path.insert(0, os.path.join(ROOT, "zoo", "python"))

import toolnorm_kit  # noqa: E402
from zoo_normalizer import Normalizer  # noqa: E402

KEYS = ["a", "b", "x", "p", "tags", "__proto__", "constructor", "toString", "&amp;", "list_a", "s_x", "x-y",
        "é", "", "ab", "xs"]
PATTERNS = ["^x", "^list_", "s$", "^[0-9]+$", "a", "^(?!x-)", "^.$", "^\\s$", "^\\d", "é", "^(a+)b$", "[xy]"]
TYPES = ["string", "array", "object", "null", "number", "integer", "boolean"]
DRAFTS = [None, None, None, "http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-07/schema#",
          "https://json-schema.org/draft/2019-09/schema", "https://json-schema.org/draft/2020-12/schema"]
STRINGS = ["x", "&amp;", "&amp;amp;", "&lt;b&gt;", "&#x41;&#65", "&notin", "&notit;", "&Amp;", "&AMP", "&#0;",
           "&#128;", "&#x81;", "&#1;", "&#xD800;", "&#x110000;", " a ", "&quot;", "&apos;", "&copy=1", "a=1&not=2",
           "&#999999999;", "\ud800 &amp;", "null", "1", "true", "\"x\"", "[1", "[1,]", "{'a':1}", "[NaN]", "", "  ",
           "&nbsp;", "&#9", "&frac12;", "&Afr", "&Afr;", "&ampx", "&#38;amp;", "&#x26;#x26;lt;"]


class Schemas:
    def __init__(self, rng):
        self.r = rng

    def type_(self):
        r = self.r
        if r.random() < 0.6:
            return r.choice(["array", "object", "array", "object", "string", "null", "integer"])
        return r.sample(TYPES, r.randint(1, 3))

    def ref(self):
        c = self.r.random()
        if c < 0.1:
            return "#"
        if c < 0.2:
            return "#anc"
        if c < 0.3:
            return "item.json"
        return "#/$defs/d%d" % self.r.randint(0, 2)

    def schema(self, d):
        r = self.r
        if d <= 0 or r.random() < 0.15:
            return r.choice([True, False, {}, {"type": self.type_()}, {"type": "array"}, {"type": "object"},
                             {"type": "string"}])
        s = {}
        k = r.random()
        if r.random() < 0.7:
            s["type"] = self.type_()
        if r.random() < 0.15:
            s["nullable"] = r.choice([True, False])
        if r.random() < 0.1:
            s["maxLength"] = r.randint(0, 3)
        if k < 0.35:
            if r.random() < 0.8:
                s["properties"] = {kk: self.schema(d - 1) for kk in r.sample(KEYS, r.randint(1, 4))}
            if r.random() < 0.3:
                s["patternProperties"] = {p: self.schema(d - 1) for p in r.sample(PATTERNS, r.randint(1, 2))}
            if r.random() < 0.3:
                s["additionalProperties"] = self.schema(d - 1)
        elif k < 0.6:
            c = r.random()
            if c < 0.5:
                s["items"] = self.schema(d - 1)
            elif c < 0.75:
                s["items"] = [self.schema(d - 1) for _ in range(r.randint(0, 3))]
            else:
                s["prefixItems"] = [self.schema(d - 1) for _ in range(r.randint(1, 3))]
            if r.random() < 0.3:
                s["additionalItems"] = self.schema(d - 1)
            if "prefixItems" in s and r.random() < 0.5:
                s["items"] = self.schema(d - 1)
        elif k < 0.85:
            s[r.choice(["allOf", "anyOf", "oneOf"])] = [self.schema(d - 1) for _ in range(r.randint(1, 3))]
        else:
            s["$ref"] = self.ref()
        if r.random() < 0.1 and "$ref" not in s:
            s["$ref"] = self.ref()
        return s

    def root(self):
        r = self.r
        s = {"type": "object"} if r.random() < 0.7 else {}
        if r.random() < 0.5:
            s["$id"] = "http://ex/root.json"
        s["properties"] = {k: self.schema(3) for k in r.sample(KEYS, r.randint(1, 6))}
        if r.random() < 0.3:
            s["patternProperties"] = {p: self.schema(2) for p in r.sample(PATTERNS, r.randint(1, 2))}
        if r.random() < 0.3:
            s["additionalProperties"] = self.schema(2)
        if r.random() < 0.2:
            s["allOf"] = [self.schema(2)]
        if r.random() < 0.2:
            s["anyOf"] = [self.schema(2), self.schema(2)]
        defs = {"d%d" % i: self.schema(2) for i in range(3)}
        for k in ("d1", "d2"):
            defs[k] = dict(defs[k]) if isinstance(defs[k], dict) else {"allOf": [defs[k]]}
        draft = r.choice(DRAFTS)
        old = draft is not None and ("draft-04" in draft or "draft-07" in draft)
        if old:
            defs["d1"]["$id" if "07" in draft else "id"] = "#anc"
        else:
            defs["d1"]["$anchor"] = "anc"
        defs["d2"]["id" if draft and "draft-04" in draft else "$id"] = "item.json"
        defs["d2"] = json.loads(json.dumps(defs["d2"]).replace('"#/$defs/', '"root.json#/$defs/'))
        if draft:
            s["$schema"] = draft
        s["$defs"] = defs
        if old:
            s = json.loads(json.dumps(s).replace("#/$defs/", "#/definitions/"))
            s["definitions"] = s.pop("$defs")
        return s


def escaped(text):
    return text.replace("&", "&amp;").replace('"', "&quot;")


def json_text(r, d):
    v = value(r, d) if d > 0 else r.choice(STRINGS)
    if r.random() < 0.7 and not isinstance(v, (list, dict)):
        v = [v] if r.random() < 0.5 else {r.choice(KEYS): v}
    t = json.dumps(v, ensure_ascii=r.random() < 0.5)
    return " " + t + "\n" if r.random() < 0.1 else t


def value(r, d):
    c = r.random()
    if d <= 0 or c < 0.45:
        k = r.random()
        if d <= 0 or k < 0.5:
            return r.choice(STRINGS)
        t = json_text(r, d - 1)
        return escaped(t) if k < 0.6 else t
    if c < 0.55:
        return r.choice([None, True, 1, 1.5, -0.0, 12345678901234567890 if r.random() < 0.2 else 7])
    if c < 0.75:
        return [value(r, d - 1) for _ in range(r.randint(0, 3))]
    return {k: value(r, d - 1) for k in r.sample(KEYS, r.randint(0, 3))}


def canonical(text):
    return json.loads(text, object_pairs_hook=lambda p: ("object", p), parse_float=Decimal, parse_int=Decimal)


def same(ref, got):
    if "error" in ref or "error" in got:
        return "error" in ref and "error" in got
    return canonical(json.dumps(ref["arguments"])) == canonical(got["arguments"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--lang", default="python,javascript")
    ap.add_argument("--py", default="", help="the Python zoo's switches")
    ap.add_argument("--js", default="", help="the JavaScript zoo's switches")
    ap.add_argument("--options", default="{}", help="how the reference reads (JSON)")
    ap.add_argument("--show", type=int, default=3)
    a = ap.parse_args()
    sys.set_int_max_str_digits(0)
    rng = random.Random(a.seed)
    cases = [(json.dumps(Schemas(rng).root()), json.dumps({k: value(rng, 3) for k in rng.sample(KEYS, rng.randint(1, 6))}))
             for _ in range(a.n)]
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "difftest")
        subprocess.run(["go", "build", "-o", binary, "./zoo/difftest"], cwd=ROOT, check=True)
        lines = "\n".join(json.dumps({"schema": json.loads(s), "arguments": json.loads(x), "opts": json.loads(a.options)})
                          for s, x in cases) + "\n"
        reference = subprocess.run([binary], input=lines, capture_output=True, text=True, check=True).stdout.splitlines()
    answers = {}
    if "python" in a.lang:
        normalizer = Normalizer([s for s in a.py.split(",") if s])
        out = []
        for s, x in cases:
            try:
                out.append(json.dumps({"arguments": toolnorm_kit.call(normalizer, s, x)}))
            except toolnorm_kit.Unsupported as e:
                out.append(json.dumps({"unsupported": str(e)}))
            except Exception as e:  # the normalizer's error answer
                out.append(json.dumps({"error": f"{type(e).__name__}: {e}"}))
        answers["python"] = out
    if "javascript" in a.lang:
        lines = "\n".join(json.dumps({"schema": s, "arguments": x}) for s, x in cases) + "\n"
        answers["javascript"] = subprocess.run(["node", os.path.join(HERE, "run.mjs"), a.js], input=lines,
                                               capture_output=True, text=True, check=True).stdout.splitlines()
    failed = False
    errors = sum(1 for line in reference if line.startswith('{"error"'))
    for lang, out in answers.items():
        differ = unsupported = 0
        for i, ((s, x), ref, got) in enumerate(zip(cases, reference, out)):
            ref, got = json.loads(ref), json.loads(got)
            if "unsupported" in got:
                unsupported += 1
            elif not same(ref, got):
                differ += 1
                if differ <= a.show:
                    print(f"--- {lang}, case {i}\nschema:    {s}\narguments: {x}\nreference: {json.dumps(ref, ensure_ascii=False)}\n"
                          f"zoo:       {json.dumps(got, ensure_ascii=False)}")
        failed |= differ > 0
        print(f"{lang}: {differ} differ, {unsupported} unsupported, of {len(cases)} ({errors} errors of the reference)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
