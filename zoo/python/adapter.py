#!/usr/bin/env python3
"""The bug zoo's Python normalizer behind toolnorm's protocol, with the bugs ZOO_SWITCHES names.

    ZOO_SWITCHES=py-html-unescape,py-no-ref toolnorm check --impl 'python3 zoo/python/adapter.py'

The kit (kits/python/toolnorm_kit.py, imported where it stands in this repository, as the
adapters toolnorm init writes import theirs) speaks the protocol. ZOO_DECLARES, a JSON object,
changes what the adapter declares (docs/protocol.md, "Declares"): with it, a switch whose bug is
a reading toolnorm can be told about (max_passes 1, profile attribute, depth top, one repair)
is checked against the reference read that way, and must come out clean.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "kits", "python")))
sys.path.insert(0, HERE)

import toolnorm_kit  # noqa: E402
from zoo_normalizer import SWITCHES, Normalizer  # noqa: E402


def main():
    switches = [s.strip() for s in os.environ.get("ZOO_SWITCHES", "").split(",") if s.strip()]
    unknown = [s for s in switches if s not in SWITCHES]
    if unknown:
        sys.exit(f"zoo adapter: unknown switches {', '.join(unknown)}; the Python zoo has {', '.join(SWITCHES)}")
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # references and numbers of any length are text to this normalizer
    declares = {"profile": "text", "max_passes": 0, "depth": "all", "repairs": ["json", "entities"]}
    declares.update(json.loads(os.environ.get("ZOO_DECLARES") or "{}"))
    toolnorm_kit.serve(Normalizer(switches), name="zoo-python", version=",".join(switches) or "clean",
                       language="Python", **declares)


if __name__ == "__main__":
    main()
