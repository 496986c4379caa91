/* eslint-disable @n8n/community-nodes/no-restricted-imports -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The e2e tier in n8n's queue mode (EXECUTIONS_MODE=queue), as scripts/n8n-host.js `startQueue`
 * starts it: Debian's redis-server on a free port, one main process (`n8n start`, activation), one
 * worker (`n8n worker`, executions) and one webhook process (`n8n webhook`, deliveries), all on
 * the same n8n home. The trigger example is activated by the main process; sandbox deliveries go through the
 * webhook process and are executed by the worker, each exactly once; a redelivery starts nothing;
 * deactivation restores the automation. Redis is first given a port another process holds, and
 * `startQueue` starts again on new ports.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { call } from '../support/sandboxApi';
import { takenPort } from '../support/takenPort';
import { example } from '../support/workflows';
import { until } from '../support/until';
import * as n8n from '../../scripts/n8n-host';
import type { RunningN8n, N8nClient, RunningQueue } from '../../scripts/n8n-host';
import { seedDemoData } from '../../scripts/demo-data';

jest.setTimeout(600_000);

const DELIVERIES = 200;
const WORKFLOW_ID = 'PropRadarEx00004';

let sandbox: RunningSandbox;
let queue: RunningQueue;
/** The main process; the second test starts it again. */
let main: RunningN8n;
let client: N8nClient;
let webhookUrl: string;
let mainLog = '';

const waitFor = <T>(
	what: string,
	read: () => Promise<T | undefined>,
	limitMs = 120_000,
): Promise<T> =>
	until(what, read, limitMs, 300).catch((error: Error) => {
		const mainOutput = mainLog ? readFileSync(mainLog, 'utf8').slice(-3000) : '';
		throw new Error(`${error.message}\n${queue?.outputs() ?? ''}\n--- main:\n${mainOutput}`);
	});

const sandboxApi = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
	(await call(sandbox.url, method, path, { body })).body as T;
const hooks = async () =>
	(
		await sandboxApi<{ results: Array<{ WebhookID: number; HookUrl: string; Secret: string }> }>(
			'GET',
			'/v1/integrations/webhooks',
		)
	).results;
/** List 1's automation (the trigger example's list). */
const automation = async () =>
	(await sandboxApi<{ results: Array<Record<string, unknown>> }>('GET', '/v1/lists/1/automations'))
		.results[0];

/**
 * Deactivates the workflow and waits until its webhook is gone and list 1's automation is `before`
 * again: n8n answers the deactivation before the trigger's clean-up has finished.
 */
async function deactivatedAndRestored(
	before: Record<string, unknown>,
	limitMs = 30_000,
): Promise<void> {
	await n8n.deactivate(client, WORKFLOW_ID);
	await waitFor('no webhook left', async () => ((await hooks()).length === 0 ? true : undefined));
	await waitFor(
		'the automation as before',
		async () => (isDeepStrictEqual(await automation(), before) ? true : undefined),
		limitMs,
	);
}

/** How many executions of the workflow n8n holds, with one of `statuses` if given. */
async function executionCount(statuses?: string[]): Promise<number> {
	const filter = encodeURIComponent(
		JSON.stringify({ workflowId: WORKFLOW_ID, ...(statuses ? { status: statuses } : {}) }),
	);
	const page = (await client.rest('GET', `/executions?filter=${filter}&limit=1`)) as {
		count: number;
	};
	return page.count;
}
const UNFINISHED = ['new', 'running', 'waiting'];

/** The executions that did not succeed, with their status and error, for a failure message. */
async function failedExecutions(): Promise<unknown[]> {
	const filter = encodeURIComponent(
		JSON.stringify({
			workflowId: WORKFLOW_ID,
			status: ['error', 'crashed', 'canceled', 'unknown', ...UNFINISHED],
		}),
	);
	const { results } = (await client.rest('GET', `/executions?filter=${filter}&limit=20`)) as {
		results: Array<{ id: string; status: string }>;
	};
	return await Promise.all(
		results.map(async ({ id, status }) => {
			const execution = (await client.rest('GET', `/executions/${id}`)) as { data?: string };
			return { id, status, data: String(execution.data ?? '').slice(0, 1500) };
		}),
	);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	await seedDemoData(sandbox.url);
	const prepared = await n8n.prepare({
		sandboxUrl: sandbox.url,
		workflows: [example('04-foreclosures-to-crm.json')],
	});
	mainLog = join(prepared.userFolder, 'main.log');
	// Redis is first given a port another process holds: all start again on new ports.
	const taken = await takenPort();
	try {
		queue = await n8n.startQueue(
			{ ...prepared, env: { ...prepared.env, N8N_LOG_LEVEL: 'info' } },
			{ logFile: mainLog, freePort: taken.pick },
		);
	} finally {
		taken.release();
	}
	expect(taken.given[0]).toBe(taken.held);
	expect(Number(queue.mainHost.env.QUEUE_BULL_REDIS_PORT)).not.toBe(taken.held);
	main = queue.main;
	// PropRadar is given the webhook process's address.
	webhookUrl = queue.webhookUrl;
	client = await n8n.login(main);
});

afterAll(async () => {
	// The main process the second test started again is stopped before Redis.
	if (main !== queue?.main) await main?.stop();
	await queue?.stop();
	await sandbox?.close();
	if (main) rmSync(main.userFolder, { recursive: true, force: true });
});

test(`queue mode: activated by the main process, ${DELIVERIES} deliveries through the webhook process each executed once by the worker, a redelivery starts nothing, deactivation restores the automation`, async () => {
	const automationBefore = await automation();
	await n8n.activate(client, WORKFLOW_ID);
	const hook = await waitFor('the webhook registered', async () => {
		const now = await hooks();
		return now.length === 1 ? now[0] : undefined;
	});
	expect(hook.HookUrl).toBe(`${webhookUrl}/webhook/5b0c7a36-8f1e-4d52-9a6b-3e2f1c0d4a71/webhook`);
	await waitFor('the webhook process serving the trigger', async () =>
		(await fetch(hook.HookUrl, { method: 'POST', body: '{}' })).status === 401 ? true : undefined,
	);

	for (let i = 0; i < DELIVERIES; i++)
		await sandboxApi('POST', '/_sandbox/simulate/new-match', { ListID: 1 });
	const log = (
		await sandboxApi<{ results: Array<{ HookUrl: string; outcome: string; attempts: number }> }>(
			'GET',
			'/_sandbox/deliveries?wait=1',
		)
	).results.filter((entry) => entry.HookUrl === hook.HookUrl);
	expect(log).toHaveLength(DELIVERIES);
	expect(log.filter((entry) => entry.outcome !== 'delivered')).toEqual([]);

	await waitFor(
		`${DELIVERIES} finished executions`,
		async () =>
			(await executionCount()) >= DELIVERIES && (await executionCount(UNFINISHED)) === 0
				? true
				: undefined,
		300_000,
	);
	expect(await executionCount()).toBe(DELIVERIES);
	expect({
		succeeded: await executionCount(['success']),
		failed: await failedExecutions(),
	}).toEqual({ succeeded: DELIVERIES, failed: [] });
	const leads = (
		await sandboxApi<{ results: Array<{ body: { propId: string } }> }>('GET', '/_sandbox/crm')
	).results;
	expect(new Set(leads.map((lead) => lead.body.propId)).size).toBe(DELIVERIES);
	expect(leads).toHaveLength(DELIVERIES);

	// A redelivery (same event, same secret) through the webhook process starts nothing.
	const event = {
		TriggerType: 'New Match',
		PropID: 'P-REDELIVERED',
		ListID: 1,
		ListName: 'Oregon foreclosures',
	};
	const post = () =>
		fetch(hook.HookUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${hook.Secret}` },
			body: JSON.stringify(event),
		});
	const first = await post();
	expect(first.status).toBe(200);
	expect(await first.text()).not.toContain('"started":false');
	const again = await post();
	expect(again.status).toBe(200);
	expect(await again.json()).toEqual({ received: 1, started: false });
	await waitFor('the first delivery executed', async () =>
		(await executionCount(['success'])) === DELIVERIES + 1 ? true : undefined,
	);
	expect(await executionCount(UNFINISHED)).toBe(0);
	expect(await executionCount()).toBe(DELIVERIES + 1);

	await deactivatedAndRestored(automationBefore);
});

test('after a restart of the main process, a webhook deleted in PropRadar meanwhile is registered again by deactivating and activating the workflow, once', async () => {
	const automationBefore = await automation();
	await n8n.activate(client, WORKFLOW_ID);
	const [first] = await waitFor('the webhook registered', async () =>
		(await hooks()).length === 1 ? await hooks() : undefined,
	);

	await main.stop();
	await sandboxApi('DELETE', `/v1/integrations/webhooks/${first.WebhookID}`);
	main = await n8n.start(queue.mainHost, { logFile: mainLog });
	client = await n8n.login(main);

	// The repair the README gives: deactivate and activate.
	await n8n.deactivate(client, WORKFLOW_ID);
	await n8n.activate(client, WORKFLOW_ID);
	// n8n answers the activation before the registration has finished: wait for the wiring.
	const [second] = await waitFor('the webhook registered and wired again', async () => {
		const now = await hooks();
		return now.length === 1 &&
			now[0].WebhookID !== first.WebhookID &&
			String((await automation()).ExportToWebhookIDs) === String(now[0].WebhookID)
			? now
			: undefined;
	});
	expect(second.HookUrl).toBe(first.HookUrl);
	expect(await hooks()).toHaveLength(1);
	await waitFor('the webhook process serving the trigger', async () =>
		(await fetch(second.HookUrl, { method: 'POST', body: '{}' })).status === 401 ? true : undefined,
	);

	const executed = await executionCount(['success']);
	await sandboxApi('POST', '/_sandbox/simulate/new-match', { ListID: 1 });
	await waitFor('the new match executed', async () =>
		(await executionCount(['success'])) === executed + 1 ? true : undefined,
	).catch(async (error: Error) => {
		throw new Error(
			`${error.message}\nthe sandbox's last deliveries: ${JSON.stringify((await sandboxApi<{ results: unknown[] }>('GET', '/_sandbox/deliveries?wait=1')).results.slice(-3))}`,
		);
	});

	await deactivatedAndRestored(automationBefore);
});

test('faults at the sandbox during activation and deactivation in n8n: a lost registration answer is adopted (one webhook), a short outage on the automation write does not stop the clean-up', async () => {
	const fault = async (spec: Record<string, unknown>) =>
		expect(
			(
				await fetch(`${sandbox.url}/_sandbox/faults`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(spec),
				})
			).status,
		).toBe(200);
	const automationBefore = await automation();

	// The webhook is created, then its answer is lost.
	await fault({ path: '/v1/integrations/webhooks', method: 'POST', when: 'after', status: 502 });
	await n8n.activate(client, WORKFLOW_ID);
	const [hook] = await waitFor('the webhook registered and wired', async () => {
		const now = await hooks();
		return now.length === 1 &&
			String((await automation()).ExportToWebhookIDs) === String(now[0].WebhookID)
			? now
			: undefined;
	});
	await waitFor('the trigger serving with its secret stored', async () =>
		(await fetch(hook.HookUrl, { method: 'POST', body: '{}' })).status === 401 ? true : undefined,
	);
	expect(await hooks()).toHaveLength(1);

	// Four 503s on the automation write, more than the transport's retries.
	await fault({ path: '/v1/lists/1/automations', method: 'PUT', status: 503, count: 4 });
	await deactivatedAndRestored(automationBefore, 60_000);
	await fetch(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
});

test("two n8n instances activating and deactivating triggers on the same list at the same moment keep each other's wiring (5 rounds)", async () => {
	const automationBefore = await automation();
	const second = example<{
		id: string;
		name: string;
		nodes: Array<{ type: string; webhookId?: string }>;
	}>('04-foreclosures-to-crm.json');
	second.id = 'PropRadarE2eSecondN8n';
	second.name = 'e2e: the trigger example in a second n8n';
	second.nodes.find((node) => node.type.endsWith('propRadarTrigger'))!.webhookId =
		'e2e5ec0d-0a7e-4c1b-9d2f-6b3a8c4e1f20';
	const otherHost = await n8n.start(
		await n8n.prepare({ sandboxUrl: sandbox.url, workflows: [second] }),
	);
	try {
		const otherClient = await n8n.login(otherHost);
		for (let round = 0; round < 5; round++) {
			await Promise.all([n8n.activate(client, WORKFLOW_ID), n8n.activate(otherClient, second.id)]);
			await waitFor(`round ${round}: both webhooks registered and wired`, async () => {
				const ids = (await hooks()).map((hook) => String(hook.WebhookID)).sort();
				const wired = await automation();
				return ids.length === 2 &&
					String(wired.ExportToWebhookIDs).split(',').sort().join() === ids.join() &&
					wired.Triggers === 'New Matches' &&
					wired.isEnabled === 1
					? true
					: undefined;
			});
			await Promise.all([
				n8n.deactivate(client, WORKFLOW_ID),
				n8n.deactivate(otherClient, second.id),
			]);
			await waitFor(`round ${round}: no webhook left`, async () =>
				(await hooks()).length === 0 ? true : undefined,
			);
			await waitFor(`round ${round}: the automation as before`, async () =>
				isDeepStrictEqual(await automation(), automationBefore) ? true : undefined,
			);
		}
	} finally {
		await otherHost.stop();
		rmSync(otherHost.userFolder, { recursive: true, force: true });
	}
});
