"""The deep zoo's Python normalizer: clean with no switch, and each switch's bug shown by its
witness (zoo/deep/witnesses.json), through the adapter and the kit as toolnorm runs it.

    python3 -m unittest discover -s zoo/deep/python
"""
import json
import os
import subprocess
import sys
import unittest
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from deep_normalizer import SWITCHES  # noqa: E402


def load(text):
    return json.loads(text, parse_float=Decimal, parse_int=Decimal)


with open(os.path.join(HERE, "..", "witnesses.json"), encoding="utf-8") as f:
    WITNESSES = json.load(f, parse_float=Decimal, parse_int=Decimal)


def answers(switch, witnesses):
    """The adapter's answers to each witness's case, ZOO_SWITCHES=switch."""
    lines = [json.dumps({"cmd": "start", "version": 1})]
    for i, w in enumerate(witnesses):
        lines.append(json.dumps({"cmd": "normalize", "id": i, "schema": w["schema"], "arguments": w["arguments"]},
                                default=str))
    out = subprocess.run([sys.executable, os.path.join(HERE, "adapter.py")], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, env=dict(os.environ, ZOO_SWITCHES=switch), check=True)
    return [load(line) for line in out.stdout.splitlines()[1:]]


class DeepZooTest(unittest.TestCase):
    def test_every_switch_has_a_witness(self):
        self.assertEqual(sorted(SWITCHES), sorted(WITNESSES))
        with open(os.path.join(HERE, "..", "switches.json"), encoding="utf-8") as f:
            listed = [s["id"] for s in json.load(f) if s["lang"] == "python"]
        self.assertEqual(sorted(SWITCHES), sorted(listed))

    def test_clean(self):
        for w, a in zip(WITNESSES.values(), answers("", list(WITNESSES.values()))):
            self.assertEqual(a.get("arguments"), w["clean"], a)

    def test_each_switch_shows_its_bug(self):
        for switch, w in WITNESSES.items():
            with self.subTest(switch=switch):
                (a,) = answers(switch, [w])
                self.assertEqual(a.get("arguments"), w["buggy"], a)
                self.assertNotEqual(w["buggy"], w["clean"])


if __name__ == "__main__":
    unittest.main()
