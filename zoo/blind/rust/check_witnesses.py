#!/usr/bin/env python3
"""Re-check witnesses.json: for each witness, the reference (toolnorm normalize) and the
clean normalizer agree, and the normalizer with the witness's switch on differs.
With --make, compute the 'reference' and 'with_switch' answers from CASES and write witnesses.json."""
import json, os, subprocess, sys, tempfile
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLNORM = os.environ.get("TOOLNORM", "toolnorm")
MINE = os.path.join(HERE, "target/release/blindnorm")
D7 = "http://json-schema.org/draft-07/schema#"

CASES = [
    ("s1", {"type": "object", "properties": {"a": {"$ref": "#/$defs/x~01y"}}, "$defs": {"x~1y": {"type": "array"}}}, {"a": "[1]"}),
    ("s1", {"type": "object", "properties": {"a": {"$ref": "#/$defs/x~01y"}}, "$defs": {"x~1y": {"type": "array"}, "x/y": {"type": "object"}}}, {"a": "[1]"}),
    ("s2", {}, {"t": "&CounterClockwiseContourIntegral&#59;"}),
    ("s2", {"type": "object"}, {"t": "x &LeftArrowBar&#x3b; y"}),
    ("s3", {"type": "object", "properties": {"a": {"type": "array"}}}, {"a": "[1,2,]"}),
    ("s3", {"type": "object", "properties": {"o": {"type": "object"}}}, {"o": "{\"k\":1,}"}),
    ("s4", {"$schema": D7, "type": "object", "properties": {"a": {"$ref": "#/definitions/any", "type": "array"}}, "definitions": {"any": {}}}, {"a": "[1]"}),
    ("s4", {"$schema": D7, "properties": {"a": {"$ref": "#/definitions/arr", "type": "string"}}, "definitions": {"arr": {"type": "array"}}}, {"a": "[1]"}),
    ("s5", {"patternProperties": {"^a": {"type": "array"}}, "additionalProperties": {"type": "string"}}, {"ab": "[1]"}),
    ("s5", {"patternProperties": {"^x": {"type": "object"}}, "additionalProperties": False}, {"xy": "{\"k\":1}"}),
    ("s6", {"patternProperties": {"_ids$": {"type": "array"}}}, {"user_ids": "[1,2]"}),
    ("s6", {"type": "object", "patternProperties": {"b": {"type": "object"}}}, {"ab": "{}", "b": "{}"}),
]


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode == 0:
        return {"status": 0, "output": json.loads(p.stdout, parse_float=Decimal, parse_int=Decimal)}
    return {"status": p.returncode, "error": (p.stderr or p.stdout).strip()}


def answers(schema, args, switch):
    with tempfile.TemporaryDirectory() as d:
        sf, af = os.path.join(d, "schema.json"), os.path.join(d, "args.json")
        open(sf, "w").write(json.dumps(schema))
        open(af, "w").write(json.dumps(args))
        ref = run([TOOLNORM, "normalize", "--schema", sf, "--args", af])
        env = dict(os.environ)
        env.pop("BLIND_SWITCHES", None)
        clean = run([MINE, "normalize", sf, af], env)
        env["BLIND_SWITCHES"] = switch
        bug = run([MINE, "normalize", sf, af], env)
    return ref, clean, bug


def same(a, b):
    if a["status"] != 0 or b["status"] != 0:
        return (a["status"] != 0) == (b["status"] != 0)  # any error matches any error
    return a["output"] == b["output"]


def plain(x):
    return json.loads(json.dumps(x, default=lambda d: int(d) if d == d.to_integral_value() else float(d)))


def main():
    path = os.path.join(HERE, "witnesses.json")
    if "--make" in sys.argv:
        out = []
        for sw, schema, args in CASES:
            ref, _, bug = answers(schema, args, sw)
            out.append({"switch": sw, "schema": schema, "arguments": args, "reference": plain(ref), "with_switch": plain(bug)})
        json.dump(out, open(path, "w"), indent=1, ensure_ascii=False)
    ws = json.load(open(path))
    bad = 0
    for w in ws:
        ref, clean, bug = answers(w["schema"], w["arguments"], w["switch"])
        ok = same(ref, clean) and not same(ref, bug)
        bad += not ok
        print("%s %s ref=%s switch=%s" % ("OK  " if ok else "FAIL", w["switch"],
              json.dumps(plain(ref), ensure_ascii=False), json.dumps(plain(bug), ensure_ascii=False)))
    per = {}
    for w in ws:
        per[w["switch"]] = per.get(w["switch"], 0) + 1
    print("witnesses per switch:", per)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
