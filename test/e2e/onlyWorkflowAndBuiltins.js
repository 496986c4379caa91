// Preloaded into n8n's processes (NODE_OPTIONS=--require) by test/e2e/install.test.ts. n8n puts
// its own node_modules on NODE_PATH (load-nodes-and-credentials.js), so a bare require from a
// community package finds whatever n8n happens to hold. Here a file of the package in
// PROPRADAR_GUARDED_DIR may require only relative paths, Node's built-ins and n8n-workflow: any
// other request is refused with MODULE_NOT_FOUND, as if nothing of that name were installed. Each
// request of the package's files but the relative ones is appended to the file PROPRADAR_GUARD_LOG
// names (one JSON object a line: the request, the file, whether it was refused), so the test
// sees both what was refused and that the guard was at work in the process that loaded the package.
'use strict';
const { appendFileSync } = require('node:fs');
const Module = require('node:module');

const guarded = process.env.PROPRADAR_GUARDED_DIR;
const guardLog = process.env.PROPRADAR_GUARD_LOG;

const relative = (request) =>
	request === '.' || request === '..' || request.startsWith('./') || request.startsWith('../');

if (guarded && guardLog) {
	const resolveFilename = Module._resolveFilename;
	Module._resolveFilename = function (request, parent, ...rest) {
		const from = parent?.filename;
		if (typeof from === 'string' && from.startsWith(guarded) && !relative(request)) {
			const refused = !Module.isBuiltin(request) && request !== 'n8n-workflow';
			appendFileSync(guardLog, `${JSON.stringify({ request, from, refused, pid: process.pid })}\n`);
			if (refused) {
				const error = new Error(`Cannot find module '${request}'\nRequire stack:\n- ${from}`);
				error.code = 'MODULE_NOT_FOUND';
				error.requireStack = [from];
				throw error;
			}
		}
		return resolveFilename.call(this, request, parent, ...rest);
	};
}
