/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodePropertyOptions } from 'n8n-workflow';

import { markdown } from '../../bench/table';
import { PropRadarApi } from '../../credentials/PropRadarApi.credentials';
import { sentences } from '../../scripts/copy';
import { TOKENS } from '../support/sandboxApi';
import { newest, oldest } from '../../scripts/n8n-versions';
import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';
import {
	MAX_WATCHED_FIELDS,
	MAX_WATCHED_PROPERTIES,
	OVERLAP_MS,
} from '../../nodes/PropRadar/pollingTrigger/newProperties';

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

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The body rows of the Markdown table under a README heading, as cells. */
function tableRows(heading: string): string[][] {
	const section = README.slice(README.indexOf(`\n${heading}\n`) + heading.length + 2);
	const end = section.search(/^## /m);
	return (end === -1 ? section : section.slice(0, end))
		.split('\n')
		.filter((line) => line.startsWith('| '))
		.slice(2)
		.map((line) =>
			line
				.slice(2, -2)
				.split(' | ')
				.map((cell) => cell.trim()),
		);
}

test('the operations marked $ are exactly those with a Charge Mode', () => {
	const charging = new PropRadar().description.properties
		.filter((property) => property.name === 'chargeMode')
		.flatMap((property) => {
			const [resource] = property.displayOptions?.show?.resource ?? [];
			return (property.displayOptions?.show?.operation ?? []).map(
				(operation) => `${String(resource)}.${String(operation)}`,
			);
		});
	const marked = tableRows('## Operations')
		.filter(([, operation]) => operation.endsWith(' $'))
		.map(
			([resource, operation]) =>
				`${/`(\w+)`/.exec(resource)?.[1]}.${/`(\w+)`/.exec(operation)?.[1]}`,
		);
	expect(charging.length).toBeGreaterThan(0);
	expect(marked.sort()).toEqual(charging.sort());
});

test('each row of the operations table says what it does in one sentence', () => {
	const long = tableRows('## Operations').filter(
		([, , what]) => sentences(what).length !== 1 || !what.endsWith('.'),
	);
	expect(long).toEqual([]);
});

test("the links in the nodes' panels and the credential dialog land on a heading of the README", () => {
	const headings = new Set(
		[...README.matchAll(/^#{2,3} (.+)$/gm)].map(([, heading]) =>
			heading
				.toLowerCase()
				.replace(/[^\w\s-]/g, '')
				.replace(/\s/g, '-'),
		),
	);
	const links = [
		new PropRadarApi().documentationUrl,
		...['PropRadar', 'PropRadarTrigger', 'PropRadarPollingTrigger'].flatMap((node) => {
			const codex = JSON.parse(
				readFileSync(join(ROOT, 'nodes', 'PropRadar', `${node}.node.json`), 'utf8'),
			) as { resources: Record<string, Array<{ url: string }>> };
			return Object.values(codex.resources).flatMap((entries) => entries.map(({ url }) => url));
		}),
	].filter((url) => url.startsWith('https://github.com/propradar/n8n-nodes-propradar#'));
	expect(links.length).toBeGreaterThanOrEqual(4);
	for (const url of links) expect(headings).toContain(url.split('#')[1]);
});

describe("the README's quick start", () => {
	const quickStart = README.slice(
		README.indexOf('## Quick start'),
		README.indexOf('\n## ', README.indexOf('## Quick start') + 1),
	);

	test("gives the sandbox's token and the credential's default Base URL", () => {
		const baseUrl = new PropRadarApi().properties.find((property) => property.name === 'baseUrl');
		expect(quickStart).toContain(`\`${TOKENS.main}\``);
		expect(quickStart).toContain(`\`${String(baseUrl?.default)}\``);
	});

	test('names the fields as the node shows them: Charge Mode and its two choices, Max Cost (USD)', () => {
		const charging = new PropRadar().description.properties.filter(
			(property) => property.name === 'chargeMode' || property.name === 'maxCost',
		);
		const chargeMode = charging.find((property) => property.name === 'chargeMode');
		const maxCost = charging.find((property) => property.name === 'maxCost');
		expect(quickStart).toContain(`**${chargeMode?.displayName}**`);
		for (const option of (chargeMode?.options ?? []) as INodePropertyOptions[])
			expect(quickStart).toContain(`**${option.name}**`);
		expect(quickStart).toContain(`**${maxCost?.displayName}**`);
		expect(chargeMode?.default).toBe('preview');
	});

	test("its preview-then-purchase is proven: Search's preview buys nothing, and its maxCostNeeded buys the records", () => {
		for (const [file, title] of [
			[
				'test/engine/property/search.test.ts',
				'search: preview gives the total and the quote, nothing bought',
			],
			[
				'test/engine/money.test.ts',
				'the preview estimates what the purchase really costs, and the Max Cost it needs',
			],
		])
			expect(readFileSync(join(ROOT, file), 'utf8')).toContain(title);
	});
});

/**
 * Each situation of the README's spend-safety table is a promise about money; this is the test
 * that fails when it stops being true (a fault-matrix case by its name, or a test by its title).
 * A new row needs its proof here, and a proof renamed or removed fails this check.
 */
const SPEND_SAFETY_PROOFS: Record<string, Array<[file: string, title: string]>> = {
	'Charge Mode is *Preview Cost (Free)*': [
		[
			'test/engine/property/search.test.ts',
			'search: preview gives the total and the quote, nothing bought',
		],
		[
			'test/engine/importRecord/import.test.ts',
			'preview: one summary item, nothing created or charged',
		],
	],
	'The purchase fits Max Cost and the ceiling': [
		[
			'test/engine/money.test.ts',
			'ten items at once under a cap of three purchases at full price: exactly three are bought, never more',
		],
	],
	'The purchase does not fit Max Cost or the ceiling': [
		[
			'test/engine/money.test.ts',
			'a run that does not fit Max Cost at full price is refused whole before anything is bought, even with free credits',
		],
		[
			'test/engine/money.test.ts',
			"two PropRadar nodes in one execution share the credential's ceiling; the next execution has it whole again",
		],
	],
	'Max Cost is 0': [
		[
			'test/engine/money.test.ts',
			'Max Cost below all records at full price: refused before anything is sent, even with free credits',
		],
	],
	'PropRadar refuses the purchase': [
		['test/engine/person/getOwners.test.ts', 'sandbox-broke: a 402 on a purchase, with what to do'],
		['test/engine/money.test.ts', 'a batch refused by the service (400 with its error object)'],
	],
	'The connection cannot be made': [
		[
			'test/engine/money.test.ts',
			'item by item: was not sent, nothing charged, its hold released, and the run goes on buying',
		],
	],
	'The connection drops, or PropRadar fails, after the purchase was sent': [
		['test/engine/money.test.ts', 'purchase connection dropped after the service acted'],
		['test/engine/money.test.ts', 'purchase 500 after the service acted'],
	],
	'The run fails after it bought records': [
		[
			'test/engine/money.test.ts',
			'without "On Error: Continue", a failure after purchases fails the run, and its error carries every record bought',
		],
	],
	'*Retry On Fail* is on': [
		[
			'test/engine/money.test.ts',
			"Retry On Fail on: Purchase is refused before anything is sent, and n8n's retries send nothing either",
		],
	],
	'You stop the execution': [
		[
			'test/engine/cancel.test.ts',
			"Property > Get over many items: stopped during the second batch's purchase, no later batch is bought",
		],
	],
	'*Execute step* runs a purchase node again': [
		[
			'test/e2e/executeStep.test.ts',
			'Execute step on Purchase Phone: Get Owners runs again and buys its owners again',
		],
		[
			'test/e2e/executeStep.test.ts',
			'(4) Get Owners pinned, then changed (Max Cost 4 → 5), Execute step on Purchase Phone: Get Owners does not run, nothing is bought',
		],
	],
	'The same pipeline runs again': [
		[
			'test/engine/boughtBefore.test.ts',
			'off by default: a saved workflow without the option buys again',
		],
		[
			'test/engine/boughtBefore.test.ts',
			'run again, the pipeline sends and charges nothing for what it bought before, and says which items it left out',
		],
	],
	'A phone or e-mail was bought before': [
		[
			'test/engine/person/purchasePhone.test.ts',
			'purchase a phone, then buying it again is a clear result, not a crash',
		],
	],
	'An automation would buy': [
		['test/engine/money.test.ts', "need the node's option; nothing is written without it"],
		[
			'test/engine/money.test.ts',
			"under a credential with a spending ceiling, also need the credential's allowance",
		],
	],
};

describe("the README's spend-safety table", () => {
	const rows = tableRows('## Spend safety');

	test('has a row for each situation with a proof, and no other', () => {
		expect(rows.map(([situation]) => situation).sort()).toEqual(
			Object.keys(SPEND_SAFETY_PROOFS).sort(),
		);
		for (const row of rows) expect(row).toHaveLength(3);
	});

	test.each(Object.entries(SPEND_SAFETY_PROOFS))('%s: its proofs are there', (_, proofs) => {
		for (const [file, title] of proofs) {
			expect(existsSync(join(ROOT, file))).toBe(true);
			expect(readFileSync(join(ROOT, file), 'utf8')).toContain(title);
		}
	});
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
