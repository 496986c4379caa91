#!/usr/bin/env bash
# Takes the README's screenshots again: the e2e tests that take them write into .tools/screenshots
# (a test run leaves the checkout as it was); this copies each image the README shows from there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
npm run --silent build
bash scripts/n8n-install.sh
bash scripts/browser-install.sh
npx jest test/e2e/n8n.test.ts -t 'in a real browser' --selectProjects e2e
npx jest test/e2e/editorPipeline.test.ts test/e2e/matchCount.test.ts --selectProjects e2e
for image in docs/screenshots/*.png; do
  cp ".tools/screenshots/$(basename "$image")" "$image"
done
