#!/usr/bin/env python3
"""The Python example adapter (examples/python/adapter.py), made to crash on
about one request in 50, for docs/performance.md: with CRASH=1 it exits, with
no answer, on every normalize request whose schema and arguments hash to 0
modulo 50 (crc32 of their JSON text: the same case crashes it every time it
is sent, whatever its id). Without CRASH it is the example as it is.

    toolnorm check --impl 'CRASH=1 python3 scripts/perf/crashy.py' --seed 1 --checks 128
"""
import json
import os
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python"))
import adapter  # noqa: E402

CRASH = os.environ.get("CRASH") == "1"


def main():
    for line in sys.stdin:
        request = json.loads(line)
        cmd = request.get("cmd")
        if cmd == "start":
            answer = {"version": 1, "implementation": {"name": "python-stdlib-example", "language": "Python",
                                                       "version": sys.version.split()[0]}}
        elif cmd == "normalize":
            if CRASH:
                text = json.dumps([request.get("schema"), request.get("arguments")], sort_keys=True)
                if zlib.crc32(text.encode("utf-8", "surrogatepass")) % 50 == 0:
                    sys.stderr.write("crashy: exiting on request %s\n" % request["id"])
                    os._exit(3)
            try:
                answer = {"id": request["id"], "arguments": adapter.normalize(request["schema"], request["arguments"])}
            except Exception as e:  # an implementation's error, reported as such
                answer = {"id": request["id"], "error": f"{type(e).__name__}: {e}"}
        elif cmd == "stop":
            return
        else:
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
