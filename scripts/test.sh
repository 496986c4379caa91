#!/usr/bin/env bash
# The README's test commands, on a fresh clone as on a used one: Node 24 and the dependencies first
# (scripts/setup.sh), then
# - `npm test` (no argument): the build, lint, the type check, n8n's package scanner, the real n8n
#   and the browser, and every jest tier: unit, sandbox, engine and e2e;
# - `npm run test:fast` (`fast`): lint, the type check, and the unit, sandbox and engine tiers,
#   what to run before every commit;
# - `npm run test:<tier>` (`bash scripts/test.sh <tier> [jest arguments]`): that tier only (e2e with
#   the build, the real n8n and the browser it needs), e.g. `npm run test:engine -- test/engine/list/create.test.ts`.
# `npm test` and `test:fast` end with a table of where their time went (scripts/test-times.js),
# also written to .tools/test-times.md, whether they passed or not.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n==> %s\n' "$*"; }

# Where `npm test` and `test:fast` record their steps and jest results for the table (a single
# tier's run records nothing).
TIMES=
# The file the steps go to: steps.tsv, or background.tsv for those run in the background (merged
# into steps.tsv when they are waited for, so that two processes never write one line each half).
STEPS_FILE=steps.tsv
# Runs a command as a named step of the table: when it started, when it ended and how.
timed() {
  local name=$1
  shift
  step "$name"
  [ -z "$TIMES" ] || printf '%s\t%s\t' "$name" "$EPOCHREALTIME" >>"$TIMES/$STEPS_FILE"
  local status=0
  "$@" || status=$?
  [ -z "$TIMES" ] || printf '%s\t%s\n' "$EPOCHREALTIME" "$status" >>"$TIMES/$STEPS_FILE"
  return "$status"
}

setup_started=$EPOCHREALTIME
source scripts/setup.sh
setup_ended=$EPOCHREALTIME

# jest's default on 2 cores is one worker. The sandbox, engine and e2e tiers' test files start
# sandboxes (the engine tier its proxies and webhook receivers, the e2e tier its own n8n) of their
# own, on ports the system picks, and share no files: two workers run them side by side. Their tests
# count requests and wait on states (a stored execution, a panel shown in the editor), with bounds
# against a hang rather than budgets, so a second worker on the same cores changes nothing they
# check. The e2e tier's suites mostly wait on n8n (starts, polls, deliveries): on two workers three
# of them took 222 s against 512 s on one, for the same CPU.
workers() {
  case "$1" in
    sandbox | engine | e2e) echo 2 ;;
    *) echo 1 ;;
  esac
}

ran_tiers=()
report() {
  local status=$?
  # A run that stopped before the e2e tier (a failed build) still lets the installs finish: one
  # stopped half-way would be started again from scratch by the next run.
  if [ -n "$BACKGROUND_PID" ]; then
    step "waiting for the background installs to finish"
    wait_background >/dev/null || true
  fi
  merge_background
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
  local prefix=${1:-}
  timed "${prefix}n8n install (newest)" bash scripts/n8n-install.sh &&
    timed "${prefix}n8n install (oldest)" bash scripts/n8n-install.sh oldest &&
    timed "${prefix}chromium and redis-server" bash -c 'bash scripts/browser-install.sh && bash scripts/redis-install.sh' &&
    timed "${prefix}local npm registry (verdaccio)" node scripts/registry.js install
}

# `npm test` installs what the e2e tier needs in the background (on a fresh clone mostly downloads:
# about 8 minutes for both n8n releases), while the build, lint and the unit, sandbox and engine
# tiers run; the e2e tier waits for it (`wait_background`). Its output goes to
# $TIMES/background.log, shown when it is waited for; its steps are in the table as "in the
# background", the wait as a step of its own.
BACKGROUND_PID=
start_background() {
  step "in the background: the n8n installs, chromium, redis-server and verdaccio (log: $TIMES/background.log)"
  (STEPS_FILE=background.tsv e2e_setup 'in the background: ') >"$TIMES/background.log" 2>&1 &
  BACKGROUND_PID=$!
}
merge_background() {
  [ -n "$TIMES" ] && [ -f "$TIMES/background.tsv" ] || return 0
  cat "$TIMES/background.tsv" >>"$TIMES/steps.tsv"
  rm -f "$TIMES/background.tsv"
}
wait_background() {
  [ -n "$BACKGROUND_PID" ] || return 0
  local status=0
  wait "$BACKGROUND_PID" || status=$?
  BACKGROUND_PID=
  cat "$TIMES/background.log"
  return "$status"
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
  start_background
  timed "building the package and the sandbox" build
  lint_and_types
  timed "n8n community package scanner" npm run --silent scan
fi

# Every tier runs, whichever failed before it; the run fails if any did. The e2e tier first waits
# for its installs, and does not run when they failed.
failed=0
for tier in "${tiers[@]}"; do
  if [ "$tier" = e2e ]; then
    waited=0
    timed "waiting for the background installs" wait_background || waited=$?
    # After the wait's own line is whole: the background's lines follow it.
    merge_background
    if [ "$waited" -ne 0 ]; then
      failed=1
      continue
    fi
  fi
  jest_tier "$tier" || failed=1
done
exit "$failed"
