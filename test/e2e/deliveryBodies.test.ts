/**
 * Issue 59: the delivery body is inferred (docs/api.md), so in a real n8n 2.41 the trigger starts a
 * workflow for each body shape the service might send (one flat object, an array, an object with
 * the events in an array, an event of a kind it does not know), and still refuses a wrong secret.
 * The deliveries are posted to the trigger's webhook as the service would post them.
 */
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { servedWithSecret, stopN8n, waitFor } from '../support/realN8n';
import { call } from '../support/sandboxApi';
import { newestExecution, outputOf, storedExecution } from '../support/storedExecution';
import { newMatchesTrigger } from '../support/workflows';
import * as n8n from '../../scripts/n8n-host';
import type { RunningN8n, N8nClient } from '../../scripts/n8n-host';
import { seedDemoData } from '../../scripts/demo-data';

jest.setTimeout(600_000);

const WORKFLOW = 'PropRadarE2eBody01';

let sandbox: RunningSandbox;
let host: RunningN8n;
let client: N8nClient;
let hook: { HookUrl: string; Secret: string };

async function executionCount(): Promise<number> {
	const { results } = (await client.rest(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW }))}`,
	)) as { results: unknown[] };
	return results.length;
}

const deliver = async (body: unknown, authorization = `Bearer ${hook.Secret}`) =>
	(
		await fetch(hook.HookUrl, {
			method: 'POST',
			headers: { authorization, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		})
	).status;

/** The trigger's output in the execution a delivery started, once n8n stored it. */
async function startedWith(body: unknown): Promise<Array<Record<string, unknown>>> {
	const before = (await newestExecution(client, WORKFLOW))?.id;
	expect(await deliver(body)).toBe(200);
	const run = await waitFor('the execution the delivery started', async () => {
		const newest = await newestExecution(client, WORKFLOW);
		return newest && newest.id !== before && newest.status === 'success' ? newest : undefined;
	});
	return outputOf(await storedExecution(client, run.id), 'New matches');
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	await seedDemoData(sandbox.url);
	const prepared = await n8n.prepare({
		sandboxUrl: sandbox.url,
		workflows: [
			{
				id: WORKFLOW,
				name: 'e2e: delivery bodies',
				nodes: [newMatchesTrigger(1.1, 'e2eb0d1e-5a6b-4c7d-8e9f-0a1b2c3d4e01')],
				connections: {},
				settings: { executionOrder: 'v1' },
			},
		],
	});
	// A bound against a start on a busy machine (n8n-host's default is 120 s), not a speed assertion.
	host = await n8n.start(prepared, { timeoutMs: 300_000 });
	client = await n8n.login(host);
	await n8n.activate(client, WORKFLOW);
	hook = await waitFor(
		'the trigger webhook registered',
		async () =>
			(
				(await call(sandbox.url, 'GET', '/v1/integrations/webhooks')).body as {
					results: Array<{ HookUrl: string; Secret: string }>;
				}
			).results[0],
	);
	await servedWithSecret(hook);
});

afterAll(async () => {
	await stopN8n(host, sandbox);
});

const match = (propId: string) => ({
	TriggerType: 'New Match',
	PropID: propId,
	ListID: 1,
	City: 'Portland',
});

test('one flat object starts a workflow with it', async () => {
	expect(await startedWith(match('P-E2E-BODY-1'))).toEqual([match('P-E2E-BODY-1')]);
});

test('an array starts a workflow with each of its events', async () => {
	const body = [match('P-E2E-BODY-2'), match('P-E2E-BODY-3')];
	expect(await startedWith(body)).toEqual(body);
});

test('an object with the events in an array starts a workflow with each of them', async () => {
	const events = [match('P-E2E-BODY-4'), match('P-E2E-BODY-5')];
	expect(await startedWith({ results: events })).toEqual(events);
	expect(
		await startedWith({ TriggerType: 'New Match', events: [{ PropID: 'P-E2E-BODY-6' }] }),
	).toEqual([{ TriggerType: 'New Match', PropID: 'P-E2E-BODY-6' }]);
});

test('an event of a kind it does not know starts a workflow with it as it arrived, kind "unknown"', async () => {
	const event = { TriggerType: 'Price Drop', PropID: 'P-E2E-BODY-7' };
	expect(await startedWith(event)).toEqual([{ kind: 'unknown', ...event }]);
	expect(await startedWith({ PropID: 'P-E2E-BODY-8' })).toEqual([
		{ kind: 'unknown', PropID: 'P-E2E-BODY-8' },
	]);
});

test('a wrong secret is still refused for every shape, and starts nothing', async () => {
	const wrong = `Bearer ${hook.Secret.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}`;
	const before = await executionCount();
	for (const body of [
		match('P-E2E-BODY-9'),
		[match('P-E2E-BODY-10')],
		{ results: [match('P-E2E-BODY-11')] },
		{ TriggerType: 'Price Drop', PropID: 'P-E2E-BODY-12' },
	]) {
		expect(await deliver(body, wrong)).toBe(401);
		expect(await deliver(body, '')).toBe(401);
	}
	// A refused delivery creates no execution: a signed one after them is the only new one.
	await startedWith(match('P-E2E-BODY-13'));
	expect(await executionCount()).toBe(before + 1);
});
