"""Translate an ECMA-262 regular expression (as `new RegExp(p, "u")` reads it) into Python's re."""
import re

_SYNTAX = set("^$\\.*+?()[]{}|/")
_ES_SPACE = "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_CLASS_ESC = {
    "d": "0-9", "w": "A-Za-z0-9_", "s": _ES_SPACE,
}
_NEG_ESC = {"D": "0-9", "W": "A-Za-z0-9_", "S": _ES_SPACE}
_CTRL = {"n": "\n", "r": "\r", "t": "\t", "v": "\x0b", "f": "\x0c"}


_GC_LONG = {
    "Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
    "Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M",
    "Combining_Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me",
    "Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
    "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd",
    "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
    "Final_Punctuation": "Pf", "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm",
    "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z",
    "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Other": "C",
    "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs", "Private_Use": "Co",
    "Unassigned": "Cn",
}
_GC_SHORT = {"L", "LC", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No",
             "P", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs",
             "Zl", "Zp", "C", "Cc", "Cf", "Cs", "Co", "Cn"}
_GC_CACHE = {}


def _categories():
    if not _GC_CACHE:
        import unicodedata
        runs = {}
        prev, start = None, 0
        for cp in range(0x110000):
            cat = unicodedata.category(chr(cp))
            if cat != prev:
                if prev is not None:
                    runs.setdefault(prev, []).append((start, cp - 1))
                prev, start = cat, cp
        runs.setdefault(prev, []).append((start, 0x10FFFF))
        _GC_CACHE.update(runs)
    return _GC_CACHE


def _property(name):
    if "=" in name:
        key, _, value = name.partition("=")
        if key not in ("General_Category", "gc"):
            raise PatternUnsupported("Unicode property escapes other than General_Category")
        name = value
    gc = _GC_LONG.get(name, name)
    if gc not in _GC_SHORT:
        raise PatternUnsupported("Unicode property escapes other than General_Category")
    runs = _categories()
    if gc == "LC":
        wanted = ("Lu", "Ll", "Lt")
    elif len(gc) == 1:
        wanted = tuple(k for k in _GC_SHORT if len(k) == 2 and k[0] == gc)
    else:
        wanted = (gc,)
    ranges = sorted(r for k in wanted for r in runs.get(k, ()))
    return ranges


def _complement(ranges):
    out, nxt = [], 0
    for a, b in ranges:
        if a > nxt:
            out.append((nxt, a - 1))
        nxt = b + 1
    if nxt <= 0x10FFFF:
        out.append((nxt, 0x10FFFF))
    return out


def _range_text(a, b):
    def one(cp):
        return "\\U%08x" % cp
    return one(a) if a == b else one(a) + "-" + one(b)


class PatternError(ValueError):
    pass


class PatternUnsupported(Exception):
    pass


def _lit(ch):
    return re.escape(ch) if ch not in "\n" else "\\n"


def _count_groups(p):
    n, i, in_cls, names = 0, 0, False, set()
    while i < len(p):
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if in_cls:
            if c == "]":
                in_cls = False
        elif c == "[":
            in_cls = True
        elif c == "(":
            if not p.startswith("?", i + 1):
                n += 1
            elif p.startswith("?<", i + 1) and not p.startswith("?<=", i + 1) and not p.startswith("?<!", i + 1):
                n += 1
                j = p.find(">", i)
                if j > 0:
                    names.add(p[i + 3:j])
        i += 1
    return n, names


def _escape(p, i, in_class, ngroups, names):
    """p[i] == '\\'. Returns (python text, new i, single code point or None)."""
    if i + 1 >= len(p):
        raise PatternError("\\ at end of pattern")
    c = p[i + 1]
    if c in _CTRL:
        return _lit(_CTRL[c]), i + 2, _CTRL[c]
    if c in _CLASS_ESC:
        return ("[%s]" % _CLASS_ESC[c] if not in_class else _CLASS_ESC[c]), i + 2, None
    if c in _NEG_ESC:
        if in_class:
            raise PatternUnsupported("\\%s inside a character class" % c)
        return "[^%s]" % _NEG_ESC[c], i + 2, None
    if c in "bB":
        if in_class:
            if c == "b":
                return "\\x08", i + 2, "\x08"
            raise PatternError("\\B in a class")
        return "\\" + c, i + 2, None
    if c == "0" and not (i + 2 < len(p) and p[i + 2].isdigit()):
        return "\\x00", i + 2, "\x00"
    if c.isdigit():
        if in_class:
            raise PatternError("invalid class escape \\%s" % c)
        m = re.match(r"[0-9]+", p[i + 1:])
        num = int(m.group())
        if num == 0 or num > ngroups:
            raise PatternError("invalid escape \\%s" % m.group())
        return "(?:\\%d)" % num, i + 1 + len(m.group()), None
    if c == "k":
        if in_class:
            raise PatternError("\\k in a class")
        j = p.find(">", i)
        if not p.startswith("<", i + 2) or j < 0 or p[i + 3:j] not in names:
            raise PatternError("invalid named reference")
        return "(?P=%s)" % p[i + 3:j].replace("$", "_S_"), j + 1, None
    if c == "c":
        if i + 2 < len(p) and p[i + 2].isalpha() and p[i + 2].isascii():
            ch = chr(ord(p[i + 2]) % 32)
            return _lit(ch), i + 3, ch
        raise PatternError("invalid \\c escape")
    if c == "x":
        h = p[i + 2:i + 4]
        if len(h) == 2 and all(x in "0123456789abcdefABCDEF" for x in h):
            ch = chr(int(h, 16))
            return _lit(ch), i + 4, ch
        raise PatternError("invalid \\x escape")
    if c == "u":
        if p.startswith("{", i + 2):
            j = p.find("}", i + 3)
            h = p[i + 3:j] if j > 0 else ""
            if not h or not all(x in "0123456789abcdefABCDEF" for x in h) or int(h, 16) > 0x10FFFF:
                raise PatternError("invalid \\u{} escape")
            ch = chr(int(h, 16))
            return _lit(ch), j + 1, ch
        h = p[i + 2:i + 6]
        if len(h) == 4 and all(x in "0123456789abcdefABCDEF" for x in h):
            n = int(h, 16)
            end = i + 6
            if 0xD800 <= n <= 0xDBFF and p.startswith("\\u", end):
                h2 = p[end + 2:end + 6]
                if len(h2) == 4 and all(x in "0123456789abcdefABCDEF" for x in h2) and 0xDC00 <= int(h2, 16) <= 0xDFFF:
                    n = 0x10000 + ((n - 0xD800) << 10) + (int(h2, 16) - 0xDC00)
                    end += 6
            ch = chr(n)
            return _lit(ch), end, ch
        raise PatternError("invalid \\u escape")
    if c in "pP":
        j = p.find("}", i + 2)
        if not p.startswith("{", i + 2) or j < 0:
            raise PatternError("invalid property escape")
        ranges = _property(p[i + 3:j])
        if c == "P":
            ranges = _complement(ranges)
        body = "".join(_range_text(a, b) for a, b in ranges)
        if in_class:
            return body, j + 1, None
        return ("[%s]" % body if body else "(?!)"), j + 1, None
    if c in _SYNTAX:
        return _lit(c), i + 2, c
    if c == "-" and in_class:
        return "\\-", i + 2, "-"
    raise PatternError("invalid escape \\%s" % c)


def translate(p):
    ngroups, names = _count_groups(p)
    out = []
    i = 0
    depth = 0
    can_quantify = False
    while i < len(p):
        c = p[i]
        if c == "\\":
            t, i, _ = _escape(p, i, False, ngroups, names)
            out.append(t)
            can_quantify = t not in ("\\b", "\\B")
            continue
        if c == "[":
            i, t = _class(p, i + 1, ngroups, names)
            out.append(t)
            can_quantify = True
            continue
        if c == "(":
            if p.startswith("?", i + 1):
                rest = p[i + 2:i + 4]
                if rest.startswith(":") or rest.startswith("=") or rest.startswith("!"):
                    out.append("(?" + rest[0])
                    i += 3
                elif rest in ("<=", "<!"):
                    out.append("(?" + rest)
                    i += 4
                elif rest.startswith("<"):
                    j = p.find(">", i)
                    name = p[i + 3:j] if j > 0 else ""
                    if not re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", name):
                        raise PatternError("invalid group name")
                    out.append("(?P<%s>" % name.replace("$", "_S_"))
                    i = j + 1
                else:
                    raise PatternError("invalid group")
            else:
                out.append("(")
                i += 1
            depth += 1
            can_quantify = False
            continue
        if c == ")":
            if depth == 0:
                raise PatternError("unmatched )")
            depth -= 1
            out.append(")")
            i += 1
            can_quantify = True
            continue
        if c in "*+?{":
            if c == "{":
                m = re.match(r"\{([0-9]+)(,([0-9]*))?\}", p[i:])
                if not m:
                    raise PatternError("lone {")
                if m.group(3) and int(m.group(3)) < int(m.group(1)):
                    raise PatternError("numbers out of order in {} quantifier")
                q = m.group()
                i += len(q)
            else:
                q = c
                i += 1
            if not can_quantify:
                raise PatternError("nothing to repeat")
            if p.startswith("?", i):
                q += "?"
                i += 1
            out.append(q)
            can_quantify = False
            continue
        if c in "}]":
            raise PatternError("lone %s" % c)
        if c == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
        elif c == "^":
            out.append("(?<![\\s\\S])")
        elif c == "$":
            out.append("(?![\\s\\S])")
        elif c == "|":
            out.append("|")
        else:
            out.append(_lit(c))
        can_quantify = c not in "^$|"
        i += 1
    if depth:
        raise PatternError("unterminated group")
    return "".join(out)


def _class(p, i, ngroups, names):
    out = ["["]
    if p.startswith("^", i):
        out.append("^")
        i += 1
    items = []  # (text, codepoint or None)
    while True:
        if i >= len(p):
            raise PatternError("unterminated character class")
        c = p[i]
        if c == "]":
            i += 1
            break
        if c == "\\":
            t, i, cp = _escape(p, i, True, ngroups, names)
            items.append((t, cp, False))
        else:
            items.append((_lit(c), c, c == "-"))
            i += 1
    # ranges
    k = 0
    parts = []
    while k < len(items):
        t, cp, _ = items[k]
        if k + 2 < len(items) and items[k + 1][2]:
            t2, cp2, _ = items[k + 2]
            if cp is None or cp2 is None:
                raise PatternError("invalid character class range")
            if ord(cp) > ord(cp2):
                raise PatternError("range out of order in character class")
            parts.append(t + "-" + t2)
            k += 3
            continue
        parts.append(t)
        k += 1
    if not parts and out[-1] == "^":
        return i, "[\\s\\S]"
    if not parts:
        return i, "(?!)"
    out.extend(parts)
    out.append("]")
    return i, "".join(out)


