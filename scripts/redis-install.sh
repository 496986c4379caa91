#!/usr/bin/env bash
# Debian's Redis for the queue-mode part of the e2e tier (n8n's EXECUTIONS_MODE=queue needs one).
# Installed once; a no-op when present. The tests start their own redis-server on a free port.
set -euo pipefail
if [ -x /usr/bin/redis-server ]; then
  echo "redis-server: $(/usr/bin/redis-server --version 2>/dev/null || echo present)"
  exit 0
fi
echo "==> installing Debian's redis-server (first run only)"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null
# The package's service is not wanted: tests start their own server.
$SUDO service redis-server stop >/dev/null 2>&1 || true
/usr/bin/redis-server --version
