import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodePropertyOptions } from 'n8n-workflow';

import { markdown } from '../../bench/table';
import { PropRadar } from '../../nodes/PropRadar/PropRadar.node';

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
	const { oldest, newest } = require('../../scripts/n8n-versions') as {
		oldest: string;
		newest: string;
	};
	const section = readme.slice(readme.indexOf('## Compatibility'), readme.indexOf('## Credential'));
	expect(section).toContain(`**${oldest} to ${newest}**`);
	expect(section).toContain(
		`Every test runs on ${newest}; on ${oldest}, the oldest, a smoke runs too`,
	);
});
