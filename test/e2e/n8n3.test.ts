/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * What the README's Compatibility section tells n8n 3.0 users, against n8n's own word: the 3.0
 * migration report that the installed n8n (the newest, scripts/n8n-versions.js) ships, one rule a
 * change, each with the title and description n8n shows under Settings > Migration Report.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { home } from '../../scripts/n8n-versions';

type Metadata = { version: string; title: string; description: string };
type Rule = new (...config: object[]) => { getMetadata(): Metadata };

/** The metadata of a 3.0 rule of n8n's migration report, from the installed n8n's own module. */
function migrationRule(file: string): Metadata {
	const rules = join(home(), 'node_modules', 'n8n', 'dist', 'modules', 'breaking-changes', 'rules');
	const exported = Object.values(
		createRequire(__filename)(join(rules, 'v3', file)) as Record<string, unknown>,
	);
	const rule = exported.find(
		(value): value is Rule =>
			typeof value === 'function' && typeof value.prototype?.getMetadata === 'function',
	);
	expect(rule).toBeDefined();
	return new rule!({}, {}).getMetadata();
}

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const compatibility = readme.slice(
	readme.indexOf('## Compatibility'),
	readme.indexOf('## Credential'),
);

test('3.0 loads unverified community packages only with N8N_UNVERIFIED_PACKAGES_ENABLED=true, as the README says', () => {
	const rule = migrationRule('unverified-packages.rule.js');
	expect(rule.version).toBe('v3');
	expect(rule.description).toContain('N8N_UNVERIFIED_PACKAGES_ENABLED changes to false');
	expect(rule.description).toContain(
		'will stop loading unless the variable is explicitly set to true',
	);
	expect(compatibility).toContain('only with `N8N_UNVERIFIED_PACKAGES_ENABLED=true`');
});

test("3.0's queue mode runs manual executions on workers, so the README has the package installed there too", () => {
	const rule = migrationRule('offload-manual-executions.rule.js');
	expect(rule.version).toBe('v3');
	expect(rule.title).toBe('Manual executions always run on workers in queue mode');
	expect(compatibility).toContain('In queue mode, 3.0 runs manual executions on the workers too');
	expect(compatibility).toContain('install the package on every worker');
});
