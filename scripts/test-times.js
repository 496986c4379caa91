// Where a test run's time went: scripts/test.sh records when each of its steps started and ended
// (steps.tsv) and has each jest tier write its results (`jest --json`); this turns them into one
// Markdown table of steps, the tests of each tier, and the ten slowest suites (from each suite's
// start and end in jest's results), printed and written to .tools/test-times.md.
'use strict';
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..');

/** Seconds as m:ss (h:mm:ss from an hour). */
function clock(seconds) {
	const whole = Math.round(seconds);
	const h = Math.floor(whole / 3600);
	const m = Math.floor((whole % 3600) / 60);
	const s = String(whole % 60).padStart(2, '0');
	return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The lines of steps.tsv (name, start and end in epoch seconds, exit status; end and status empty while running). */
function parseSteps(text) {
	return text
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => {
			const [name, start, end, status] = line.split('\t');
			return {
				name,
				start: Number(start),
				end: end ? Number(end) : undefined,
				status: status === undefined || status === '' ? undefined : Number(status),
			};
		});
}

/**
 * The Markdown table of a run. `steps`: what parseSteps reads; `tiers`: for each jest tier run,
 * its name and jest's `--json` results (undefined when jest wrote none); `root`: what suite paths
 * are shown relative to; `now`: when a step with no end (the run was cut short in it) is taken
 * to have ended.
 */
function timingTable({ steps, tiers, root = ROOT, now = Date.now() / 1000, title = 'npm test' }) {
	const lines = [
		`## ${title}: where the time went`,
		'',
		'| step | time | result |',
		'| --- | ---: | --- |',
	];
	for (const step of steps) {
		const end = step.end ?? now;
		const result =
			step.status === undefined
				? 'cut short'
				: step.status === 0
					? 'ok'
					: `failed (${step.status})`;
		lines.push(`| ${step.name} | ${clock(end - step.start)} | ${result} |`);
	}
	if (steps.length > 0) {
		const first = Math.min(...steps.map((step) => step.start));
		const last = Math.max(...steps.map((step) => step.end ?? now));
		const ok = steps.every((step) => step.status === 0);
		lines.push(`| **total** | **${clock(last - first)}** | ${ok ? 'ok' : 'failed'} |`);
	}

	lines.push(
		'',
		'| jest tier | suites | tests | passed | failed | skipped |',
		'| --- | ---: | ---: | ---: | ---: | ---: |',
	);
	const suites = [];
	const sum = { suites: 0, tests: 0, passed: 0, failed: 0, skipped: 0 };
	for (const { name, results } of tiers) {
		if (!results) {
			lines.push(`| ${name} | no results | | | | |`);
			continue;
		}
		const row = {
			suites: results.numTotalTestSuites,
			tests: results.numTotalTests,
			passed: results.numPassedTests,
			failed: results.numFailedTests,
			skipped: results.numPendingTests + results.numTodoTests,
		};
		for (const key of Object.keys(sum)) sum[key] += row[key];
		lines.push(
			`| ${name} | ${row.suites} | ${row.tests} | ${row.passed} | ${row.failed} | ${row.skipped} |`,
		);
		for (const suite of results.testResults)
			suites.push({
				path: relative(root, suite.name),
				seconds: (suite.endTime - suite.startTime) / 1000,
				status: suite.status,
			});
	}
	if (tiers.length > 1)
		lines.push(
			`| **all** | **${sum.suites}** | **${sum.tests}** | **${sum.passed}** | **${sum.failed}** | **${sum.skipped}** |`,
		);

	if (suites.length > 0) {
		lines.push('', '| slowest suites | time | result |', '| --- | ---: | --- |');
		suites
			.sort((a, b) => b.seconds - a.seconds)
			.slice(0, 10)
			.forEach((suite) =>
				lines.push(`| ${suite.path} | ${clock(suite.seconds)} | ${suite.status} |`),
			);
	}
	return `${lines.join('\n')}\n`;
}

/** Reads what scripts/test.sh left in `dir` (steps.tsv, jest-<tier>.json for `tierNames`), writes the table to `out`, and returns it with the closing line of jest's totals. */
function writeTimes({ dir, tierNames, out, title }) {
	const stepsFile = join(dir, 'steps.tsv');
	const steps = existsSync(stepsFile) ? parseSteps(readFileSync(stepsFile, 'utf8')) : [];
	const tiers = tierNames.map((name) => {
		const file = join(dir, `jest-${name}.json`);
		let results;
		try {
			results = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
		} catch {
			results = undefined; // jest was stopped while writing it
		}
		return { name, results };
	});
	const table = timingTable({ steps, tiers, title });
	writeFileSync(out, table);
	// The closing line CI reads: every tier's tests together.
	const total = (key) => tiers.reduce((sum, { results }) => sum + (results?.[key] ?? 0), 0);
	return (
		`${table}\njest: ${total('numPassedTests')} passed, ${total('numFailedTests')} failed, ` +
		`${total('numPendingTests') + total('numTodoTests')} skipped\n`
	);
}

module.exports = { clock, parseSteps, timingTable, writeTimes };

if (require.main === module) {
	// node scripts/test-times.js <dir> <out> <title> [tier ...]
	const [dir, out, title, ...tierNames] = process.argv.slice(2);
	process.stdout.write(`\n${writeTimes({ dir, tierNames, out, title })}`);
}
