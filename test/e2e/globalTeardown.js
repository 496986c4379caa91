// jest's globalTeardown of the e2e tier: removes the tarball test/e2e/globalSetup.js packed.
'use strict';
const { rmSync } = require('node:fs');
const { dirname } = require('node:path');

const { PACKED } = require('../../scripts/n8n-host');

module.exports = function removePacked() {
	const packed = process.env[PACKED];
	if (packed) rmSync(dirname(packed), { recursive: true, force: true });
	delete process.env[PACKED];
};
