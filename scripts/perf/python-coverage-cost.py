#!/usr/bin/env python3
"""What the Python kit's coverage costs an adapter per request (issue 38): the bug zoo's Python
normalizer (zoo/python/adapter.py, on the kit) answers the same 3,000 requests with and without
"coverage":true, alternated, three times each; prints the seconds of each run and the ratio of the
medians. Run it with each Python to compare:

    python3 scripts/perf/python-coverage-cost.py
    python3.12 scripts/perf/python-coverage-cost.py
"""
import json
import os
import random
import statistics
import subprocess
import sys
import time

ADAPTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "zoo", "python", "adapter.py")


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
    took = {False: [], True: []}
    data = {c: requests(c) for c in took}
    for _ in range(3):
        for covered in (False, True):
            start = time.perf_counter()
            out = subprocess.run([sys.executable, ADAPTER], input=data[covered], capture_output=True, check=True).stdout
            took[covered].append(time.perf_counter() - start)
            assert out.count(b"\n") == 3001, out[-300:]
    print(f"Python {sys.version.split()[0]}: without coverage {[round(t, 2) for t in took[False]]} s, "
          f"with {[round(t, 2) for t in took[True]]} s: "
          f"{statistics.median(took[True]) / statistics.median(took[False]):.1f} x")


if __name__ == "__main__":
    main()
