#!/bin/sh
# Wall time of toolnorm check against its budget for each misbehaving
# adapter of issue "Verdicts you can trust" (docs/verdicts.md shows a run):
# the reference behind the protocol, with a fault on every N-th answer, or
# never answering an argument that holds &#0;.
#
#   scripts/hostile-budget.sh [BUDGET]     (default 20s)
set -eu
budget=${1:-20s}
bin=$(mktemp -d)/toolnorm
go build -o "$bin" ./cmd/toolnorm
printf '%-22s %-8s %-6s %s\n' adapter budget wall verdict
for serve in '--fault not-json/5' '--fault wrong-id/7' '--fault exit/20' '--fault huge/9' '--fault sleep/10' '--fault not-json/1' "--hang-on '&#0;'"; do
	start=$(date +%s)
	verdict=$("$bin" check --impl "$bin serve $serve" --budget "$budget" --seed 1 2>/dev/null | sed -n 's/^verdict: //p') || true
	end=$(date +%s)
	printf '%-22s %-8s %-6s %s\n' "$serve" "$budget" "$((end - start))s" "$verdict"
done
rm -r "$(dirname "$bin")"
