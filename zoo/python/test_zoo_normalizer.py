"""The Python zoo's tests: each switch changes the answer on its witness, to the answer committed
in witnesses.json; with no switch, the normalizer answers as the reference on every witness of
the zoo (both languages'); the adapter serves a switch over the protocol.

    python3 -m unittest discover -s zoo/python

The answers come from toolnorm (zoo/witnesses.py fills them in).
"""
import json
import os
import subprocess
import sys
import unittest
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ZOO = os.path.dirname(HERE)
sys.path.insert(0, os.path.normpath(os.path.join(ZOO, "..", "kits", "python")))
sys.path.insert(0, HERE)

import toolnorm_kit  # noqa: E402
from zoo_normalizer import SWITCHES, Normalizer  # noqa: E402


def load(lang):
    with open(os.path.join(ZOO, lang, "witnesses.json"), encoding="utf-8") as f:
        return json.load(f)


def canonical(answer):
    """An answer as toolnorm compares it: members in order, numbers by value, any error alike."""
    if "error" in answer:
        return "error"
    return json.loads(answer["arguments"], object_pairs_hook=lambda pairs: ("object", pairs),
                      parse_float=Decimal, parse_int=Decimal)


def answer(normalizer, witness):
    try:
        return {"arguments": toolnorm_kit.call(normalizer, witness["schema"], witness["arguments"])}
    except toolnorm_kit.Unsupported:
        raise
    except Exception:  # the function's error, as the kit answers it
        return {"error": True}


class Witnesses(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.set_int_max_str_digits(0)
        cls.witnesses = load("python")

    def test_every_switch_has_a_witness(self):
        self.assertEqual(sorted(SWITCHES), sorted(self.witnesses))
        with open(os.path.join(ZOO, "switches.json"), encoding="utf-8") as f:
            listed = [s["id"] for s in json.load(f) if s["lang"] == "python"]
        self.assertEqual(sorted(SWITCHES), sorted(listed), "zoo/switches.json lists each switch once")

    def test_each_switch_changes_its_witness(self):
        for switch, w in self.witnesses.items():
            with self.subTest(switch=switch):
                got = canonical(answer(Normalizer([switch]), w))
                self.assertEqual(got, canonical(w["answer"]), "the answer committed for the switch")
                self.assertNotEqual(got, canonical(w["reference"]), "a witness the switch answers as the reference does")
                if "deviation_reference" in w:
                    self.assertEqual(got, canonical(w["deviation_reference"]))

    def test_no_switch_is_the_reference(self):
        clean = Normalizer()
        for lang in ("python", "javascript"):
            for switch, w in load(lang).items():
                with self.subTest(witness=switch):
                    self.assertEqual(canonical(answer(clean, w)), canonical(w["reference"]))

    def test_adapter_serves_a_switch(self):
        w = self.witnesses["py-html-unescape-once"]
        request = json.dumps({"cmd": "normalize", "id": 1, "schema": json.loads(w["schema"]),
                              "arguments": json.loads(w["arguments"])})
        p = subprocess.run([sys.executable, os.path.join(HERE, "adapter.py")],
                           input='{"cmd":"start","version":1}\n' + request + '\n{"cmd":"stop"}\n',
                           capture_output=True, text=True, env={**os.environ, "ZOO_SWITCHES": "py-html-unescape-once"},
                           timeout=60)
        start, got = p.stdout.splitlines()
        self.assertEqual(json.loads(start)["implementation"]["version"], "py-html-unescape-once")
        self.assertEqual(canonical({"arguments": json.dumps(json.loads(got)["arguments"])}), canonical(w["answer"]))

    def test_adapter_refuses_an_unknown_switch(self):
        p = subprocess.run([sys.executable, os.path.join(HERE, "adapter.py")], input="", capture_output=True,
                           text=True, env={**os.environ, "ZOO_SWITCHES": "py-no-such-bug"}, timeout=60)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("py-no-such-bug", p.stderr)


if __name__ == "__main__":
    unittest.main()
