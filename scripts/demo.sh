#!/usr/bin/env bash
# `npm run demo`: on a fresh clone does all the set-up (Node 24, dependencies, build, the real n8n),
# then becomes scripts/demo.js, which runs the sandbox and n8n with this package and the examples.
# npm hands a Ctrl-C or a kill of `npm run demo` (SIGINT, SIGTERM) to this script alone (package.json
# execs it): the set-up runs as a process group of its own, which the signal stops whole; later,
# scripts/demo.js stops n8n and the sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }
# Runs a build quietly; when it fails, shows what it printed (tsc prints its errors to stdout).
quietly() {
  local log
  log=$(mktemp)
  "$@" >"$log" 2>&1 || { cat "$log"; rm -f "$log"; return 1; }
  rm -f "$log"
}
# A build is redone when a file it is made from changed since it last succeeded (its .built marker).
stale() {
  local marker=$1/.built
  shift
  [ ! -e "$marker" ] || [ -n "$(find "$@" -newer "$marker" -print -quit)" ]
}
setup() {
  source scripts/setup.sh
  if stale dist nodes credentials icons package.json package-lock.json tsconfig.json gulpfile.js; then
    step "building the package"
    quietly npm run --silent build
    touch dist/.built
  fi
  if stale build sandbox bench nodes package.json package-lock.json tsconfig.json tsconfig.sandbox.json; then
    step "building the sandbox"
    quietly npm run --silent build:sandbox
    touch build/.built
  fi
  step "the real n8n"
  bash scripts/n8n-install.sh
}

set -m
setup &
setup_group=$!
set +m
stop_setup() {
  trap - INT TERM
  kill -TERM -- "-$setup_group" 2>/dev/null || true
  wait "$setup_group" || true
  exit "$1"
}
trap 'stop_setup 130' INT
trap 'stop_setup 143' TERM
status=0
wait "$setup_group" || status=$?
trap - INT TERM
[ "$status" -eq 0 ] || exit "$status"

source scripts/node24.sh
exec node scripts/demo.js
