#!/usr/bin/env python3
"""Replay toolnorm's RT-TOOL-8 corpus on a normalizer: Python 3.8+, standard library only.

Copy this file into your test suite, beside a copy of corpus/vectors/. Then, in a test:

    import replay
    assert replay.replay("corpus/vectors", normalize) == 0

or from the shell:

    python3 replay.py VECTORS                       check that every vector file is a vector; count them
    python3 replay.py VECTORS --impl FILE.py        replay on the function normalize in FILE.py
    python3 replay.py VECTORS --answers FILE.jsonl  judge another implementation's answers, one JSON
        object a line: {"id": ID, "output": JSON TEXT} or {"id": ID, "error": KIND} (later lines win)

normalize(schema, arguments, options) is given the schema and the arguments as JSON text (str) and
the vector's options (a dict, maybe empty: profile, max_passes, max_depth). It returns the
normalized arguments as JSON text; or raises an exception to report an error, whose message is the
kind (invalid-json, not-object, too-deep, invalid-schema) or anything else for an unspecified error,
which matches every kind; or returns None to skip a vector whose options it does not offer.
Results compare as corpus/README.md says: numbers by exact decimal value, members in order,
duplicates kept. Exit status 1 if any vector failed.
"""
import base64, json, os, re, sys

KINDS = ("invalid-json", "not-object", "too-deep", "invalid-schema")
FORMS = (("schema", "schema_raw", "schema_base64"), ("arguments", "arguments_raw", "arguments_base64"),
         ("expected", "expected_raw", "error"))
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))  # the corpus nests 1000 deep
if hasattr(sys, "set_int_max_str_digits"): sys.set_int_max_str_digits(0)  # exponents of any length


def _number(s):  # ("number", digits, exponent), one form per value: 1, 1.0 and 10e-1 are alike, -0 is 0
    sign, i, f, e = re.fullmatch(r"(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?", s).groups()
    d = (i + (f or "")).lstrip("0")
    if not d: return ("number", "0", 0)
    return ("number", sign + d.rstrip("0"), int(e or 0) - len(f or "") + len(d) - len(d.rstrip("0")))


def _constant(s): raise ValueError(s + " is not JSON")


def exact(text):
    """A JSON text as a value that compares as the corpus says (objects are tuples of (key, value) pairs)."""
    return json.loads(text, parse_float=_number, parse_int=_number, parse_constant=_constant, object_pairs_hook=tuple)


def text(v, k):  # the exact text of the schema, the arguments or the expected result; None if no str holds it
    if k + "_raw" in v: return v[k + "_raw"]
    if k + "_base64" in v:
        try: return base64.b64decode(v[k + "_base64"]).decode("utf-8")
        except UnicodeDecodeError: return None
    return json.dumps(v[k], ensure_ascii=False)  # embedded values hold nothing a generic reader loses


def vectors(root):
    """The vector files under root, in order, as (path relative to root, vector); a file that is
    not a vector raises SystemExit, with one line naming it."""
    for d, _, names in sorted(os.walk(root)):
        for name in sorted(n for n in names if n.endswith(".json") and not n.startswith(".")):
            path = os.path.join(d, name)
            try:
                with open(path, "rb") as f: v = json.loads(f.read().decode("utf-8"))
            except (OSError, UnicodeDecodeError, ValueError, RecursionError, MemoryError) as e:  # one line, no traceback
                raise SystemExit(f"{path}: not a vector: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:500])
            if not (isinstance(v, dict) and all(k in v for k in ("id", "description", "clause", "origin"))
                    and all(sum(k in v for k in form) == 1 for form in FORMS)):
                raise SystemExit(f"{path}: not a vector")
            yield os.path.relpath(path, root), v


def judge(v, normalize=None, answers=None):
    """One vector on normalize (or in answers): (True, ""), (False, what was wrong), or (None, why
    it was skipped)."""
    schema, args = text(v, "schema"), text(v, "arguments")
    if schema is None or args is None:
        return None, "not UTF-8, which no Python str holds"
    if answers is not None:
        got = answers.get(v["id"], {"missing": True})
    else:
        try:
            o = normalize(schema, args, v.get("options", {}))
            if o is None:
                return None, "options not offered"
            got = {"output": o if isinstance(o, str) else json.dumps(o)}
        except Exception as e:  # an error the implementation reports
            message = str(e)
            got = {"error": message if message in KINDS else "error", "message": f"{type(e).__name__}: {message}" if message else type(e).__name__}
    want = v.get("error") or text(v, "expected")
    if "error" in v: ok = got.get("error") in (v["error"], "error")
    else:
        try: ok = "output" in got and exact(got["output"]) == exact(want)
        except (ValueError, TypeError, RecursionError): ok = False  # the output is not JSON text
    if ok: return True, ""
    if "missing" in got: said = "no answer"
    elif "output" in got: said = str(got["output"])
    elif "message" in got and got["error"] == "error": said = f"an error ({got['message']})"
    else: said = f"error {got.get('error')}"
    said = re.sub(r"\n\s*", "", said)  # raw newlines in JSON are whitespace
    return False, f"got {said[:200]}, want {'error ' if 'error' in v else ''}{want[:200]}"


def replay(root, normalize=None, answers=None, out=sys.stdout):
    read, passed, failed, skipped = 0, 0, 0, {}
    for path, v in vectors(root):
        read += 1
        if normalize is None and answers is None: continue
        ok, message = judge(v, normalize, answers)
        if ok is None:
            skipped[message] = skipped.get(message, 0) + 1
            continue
        passed, failed = passed + ok, failed + (not ok)
        if not ok:
            print(f"FAIL {path}: {message}", file=out)
    summary = f"read {read} vectors"
    if normalize is not None or answers is not None:
        summary += f": {passed} passed, {failed} failed, {sum(skipped.values())} skipped"
        summary += " (" + "; ".join(f"{n} {why}" for why, n in skipped.items()) + ")" if skipped else ""
    print(summary, file=out)
    return 1 if failed else 0


def main(argv):
    if len(argv) == 1: return replay(argv[0])
    if len(argv) == 3 and argv[1] == "--impl":
        import importlib.util
        spec = importlib.util.spec_from_file_location("impl", argv[2])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return replay(argv[0], module.normalize)
    if len(argv) == 3 and argv[1] == "--answers":
        with open(argv[2], encoding="utf-8") as f:
            return replay(argv[0], answers={a["id"]: a for a in (json.loads(l) for l in f if l.strip())})
    raise SystemExit("usage: replay.py VECTORS [--impl FILE.py | --answers FILE.jsonl]")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
