/**
 * `npm run bench`: the PropRadar node in a real n8n (the one scripts/n8n-install.sh installs),
 * side by side with n8n's HTTP Request node and a raw client (plain `fetch` from a second process),
 * in one run against one sandbox: per-item work, Return All, Import, the trigger's deliveries, the
 * growth of Return All and Import with size, and the sandbox's own speed (so that it is never what
 * is measured). Prints a table of times and ratios and writes it as JSON. Figures, never test
 * assertions (these machines are noisy).
 *
 *   node build/bench/run.js [--smoke] [--out FILE] [--profile] [--only JOB,...] [--rounds N]
 *
 * `--smoke`: tiny sizes (what the e2e tier runs, so the benchmark cannot rot), written to
 * .tools/bench-smoke.json; otherwise bench/results.json. `--profile`: also CPU profiles of the
 * per-item, Return All and Import jobs and of n8n's main process during the trigger's deliveries,
 * summarised by where the time goes. Per-item, Return All and Import run in five rounds (one in a
 * smoke run; `--rounds N` for another number), each round all of the job's cases of one kind (the
 * rounds in the running n8n first, then those in fresh processes: `inRounds`), and each case's
 * time is its median. `--only`: just the jobs named (perItem, returnAll, import, growth, trigger),
 * for working on one of them; its JSON then goes to .tools/bench-only.json unless `--out` says
 * otherwise.
 * Node time is what n8n records as the node's `executionTime`. Per-item, Return All and Import
 * are timed in the running n8n (each workflow active and called at its Webhook start node, run
 * once before the rounds, n8n's heap collected before each run (collector.ts), its time read from
 * the stored execution) beside a raw client on its second pass, the sandbox's heap collected
 * before every timed run (`collectSandbox`), and again each in a fresh
 * `n8n execute` (which also gives the growth table and its peak memory) beside a raw client on
 * its first.
 */
import { fork, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem, tmpdir } from 'node:os';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { ACCOUNTS } from '../sandbox/accounts';
import { wallet } from '../sandbox/charges';
import { startSandbox } from '../sandbox/server';
import type { RunningSandbox } from '../sandbox/types';
import type { LoadJob, LoadResult } from './load';
import { connectCollector, inspectOption, type Collector } from './collector';
import { summariseProfile } from './profile';
import { inRounds } from './rounds';
import type { RawJob, RawResult } from './raw';
import { ENGINE_SETTINGS, fmt, markdown, QUEUE_MODE, settingText, TRIGGER_IN_FLIGHT, type Row } from './table';
import { importN8nAloneWorkflow, importRecords, importWorkflows, LIST_ITEM_FIELDS, MEASURED, perItemWorkflows, returnAllWorkflows, SPLIT, triggerWorkflow, WEBHOOK_NODE_PATH, webhookNodeWorkflow, webhookPath, type BenchWorkflow } from './workflows';

const ROOT = join(__dirname, '..', '..');
/** The sandbox's first account, which the benchmark's credential uses too. */
const TOKEN = ACCOUNTS[0].token;
const AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

interface RunData {
	data: { resultData: { runData: Record<string, Array<{ executionTime: number; error?: { message: string; description?: string }; data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>> } };
}
// The compiled benchmark runs from build/bench, so scripts/n8n-host.js is required by its path; its
// types are scripts/n8n-host.d.ts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const n8n = require(join(ROOT, 'scripts', 'n8n-host.js')) as typeof import('../scripts/n8n-host');
type N8nHost = import('../scripts/n8n-host').N8nHost;
type RunningN8n = import('../scripts/n8n-host').RunningN8n;
type N8nClient = import('../scripts/n8n-host').N8nClient;

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const profile = args.includes('--profile');
const JOBS = ['perItem', 'returnAll', 'import', 'growth', 'trigger'] as const;
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? new Set(args[onlyIndex + 1]?.split(',')) : undefined;
for (const job of only ?? []) {
	if (!(JOBS as readonly string[]).includes(job)) throw new Error(`--only: "${job}" is not a job; the jobs are ${JOBS.join(', ')}`);
}
const runs = (job: (typeof JOBS)[number]) => !only || only.has(job);
const outIndex = args.indexOf('--out');
const OUT = outIndex >= 0 ? args[outIndex + 1] : smoke ? join(ROOT, '.tools', 'bench-smoke.json') : only ? join(ROOT, '.tools', 'bench-only.json') : join(ROOT, 'bench', 'results.json');

const roundsIndex = args.indexOf('--rounds');
const rounds = roundsIndex >= 0 ? Number(args[roundsIndex + 1]) : undefined;
if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 1 && rounds <= 50)) throw new Error(`--rounds: a whole number from 1 to 50, got "${args[roundsIndex + 1]}"`);

const SIZES = smoke
	? { perItem: 20, returnAll: 1000, importRecords: 100, growth: [100, 1000], trigger: 10, loadSeconds: 1, batchSize: 50, rounds: rounds ?? 1 }
	: { perItem: 2000, returnAll: 60_000, importRecords: 10_000, growth: [1000, 10_000, 60_000], trigger: 300, loadSeconds: 5, batchSize: 500, rounds: rounds ?? 5 };
const CONCURRENT_RAW = 10;

/**
 * A full garbage collection of this process, which the sandbox runs in, before every timed run
 * (the node's and the raw client's alike): the sandbox keeps every import of the benchmark, and
 * its collections of what the runs before left (full ones of 10 to 50 ms on a heap growing past
 * 300 MB) would otherwise land in whichever run comes next. The sandbox must not be what is
 * measured.
 */
const collectSandbox = (() => {
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc') as () => void;
	return () => {
		gc();
		sandboxCollections++;
	};
})();
let sandboxCollections = 0;

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
const load = (job: LoadJob) => child<LoadJob, LoadResult>('load.js', job);
const raw = (job: RawJob) => child<RawJob, RawResult>('raw.js', job);

async function sandboxCall<T>(sandbox: RunningSandbox, method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${sandbox.url}${path}`, { method, headers: AUTH, body: body === undefined ? undefined : JSON.stringify(body) });
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
	return JSON.parse(text) as T;
}
async function createList(sandbox: RunningSandbox, body: Record<string, unknown>): Promise<number> {
	return (await sandboxCall<{ results: Array<{ ListID: number }> }>(sandbox, 'POST', '/v1/lists', body)).results[0].ListID;
}
/**
 * Reads one item of a dynamic list, so that the sandbox refreshes it now (it does on the first
 * read after any write, such as a list created by another job) and not in the first measured read.
 */
async function refreshList(sandbox: RunningSandbox, listId: number): Promise<void> {
	await sandboxCall(sandbox, 'GET', `/v1/lists/${listId}/items?Limit=1`);
}
const propIds = (count: number) => Array.from({ length: count }, (_, i) => `P${String(i + 1).padStart(6, '0')}`);
/** A dynamic list of exactly `count` properties (60,000: every state), not monitored: read on demand. */
const dynamicList = (sandbox: RunningSandbox, count: number) =>
	createList(sandbox, {
		ListName: `bench ${count}`,
		ListType: 'dynamic',
		Criteria: count >= 60_000 ? [{ name: 'State', value: ['OR', 'WA', 'CA', 'TX', 'FL', 'AZ'] }] : [{ name: 'PropID', value: propIds(count) }],
	});
const importList = (sandbox: RunningSandbox, name: string) => createList(sandbox, { ListName: name, ListType: 'import', ImportSource: 'api' });

/**
 * `n8n execute --id --rawOutput` (as scripts/n8n-host.js runs it) with its output written to a
 * file: n8n exits right after printing the run data, and a pipe loses the end of a large one.
 * What it printed is read as the e2e tier reads it (`printedExecution`).
 */
function execute(env: Record<string, string>, workflowId: string, file: string): Promise<RunData> {
	return new Promise((resolve, reject) => {
		const fd = openSync(file, 'w');
		const child = spawn(join(ROOT, '.tools', 'n8n', 'node_modules', '.bin', 'n8n'), ['execute', `--id=${workflowId}`, '--rawOutput'], { env: { ...env, N8N_LOG_LEVEL: 'info' }, stdio: ['ignore', fd, fd] });
		const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
		child.once('error', reject);
		child.once('exit', (code, signal) => {
			clearTimeout(timer);
			closeSync(fd);
			try {
				resolve(n8n.printedExecution(workflowId, { stdout: readFileSync(file, 'utf8'), code, signal }) as RunData);
			} catch (failure) {
				reject(failure);
			}
		});
	});
}

/** A bare server answering every request with the given bytes. */
async function bareServer(body: string): Promise<{ url: string; close(): void }> {
	const server = createHttpServer((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
			response.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

interface Measured {
	ms: number;
	items: number;
	peakMiB?: number;
}

/** The time of the measured node (plus Split Out after pagination) in a run's data, and its items. */
function measuredOf(workflow: BenchWorkflow, runData: RunData['data']['resultData']['runData']): Measured {
	const measured = runData[MEASURED]?.[0];
	if (!measured) throw new Error(`${workflow.name}: the measured node did not run`);
	if (measured.error) throw new Error(`${workflow.name}: ${measured.error.message} ${measured.error.description ?? ''}`);
	const split = runData[SPLIT]?.[0];
	const last = split ?? measured;
	return { ms: measured.executionTime + (split?.executionTime ?? 0), items: last.data?.main[0]?.length ?? 0 };
}

/** Runs a workflow in a fresh `n8n execute`; the measured node's time, its items and the process's peak memory. */
async function runWorkflow(host: N8nHost, workflow: BenchWorkflow, extraEnv: Record<string, string> = {}): Promise<Measured> {
	collectSandbox();
	const dir = mkdtempSync(join(tmpdir(), 'propradar-bench-'));
	const peakFile = join(dir, 'peak');
	try {
		const env = { ...host.env, NODE_OPTIONS: `--require ${join(__dirname, 'peak.js')} ${extraEnv.NODE_OPTIONS ?? ''}`.trim(), PROPRADAR_PEAK_FILE: peakFile };
		const run = await n8n.onFreeBrokerPort((brokerPort) => execute({ ...env, ...extraEnv, NODE_OPTIONS: env.NODE_OPTIONS, N8N_RUNNERS_BROKER_PORT: brokerPort }, workflow.id, join(dir, 'out')));
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
const flatted = require(join(ROOT, '.tools', 'n8n', 'node_modules', 'flatted')) as { parse(text: string): unknown };

/** The newest stored execution of a workflow in a running n8n: its id, and whether it has ended. */
async function newestExecution(client: N8nClient, workflowId: string): Promise<{ id: string; finished: boolean } | undefined> {
	const list = (await client.rest('GET', `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=1`)) as { results: Array<{ id: string; status: string }> };
	const newest = list.results[0];
	return newest && { id: newest.id, finished: newest.status !== 'running' && newest.status !== 'new' };
}

/** Collects the running n8n's garbage before each run in it (see collector.ts). */
let collector: Collector | undefined;

/**
 * Runs an active workflow in the running n8n, as users' n8n runs theirs: called at its Webhook
 * start node, which answers when the run has ended, after a full collection of n8n's heap; the
 * measured node's time is read from the execution n8n stored.
 */
async function runInServer(host: RunningN8n, client: N8nClient, workflow: BenchWorkflow): Promise<Measured> {
	const before = (await newestExecution(client, workflow.id))?.id;
	await collector?.collect();
	collectSandbox();
	// n8n 2.41 registers an activated workflow's webhook a moment after the activation's answer:
	// until then its webhook answers 404 "not registered" and nothing runs, so it is called again.
	const registeredBy = Date.now() + 60_000;
	let response: Response;
	let text: string;
	for (;;) {
		response = await fetch(`${host.url}/webhook/${webhookPath(workflow)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		text = await response.text();
		if (response.status !== 404 || !text.includes('is not registered') || Date.now() > registeredBy) break;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	if (!response.ok) throw new Error(`${workflow.name}: its webhook answered ${response.status}: ${text.slice(0, 300)}`);
	const deadline = Date.now() + 60_000;
	let newest = await newestExecution(client, workflow.id);
	while (!newest || newest.id === before || !newest.finished) {
		if (Date.now() > deadline) throw new Error(`${workflow.name}: no finished execution stored within 60 s of its answer`);
		await new Promise((resolve) => setTimeout(resolve, 100));
		newest = await newestExecution(client, workflow.id);
	}
	const execution = (await client.rest('GET', `/executions/${newest.id}`)) as { data: string };
	return measuredOf(workflow, (flatted.parse(execution.data) as RunData['data']).resultData.runData);
}

/** The PropRadar node's run in a profile: from the start of `route` (its item loop, or a batched operation's call) to the last sample in the package's code. */
const NODE_RUN: [RegExp, RegExp] = [/n8n-nodes-propradar\/dist\/nodes\/PropRadar\/actions\/router\.js route$/, /n8n-nodes-propradar\//];

/** Runs the workflow once more with a CPU profile of `n8n execute`, summarised over the measured node's run (see `summariseProfile`). */
async function profileRun(host: N8nHost, workflow: BenchWorkflow, [start, within]: [RegExp, RegExp]): Promise<string> {
	const dir = mkdtempSync(join(tmpdir(), 'propradar-profile-'));
	try {
		await runWorkflow(host, workflow, { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` });
		return summariseProfile(dir, start, within);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const expectItems = (what: string, measured: Measured, wanted: number) => {
	if (measured.items !== wanted) throw new Error(`${what}: ${measured.items} items out, ${wanted} expected`);
	return measured;
};



function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
	const started = Date.now();
	const loadBefore = loadavg();
	const sandbox = await startSandbox({ port: 0 });
	wallet(sandbox.ctx, ACCOUNTS[0]).balanceCents = Number.MAX_SAFE_INTEGER;
	console.log(`PropRadar benchmark${smoke ? ' (smoke: tiny sizes)' : ''}: sandbox ${sandbox.url}, ${cpus().length} cores, load ${loadBefore.map((l) => l.toFixed(2)).join(' ')}`);

	// ------------------------------------------------------------------ the sandbox on its own
	const staticId = await createList(sandbox, { ListName: 'bench static 1000', ListType: 'static' });
	await sandboxCall(sandbox, 'PUT', `/v1/lists/${staticId}/items`, { Criteria: [{ name: 'PropID', value: propIds(1000) }] });
	const returnAllList = await dynamicList(sandbox, SIZES.returnAll);
	const growthLists = new Map<number, number>();
	for (const size of SIZES.growth) growthLists.set(size, size === SIZES.returnAll ? returnAllList : await dynamicList(sandbox, size));
	// Warm what the first reads would otherwise build (the search index, the address index of imports).
	await refreshList(sandbox, returnAllList);
	const warm = await importList(sandbox, 'warm-up');
	await sandboxCall(sandbox, 'POST', `/v1/lists/${warm}/import/items?Purchase=1`, importRecords(1));

	const pageJob = (path: string): LoadJob => ({ url: `${sandbox.url}${path}`, method: 'GET', headers: AUTH, durationSeconds: SIZES.loadSeconds, connections: 1 });
	const bigPage = await load(pageJob(`/v1/lists/${returnAllList}/items?Limit=1000&Start=${Math.max(0, SIZES.returnAll / 2 - 1000)}&Fields=${LIST_ITEM_FIELDS.join(',')}`));
	const smallPage = await load(pageJob(`/v1/lists/${staticId}/items?Limit=1000&Fields=${LIST_ITEM_FIELDS.join(',')}`));
	const simple = await load({ url: `${sandbox.url}/v1/lists/${staticId}`, method: 'GET', headers: AUTH, durationSeconds: SIZES.loadSeconds, connections: 10 });
	// The same answer from a bare node:http server on this machine at this moment: what the load allows at all.
	const bare = await bareServer(await (await fetch(`${sandbox.url}/v1/lists/${staticId}`, { headers: AUTH })).text());
	const bareReads = await load({ url: bare.url, method: 'GET', headers: AUTH, durationSeconds: SIZES.loadSeconds, connections: 10 });
	bare.close();
	const sandboxFigures = {
		simpleReadsPerSecond: simple.requestsPerSecond,
		bareServerReadsPerSecond: bareReads.requestsPerSecond,
		pageOfBigListMs: 1000 / bigPage.requestsPerSecond,
		pageOf1000ListMs: 1000 / smallPage.requestsPerSecond,
		bigListSize: SIZES.returnAll,
	};
	console.log(`sandbox: ${fmt(simple.requestsPerSecond)} simple reads/s (a bare node:http server: ${fmt(bareReads.requestsPerSecond)}/s); a 1,000-item page of the ${fmt(SIZES.returnAll)}-item dynamic list ${fmt(sandboxFigures.pageOfBigListMs, 2)} ms, of a 1,000-item static list ${fmt(sandboxFigures.pageOf1000ListMs, 2)} ms`);

	// ------------------------------------------------------------------ the workflows
	const perItem = perItemWorkflows(SIZES.perItem, sandbox.url);
	const returnAll = returnAllWorkflows('PropRadarBnch10', returnAllList, SIZES.returnAll, sandbox.url);
	// Every import run imports into lists of its own, so that none imports into a list a run before it filled.
	const importPair = async (id: string, name: string) =>
		importWorkflows(id, { propRadar: await importList(sandbox, `bench node ${name}`), httpRequest: await importList(sandbox, `bench http ${name}`) }, SIZES.importRecords, SIZES.batchSize, sandbox.url);
	const imports: Array<ReturnType<typeof importWorkflows>> = [];
	const freshImports: Array<ReturnType<typeof importWorkflows>> = [];
	for (let round = 0; round < SIZES.rounds; round++) {
		imports.push(await importPair(`PropRadarBnch2${round}`, `${round}`));
		freshImports.push(await importPair(`PropRadarBnch5${round}`, `${round} fresh`));
	}
	const importsBefore = await importPair('PropRadarBnch28', 'before the rounds');
	const importN8nAlone = importN8nAloneWorkflow('PropRadarBnch27', SIZES.importRecords);
	const profileImport = importWorkflows('PropRadarBnch29', { propRadar: await importList(sandbox, 'bench node profile') }, SIZES.importRecords, SIZES.batchSize, sandbox.url).propRadar;
	const growthReturnAll = SIZES.growth.filter((size) => size !== SIZES.returnAll).map((size, index) => ({ size, workflow: returnAllWorkflows(`PropRadarBnch3${index}`, growthLists.get(size)!, size, sandbox.url).propRadar }));
	const growthImport: Array<{ size: number; workflow: BenchWorkflow }> = [];
	for (const [index, size] of SIZES.growth.filter((s) => s !== SIZES.importRecords).entries()) {
		growthImport.push({ size, workflow: importWorkflows(`PropRadarBnch4${index}`, { propRadar: await importList(sandbox, `bench growth ${size}`) }, size, SIZES.batchSize, sandbox.url).propRadar });
	}
	const triggerList = await createList(sandbox, { ListName: 'bench trigger', ListType: 'static', isMonitored: 1 });
	const trigger = triggerWorkflow(triggerList);
	const webhookNode = webhookNodeWorkflow();
	const workflows = [perItem.propRadar, perItem.httpRequest, perItem.editFields, returnAll.propRadar, returnAll.httpRequest, ...[...imports, ...freshImports, importsBefore].flatMap((pair) => [pair.propRadar, pair.httpRequest!]), importN8nAlone, ...(profile ? [profileImport] : []), ...growthReturnAll.map((g) => g.workflow), ...growthImport.map((g) => g.workflow), trigger, webhookNode];

	console.log('preparing n8n (the package packed and installed as a community package) ...');
	const prepared = await n8n.prepare({ sandboxUrl: sandbox.url, workflows });
	// With --profile, n8n's main process (which serves the trigger's deliveries) is profiled too.
	const mainProfileDir = profile && runs('trigger') ? mkdtempSync(join(tmpdir(), 'propradar-profile-')) : undefined;
	const inspectorPort = await n8n.freePort();
	const nodeOptions = [inspectOption(inspectorPort), ...(mainProfileDir ? [`--cpu-prof --cpu-prof-dir=${mainProfileDir}`] : [])].join(' ');
	let host = await n8n.start({ ...prepared, env: { ...prepared.env, NODE_OPTIONS: nodeOptions } }, { logFile: join(prepared.userFolder, 'n8n.log') });
	collector = await connectCollector(inspectorPort);
	const rows: Row[] = [];
	const growth: Array<{ job: string; size: number; ms: number; peakMiB?: number; msPer1000: number }> = [];
	let triggerFigures: DeliveryFigures | undefined;
	let webhookNodeFigures: DeliveryFigures | undefined;
	const engineSettings: Array<{ name: string; trigger: DeliveryFigures; webhookNode: DeliveryFigures }> = [];
	let queueMode: { trigger: DeliveryFigures; webhookNode: DeliveryFigures } | undefined;
	const profiles: string[] = [];
	try {
		// The per-item, Return All and Import workflows are active in the running n8n, each called at
		// its webhook; each runs once before its rounds, as a workflow users run has run before.
		const client = await n8n.login(host);
		const served = [perItem.propRadar, perItem.httpRequest, perItem.editFields, returnAll.propRadar, returnAll.httpRequest, ...[...imports, importsBefore].flatMap((pair) => [pair.propRadar, pair.httpRequest!]), importN8nAlone];
		for (const workflow of served) await n8n.activate(client, workflow.id);
		const runOnceBefore = async (...before: BenchWorkflow[]) => {
			for (const workflow of before) await runInServer(host, client, workflow);
		};

		// Per-item work.
		if (runs('perItem')) {
			console.log(`per-item: ${SIZES.perItem} items, Property > Get, Preview Cost ...`);
			const urls = propIds(SIZES.perItem).map((id) => `${sandbox.url}/v1/properties/${id}?Purchase=0`);
			await runOnceBefore(perItem.propRadar, perItem.httpRequest, perItem.editFields);
			const target = (propRadar: number, httpRequest: number) => ({ ratio: httpRequest / propRadar, met: httpRequest / propRadar >= 2 });
			const { medians, rounds } = await inRounds(SIZES.rounds, async () => ({
				propRadar: expectItems('PropRadar per-item', await runInServer(host, client, perItem.propRadar), SIZES.perItem).ms,
				httpRequest: expectItems('HTTP Request per-item', await runInServer(host, client, perItem.httpRequest), SIZES.perItem).ms,
				editFields: expectItems('Edit Fields per-item', await runInServer(host, client, perItem.editFields), SIZES.perItem).ms,
				rawSequential: (await raw({ kind: 'perItem', urls, concurrency: 1, token: TOKEN, warm: true })).ms,
				rawConcurrent: (await raw({ kind: 'perItem', urls, concurrency: CONCURRENT_RAW, token: TOKEN, warm: true })).ms,
			}), async () => ({
				propRadarFresh: expectItems('PropRadar per-item, fresh', await runWorkflow(host, perItem.propRadar), SIZES.perItem).ms,
				httpRequestFresh: expectItems('HTTP Request per-item, fresh', await runWorkflow(host, perItem.httpRequest), SIZES.perItem).ms,
				rawConcurrentFresh: (await raw({ kind: 'perItem', urls, concurrency: CONCURRENT_RAW, token: TOKEN })).ms,
			}));
			rows.push({
				job: `${fmt(SIZES.perItem)} input items -> Property > Get, Preview Cost`,
				propRadarMs: medians.propRadar,
				httpRequestMs: medians.httpRequest,
				rawMs: medians.rawConcurrent,
				rawNote: `${fmt(medians.rawSequential)} ms sequential, ${fmt(medians.rawConcurrent)} ms at ${CONCURRENT_RAW} concurrent`,
				...target(medians.propRadar, medians.httpRequest),
				ratioOf: 'HTTP Request / PropRadar',
				target: '>= 2',
				n8nAlone: { what: `The same ${fmt(SIZES.perItem)} items through n8n's own Edit Fields node, the same one expression per item and no request: what n8n itself takes`, ms: medians.editFields },
				fresh: {
					propRadarMs: medians.propRadarFresh,
					httpRequestMs: medians.httpRequestFresh,
					rawNote: `${fmt(medians.rawConcurrentFresh)} ms at ${CONCURRENT_RAW} concurrent`,
					...target(medians.propRadarFresh, medians.httpRequestFresh),
				},
				rounds,
			});
			if (profile) {
				profiles.push(`per-item, the PropRadar node: ${await profileRun(host, perItem.propRadar, NODE_RUN)}`);
				profiles.push(`per-item, the HTTP Request node: ${await profileRun(host, perItem.httpRequest, [/HttpRequestV3\.node\.js execute$/, /nodes-base\/dist\/nodes\/HttpRequest\//])}`);
			}
		}

		// Return All.
		if (runs('returnAll')) {
			console.log(`Return All: ${fmt(SIZES.returnAll)}-item dynamic list ...`);
			const listUrl = `${sandbox.url}/v1/lists/${returnAllList}/items?Fields=${LIST_ITEM_FIELDS.join(',')}`;
			const pages = (pageSize: number, warm?: boolean) => raw({ kind: 'pages', url: listUrl, pageSize, token: TOKEN, warm });
			let peakMiB: number | undefined;
			await refreshList(sandbox, returnAllList);
			await runOnceBefore(returnAll.propRadar, returnAll.httpRequest);
			const { medians, rounds } = await inRounds(SIZES.rounds, async () => {
				await refreshList(sandbox, returnAllList);
				const propRadar = expectItems('PropRadar Return All', await runInServer(host, client, returnAll.propRadar), SIZES.returnAll).ms;
				const httpRequest = expectItems('HTTP Request pagination', await runInServer(host, client, returnAll.httpRequest), SIZES.returnAll).ms;
				const rawLimit500 = (await pages(500, true)).ms;
				const rawLimit1000 = (await pages(1000, true)).ms;
				return { propRadar, httpRequest, rawLimit500, rawLimit1000 };
			}, async () => {
				await refreshList(sandbox, returnAllList);
				const fresh = expectItems('PropRadar Return All, fresh', await runWorkflow(host, returnAll.propRadar), SIZES.returnAll);
				peakMiB = Math.max(peakMiB ?? 0, fresh.peakMiB ?? 0) || undefined;
				return {
					propRadarFresh: fresh.ms,
					httpRequestFresh: expectItems('HTTP Request pagination, fresh', await runWorkflow(host, returnAll.httpRequest), SIZES.returnAll).ms,
					rawLimit500Fresh: (await pages(500)).ms,
					rawLimit1000Fresh: (await pages(1000)).ms,
				};
			});
			const bestRaw = Math.min(medians.rawLimit500, medians.rawLimit1000);
			const bestRawFresh = Math.min(medians.rawLimit500Fresh, medians.rawLimit1000Fresh);
			const target = (propRadar: number, httpRequest: number, raw: number) => ({ ratio: propRadar / raw, met: propRadar / raw <= 1.2 && propRadar < httpRequest });
			rows.push({
				job: `Return All of a ${fmt(SIZES.returnAll)}-item dynamic list (List Item > Get Many)`,
				propRadarMs: medians.propRadar,
				httpRequestMs: medians.httpRequest,
				rawMs: bestRaw,
				rawNote: `${fmt(medians.rawLimit500)} ms at Limit 500, ${fmt(medians.rawLimit1000)} ms at Limit 1000`,
				...target(medians.propRadar, medians.httpRequest, bestRaw),
				ratioOf: 'PropRadar / raw at its best page',
				target: '<= 1.2, and below HTTP Request',
				fresh: {
					propRadarMs: medians.propRadarFresh,
					httpRequestMs: medians.httpRequestFresh,
					rawNote: `${fmt(medians.rawLimit500Fresh)} ms at Limit 500, ${fmt(medians.rawLimit1000Fresh)} ms at Limit 1000`,
					...target(medians.propRadarFresh, medians.httpRequestFresh, bestRawFresh),
				},
				rounds,
			});
			growth.push({ job: 'Return All', size: SIZES.returnAll, ms: medians.propRadarFresh, peakMiB, msPer1000: (medians.propRadarFresh / SIZES.returnAll) * 1000 });
			if (profile) {
				await refreshList(sandbox, returnAllList);
				profiles.push(`Return All, the PropRadar node: ${await profileRun(host, returnAll.propRadar, NODE_RUN)}`);
			}
		}

		// Import.
		if (runs('import')) {
			console.log(`Import: ${fmt(SIZES.importRecords)} records, Purchase ...`);
			let peakMiB: number | undefined;
			let rawRequests = 0;
			const rawImport = async (name: string, options: { quoteFirst?: boolean; warm?: boolean } = {}) =>
				raw({ kind: 'import', url: `${sandbox.url}/v1/lists/${await importList(sandbox, name)}/import/items`, records: importRecords(SIZES.importRecords), batchSize: SIZES.batchSize, token: TOKEN, ...options });
			const target = (propRadar: number, raw: number) => ({ ratio: propRadar / raw, met: propRadar / raw <= 1.5 });
			await runOnceBefore(importsBefore.propRadar, importsBefore.httpRequest!, importN8nAlone);
			const { medians, rounds } = await inRounds(SIZES.rounds, async (round) => {
				const propRadar = expectItems('PropRadar Import', await runInServer(host, client, imports[round].propRadar), SIZES.importRecords).ms;
				const httpRequest = expectItems('HTTP Request import', await runInServer(host, client, imports[round].httpRequest!), SIZES.importRecords).ms;
				const n8nAlone = expectItems('No Operation import', await runInServer(host, client, importN8nAlone), SIZES.importRecords).ms;
				const plain = await rawImport(`bench raw ${round}`, { warm: true });
				rawRequests = plain.requests;
				const rawQuoteFirst = (await rawImport(`bench raw ${round} quoted`, { quoteFirst: true, warm: true })).ms;
				return { propRadar, httpRequest, n8nAlone, raw: plain.ms, rawQuoteFirst };
			}, async (round) => {
				const fresh = expectItems('PropRadar Import, fresh', await runWorkflow(host, freshImports[round].propRadar), SIZES.importRecords);
				peakMiB = Math.max(peakMiB ?? 0, fresh.peakMiB ?? 0) || undefined;
				return {
					propRadarFresh: fresh.ms,
					httpRequestFresh: expectItems('HTTP Request import, fresh', await runWorkflow(host, freshImports[round].httpRequest!), SIZES.importRecords).ms,
					rawFresh: (await rawImport(`bench raw ${round} fresh`)).ms,
				};
			});
			rows.push({
				job: `Import ${fmt(SIZES.importRecords)} records, Purchase (batches of ${SIZES.batchSize})`,
				propRadarMs: medians.propRadar,
				httpRequestMs: medians.httpRequest,
				rawMs: medians.raw,
				rawNote: `${fmt(medians.raw)} ms, ${rawRequests} requests of ${SIZES.batchSize}; ${fmt(medians.rawQuoteFirst)} ms with the node's free quote of all ${fmt(SIZES.importRecords)} records first`,
				...target(medians.propRadar, medians.raw),
				ratioOf: 'PropRadar / raw, same batches',
				target: '<= 1.5',
				n8nAlone: { what: `The same ${fmt(SIZES.importRecords)} records through n8n's own No Operation node: what n8n itself takes for a node given them`, ms: medians.n8nAlone },
				fresh: {
					propRadarMs: medians.propRadarFresh,
					httpRequestMs: medians.httpRequestFresh,
					rawNote: `${fmt(medians.rawFresh)} ms`,
					...target(medians.propRadarFresh, medians.rawFresh),
				},
				rounds,
			});
			growth.push({ job: 'Import', size: SIZES.importRecords, ms: medians.propRadarFresh, peakMiB, msPer1000: (medians.propRadarFresh / SIZES.importRecords) * 1000 });
			if (profile) profiles.push(`Import, the PropRadar node: ${await profileRun(host, profileImport, NODE_RUN)}`);
		}

		// Growth.
		if (runs('growth')) {
			for (const { size, workflow } of growthReturnAll) {
				await refreshList(sandbox, growthLists.get(size)!);
				const measured = expectItems(`Return All ${size}`, await runWorkflow(host, workflow), size);
				growth.push({ job: 'Return All', size, ms: measured.ms, peakMiB: measured.peakMiB, msPer1000: (measured.ms / size) * 1000 });
			}
			for (const { size, workflow } of growthImport) {
				const measured = expectItems(`Import ${size}`, await runWorkflow(host, workflow), size);
				growth.push({ job: 'Import', size, ms: measured.ms, peakMiB: measured.peakMiB, msPer1000: (measured.ms / size) * 1000 });
			}
			growth.sort((a, b) => a.job.localeCompare(b.job) || a.size - b.size);
		}

		// The trigger: deliveries into an activated workflow.
		if (runs('trigger')) {
			console.log(`Trigger: ${SIZES.trigger} deliveries into an activated workflow ...`);
			// Deliveries are timed over the whole run: no collections asked for.
			collector.close();
			triggerFigures = await triggerRun(sandbox, host, trigger.id, triggerList);
			console.log(`n8n's own Webhook node: ${SIZES.trigger} events into an activated workflow ...`);
			webhookNodeFigures = await webhookNodeRun(sandbox, host, webhookNode.id);
			// n8n 2.41 evaluates expressions in an isolate it builds for every execution: the same two
			// runs under the settings of its expression engine that change that.
			for (const setting of ENGINE_SETTINGS) {
				console.log(`the same two, n8n started again with ${settingText(setting.env)} ...`);
				await host.stop();
				host = await n8n.start({ ...prepared, env: { ...prepared.env, ...setting.env } }, { logFile: join(prepared.userFolder, 'n8n.log') });
				engineSettings.push({ name: setting.name, trigger: await triggerRun(sandbox, host, trigger.id, triggerList), webhookNode: await webhookNodeRun(sandbox, host, webhookNode.id) });
			}
			// More processes on the same cores: n8n's queue mode, the deliveries answered by a webhook
			// process and executed by a worker.
			console.log(`the same two, n8n in queue mode (${QUEUE_MODE.says}) ...`);
			await host.stop();
			const queue = await n8n.startQueue(prepared, { workers: QUEUE_MODE.workers, concurrency: QUEUE_MODE.concurrency, logFile: join(prepared.userFolder, 'n8n.log') });
			host = { ...queue.main, stop: queue.stop };
			try {
				queueMode = { trigger: await triggerRun(sandbox, host, trigger.id, triggerList), webhookNode: await webhookNodeRun(sandbox, host, webhookNode.id, queue.webhookUrl) };
			} catch (error) {
				throw new Error(`${(error as Error).message}\n${queue.outputs()}`);
			}
		}
	} finally {
		collector.close();
		await host.stop();
		if (mainProfileDir) {
			profiles.push(`n8n's main process during the trigger's deliveries: ${summariseProfile(mainProfileDir, /PropRadarTrigger\.node\.js webhook$/, /n8n-nodes-propradar\//)}`);
			rmSync(mainProfileDir, { recursive: true, force: true });
		}
		rmSync(prepared.userFolder, { recursive: true, force: true });
		await sandbox.close();
	}

	rows.push({
		job: `Sandbox: a 1,000-item page of the ${fmt(SIZES.returnAll)}-item dynamic list vs of a 1,000-item static list`,
		propRadarMs: sandboxFigures.pageOfBigListMs,
		rawMs: sandboxFigures.pageOf1000ListMs,
		ratio: sandboxFigures.pageOfBigListMs / sandboxFigures.pageOf1000ListMs,
		ratioOf: 'big list page / 1,000-item list page',
		target: '<= 3',
		met: sandboxFigures.pageOfBigListMs / sandboxFigures.pageOf1000ListMs <= 3,
	});
	const result = {
		command: `npm run bench${smoke ? ' -- --smoke' : ''}`,
		date: new Date().toISOString(),
		machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), freeMemoryGiB: Math.round(freemem() / 2 ** 30), node: process.version, loadBefore, loadAfter: loadavg() },
		n8n: n8n.N8N_VERSIONS.newest,
		rounds: SIZES.rounds,
		collectionsBeforeRuns: collector.collections,
		sandboxCollections,
		durationSeconds: Math.round((Date.now() - started) / 1000),
		rows,
		sandbox: { ...sandboxFigures, simpleReadsTarget: 3000, simpleReadsMet: sandboxFigures.simpleReadsPerSecond >= 3000 },
		trigger: triggerFigures ? { ...triggerFigures, target: '>= 50 deliveries/s, 0 lost, 0 duplicated', met: triggerMet(triggerFigures) } : {},
		webhookNode: webhookNodeFigures ?? {},
		engineSettings: engineSettings.length > 0 ? engineSettings.map((run) => ({ ...run, trigger: { ...run.trigger, met: triggerMet(run.trigger) } })) : undefined,
		queueMode: queueMode ? { ...queueMode, trigger: { ...queueMode.trigger, met: triggerMet(queueMode.trigger) } } : undefined,
		growth,
		profile: profiles.length > 0 ? profiles.join('\n\n') : undefined,
	};
	writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
	console.log(`\n${markdown(result)}\nwritten to ${OUT}`);
	if (profiles.length > 0) console.log(`\nCPU profiles:\n${profiles.join('\n\n')}`);
}

/** What a run of deliveries gave: rates and latencies from the event to the execution's CRM post, and what went astray. */
type DeliveryFigures = {
	deliveries: number;
	executions: number;
	deliveriesPerSecond: number;
	p50Ms: number;
	p95Ms: number;
	lost: number;
	duplicated: number;
	duplicatePosts?: string;
	/** The trigger's deliveries only: those the sandbox gave up on, and those it sent more than once. */
	notDelivered?: number;
	deliveredAgain?: number;
};

/**
 * Fires `SIZES.trigger` events (`TRIGGER_IN_FLIGHT` at a time) with `fire`, which answers the key
 * its execution will post to the sandbox's CRM stand-in, and times each from its firing to that
 * post. Posts of other runs (other keys) are not counted.
 */
async function timeDeliveries(sandbox: RunningSandbox, fire: () => Promise<string>): Promise<DeliveryFigures> {
	const sentAt = new Map<string, number>();
	let next = 0;
	const worker = async () => {
		while (next++ < SIZES.trigger) {
			const firedAt = Date.now();
			sentAt.set(await fire(), firedAt);
		}
	};
	await Promise.all(Array.from({ length: TRIGGER_IN_FLIGHT }, worker));
	const ours = async () => (await sandboxCall<{ results: Array<{ at: string; body: { propId: string } }> }>(sandbox, 'GET', '/_sandbox/crm')).results.filter((post) => sentAt.has(post.body.propId));
	const deadline = Date.now() + 120_000;
	let posts = await ours();
	while (posts.length < SIZES.trigger && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 200));
		posts = await ours();
	}
	// Anything arriving late would be a duplicate: give it a moment.
	await new Promise((resolve) => setTimeout(resolve, 2000));
	posts = await ours();
	const seen = new Map<string, number>();
	for (const post of posts) seen.set(post.body.propId, (seen.get(post.body.propId) ?? 0) + 1);
	const latencies = posts.map((post) => Date.parse(post.at) - sentAt.get(post.body.propId)!).sort((a, b) => a - b);
	const first = Math.min(...sentAt.values());
	const last = Math.max(...posts.map((post) => Date.parse(post.at)));
	return {
		deliveries: sentAt.size,
		executions: posts.length,
		deliveriesPerSecond: (posts.length / Math.max(1, last - first)) * 1000,
		p50Ms: percentile(latencies, 50),
		p95Ms: percentile(latencies, 95),
		lost: [...sentAt.keys()].filter((key) => !seen.has(key)).length,
		duplicated: [...seen.values()].reduce((sum, count) => sum + count - 1, 0),
		// What a duplicate looked like, to explain one if it ever happens: its posts' times.
		...duplicatePosts(posts, seen),
	};
}

/** The first keys posted more than once, each with the times of its posts; nothing when there is none. */
function duplicatePosts(posts: Array<{ at: string; body: { propId: string } }>, seen: Map<string, number>): { duplicatePosts?: string } {
	const keys = [...seen].filter(([, count]) => count > 1).slice(0, 5).map(([key]) => key);
	if (keys.length === 0) return {};
	return { duplicatePosts: keys.map((key) => `${key} at ${posts.filter((post) => post.body.propId === key).map((post) => post.at).join(', ')}`).join('; ') };
}

const triggerMet = (figures: DeliveryFigures) => figures.deliveriesPerSecond >= 50 && figures.lost === 0 && figures.duplicated === 0;

/** The PropRadar Trigger: new matches fired into the list its activated workflow listens to, delivered by the sandbox. */
async function triggerRun(sandbox: RunningSandbox, host: RunningN8n, workflowId: string, listId: number): Promise<DeliveryFigures> {
	const client = await n8n.login(host);
	await n8n.activate(client, workflowId);
	try {
		// n8n answers the activation before the trigger has registered its webhook, and serves it with
		// its secret a moment later: a delivery with the secret and no events then gets 400.
		const until = Date.now() + 60_000;
		for (;;) {
			const hook = (await sandboxCall<{ results: Array<{ HookUrl: string; Secret: string }> }>(sandbox, 'GET', '/v1/integrations/webhooks').catch(() => ({ results: [] }))).results[0];
			if (hook && (await fetch(hook.HookUrl, { method: 'POST', headers: { authorization: `Bearer ${hook.Secret}`, 'content-type': 'application/json' }, body: '{}' })).status === 400) break;
			if (Date.now() > until) throw new Error('the trigger\'s webhook was not served within 60 s of activation');
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		type Delivery = { outcome: string; status: number | null; attempts: number; statuses: Array<number | null> };
		const earlier = (await sandboxCall<{ results: Delivery[] }>(sandbox, 'GET', '/_sandbox/deliveries?wait=1')).results.length;
		const figures = await timeDeliveries(sandbox, async () => (await sandboxCall<{ PropID: string }>(sandbox, 'POST', '/_sandbox/simulate/new-match', { ListID: listId })).PropID);
		const entries = (await sandboxCall<{ results: Delivery[] }>(sandbox, 'GET', '/_sandbox/deliveries?wait=1')).results.slice(earlier);
		const notDelivered = entries.filter((entry) => entry.outcome !== 'delivered');
		if (notDelivered.length > 0) console.log(`deliveries not delivered: ${JSON.stringify(notDelivered.slice(0, 5))}`);
		const again = entries.filter((entry) => entry.attempts > 1);
		if (again.length > 0) console.log(`deliveries sent more than once, each attempt's status (null: no answer): ${again.slice(0, 5).map((entry) => JSON.stringify(entry.statuses)).join(', ')}`);
		return { ...figures, notDelivered: notDelivered.length, deliveredAgain: again.length };
	} finally {
		await n8n.deactivate(client, workflowId);
	}
}

/** Events posted to the Webhook node in this process: each run's keys are its own. */
let webhookNodeEvents = 0;

/** n8n's own Webhook node on the same machine, same follow-up: what n8n itself can take (events posted straight to it). */
async function webhookNodeRun(sandbox: RunningSandbox, host: RunningN8n, workflowId: string, webhookBase = host.url): Promise<DeliveryFigures> {
	const client = await n8n.login(host);
	await n8n.activate(client, workflowId);
	try {
		const url = `${webhookBase}/webhook/${WEBHOOK_NODE_PATH}`;
		const until = Date.now() + 60_000;
		while ((await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ PropID: 'warm-up' }) })).status !== 200) {
			if (Date.now() > until) throw new Error('the Webhook node was not served within 60 s of activation');
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		return await timeDeliveries(sandbox, async () => {
			const key = `webhook-node-${++webhookNodeEvents}`;
			const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ PropID: key }) });
			await response.arrayBuffer();
			if (response.status !== 200) throw new Error(`the Webhook node answered ${response.status}`);
			return key;
		});
	} finally {
		await n8n.deactivate(client, workflowId);
	}
}



if (require.main === module) {
	main().catch((error: Error) => {
		console.error(error);
		process.exit(1);
	});
}
