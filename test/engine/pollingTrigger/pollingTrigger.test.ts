/**
 * PropRadar Polling Trigger, New Properties: each poll emits the properties added to the list since
 * the last one, each once, reading only free list items; polls run through n8n-core's poll
 * executor (pollHarness.ts) against the sandbox, with faults injected by the engine proxy.
 */
import type { IDataObject } from 'n8n-workflow';

import { sleep } from 'n8n-workflow';

import { OVERLAP_MS } from '../../../nodes/PropRadar/pollingTrigger/newProperties';
import { TOKENS } from '../../support/harness';
import { api, control, listRef, sandboxCharges, useEngineSandbox } from '../../support/helpers';
import { PollingWorkflow, type PollOutcome } from '../../support/pollHarness';

const sb = useEngineSandbox();

const credentials = () => ({ baseUrl: sb.url, accessToken: TOKENS.main });
const propId = (n: number) => `P${String(n).padStart(6, '0')}`;

async function staticList(name: string): Promise<number> {
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: name,
		ListType: 'static',
	});
	return created.body.results[0].ListID;
}

/** Adds properties to a static list straight in the sandox, as another PropRadar user would. */
async function addProperties(listId: number, numbers: number[]): Promise<void> {
	const answer = await api(sb, 'PUT', `/v1/lists/${listId}/items`, {
		Criteria: [{ name: 'PropID', value: numbers.map(propId) }],
	});
	if (answer.status !== 200) throw new Error(`PUT items: ${JSON.stringify(answer.body)}`);
}

function trigger(listId: number, parameters: IDataObject = {}): PollingWorkflow {
	return new PollingWorkflow(credentials(), { listId: listRef(listId), ...parameters });
}

const emitted = (outcome: PollOutcome) => (outcome.items ?? []).map((item) => item.PropID);

/** Every request the proxy forwarded or faulted since `from`, as "METHOD path". */
const requestsSince = (from: number) =>
	sb.requests.slice(from).map((request) => `${request.method} ${request.path}`);

test('activation emits nothing and records where it starts; each property added later is emitted once, with the chosen fields, and nothing is charged', async () => {
	const listId = await staticList('poll: new properties');
	await addProperties(listId, [101, 102]);
	const charges = (await sandboxCharges(sb)).log.length;
	const sent = sb.requests.length;
	const workflow = trigger(listId, { fields: { include: ['City', 'AVM'] } });

	const activation = await workflow.activate();
	expect(activation).toEqual({});
	await addProperties(listId, [103, 104]);
	const first = await workflow.poll();
	expect(first.error).toBeUndefined();
	expect(first.items).toEqual([
		{ PropID: propId(103), City: expect.any(String), AVM: expect.any(Number) },
		{ PropID: propId(104), City: expect.any(String), AVM: expect.any(Number) },
	]);
	expect(await workflow.poll()).toEqual({});
	await addProperties(listId, [105]);
	expect(emitted(await workflow.poll())).toEqual([propId(105)]);

	// Only free reads of this list went out: no webhook, no automation, no purchase.
	expect(new Set(requestsSince(sent))).toEqual(new Set([`GET /v1/lists/${listId}/items`]));
	expect(sb.requests.slice(sent).some((request) => request.query.has('Purchase'))).toBe(false);
	expect((await sandboxCharges(sb)).log.length).toBe(charges);
	expect(
		(await api<{ results: unknown[] }>(sb, 'GET', '/v1/integrations/webhooks')).body.results,
	).toEqual([]);
});

/** The API calls the sandbox received since `from` (its request log), as "METHOD path". */
async function sandboxRequestsSince(from: number): Promise<string[]> {
	const log = await control<{ results: Array<{ method: string; path: string }> }>(
		sb,
		'GET',
		'/_sandbox/requests',
	);
	return log.body.results.slice(from).map((request) => `${request.method} ${request.path}`);
}

/**
 * n8n's clock, as the node reads it (`Date.now`), set so that the next poll's overlap begins at
 * `at` (the sandbox stamps items with its own `new Date()`, which this leaves alone).
 */
function overlapFrom(at: number): () => void {
	const realNow = Date.now.bind(Date);
	const offset = at + OVERLAP_MS - realNow();
	const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
	return () => clock.mockRestore();
}

test("a poll that finds nothing new reads once: one GET of the list items in the sandbox's request log", async () => {
	const listId = await staticList('poll: reads once');
	await addProperties(
		listId,
		Array.from({ length: 10 }, (_, i) => 1101 + i),
	);
	await sleep(20);
	const afterOlder = Date.now();
	const workflow = trigger(listId);
	expect(await workflow.activate()).toEqual({});
	await sleep(1_500);
	// The ten older items fall before the overlap of the polls below; the two added now within it.
	const restore = overlapFrom(afterOlder);
	try {
		await addProperties(listId, [1111, 1112]);
		expect(emitted(await workflow.poll())).toEqual([propId(1111), propId(1112)]);
		for (let poll = 0; poll < 2; poll++) {
			const from = (await sandboxRequestsSince(0)).length;
			expect(await workflow.poll()).toEqual({});
			expect(await sandboxRequestsSince(from)).toEqual([`GET /v1/lists/${listId}/items`]);
		}
		await addProperties(listId, [1113]);
		expect(emitted(await workflow.poll())).toEqual([propId(1113)]);
	} finally {
		restore();
	}
});

test('with Split Into Items off, a poll that finds new properties emits one item holding them all', async () => {
	const listId = await staticList('poll: one item');
	const workflow = trigger(listId, { options: { splitIntoItems: false } });
	await workflow.activate();
	await addProperties(listId, [201, 202, 203]);
	const outcome = await workflow.poll();
	expect(outcome.items).toEqual([
		{
			listId,
			properties: [{ PropID: propId(201) }, { PropID: propId(202) }, { PropID: propId(203) }],
		},
	]);
	expect(await workflow.poll()).toEqual({});
});

test('"Fetch Test Event" shows real properties of the list and moves nothing on: the next poll still emits what is new', async () => {
	const listId = await staticList('poll: test event');
	const workflow = trigger(listId);
	await workflow.activate();
	await addProperties(listId, [301, 302]);
	const test = await workflow.fetchTestEvent();
	expect(test.error).toBeUndefined();
	expect(emitted(test)).toEqual([propId(301), propId(302)]);
	expect(emitted(await workflow.poll())).toEqual([propId(301), propId(302)]);
});

test('"Fetch Test Event" on an empty list says so', async () => {
	const listId = await staticList('poll: empty');
	const outcome = await trigger(listId).fetchTestEvent();
	expect(outcome.error?.message).toBe(
		`List ${listId} has no properties yet, so there is no event to show`,
	);
});

test('a property added while a poll reads the list is emitted once: by that poll or the next', async () => {
	const listId = await staticList('poll: during a read');
	const workflow = trigger(listId);
	await workflow.activate();
	await addProperties(listId, [401]);
	// Added once the poll has begun, just before its read reaches PropRadar.
	sb.faults.push({
		method: 'GET',
		pathPrefix: `/v1/lists/${listId}/items`,
		count: 1,
		beforeForward: async () => await addProperties(listId, [402]),
	});
	const polls = [await workflow.poll(), await workflow.poll(), await workflow.poll()];
	expect(polls.flatMap(emitted).sort()).toEqual([propId(401), propId(402)]);
});

test('a poll that fails (5xx, 429 or a dropped connection, past the retries) emits nothing and loses nothing: the next poll emits what was added', async () => {
	const listId = await staticList('poll: faults');
	const workflow = trigger(listId);
	await workflow.activate();
	const items = `/v1/lists/${listId}/items`;
	const faults = [
		{ status: 503 },
		// A 429 that says when to come back is waited out up to 10 times (docs/performance.md).
		{ status: 429, headers: { 'Retry-After': '0' }, count: 10 },
		{ drop: true },
	];
	let next = 501;
	for (const fault of faults) {
		await addProperties(listId, [next, next + 1]);
		sb.faults.push({ method: 'GET', pathPrefix: items, count: 4, ...fault });
		const failed = await workflow.poll();
		expect(failed.items).toBeUndefined();
		expect(failed.error).toBeDefined();
		expect(emitted(await workflow.poll())).toEqual([propId(next), propId(next + 1)]);
		next += 2;
	}
});

test('a deleted list gives an error that names it, at activation and at a poll', async () => {
	const listId = await staticList('poll: deleted');
	const workflow = trigger(listId);
	await workflow.activate();
	await api(sb, 'DELETE', `/v1/lists/${listId}`);
	const outcome = await workflow.poll();
	expect(outcome.items).toBeUndefined();
	expect(outcome.error?.message).toContain(`List ${listId}`);
	const again = await trigger(listId).activate();
	expect(again.error?.message).toContain(`List ${listId}`);
});

test('another list chosen starts from the moment it is chosen: nothing of the new list is emitted for what it held before', async () => {
	const first = await staticList('poll: first list');
	const second = await staticList('poll: second list');
	await addProperties(second, [601]);
	const workflow = trigger(first);
	await workflow.activate();
	workflow.edit({ listId: listRef(second) });
	expect(await workflow.activate()).toEqual({});
	await addProperties(second, [602]);
	expect(emitted(await workflow.poll())).toEqual([propId(602)]);
});

test('a list ID that is no list ID is refused before anything is sent', async () => {
	const sent = sb.requests.length;
	const outcome = await new PollingWorkflow(credentials(), { listId: listRef('12a') }).activate();
	expect(outcome.error?.message).toBe(
		'List: "12a" is not a list ID; a list ID is a positive whole number',
	);
	expect(sb.requests.length).toBe(sent);
});

test('an unmonitored dynamic list: its new matches are emitted, and monitoring stays off', async () => {
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: 'poll: dynamic',
		ListType: 'dynamic',
		Criteria: [{ name: 'ZipFive', value: [97202] }],
	});
	const listId = created.body.results[0].ListID;
	const workflow = trigger(listId);
	await workflow.activate();
	const matches: string[] = [];
	for (let i = 0; i < 2; i++) {
		const match = await control<{ PropID: string }>(sb, 'POST', '/_sandbox/simulate/new-match', {
			ListID: listId,
		});
		matches.push(match.body.PropID);
	}
	expect(emitted(await workflow.poll())).toEqual(matches);
	const list = await api<{ results: Array<{ isMonitored: number }> }>(
		sb,
		'GET',
		`/v1/lists/${listId}?Fields=isMonitored`,
	);
	expect(list.body.results[0].isMonitored).toBe(0);
});

test('over 200 properties added across polls, with failed polls, retried reads, properties added during reads and three restarts of n8n (whose first polls fail): each is emitted exactly once, and nothing is charged', async () => {
	const listId = await staticList('poll: 200');
	const charges = (await sandboxCharges(sb)).log.length;
	const workflow = trigger(listId);
	expect(await workflow.activate()).toEqual({});
	const items = `/v1/lists/${listId}/items`;
	const added: string[] = [];
	const emittedIds: string[] = [];
	let next = 1001;
	const add = async (count: number) => {
		const numbers = Array.from({ length: count }, (_, i) => next + i);
		next += count;
		await addProperties(listId, numbers);
		added.push(...numbers.map(propId));
	};
	let failed = 0;
	for (let round = 0; round < 24; round++) {
		await add(5);
		await add(3);
		// Every round one more is added once the poll has begun, just before its read reaches PropRadar.
		const during = next++;
		sb.faults.push({
			method: 'GET',
			pathPrefix: items,
			count: 1,
			beforeForward: async () => {
				await addProperties(listId, [during]);
				added.push(propId(during));
			},
		});
		// Faults on the read after the first (a list's second page): a failed poll (past the
		// transport's retries), or a read retried once, in turn.
		if (round % 4 === 1)
			sb.faults.push({ method: 'GET', pathPrefix: items, count: 4, status: 503 });
		if (round % 4 === 2) sb.faults.push({ method: 'GET', pathPrefix: items, count: 1, drop: true });
		if (round % 4 === 3)
			sb.faults.push({
				method: 'GET',
				pathPrefix: items,
				count: 1,
				status: 429,
				headers: { 'Retry-After': '0' },
			});
		const outcome = round % 8 === 5 ? await workflow.restart() : await workflow.poll();
		if (outcome.error) failed++;
		emittedIds.push(...emitted(outcome).map(String));
		sb.faults.length = 0;
	}
	emittedIds.push(...emitted(await workflow.poll()).map(String));

	expect(added.length).toBeGreaterThanOrEqual(200);
	expect(failed).toBeGreaterThan(0);
	const duplicated = emittedIds.filter((id, index) => emittedIds.indexOf(id) !== index);
	const lost = added.filter((id) => !emittedIds.includes(id));
	expect({ lost, duplicated }).toEqual({ lost: [], duplicated: [] });
	expect(emittedIds.length).toBe(added.length);
	expect((await sandboxCharges(sb)).log.length).toBe(charges);
	// What it keeps stays small: the PropIDs read in the last ten minutes, each with a time.
	expect(Object.keys(workflow.staticData.seen as IDataObject).length).toBe(added.length);
});
