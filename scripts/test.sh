#!/usr/bin/env bash
# The README's test command. On a fresh clone it does all the set-up (Node 24, dependencies,
# build, the real n8n) and then runs every tier: lint, n8n's package scanner, unit, sandbox,
# engine and e2e.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

step() { printf '\n==> %s\n' "$*"; }

step "building the package and the sandbox"
npm run --silent build
npm run --silent build:sandbox

step "lint (eslint-plugin-n8n-nodes-base) and type check of the tests, sandbox and benchmarks"
npm run --silent lint
npx tsc -p tsconfig.test.json --noEmit

step "n8n community package scanner"
npm run --silent scan

step "installing the real n8n for the e2e tier (first run only) and the browser"
[ -f scripts/n8n-install.sh ] && bash scripts/n8n-install.sh
[ -f scripts/browser-install.sh ] && bash scripts/browser-install.sh

step "unit, sandbox, engine and e2e tiers (jest)"
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

