#!/usr/bin/env bash
# The README's test commands, on a fresh clone as on a used one: Node 24 and the dependencies first
# (scripts/setup.sh), then
# - `npm test` (no argument): the build, lint, the type check, n8n's package scanner, the real n8n
#   and the browser, and every jest tier: unit, sandbox, engine and e2e;
# - `npm run test:<tier>` (`bash scripts/test.sh <tier> [jest arguments]`): that tier only (e2e with
#   the build, the real n8n and the browser it needs), e.g. `npm run test:engine -- test/engine/list.test.ts`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

step() { printf '\n==> %s\n' "$*"; }

e2e_setup() {
  step "installing the real n8n for the e2e tier (first run only), the browser and the local npm registry (first run only)"
  bash scripts/n8n-install.sh
  # The oldest n8n the package supports (scripts/n8n-versions.js), for test/e2e/compatibility.test.ts.
  bash scripts/n8n-install.sh oldest
  bash scripts/browser-install.sh
  node scripts/registry.js install
}

if [ $# -gt 0 ]; then
  tier=$1
  shift
  case "$tier" in
    unit | sandbox | engine) ;;
    e2e)
      step "building the package (installed packed into n8n) and the sandbox and benchmarks (the benchmark's smoke run)"
      npm run --silent build
      npm run --silent build:sandbox
      e2e_setup
      ;;
    *)
      echo "scripts/test.sh: no tier \"$tier\" (unit, sandbox, engine or e2e)" >&2
      exit 2
      ;;
  esac
  step "$tier tier (jest)"
  # Paths before --selectProjects: jest reads what follows it as project names.
  exec npx jest "$@" --selectProjects "$tier"
fi

step "building the package and the sandbox"
npm run --silent build
npm run --silent build:sandbox

step "lint (n8n-node lint in strict mode: n8n's template eslint.config.mjs; Prettier) and type check of the tests, sandbox and benchmarks"
npm run --silent lint
npx tsc -p tsconfig.test.json --noEmit

step "n8n community package scanner"
npm run --silent scan

e2e_setup

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
