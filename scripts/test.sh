#!/usr/bin/env bash
# The README's test command. On a fresh clone it does all the set-up (Node 24, dependencies,
# build) and then runs every tier: lint, n8n's package scanner, unit, sandbox, engine, e2e.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh

step() { printf '\n==> %s\n' "$*"; }

step "installing dependencies (Node $(node --version))"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

step "building the package and the sandbox"
npm run --silent build
npm run --silent build:sandbox

step "lint (eslint-plugin-n8n-nodes-base)"
npm run --silent lint

step "n8n community package scanner"
npm run --silent scan

step "unit, sandbox and engine tiers (jest)"
mkdir -p .tools
set +e
npx jest --ci --json --outputFile=.tools/jest-results.json
jest_status=$?
set -e
node -e '
const r = require("./.tools/jest-results.json");
console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
'
[ "$jest_status" -eq 0 ] || exit "$jest_status"

if [ -f scripts/e2e.sh ]; then
  step "e2e tier (a real n8n)"
  bash scripts/e2e.sh
fi
