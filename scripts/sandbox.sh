#!/usr/bin/env bash
# `npm run sandbox [-- --port N --host ADDR --data FILE --allow-remote-webhooks]`: builds the sandbox
# (into build/, never dist/) and starts it on Node 24.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
npm run --silent build:sandbox
exec node build/sandbox/cli.js "$@"
