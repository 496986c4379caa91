#!/usr/bin/env bash
# `npm run demo`: on a fresh clone does all the set-up (Node 24, dependencies, build, the real n8n),
# then runs the sandbox and n8n with this package and the example workflows (scripts/demo.js).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

step() { printf '\n==> %s\n' "$*"; }
step "building the package and the sandbox"
npm run --silent build >/dev/null
npm run --silent build:sandbox
step "the real n8n"
bash scripts/n8n-install.sh
exec node scripts/demo.js
