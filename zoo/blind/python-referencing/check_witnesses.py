#!/usr/bin/env python3
"""Re-checks witnesses.json: for each witness, the reference ($TOOLNORM normalize, default
./toolnorm beside this directory's parent) gives `want`, this implementation with no switch
gives `want`, and with its switch on (BLIND_SWITCHES) gives `got`, which differs.
Run: TOOLNORM=/path/to/toolnorm python3 check_witnesses.py   (write with --write)"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLNORM = os.environ.get("TOOLNORM", os.path.join(HERE, "..", "toolnorm"))
PY = sys.executable


def reference(schema, args):
    with tempfile.TemporaryDirectory() as d:
        s, a = os.path.join(d, "s.json"), os.path.join(d, "a.json")
        with open(s, "w") as f:
            json.dump(schema, f)
        with open(a, "w") as f:
            f.write(args)
        r = subprocess.run([TOOLNORM, "normalize", "--schema", s, "--args", a], capture_output=True, text=True)
    return ("output", json.loads(r.stdout)) if r.returncode == 0 else ("error", None)


RUN_IMPL = r"""
import json, sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[1] + "/.toolnorm")
import toolnorm_kit
from argfix import normalize
schema, args = sys.stdin.read().split("\n", 1)
try:
    print(json.dumps(["output", json.loads(toolnorm_kit.call(normalize, schema, args))]))
except Exception as e:
    print(json.dumps(["error", None]))
"""


def impl(schema, args, switch):
    env = dict(os.environ, BLIND_SWITCHES=switch or "")
    r = subprocess.run([PY, "-c", RUN_IMPL, HERE], input=json.dumps(schema) + "\n" + args,
                       capture_output=True, text=True, env=env, check=True)
    return tuple(json.loads(r.stdout))


def show(result):
    kind, value = result
    return "error" if kind == "error" else json.dumps(value, ensure_ascii=False)


def main():
    path = os.path.join(HERE, "witnesses.json")
    if "--write" in sys.argv:
        sys.path.insert(0, os.path.join(HERE, "witness_src"))
        from cases import CASES
        out = []
        for switch, schema, args in CASES:
            out.append({"switch": switch, "schema": schema, "arguments": args,
                        "want": show(reference(schema, args)), "got": show(impl(schema, args, switch))})
        with open(path, "w") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
            f.write("\n")
    with open(path) as f:
        witnesses = json.load(f)
    bad = 0
    for w in witnesses:
        ref = show(reference(w["schema"], w["arguments"]))
        clean = show(impl(w["schema"], w["arguments"], None))
        buggy = show(impl(w["schema"], w["arguments"], w["switch"]))
        ok = ref == w["want"] and clean == w["want"] and buggy == w["got"] and w["got"] != w["want"]
        # outputs compared as JSON values
        if not ok and "error" not in (ref, clean):
            ok = json.loads(ref) == json.loads(w["want"]) == json.loads(clean) and buggy == w["got"] != w["want"]
        bad += not ok
        print(("ok  " if ok else "BAD ") + w["switch"], w["arguments"], "want", w["want"], "got", w["got"],
              "" if ok else f"(reference {ref}, clean {clean}, switched {buggy})")
    print(f"{len(witnesses) - bad} of {len(witnesses)} witnesses hold")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
