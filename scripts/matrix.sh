#!/bin/sh
# Regenerates the compliance matrix in docs/implementations/: one check
# report per implementation (the reference, the examples, and every adapter
# in implementations/), the matrix as Markdown and HTML, and a shields.io
# endpoint badge each. Every check runs at --seed 1 with a fixed number of
# cases (CHECKS, 1024 by default), so the matrix is the same on any machine.
#
#   (cd examples/node && npm ci)
#   for d in implementations/*/; do scripts/npm-pinned.sh "$d"; done
#   scripts/matrix.sh
#
# Needs Go, python3, node, and php for the PHP example (skipped without).
set -eu
cd "$(dirname "$0")/.."
checks=${CHECKS:-1024}
out=docs/implementations
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/toolnorm" ./cmd/toolnorm

reports=
# run NAME [--impl COMMAND]: a check report, NAME.json. Exit status 1 is
# a failing verdict, which is what the matrix shows; 2 is an error.
run() {
  name=$1
  shift
  status=0
  "$tmp/toolnorm" check --seed 1 --checks "$checks" --format json "$@" >"$out/$name.json" || status=$?
  if [ "$status" -gt 1 ]; then
    echo "matrix: $name: toolnorm check exited $status" >&2
    exit 1
  fi
  reports="$reports $out/$name.json"
  echo "$name: $(sed -n 's/^  "verdict": "\(.*\)"$/\1/p' "$out/$name.json")"
}

run reference
run python --impl 'python3 examples/python/adapter.py'
run node --impl 'node examples/node/adapter.js'
if command -v php >/dev/null && [ -f examples/php/adapter.php ]; then
  run php --impl 'php examples/php/adapter.php'
fi
run cline-shared --impl 'node implementations/typescript-cline-shared/adapter.mjs'
run openclaw-ai-coerce --impl 'node implementations/typescript-openclaw-ai/adapter.mjs coerce'
run openclaw-ai-validate --impl 'node implementations/typescript-openclaw-ai/adapter.mjs validate'
run mastra-core-coerce --impl 'node implementations/typescript-mastra-core/adapter.mjs coerce'
run mastra-core-validate --impl 'node implementations/typescript-mastra-core/adapter.mjs validate'
run qwen-code --impl 'node implementations/typescript-qwen-code/adapter.mjs'
run n8n-mcp --impl 'node implementations/typescript-n8n-mcp/adapter.mjs'
run ai-sdk-tool-parser --impl 'node implementations/typescript-ai-sdk-tool-parser/adapter.mjs'
run notion-mcp-server --impl 'node implementations/typescript-notion-mcp-server/adapter.mjs'

go -C mcp build -o "$tmp/toolnorm-mcp" ./cmd/toolnorm-mcp
run mcp-go-sdk --impl "$tmp/toolnorm-mcp -lib go-sdk"
run mcp-mcp-go --impl "$tmp/toolnorm-mcp -lib mcp-go"

rm -rf "$out/badges"
# shellcheck disable=SC2086 # the report files, one word each
"$tmp/toolnorm" report --out "$out/matrix.md" --html "$out/matrix.html" --badges "$out/badges" $reports
echo "wrote $out/matrix.md, $out/matrix.html and $out/badges/"
