#!/usr/bin/env python3
"""An RT-TOOL-8 normalizer written the way a Python developer would write it,
with the standard library's json and html.unescape, behind toolnorm's
implementation protocol (docs/protocol.md).

    toolnorm check --impl 'python3 examples/python/adapter.py'

It is an example to check, not a reference: toolnorm finds where it differs
from the rule (see docs/implementations.md).
"""
import html
import json
import sys


def unescape(value):
    """Decode HTML character references in every string, until nothing changes."""
    if isinstance(value, str):
        while True:
            decoded = html.unescape(value)
            if decoded == value:
                return value
            value = decoded
    if isinstance(value, list):
        return [unescape(v) for v in value]
    if isinstance(value, dict):
        return {k: unescape(v) for k, v in value.items()}  # keys untouched
    return value


def normalize(schema, arguments):
    if not isinstance(arguments, dict):
        raise ValueError("arguments must be an object")
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    result = {}
    for key, value in arguments.items():
        declared = properties.get(key, {}).get("type") if isinstance(properties.get(key), dict) else None
        if isinstance(value, str) and declared in ("array", "object"):
            try:
                parsed = json.loads(value)
                if isinstance(parsed, list if declared == "array" else dict):
                    value = parsed
            except ValueError:
                pass
        result[key] = unescape(value)
    return result


def main():
    for line in sys.stdin:
        request = json.loads(line)
        cmd = request.get("cmd")
        if cmd == "start":
            answer = {"version": 1, "implementation": {"name": "python-stdlib-example", "language": "Python",
                                                       "version": sys.version.split()[0]}}
        elif cmd == "normalize":
            try:
                answer = {"id": request["id"], "arguments": normalize(request["schema"], request["arguments"])}
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
