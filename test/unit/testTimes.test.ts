/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { clock, parseSteps, timingTable, type JestResults } from '../../scripts/test-times';

/** The table `npm test` ends with (scripts/test-times.js), over a small `jest --json` result. */

const results = JSON.parse(
	readFileSync(join(__dirname, '..', 'fixtures', 'jest-results.json'), 'utf8'),
) as JestResults;

const rows = (table: string, header: string) => {
	const lines = table.split('\n');
	const start = lines.findIndex((line) => line.startsWith(`| ${header} |`));
	const end = lines.findIndex((line, index) => index > start && line === '');
	return lines.slice(start + 2, end === -1 ? undefined : end);
};

test('clock writes seconds as m:ss, and h:mm:ss from an hour', () => {
	expect(clock(0)).toBe('0:00');
	expect(clock(59.6)).toBe('1:00');
	expect(clock(482)).toBe('8:02');
	expect(clock(3723)).toBe('1:02:03');
});

test('parseSteps reads a finished step, a failed one, and one the run was cut short in', () => {
	expect(
		parseSteps('build\t100.5\t130.25\t0\nlint\t130.25\t140\t1\njest: e2e tier\t140\t\n'),
	).toEqual([
		{ name: 'build', start: 100.5, end: 130.25, status: 0 },
		{ name: 'lint', start: 130.25, end: 140, status: 1 },
		{ name: 'jest: e2e tier', start: 140, end: undefined, status: undefined },
	]);
});

test('each step with its time and result, and the total from the first start to the last end', () => {
	const table = timingTable({
		steps: parseSteps('build\t1000\t1030\t0\nlint\t1030\t1095\t2\njest: unit tier\t1095\t\n'),
		tiers: [],
		now: 1200,
	});
	expect(rows(table, 'step')).toEqual([
		'| build | 0:30 | ok |',
		'| lint | 1:05 | failed (2) |',
		'| jest: unit tier | 1:45 | cut short |',
		'| **total** | **3:20** | failed |',
	]);
});

test("each tier's suites and tests, and the slowest suites from their start and end in jest's results", () => {
	const table = timingTable({
		steps: parseSteps('jest: e2e tier\t0\t900\t1\n'),
		tiers: [{ name: 'e2e', results }],
		root: '/repo',
	});
	expect(rows(table, 'jest tier')).toEqual(['| e2e | 3 | 6 | 4 | 1 | 1 |']);
	expect(rows(table, 'slowest suites')).toEqual([
		'| test/e2e/bench.test.ts | 8:02 | failed |',
		'| test/e2e/n8n.test.ts | 4:35 | passed |',
		'| test/e2e/install.test.ts | 1:00 | passed |',
	]);
});

test('the slowest ten suites of all tiers together, a sum of the tiers, and a tier that wrote no results', () => {
	const many: JestResults = {
		...results,
		numTotalTestSuites: 12,
		testResults: Array.from({ length: 12 }, (_, index) => ({
			name: `/repo/test/engine/s${index}.test.ts`,
			startTime: 0,
			endTime: (index + 1) * 10_000,
			status: 'passed',
		})),
	};
	const table = timingTable({
		steps: [],
		tiers: [
			{ name: 'engine', results: many },
			{ name: 'e2e', results },
			{ name: 'unit', results: undefined },
		],
		root: '/repo',
	});
	expect(rows(table, 'jest tier')).toEqual([
		'| engine | 12 | 6 | 4 | 1 | 1 |',
		'| e2e | 3 | 6 | 4 | 1 | 1 |',
		'| unit | no results | | | | |',
		'| **all** | **15** | **12** | **8** | **2** | **2** |',
	]);
	const slowest = rows(table, 'slowest suites');
	expect(slowest).toHaveLength(10);
	expect(slowest.slice(0, 4)).toEqual([
		'| test/e2e/bench.test.ts | 8:02 | failed |',
		'| test/e2e/n8n.test.ts | 4:35 | passed |',
		'| test/engine/s11.test.ts | 2:00 | passed |',
		'| test/engine/s10.test.ts | 1:50 | passed |',
	]);
	expect(slowest[9]).toBe('| test/e2e/install.test.ts | 1:00 | passed |');
});
