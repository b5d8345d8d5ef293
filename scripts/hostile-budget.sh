#!/bin/sh
# Wall time of toolnorm check against its budget for each misbehaving
# adapter of issue "Verdicts you can trust" (docs/verdicts.md shows a run):
# the reference behind the protocol, with a fault on every N-th answer.
#
#   scripts/hostile-budget.sh [BUDGET]     (default 20s)
set -eu
budget=${1:-20s}
bin=$(mktemp -d)/toolnorm
go build -o "$bin" ./cmd/toolnorm
printf '%-14s %-8s %-6s %s\n' fault budget wall verdict
for fault in not-json/5 wrong-id/7 exit/20 huge/9 sleep/10 not-json/1; do
	start=$(date +%s)
	verdict=$("$bin" check --impl "$bin serve --fault $fault" --budget "$budget" --seed 1 2>/dev/null | sed -n 's/^verdict: //p') || true
	end=$(date +%s)
	printf '%-14s %-8s %-6s %s\n' "$fault" "$budget" "$((end - start))s" "$verdict"
done
rm -r "$(dirname "$bin")"
