/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Requests in flight (docs/performance.md, "Requests in flight"), through n8n-core's engine
 * against the sandbox: a run has at most 50 requests under way, however many items and pages it
 * reads at once, and sends the next as one is answered; Return All asks for a
 * whole list's pages together once it knows how many there are, and keeps their order; above a
 * service's rate (the sandbox answering 429) the run slows down and finishes. No timings: what is
 * checked is what was sent, how many at once, and what came out.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	addToList,
	api,
	control,
	createList,
	getOwnersPreview,
	listRef,
	pairedIndex,
	run,
	runOk,
	useEngineSandbox,
} from '../support/helpers';

jest.setTimeout(120_000);

const sb = useEngineSandbox();
beforeEach(() => {
	sb.faults.length = 0;
	sb.requests.length = 0;
});

const propIds = (count: number, from = 1) =>
	Array.from({ length: count }, (_, i) => `P${String(from + i).padStart(6, '0')}`);
// One request per item (Property > Get over several items is read in batches: property/get.batched.test.ts).
const getOwners = getOwnersPreview;

/** Holds every request to `pathPrefix` for `holdMs` before forwarding it, and counts how many were held at once. */
function heldRequests(pathPrefix: string, count: number, holdMs: number) {
	let inFlight = 0;
	let max = 0;
	sb.faults.push({
		pathPrefix,
		count,
		beforeForward: async () => {
			max = Math.max(max, ++inFlight);
			await new Promise((resolve) => setTimeout(resolve, holdMs));
			inFlight--;
		},
	});
	return { maxInFlight: () => max };
}

let bigList: number;
let bigListIds: string[];
beforeAll(async () => {
	// Three pages of 1,000 (the largest the endpoint takes), the last short.
	bigList = await createList(sb, { listName: 'Three pages', listType: 'static' });
	for (let from = 1; from <= 2_100; from += 700)
		await addToList(sb, bigList, propIds(Math.min(700, 2_101 - from), from).join(','));
	const read: string[] = [];
	for (let start = 0; start < 2_100; start += 1_000) {
		const page = await api<{ results: IDataObject[] }>(
			sb,
			'GET',
			`/v1/lists/${bigList}/items?Start=${start}&Limit=1000&Fields=PropID`,
		);
		read.push(...page.body.results.map((item) => String(item.PropID)));
	}
	bigListIds = read;
	expect(bigListIds).toHaveLength(2_100);
});

const readBigList = {
	resource: 'listItem',
	operation: 'getMany',
	listId: '={{ $json.listId }}',
	returnAll: true,
	fields: { include: ['PropID'] },
};

describe('requests in flight', () => {
	test('a run has 50 requests under way at most, and sends no more until one is answered', async () => {
		let arrived = 0;
		let release = () => {};
		const released = new Promise<void>((resolve) => (release = resolve));
		let arrivedBeforeRelease = 0;
		sb.faults.push({
			pathPrefix: '/v1/properties/',
			count: 60,
			beforeForward: async () => {
				if (++arrived === 50)
					// Time for an eleventh to arrive if one were sent without an answer.
					setTimeout(() => {
						arrivedBeforeRelease = arrived;
						release();
					}, 300);
				await released;
			},
		});
		const output = await run(
			sb,
			getOwners,
			propIds(60, 201).map((id) => ({ id })),
		);
		expect(output.error).toBeUndefined();
		expect(arrivedBeforeRelease).toBe(50);
		expect(output.items.map(pairedIndex)).toEqual(Array.from({ length: 60 }, (_, i) => i));
	});

	test('Get Owners of 150 items: more than 10 under way, never more than 50; the output keeps input order', async () => {
		const held = heldRequests('/v1/properties/', 150, 100);
		const items = propIds(150, 301).map((id) => ({ id }));
		const output = await run(sb, getOwners, items);
		expect(output.error).toBeUndefined();
		expect(held.maxInFlight()).toBeGreaterThan(10);
		expect(held.maxInFlight()).toBeLessThanOrEqual(50);
		expect(sb.sent('/v1/properties/')).toHaveLength(150);
		expect(output.items.map(pairedIndex)).toEqual(items.map((_, index) => index));
		expect(output.json.map((item) => item.PropID)).toEqual(items.map((item) => item.id));
	});

	test("Return All asks for a whole list's pages together once its TotalCount is known, no page more, in the list's order", async () => {
		let laterPages = 0;
		let bothAsked = () => {};
		const asked = new Promise<void>((resolve) => (bothAsked = resolve));
		let heldTogether = 0;
		sb.faults.push({
			method: 'GET',
			pathPrefix: `/v1/lists/${bigList}/items`,
			count: 3,
			skip: 1,
			// Pages 2 and 3 are held until both have come: they can only both come if they were sent together.
			beforeForward: async () => {
				heldTogether = Math.max(heldTogether, ++laterPages);
				if (laterPages === 2) bothAsked();
				await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 5_000))]);
			},
		});
		const records = await runOk(sb, { ...readBigList, listId: listRef(bigList) });
		expect(heldTogether).toBe(2);
		expect(records.map((record) => record.PropID)).toEqual(bigListIds);
		const pages = sb.sent(`/v1/lists/${bigList}/items`, 'GET');
		expect(pages.map((page) => page.query.get('Start'))).toEqual(['0', '1000', '2000']);
		expect(pages.map((page) => page.query.get('Limit'))).toEqual(['1000', '1000', '1000']);
	});

	test('60 items each reading a three-page list at once: never more than 50 requests under way, each item its whole list in order', async () => {
		const held = heldRequests('/v1/lists/', 60 * 4, 100);
		const items = Array.from({ length: 60 }, () => ({ listId: bigList }));
		const output = await run(sb, { ...readBigList, itemConcurrency: 50 }, items);
		expect(output.error).toBeUndefined();
		expect(held.maxInFlight()).toBeGreaterThan(10);
		expect(held.maxInFlight()).toBeLessThanOrEqual(50);
		// Each item: its list's TotalCount and three pages.
		expect(sb.sent('/v1/lists/')).toHaveLength(60 * 4);
		expect(output.json).toHaveLength(60 * 2_100);
		for (let item = 0; item < 60; item += 1) {
			const own = output.items.slice(item * 2_100, (item + 1) * 2_100);
			expect(own.every((record) => pairedIndex(record) === item)).toBe(true);
			expect(own.map((record) => record.json.PropID)).toEqual(bigListIds);
		}
	});

	test("above the service's rate (429 with Retry-After), a run slows down and finishes: every item read, nothing failed", async () => {
		await control(sb, 'POST', '/_sandbox/rate-limit', { perSecond: 20, burst: 5 });
		try {
			const items = propIds(40, 501).map((id) => ({ id }));
			const output = await run(sb, getOwners, items);
			expect(output.error).toBeUndefined();
			expect(output.json.map((item) => item.PropID)).toEqual(items.map((item) => item.id));
			expect(output.json.every((item) => item.error === undefined)).toBe(true);
			const { body } = await control<{ refused: number }>(sb, 'GET', '/_sandbox/rate-limit');
			// The service did refuse some (the run's first requests are more than its burst) ...
			expect(body.refused).toBeGreaterThan(0);
			// ... and each refusal was followed by the same request again, after its Retry-After.
			expect(sb.sent('/v1/properties/')).toHaveLength(40 + body.refused);
		} finally {
			await control(sb, 'POST', '/_sandbox/rate-limit', { perSecond: null });
		}
	});
});
