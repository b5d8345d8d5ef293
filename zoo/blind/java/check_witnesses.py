#!/usr/bin/env python3
"""Re-checks witnesses.json: for each witness the reference (toolnorm normalize) still gives the recorded
answer, this implementation with no switch agrees with it, and with the witness's switch on it gives the
recorded, different answer. Exit status 0 when every witness holds."""
import json, os, sys
from witness_lib import HERE, build, reference, mine, same

build()
ws = json.load(open(os.path.join(HERE, "witnesses.json")))
bad = 0
for n, w in enumerate(ws, 1):
    ref = reference(w["schema"], w["arguments"])
    clean = mine(w["schema"], w["arguments"])
    bug = mine(w["schema"], w["arguments"], w["switch"])
    checks = {
        "reference as recorded": same(ref, w["reference"]),
        "clean equals reference": same(clean, ref),
        "switch as recorded": same(bug, w["with_switch"]),
        "switch differs from reference": not same(bug, ref),
    }
    ok = all(checks.values())
    bad += not ok
    print("%-3s %2d %s %s" % (w["switch"], n, "OK  " if ok else "FAIL", "" if ok else [k for k, v in checks.items() if not v]))
counts = {}
for w in ws:
    counts[w["switch"]] = counts.get(w["switch"], 0) + 1
print("witnesses per switch:", counts)
print("all hold" if bad == 0 else "%d witnesses do not hold" % bad)
sys.exit(1 if bad else 0)
