"""HTML character references, decoded as the WHATWG tokenizer does in text content, and
repeated until the text stops changing (in time linear in the text)."""
import os
import re
from html.entities import html5 as _TABLE

__all__ = ["decode_once", "decode_fixpoint"]

_FLAGS = frozenset(f for f in os.environ.get("BLIND_SWITCHES", "").split(",") if f)

_LONGEST = max(len(k) for k in _TABLE)  # 32, with its ';'
# How far back of a changed character an '&' may stand and still read it.
_WINDOW = (max(len(k) for k in _TABLE if not k.endswith(";")) if "s5" in _FLAGS else _LONGEST) + 2

_REF = re.compile(r"&(?:#[xX]([0-9A-Fa-f]+);?|#([0-9]+);?|(?=[A-Za-z0-9]))")

# 0x80 to 0x9F, read as windows-1252 by the tokenizer (those the table defines).
_C1 = {}
for _b in range(0x80, 0xA0):
    try:
        _C1[_b] = bytes([_b]).decode("cp1252")
    except UnicodeDecodeError:
        pass

_MAX_CP = 0x10FFFF


def _numeric(digits, base):
    # Leading zeros do not count; past 8 digits the value is too large in either base.
    digits = digits.lstrip("0") or "0"
    value = int(digits, base) if len(digits) <= 8 else _MAX_CP + 1
    if value == 0 or value > _MAX_CP or 0xD800 <= value <= 0xDFFF:
        return "\ufffd"
    if value in _C1:
        return _C1[value]
    return chr(value)


def _named(s, i):
    """The longest name of the table that s holds at i (just after the '&'): (length, text)."""
    for n in range(min(_LONGEST, len(s) - i), 0, -1):
        text = _TABLE.get(s[i:i + n])
        if text is not None:
            return n, text
    return None


def decode_ref(s, i):
    """The reference at s[i] == '&': (end, replacement), or None when it is text."""
    m = _REF.match(s, i)
    if m is None:
        return None
    if m.group(1) is not None:
        return m.end(), _numeric(m.group(1), 16)
    if m.group(2) is not None:
        return m.end(), _numeric(m.group(2), 10)
    found = _named(s, i + 1)
    if found is None:
        return None
    n, text = found
    return i + 1 + n, text


def decode_once(s):
    """One pass: (text, spans) where spans are the [start, end) of what the pass wrote, in the
    coordinates of the text it returns."""
    if "&" not in s:
        return s, []
    out = []
    spans = []
    size = 0
    pos = 0
    i = s.find("&")
    while i != -1:
        r = decode_ref(s, i)
        if r is None:
            i = s.find("&", i + 1)
            continue
        end, rep = r
        out.append(s[pos:i])
        size += i - pos
        out.append(rep)
        spans.append((size, size + len(rep)))
        size += len(rep)
        pos = end
        i = s.find("&", pos)
    if not spans:
        return s, []
    out.append(s[pos:])
    return "".join(out), spans


def _candidates_in_text(s, spans):
    found = set()
    for start, end in spans:
        lo = max(0, start - _WINDOW)
        j = s.find("&", lo, end)
        while j != -1:
            found.add(j)
            j = s.find("&", j + 1, end)
    return found


def decode_fixpoint(s, max_passes=0):
    """Decodes references until nothing changes (or max_passes passes, when not 0)."""
    s, spans = decode_once(s)
    if not spans:
        return s
    passes = 1
    candidates = _candidates_in_text(s, spans)
    if not candidates or (max_passes and passes >= max_passes):
        return s
    # Later passes change only what lies near what the pass before wrote: a linked list of the
    # characters, so that a pass costs what it looks at, not the length of the text.
    chars = list(s)
    n = len(chars)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    stamp = [0] * n
    while candidates:
        passes += 1
        written = []
        for c in sorted(candidates):
            if chars[c] != "&" or stamp[c] == passes or chars[c] is None:
                continue
            # the text the decision reads: the name, or the digits of a numeric reference
            view = []
            nodes = []
            k = c
            while k < n and len(view) <= _LONGEST + 1:
                view.append(chars[k])
                nodes.append(k)
                k = nxt[k]
            text = "".join(view)
            if len(text) > 2 and text[1] == "#":
                while k < n and (chars[k].isalnum() or chars[k] == ";") and chars[k].isascii():
                    view.append(chars[k])
                    nodes.append(k)
                    k = nxt[k]
                text = "".join(view)
            r = decode_ref(text, 0)
            if r is None:
                continue
            end, rep = r
            for j, ch in enumerate(rep):
                chars[nodes[j]] = ch
                stamp[nodes[j]] = passes
                written.append(nodes[j])
            if end > len(rep):
                first = nodes[len(rep)]
                last = nodes[end - 1]
                for node in nodes[len(rep):end]:
                    chars[node] = None
                before = prv[first]
                after = nxt[last]
                nxt[before] = after
                if after < n:
                    prv[after] = before
        candidates = set()
        if max_passes and passes >= max_passes:
            break
        for w in written:
            k = w
            steps = 0
            while k >= 0 and steps <= _WINDOW:
                if chars[k] == "&":
                    candidates.add(k)
                k = prv[k]
                steps += 1
    out = []
    k = 0
    while k < n:
        out.append(chars[k])
        k = nxt[k]
    return "".join(out)
