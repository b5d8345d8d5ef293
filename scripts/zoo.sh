#!/usr/bin/env bash
# zoo.sh: the bug zoo's score (docs/zoo.md). Draws seeded combinations of 1
# to 3 switches of one language (zoo/switches.json), checks each with
# `toolnorm check --format json`, the adapter's ZOO_SWITCHES set to them,
# and scores the reports against the switches: recall, precision,
# duplicates, and the stability of the titles of each switch alone.
#
#   scripts/zoo.sh [--quick] [--n N] [--seed S] [--checks C] [--stability K]
#                  [--singles] [--out DIR] [--toolnorm BIN]
#
#   --quick        10 combinations, a switch alone at 2 seeds (a few minutes)
#   --n N          combinations to draw (default 200)
#   --seed S       seed of the drawing (default 1)
#   --checks C     check's --checks (default 1024)
#   --stability K  seeds a switch alone is checked at (default 5)
#   --singles      every switch alone, at K seeds from S, instead of
#                  combinations: what the report says of each bug on its own
#   --out DIR      where the plan, the reports and score.md go (default: a new
#                  temporary directory); a report already there is not run
#                  again, so an interrupted score goes on where it stopped
#   --toolnorm BIN a toolnorm binary (default: built from this tree)
#
# Prints the per-switch table in Markdown and the totals, and keeps them in
# DIR/score.md.
set -euo pipefail
cd "$(dirname "$0")/.."

n=200
seed=1
checks=1024
stability=5
draw_args=()
out=
toolnorm=
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) n=10; stability=2 ;;
    --n) n=$2; shift ;;
    --seed) seed=$2; shift ;;
    --checks) checks=$2; shift ;;
    --stability) stability=$2; shift ;;
    --out) out=$2; shift ;;
    --toolnorm) toolnorm=$2; shift ;;
    --singles) draw_args+=(--singles) ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "zoo.sh: unknown argument $1 (--help says which there are)" >&2; exit 2 ;;
  esac
  shift
done

[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/toolnorm-zoo.XXXXXX")
mkdir -p "$out"
bin="$out/bin"
mkdir -p "$bin"
if [ -z "$toolnorm" ]; then
  go build -o "$bin/toolnorm" ./cmd/toolnorm
  toolnorm="$bin/toolnorm"
fi
go build -o "$bin/score" ./zoo/score
if [ ! -d zoo/javascript/node_modules/entities ]; then
  scripts/npm-pinned.sh zoo/javascript
fi

"$bin/score" draw --n "$n" --seed "$seed" --stability "$stability" "${draw_args[@]}" > "$out/plan.tsv"
total=$(wc -l < "$out/plan.tsv")
echo "zoo.sh: $total checks; reports in $out" >&2

done_runs=0
while IFS=$'\t' read -r name lang run_seed switches; do
  done_runs=$((done_runs + 1))
  if [ -s "$out/$name.json" ]; then
    continue
  fi
  case "$lang" in
    python) impl='python3 zoo/python/adapter.py' ;;
    javascript) impl='node zoo/javascript/adapter.mjs' ;;
    *) echo "zoo.sh: $name: no adapter for $lang" >&2; continue ;;
  esac
  echo "zoo.sh: [$done_runs/$total] $lang seed $run_seed: $switches" >&2
  status=0
  ZOO_SWITCHES="$switches" "$toolnorm" check --impl "$impl" --seed "$run_seed" --checks "$checks" \
    --format json < /dev/null > "$out/$name.json.part" 2> "$out/$name.err" || status=$?
  if [ "$status" -le 1 ]; then # 0 pass, 1 fail: a report either way
    mv "$out/$name.json.part" "$out/$name.json"
  else
    echo "zoo.sh: $name: check exited $status (see $out/$name.err); not scored" >&2
    rm -f "$out/$name.json.part"
  fi
done < "$out/plan.tsv"

"$bin/score" score --plan "$out/plan.tsv" --runs "$out" | tee "$out/score.md"
