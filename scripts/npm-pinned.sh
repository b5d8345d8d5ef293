#!/usr/bin/env bash
# npm-pinned.sh DIR: installs DIR's packages at the versions its
# package-lock.json pins. npm ci first; where npm ci refuses a lock that
# npm install itself wrote (npm's optional platform packages: the lock of
# @qwen-code/qwen-code lists ones npm ci then calls missing), npm install,
# which follows the same lock, and then the lock must be unchanged.
set -euo pipefail
cd "$1"
if npm ci --no-audit --no-fund --silent 2>/dev/null; then
  exit 0
fi
before=$(sha256sum package-lock.json)
npm install --no-audit --no-fund --silent
if [ "$(sha256sum package-lock.json)" != "$before" ]; then
  echo "npm-pinned.sh: npm install changed $1/package-lock.json: the pinned versions do not install" >&2
  exit 1
fi
