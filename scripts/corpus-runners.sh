#!/usr/bin/env bash
# CI: the corpus replay runners in corpus/runners/ (Python, JavaScript, PHP)
# judge toolnorm's reference correctly, and catch a known-wrong answer.
#
#   scripts/corpus-runners.sh
#
# Needs go, python3, node (20 or later) and php (8.2 or later, php-cli).
#
# The reference's answers are not the vectors' "expected" fields (a runner
# that compared those with themselves would prove nothing): for every vector,
# `toolnorm normalize` runs on its schema and arguments with its options, and
# its output (the exact text it writes, number text, escapes and whitespace
# kept) or its error kind goes into one JSONL file, a line per vector:
#   {"id": ID, "output": TEXT} or {"id": ID, "error": KIND}
# Each runner then reads that file with --answers and must pass every vector
# it can represent, skipping only what its language cannot hold (text that is
# not UTF-8, in Python and JavaScript) and counting it. Then the same answers
# with corpus/runners/testdata/wrong.jsonl over them (each line a wrong answer
# that one comparison rule catches) must fail exactly those vectors, and with
# corpus/runners/testdata/same.jsonl over them (right answers spelt otherwise)
# must still pass.
#
# Then each runner replays, on the function its users give it (--impl), a
# normalize function that runs `toolnorm normalize` itself
# (corpus/runners/testdata/reference.*): every vector but the html5lib group,
# whose thousands of one-string cases the answers above cover. That checks
# the text each runner hands to an implementation, and how it reads errors.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in go python3 node php; do
  command -v "$tool" >/dev/null || { echo "corpus-runners: $tool is not installed" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# TOOLNORM: a toolnorm binary already built (by default, built here).
toolnorm=${TOOLNORM:-$tmp/toolnorm}
[ -n "${TOOLNORM:-}" ] || go build -o "$toolnorm" ./cmd/toolnorm

vectors=corpus/vectors
total=$(find "$vectors" -name '*.json' ! -name '.*' | wc -l)
# Vectors whose schema or arguments are not UTF-8 (stored as _base64): no
# Python or JavaScript string holds them, so those runners skip them.
nonutf8=$(grep -rlE '"(schema|arguments)_base64"' "$vectors" | wc -l)

# The reference's answers, a toolnorm process per vector (in parallel). The
# error kind comes from toolnorm's one line on stderr: "FILE: WHAT": a schema
# file is invalid-schema, else what the message says.
python3 - "$toolnorm" "$vectors" "$tmp/reference.jsonl" <<'EOF'
import base64, concurrent.futures, json, os, subprocess, sys, tempfile
toolnorm, root, out = sys.argv[1:]

def text(v, k):
    if k + "_raw" in v: return v[k + "_raw"].encode("utf-8")
    if k + "_base64" in v: return base64.b64decode(v[k + "_base64"])
    return json.dumps(v[k]).encode()

def answer(path):
    with open(path, encoding="utf-8") as f: v = json.load(f)
    o = v.get("options", {})
    if set(o) - {"profile", "max_passes", "max_depth"}:
        raise SystemExit(f"{path}: options {sorted(o)}: toolnorm normalize has no flag for some")
    with tempfile.TemporaryDirectory() as d:
        schema, args = os.path.join(d, "schema.json"), os.path.join(d, "args.json")
        for name, k in ((schema, "schema"), (args, "arguments")):
            with open(name, "wb") as f: f.write(text(v, k))
        flags = ["--profile", o.get("profile", "text"), "--max-passes", str(o.get("max_passes", 0))]
        flags += ["--max-depth", str(o["max_depth"])] if o.get("max_depth") else []
        r = subprocess.run([toolnorm, "normalize", "--schema", schema, "--args", args] + flags, capture_output=True)
    if r.returncode == 0:
        return {"id": v["id"], "output": r.stdout.decode("utf-8")}
    msg = r.stderr.decode("utf-8", "replace")
    kinds = [(f"toolnorm: {schema}: ", "invalid-schema"), (": arguments must be a JSON object", "not-object"),
             (": nesting too deep", "too-deep"), (": invalid JSON", "invalid-json")]
    kind = next((k for needle, k in kinds if needle in msg), None)
    if r.returncode != 1 or kind is None:
        raise SystemExit(f"{path}: toolnorm normalize exited {r.returncode}: {msg}")
    return {"id": v["id"], "error": kind}

paths = sorted(os.path.join(d, n) for d, _, ns in os.walk(root) for n in ns if n.endswith(".json") and n[0] != ".")
with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 4) as pool, open(out, "w", encoding="utf-8") as f:
    for a in pool.map(answer, paths):
        f.write(json.dumps(a) + "\n")
EOF
[ "$(wc -l <"$tmp/reference.jsonl")" -eq "$total" ] || { echo "corpus-runners: not one reference answer per vector" >&2; exit 1; }
# Each known answer must be for a vector of the corpus, or it proves nothing.
for known in corpus/runners/testdata/wrong.jsonl corpus/runners/testdata/same.jsonl; do
  sed -n 's/^{"id": "\([0-9a-f]*\)".*/\1/p' "$known" | while read -r id; do
    grep -q "^{\"id\": \"$id\"" "$tmp/reference.jsonl" || { echo "corpus-runners: $known: no vector has the id $id" >&2; exit 1; }
  done
done
cat "$tmp/reference.jsonl" corpus/runners/testdata/wrong.jsonl >"$tmp/wrong.jsonl"
cat "$tmp/reference.jsonl" corpus/runners/testdata/same.jsonl >"$tmp/same.jsonl"
wrong=$(grep -c . corpus/runners/testdata/wrong.jsonl || true)

# Every vector but the html5lib group, for the runs through --impl.
mkdir "$tmp/some"
for group in "$vectors"/*/; do
  [ "$(basename "$group")" = html5lib ] || cp -R "$group" "$tmp/some/"
done
some=$(find "$tmp/some" -name '*.json' ! -name '.*' | wc -l)
export TOOLNORM="$toolnorm"

status=0
# run NAME WANT_STATUS WANT_SUMMARY COMMAND...: the runner's last line must be
# WANT_SUMMARY and its exit status WANT_STATUS.
run() {
  local name=$1 want_status=$2 want=$3 got rc=0
  shift 3
  got=$("$@" 2>&1) || rc=$?
  if [ "$rc" -ne "$want_status" ] || [ "$(printf '%s\n' "$got" | tail -n 1)" != "$want" ]; then
    printf 'corpus-runners: FAIL %s: exit status %s, want %s; want the last line\n  %s\ngot:\n%s\n' \
      "$name" "$rc" "$want_status" "$want" "$(printf '%s\n' "$got" | tail -n 20)" >&2
    status=1
  else
    printf 'ok   %s: %s\n' "$name" "$want"
  fi
}

for lang in python javascript php; do
  case $lang in
  python) runner=(python3 corpus/runners/replay.py) skip=$nonutf8 why="not UTF-8, which no Python str holds" ;;
  javascript) runner=(node corpus/runners/replay.mjs) skip=$nonutf8 why="not UTF-8, which no JavaScript string holds" ;;
  php) runner=(php corpus/runners/replay.php) skip=0 why= ;;
  esac
  ext=${runner[1]##*.}
  skipped="$skip skipped${why:+ ($skip $why)}"
  run "$lang: every vector file" 0 "read $total vectors" "${runner[@]}" "$vectors"
  run "$lang: the reference's answers" 0 "read $total vectors: $((total - skip)) passed, 0 failed, $skipped" \
    "${runner[@]}" "$vectors" --answers "$tmp/reference.jsonl"
  run "$lang: known-wrong answers" 1 "read $total vectors: $((total - skip - wrong)) passed, $wrong failed, $skipped" \
    "${runner[@]}" "$vectors" --answers "$tmp/wrong.jsonl"
  run "$lang: right answers spelt otherwise" 0 "read $total vectors: $((total - skip)) passed, 0 failed, $skipped" \
    "${runner[@]}" "$vectors" --answers "$tmp/same.jsonl"
  run "$lang: the reference as a normalize function" 0 "read $some vectors: $((some - skip)) passed, 0 failed, $skipped" \
    "${runner[@]}" "$tmp/some" --impl "corpus/runners/testdata/reference.$ext"
done
# A bad vector file (not UTF-8, nested 100,000 deep, cut short) stops each
# runner with one line naming the file, never a traceback; a runner that
# can read the deep one reads it.
mkdir -p "$tmp/bad/utf8/r" "$tmp/bad/deep/r" "$tmp/bad/cut/r"
head='{"id":"0000000000000000","description":"x","clause":"found","origin":"found",'
printf '%s"schema":{},"arguments_raw":"\xff","error":"invalid-json"}' "$head" >"$tmp/bad/utf8/r/a.json"
python3 -c 'import sys; sys.stdout.write(sys.argv[1] + "\"schema\":" + "[" * 100000 + "]" * 100000 + ",\"arguments\":{},\"error\":\"invalid-json\"}")' "$head" >"$tmp/bad/deep/r/a.json"
printf '%s"schema":' "$head" >"$tmp/bad/cut/r/a.json"
for runner in "python3 corpus/runners/replay.py" "node corpus/runners/replay.mjs" "php corpus/runners/replay.php"; do
  for bad in utf8 deep cut; do
    file=$tmp/bad/$bad/r/a.json rc=0
    # shellcheck disable=SC2086 # the runner is a command and its script
    got=$($runner "$tmp/bad/$bad" 2>&1) || rc=$?
    if [ "$(printf '%s\n' "$got" | wc -l)" -eq 1 ] && { { [ "$rc" -eq 1 ] && [[ $got == "$file: not a vector: "* ]]; } || { [ "$rc" -eq 0 ] && [ "$got" = "read 1 vectors" ]; }; }; then
      printf 'ok   %s: a bad vector (%s): %s\n' "${runner%% *}" "$bad" "${got:0:120}"
    else
      printf 'corpus-runners: FAIL %s: a bad vector (%s): exit status %s, want 1 and one line naming the file; got:\n%s\n' \
        "$runner" "$bad" "$rc" "$(printf '%s\n' "$got" | head -n 5)" >&2
      status=1
    fi
  done
done
exit "$status"
