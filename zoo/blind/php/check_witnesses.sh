#!/usr/bin/env bash
# Checks witnesses.json: for each witness, the reference (toolnorm normalize)
# gives "reference", the adapter with BLIND_SWITCHES=<switch> gives
# "switched", the two differ as JSON values (member order counts), and the
# adapter with no switch agrees with the reference.
#
#   ./check_witnesses.sh            check
#   ./check_witnesses.sh --write    fill in "reference" and "switched" from the tools
#
# TOOLNORM (default: toolnorm on PATH) is the toolnorm binary.
set -euo pipefail
cd "$(dirname "$0")"
TOOLNORM=${TOOLNORM:-toolnorm}
MODE=${1:-check}
export TOOLNORM MODE

python3 - <<'PY'
import json, os, subprocess, sys, tempfile

toolnorm = os.environ["TOOLNORM"]
write = os.environ["MODE"] == "--write"
pairs = lambda s: json.loads(s, object_pairs_hook=lambda kv: ("obj", kv))

def ordered(v):
    # A JSON value in a form where member order counts.
    if isinstance(v, tuple) and v[0] == "obj":
        return ["obj", [[k, ordered(x)] for k, x in v[1]]]
    if isinstance(v, list):
        return [ordered(x) for x in v]
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v

def reference(schema, args):
    with tempfile.TemporaryDirectory() as d:
        s, a = os.path.join(d, "schema.json"), os.path.join(d, "args.json")
        open(s, "w").write(schema)
        open(a, "w").write(args)
        p = subprocess.run([toolnorm, "normalize", "--schema", s, "--args", a], capture_output=True, text=True)
        return p.stdout.strip() if p.returncode == 0 else json.dumps({"error": p.stderr.strip()})

def adapter(schema, args, switch):
    env = dict(os.environ)
    env["BLIND_SWITCHES"] = switch
    req = '{"cmd":"start","version":1}\n{"cmd":"normalize","id":1,"schema":%s,"arguments":%s}\n{"cmd":"stop"}\n' % (schema, args)
    p = subprocess.run(["php", "adapter.php"], input=req, capture_output=True, text=True, env=env)
    lines = p.stdout.splitlines()
    if p.returncode != 0 or len(lines) < 2:
        sys.exit("adapter failed (BLIND_SWITCHES=%s): %s" % (switch, p.stderr))
    answer = json.loads(lines[1], object_pairs_hook=lambda kv: kv)
    answer = dict(answer)
    if "arguments" not in answer:
        return json.dumps({"error": answer.get("error") or answer.get("unsupported")})
    # The answer's arguments as text, order kept.
    text = lines[1]
    start = text.index('"arguments":') + len('"arguments":')
    return text[start:-1]

witnesses = json.load(open("witnesses.json"), object_pairs_hook=lambda kv: __import__("collections").OrderedDict(kv))
failed = 0
for w in witnesses:
    schema = json.dumps(w["schema"], ensure_ascii=False, separators=(",", ":"))
    args = json.dumps(w["arguments"], ensure_ascii=False, separators=(",", ":"))
    ref = reference(schema, args)
    sw = adapter(schema, args, w["switch"])
    clean = adapter(schema, args, "")
    if write:
        w["reference"] = json.loads(ref, object_pairs_hook=lambda kv: __import__("collections").OrderedDict(kv))
        w["switched"] = json.loads(sw, object_pairs_hook=lambda kv: __import__("collections").OrderedDict(kv))
    problems = []
    if ordered(pairs(ref)) != ordered(pairs(json.dumps(w["reference"], ensure_ascii=False))):
        problems.append("reference now gives %s" % ref)
    if ordered(pairs(sw)) != ordered(pairs(json.dumps(w["switched"], ensure_ascii=False))):
        problems.append("switched now gives %s" % sw)
    if ordered(pairs(ref)) == ordered(pairs(sw)):
        problems.append("switched agrees with the reference")
    if ordered(pairs(clean)) != ordered(pairs(ref)):
        problems.append("the clean adapter gives %s, not the reference's %s" % (clean, ref))
    print("%-3s %s%s" % (w["switch"], "FAIL " if problems else "ok   ", "; ".join(problems) if problems else "reference %s / switched %s" % (ref, sw)))
    failed += bool(problems)
if write:
    with open("witnesses.json", "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(w, ensure_ascii=False) for w in witnesses) + "\n]\n")
print("%d of %d witnesses fail" % (failed, len(witnesses)))
sys.exit(1 if failed else 0)
PY
