#!/usr/bin/env python3
"""What a kit's coverage costs an adapter per request (issue 38). It records the requests a
`toolnorm fuzz --seed 1` run sends an adapter in its first seconds (the first 2,000: cases drawn,
mutants of the queue, minimizing), then has a fresh run of the adapter answer them with and
without "coverage":true, alternated, five times each, and prints the seconds of each and the
ratio of the medians. The adapter's start is in both.

    go build -o /tmp/toolnorm ./cmd/toolnorm
    python3 scripts/perf/coverage-cost.py /tmp/toolnorm python3 zoo/python/adapter.py
    python3 scripts/perf/coverage-cost.py /tmp/toolnorm python3.12 zoo/python/adapter.py
    python3 scripts/perf/coverage-cost.py /tmp/toolnorm node zoo/javascript/adapter.mjs
"""
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
REQUESTS = 2000
ASK = b',"coverage":true}'


def record(toolnorm, command):
    """The first REQUESTS lines a fuzzing run sends the adapter, each asking for coverage."""
    with tempfile.TemporaryDirectory() as d:
        sent = os.path.join(d, "sent")
        impl = f"tee {shlex.quote(sent)} | {shlex.join(command)}"
        subprocess.run([toolnorm, "fuzz", "--impl", impl, "--duration", "8s", "--seed", "1",
                        "--corpus", os.path.join(d, "found")], cwd=ROOT, capture_output=True)
        with open(sent, "rb") as f:
            lines = [line for line in f.read().split(b"\n") if line.startswith(b'{"cmd":"normalize"')]
    asked = [line if line.endswith(ASK) else line[:-1] + ASK for line in lines[:REQUESTS]]
    if len(asked) < REQUESTS:
        sys.exit(f"only {len(asked)} requests recorded")
    start = b'{"cmd":"start","version":1}\n'
    return {True: start + b"\n".join(asked) + b"\n",
            False: start + b"\n".join(line[:-len(ASK)] + b"}" for line in asked) + b"\n"}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    toolnorm, command = sys.argv[1], sys.argv[2:]
    data = record(toolnorm, command)
    took = {False: [], True: []}
    for _ in range(5):
        for covered in (False, True):
            start = time.perf_counter()
            out = subprocess.run(command, cwd=ROOT, input=data[covered], capture_output=True, check=True).stdout
            took[covered].append(time.perf_counter() - start)
            assert out.count(b"\n") == REQUESTS + 1, out[-300:]
    print(f"{shlex.join(command)}: {REQUESTS} requests of a fuzzing run, without coverage "
          f"{[round(t, 2) for t in took[False]]} s, with {[round(t, 2) for t in took[True]]} s: "
          f"{statistics.median(took[True]) / statistics.median(took[False]):.2f} x")


if __name__ == "__main__":
    main()
