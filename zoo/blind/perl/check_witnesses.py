#!/usr/bin/env python3
"""Checks witnesses.json: for each case, the reference (toolnorm normalize, $TOOLNORM) gives
"want", the adapter with no switch gives it too, and the adapter with the case's switch gives
"got", which differs."""
import json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLNORM = os.environ.get("TOOLNORM", "toolnorm")


def adapter(schema, args, switch):
    req = '{"cmd":"normalize","id":1,"schema":%s,"arguments":%s}' % (json.dumps(schema), args)
    env = dict(os.environ)
    env.pop("BLIND_SWITCHES", None)
    if switch:
        env["BLIND_SWITCHES"] = switch
    out = subprocess.run(["perl", os.path.join(HERE, "adapter.pl")], input='{"cmd":"start","version":1}\n' + req + '\n{"cmd":"stop"}\n',
                         capture_output=True, text=True, env=env, check=True).stdout.splitlines()
    return json.loads(out[1]).get("arguments")


def main():
    bad = 0
    for w in json.load(open(os.path.join(HERE, "witnesses.json"))):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(w["schema"], f)
        try:
            ref = subprocess.run([TOOLNORM, "normalize", "--schema", f.name], input=w["arguments"], capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        want, got = json.loads(w["want"]), json.loads(w["got"])
        checks = [("the reference", json.loads(ref.stdout) if ref.returncode == 0 else None, want),
                  ("the clean adapter", adapter(w["schema"], w["arguments"], ""), want),
                  (w["switch"], adapter(w["schema"], w["arguments"], w["switch"]), got)]
        for who, have, should in checks:
            if have != should:
                print(f"{w['switch']} {w['arguments']}: {who} gives {json.dumps(have)}, want {json.dumps(should)}")
                bad += 1
        if want == got:
            print(f"{w['switch']} {w['arguments']}: the switch changes nothing")
            bad += 1
    if bad:
        sys.exit(1)
    print("perl witnesses: all hold")


main()
