/**
 * A jest transform for two files of n8n's expression engine, so that the engine tier runs n8n's
 * `vm` engine as n8n does; nothing else in them changes, and each change must still apply.
 * - n8n-workflow's `dist/cjs/expression.js` starts the engine (`Expression.initExpressionEngine`)
 *   with `await import('@n8n/expression-runtime')`, which jest's module sandbox cannot run without
 *   Node's --experimental-vm-modules: it is loaded with `require`, the same CommonJS module.
 * - @n8n/expression-runtime's `dist/cjs/runtime/transfer.js` tells a plain object by its prototype
 *   being `Object.prototype`. isolated-vm copies an expression's result into Node's own realm,
 *   while jest runs the tests' modules in a realm of their own, so under jest no result would be
 *   plain and a luxon date would reach the node as its transfer marker. A plain object of another
 *   realm is taken as plain too; in n8n, one realm, the test is the same.
 */
'use strict';

const { createHash } = require('node:crypto');

const CHANGES = [
	{
		file: /n8n-workflow\/dist\/cjs\/expression\.js$/,
		from: "await import('@n8n/expression-runtime')",
		to: "require('@n8n/expression-runtime')",
	},
	{
		file: /@n8n\/expression-runtime\/dist\/cjs\/runtime\/transfer\.js$/,
		from: 'return proto === Object.prototype || proto === null;',
		to: "return proto === Object.prototype || proto === null || (Object.getPrototypeOf(proto) === null && typeof proto.constructor === 'function' && proto.constructor.name === 'Object');",
	},
];

module.exports = {
	// The changes are part of what a cached transform depends on.
	getCacheKey(source, path) {
		return createHash('sha256')
			.update(source)
			.update(path)
			.update(
				JSON.stringify(CHANGES, (_, value) => (value instanceof RegExp ? String(value) : value)),
			)
			.digest('hex');
	},
	process(source, path) {
		const change = CHANGES.find((candidate) => candidate.file.test(path.replace(/\\/g, '/')));
		// A newer n8n that no longer holds the text must fail here, not run otherwise unseen.
		if (!change || !source.includes(change.from))
			throw new Error(
				`${path} no longer holds the text test/support/expressionRuntimeImport.js changes`,
			);
		return { code: source.replace(change.from, change.to) };
	},
};
