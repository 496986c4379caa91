/**
 * PropRadar Polling Trigger, Changes in Properties: each poll reads the list with the watched
 * fields and emits the properties whose values changed since the last poll (before and after) and
 * those that left the list; what it keeps is bounded. Polls run through n8n-core's poll executor
 * (pollHarness.ts) against the sandbox; the sandbox's control route changes properties.
 */
import type { IDataObject } from 'n8n-workflow';

import { MAX_WATCHED_PROPERTIES } from '../../../nodes/PropRadar/pollingTrigger/newProperties';
import { TOKENS } from '../../support/harness';
import { api, control, listRef, sandboxCharges, useEngineSandbox } from '../../support/helpers';
import { PollingWorkflow } from '../../support/pollHarness';

const sb = useEngineSandbox();

const propId = (n: number) => `P${String(n).padStart(6, '0')}`;
const WATCHED = ['ListingStatus', 'ForeclosureStage', 'LastTransferRecDate', 'ListingPrice'];

async function staticList(name: string, numbers: number[]): Promise<number> {
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: name,
		ListType: 'static',
	});
	const listId = created.body.results[0].ListID;
	if (numbers.length > 0) {
		const added = await api(sb, 'PUT', `/v1/lists/${listId}/items`, {
			Criteria: [{ name: 'PropID', value: numbers.map(propId) }],
		});
		if (added.status !== 200) throw new Error(`PUT items: ${JSON.stringify(added.body)}`);
	}
	return listId;
}

function watching(listId: number, parameters: IDataObject = {}): PollingWorkflow {
	return new PollingWorkflow(
		{ baseUrl: sb.url, accessToken: TOKENS.main },
		{ listId: listRef(listId), watch: 'changes', watchedFields: WATCHED, ...parameters },
	);
}

async function change(number: number, kind: string, to?: unknown): Promise<void> {
	const answer = await control(sb, 'POST', '/_sandbox/simulate/change', {
		PropID: propId(number),
		change: kind,
		...(to === undefined ? {} : { to }),
	});
	if (answer.status !== 200) throw new Error(`change: ${JSON.stringify(answer.body)}`);
}

/** A property's watched values as a list item read gives them. */
async function valuesOf(listId: number, number: number): Promise<IDataObject> {
	const { body } = await api<{ results: IDataObject[] }>(
		sb,
		'GET',
		`/v1/lists/${listId}/items?Fields=PropID,${WATCHED.join(',')}&Limit=1000`,
	);
	return body.results.find((record) => record.PropID === propId(number))!;
}

test('changed values are emitted with their values before and after, a property that left the list too, each once; nothing is charged', async () => {
	const listId = await staticList('changes: basic', [11, 12, 13, 14]);
	const charges = (await sandboxCharges(sb)).log.length;
	const sent = sb.requests.length;
	const workflow = watching(listId);
	expect(await workflow.activate()).toEqual({});

	const before11 = await valuesOf(listId, 11);
	const before12 = await valuesOf(listId, 12);
	await change(11, 'listing', 'Pending');
	await change(12, 'price', 123_000);
	const before14 = await valuesOf(listId, 14);
	await api(sb, 'DELETE', `/v1/lists/${listId}/items/${propId(14)}`);

	const outcome = await workflow.poll();
	expect(outcome.error).toBeUndefined();
	expect(outcome.items).toEqual([
		{
			PropID: propId(11),
			change: 'changed',
			// A listing brings its price (the sandbox's listing change).
			before: {
				ListingStatus: before11.ListingStatus ?? null,
				ListingPrice: before11.ListingPrice ?? null,
			},
			after: { ListingStatus: 'Pending', ListingPrice: expect.any(Number) },
		},
		{
			PropID: propId(12),
			change: 'changed',
			before: { ListingPrice: before12.ListingPrice ?? null },
			after: { ListingPrice: 123_000 },
		},
		{
			PropID: propId(14),
			change: 'left',
			before: Object.fromEntries(WATCHED.map((field) => [field, before14[field] ?? null])),
		},
	]);
	expect(await workflow.poll()).toEqual({});

	expect(
		new Set(sb.requests.slice(sent).map((request) => `${request.method} ${request.path}`)),
	).toEqual(new Set([`GET /v1/lists/${listId}`, `GET /v1/lists/${listId}/items`]));
	expect((await sandboxCharges(sb)).log.length).toBe(charges);
});

test('a poll that fails emits nothing and loses nothing: the next poll emits the change', async () => {
	const listId = await staticList('changes: fault', [21, 22]);
	const workflow = watching(listId, { options: { splitIntoItems: false } });
	await workflow.activate();
	await change(21, 'foreclosure', 'Auction');
	sb.faults.push({
		method: 'GET',
		pathPrefix: `/v1/lists/${listId}/items`,
		count: 4,
		status: 502,
	});
	const failed = await workflow.poll();
	expect(failed.items).toBeUndefined();
	expect(failed.error).toBeDefined();
	const outcome = await workflow.poll();
	expect(outcome.items).toEqual([
		{
			listId,
			properties: [
				expect.objectContaining({
					PropID: propId(21),
					change: 'changed',
					after: { ForeclosureStage: 'Auction' },
				}),
			],
		},
	]);
});

test(`a list of more than ${MAX_WATCHED_PROPERTIES} properties is refused at activation, saying why`, async () => {
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: 'changes: too large',
		ListType: 'dynamic',
		Criteria: [{ name: 'State', value: ['OR'] }],
	});
	const listId = created.body.results[0].ListID;
	const sent = sb.requests.length;
	const outcome = await watching(listId).activate();
	expect(outcome.error?.message).toMatch(
		new RegExp(
			`^List ${listId} holds \\d+ properties: Changes in Properties watches lists of at most ${MAX_WATCHED_PROPERTIES}$`,
		),
	);
	// Refused on the list's count alone: not one of its items was read.
	expect(sb.sent(`/v1/lists/${listId}/items`).length).toBe(0);
	expect(sb.requests.length).toBe(sent + 1);
});

test('what it keeps between polls stays under 100 bytes a property with four watched fields', async () => {
	const numbers = Array.from({ length: 400 }, (_, i) => 1001 + i * 7);
	const listId = await staticList('changes: size', numbers);
	const workflow = watching(listId);
	expect(await workflow.activate()).toEqual({});
	const values = workflow.staticData.values as IDataObject;
	expect(Object.keys(values)).toHaveLength(numbers.length);
	const bytesPerProperty = JSON.stringify(workflow.staticData).length / numbers.length;
	expect(bytesPerProperty).toBeLessThan(100);
});

test('Fields to Watch naming no property field is refused, naming it, before anything is sent', async () => {
	const sent = sb.requests.length;
	const outcome = await watching(1, { watchedFields: ['ListingStatus', 'Nope'] }).activate();
	expect(outcome.error?.message).toBe(
		'Fields to Watch: Nope is not a property field of a list item',
	);
	const none = await watching(1, { watchedFields: [] }).activate();
	expect(none.error?.message).toBe('Fields to Watch: choose 1 to 10 fields; 0 chosen');
	expect(sb.requests.length).toBe(sent);
});

test('"Fetch Test Event" shows up to five properties in the shape of a change and keeps nothing', async () => {
	const listId = await staticList('changes: test event', [31, 32, 33, 34, 35, 36]);
	const workflow = watching(listId);
	await workflow.activate();
	const kept = JSON.stringify(workflow.staticData);
	const test = await workflow.fetchTestEvent();
	expect(test.error).toBeUndefined();
	expect(test.items).toHaveLength(5);
	for (const item of test.items!) {
		expect(item).toEqual({
			PropID: expect.any(String),
			change: 'changed',
			before: item.after,
			after: expect.any(Object),
		});
		expect(Object.keys(item.after as IDataObject)).toEqual(WATCHED);
	}
	expect(JSON.stringify(workflow.staticData)).toBe(kept);
	await change(36, 'price', 99_000);
	expect((await workflow.poll()).items).toEqual([
		expect.objectContaining({ PropID: propId(36), after: { ListingPrice: 99_000 } }),
	]);
});

test('switching a trigger from New Properties to Changes in Properties starts afresh: that poll emits nothing, the next the changes', async () => {
	const listId = await staticList('changes: switched', [41, 42]);
	const workflow = new PollingWorkflow(
		{ baseUrl: sb.url, accessToken: TOKENS.main },
		{ listId: listRef(listId) },
	);
	await workflow.activate();
	workflow.edit({ watch: 'changes', watchedFields: WATCHED });
	await change(41, 'listing', 'Active');
	expect(await workflow.activate()).toEqual({});
	expect(workflow.staticData).not.toHaveProperty('seen');
	await change(42, 'price', 77_000);
	expect((await workflow.poll()).items).toEqual([
		expect.objectContaining({ PropID: propId(42), after: { ListingPrice: 77_000 } }),
	]);
});
