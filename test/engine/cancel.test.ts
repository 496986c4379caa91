/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * An execution stopped while the node works (n8n's stop button, its API, or the workflow's
 * timeout: WorkflowExecute's `cancel`, which aborts the signal a node gets from
 * `getExecutionCancelSignal`). n8n reports the execution stopped at once and drops what the node
 * returns later, so from then on the node sends nothing: no further purchase, page or retry. A
 * purchase already on its way is aborted with it (n8n's request helper takes the same signal); the
 * service may have received it whole, and then charged it.
 */
import type { IDataObject } from 'n8n-workflow';

import { runNode, TOKENS } from '../support/harness';
import {
	chargedRecordsSince,
	createImportList,
	importInto,
	onSecondImportBatch,
	portlandRecords,
	sandboxCharges,
	useEngineSandbox,
} from '../support/helpers';
import { until } from '../support/until';

const sb = useEngineSandbox();
// A fault a test left unused must not strike the next one.
beforeEach(() => {
	sb.faults.length = 0;
});

const run = (
	parameters: IDataObject,
	items: IDataObject[],
	cancel: AbortSignal,
	continueOnFail = false,
) =>
	runNode(parameters, {
		credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
		items,
		cancel,
		continueOnFail,
	});

test('Import: stopped while its second batch is on its way, no further batch is sent or charged (the service charged the one it received)', async () => {
	const listId = await createImportList(sb, 'Stopped import');
	const stop = new AbortController();
	onSecondImportBatch(sb, listId, { beforeForward: async () => stop.abort() });
	const before = (await sandboxCharges(sb)).log.length;
	const sentBefore = sb.sent(`/v1/lists/${listId}/import/items`, 'POST').length;
	await run(
		importInto(listId, {
			mapping: 'auto',
			chargeMode: 'purchase',
			maxCost: 10,
			importOptions: { batchSize: 2 },
		}),
		portlandRecords(20, 'Stopped Way'),
		stop.signal,
	);
	const purchases = sb
		.sent(`/v1/lists/${listId}/import/items`, 'POST')
		.slice(sentBefore)
		.filter((request) => request.query.get('Purchase') === '1');
	expect(purchases).toHaveLength(2);
	expect(await chargedRecordsSince(sb, before)).toBe(4);
});

// Person > Get Owners works item by item (Property > Get over several items is read in batches, below).
test.each([false, true])(
	"item by item (On Error: Continue %s): stopped during the third item's purchase, no later item is bought",
	async (continueOnFail) => {
		const stop = new AbortController();
		const items = Array.from({ length: 8 }, (_, i) => ({
			id: `P000${String(611 + i + (continueOnFail ? 10 : 0))}`,
		}));
		sb.faults.push({
			method: 'GET',
			pathPrefix: '/v1/properties/',
			query: { Purchase: '1' },
			skip: 2,
			count: 1,
			beforeForward: async () => stop.abort(),
		});
		const before = (await sandboxCharges(sb)).log.length;
		const sentBefore = sb.requests.length;
		await run(
			{
				resource: 'person',
				operation: 'getOwners',
				propId: '={{ $json.id }}',
				chargeMode: 'purchase',
				maxCost: 10,
				itemConcurrency: 1,
			},
			items,
			stop.signal,
			continueOnFail,
		);
		const purchases = sb.requests
			.slice(sentBefore)
			.filter(
				(request) =>
					request.path.startsWith('/v1/properties/') && request.query.get('Purchase') === '1',
			);
		expect(purchases.map((request) => request.path)).toEqual(
			items.slice(0, 3).map(({ id }) => `/v1/properties/${id}/persons`),
		);
		expect((await sandboxCharges(sb)).log.slice(before)).toHaveLength(3);
	},
);

test("Property > Get over many items: stopped during the second batch's purchase, no later batch is bought", async () => {
	const stop = new AbortController();
	const items = Array.from({ length: 1050 }, (_, i) => ({ id: `P0${String(40001 + i)}` }));
	sb.faults.push({
		method: 'POST',
		pathPrefix: '/v1/properties',
		query: { Purchase: '1' },
		skip: 1,
		count: 1,
		beforeForward: async () => stop.abort(),
	});
	const before = (await sandboxCharges(sb)).log.length;
	const sentBefore = sb.requests.length;
	await run(
		{
			resource: 'property',
			operation: 'get',
			propId: '={{ $json.id }}',
			chargeMode: 'purchase',
			maxCost: 200,
		},
		items,
		stop.signal,
	);
	const purchases = sb.requests
		.slice(sentBefore)
		.filter((request) => request.query.get('Purchase') === '1');
	expect(purchases).toHaveLength(2);
	expect(await chargedRecordsSince(sb, before)).toBe(1000);
});

test('a read waiting to be repeated after a 503 is not repeated once the execution is stopped', async () => {
	const stop = new AbortController();
	sb.faults.push({
		method: 'GET',
		pathPrefix: '/v1/lists',
		count: 5,
		status: 503,
		headers: { 'retry-after': '2' },
		delayMs: 10,
	});
	const sentBefore = sb.requests.length;
	const reads = () =>
		sb.requests.slice(sentBefore).filter((request) => request.path === '/v1/lists');
	const running = run(
		{ resource: 'list', operation: 'getMany', returnAll: true },
		[{}],
		stop.signal,
	);
	// Stopped well inside the 2 s the 503 asks for, counted from the first read (not from the run's
	// start, which a loaded machine can delay past a fixed moment).
	await until('the first read', () => (reads().length > 0 ? true : undefined));
	setTimeout(() => stop.abort(), 300);
	await running;
	expect(
		sb.requests.slice(sentBefore).filter((request) => request.path === '/v1/lists'),
	).toHaveLength(1);
});

test('a read under way when the execution is stopped is not waited for', async () => {
	const stop = new AbortController();
	let release = () => {};
	const held = new Promise<void>((resolve) => (release = resolve));
	// The sandbox holds its answer until the run is over: a node that waited for it would never end.
	sb.faults.push({
		method: 'GET',
		pathPrefix: '/v1/lists',
		count: 1,
		beforeForward: async () => {
			stop.abort();
			await held;
		},
	});
	try {
		const result = await run(
			{ resource: 'list', operation: 'getMany', returnAll: true },
			[{}],
			stop.signal,
		);
		expect(result.items).toEqual([]);
	} finally {
		release();
	}
});
