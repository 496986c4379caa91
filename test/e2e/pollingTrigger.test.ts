/**
 * The PropRadar Polling Trigger in a real n8n 2.41 whose webhook address nobody can reach
 * (N8N_WEBHOOK_URL on a documentation-only address): published with Poll Times "Every Minute" on an
 * unmonitored dynamic list, while the sandbox's control route makes new properties match the list.
 * 100 properties that match before a restart of n8n are emitted by the poll n8n runs as it starts
 * again, 101 after it by the next minute's poll, through a dropped read and two 503s (the sandbox's
 * faults): each exactly once, nothing charged, no webhook or automation made, monitoring left off.
 * Deactivated and published again, it emits what matched while it was off. One restart and one
 * timed poll, about three minutes with n8n's starts; failed polls are the engine tier's
 * (test/engine/pollingTrigger.test.ts).
 */
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, N8nHost, RunningN8n } from '../../scripts/n8n-host';
import { startN8n, stopN8n, waitFor } from '../support/realN8n';
import { call, TOKENS } from '../support/sandboxApi';
import { outputOf, storedExecution } from '../support/storedExecution';
import { until } from '../until';

jest.setTimeout(480_000);

const WORKFLOW_ID = 'PropRadarE2ePoll01';
const NODE = 'New properties';
// Nothing answers there (RFC 5737): PropRadar could not call this n8n.
const UNREACHABLE = { N8N_WEBHOOK_URL: 'http://192.0.2.1/' };

let sandbox: RunningSandbox;
let prepared: N8nHost;
let host: RunningN8n;
let client: N8nClient;
let listId: number;
let automationBefore: Record<string, unknown>;

const sandboxCall = async (method: string, path: string, body?: unknown) =>
	(
		await call(sandbox.url, method, path, {
			body,
			token: path.startsWith('/_sandbox') ? null : TOKENS.main,
		})
	).body;

/** `count` new properties that match the list, one after the other. */
async function newMatches(count: number): Promise<string[]> {
	const propIds: string[] = [];
	for (let i = 0; i < count; i++) propIds.push(await newMatch());
	return propIds;
}

async function newMatch(): Promise<string> {
	return (
		(await sandboxCall('POST', '/_sandbox/simulate/new-match', { ListID: listId })) as {
			PropID: string;
		}
	).PropID;
}

const itemsPath = () => `/v1/lists/${listId}/items`;

/** Every property the workflow's executions emitted so far, in order, and the executions' statuses. */
async function emittedSoFar(): Promise<{ propIds: string[]; statuses: string[] }> {
	const { results } = (await client.rest(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: WORKFLOW_ID }))}`,
	)) as { results: Array<{ id: string; status: string }> };
	const propIds: string[] = [];
	const statuses: string[] = [];
	for (const { id, status } of [...results].reverse()) {
		statuses.push(status);
		if (status !== 'success') continue;
		propIds.push(
			...outputOf(await storedExecution(client, id), NODE).map((item) => String(item.PropID)),
		);
	}
	return { propIds, statuses };
}

/** The executions once they have emitted `count` properties and none is running. */
const emittedAtLeast = (count: number) => async () => {
	const emitted = await emittedSoFar();
	return emitted.propIds.length >= count &&
		!emitted.statuses.some((s) => s === 'running' || s === 'new')
		? emitted
		: undefined;
};

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	listId = (
		(await sandboxCall('POST', '/v1/lists', {
			ListName: 'e2e: polled',
			ListType: 'dynamic',
			Criteria: [{ name: 'ZipFive', value: [97202] }],
		})) as { results: Array<{ ListID: number }> }
	).results[0].ListID;
	automationBefore = (
		(await sandboxCall('GET', `/v1/lists/${listId}/automations`)) as {
			results: Array<Record<string, unknown>>;
		}
	).results[0];
	const workflow = {
		id: WORKFLOW_ID,
		name: 'e2e: polling trigger',
		nodes: [
			{
				id: 'poll',
				name: NODE,
				type: 'n8n-nodes-propradar.propRadarPollingTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					listId: { __rl: true, mode: 'id', value: String(listId) },
					fields: { include: ['City'] },
					options: {},
				},
				credentials: { propRadarApi: n8n.CREDENTIAL },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
	({ prepared, host, client } = await startN8n(
		{ sandboxUrl: sandbox.url, workflows: [workflow] },
		UNREACHABLE,
	));
}, 300_000);

afterAll(async () => {
	await stopN8n(host, sandbox);
});

test('published with no reachable webhook address: 201 properties that enter the list, before and after a restart of n8n and through dropped and failed reads, are each emitted exactly once, those that enter while it is deactivated at its next activation, and nothing is charged or wired', async () => {
	await n8n.activate(client, WORKFLOW_ID);
	// n8n 2.41 answers the activation before it activates the triggers (its publication outbox):
	// the activation's poll has run once n8n has written where the trigger starts. It emitted nothing.
	await waitFor("the activation's poll", async () => {
		const { staticData } = (await client.rest('GET', `/workflows/${WORKFLOW_ID}`)) as {
			staticData: Record<string, { since?: number }> | null;
		};
		return staticData?.[`node:${NODE}`]?.since;
	});
	expect((await emittedSoFar()).statuses).toEqual([]);
	const beforeRestart = await newMatches(100);
	// The first read of the poll at start loses its connection (the node reads it again).
	await sandboxCall('POST', '/_sandbox/faults', { path: itemsPath(), method: 'GET', drop: true });

	await host.stop();
	host = await n8n.start({ ...prepared, env: { ...prepared.env, ...UNREACHABLE } });
	client = await n8n.login(host);
	// n8n polls once as it activates the workflow at start: what entered meanwhile.
	const atStart = await waitFor('the poll at start', emittedAtLeast(100));
	expect(atStart.propIds).toEqual(beforeRestart);

	const afterRestart = await newMatches(101);
	// The next poll's read is answered 503 twice before it goes through.
	await sandboxCall('POST', '/_sandbox/faults', {
		path: itemsPath(),
		method: 'GET',
		status: 503,
		count: 2,
	});
	// Poll Times "Every Minute": the next poll comes within a minute (two, if one came while they matched).
	const all = await until("the next minute's poll", emittedAtLeast(201), 200_000, 1_000);
	const added = [...beforeRestart, ...afterRestart];
	expect(all.propIds).toHaveLength(added.length);
	expect(new Set(all.propIds)).toEqual(new Set(added));
	expect(all.statuses.every((status) => status === 'success')).toBe(true);

	// Deactivated, three match meanwhile, published again: n8n keeps the static data, so the
	// activation's poll emits those three, once.
	await n8n.deactivate(client, WORKFLOW_ID);
	const whileOff = await newMatches(3);
	await n8n.activate(client, WORKFLOW_ID);
	const again = await waitFor('the poll at activation', emittedAtLeast(204));
	expect(again.propIds).toHaveLength(204);
	expect(new Set(again.propIds)).toEqual(new Set([...added, ...whileOff]));

	// Only free reads: nothing charged, no webhook, the list's automation untouched and unmonitored.
	const charges = (await sandboxCall('GET', `/_sandbox/charges?token=${TOKENS.main}`)) as {
		log: unknown[];
	};
	expect(charges.log).toEqual([]);
	expect(
		((await sandboxCall('GET', '/v1/integrations/webhooks')) as { results: unknown[] }).results,
	).toEqual([]);
	const list = (await sandboxCall('GET', `/v1/lists/${listId}?Fields=isMonitored`)) as {
		results: Array<{ isMonitored: number }>;
	};
	expect(list.results[0].isMonitored).toBe(0);
	const automation = (await sandboxCall('GET', `/v1/lists/${listId}/automations`)) as {
		results: Array<Record<string, unknown>>;
	};
	expect(automation.results[0]).toEqual(automationBefore);
});
