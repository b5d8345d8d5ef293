#!/usr/bin/env python3
"""Re-check witnesses.json: for each witness, the reference ($TOOLNORM normalize,
default ../toolnorm) gives `want`, the adapter with no switch gives `want`, and the
adapter with the witness's switch on gives `got` (which differs from `want`).
Outputs are compared as JSON values (numbers by exact decimal value, members in
order, duplicates kept); any error equals any error. Usage:
  python3 check_witnesses.py [--write]   (--write fills want/got from the runs)"""
import decimal, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLNORM = os.environ.get("TOOLNORM", os.path.join(HERE, "..", "toolnorm"))
ADAPTER = ["ruby", os.path.join(HERE, "adapter.rb")]
sys.setrecursionlimit(100000)


def value(text):
    if text.startswith("error"):
        return "ERROR"
    return json.loads(text, parse_float=decimal.Decimal, parse_int=decimal.Decimal,
                      object_pairs_hook=lambda pairs: ("obj", pairs))


def reference(schema, args):
    with tempfile.TemporaryDirectory() as d:
        sp, ap = os.path.join(d, "schema.json"), os.path.join(d, "args.json")
        open(sp, "w").write(schema)
        open(ap, "w").write(args)
        p = subprocess.run([TOOLNORM, "normalize", "--schema", sp, "--args", ap], capture_output=True, text=True)
        if p.returncode != 0:
            return "error: " + p.stderr.strip().replace(d + os.sep, "")
    return p.stdout.strip()


def adapter(cases, switch):
    env = dict(os.environ, BLIND_SWITCHES=switch)
    lines = ['{"cmd":"start","version":1}']
    for i, (s, a) in enumerate(cases):
        lines.append('{"cmd":"normalize","id":%d,"schema":%s,"arguments":%s}' % (i + 1, s, a))
    lines.append('{"cmd":"stop"}')
    p = subprocess.run(ADAPTER, input="\n".join(lines) + "\n", capture_output=True, text=True, env=env)
    out = []
    for line in p.stdout.split("\n")[1:]:
        if not line:
            continue
        # the answer's own text, without the envelope: {"id":N,"arguments":X} or {"id":N,"error":E}
        head, _, rest = line.partition(',')
        if rest.startswith('"arguments":'):
            out.append(rest[len('"arguments":'):-1])
        else:
            out.append("error: " + json.loads(line)["error"])
    return out


def main():
    path = os.path.join(HERE, "witnesses.json")
    ws = json.load(open(path))
    write = "--write" in sys.argv
    cases = [(w["schema"], w["arguments"]) for w in ws]
    clean = adapter(cases, "")
    bad = 0
    for w, c in zip(ws, clean):
        ref = reference(w["schema"], w["arguments"])
        got = adapter([(w["schema"], w["arguments"])], w["switch"])[0]
        if write:
            w["want"], w["got"] = ref, got
        ok = (value(ref) == value(w["want"]) and value(c) == value(w["want"])
              and value(got) == value(w["got"]) and value(got) != value(w["want"]))
        bad += not ok
        print("ok  " if ok else "FAIL", w["switch"], w["arguments"][:70])
        if not ok:
            print("   reference:", ref[:300], "\n   clean:    ", c[:300], "\n   switched: ", got[:300])
    if write:
        json.dump(ws, open(path, "w"), indent=1, ensure_ascii=False)
        open(path, "a").write("\n")
    print(f"{len(ws) - bad} of {len(ws)} witnesses hold")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
