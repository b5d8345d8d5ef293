#!/usr/bin/env python3
"""How much sooner coverage-guided fuzzing finds each bug of the zoo (issue 38).

For each switch of zoo/switches.json in the languages asked for (whose kit offers coverage), each
seed, and each mode (guided: the adapter's coverage asked for; blind: --coverage=false), runs

    ZOO_SWITCHES=S toolnorm fuzz --impl ADAPTER --duration 60s --seed N --corpus EMPTY_DIR --coverage=MODE

and takes the time from its first line (the adapter started) to its first finding, then stops it.
Prints a TSV row per run as it goes, and at the end, per switch, the median seconds over the seeds
of each mode ("-" when not found within the duration; a median of runs not all found counts those
as the duration). One run at a time: the times are the machine's.

    python3 scripts/zoo-coverage.py --toolnorm /tmp/toolnorm --python python3.12 > runs.tsv

Options: --seeds 5, --duration 60, --switches a,b (default: all of the language), --lang python
or javascript, --modes guided (or blind; default both), --zoo deep (zoo/deep: bugs behind nested conditions, its own switches.json).
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))


def first_finding(toolnorm, impl, switch, seed, duration, guided):
    """Seconds from the run's first line to its first finding, or None, and the cases run."""
    with tempfile.TemporaryDirectory() as d:
        cmd = [toolnorm, "fuzz", "--impl", impl, "--duration", f"{duration}s", "--seed", str(seed),
               "--corpus", os.path.join(d, "findings"), f"--coverage={'true' if guided else 'false'}"]
        env = dict(os.environ, ZOO_SWITCHES=switch)
        p = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL, text=True, start_new_session=True)
        start, found, cases = None, None, ""
        for line in p.stdout:
            now = time.monotonic()
            if start is None:
                start = now
            if line.startswith("finding ") and found is None:
                found = now - start
                os.killpg(p.pid, signal.SIGINT)
            if " cases in " in line:
                cases = line.split()[0]
        p.wait()
        return found, cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--toolnorm", required=True)
    ap.add_argument("--python", default="python3")
    ap.add_argument("--lang", default="python")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--duration", type=int, default=60)
    ap.add_argument("--switches", default="")
    ap.add_argument("--modes", default="guided,blind", help="guided, blind or both (the default)")
    ap.add_argument("--zoo", default="zoo", choices=["zoo", "deep"],
                    help="zoo: the bug zoo; deep: zoo/deep, bugs behind nested conditions")
    a = ap.parse_args()
    base = "zoo" if a.zoo == "zoo" else "zoo/deep"
    adapters = {"python": f"{a.python} {base}/python/adapter.py", "javascript": f"node {base}/javascript/adapter.mjs"}
    switches = [s["id"] for s in json.load(open(os.path.join(ROOT, base, "switches.json"))) if s["lang"] == a.lang]
    if a.switches:
        switches = [s for s in switches if s in a.switches.split(",")]
    times = {}
    print("switch\tseed\tmode\tseconds\tcases", flush=True)
    for s in switches:
        for seed in range(1, a.seeds + 1):
            for guided in [m == "guided" for m in a.modes.split(",")]:
                t, cases = first_finding(a.toolnorm, adapters[a.lang], s, seed, a.duration, guided)
                mode = "guided" if guided else "blind"
                times.setdefault(s, {}).setdefault(mode, []).append(t)
                print(f"{s}\t{seed}\t{mode}\t{'-' if t is None else f'{t:.2f}'}\t{cases}", flush=True)
    print()
    print("switch\tguided median s\tblind median s\tguided/blind")
    for s, by in times.items():
        med = {m: statistics.median(a.duration if t is None else t for t in ts) for m, ts in by.items()}
        if len(med) < 2:
            print(f"{s}\t" + "\t".join(f"{m} {t:.2f}" for m, t in med.items()))
            continue
        print(f"{s}\t{med['guided']:.2f}\t{med['blind']:.2f}\t{med['guided'] / max(med['blind'], 1e-9):.2f}")


if __name__ == "__main__":
    main()
