/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The PropRadar Polling Trigger in n8n's queue mode (EXECUTIONS_MODE=queue), as scripts/n8n-host.js
 * `startQueue` starts it: Redis, one main process, one worker and one webhook process on one n8n
 * home. Only the main process polls (n8n 2.41 activates triggers and pollers on the leader, and a
 * main process outside multi-main is the leader; workers and webhook processes activate nothing:
 * docs/trigger.md); the executions its polls start run on the worker. Properties that enter an
 * unmonitored dynamic list over two polls (a minute's, then one n8n runs as the workflow is
 * published again: `pollNow`), through a 503, are each emitted exactly once, nothing charged. A
 * second main process (multi-main) is refused by n8n without an enterprise license: it exits before
 * activating anything, and the minute's poll emits nothing twice. A second main process without
 * multi-main is a leader too, and polls too on its minute: each property is emitted twice, which is
 * why the README says to run one.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, RunningQueue } from '../../scripts/n8n-host';
import { TOKENS } from '../support/sandboxApi';
import { until } from '../support/until';
import * as polling from '../support/pollingWorkflow';

jest.setTimeout(600_000);

const WORKFLOW_ID = 'PropRadarE2eQueuePoll';
const NODE = 'New properties';
const ADDED = 120;

let sandbox: RunningSandbox;
let queue: RunningQueue;
let client: N8nClient;
let listId: number;
let mainLog = '';

const waitFor = <T>(what: string, read: () => Promise<T | undefined>, limitMs = 120_000) =>
	until(what, read, limitMs, 500).catch((error: Error) => {
		const mainOutput = mainLog ? readFileSync(mainLog, 'utf8').slice(-3000) : '';
		throw new Error(`${error.message}\n${queue?.outputs() ?? ''}\n--- main:\n${mainOutput}`);
	});

const sandboxCall = (method: string, path: string, body?: unknown) =>
	polling.sandboxCall(sandbox.url, method, path, body);

/** `count` new properties that match the polled list, one after the other. */
const newMatches = (count: number) => polling.newMatches(sandbox.url, listId, count);

/** The workflow's executions (oldest first) and the properties their trigger emitted. */
const emittedSoFar = () => polling.emittedSoFar(client, WORKFLOW_ID, NODE);

/** The same, once they are at least `count` and no execution is still to end. */
const emittedAtLeast = (count: number) => () =>
	polling.emittedAtLeast(client, WORKFLOW_ID, NODE, count);

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	listId = await polling.dynamicList(sandbox.url, 'e2e: polled in queue mode');
	const prepared = await n8n.prepare({
		sandboxUrl: sandbox.url,
		workflows: [
			polling.pollingWorkflow(WORKFLOW_ID, 'e2e: polling trigger in queue mode', NODE, listId),
		],
	});
	mainLog = join(prepared.userFolder, 'main.log');
	// Info: the worker logs each execution it runs ("Worker started execution <id>").
	queue = await n8n.startQueue(
		{ ...prepared, env: { ...prepared.env, N8N_LOG_LEVEL: 'info' } },
		{ logFile: mainLog },
	);
	client = await n8n.login(queue.main);
}, 300_000);

afterAll(async () => {
	await queue?.stop();
	await sandbox?.close();
	if (queue) rmSync(queue.main.userFolder, { recursive: true, force: true });
});

test(`queue mode: the main process polls, ${ADDED} properties entering the list over two polls and a 503 are each emitted exactly once, by executions the worker runs; nothing is charged`, async () => {
	await n8n.activate(client, WORKFLOW_ID);
	await waitFor("the activation's poll", () =>
		polling.staticDataOf(client, WORKFLOW_ID, NODE, 'since'),
	);
	const first = await newMatches(ADDED / 2);
	const firstPoll = await waitFor("a minute's poll", emittedAtLeast(first.length));
	expect(firstPoll.propIds).toEqual(first);

	const second = await newMatches(ADDED / 2);
	// The next poll's read is answered 503 once before it goes through.
	await sandboxCall('POST', '/_sandbox/faults', {
		path: `/v1/lists/${listId}/items`,
		method: 'GET',
		status: 503,
	});
	// The next poll, now: the main process polls as it activates the workflow again.
	await polling.pollNow(client, WORKFLOW_ID);
	const all = await waitFor('the poll at activation', emittedAtLeast(ADDED));
	expect(all.propIds).toHaveLength(ADDED);
	expect(new Set(all.propIds)).toEqual(new Set([...first, ...second]));
	expect(all.executions.every(({ status }) => status === 'success')).toBe(true);

	// Each execution ran on the worker, none on the main process.
	const outputs = queue.outputs();
	const mainOutput = readFileSync(mainLog, 'utf8');
	for (const { id } of all.executions) {
		expect(outputs).toContain(`Worker started execution ${id} `);
		expect(mainOutput).not.toContain(`started execution ${id} `);
	}
	const charges = (await sandboxCall('GET', `/_sandbox/charges?token=${TOKENS.main}`)) as {
		log: unknown[];
	};
	expect(charges.log).toEqual([]);
	expect(
		((await sandboxCall('GET', '/v1/integrations/webhooks')) as { results: unknown[] }).results,
	).toEqual([]);
});

test('a second main process (multi-main) is refused without an enterprise license: it exits before activating anything, and the next poll emits each new property once', async () => {
	const emittedBefore = (await emittedSoFar()).propIds.length;
	// In the list before the second main process starts: had it activated the workflow before it
	// exited, its poll would emit them too.
	const added = await newMatches(10);
	const port = await n8n.freePort();
	const second = spawn(queue.mainHost.bin as string, ['start'], {
		env: {
			...queue.mainHost.env,
			N8N_MULTI_MAIN_SETUP_ENABLED: 'true',
			N8N_PORT: String(port),
			N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()),
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	second.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	second.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const code = await new Promise<number | null>((resolve) => {
		const timer = setTimeout(() => second.kill('SIGKILL'), 180_000);
		second.once('exit', (exitCode) => {
			clearTimeout(timer);
			resolve(exitCode);
		});
	});
	// It exits by itself (not killed), saying why.
	expect(code).not.toBe(0);
	expect(code).not.toBeNull();
	expect(output).toContain('Your license does not allow for feat:multipleMainInstances');

	// The first main process's minute poll (it may have come while the second one started).
	const all = await waitFor("the next minute's poll", emittedAtLeast(emittedBefore + 10));
	expect(all.propIds.slice(emittedBefore)).toEqual(added);
	expect(new Set(all.propIds).size).toBe(all.propIds.length);
});

test('two main processes without multi-main are each the leader and each polls: every new property is emitted twice (why the README says to run one)', async () => {
	const emittedBefore = (await emittedSoFar()).propIds.length;
	const port = await n8n.freePort();
	const second = await n8n.start({
		...queue.mainHost,
		port,
		url: `http://127.0.0.1:${port}`,
		env: {
			...queue.mainHost.env,
			N8N_PORT: String(port),
			N8N_RUNNERS_BROKER_PORT: String(await n8n.freePort()),
		},
	});
	try {
		// The second main process activates the workflow as it starts: its poll records where it starts.
		const added = await newMatches(10);
		const all = await waitFor(
			'both main processes polling',
			emittedAtLeast(emittedBefore + 2 * added.length),
		);
		const emitted = all.propIds.slice(emittedBefore);
		expect(emitted).toHaveLength(2 * added.length);
		expect(new Set(emitted)).toEqual(new Set(added));
	} finally {
		await second.stop();
	}
});
