/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The copy's limits (issue 58): a README a user reads through, with a quick start near its top, and
 * documents whose sentences are read in one breath. scripts/copy.js measures (`node
 * scripts/copy.js` prints every measure, the error messages' word counts too).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { measureProse, measureReadme, read, sentences } from '../../scripts/copy';

const ROOT = join(__dirname, '..', '..');

const MAX_README_LINES = 250;
const QUICK_START_BY_LINE = 60;
const MAX_AVERAGE_WORDS = 16;
const MAX_SENTENCE_WORDS = 40;

/** The documents held to the limits: the README, CONTRIBUTING and every document in docs/. */
const DOCUMENTS = [
	'README.md',
	'CONTRIBUTING.md',
	'docs/api.md',
	'docs/design.md',
	'docs/money.md',
	'docs/operations.md',
	'docs/performance.md',
	'docs/sandbox.md',
	'docs/scale.md',
	'docs/trigger.md',
	'docs/verification.md',
];

test('the measure counts sentences and words as a reader does', () => {
	expect(sentences('Run it now. Use a tool, e.g. Prettier, to format. Done.')).toEqual([
		['Run', 'it', 'now.'],
		['Use', 'a', 'tool,', 'e.g.', 'Prettier,', 'to', 'format.'],
	]);
	const prose = measureProse(
		[
			'# A heading is no sentence',
			'',
			'One short sentence here. Another one, a little longer than that.',
			'',
			'```bash',
			'npm run demo   # code is no prose',
			'```',
			'',
			'| Field | What it is |',
			'| --- | --- |',
			'| Token | The token from your account settings. |',
			'',
			'- A list item ends its sentence',
			'- [A link](https://example.com/counts/as/its/text) counts as its text',
		].join('\n'),
	);
	expect(prose.sentences).toBe(5);
	expect(prose.longestWords).toBe(7);
	expect(measureReadme('# Title\n\n## Quick start\n\n1. Go.\n')).toEqual({
		lines: 5,
		quickStartLine: 3,
	});
});

test(`the README is at most ${MAX_README_LINES} lines, with its quick start within the first ${QUICK_START_BY_LINE}`, () => {
	const readme = measureReadme(read('README.md'));
	expect(readme.lines).toBeLessThanOrEqual(MAX_README_LINES);
	expect(readme.quickStartLine).toBeDefined();
	expect(readme.quickStartLine).toBeLessThanOrEqual(QUICK_START_BY_LINE);
});

test.each(DOCUMENTS)(
	`%s: at most ${MAX_AVERAGE_WORDS} words a sentence on average, none over ${MAX_SENTENCE_WORDS}`,
	(file) => {
		const prose = measureProse(read(file));
		expect(prose.sentences).toBeGreaterThan(0);
		expect(prose.averageWords).toBeLessThanOrEqual(MAX_AVERAGE_WORDS);
		// The longest sentence itself, so that a failure shows which one to shorten.
		expect(
			prose.longestWords <= MAX_SENTENCE_WORDS ? 'none' : `${prose.longestWords}: ${prose.longest}`,
		).toBe('none');
	},
);

/** Folders a document names a file from; `money/quote.ts` is the node's, `engine/x.test.ts` a test. */
const SOURCE_ROOTS = ['', 'nodes/PropRadar/', 'nodes/PropRadar/actions/', 'test/', 'test/engine/'];
/** n8n's own files, which documents name where the node depends on them. */
const N8N_FILE = /^(packages|dist|request-helpers|webhooks)\//;

test.each(DOCUMENTS)('%s: every file of the project it names exists', (file) => {
	const named = [...read(file).matchAll(/`([\w./-]+\/[\w.-]+\.(?:ts|js|mjs|json|sh))`/g)];
	const missing = named
		.map(([, path]) => path)
		.filter((path) => !N8N_FILE.test(path))
		.filter((path) => !SOURCE_ROOTS.some((root) => existsSync(join(ROOT, root, path))));
	expect(missing).toEqual([]);
});
