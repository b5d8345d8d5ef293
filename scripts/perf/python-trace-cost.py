#!/usr/bin/env python3
"""What line coverage costs a Python adapter per request, for issue 38
(grey-box fuzzing): normalizes N cases with the Python example's
normalizer (examples/python/adapter.py), then again collecting the lines
of its own code that each case reached, as a kit answering "coverage
since the last request" would on Python before 3.12, with a trace
function (sys.settrace; 3.12's sys.monitoring is cheaper, and not on the
project's machine to measure). Prints the microseconds a case takes each
way.

    python3 scripts/perf/python-trace-cost.py [N]

On the project's two-core VM (Python 3.11.2, 2026-12-07): 4.0 to 4.5 us
a case alone, 23.5 to 23.9 us traced. The example's adapter spends about
11 us a request, JSON in and out included (the first 5,063 requests of
`toolnorm check --seed 1 --checks 1024`, recorded with tee, replayed to
it: 0.09 s, 0.035 s of which is its start), so a trace function costs
it about three times its own work, where issue 38 allows twice.
"""
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "examples", "python"))
import adapter  # noqa: E402

n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
schema = {"type": "object", "properties": {"tags": {"type": "array"}, "title": {"type": "string"}}}
cases = [{"tags": '["a","b"]', "title": "Ember &amp;amp; Oak %d" % i} for i in range(n)]
own = adapter.__file__

start = time.perf_counter()
for c in cases:
    adapter.normalize(schema, c)
alone = (time.perf_counter() - start) * 1e6 / n

reached = set()


def tracer(frame, event, arg):
    if frame.f_code.co_filename != own:
        return None  # not the implementation's own code: no line events
    if event == "line":
        reached.add((frame.f_code.co_name, frame.f_lineno))
    return tracer


sys.settrace(tracer)
start = time.perf_counter()
total = 0
for c in cases:
    adapter.normalize(schema, c)
    total += len(reached)
    reached.clear()
traced = (time.perf_counter() - start) * 1e6 / n
sys.settrace(None)
print("%.1f us a case alone, %.1f us with its lines collected through sys.settrace (%d lines reached in all)" % (alone, traced, total))
