#!/usr/bin/env bash
# `npm run bench`: builds the sandbox and the benchmarks, then runs them on Node 24.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
npm run --silent build:sandbox
exec node build/bench/run.js "$@"
