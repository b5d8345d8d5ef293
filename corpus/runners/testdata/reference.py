"""normalize() for replay.py --impl: toolnorm's reference, `toolnorm normalize` (the binary in $TOOLNORM,
else toolnorm on the PATH) run on each vector's schema and arguments. For scripts/corpus-runners.sh."""
import os, subprocess, tempfile

KINDS = {": arguments must be a JSON object": "not-object", ": nesting too deep": "too-deep", ": invalid JSON": "invalid-json"}


def normalize(schema, arguments, options):
    with tempfile.TemporaryDirectory() as d:
        paths = os.path.join(d, "schema.json"), os.path.join(d, "args.json")
        for path, text in zip(paths, (schema, arguments)):
            with open(path, "w", encoding="utf-8", newline="") as f: f.write(text)
        flags = ["--profile", options.get("profile", "text"), "--max-passes", str(options.get("max_passes", 0))]
        flags += ["--max-depth", str(options["max_depth"])] if options.get("max_depth") else []
        r = subprocess.run([os.environ.get("TOOLNORM", "toolnorm"), "normalize", "--schema", paths[0], "--args", paths[1]] + flags,
                           capture_output=True, encoding="utf-8")
    if r.returncode == 0: return r.stdout
    # "toolnorm: FILE: WHAT ...": the schema's file is invalid-schema whatever it says
    raise ValueError("invalid-schema" if r.stderr.startswith(f"toolnorm: {paths[0]}: ") else
                     next((k for needle, k in KINDS.items() if needle in r.stderr), r.stderr))
