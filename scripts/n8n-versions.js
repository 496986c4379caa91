// The n8n releases this package is tested on, in one place: `newest` is the n8n of the demo, the
// benchmarks and the whole e2e tier; `oldest` is the oldest release it supports, on which the
// e2e tier's compatibility smoke (test/e2e/compatibility.test.ts) runs too. Moving to a newer n8n
// is the line `newest`. scripts/n8n-install.sh installs each release into its own folder (`home`),
// scripts/n8n-host.js runs the one asked for.
'use strict';
const { join } = require('node:path');

const versions = {
	newest: '2.41.1',
	oldest: '2.0.0',
};

const TOOLS = join(__dirname, '..', '.tools');

/** A release as given to the install script or `prepare`: `newest`, `oldest`, or a release number. */
function resolve(name = 'newest') {
	return Object.hasOwn(versions, name) ? versions[name] : name;
}

/** The folder a release is installed in: .tools/n8n for the newest, .tools/n8n-<version> for any other. */
function home(name = 'newest') {
	const version = resolve(name);
	return version === versions.newest ? join(TOOLS, 'n8n') : join(TOOLS, `n8n-${version}`);
}

module.exports = { ...versions, home, resolve };
