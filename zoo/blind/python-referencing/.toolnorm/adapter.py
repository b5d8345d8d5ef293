#!/usr/bin/env python3
"""toolnorm's adapter for argfix:normalize (written by toolnorm init, which never overwrites it without
--force; edit it freely: INFO, DECLARES, function and unsupported).

    toolnorm check --impl 'python3 .toolnorm/adapter.py'

The kit beside it (toolnorm_kit.py) speaks the protocol; this file only says what to call, and
which reading of RT-TOOL-8 it implements (docs/protocol.md, "Declares").
"""
import os
import sys

sys.path.insert(0, os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# In toolnorm's tree the kit is kits/python's, not a copy beside this file.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "kits", "python"))

import toolnorm_kit  # noqa: E402
from argfix import normalize as FUNCTION  # noqa: E402

INFO = {"name": "argfix", "version": "0.1.0", "language": "Python", "homepage": None}
DECLARES = {"profile": "text", "max_passes": 0, "depth": "all", "repairs": ["json", "entities"]}

# The words after the adapter on its command line, for a mode of your function:
#   toolnorm check --impl 'python3 .toolnorm/adapter.py strict'   gives ARGS == ["strict"]
# The corpus test takes them from TOOLNORM_ARGS (TOOLNORM_ARGS=strict python3 -m unittest discover -s .toolnorm -p 'test_*.py').
ARGS = sys.argv[1:] if __name__ == "__main__" else os.environ.get("TOOLNORM_ARGS", "").split()


def function(schema, arguments):
    """What toolnorm checks: your function, given what ARGS asks for if it takes a mode."""
    return FUNCTION(schema, arguments)


def unsupported(error):
    """True for an exception of function that means it cannot take this input as sent (answered
    `unsupported`: counted, not judged) rather than that it rejects the input (an `error` answer,
    judged). Raising toolnorm_kit.Unsupported always means that."""
    return False


if __name__ == "__main__":
    toolnorm_kit.serve(function, **INFO, **DECLARES, unsupported=unsupported)
