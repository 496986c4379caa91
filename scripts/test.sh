#!/usr/bin/env bash
# The README's test commands, on a fresh clone as on a used one: Node 24 and the dependencies first
# (scripts/setup.sh), then
# - `npm test` (no argument): the build, lint, the type check, n8n's package scanner, the real n8n
#   and the browser, and every jest tier: unit, sandbox, engine and e2e;
# - `npm run test:fast` (`fast`): lint, the type check, and the unit, sandbox and engine tiers,
#   what to run before every commit;
# - `npm run test:<tier>` (`bash scripts/test.sh <tier> [jest arguments]`): that tier only (e2e with
#   the build, the real n8n and the browser it needs), e.g. `npm run test:engine -- test/engine/list.test.ts`.
# `npm test` and `test:fast` end with a table of where their time went (scripts/test-times.js),
# also written to .tools/test-times.md, whether they passed or not.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s\n' "$*"; }

# Where `npm test` and `test:fast` record their steps and jest results for the table (a single
# tier's run records nothing).
TIMES=
# Runs a command as a named step of the table: when it started, when it ended and how.
timed() {
  local name=$1
  shift
  step "$name"
  [ -z "$TIMES" ] || printf '%s\t%s\t' "$name" "$EPOCHREALTIME" >>"$TIMES/steps.tsv"
  local status=0
  "$@" || status=$?
  [ -z "$TIMES" ] || printf '%s\t%s\n' "$EPOCHREALTIME" "$status" >>"$TIMES/steps.tsv"
  return "$status"
}

setup_started=$EPOCHREALTIME
source scripts/setup.sh
setup_ended=$EPOCHREALTIME

# jest's default on 2 cores is one worker. The sandbox and engine tiers' test files start sandboxes
# (and the engine tier its proxies and webhook receivers) of their own, on ports the system picks,
# and share no files: two workers run them side by side. Their tests count requests, not time, so
# a second worker on the same cores changes nothing they check. The e2e tier's real n8n processes
# use whole cores, one suite at a time.
workers() {
  case "$1" in
    sandbox | engine) echo 2 ;;
    *) echo 1 ;;
  esac
}

ran_tiers=()
report() {
  local status=$?
  node scripts/test-times.js "$TIMES" .tools/test-times.md "$title" "${ran_tiers[@]}" || true
  exit "$status"
}

# A jest tier as a step; its results go to $TIMES/jest-<tier>.json. Returns jest's status.
jest_tier() {
  local tier=$1
  ran_tiers+=("$tier")
  timed "jest: $tier tier" npx jest --ci --maxWorkers="$(workers "$tier")" --selectProjects "$tier" \
    --json --outputFile="$TIMES/jest-$tier.json"
}

# Chained with &&: run as a step (`timed`), a function's commands do not stop it at a failure.
# dist/.built and build/.built are the markers scripts/demo.sh builds by: the demo that
# test/e2e/demo.test.ts starts then uses this build instead of building dist/ again mid-tier.
build() {
  npm run --silent build && npm run --silent build:sandbox && touch dist/.built build/.built
}

lint_and_types() {
  timed "lint (n8n-node lint in strict mode: n8n's template eslint.config.mjs; Prettier)" \
    npm run --silent lint
  timed "type check of the tests, sandbox and benchmarks" npx tsc -p tsconfig.test.json --noEmit
}

e2e_setup() {
  # The newest n8n, and the oldest the package supports (scripts/n8n-versions.js) for
  # test/e2e/compatibility.test.ts: installed on the first run only, as are the others.
  timed "n8n install (newest)" bash scripts/n8n-install.sh
  timed "n8n install (oldest)" bash scripts/n8n-install.sh oldest
  timed "chromium and redis-server" bash -c 'bash scripts/browser-install.sh && bash scripts/redis-install.sh'
  timed "local npm registry (verdaccio)" node scripts/registry.js install
}

if [ $# -gt 0 ] && [ "$1" != fast ]; then
  tier=$1
  shift
  case "$tier" in
    unit | sandbox | engine) ;;
    e2e)
      timed "building the package (installed packed into n8n) and the sandbox and benchmarks (the benchmark's smoke run)" build
      e2e_setup
      ;;
    *)
      echo "scripts/test.sh: no tier \"$tier\" (fast, unit, sandbox, engine or e2e)" >&2
      exit 2
      ;;
  esac
  step "$tier tier (jest)"
  # Paths before --selectProjects: jest reads what follows it as project names.
  exec npx jest "$@" --maxWorkers="$(workers "$tier")" --selectProjects "$tier"
fi

TIMES=.tools/test-times
rm -rf "$TIMES"
mkdir -p "$TIMES"
printf '%s\t%s\t%s\t0\n' "Node 24 and dependencies" "$setup_started" "$setup_ended" >>"$TIMES/steps.tsv"
if [ $# -gt 0 ]; then
  title='npm run test:fast'
  tiers=(unit sandbox engine)
  trap report EXIT
  lint_and_types
else
  title='npm test'
  tiers=(unit sandbox engine e2e)
  trap report EXIT
  timed "building the package and the sandbox" build
  lint_and_types
  timed "n8n community package scanner" npm run --silent scan
  e2e_setup
fi

# Every tier runs, whichever failed before it; the run fails if any did.
failed=0
for tier in "${tiers[@]}"; do
  jest_tier "$tier" || failed=1
done
exit "$failed"
