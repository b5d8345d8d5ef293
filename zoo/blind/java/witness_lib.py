"""Shared by make_witnesses.py and check_witnesses.py: run the reference and this implementation on one case."""
import json, os, subprocess, tempfile
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLNORM = os.environ.get("TOOLNORM", "toolnorm")


def build():
    srcs = [os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".java")]
    subprocess.run(["javac", "-d", os.path.join(HERE, "out")] + srcs, check=True)


def _files(schema, arguments):
    d = tempfile.mkdtemp()
    s, a = os.path.join(d, "schema.json"), os.path.join(d, "args.json")
    with open(s, "w") as f:
        f.write(schema if isinstance(schema, str) else json.dumps(schema))
    with open(a, "w") as f:
        f.write(arguments if isinstance(arguments, str) else json.dumps(arguments))
    return s, a


def _answer(proc):
    if proc.returncode == 0:
        return {"arguments": proc.stdout.strip()}
    return {"error": (proc.stderr.strip().splitlines() or ["(no message)"])[-1]}


def reference(schema, arguments):
    s, a = _files(schema, arguments)
    return _answer(subprocess.run([TOOLNORM, "normalize", "--schema", s, "--args", a], capture_output=True, text=True))


def mine(schema, arguments, switches=""):
    s, a = _files(schema, arguments)
    env = dict(os.environ)
    env.pop("BLIND_SWITCHES", None)
    if switches:
        env["BLIND_SWITCHES"] = switches
    return _answer(subprocess.run(["java", "-cp", os.path.join(HERE, "out"), "NormalizeMain", s, a],
                                  capture_output=True, text=True, env=env))


def _value(text):
    # numbers by exact decimal value, objects member by member in order (duplicates kept)
    return json.loads(text, parse_float=Decimal, parse_int=Decimal, object_pairs_hook=lambda p: ("obj", p))


def same(x, y):
    """Any error matches any error; outputs compare as JSON values."""
    if "error" in x or "error" in y:
        return "error" in x and "error" in y
    return _value(x["arguments"]) == _value(y["arguments"])
