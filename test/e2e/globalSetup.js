// jest's globalSetup of the e2e tier: packs the package once (`npm pack` of the build the tier
// tests) for every suite's n8n home; scripts/n8n-host.js `prepare` installs that tarball
// (PROPRADAR_PACKED_TARBALL, inherited by the tier's workers) instead of packing it again.
// test/e2e/globalTeardown.js removes it.
'use strict';
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const n8n = require('../../scripts/n8n-host');

module.exports = async function packOnce() {
	const dir = mkdtempSync(join(tmpdir(), 'propradar-e2e-pack-'));
	process.env[n8n.PACKED] = await n8n.pack(dir);
};
