#!/usr/bin/env bash
# Debian's Redis for the queue-mode part of the e2e tier (n8n's EXECUTIONS_MODE=queue needs one).
# Installed once; a no-op when present. The tests start their own redis-server on a free port.
set -euo pipefail
source "$(dirname "$0")/debian-package.sh"
debian_package /usr/bin/redis-server redis-server --no-install-recommends
# The package's service is not wanted: tests start their own server.
$SUDO service redis-server stop >/dev/null 2>&1 || true
