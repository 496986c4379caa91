/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodePropertyOptions } from 'n8n-workflow';

import { markdown } from '../../bench/table';
import { newest, oldest } from '../../scripts/n8n-versions';
import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import {
	MAX_WATCHED_FIELDS,
	MAX_WATCHED_PROPERTIES,
} from '../../nodes/PropRadar/pollingTrigger/changes';
import { OVERLAP_MS } from '../../nodes/PropRadar/pollingTrigger/newProperties';

/** `resource.operation` of every row of the README's operations table. */
function readmeOperations(): string[] {
	const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
	const rows = readme.matchAll(/^\| [^|(]+\(`(\w+)`\) \| [^|(]+\(`(\w+)`\)/gm);
	return [...rows]
		.map(([, resource, operation]) => `${resource}.${operation}`)
		.filter((row) => row !== 'resource.operation');
}

test('the README operations table lists exactly the operations the node offers', () => {
	const offered = new PropRadar().description.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.options as INodePropertyOptions[]).map(
				(option) =>
					`${String(property.displayOptions?.show?.resource?.[0])}.${String(option.value)}`,
			),
		);
	expect(offered.length).toBeGreaterThan(0);
	expect(readmeOperations().sort()).toEqual(offered.sort());
});

/** A results file of the benchmark as `npm run bench` renders it. */
function rendered(file: string): { command: string; link?: unknown; table: string } {
	const results = JSON.parse(
		readFileSync(join(__dirname, '..', '..', 'bench', file), 'utf8'),
	) as Parameters<typeof markdown>[0];
	return { command: results.command, link: results.link, table: markdown(results) };
}

test('docs/performance.md shows the latest `npm run bench` runs as the benchmark renders them: over the WAN link (bench/results-wan.json) first, then on loopback (bench/results.json)', () => {
	const performance = readFileSync(join(__dirname, '..', '..', 'docs', 'performance.md'), 'utf8');
	const loopback = rendered('results.json');
	const wan = rendered('results-wan.json');
	expect(loopback.command).toBe('npm run bench');
	expect(wan.command).toMatch(/^npm run bench -- --wan( |$)/);
	expect(wan.link).toBeDefined();
	expect(performance).toContain(loopback.table);
	expect(performance).toContain(wan.table);
	expect(performance.indexOf(wan.table)).toBeLessThan(performance.indexOf(loopback.table));
});

test("the README's Compatibility section names the oldest and newest n8n the tests run (scripts/n8n-versions.js)", () => {
	const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
	const section = readme.slice(readme.indexOf('## Compatibility'), readme.indexOf('## Credential'));
	expect(section).toContain(`**${oldest} to ${newest}**`);
	expect(section).toContain(
		`Every test runs on ${newest}; on ${oldest}, the oldest, a smoke runs too`,
	);
});

describe("the README's Compatibility section on n8n 3.0", () => {
	const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
	const section = readme.slice(readme.indexOf('## Compatibility'), readme.indexOf('## Credential'));
	// The package.json `npm pack` puts in the tarball, unchanged.
	const packageJson = JSON.parse(
		readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'),
	) as { n8n: { n8nNodesApiVersion: unknown } };

	test('names the node API level the package declares', () => {
		expect(packageJson.n8n.n8nNodesApiVersion).toBe(1);
		expect(section).toContain('`n8nNodesApiVersion: 1`');
	});

	test("n8n-workflow's check loads the package on a runtime of a higher node API level (3, as n8n 3.x), and refuses a package that asks for more than the runtime has", () => {
		const atLevel = (level: number) => {
			let check!: typeof import('n8n-workflow').checkNodesApiVersion;
			jest.isolateModules(() => {
				jest.doMock('@n8n/constants', () => ({
					...jest.requireActual<object>('@n8n/constants'),
					N8N_NODES_API_VERSION: level,
				}));
				({ checkNodesApiVersion: check } = jest.requireActual<typeof import('n8n-workflow')>(
					'n8n-workflow/dist/cjs/nodes-api-version',
				));
			});
			return check;
		};
		expect(atLevel(3)(packageJson)).toMatchObject({ compatible: true, version: 1 });
		expect(atLevel(3)({ n8n: { n8nNodesApiVersion: 3 } })).toMatchObject({ compatible: true });
		expect(atLevel(3)({ n8n: { n8nNodesApiVersion: 4 } })).toMatchObject({
			compatible: false,
			reason: 'unsupported',
		});
	});

	test('says what 2.x releases after the tested one and 3.0 can expect', () => {
		expect(section).toContain(`**later 2.x** (2.48 is the current stable)`);
		expect(section).toContain(`**3.0**`);
		expect(section).toContain('`N8N_UNVERIFIED_PACKAGES_ENABLED=true`');
		expect(section).toContain('queue mode');
	});
});

describe("the README's and docs/trigger.md's limits of the PropRadar Polling Trigger are the node's", () => {
	// Read as flowing text: a sentence may break across lines anywhere.
	const flat = (path: string[]) =>
		readFileSync(join(__dirname, '..', '..', ...path), 'utf8').replace(/\s+/g, ' ');
	const readme = flat(['README.md']);
	const section = readme.slice(
		readme.indexOf('**PropRadar Polling Trigger**'),
		readme.indexOf('## Using it from an AI agent'),
	);
	const trigger = flat(['docs', 'trigger.md']);
	const largest = MAX_WATCHED_PROPERTIES.toLocaleString('en-US');

	test('the largest list Changes in Properties watches', () => {
		expect(section).toContain(`It watches lists of up to ${largest} properties`);
		expect(trigger).toContain(`**Largest list: ${largest} properties.**`);
		expect(trigger).toContain(`watches lists of at most ${MAX_WATCHED_PROPERTIES}"`);
	});

	test('the fields it watches, and the overlap of New Properties', () => {
		expect(trigger).toContain(`**Fields to Watch** (1 to ${MAX_WATCHED_FIELDS} property fields`);
		expect(OVERLAP_MS).toBe(5 * 60_000);
		expect(trigger).toContain('added since five minutes before the last successful read began');
	});
});
