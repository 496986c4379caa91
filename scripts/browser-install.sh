#!/usr/bin/env bash
# Debian's Chromium for the browser part of the e2e tier (playwright-core drives it; playwright's own
# browser download does not work on these machines). Installed once; a no-op when present.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi
echo "==> installing Debian's chromium (first run only)"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
