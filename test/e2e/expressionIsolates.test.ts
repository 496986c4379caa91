/**
 * The trigger's version 1.1 in a real n8n 2.41 started with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true
 * (an expression isolate is taken only when an expression reaches the engine) and its metrics on:
 * n8n counts every isolate it hands out (`expression.pool.acquired`). A delivery to a trigger of
 * version 1 takes one, for the expression n8n evaluates to read the body of a version-1 start node
 * (parseRequestBody in n8n's webhook-helpers); a delivery to version 1.1 takes none, and starts
 * its execution the same. docs/scale.md's "Many deliveries a second" rests on this.
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

const VERSIONS = [
	{ typeVersion: 1, id: 'PropRadarE2eIso10', webhookId: 'e2e1a0c4-5b6d-4e7f-8a9b-0c1d2e3f4a10' },
	{ typeVersion: 1.1, id: 'PropRadarE2eIso11', webhookId: 'e2e1a0c4-5b6d-4e7f-8a9b-0c1d2e3f4a11' },
];

/** The trigger alone on the demo's list 1, at `typeVersion`: no other node, so no expression of the user's. */
function triggerOnly({ typeVersion, id, webhookId }: (typeof VERSIONS)[number]) {
	return {
		id,
		name: `e2e: trigger version ${typeVersion} alone`,
		nodes: [newMatchesTrigger(typeVersion, webhookId)],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** The isolates n8n has handed out so far, from its Prometheus metrics. */
async function isolatesAcquired(): Promise<number> {
	const text = await (await fetch(`${host.url}/metrics`)).text();
	const line = text
		.split('\n')
		.find((entry) => /^\w*expression_pool_acquired\w*(\{[^}]*\})? /.test(entry));
	if (!line)
		throw new Error(
			`n8n's metrics have no expression_pool_acquired counter:\n${text.slice(0, 2000)}`,
		);
	return Number(line.split(' ').pop());
}

async function finishedExecutions(workflowId: string): Promise<string[]> {
	const { results } = (await client.rest(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
	)) as { results: Array<{ status: string }> };
	return results
		.filter((run) => run.status !== 'running' && run.status !== 'new')
		.map((run) => run.status);
}

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	await seedDemoData(sandbox.url);
	({ host, client } = await startN8n(
		{ sandboxUrl: sandbox.url, workflows: VERSIONS.map(triggerOnly) },
		{ N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true', N8N_METRICS: 'true' },
	));
});

afterAll(async () => {
	await stopN8n(host, sandbox);
});

test('with lazy isolates, a delivery to the trigger at version 1.1 takes no expression isolate, at version 1 one, and both start their execution', async () => {
	for (const version of VERSIONS) await n8n.activate(client, version.id);
	const hooks = await waitFor('both trigger webhooks registered', async () => {
		const { results } = (await call(sandbox.url, 'GET', '/v1/integrations/webhooks')).body as {
			results: Array<{ HookUrl: string; Secret: string }>;
		};
		return results.length === 2 ? results : undefined;
	});
	const taken: Record<string, number> = {};
	for (const version of VERSIONS) {
		const hook = hooks.find((candidate) => candidate.HookUrl.includes(version.webhookId))!;
		const deliver = (body: unknown) =>
			fetch(hook.HookUrl, {
				method: 'POST',
				headers: { authorization: `Bearer ${hook.Secret}`, 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		// Served with its secret once a body without events gets the trigger's 400 (404 or 401 before).
		await waitFor(`n8n serving the version ${version.typeVersion} trigger`, async () =>
			(await deliver({})).status === 400 ? true : undefined,
		);
		const before = await isolatesAcquired();
		expect(
			(
				await deliver({
					TriggerType: 'New Match',
					PropID: `P00000${VERSIONS.indexOf(version) + 1}`,
					ListID: 1,
				})
			).status,
		).toBe(200);
		expect(
			await waitFor(`the version ${version.typeVersion} trigger's execution`, async () => {
				const runs = await finishedExecutions(version.id);
				return runs.length > 0 ? runs : undefined;
			}),
		).toEqual(['success']);
		taken[version.typeVersion] = (await isolatesAcquired()) - before;
	}
	expect(taken).toEqual({ 1: 1, 1.1: 0 });
	for (const version of VERSIONS) await n8n.deactivate(client, version.id);
});
