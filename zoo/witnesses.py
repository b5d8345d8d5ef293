#!/usr/bin/env python3
"""Fills in the answers of the zoo's witnesses, from toolnorm itself.

    python3 zoo/witnesses.py [--toolnorm CMD]     (default: go run ./cmd/toolnorm)

Each language's witnesses.json gives, for each switch, a case (the schema and the arguments, as
JSON text) on which the switch changes the answer. This writes beside each case:

  reference            what the reference answers (toolnorm normalize)
  answer               what the zoo's adapter answers with that one switch on, over the
                       protocol (toolnorm normalize --impl 'ZOO_SWITCHES=... adapter')
  deviation_reference  for a switch whose bug is a reading toolnorm can be asked for (a pass
                       bound, the attribute profile, depth top, one repair): the reference read
                       that way, which must equal answer

Each answer is {"arguments": JSON text} or {"error": true}. It fails where a switch's answer
equals the reference's, or differs from its deviation_reference: a witness that witnesses
nothing. The language's own tests (python3 -m unittest, node --test) then hold each normalizer
to these answers. Run it from the repository's root after changing a switch or a witness.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADAPTERS = {"python": "python3 zoo/python/adapter.py", "javascript": "node zoo/javascript/adapter.mjs"}
# Switches whose bug is a reading the reference can be asked for: the reference with these
# options is the deviation itself, so the switch must answer what it answers.
DEVIATION_OPTIONS = {
    "py-json-top-level-loop": ["--depth", "top"],
    "js-json-top-level-only": ["--depth", "top"],
    "py-json-none": ["--repairs", "entities"],
    "js-no-entities": ["--repairs", "json"],
    "js-replace-once": ["--max-passes", "1"],
    "js-attribute-decoder": ["--profile", "attribute"],
}


def run(toolnorm, schema, arguments, extra):
    with tempfile.TemporaryDirectory() as d:
        s, a = os.path.join(d, "schema.json"), os.path.join(d, "args.json")
        with open(s, "w", encoding="utf-8") as f:
            f.write(schema)
        with open(a, "w", encoding="utf-8") as f:
            f.write(arguments)
        p = subprocess.run(toolnorm + ["normalize", "--schema", s, "--args", a] + extra, cwd=ROOT,
                           capture_output=True, text=True, encoding="utf-8", errors="surrogateescape")
    if p.returncode == 0:
        return {"arguments": p.stdout.strip()}
    if p.returncode == 1:
        return {"error": True}
    sys.exit(f"toolnorm normalize failed ({p.returncode}): {p.stderr.strip()}")


def same(x, y):
    if "error" in x or "error" in y:
        return "error" in x and "error" in y
    return canonical(x["arguments"]) == canonical(y["arguments"])


def canonical(text):
    """JSON text as a value compared as toolnorm compares: members in order, numbers by value."""
    from decimal import Decimal
    return json.loads(text, object_pairs_hook=lambda pairs: ("object", pairs), parse_float=Decimal,
                      parse_int=Decimal)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--toolnorm", default="go run ./cmd/toolnorm")
    toolnorm = shlex.split(ap.parse_args().toolnorm)
    failed = False
    for lang, adapter in ADAPTERS.items():
        path = os.path.join(ROOT, "zoo", lang, "witnesses.json")
        with open(path, encoding="utf-8") as f:
            witnesses = json.load(f)
        for switch, w in witnesses.items():
            w["reference"] = run(toolnorm, w["schema"], w["arguments"], [])
            w["answer"] = run(toolnorm, w["schema"], w["arguments"],
                              ["--impl", f"ZOO_SWITCHES={switch} {adapter}"])
            if switch in DEVIATION_OPTIONS:
                w["deviation_reference"] = run(toolnorm, w["schema"], w["arguments"], DEVIATION_OPTIONS[switch])
                if not same(w["answer"], w["deviation_reference"]):
                    print(f"{switch}: answers {w['answer']}, the reference with {DEVIATION_OPTIONS[switch]} "
                          f"{w['deviation_reference']}", file=sys.stderr)
                    failed = True
            if same(w["answer"], w["reference"]):
                print(f"{switch}: its witness answers as the reference does: {w['answer']}", file=sys.stderr)
                failed = True
        with open(path, "w", encoding="utf-8") as f:
            json.dump(witnesses, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(f"{lang}: {len(witnesses)} witnesses")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
