"""JSON Schema patterns are ECMA-262 regular expressions (with the u flag): translated to the
`regex` module's syntax, with ECMA-262's meanings for \\d, \\w, \\s, '.' and '$'."""
import regex

__all__ = ["compile_pattern", "PatternError"]


class PatternError(ValueError):
    pass


_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_CLASS_ESC = {"d": "0-9", "w": "A-Za-z0-9_", "s": _SPACE}
_OUT_ESC = {"d": "[0-9]", "D": "[^0-9]", "w": "[A-Za-z0-9_]", "W": "[^A-Za-z0-9_]",
            "s": "[" + _SPACE + "]", "S": "[^" + _SPACE + "]"}
_SYNTAX = set("^$\\.*+?()[]{}|/")
_ALLOWED_ESC = set("dDwWsSbBfnrtv0cxuk") | _SYNTAX | {"-"}


def _groups(p):
    count = 0
    i = 0
    in_class = False
    while i < len(p):
        ch = p[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
        elif ch == "(" and not p.startswith("(?", i) or p.startswith("(?<", i) and not (
                p.startswith("(?<=", i) or p.startswith("(?<!", i)):
            count += 1
        i += 1
    return count


def translate(p):
    groups = _groups(p)
    out = []
    i = 0
    n = len(p)
    in_class = False
    while i < n:
        ch = p[i]
        if ch == "\\":
            if i + 1 >= n:
                raise PatternError("\\ at end of pattern")
            e = p[i + 1]
            if e in "pP":
                if i + 2 >= n or p[i + 2] != "{":
                    raise PatternError("\\p without braces")
                j = p.find("}", i + 2)
                if j == -1:
                    raise PatternError("unterminated \\p{")
                out.append(p[i:j + 1])
                i = j + 1
                continue
            if e == "u" and i + 2 < n and p[i + 2] == "{":
                j = p.find("}", i + 3)
                if j == -1:
                    raise PatternError("unterminated \\u{")
                out.append("\\U%08x" % int(p[i + 3:j], 16))
                i = j + 1
                continue
            if e.isdigit() and e != "0":
                j = i + 1
                while j < n and p[j].isdigit():
                    j += 1
                if in_class or int(p[i + 1:j]) > groups:
                    raise PatternError("a backreference to a group the pattern does not have")
                out.append(p[i:j])
                i = j
                continue
            if e.isalpha() and e not in _ALLOWED_ESC or (e == "-" and not in_class):
                raise PatternError(f"\\{e} is no ECMA-262 escape")
            if in_class and e in _CLASS_ESC:
                out.append(_CLASS_ESC[e])
            elif not in_class and e in _OUT_ESC:
                out.append(_OUT_ESC[e])
            elif e == "k":
                if i + 2 >= n or p[i + 2] != "<":
                    raise PatternError("\\k without a name")
                j = p.find(">", i + 3)
                out.append("(?P=" + p[i + 3:j] + ")")
                i = j + 1
                continue
            else:
                out.append(p[i:i + 2])
            i += 2
            continue
        if in_class:
            if ch == "[":
                out.append("\\[")
            elif ch == "]":
                in_class = False
                out.append(ch)
            else:
                out.append(ch)
            i += 1
            continue
        if ch == "[":
            if p.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            if p.startswith("[^]", i):
                out.append("[\\s\\S]")
                i += 3
                continue
            in_class = True
            out.append(ch)
            if p.startswith("[^", i):
                out.append("^")
                i += 1
            i += 1
            continue
        if ch == "(" and p.startswith("(?", i):
            if p.startswith("(?:", i) or p.startswith("(?=", i) or p.startswith("(?!", i) \
                    or p.startswith("(?<=", i) or p.startswith("(?<!", i):
                pass
            elif p.startswith("(?<", i):
                out.append("(?P<")
                i += 3
                continue
            else:
                raise PatternError("(? not followed by :, =, !, <= or <!")
        if ch == ".":
            out.append("[^\\n\\r\\u2028\\u2029]")
        elif ch == "$":
            out.append("(?!(?s:.))")
        elif ch == "]":
            raise PatternError("lone ]")
        elif ch == "{" or ch == "}":
            if ch == "{" and regex.match(r"\{[0-9]+(,[0-9]*)?\}", p[i:]) and out and out[-1] not in ("(", "|"):
                j = p.find("}", i)
                out.append(p[i:j + 1])
                i = j + 1
                continue
            raise PatternError(f"lone {ch}")
        else:
            out.append(ch)
        i += 1
    if in_class:
        raise PatternError("unterminated character class")
    return "".join(out)


def compile_pattern(p):
    if not isinstance(p, str):
        raise PatternError("a pattern is not a string")
    try:
        return regex.compile(translate(p), regex.VERSION0)
    except regex.error as e:
        raise PatternError(str(e)) from None
    except (ValueError, OverflowError) as e:
        raise PatternError(str(e)) from None
