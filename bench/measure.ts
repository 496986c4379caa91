/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * How the benchmark times a run: a workflow in the running n8n (`runInServer`) or in a fresh `n8n
 * execute` (`runWorkflow`, with the process's peak memory), once more under a CPU profile
 * (`profileRun`), and the raw client and the load generator in processes of their own (`raw`,
 * `load`). The sandbox's heap is collected before every timed run (`collectSandbox`).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { RunningSandbox } from '../sandbox/types';
import type { Collector } from './collector';
import type { LoadJob, LoadResult } from './load';
import { n8n, ROOT, type N8nClient, type N8nHost, type RunningN8n } from './n8n';
import { summariseProfile } from './profile';
import type { RawJob, RawResult } from './raw';
import type { Row } from './table';
import { MEASURED, SPLIT, webhookPath, type BenchWorkflow } from './workflows';

/** What the jobs write their figures to: the table's rows, the growth table, the CPU profiles' summaries. */
export interface Figures {
	rows: Row[];
	growth: Array<{ job: string; size: number; ms: number; peakMiB?: number; msPer1000: number }>;
	profiles: string[];
}

/** What every job of the benchmark works with. */
export interface Bench {
	sandbox: RunningSandbox;
	/** Where n8n and the raw client reach the sandbox: its own URL, or with --wan the link's (bench/wanLink.ts). */
	apiUrl: string;
	/** The running n8n; the trigger's job starts it again under other settings, and the last one is stopped at the end. */
	host: RunningN8n;
	/** Collects the running n8n's garbage before each run in it (see collector.ts). */
	collector: Collector;
	figures: Figures;
}

interface RunData {
	data: {
		resultData: {
			runData: Record<
				string,
				Array<{
					executionTime: number;
					error?: { message: string; description?: string };
					data?: { main: Array<Array<{ json: Record<string, unknown> }>> };
				}>
			>;
		};
	};
}

/**
 * A full garbage collection of this process, which the sandbox runs in, before every timed run
 * (the node's and the raw client's alike): the sandbox keeps every import of the benchmark, and
 * its collections of what the runs before left (full ones of 10 to 50 ms on a heap growing past
 * 300 MB) would otherwise land in whichever run comes next. The sandbox must not be what is
 * measured.
 */
export const collectSandbox = (() => {
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc') as () => void;
	return () => {
		gc();
		collections++;
	};
})();
let collections = 0;
/** How many times `collectSandbox` ran. */
export const sandboxCollections = () => collections;

/**
 * Runs `script` in a process of its own with `job`, and resolves to its answer. A script that
 * asks for it (`{ ready: true }`, the raw client once its untimed pass is done) is answered
 * `'go'` once the sandbox's garbage is collected.
 */
function child<J, R>(script: string, job: J): Promise<R> {
	return new Promise((resolve, reject) => {
		const worker = fork(join(__dirname, script));
		worker.on('message', (result) => {
			if ((result as { ready?: boolean }).ready) {
				collectSandbox();
				worker.send('go');
				return;
			}
			const answer = result as R & { error?: string };
			if (answer.error) reject(new Error(answer.error));
			else resolve(answer);
		});
		worker.once('error', reject);
		worker.send(job as object);
	});
}
export const load = (job: LoadJob) => child<LoadJob, LoadResult>('load.js', job);
export const raw = (job: RawJob) => child<RawJob, RawResult>('raw.js', job);

export interface Measured {
	ms: number;
	items: number;
	peakMiB?: number;
}

/** The time of the measured node (plus Split Out after pagination) in a run's data, and its items. */
function measuredOf(
	workflow: BenchWorkflow,
	runData: RunData['data']['resultData']['runData'],
): Measured {
	const measured = runData[MEASURED]?.[0];
	if (!measured) throw new Error(`${workflow.name}: the measured node did not run`);
	if (measured.error)
		throw new Error(
			`${workflow.name}: ${measured.error.message} ${measured.error.description ?? ''}`,
		);
	const split = runData[SPLIT]?.[0];
	const last = split ?? measured;
	return {
		ms: measured.executionTime + (split?.executionTime ?? 0),
		items: last.data?.main[0]?.length ?? 0,
	};
}

/** Runs a workflow in a fresh `n8n execute`; the measured node's time, its items and the process's peak memory. */
export async function runWorkflow(
	host: N8nHost,
	workflow: BenchWorkflow,
	extraEnv: Record<string, string> = {},
): Promise<Measured> {
	collectSandbox();
	const dir = mkdtempSync(join(tmpdir(), 'propradar-bench-'));
	const peakFile = join(dir, 'peak');
	try {
		const NODE_OPTIONS =
			`--require ${join(__dirname, 'peak.js')} ${extraEnv.NODE_OPTIONS ?? ''}`.trim();
		const env = { ...host.env, ...extraEnv, NODE_OPTIONS, PROPRADAR_PEAK_FILE: peakFile };
		const run = (await n8n.execute({ ...host, env }, workflow.id, {
			timeoutMs: 600_000,
		})) as RunData;
		let peakMiB: number | undefined;
		try {
			peakMiB = Number(readFileSync(peakFile, 'utf8')) / 1024;
		} catch {
			peakMiB = undefined;
		}
		return { ...measuredOf(workflow, run.data.resultData.runData), peakMiB };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

// n8n keeps an execution's data as `flatted` text; the benchmark reads it with n8n's own copy.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const flatted = require(join(ROOT, '.tools', 'n8n', 'node_modules', 'flatted')) as {
	parse(text: string): unknown;
};

/** The newest stored execution of a workflow in a running n8n: its id, and whether it has ended. */
async function newestExecution(
	client: N8nClient,
	workflowId: string,
): Promise<{ id: string; finished: boolean } | undefined> {
	const list = (await client.rest(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=1`,
	)) as { results: Array<{ id: string; status: string }> };
	const newest = list.results[0];
	return (
		newest && { id: newest.id, finished: newest.status !== 'running' && newest.status !== 'new' }
	);
}

/**
 * Runs an active workflow in the running n8n, as users' n8n runs theirs: called at its Webhook
 * start node, which answers when the run has ended, after a full collection of n8n's heap; the
 * measured node's time is read from the execution n8n stored.
 */
export async function runInServer(
	bench: Bench,
	client: N8nClient,
	workflow: BenchWorkflow,
): Promise<Measured> {
	const before = (await newestExecution(client, workflow.id))?.id;
	await bench.collector.collect();
	collectSandbox();
	// n8n 2.41 registers an activated workflow's webhook a moment after the activation's answer:
	// until then its webhook answers 404 "not registered" and nothing runs, so it is called again.
	const registeredBy = Date.now() + 60_000;
	let response: Response;
	let text: string;
	for (;;) {
		response = await fetch(`${bench.host.url}/webhook/${webhookPath(workflow)}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		text = await response.text();
		if (response.status !== 404 || !text.includes('is not registered') || Date.now() > registeredBy)
			break;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const answered = response.ok
		? undefined
		: `${workflow.name}: its webhook answered ${response.status}: ${text.slice(0, 300)}`;
	const deadline = Date.now() + 60_000;
	let newest = await newestExecution(client, workflow.id);
	while (!newest || newest.id === before || !newest.finished) {
		if (Date.now() > deadline)
			throw new Error(
				answered ?? `${workflow.name}: no finished execution stored within 60 s of its answer`,
			);
		await new Promise((resolve) => setTimeout(resolve, 100));
		newest = await newestExecution(client, workflow.id);
	}
	const execution = (await client.rest('GET', `/executions/${newest.id}`)) as { data: string };
	// A failed run answers 500 with no detail: the measured node's error in the stored execution says what failed.
	const measured = measuredOf(
		workflow,
		(flatted.parse(execution.data) as RunData['data']).resultData.runData,
	);
	if (answered) throw new Error(answered);
	return measured;
}

/** Runs each workflow once in the running n8n before its rounds, as a workflow users run has run before. */
export async function runOnceBefore(
	bench: Bench,
	client: N8nClient,
	...before: BenchWorkflow[]
): Promise<void> {
	for (const workflow of before) await runInServer(bench, client, workflow);
}

/** The PropRadar node's run in a profile: from the start of `route` (its item loop, or a batched operation's call) to the last sample in the package's code. */
export const NODE_RUN: [RegExp, RegExp] = [
	/n8n-nodes-propradar\/dist\/nodes\/PropRadar\/actions\/router\.js route$/,
	/n8n-nodes-propradar\//,
];

/** Runs the workflow once more with a CPU profile of `n8n execute`, summarised over the measured node's run (see `summariseProfile`). */
export async function profileRun(
	host: N8nHost,
	workflow: BenchWorkflow,
	[start, within]: [RegExp, RegExp],
): Promise<string> {
	const dir = mkdtempSync(join(tmpdir(), 'propradar-profile-'));
	try {
		await runWorkflow(host, workflow, { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` });
		return summariseProfile(dir, start, within);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export const expectItems = (what: string, measured: Measured, wanted: number) => {
	if (measured.items !== wanted)
		throw new Error(`${what}: ${measured.items} items out, ${wanted} expected`);
	return measured;
};
