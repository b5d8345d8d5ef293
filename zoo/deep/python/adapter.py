#!/usr/bin/env python3
"""The deep zoo's normalizer behind toolnorm's protocol, with the bugs ZOO_SWITCHES names.

    ZOO_SWITCHES=deep-quote-fallback toolnorm fuzz --impl 'python3 zoo/deep/python/adapter.py' ...

Coverage: the lines of this directory and of the zoo's normalizer (zoo/python).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ZOO = os.path.normpath(os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "..", "..", "kits", "python")))
sys.path.insert(0, HERE)

import toolnorm_kit  # noqa: E402
from deep_normalizer import SWITCHES, DeepNormalizer  # noqa: E402


def main():
    switches = [s.strip() for s in os.environ.get("ZOO_SWITCHES", "").split(",") if s.strip()]
    unknown = [s for s in switches if s not in SWITCHES]
    if unknown:
        sys.exit(f"deep zoo adapter: unknown switches {', '.join(unknown)}; it has {', '.join(SWITCHES)}")
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)
    toolnorm_kit.serve(DeepNormalizer(switches), name="zoo-deep-python", version=",".join(switches) or "clean",
                       language="Python", coverage=[HERE, ZOO])


if __name__ == "__main__":
    main()
