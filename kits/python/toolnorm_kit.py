"""toolnorm adapter kit for Python 3.9+: the whole of toolnorm's protocol, version 1
(docs/protocol.md), around one function of yours. Standard library only; copy this file.

    import toolnorm_kit
    from mypkg import normalize      # normalize(schema, arguments) -> arguments

    toolnorm_kit.serve(normalize, name="my-normalizer", version="0.3.1")

then: toolnorm check --impl 'python3 adapter.py'

Your function gets the schema and the arguments as Python values (dict, list, str, int, float,
bool, None) and returns the normalized arguments, or raises to reject them (an `error` answer,
with the exception's message; the adapter goes on), or raises Unsupported for input it cannot
take as sent (an `unsupported` answer: not judged). What it leaves alone goes back exactly as it
came: numbers keep their text (1E+2, 1e400, -0, 12345678901234567890: they arrive as int or float
subclasses that remember it), member order is kept, lone surrogate escapes such as \\ud800 stay
(a Python str holds them). What a dict cannot hold, a duplicate member in the arguments, is
answered `unsupported` with the reason and not judged, rather than silently collapsed.

Answers are always one valid JSON line: a NaN or infinity your function makes (rather than one it
was given as 1e400) is an `error` answer, never `NaN` on the wire. Anything your function prints
goes to stderr, where toolnorm shows it beside failures.

call(function, schema_text, arguments_text) does one case from JSON text to JSON text, for tests
(the corpus replay runner of `toolnorm init` uses it).

Coverage (an addition to protocol version 1): the kit offers the lines your implementation's own
code reaches, by default the code in the directory of the file that defines your function, the
kit left out; `toolnorm fuzz` asks for them, and keeps the cases that reach lines no case reached
before, to mutate them. Collected with a trace function, only while a request that asks for it
runs, and each line only until it is reached once: nothing is paid otherwise. serve(coverage=False) offers none;
coverage=[paths] counts the code in those files and directories instead.
"""
import contextlib
import json
import json.decoder
import os
import re
import sys
import zlib

__all__ = ["serve", "call", "loads", "dumps", "Unsupported", "Int", "Float"]

PROFILES = ("text", "attribute")
DEPTHS = ("all", "top")
REPAIRS = ("json", "entities")
# Deep enough for the checks of the nesting limit (1,001 levels) and more; the reader is
# json's, whose recursion counts against this while a request is read.
READ_RECURSION = 20000


class Unsupported(Exception):
    """Input the kit cannot hand to the function as it was sent: answered `unsupported`."""


class Int(int):
    """An integer as it was sent, with its text (-0 stays -0)."""


class Float(float):
    """A number with a fraction or an exponent as it was sent, with its text (1E+2 stays 1E+2,
    1e400 is inf to Python and 1e400 on the wire)."""


def _int(text):
    n = Int(text)
    n.text = text
    return n


def _float(text):
    n = Float(text)
    n.text = text
    return n


def _constant(name):
    raise ValueError(f"{name} is not JSON")


def _read(text):
    """text as Python values, and the objects that had a duplicate member: {id(dict): key}."""
    duplicates = {}

    def pairs(items):
        d = dict(items)
        if len(d) != len(items):
            seen = set()
            for k, _ in items:
                if k in seen:
                    duplicates[id(d)] = k
                    break
                seen.add(k)
        return d

    limit = sys.getrecursionlimit()
    digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
    sys.setrecursionlimit(max(limit, READ_RECURSION))
    if digits is not None:
        sys.set_int_max_str_digits(0)  # integers of any length
    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_int=_int, parse_float=_float,
                           parse_constant=_constant)
    except RecursionError:
        raise Unsupported("nested deeper than Python's json reads") from None
    finally:
        sys.setrecursionlimit(limit)
        if digits is not None:
            sys.set_int_max_str_digits(digits)
    return value, duplicates


def _check(value, duplicates):
    """Raises Unsupported if value holds an object that had a duplicate member."""
    if not duplicates:
        return
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if id(v) in duplicates:
                raise Unsupported(f"duplicate member {json.dumps(duplicates[id(v)])}: a Python dict keeps one")
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def loads(text, strict=True):
    """Reads JSON text as Python values that keep what they can of it. With strict, an object
    with a duplicate member raises Unsupported; without, the last member wins (as json's does).
    Nesting too deep for json's reader raises Unsupported too."""
    value, duplicates = _read(text)
    if strict:
        _check(value, duplicates)
    return value


_encode_str = json.encoder.encode_basestring_ascii  # ASCII: a lone surrogate is written \ud800


def _key(k):
    if isinstance(k, str):
        return k
    if k is True:
        return "true"
    if k is False:
        return "false"
    if k is None:
        return "null"
    if isinstance(k, (int, float)):
        return _number(k)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")


def _number(n):
    text = getattr(n, "text", None)
    if text is not None:
        return text
    if isinstance(n, int):
        return int.__repr__(n)
    if n != n or n in (float("inf"), float("-inf")):
        raise ValueError(f"the function returned {float.__repr__(n)}, which JSON cannot hold")
    return float.__repr__(n)


def dumps(value):
    """Writes a value as compact JSON on one line, numbers the kit read with their text. Iterative:
    no nesting is too deep for it. Raises TypeError or ValueError for what JSON cannot hold."""
    out = []
    stack = [(value, None)]
    while stack:
        v, tail = stack.pop()
        if tail is not None:  # the text after a container's last element
            out.append(tail)
            continue
        if isinstance(v, str):
            out.append(_encode_str(v))
        elif v is None:
            out.append("null")
        elif v is True:
            out.append("true")
        elif v is False:
            out.append("false")
        elif isinstance(v, (int, float)):
            out.append(_number(v))
        elif isinstance(v, dict):
            out.append("{")
            stack.append((None, "}"))
            items = list(v.items())
            for i in range(len(items) - 1, -1, -1):
                k, item = items[i]
                stack.append((item, None))
                stack.append((None, ("," if i else "") + _encode_str(_key(k)) + ":"))
        elif isinstance(v, (list, tuple)):
            out.append("[")
            stack.append((None, "]"))
            for i in range(len(v) - 1, -1, -1):
                stack.append((v[i], None))
                if i:
                    stack.append((None, ","))
        else:
            raise TypeError(f"the function returned a {type(v).__name__}, which is not JSON")
    return "".join(out)


def call(function, schema_text, arguments_text):
    """One case, JSON text in and out, as serve does it: the schema and the arguments read
    strictly (Unsupported for what a dict cannot hold), the function's answer written back."""
    schema = loads(schema_text)
    arguments = loads(arguments_text)
    return dumps(function(schema, arguments))


def _message(e):
    text = str(e)
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


_ID = re.compile(rb'"id"\s*:\s*(-?[0-9]+)')


# The most ids one answer's coverage holds (the protocol's bound).
MAX_COVERAGE = 1 << 16


class _Coverage:
    """The lines of the implementation's own code that requests reach, each a 32-bit id: a hash
    of its file's path (relative to the first root that holds it, so that the ids are the same
    from run to run and machine to machine) and its line number. An answer carries the lines
    its request reached first, since the adapter started. On Python 3.12 and later,
    sys.monitoring tells each line once and never again, so that coverage costs little once
    the common paths are known; before, a trace function sees every line of a function until
    all its lines have been seen, which costs several times the function's own time."""

    def __init__(self, roots):
        self.roots = [os.path.join(os.path.abspath(r), "") if os.path.isdir(r) else os.path.abspath(r)
                      for r in roots]
        self.kit = os.path.abspath(__file__)
        self.files = {}  # code object -> its file's id, 0 when its code does not count
        self.unseen = {}  # code object -> the lines of it not reached yet
        self.new = []
        self.tool = None  # the sys.monitoring tool id (Python 3.12+), None: a trace function
        monitoring = getattr(sys, "monitoring", None)
        for tool in (3, 4) if monitoring is not None else ():
            try:
                monitoring.use_tool_id(tool, "toolnorm_kit")
            except ValueError:  # taken
                continue
            self.tool = tool
            monitoring.register_callback(tool, monitoring.events.LINE, self._line)
            # Lines an earlier serve in this process disabled are told
            # again (what DISABLE turns off stays off until then).
            monitoring.restart_events()
            break

    def close(self):
        """Gives back the sys.monitoring tool id, for another serve in the process."""
        if self.tool is not None:
            sys.monitoring.register_callback(self.tool, sys.monitoring.events.LINE, None)
            sys.monitoring.free_tool_id(self.tool)
            self.tool = None

    def _line(self, code, line):
        """A line reached, as sys.monitoring tells it: counted once, then never told again."""
        fid = self.files.get(code)
        if fid is None:
            fid = self._file(code)
        if fid:
            self.new.append((fid * 0x9E3779B1 ^ line) & 0xFFFFFFFF)
        return sys.monitoring.DISABLE

    def _file(self, code):
        fid = self.files.get(code)
        if fid is None:
            path = os.path.abspath(code.co_filename)
            fid = 0
            for root in self.roots if path != self.kit else ():
                if root.endswith(os.sep) and path.startswith(root):
                    rel = path[len(root):]
                elif path == root:
                    rel = os.path.basename(path)
                else:
                    continue
                fid = zlib.crc32(rel.encode("utf-8", "surrogateescape")) or 1
                break
            self.files[code] = fid
            if fid and self.tool is None:
                self.unseen[code] = {line for _, _, line in code.co_lines() if line is not None}
        return fid

    def _global(self, frame, event, arg):
        code = frame.f_code
        if not self._file(code) or not self.unseen[code]:
            return None  # not the implementation's, or every line of it seen
        return self._local

    def _local(self, frame, event, arg):
        if event == "line":
            code = frame.f_code
            unseen = self.unseen[code]
            line = frame.f_lineno
            if line in unseen:
                unseen.discard(line)
                self.new.append((self.files[code] * 0x9E3779B1 ^ line) & 0xFFFFFFFF)
                if not unseen:
                    frame.f_trace_lines = False
        return self._local

    def run(self, f, *args):
        """f(*args), the lines it reached first kept for member (a tracer set before, a
        debugger's, is set again after)."""
        if self.tool is not None:
            sys.monitoring.set_events(self.tool, sys.monitoring.events.LINE)
            try:
                return f(*args)
            finally:
                sys.monitoring.set_events(self.tool, 0)
        before = sys.gettrace()
        sys.settrace(self._global)
        try:
            return f(*args)
        finally:
            sys.settrace(before)

    def member(self):
        ids = sorted(set(self.new))[:MAX_COVERAGE]
        self.new = []
        return ',"coverage":[' + ",".join(map(str, ids)) + "]"


def _answer(function, line, unsupported=None, coverage=None):
    try:
        request, duplicates = _read(line.decode("utf-8", "surrogateescape"))
    except Exception as e:  # a line the kit cannot read: answer it if its id can be seen
        m = _ID.search(line)
        if m is None:
            print(f"toolnorm_kit: unreadable request: {_message(e)}", file=sys.stderr)
            return None, None
        return "normalize", '{"id":%s,"unsupported":%s}' % (m.group(1).decode(), _encode_str(
            "the adapter cannot read this request: " + _message(e)))
    if not isinstance(request, dict):
        return None, None
    cmd = request.get("cmd")
    if cmd != "normalize":
        return cmd, None
    id_ = request.get("id")
    if isinstance(id_, bool) or not isinstance(id_, (int, float)):
        print(f"toolnorm_kit: a request whose id is not a number ({_encode_str(str(id_))[:60]}): not answered",
              file=sys.stderr)
        return cmd, None
    id_text = _number(id_)
    arguments = request.get("arguments")
    try:
        # The arguments are held to what a dict cannot hold; the schema is read as json reads
        # it, as the function would get it anyway, but for a duplicate member: toolnorm refuses
        # such a schema, and no function taking a dict can see it.
        _check(arguments, duplicates)
        _check(request.get("schema"), duplicates)
    except Unsupported as e:
        return cmd, '{"id":%s,"unsupported":%s}' % (id_text, _encode_str(str(e)))
    covered = coverage is not None and request.get("coverage") is True
    try:
        with contextlib.redirect_stdout(sys.stderr):
            if covered:
                result = coverage.run(function, request.get("schema"), arguments)
            else:
                result = function(request.get("schema"), arguments)
        tail = coverage.member() if covered else ""
        return cmd, '{"id":%s,"arguments":%s%s}' % (id_text, dumps(result), tail)
    except Exception as e:  # RecursionError and MemoryError included: the function's answer
        if isinstance(e, Unsupported) or (unsupported is not None and _says(unsupported, e)):
            return cmd, '{"id":%s,"unsupported":%s}' % (id_text, _encode_str(_message(e)))
        tail = coverage.member() if covered else ""
        return cmd, '{"id":%s,"error":%s%s}' % (id_text, _encode_str(_message(e)), tail)


def _code(function):
    """The code of a function, a method, a partial or an object with __call__: where the
    implementation lives. None when it has none (a builtin)."""
    for _ in range(8):
        code = getattr(function, "__code__", None)
        if code is not None:
            return code
        inner = getattr(function, "__func__", None) or getattr(function, "func", None)
        if inner is None:
            call = getattr(type(function), "__call__", None)
            inner = call if call is not None and call is not getattr(object, "__call__", None) and \
                getattr(call, "__code__", None) is not None else None
        if inner is None:
            return None
        function = inner
    return None


def _says(unsupported, e):
    try:
        return bool(unsupported(e))
    except Exception:  # a hook that fails says no: the error stays the function's
        return False


def serve(function, name, version=None, language="Python", homepage=None, profile="text",
          max_passes=0, depth="all", repairs=("json", "entities"), unsupported=None, coverage=True,
          stdin=None, stdout=None):
    """Speaks the protocol on stdin and stdout until stop or the end of the input.

    name, version, language, homepage: the implementation, as the report names it.
    profile ("text" or "attribute"), max_passes (0: decode until nothing changes), depth ("all"
    or "top"), repairs ("json", "entities" or both): the reading of RT-TOOL-8 it implements
    (docs/protocol.md, "Declares").
    unsupported(exception), if given, says whether an exception the function raised means it
    cannot take the input as sent (an `unsupported` answer: not judged) rather than that it
    rejects it (an `error` answer); the kit's Unsupported always means that.
    coverage: True offers the lines of the code in the directory of the file that defines
    function (the kit left out), a list of files and directories offers those of their code,
    False offers none."""
    if not name:
        raise ValueError("serve: name must not be empty")
    if profile not in PROFILES or depth not in DEPTHS or not isinstance(max_passes, int) or max_passes < 0:
        raise ValueError("serve: profile is text or attribute, depth all or top, max_passes 0 or more")
    repairs = list(repairs)
    if not repairs or any(r not in REPAIRS for r in repairs):
        raise ValueError("serve: repairs are json, entities or both")
    implementation = {"name": name, "language": language}
    if version:
        implementation["version"] = str(version)
    if homepage:
        implementation["homepage"] = homepage
    tracer = None
    if coverage is True:
        code = _code(function)
        if code is not None:
            tracer = _Coverage([os.path.dirname(os.path.abspath(code.co_filename))])
    elif coverage:
        tracer = _Coverage(list(coverage))
    start = {"version": 1, "implementation": implementation, "declares": {
        "profile": profile, "max_passes": max_passes, "depth": depth, "repairs": repairs}}
    if tracer is not None:
        start["coverage"] = "lines"
    start = json.dumps(start, separators=(",", ":"))
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout.buffer
    try:
        for line in stdin:  # lines of any length
            cmd, answer = _answer(function, line, unsupported, tracer)
            if cmd == "start":
                answer = start
            elif cmd == "stop":
                break
            if answer is not None:
                stdout.write(answer.encode("ascii") + b"\n")
                stdout.flush()
        stdout.flush()
    finally:
        if tracer is not None:
            tracer.close()
