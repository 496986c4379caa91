/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * A delivery n8n answers late, in a real n8n 2.41 started with N8N_CONCURRENCY_PRODUCTION_LIMIT=1:
 * while another production execution holds the one slot, n8n has created the trigger's execution
 * but answers the delivery only once the execution may run (`ActiveExecutions.add` waits for the
 * slot), so the service gives up on that delivery first and delivers again. The redelivery is
 * asked to come again (503) until n8n has answered the first, which it does on the closed
 * connection; then it is dropped, and the event runs once. docs/trigger.md rests on
 * this.
 */
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { startN8n, stopN8n, waitFor } from '../support/realN8n';
import { call } from '../support/sandboxApi';
import { newMatchesTrigger } from '../support/workflows';
import * as n8n from '../../scripts/n8n-host';
import type { RunningN8n, N8nClient } from '../../scripts/n8n-host';
import { seedDemoData } from '../../scripts/demo-data';

jest.setTimeout(300_000);

let sandbox: RunningSandbox;
let host: RunningN8n;
let client: N8nClient;

const TRIGGER_WORKFLOW = 'PropRadarE2eSlow01';
const BLOCKER_WORKFLOW = 'PropRadarE2eSlow02';
const BLOCKER_PATH = 'propradar-e2e-slot-blocker';
/** How long the blocker holds n8n's one production slot. */
const BLOCKER_SECONDS = 5;

const WORKFLOWS = [
	{
		id: TRIGGER_WORKFLOW,
		name: 'e2e: trigger answered late',
		nodes: [newMatchesTrigger(1.1, 'e2e51a0c-5b6d-4e7f-8a9b-0c1d2e3f4a01')],
		connections: {},
		settings: { executionOrder: 'v1' },
	},
	{
		id: BLOCKER_WORKFLOW,
		name: 'e2e: holds the production slot',
		nodes: [
			{
				id: 'hook',
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: 'e2e51a0c-5b6d-4e7f-8a9b-0c1d2e3f4a02',
				position: [0, 0],
				parameters: {
					httpMethod: 'POST',
					path: BLOCKER_PATH,
					responseMode: 'onReceived',
					options: {},
				},
			},
			{
				id: 'wait',
				name: 'Wait',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				webhookId: 'e2e51a0c-5b6d-4e7f-8a9b-0c1d2e3f4a03',
				position: [200, 0],
				parameters: { resume: 'timeInterval', amount: BLOCKER_SECONDS, unit: 'seconds' },
			},
		],
		connections: { Webhook: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	},
];

async function executions(workflowId: string): Promise<string[]> {
	const { results } = (await client.rest(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
	)) as { results: Array<{ status: string }> };
	return results.map((run) => run.status);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	await seedDemoData(sandbox.url);
	({ host, client } = await startN8n(
		{ sandboxUrl: sandbox.url, workflows: WORKFLOWS },
		{ N8N_CONCURRENCY_PRODUCTION_LIMIT: '1' },
	));
});

afterAll(async () => {
	await stopN8n(host, sandbox);
});

test('a redelivery while n8n has not answered the first delivery gets 503 until n8n answers it on the closed connection, then is dropped: one execution', async () => {
	await n8n.activate(client, TRIGGER_WORKFLOW);
	await n8n.activate(client, BLOCKER_WORKFLOW);
	const hook = await waitFor(
		'the trigger webhook registered',
		async () =>
			(
				(await call(sandbox.url, 'GET', '/v1/integrations/webhooks')).body as {
					results: Array<{ HookUrl: string; Secret: string }>;
				}
			).results[0],
	);
	const deliver = (body: string, signal?: AbortSignal) =>
		fetch(hook.HookUrl, {
			method: 'POST',
			headers: { authorization: `Bearer ${hook.Secret}`, 'content-type': 'application/json' },
			body,
			signal,
		});
	// Served with its secret once a body without events gets the trigger's 400 (404 or 401 before).
	await waitFor('n8n serving the trigger with its secret', async () =>
		(await deliver('{}')).status === 400 ? true : undefined,
	);
	await waitFor('n8n serving the blocker', async () =>
		(await fetch(`${host.url}/webhook/${BLOCKER_PATH}`, { method: 'POST' })).status === 200
			? true
			: undefined,
	);
	await waitFor('the blocker holding the slot', async () =>
		(await executions(BLOCKER_WORKFLOW)).includes('running') ? true : undefined,
	);

	const event = JSON.stringify({
		TriggerType: 'New Match',
		PropID: 'P-E2E-SLOW-ANSWER',
		ListID: 1,
		Address: '1 Slow St',
		City: 'Portland',
		State: 'OR',
		ZipFive: '97201',
	});
	// The service gives up on the first delivery: n8n holds it until the slot is free.
	const first = await deliver(event, AbortSignal.timeout(1500)).then(
		(answer) => `answered ${answer.status}`,
		(error: Error) => error.name,
	);
	expect(first).toBe('TimeoutError');
	const again = await deliver(event);
	expect({
		status: again.status,
		retryAfter: again.headers.get('retry-after'),
		body: await again.json(),
	}).toEqual({
		status: 503,
		retryAfter: '1',
		body: {
			message: 'An earlier delivery of these events is still being started; deliver again later',
		},
	});
	expect(await executions(TRIGGER_WORKFLOW)).toHaveLength(1);

	// Once the blocker is done, n8n runs the first delivery's execution and answers it, to a closed connection.
	const settled = await waitFor('a redelivery no longer asked to come again', async () => {
		const answer = await deliver(event);
		return answer.status === 503
			? undefined
			: { status: answer.status, body: (await answer.json()) as unknown };
	});
	expect(settled).toEqual({ status: 200, body: { received: 1, started: false } });
	expect(
		await waitFor("the trigger's execution finished", async () => {
			const runs = await executions(TRIGGER_WORKFLOW);
			return runs.every((status) => status !== 'new' && status !== 'running') ? runs : undefined;
		}),
	).toEqual(['success']);
	await new Promise((resolve) => setTimeout(resolve, 1000));
	expect(await executions(TRIGGER_WORKFLOW)).toEqual(['success']);

	await n8n.deactivate(client, BLOCKER_WORKFLOW);
	await n8n.deactivate(client, TRIGGER_WORKFLOW);
});
