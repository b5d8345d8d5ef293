#!/usr/bin/env python3
"""Runs the witness cases and writes witnesses.json."""
import json, os
from witness_lib import HERE, build, reference, mine, same
from witness_cases import CASES

build()
out = []
for sw, schema, args in CASES:
    ref = reference(schema, args)
    bug = mine(schema, args, sw)
    clean = mine(schema, args)
    print(sw, "ref", ref, "| switch", bug, "| clean==ref", same(clean, ref), "| switch differs", not same(bug, ref))
    out.append({"switch": sw, "schema": schema, "arguments": args, "reference": ref, "with_switch": bug})
with open(os.path.join(HERE, "witnesses.json"), "w") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
