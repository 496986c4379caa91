/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * An operation's tests are found by its path, as its code is: the operation
 * `nodes/PropRadar/actions/<resource>/<operation>.operation.ts` has its engine tests in
 * `test/engine/<resource>/<operation>.test.ts`, and a suite about one side of it beside them as
 * `<operation>.<aspect>.test.ts` (`property/get.batched.test.ts`). Every operation of the node has
 * its file, and every file in a resource's folder belongs to an operation the node has. Suites that
 * run every operation alike (money, bad input, the item loop, secrets, ...) stay in test/engine/.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { resources } from '../../nodes/PropRadar/actions/resources';

const ROOT = join(__dirname, '..', '..');
const ENGINE = join(ROOT, 'test', 'engine');
const ACTIONS = join(ROOT, 'nodes', 'PropRadar', 'actions');

const operations = Object.entries(resources).flatMap(([resource, module]) =>
	Object.keys(module.operations).map((operation) => [resource, operation] as const),
);

test('the node has operations in every resource', () => {
	expect(Object.keys(resources).length).toBeGreaterThan(0);
	for (const module of Object.values(resources))
		expect(Object.keys(module.operations).length).toBeGreaterThan(0);
});

test.each(operations)(
	'%s > %s: its code is actions/<resource>/<operation>.operation.ts, its engine tests test/engine/<resource>/<operation>.test.ts',
	(resource, operation) => {
		expect(existsSync(join(ACTIONS, resource, `${operation}.operation.ts`))).toBe(true);
		expect(existsSync(join(ENGINE, resource, `${operation}.test.ts`))).toBe(true);
	},
);

test.each(Object.keys(resources))(
	"every test file in test/engine/%s/ is of one of the resource's operations",
	(resource) => {
		const names = new Set(Object.keys(resources[resource].operations));
		for (const file of readdirSync(join(ENGINE, resource))) {
			const [operation, ...rest] = file.split('.');
			expect({ file, operation: names.has(operation) }).toEqual({ file, operation: true });
			expect(rest.at(-1) === 'ts' && rest.at(-2) === 'test' && rest.length <= 3).toBe(true);
		}
	},
);
