// Installs a test tool into a folder of its own from its lock file in scripts/locks/, with `npm ci`
// (scripts/n8n-install.sh does the same for n8n, with progress lines): resolved afresh, open version
// ranges can ask for versions the registry does not have yet.
'use strict';
const { spawnSync } = require('node:child_process');
const { copyFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

/** Writes `manifest` as the folder's package.json beside the lock `scripts/locks/<lock>`, then runs `npm ci` there. */
function installLocked(dir, manifest, lock, npmFlags = []) {
	writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
	copyFileSync(join(__dirname, 'locks', lock), join(dir, 'package-lock.json'));
	const installed = spawnSync(
		'npm',
		['ci', '--no-audit', '--no-fund', '--loglevel=error', ...npmFlags],
		{ cwd: dir, encoding: 'utf8' },
	);
	if (installed.status !== 0)
		throw new Error(
			`${Object.keys(manifest.dependencies).join(', ')} could not be installed from ` +
				`scripts/locks/${lock}:\n${installed.stdout}${installed.stderr}`,
		);
}

module.exports = { installLocked };
