import json
ws = json.load(open('witnesses.json'))
info = {
 "s1": ("Numeric references: upper-case hex digits are not digits",
        "`Decoder.refHexDigit` accepts `0-9` and `a-f` but forgets `A-F`, so `&#x4A;` reads the digit `4`, stops at `A`, and decodes U+0004 followed by the text `A;`.",
        "Rule clause 4 and readings §1 (one pass is the WHATWG tokenizer's: hexadecimal references take either case of digit)."),
 "s2": ("Linear fixpoint: the look-back window is 8 characters, not the 34+ a named reference can span",
        "After a pass, only `&`s up to `LOOKBACK` characters before a change are re-examined (`Decoder.run`). With 8, an `&` whose name is longer than 8 (`&CounterClockwiseContourIntegral` completed by a `;` the pass wrote) is never looked at again, so the result stops short of the fixpoint.",
        "Rule clause 4 and readings §2 (the fixpoint is exact: the result must equal iterating the pass until nothing changes; the decision at an `&` reads up to ~34 characters)."),
 "s3": ("patternProperties tested with `Matcher.matches()` instead of `find()`",
        "Java's `matches()` anchors the pattern at both ends; ECMA-262/JSON Schema patterns search anywhere in the key. `^list` no longer matches `list_a`, `id` no longer matches `user_id_map`, and the member falls to additionalProperties or to nothing.",
        "Readings §4 (patternProperties: every matching pattern applies, as in JSON Schema; patterns read as `new RegExp(p, \"u\")`)."),
 "s4": ("The JSON reader skips `Character.isWhitespace`, not JSON's four whitespace characters",
        "`Json.Parser.ws` uses Java's notion of whitespace, which adds form feed, vertical tab, U+001C-U+001F, U+2028, U+3000 and more. A string such as `\\f[1]` (or `{\"k\":\\u000b1}`) now parses, so it is decoded where the reference leaves it as sent.",
        "Rule clauses 2-3 and readings §5 (the parse is strict RFC 8259; only JSON whitespace around the value is allowed)."),
 "s5": ("JSON Pointer tokens unescaped `~0` before `~1`",
        "`Schema.pointer` replaces `~0` with `~` first and then `~1` with `/`, so `a~01b` (the key `a~1b`) becomes `a/b`: the reference resolves to a different member, or to none (an invalid schema).",
        "Readings §4, references (`#/...` pointers per RFC 6901, which says `~1` is replaced first, then `~0`)."),
 "s6": ("Draft 2019-09 taken for a draft whose `$ref` ignores its siblings",
        "`Schema.siblingsIgnored` is `draft < 2020` instead of `draft <= 7`, so in a 2019-09 schema the `type`, `properties`, ... beside a `$ref` are dropped and only the reference target is read.",
        "Readings §4 (a `$ref` applies together with its siblings from draft 2019-09 on; only drafts 4 to 7 ignore them)."),
}
def show(a):
    return ("`" + a["arguments"] + "`") if "arguments" in a else ("error (`" + a["error"] + "`)")
out = ["# Planted bugs (BLIND_SWITCHES)", "",
       "No switch set is the clean normalizer (PASS at `--seed 1`, `2`, `3` with `--checks 1024`). Each switch",
       "turns on one mistake, written where the real code makes its decision. The witnesses are in",
       "`witnesses.json` (made by `make_witnesses.py` from `witness_cases.py`) and re-checked by",
       "`python3 check_witnesses.py`: the reference is `toolnorm normalize --schema F --args F`, this",
       "implementation is `java -cp out NormalizeMain F F` (the adapter runs the same `Normalizer`). An error",
       "matches any error; outputs compare as JSON values.", ""]
for sw in ["s1","s2","s3","s4","s5","s6"]:
    title, what, clause = info[sw]
    out += ["## %s: %s" % (sw, title), "", "Bug: " + what, "", "Breaks: " + clause, ""]
    for k, w in enumerate([w for w in ws if w["switch"] == sw], 1):
        out += ["Witness %d:" % k, "",
                "- schema: `%s`" % json.dumps(w["schema"], ensure_ascii=False),
                "- arguments: `%s`" % json.dumps(w["arguments"], ensure_ascii=False),
                "- reference (and clean): " + show(w["reference"]),
                "- with %s: %s" % (sw, show(w["with_switch"])), ""]
open("ANSWERS.md", "w").write("\n".join(out))
