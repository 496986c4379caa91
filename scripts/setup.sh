# Sourced by the npm scripts that run something (test, demo, sandbox, bench): Node 24 on the PATH
# (scripts/node24.sh) and the locked dependencies installed, so each works on a fresh clone.
source "$(dirname "${BASH_SOURCE[0]}")/node24.sh"
cd "$REPO_ROOT"
# `npm install`, not `npm ci`: the registry here lacks the other platforms' optional bindings of
# unrs-resolver (a jest dependency), which `npm ci` counts as a lock mismatch. With the lock file
# present `npm install` installs exactly the locked versions and leaves the lock untouched.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  printf '\n==> installing dependencies (Node %s)\n' "$(node --version)"
  npm install --no-audit --no-fund --loglevel=error
fi
