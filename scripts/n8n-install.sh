#!/usr/bin/env bash
# Installs the real n8n (pinned) once into .tools/n8n, for the demo and the e2e tier. Later runs
# reuse it. Measured facts (docs/design.md, "Toolchain"): n8n 2.41.1 needs Node 24; install with
# --ignore-scripts (a Kafka library's build script downloads from the internet), override linkedom,
# then build the two native modules n8n needs (sqlite3, isolated-vm) against Node 24's headers.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh

N8N_VERSION=2.41.1
N8N_DIR="$PWD/.tools/n8n"
MARKER="$N8N_DIR/.installed-$N8N_VERSION"
if [ -f "$MARKER" ] && [ -x "$N8N_DIR/node_modules/.bin/n8n" ]; then
  echo "n8n $N8N_VERSION: already installed in .tools/n8n"
  exit 0
fi

t0=$SECONDS
step() { printf '==> [%4ss] %s\n' "$((SECONDS - t0))" "$*"; }

# Measured twice on a fresh clone, 2 shared cores, empty npm cache: about 2 minutes resolving,
# 2 to 3 minutes downloading and unpacking, 1.5 to 2 minutes compiling; 2.9 GB in .tools/n8n.
step "installing n8n $N8N_VERSION into .tools/n8n (first run only: 5.5 to 7.5 minutes, 2.9 GB on disk)"
rm -rf "$N8N_DIR"
mkdir -p "$N8N_DIR"
cat > "$N8N_DIR/package.json" <<JSON
{
  "name": "propradar-n8n-host",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.14" }
}
JSON
( cd "$N8N_DIR" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error ) &
install_pid=$!
while kill -0 "$install_pid" 2>/dev/null; do
  sleep 15
  if kill -0 "$install_pid" 2>/dev/null; then
    # npm first reads the metadata of every package from the registry (nothing is written to
    # node_modules then), and only then downloads and unpacks them.
    size=$(du -sm "$N8N_DIR/node_modules" 2>/dev/null | cut -f1 || true)
    if [ -n "$size" ]; then
      step "downloading and unpacking the packages: ${size} MB of about 2,900 MB on disk"
    else
      step "resolving: npm reads the metadata of the ~2,400 packages n8n needs from the registry (about 2 minutes, nothing on disk yet)"
    fi
  fi
done
wait "$install_pid"

step "compiling sqlite3 and isolated-vm against Node $(node --version) (1.5 to 2 minutes)"
export npm_config_nodedir="$NODE24_HOME"
( cd "$N8N_DIR" && npm rebuild sqlite3 isolated-vm --foreground-scripts --loglevel=error >"$N8N_DIR/rebuild.log" 2>&1 ) || {
  tail -40 "$N8N_DIR/rebuild.log"
  exit 1
}

"$N8N_DIR/node_modules/.bin/n8n" --version >/dev/null
touch "$MARKER"
step "n8n $N8N_VERSION installed"
