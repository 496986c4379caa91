/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Money in a real n8n (scripts/n8n-install.sh): a Return All purchase over the cap, and n8n's
 * "Retry On Fail" with a purchase whose connection drops after the service charged it, each checked
 * against the sandbox's charge log. Faults come from the sandbox's own fault route, at the HTTP level.
 */
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';
import { stopN8n } from '../support/realN8n';
import { call, sandboxCharges } from '../support/sandboxApi';
import { manualTrigger, propRadarNode, rowItems, runByHand, to } from '../support/workflows';
import { until } from '../support/until';
import { ceilingAcrossWaitAndRestart } from '../support/ceilingAcrossWait';
import * as n8n from '../../scripts/n8n-host';
import type { N8nClient, N8nHost, RunningN8n } from '../../scripts/n8n-host';

jest.setTimeout(300_000);

let sandbox: RunningSandbox;
let host: RunningN8n;
/** The REST API of `host` (logged in again when the test across a restart starts it again). */
let client: N8nClient;
let prepared: N8nHost;
/** The import list of the stopped import. */
let stopList: number;
const STOP_PATH = 'propradar-e2e-stopped-import';
const STOP_RECORDS = 20;

/** A workflow: a manual trigger, then one PropRadar node with these parameters and node settings. */
const workflow = (
	id: string,
	parameters: Record<string, unknown>,
	settings: Record<string, unknown> = {},
) =>
	runByHand(
		{ id, name: `e2e money: ${id}` },
		{ ...propRadarNode('buy', 'Buy', [220, 0], parameters), ...settings },
		{},
	);

/**
 * A webhook (answering at once) starting an import of `STOP_RECORDS` records into `listId`, one
 * record a batch, in a workflow whose timeout stops it after 2 seconds.
 */
function stoppedImport(listId: number) {
	const rows = Array.from({ length: STOP_RECORDS }, (_, i) => ({
		Address: `${i + 1} Timeout Way`,
		City: 'Portland',
		State: 'OR',
	}));
	return {
		id: 'PropRadarE2eMoney4',
		name: 'e2e money: an import stopped by the workflow timeout',
		nodes: [
			{
				id: 'hook',
				name: 'Hook',
				type: 'n8n-nodes-base.webhook',
				webhookId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
				typeVersion: 2,
				position: [0, 0],
				parameters: {
					httpMethod: 'POST',
					path: STOP_PATH,
					responseMode: 'onReceived',
					options: {},
				},
			},
			...rowItems(rows),
			propRadarNode('import', 'Import', [660, 0], {
				resource: 'importRecord',
				operation: 'import',
				listId: { __rl: true, mode: 'id', value: String(listId) },
				mapping: 'auto',
				chargeMode: 'purchase',
				maxCost: 10,
				importOptions: { batchSize: 1 },
			}),
		],
		connections: { Hook: to('Make'), Make: to('Rows'), Rows: to('Import') },
		settings: { executionOrder: 'v1', executionTimeout: 2 },
	};
}

/** Lists A and B of the import whose items name their own Import List (by an expression). */
let perItemLists: [number, number];
const PER_ITEM_ROWS = ['A', 'B', 'A', 'B'].map((list, i) => ({
	Address: `${i + 1} Two Lists Ave`,
	City: 'Portland',
	State: 'OR',
	list,
}));

/** Four records whose items name lists A, B, A, B, imported by one PropRadar node. */
function perItemListImport([a, b]: [number, number]) {
	return {
		id: 'PropRadarE2eMoney5',
		name: 'e2e money: an import whose items name two import lists',
		nodes: [
			manualTrigger(),
			...rowItems(PER_ITEM_ROWS.map((row) => ({ ...row, listId: row.list === 'A' ? a : b }))),
			propRadarNode('import', 'Import', [660, 0], {
				resource: 'importRecord',
				operation: 'import',
				listId: { __rl: true, mode: 'id', value: '={{ $json.listId }}' },
				mapping: 'auto',
				chargeMode: 'purchase',
				maxCost: 10,
			}),
		],
		connections: { Run: to('Make'), Make: to('Rows'), Rows: to('Import') },
		settings: { executionOrder: 'v1' },
	};
}

const searchAll = {
	resource: 'property',
	operation: 'search',
	criteriaMode: 'json',
	criteriaJson: '[{"name":"State","value":["OR"]},{"name":"Pool","value":[1]}]',
	returnAll: true,
	fields: { include: ['PropID'] },
	chargeMode: 'purchase',
	maxCost: 5,
};
const getOne = {
	resource: 'property',
	operation: 'get',
	propId: 'P000777',
	chargeMode: 'purchase',
	maxCost: 5,
};

const sandboxCall = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
	(await call(sandbox.url, method, path, { body })).body as T;
const charges = async () => (await sandboxCharges(sandbox.url)).log;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
	stopList = (
		await sandboxCall<{ results: Array<{ ListID: number }> }>('POST', '/v1/lists', {
			ListName: 'Stopped import',
			ListType: 'import',
			ImportSource: 'api',
		})
	).results[0].ListID;
	const importList = async (name: string) =>
		(
			await sandboxCall<{ results: Array<{ ListID: number }> }>('POST', '/v1/lists', {
				ListName: name,
				ListType: 'import',
				ImportSource: 'api',
			})
		).results[0].ListID;
	perItemLists = [await importList('Per-item list A'), await importList('Per-item list B')];
	prepared = await n8n.prepare({
		sandboxUrl: sandbox.url,
		workflows: [
			workflow('PropRadarE2eMoney1', searchAll),
			workflow('PropRadarE2eMoney2', getOne, {
				retryOnFail: true,
				maxTries: 3,
				waitBetweenTries: 0,
			}),
			workflow('PropRadarE2eMoney3', getOne),
			stoppedImport(stopList),
			perItemListImport(perItemLists),
		],
	});
	host = await n8n.start(prepared);
	client = await n8n.login(host);
});

afterAll(async () => {
	await stopN8n(host, sandbox);
});

beforeEach(async () => {
	await sandboxCall('DELETE', '/_sandbox/faults');
});

test('a Return All purchase over Max Cost is refused before the first page: nothing charged', async () => {
	const before = (await charges()).length;
	// The run's error message (the description, with the figures, is in the engine tier's checks).
	await expect(n8n.runWorkflow(client, 'PropRadarE2eMoney1')).rejects.toThrow(
		/Purchase refused: over Max Cost/,
	);
	expect((await charges()).slice(before)).toEqual([]);
});

test('"Retry On Fail" on: the purchase is refused before anything is sent, however often n8n retries', async () => {
	// The purchase, if it were sent, would be charged and its answer lost.
	await sandboxCall('POST', '/_sandbox/faults', {
		path: '/v1/properties/P000777',
		query: { Purchase: '1' },
		when: 'after',
		drop: true,
		count: 5,
	});
	const before = (await charges()).length;
	await expect(n8n.runWorkflow(client, 'PropRadarE2eMoney2')).rejects.toThrow(
		/Purchase refused: "Retry On Fail" is on for this node/,
	);
	expect((await charges()).slice(before)).toEqual([]);
});

test("a purchase whose connection drops after the charge is charged once, and n8n shows the node's own words", async () => {
	await sandboxCall('POST', '/_sandbox/faults', {
		path: '/v1/properties/P000777',
		query: { Purchase: '1' },
		when: 'after',
		drop: true,
		count: 1,
	});
	const before = (await charges()).length;
	const failure = await n8n.runWorkflow(client, 'PropRadarE2eMoney3').then(
		() => new Error('the run succeeded'),
		(error: Error) => error,
	);
	expect(failure.message).toContain(
		'The connection to PropRadar failed during a purchase: it may have been charged',
	);
	expect(failure.message).not.toContain('You can retry the request immediately');
	expect((await charges()).slice(before)).toEqual([
		expect.objectContaining({ what: 'property P000777', quantity: 1 }),
	]);
});

test("an import that the workflow's timeout stops buys no further batch: n8n cancels the execution, and the node sends nothing more", async () => {
	// Each purchase takes 400 ms: the 20 batches would take 8 seconds, the timeout stops the execution after 2.
	await sandboxCall('POST', '/_sandbox/faults', {
		path: `/v1/lists/${stopList}/import/items`,
		method: 'POST',
		query: { Purchase: '1' },
		latencyMs: 400,
		count: 100,
	});
	await n8n.activate(client, 'PropRadarE2eMoney4');
	const before = (await charges()).length;
	try {
		const started = await until(
			'the webhook to be served',
			async () => {
				const response = await fetch(`${host.url}/webhook/${STOP_PATH}`, { method: 'POST' });
				return response.status === 200 ? true : undefined;
			},
			30_000,
			300,
		);
		expect(started).toBe(true);
		const filter = encodeURIComponent(JSON.stringify({ workflowId: 'PropRadarE2eMoney4' }));
		const execution = await until(
			'the execution to be stopped by its timeout',
			async () => {
				const { results } = (await client.rest('GET', `/executions?filter=${filter}&limit=1`)) as {
					results: Array<{ status: string }>;
				};
				return results[0]?.status === 'canceled' ? results[0] : undefined;
			},
			30_000,
			200,
		);
		expect(execution.status).toBe('canceled');
		// Long enough for all 20 batches, had the node gone on buying after the stop.
		await new Promise((resolve) => setTimeout(resolve, 10_000));
		const bought = (await charges())
			.slice(before)
			.filter((entry) => entry.what.endsWith(`into list ${stopList}`));
		expect(bought.length).toBeGreaterThan(0);
		expect(bought.length).toBeLessThan(STOP_RECORDS / 2);
	} finally {
		await n8n.deactivate(client, 'PropRadarE2eMoney4');
	}
});

test("the credential's ceiling holds across a Wait node and an n8n restart: what the execution spent before it waited counts after", async () => {
	const result = await ceilingAcrossWaitAndRestart(sandbox, prepared, host);
	host = result.host;
	client = await n8n.login(host);
	// Property > Get over several items buys them in one request of the search (its PropID criterion).
	expect(result.bought).toEqual(['property search, 3 properties']);
});

test("an import whose items name two import lists puts each record in its own item's list, and charges each once", async () => {
	const before = (await charges()).length;
	await n8n.runWorkflow(client, 'PropRadarE2eMoney5');
	const addresses = async (listId: number) =>
		(
			await sandboxCall<{ results: Array<{ Address: string }> }>(
				'GET',
				`/v1/lists/${listId}/import/items?Limit=100`,
			)
		).results
			.map((item) => item.Address)
			.sort();
	const [a, b] = perItemLists;
	const named = (list: string) =>
		PER_ITEM_ROWS.filter((row) => row.list === list)
			.map((row) => row.Address)
			.sort();
	expect(await addresses(a)).toEqual(named('A'));
	expect(await addresses(b)).toEqual(named('B'));
	const charged = (await charges()).slice(before);
	expect(charged.reduce((sum, entry) => sum + entry.quantity, 0)).toBe(4);
});
