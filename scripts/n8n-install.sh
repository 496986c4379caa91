#!/usr/bin/env bash
# Installs a real n8n (pinned) once, for the demo and the e2e tier. Later runs reuse it.
#   bash scripts/n8n-install.sh [newest|oldest|<version>]
# `newest` (the default) and `oldest` are the releases scripts/n8n-versions.js names; the newest
# goes into .tools/n8n, any other release into .tools/n8n-<version>. Measured facts
# (docs/design.md, "Toolchain"): n8n 2.x runs here on Node 24; install with --ignore-scripts (a
# Kafka library's build script downloads from the internet), override linkedom, then build the
# native modules n8n needs (sqlite3, and isolated-vm where the release has it) against Node 24's
# headers. Releases before 2.32 take SheetJS (`xlsx`) from cdn.sheetjs.com, which these machines
# cannot reach: the override takes it from the registry as @e965/xlsx, as n8n itself does from 2.32.
# Each release installs with `npm ci` from its lock file in scripts/locks/: resolved afresh, n8n's
# open version ranges pick up packages published that day, some of which ask for versions the
# registry does not have yet (an install of 2.0.0 failed so on @aws-sdk/core@^3.981.2); `npm
# install` beside the lock still moved a few of them to newer versions.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh

N8N_VERSION=$(node -p 'require("./scripts/n8n-versions").resolve(process.argv[1])' "${1:-newest}")
N8N_DIR=$(node -p 'require("./scripts/n8n-versions").home(process.argv[1])' "$N8N_VERSION")
WHERE=${N8N_DIR#"$PWD/"}
MARKER="$N8N_DIR/.installed-$N8N_VERSION"
if [ -f "$MARKER" ] && [ -x "$N8N_DIR/node_modules/.bin/n8n" ]; then
  echo "n8n $N8N_VERSION: already installed in $WHERE"
  exit 0
fi

t0=$SECONDS
step() { printf '==> [%4ss] %s\n' "$((SECONDS - t0))" "$*"; }

# Measured for 2.0.0 from its lock file, empty npm cache, 2 cores: 2 minutes downloading and
# unpacking, 2 compiling; 1.7 GB. Without a lock npm first spends about 2 minutes resolving.
step "installing n8n $N8N_VERSION into $WHERE (first run only: 3 to 5 minutes, 1.7 to 2.9 GB on disk)"
rm -rf "$N8N_DIR"
mkdir -p "$N8N_DIR"
cat > "$N8N_DIR/package.json" <<JSON
{
  "name": "propradar-n8n-host",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.14", "xlsx": "npm:@e965/xlsx@0.20.3" }
}
JSON
LOCK="scripts/locks/n8n-$N8N_VERSION.json"
if [ -f "$LOCK" ]; then
  cp "$LOCK" "$N8N_DIR/package-lock.json"
  npm_command=ci
else
  step "no lock file $LOCK: resolving afresh; to pin this release, copy $WHERE/package-lock.json there"
  npm_command=install
fi
( cd "$N8N_DIR" && npm "$npm_command" --ignore-scripts --no-audit --no-fund --loglevel=error ) &
install_pid=$!
while kill -0 "$install_pid" 2>/dev/null; do
  sleep 15
  if kill -0 "$install_pid" 2>/dev/null; then
    # npm first reads the metadata of every package from the registry (nothing is written to
    # node_modules then), and only then downloads and unpacks them.
    size=$(du -sm "$N8N_DIR/node_modules" 2>/dev/null | cut -f1 || true)
    if [ -n "$size" ]; then
      step "downloading and unpacking the packages: ${size} MB on disk (2.41.1: about 2,900 MB; 2.0.0: about 1,650 MB)"
    else
      step "resolving: npm reads the metadata of the ~1,900 to 2,400 packages n8n needs from the registry (about 2 minutes, nothing on disk yet)"
    fi
  fi
done
wait "$install_pid"

native=()
for module in sqlite3 isolated-vm; do
  [ -d "$N8N_DIR/node_modules/$module" ] && native+=("$module")
done
step "compiling ${native[*]} against Node $(node --version) (1.5 to 2 minutes)"
export npm_config_nodedir="$NODE24_HOME"
( cd "$N8N_DIR" && npm rebuild "${native[@]}" --foreground-scripts --loglevel=error >"$N8N_DIR/rebuild.log" 2>&1 ) || {
  tail -40 "$N8N_DIR/rebuild.log"
  exit 1
}

"$N8N_DIR/node_modules/.bin/n8n" --version >/dev/null
touch "$MARKER"
step "n8n $N8N_VERSION installed"
