#!/usr/bin/env bash
# blind.sh: the blind zoo's root causes (zoo/blind/README.md). Checks each
# switch of the blind normalizers alone, at one seed, and prints what the
# report says of it: the ids and titles of its root causes, beside the
# switch's name, for a reader to hold against zoo/blind/*/ANSWERS.md.
#
#   scripts/blind.sh [--seed S] [--checks C] [--toolnorm BIN] [--out DIR]
#
# --out keeps each JSON report (default: a new temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."

seed=1
checks=1024
toolnorm=
out=
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed=$2; shift ;;
    --checks) checks=$2; shift ;;
    --toolnorm) toolnorm=$2; shift ;;
    --out) out=$2; shift ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "blind.sh: unknown argument $1 (--help says which there are)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/toolnorm-blind.XXXXXX")
mkdir -p "$out"
if [ -z "$toolnorm" ]; then
  toolnorm="$out/toolnorm"
  go build -o "$toolnorm" ./cmd/toolnorm
fi
(cd zoo/blind/go && go build -o "$out/blind-go" ./cmd/adapter)

langs="go php python perl"
# The JavaScript one needs its npm dependency: `npm ci` in zoo/blind/javascript.
[ -d zoo/blind/javascript/node_modules ] && langs="$langs javascript"
# The fourth round's, where their runtimes are installed.
command -v ruby >/dev/null && langs="$langs ruby"
python3 -c 'import referencing, regex' 2>/dev/null && langs="$langs python-referencing"
# The fifth round's: Java (javac and java) and Rust (cargo, no crates).
command -v javac >/dev/null && command -v java >/dev/null && langs="$langs java"
if command -v cargo >/dev/null && (cd zoo/blind/rust && cargo build --release --offline -q); then
  langs="$langs rust"
fi
for lang in $langs; do
  switches="s1 s2 s3 s4 s5 s6 s7 s8"
  case $lang in
    go) adapter="$out/blind-go" ;;
    php) adapter="php zoo/blind/php/adapter.php" ;;
    python) adapter="python3 zoo/blind/python/adapter.py"; switches="s1 s2 s3 s4 s5 s6" ;;
    perl) adapter="perl zoo/blind/perl/adapter.pl"; switches="s1 s2 s3 s4 s5 s6" ;;
    javascript) adapter="node zoo/blind/javascript/adapter.mjs"; switches="s1 s2 s3 s4 s5 s6" ;;
    ruby) adapter="ruby zoo/blind/ruby/adapter.rb"; switches="s1 s2 s3 s4 s5 s6" ;;
    python-referencing) adapter="python3 zoo/blind/python-referencing/.toolnorm/adapter.py"; switches="s1 s2 s3 s4 s5 s6" ;;
    java) adapter="sh zoo/blind/java/run.sh"; switches="s1 s2 s3 s4 s5 s6" ;;
    rust) adapter="zoo/blind/rust/target/release/blindnorm"; switches="s1 s2 s3 s4 s5 s6" ;;
  esac
  for s in $switches; do
    report="$out/$lang-$s.json"
    # check exits 1 on a FAIL, which every switch is meant to give.
    BLIND_SWITCHES=$s "$toolnorm" check --impl "$adapter" --seed "$seed" --checks "$checks" --format json > "$report" || [ $? -eq 1 ]
    python3 - "$lang" "$s" "$report" <<'PY'
import json, sys
lang, s, path = sys.argv[1:]
r = json.load(open(path))
causes = r.get("root_causes") or []
print(f"{lang} {s}: {len(causes)} root cause(s)")
for c in causes:
    print(f"  {c['id']}: {c['title']}")
PY
  done
done
echo "reports in $out" >&2
