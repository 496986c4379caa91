#!/usr/bin/env bash
# Debian's Chromium for the browser part of the e2e tier (playwright-core drives it; playwright's own
# browser download does not work on these machines). Installed once; a no-op when present.
set -euo pipefail
source "$(dirname "$0")/debian-package.sh"
debian_package /usr/bin/chromium chromium
