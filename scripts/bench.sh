#!/usr/bin/env bash
# `npm run bench`: builds the package (n8n installs it from a pack), the sandbox and the benchmarks,
# installs the real n8n on the first run, then runs bench/run.ts on Node 24. Arguments go to it
# (`--smoke` for tiny sizes, `--profile` for a CPU profile of the per-item job, `--out FILE`, `--wan`
# for the jobs over a simulated wide-area link with TLS).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
npm run --silent build
npm run --silent build:sandbox
bash scripts/n8n-install.sh
node build/bench/run.js "$@"
# The published results as `npm run lint` wants them (it checks bench/ with Prettier).
npx prettier --write --log-level warn bench/results.json bench/results-wan.json
