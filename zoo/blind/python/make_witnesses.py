#!/usr/bin/env python3
"""Builds (--write) or checks witnesses.json: for each case, the reference (toolnorm normalize)
and the output of this implementation with the switch on; checks that the clean build agrees
with the reference and the switched one does not."""
import json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLNORM = os.environ.get("TOOLNORM", "toolnorm")
PY = sys.executable


def reference(schema, arguments):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(schema, f)
    try:
        r = subprocess.run([TOOLNORM, "normalize", "--schema", f.name], input=json.dumps(arguments),
                           capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if r.returncode != 0:
        return {"error": r.stderr.strip()}
    return json.loads(r.stdout)


def ours(schema, arguments, switch):
    code = ("import sys; sys.path[:0] = [%r, %r]; import toolnorm_kit, rtnorm; "
            "print(toolnorm_kit.call(rtnorm.normalize, sys.argv[1], sys.argv[2]))"
            % (HERE, os.path.join(HERE, "..", "..", "..", "kits", "python")))
    env = dict(os.environ, BLIND_SWITCHES=switch)
    r = subprocess.run([PY, "-c", code, json.dumps(schema), json.dumps(arguments)],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        return {"error": r.stderr.strip().splitlines()[-1]}
    return json.loads(r.stdout)


def main():
    write = "--write" in sys.argv
    path = os.path.join(HERE, "witnesses.json")
    cases = json.load(open(path))
    out, ok = [], True
    for c in cases:
        ref = reference(c["schema"], c["arguments"])
        clean = ours(c["schema"], c["arguments"], "")
        sw = ours(c["schema"], c["arguments"], c["switch"])
        d = json.dumps  # compares member order too
        good = d(clean) == d(ref) and d(sw) != d(ref) and (
            write or (d(ref) == d(c["reference"]) and d(sw) == d(c["switched"])))
        ok &= good
        print("%s %s  reference=%s  switched=%s" % ("ok  " if good else "FAIL", c["switch"],
                                                  json.dumps(ref), json.dumps(sw)))
        out.append({"switch": c["switch"], "schema": c["schema"], "arguments": c["arguments"],
                    "reference": ref, "switched": sw})
    if write:
        json.dump(out, open(path, "w"), indent=1)
        print("wrote", path)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
