"""Tests of toolnorm_kit over the protocol's edge cases: python3 -m unittest discover kits/python"""
import copy
import io
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import toolnorm_kit  # noqa: E402


def identity(schema, arguments):
    return arguments


def session(function, *requests, **declares):
    """Runs serve on the request lines (str or dict) and returns its answer lines."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    stdin = io.BytesIO("".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass"))
    stdout = io.BytesIO()
    toolnorm_kit.serve(function, declares.pop("name", "test"), stdin=stdin, stdout=stdout, **declares)
    out = stdout.getvalue().decode("ascii")
    assert out == "" or out.endswith("\n"), out
    return out.split("\n")[:-1]


def normalize(function, arguments_text, schema_text="{}"):
    """The answer line to one normalize request whose arguments are arguments_text, as sent."""
    line = '{"cmd":"normalize","id":1,"schema":%s,"arguments":%s}' % (schema_text, arguments_text)
    (answer,) = session(function, line)
    return answer


class Session(unittest.TestCase):
    def test_start_declares_and_stop(self):
        out = session(identity, {"cmd": "start", "version": 1}, {"cmd": "hello"}, {"cmd": "stop"},
                      {"cmd": "start", "version": 1}, name="mine", version="0.3.1",
                      profile="attribute", max_passes=2, depth="top", repairs=["json"])
        self.assertEqual(len(out), 1, "unknown commands are not answered, and stop ends it")
        self.assertEqual(json.loads(out[0]), {
            "version": 1, "implementation": {"name": "mine", "language": "Python", "version": "0.3.1"},
            "declares": {"profile": "attribute", "max_passes": 2, "depth": "top", "repairs": ["json"]},
            "coverage": "lines"})

    def test_bad_declares_are_refused(self):
        for bad in ({"profile": "html"}, {"max_passes": -1}, {"depth": "deep"}, {"repairs": []},
                    {"repairs": ["json", "html"]}, {"name": ""}):
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                session(identity, **bad)

    def test_id_echoed_as_written(self):
        line = '{"cmd":"normalize","id":12345678901234567890,"schema":{},"arguments":{}}'
        self.assertEqual(session(identity, line), ['{"id":12345678901234567890,"arguments":{}}'])

    def test_id_not_a_number_is_not_answered(self):
        # The protocol's ids are numbers: a request with another goes unanswered (said on
        # stderr), and the adapter goes on.
        out = session(identity, '{"cmd":"normalize","id":"x","schema":{},"arguments":{}}',
                      {"cmd": "normalize", "id": 2, "schema": {}, "arguments": {}})
        self.assertEqual(out, ['{"id":2,"arguments":{}}'])

    def test_end_of_input_without_stop(self):
        self.assertEqual(len(session(identity, {"cmd": "normalize", "id": 1, "schema": {}, "arguments": {}},
                                     {"cmd": "normalize", "id": 2, "schema": {}, "arguments": {}})), 2)


class LosesNothing(unittest.TestCase):
    def test_untouched_text_comes_back(self):
        cases = [
            '{"a":1E+2,"b":1e400,"c":-0,"d":12345678901234567890,"e":-1e-400,"f":1.0,"g":-0.0}',
            '{"b":1,"2":2,"1":3,"10":4,"":5}',           # member order, integer-like keys
            '{"e":{},"a":[],"n":[{}],"m":{"x":[]}}',    # empty object against empty array
            '{"s":"\\ud800","t":"\\udfff\\ud800","u":"\\ud83d\\ude00"}',  # lone surrogates, a pair
            '{"__proto__":{"constructor":null},"t":true,"f":false,"z":null}',
        ]
        for text in cases:
            with self.subTest(text=text):
                got = json.loads(normalize(identity, text))["arguments"]
                self.assertEqual(normalize(identity, text), '{"id":1,"arguments":%s}' % text)
                self.assertIsInstance(got, dict)

    def test_numbers_are_numbers_to_the_function(self):
        seen = {}

        def look(schema, arguments):
            seen.update(arguments)
            return copy.deepcopy(arguments)  # copies keep the text too

        answer = normalize(look, '{"a":1E+2,"b":1e400,"i":12345678901234567890}')
        self.assertEqual(answer, '{"id":1,"arguments":{"a":1E+2,"b":1e400,"i":12345678901234567890}}')
        self.assertEqual(seen["a"], 100.0)
        self.assertIsInstance(seen["a"], float)
        self.assertEqual(seen["b"], float("inf"))
        self.assertEqual(seen["i"], 12345678901234567890)

    def test_numbers_the_function_makes_are_written_by_python(self):
        def double(schema, arguments):
            return {k: v * 2 for k, v in arguments.items()}

        self.assertEqual(normalize(double, '{"a":1E+2,"b":5}'), '{"id":1,"arguments":{"a":200.0,"b":10}}')

    def test_duplicate_members_are_unsupported_in_the_schema_too(self):
        answer = json.loads(normalize(identity, '{"a":{"x":1,"x":2}}'))
        self.assertEqual(answer, {"id": 1, "unsupported": 'duplicate member "x": a Python dict keeps one'})
        # In the schema too: toolnorm refuses it, and a dict cannot show it to the function.
        answer = json.loads(normalize(identity, '{"a":1}', '{"properties":{"a":{},"a":{"type":"string"}}}'))
        self.assertEqual(answer, {"id": 1, "unsupported": 'duplicate member "a": a Python dict keeps one'})
        # Integer-like keys in the schema are the function's to read as json gives them.
        answer = normalize(identity, '{"a":1}', '{"properties":{"b":{},"1":{}}}')
        self.assertEqual(answer, '{"id":1,"arguments":{"a":1}}')

    def test_huge_input(self):
        big = '{"s":"%s","a":[%s]}' % ("x&amp;" * 200000, ",".join(str(i) for i in range(100000)))
        self.assertEqual(normalize(identity, big), '{"id":1,"arguments":%s}' % big)

    def test_deep_input_is_read_and_written(self):
        deep = '{"a":' + "[" * 1001 + "]" * 1001 + "}"
        self.assertEqual(normalize(identity, deep), '{"id":1,"arguments":%s}' % deep)

    def test_too_deep_for_the_reader_is_unsupported(self):
        deep = '{"a":' + "[" * 200000 + "]" * 200000 + "}"
        answer = json.loads(normalize(identity, deep))
        self.assertEqual(answer["id"], 1)
        self.assertIn("nested deeper", answer["unsupported"])


class NeverDies(unittest.TestCase):
    def test_an_exception_is_an_error_answer_and_the_session_goes_on(self):
        def picky(schema, arguments):
            if not isinstance(arguments, dict):
                raise ValueError("arguments must be an object")
            return arguments

        out = session(picky, {"cmd": "normalize", "id": 1, "schema": {}, "arguments": []},
                      {"cmd": "normalize", "id": 2, "schema": {}, "arguments": {"a": 1}})
        self.assertEqual(out, ['{"id":1,"error":"ValueError: arguments must be an object"}',
                               '{"id":2,"arguments":{"a":1}}'])

    def test_recursion_limit_is_an_error_answer(self):
        def walk(v):
            return [walk(x) for x in v] if isinstance(v, list) else v

        # Past the function's recursion limit (1,000 frames), within what json reads on every
        # version: Python 3.12.0 and 3.12.1 cap the C recursion of json's reader near 1,500.
        deep = '{"a":' + "[" * 1200 + "]" * 1200 + "}"
        answer = json.loads(normalize(lambda s, a: {"a": walk(a["a"])}, deep))
        self.assertTrue(answer["error"].startswith("RecursionError"), answer)

    def test_nan_and_infinity_made_by_the_function_are_errors(self):
        for made in (float("nan"), float("inf"), -float("inf")):
            with self.subTest(made=made):
                answer = json.loads(normalize(lambda s, a: {"x": made}, "{}"))
                self.assertIn("which JSON cannot hold", answer["error"])

    def test_what_json_cannot_hold_is_an_error(self):
        for made in ({"x": {1, 2}}, {"x": object()}, {(1, 2): 1}):
            with self.subTest(made=made):
                self.assertIn("error", json.loads(normalize(lambda s, a: made, "{}")))

    def test_printing_goes_to_stderr(self):
        def chatty(schema, arguments):
            print("hello from the function")
            return arguments

        stderr = io.StringIO()
        saved, sys.stderr = sys.stderr, stderr
        try:
            self.assertEqual(normalize(chatty, "{}"), '{"id":1,"arguments":{}}')
        finally:
            sys.stderr = saved
        self.assertEqual(stderr.getvalue(), "hello from the function\n")

    def test_one_line_per_answer(self):
        answer = normalize(lambda s, a: {"t": "a\nb\r\u2028c"}, "{}")
        self.assertEqual(answer, '{"id":1,"arguments":{"t":"a\\nb\\r\\u2028c"}}')
        answer = normalize(lambda s, a: (_ for _ in ()).throw(ValueError("line\nbreak")), "{}")
        self.assertEqual(answer, '{"id":1,"error":"ValueError: line\\nbreak"}')

    def test_unsupported_raised_or_said_by_the_hook(self):
        def picky(schema, arguments):
            if "u" in arguments:
                raise toolnorm_kit.Unsupported("u is not for me")
            raise KeyError("k")

        line = '{"cmd":"normalize","id":1,"schema":{},"arguments":%s}'
        self.assertEqual(session(picky, line % '{"u":1}'), ['{"id":1,"unsupported":"Unsupported: u is not for me"}'])
        self.assertEqual(session(picky, line % '{"k":1}'), ['{"id":1,"error":"KeyError: \'k\'"}'])
        said = session(picky, line % '{"k":1}', unsupported=lambda e: isinstance(e, KeyError))
        self.assertEqual(said, ['{"id":1,"unsupported":"KeyError: \'k\'"}'])
        failing = session(picky, line % '{"k":1}', unsupported=lambda e: 1 / 0)
        self.assertEqual(failing, ['{"id":1,"error":"KeyError: \'k\'"}'])

    def test_unreadable_request_with_an_id_is_unsupported(self):
        out = session(identity, '{"cmd":"normalize","id":4,"schema":{},"arguments":{"a":NaN}}')
        self.assertEqual(json.loads(out[0])["id"], 4)
        self.assertIn("cannot read", json.loads(out[0])["unsupported"])


class Call(unittest.TestCase):
    def test_text_in_text_out(self):
        self.assertEqual(toolnorm_kit.call(identity, "{}", '{"n":1E+2,"2":[],"1":{}}'), '{"n":1E+2,"2":[],"1":{}}')
        with self.assertRaises(toolnorm_kit.Unsupported):
            toolnorm_kit.call(identity, "{}", '{"a":1,"a":2}')


if __name__ == "__main__":
    unittest.main()


def branchy(schema, arguments):
    if "x" in arguments:
        return {"x": arguments["x"]}
    if arguments.get("fail"):
        raise ValueError("rejected")
    return arguments


class Coverage(unittest.TestCase):
    def ask(self, arguments, **declares):
        line = json.dumps({"cmd": "normalize", "id": 1, "schema": {}, "arguments": arguments, "coverage": True})
        (answer,) = session(branchy, line, **declares)
        return answer, json.loads(answer)

    def test_offered_and_given_when_asked(self):
        (start,) = session(branchy, {"cmd": "start", "version": 1})
        self.assertEqual(json.loads(start)["coverage"], "lines")
        text, one = self.ask({"x": 1})
        self.assertTrue(text.endswith(']}'), "the coverage member comes last, as toolnorm reads it fastest")
        self.assertEqual(one["arguments"], {"x": 1})
        ids = one["coverage"]
        self.assertTrue(ids and ids == sorted(set(ids)) and all(0 <= i < 1 << 32 for i in ids), ids)
        _, again = self.ask({"x": 1})
        self.assertEqual(again["coverage"], ids, "a fresh start: the same case reaches the same lines")

    def test_each_line_once(self):
        # In one run of the adapter an answer carries the lines its request reached first.
        def line(arguments, id_):
            return json.dumps({"cmd": "normalize", "id": id_, "schema": {}, "arguments": arguments,
                               "coverage": True})
        out = [json.loads(a) for a in session(branchy, line({"x": 1}, 1), line({"x": 2}, 2),
                                                  line({"y": 1}, 3), line({"fail": True}, 4),
                                                  line({"fail": True}, 5))]
        first, same, other, rejected, again = (a["coverage"] for a in out)
        self.assertTrue(first)
        self.assertEqual(same, [], "nothing new")
        self.assertTrue(other and not set(other) & set(first), "another branch: lines not reached before")
        self.assertIn("error", out[3])
        self.assertTrue(rejected, "the raise is a line too")
        self.assertEqual(again, [])

    def test_not_asked_not_given(self):
        answer = normalize(branchy, '{"x":1}')
        self.assertEqual(answer, '{"id":1,"arguments":{"x":1}}')

    def test_only_the_implementations_code(self):
        # Code outside the roots (here json's, which the function calls) is not counted.
        def uses_json(schema, arguments):
            return json.loads(json.dumps(arguments))
        line = json.dumps({"cmd": "normalize", "id": 1, "schema": {}, "arguments": {}, "coverage": True})
        (mine,) = session(uses_json, line)
        (elsewhere,) = session(uses_json, line, coverage=[os.path.dirname(json.__file__)])
        self.assertTrue(json.loads(mine)["coverage"])
        self.assertNotEqual(set(json.loads(elsewhere)["coverage"]), set(json.loads(mine)["coverage"]))

    def test_none_offered(self):
        (start,) = session(branchy, {"cmd": "start", "version": 1}, coverage=False)
        self.assertNotIn("coverage", json.loads(start))
        answer, _ = self.ask({"x": 1}, coverage=False)
        self.assertEqual(answer, '{"id":1,"arguments":{"x":1}}')

    def test_a_tracer_set_before_is_kept(self):
        def tracer(frame, event, arg):
            return None
        sys.settrace(tracer)
        try:
            self.ask({"x": 1})
            self.assertIs(sys.gettrace(), tracer)
        finally:
            sys.settrace(None)

    @unittest.skipUnless(hasattr(sys, "monitoring"), "sys.monitoring is Python 3.12's")
    def test_monitoring_tool_given_back(self):
        # Each serve takes a sys.monitoring tool id and gives it back: many in one process
        # (as these tests run them) each get one.
        for _ in range(4):
            self.ask({"x": 1})
        self.assertIsNone(sys.monitoring.get_tool(3))
        self.assertIsNone(sys.monitoring.get_tool(4))
