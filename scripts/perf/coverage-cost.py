#!/usr/bin/env python3
"""What a kit's coverage costs an adapter per request (issue 38): an adapter (by default the bug
zoo's Python normalizer, zoo/python/adapter.py, on the Python kit, run by this Python) answers the
same 3,000 requests with and without "coverage":true, alternated, three times each; prints the
seconds of each run and the ratio of the medians.

    python3 scripts/perf/coverage-cost.py                       # the Python kit, on python3
    python3.12 scripts/perf/coverage-cost.py                    # on Python 3.12
    python3 scripts/perf/coverage-cost.py node zoo/javascript/adapter.mjs   # the JavaScript kit
"""
import json
import os
import random
import statistics
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def requests(covered):
    rng = random.Random(1)
    schema = {"type": "object", "properties": {"b": {"type": "array"},
                                               "c": {"type": "object", "properties": {"d": {"type": "string"}}}}}
    lines = [json.dumps({"cmd": "start", "version": 1})]
    for i in range(3000):
        args = {"a": "x &amp;amp; y" * rng.randint(1, 5), "b": "[1,2,&quot;a&quot;]", "c": {"d": "&lt;b&gt;"}}
        r = {"cmd": "normalize", "id": i + 1, "schema": schema, "arguments": args}
        if covered:
            r["coverage"] = True
        lines.append(json.dumps(r))
    return ("\n".join(lines) + "\n").encode()


def main():
    command = sys.argv[1:] or [sys.executable, os.path.join("zoo", "python", "adapter.py")]
    took = {False: [], True: []}
    data = {c: requests(c) for c in took}
    for _ in range(3):
        for covered in (False, True):
            start = time.perf_counter()
            out = subprocess.run(command, cwd=ROOT, input=data[covered], capture_output=True, check=True).stdout
            took[covered].append(time.perf_counter() - start)
            assert out.count(b"\n") == 3001, out[-300:]
    name = " ".join(command[1:]) if sys.argv[1:] else f"Python {sys.version.split()[0]}"
    print(f"{name}: without coverage {[round(t, 2) for t in took[False]]} s, "
          f"with {[round(t, 2) for t in took[True]]} s: "
          f"{statistics.median(took[True]) / statistics.median(took[False]):.1f} x")


if __name__ == "__main__":
    main()
