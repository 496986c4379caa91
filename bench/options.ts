/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The benchmark's command line (bench/run.ts says what each option does) and the sizes it runs at.
 * Read once, when the benchmark loads: a wrong `--only` or `--rounds` stops it before anything runs.
 */
import { join } from 'node:path';

import { ROOT } from './n8n';

const args = process.argv.slice(2);
export const smoke = args.includes('--smoke');
export const profile = args.includes('--profile');
/** `--wan`: the jobs over the wide-area link (bench/wanLink.ts), `--wan-delay MS` one way (25 by default). */
export const wan = args.includes('--wan');
const delayIndex = args.indexOf('--wan-delay');
export const WAN_DELAY_MS = delayIndex >= 0 ? Number(args[delayIndex + 1]) : 25;
if (!(WAN_DELAY_MS >= 0 && WAN_DELAY_MS <= 1000))
	throw new Error(`--wan-delay: milliseconds from 0 to 1000, got "${args[delayIndex + 1]}"`);
const JOBS = [
	'perItem',
	'getOwners',
	'listItemAdd',
	'returnAll',
	'import',
	'growth',
	'trigger',
] as const;
/**
 * The jobs that run over the link: the growth table stays on loopback, and so does the trigger in
 * queue mode (bench/jobs/trigger.ts).
 */
const WAN_JOBS = new Set<string>([
	'perItem',
	'getOwners',
	'listItemAdd',
	'returnAll',
	'import',
	'trigger',
]);
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1]?.split(',')) : undefined;
for (const job of only ?? []) {
	if (!(JOBS as readonly string[]).includes(job))
		throw new Error(`--only: "${job}" is not a job; the jobs are ${JOBS.join(', ')}`);
	if (wan && !WAN_JOBS.has(job))
		throw new Error(
			`--only: "${job}" does not run with --wan; those that do are ${[...WAN_JOBS].join(', ')}`,
		);
}
/** Whether a job runs: every job (over the link, those that run there), or those `--only` names. */
export const runs = (job: (typeof JOBS)[number]) =>
	only ? only.has(job) : !wan || WAN_JOBS.has(job);
const outIndex = args.indexOf('--out');
export const OUT =
	outIndex >= 0
		? args[outIndex + 1]
		: smoke
			? join(ROOT, '.tools', 'bench-smoke.json')
			: only
				? join(ROOT, '.tools', 'bench-only.json')
				: join(ROOT, 'bench', wan ? 'results-wan.json' : 'results.json');

const roundsIndex = args.indexOf('--rounds');
const rounds = roundsIndex >= 0 ? Number(args[roundsIndex + 1]) : undefined;
if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 1 && rounds <= 50))
	throw new Error(`--rounds: a whole number from 1 to 50, got "${args[roundsIndex + 1]}"`);

/** The command as the results name it, with the options that change what is measured. */
export const COMMAND = `npm run bench${((flags) =>
	flags.length > 0 ? ` -- ${flags.join(' ')}` : '')(
	[
		smoke ? '--smoke' : '',
		wan ? '--wan' : '',
		wan && delayIndex >= 0 ? `--wan-delay ${WAN_DELAY_MS}` : '',
		rounds === undefined ? '' : `--rounds ${rounds}`,
	].filter(Boolean),
)}`;

export const SIZES = smoke
	? {
			perItem: 20,
			returnAll: 1000,
			importRecords: 100,
			growth: [100, 1000],
			trigger: 10,
			loadSeconds: 1,
			batchSize: 50,
			rounds: rounds ?? 1,
		}
	: {
			perItem: 2000,
			returnAll: 60_000,
			importRecords: 10_000,
			growth: [1000, 10_000, 60_000],
			trigger: 300,
			loadSeconds: 5,
			batchSize: 500,
			rounds: rounds ?? 5,
		};
export const CONCURRENT_RAW = 10;
