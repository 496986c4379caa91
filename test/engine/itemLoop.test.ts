/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * The item loop and the transport under load, through n8n-core's engine against the sandbox: the
 * credential is read once per node run, Items at Once runs items side by side and keeps input order
 * and pairing, "On Error: Continue" fails only the failed item, and Return All reads each
 * endpoint's largest page. No timings: what is checked is what was sent and what came out.
 */
import type { IDataObject } from 'n8n-workflow';

import { TestCredentialsHelper, TOKENS } from '../support/harness';
import {
	api,
	createList,
	getOwnersPreview,
	listRef,
	pairedIndex,
	run,
	runOk,
	sandboxImportList,
	useEngineSandbox,
} from '../support/helpers';

jest.setTimeout(60_000);

const sb = useEngineSandbox();
beforeEach(() => {
	sb.faults.length = 0;
	sb.requests.length = 0;
});

const ids = (count: number, from = 201) =>
	Array.from({ length: count }, (_, i) => ({ id: `P${String(from + i).padStart(6, '0')}` }));
// One request per item (Property > Get over several items is read in batches: property/get.batched.test.ts).
const getOwners = getOwnersPreview;
/** Runs with "On Error: Continue". */
const continuing = (parameters: IDataObject, items: IDataObject[]) =>
	run(sb, parameters, items, undefined, true);

/**
 * Holds every request to `pathPrefix` for a while before forwarding it, the first ones longest (so
 * later items finish first), and counts how many were held at once.
 */
function slowRequests(pathPrefix: string, count: number): { maxInFlight: () => number } {
	let inFlight = 0;
	let max = 0;
	let seen = 0;
	sb.faults.push({
		pathPrefix,
		count,
		beforeForward: async () => {
			const wait = Math.max(5, 60 - 5 * seen++);
			inFlight++;
			max = Math.max(max, inFlight);
			await new Promise((resolve) => setTimeout(resolve, wait));
			inFlight--;
		},
	});
	return { maxInFlight: () => max };
}

/**
 * Holds the next `count` requests to `pathPrefix` in groups: each request waits until `atOnce` are
 * held (or as many as are left of `count`), then the group is answered, the last to come first (so
 * later items finish first). Counts the most requests the proxy had under way when one came. A node
 * that keeps fewer under way than `atOnce` is let go after a bound against a hang (and then shows
 * fewer); one that sends more than `atOnce` is given a moment to show it before a group goes.
 * Unlike `slowRequests`, nothing depends on how fast the machine is: a group waits for its
 * requests, not for a clock.
 */
function holdRequests(
	pathPrefix: string,
	count: number,
	atOnce: number,
): { maxInFlight: () => number } {
	let max = 0;
	let left = count;
	let group: Array<() => void> = [];
	let bound: NodeJS.Timeout | undefined;
	const release = () => {
		clearTimeout(bound);
		bound = undefined;
		const released = group.reverse();
		group = [];
		for (const answer of released) answer();
	};
	sb.faults.push({
		pathPrefix,
		count,
		beforeForward: () =>
			new Promise<void>((answer) => {
				max = Math.max(max, sb.inFlight());
				group.push(answer);
				left--;
				bound ??= setTimeout(release, 10_000);
				if (group.length === Math.min(atOnce, group.length + left)) setTimeout(release, 100);
			}),
	});
	return { maxInFlight: () => max };
}

describe('the credential', () => {
	test('is loaded and decrypted once per node run, not for every request, and authenticates every request', async () => {
		const getDecrypted = jest.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
		try {
			const output = await runOk(sb, getOwners, ids(20));
			expect(output).toHaveLength(20);
			expect(sb.requests).toHaveLength(20);
			expect(
				sb.requests.every((request) => request.authorization === `Bearer ${TOKENS.main}`),
			).toBe(true);
			expect(getDecrypted).toHaveBeenCalledTimes(1);
		} finally {
			getDecrypted.mockRestore();
		}
	});

	test('a token read once is still redacted from every error', async () => {
		sb.faults.push({ pathPrefix: '/v1/properties/', count: 3, skip: 1, status: 400, echo: true });
		const result = await continuing(getOwners, ids(4));
		const errors = result.json.filter((item) => item.error);
		expect(errors).toHaveLength(3);
		expect(JSON.stringify(result.json)).not.toContain(TOKENS.main);
	});
});

describe('Items at Once', () => {
	test('works on many items at the same time by default, with at least 10 of 12 requests under way (at most 50 a run: test/engine/inFlight.test.ts); the output keeps input order and pairing', async () => {
		const slow = holdRequests('/v1/properties/', 12, 10);
		const output = await run(sb, getOwners, ids(12));
		expect(output.error).toBeUndefined();
		expect(slow.maxInFlight()).toBeGreaterThanOrEqual(10);
		expect(output.json.map((item) => item.PropID)).toEqual(ids(12).map((item) => item.id));
		expect(output.items.map(pairedIndex)).toEqual(ids(12).map((_, index) => index));
	});

	test('follows the option, down to one item at a time', async () => {
		const three = holdRequests('/v1/properties/', 8, 3);
		await runOk(sb, { ...getOwners, itemConcurrency: 3 }, ids(8));
		expect(three.maxInFlight()).toBe(3);
		sb.faults.length = 0;
		const one = holdRequests('/v1/properties/', 4, 1);
		await runOk(sb, { ...getOwners, itemConcurrency: 1 }, ids(4));
		expect(one.maxInFlight()).toBe(1);
	});

	test('with "On Error: Continue", only the item that failed becomes an error item', async () => {
		holdRequests('/v1/properties/', 8, 8);
		const items = ids(8);
		items[3] = { id: 'P999999' };
		const result = await continuing(getOwners, items);
		expect(result.error).toBeUndefined();
		expect(result.items.map(pairedIndex)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
		expect(result.json.map((item) => Boolean(item.error))).toEqual([
			false,
			false,
			false,
			true,
			false,
			false,
			false,
			false,
		]);
		expect(result.json[3].httpCode).toBe('404');
	});

	test('without "On Error: Continue" and nothing bought, the failed item is the node\'s error', async () => {
		const items = ids(6);
		items[2] = { id: 'P999999' };
		const result = await run(sb, getOwners, items);
		expect(result.error?.httpCode).toBe('404');
	});

	test('Purchase mode buys one item at a time unless Buy Items at Once is on', async () => {
		// One at a time: a second request while one is held would show.
		const slow = holdRequests('/v1/properties/', 8, 1);
		const result = await run(sb, { ...getOwners, chargeMode: 'purchase', maxCost: 5 }, ids(4, 701));
		expect(result.error).toBeUndefined();
		expect(slow.maxInFlight()).toBe(1);
	});

	test("every request goes on a connection of its own (n8n's request helper opens one each), so no purchase shares one with another request", async () => {
		const before = sb.connections();
		const result = await run(sb, { ...getOwners, chargeMode: 'purchase', maxCost: 5 }, ids(3, 801));
		expect(result.error).toBeUndefined();
		const purchases = sb.requests.filter((request) => request.query.get('Purchase') === '1');
		expect(purchases).toHaveLength(3);
		// The run's quotes first (a purchase of several items is quoted whole), then each item's quote and purchase.
		expect(sb.requests).toHaveLength(9);
		expect(new Set(sb.requests.map((request) => request.connection)).size).toBe(9);
		expect(sb.connections() - before).toBe(9);
	});

	test('Items at Once 50 has up to 50 requests under way once the service keeps up', async () => {
		let inFlight = 0;
		let maxInFlight = 0;
		sb.faults.push({
			pathPrefix: '/v1/properties/',
			count: 200,
			beforeForward: async () => {
				maxInFlight = Math.max(maxInFlight, ++inFlight);
				await new Promise((resolve) => setTimeout(resolve, 150));
				inFlight--;
			},
		});
		// The run's window starts at 10 and grows with every answer: 10, 20, 40, then 50 at most.
		await runOk(sb, { ...getOwners, itemConcurrency: 50 }, ids(200, 601));
		expect(maxInFlight).toBeGreaterThan(40);
		expect(maxInFlight).toBeLessThanOrEqual(50);
	});

	test.each([
		[0, '0'],
		[51, '51'],
		[2.5, '2.5'],
		['many', 'many'],
		['={{ "many" }}', 'many'],
	])('%p is refused naming the field, before anything is sent', async (value, shown) => {
		const result = await run(sb, { ...getOwners, itemConcurrency: value }, ids(2));
		expect(result.error?.message).toBe(
			`Items at Once: must be a whole number from 1 to 50, got "${shown}"`,
		);
		expect(sb.requests).toHaveLength(0);
	});

	test('digits in text from an expression are a number, as for every number field', async () => {
		const result = await run(sb, { ...getOwners, itemConcurrency: '={{ "5" }}' }, ids(2));
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(2);
	});
});

describe('output items', () => {
	test('each record is one output item as the service sent it, a field named `json` too', async () => {
		// A field the documents do not name: n8n's returnJsonArray would take such a record for an output item of its own.
		const record = { ListID: 7, ListName: 'Leads', json: 'a field of its own', pairedItem: 3 };
		sb.faults.push({
			pathPrefix: '/v1/lists/7',
			count: 2,
			status: 200,
			body: { results: [record] },
		});
		const output = await run(sb, { resource: 'list', operation: 'get', listId: listRef(7) }, [
			{},
			{},
		]);
		expect(output.error).toBeUndefined();
		expect(output.json).toEqual([record, record]);
		expect(output.items.map(pairedIndex)).toEqual([0, 1]);
	});
});

describe('parameters read once for every item', () => {
	// A parameter with no expression is worked out once per run; one with an expression, for each item.
	test('a Fields choice without an expression is sent alike for every item, one with an expression as each item says', async () => {
		await runOk(sb, { ...getOwners, fields: { include: ['PropID', 'Age'] } }, ids(3));
		expect(sb.requests.map((request) => request.query.get('Fields'))).toEqual([
			'PropID,Age',
			'PropID,Age',
			'PropID,Age',
		]);
		sb.requests.length = 0;
		const items = ['FirstName', 'LastName', 'Age'].map((field, index) => ({
			...ids(3)[index],
			field,
		}));
		await runOk(
			sb,
			{ ...getOwners, itemConcurrency: 1, fields: { include: ['PropID', '={{ $json.field }}'] } },
			items,
		);
		expect(sb.requests.map((request) => request.query.get('Fields'))).toEqual([
			'PropID,FirstName',
			'PropID,LastName',
			'PropID,Age',
		]);
	});

	test("a Max Cost given by an expression is read for each item: one that differs from the first item's is refused before anything is sent", async () => {
		const result = await run(
			sb,
			{ ...getOwners, chargeMode: 'purchase', maxCost: '={{ $json.cap }}' },
			[
				{ ...ids(1)[0], cap: 1 },
				{ ...ids(1, 202)[0], cap: 2 },
			],
		);
		expect(result.error?.message).toBe(
			'Max Cost: one value for the whole run; the item at index 1 gives $2.00 where the first item gave $1.00',
		);
		expect(sb.requests).toEqual([]);
	});
});

describe('a key given as {{ $json.field }}', () => {
	// n8n evaluates the key for each item; `{{ ($json.id) }}` is the same expression in another form.
	const messy: IDataObject[] = [
		{ id: 'P000201' },
		{ id: ' P000202 ' },
		{ id: 'p000203' },
		{ id: '' },
		{ id: 'P 204' },
		{ id: 205 },
		{ id: null },
		{ id: { PropID: 'P000206' } },
		{ id: ['P000207'] },
		{ other: 'P000208' },
		{ id: 'P000209', constructor: 'P000210' },
	];

	// The service gives each error a troubleshooting code of its own.
	const comparable = (items: unknown[]) =>
		JSON.parse(
			JSON.stringify(items).replace(/Troubleshooting code: [\w-]+/g, 'Troubleshooting code: …'),
		) as unknown;

	test('gives the same output and the same errors as n8n evaluating the expression, on messy items', async () => {
		const read = await continuing({ ...getOwners, itemConcurrency: 1 }, messy);
		const readRequests = sb.requests.map((request) => request.path);
		sb.requests.length = 0;
		const evaluated = await continuing(
			{ ...getOwners, itemConcurrency: 1, propId: '={{ ($json.id) }}' },
			messy,
		);
		expect(comparable(read.json)).toEqual(comparable(evaluated.json));
		expect(readRequests).toEqual(sb.requests.map((request) => request.path));
		expect(read.json.filter((item) => !item.error).map((item) => item.PropID)).toEqual([
			'P000201',
			'P000202',
			'P000209',
		]);
	});

	test('`{{ $json.constructor }}` is refused as n8n refuses it', async () => {
		const read = await continuing(
			{ ...getOwners, propId: '={{ $json.constructor }}' },
			messy.slice(-1),
		);
		const evaluated = await continuing(
			{ ...getOwners, propId: '={{ ($json.constructor) }}' },
			messy.slice(-1),
		);
		expect(read.json).toEqual(evaluated.json);
		expect(read.json[0].error).toBe('Expression contains invalid constructor function call');
		expect(sb.requests).toHaveLength(0);
	});

	test('a nested field, and the Person Key, alike', async () => {
		const items = [
			{ owner: { key: 'K000001A' } },
			{ owner: { key: 'not a key' } },
			{ owner: {} },
			{ owner: 'x' },
		];
		const getRecords = {
			resource: 'person',
			operation: 'getRecords',
			recordKind: 'liens',
			returnAll: true,
		};
		const read = await continuing({ ...getRecords, personKey: '={{ $json.owner.key }}' }, items);
		const evaluated = await continuing(
			{ ...getRecords, personKey: '={{ ($json.owner.key) }}' },
			items,
		);
		expect(comparable(read.json)).toEqual(comparable(evaluated.json));
		expect(read.json.filter((item) => item.error)).toHaveLength(3);
	});
});

describe('Return All', () => {
	const importItems = (listId: number) => ({
		resource: 'importRecord',
		operation: 'getMany',
		listId: listRef(listId),
		returnAll: true,
	});
	const oregonList = (listName: string) =>
		createList(sb, {
			listName,
			listType: 'dynamic',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR"]}]',
		});
	const propIdsOf = (listId: number) =>
		runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
			fields: { include: ['PropID'] },
		});

	test('reads import items 1000 per request, the largest page the endpoint takes', async () => {
		const listId = await sandboxImportList(sb, 'paging');
		const records = Array.from({ length: 2500 }, (_, i) => ({
			Address: `${i + 1} Birch St`,
			City: 'Salem',
			State: 'OR',
		}));
		await api(sb, 'POST', `/v1/lists/${listId}/import/items?Purchase=1`, records);
		sb.requests.length = 0;
		const output = await runOk(sb, importItems(listId));
		expect(output).toHaveLength(2500);
		expect(output.map((item) => item.ListImportItemID)).toEqual([
			...new Set(output.map((item) => item.ListImportItemID)),
		]);
		// The list's count of its items, asked for beside the first page, gives the pages after it,
		// asked for together: no page past the short last one.
		expect(
			sb
				.sent(`/v1/lists/${listId}/import/items`)
				.map((request) => `${request.query.get('Start')}+${request.query.get('Limit')}`),
		).toEqual(['0+1000', '1000+1000', '2000+1000']);
		expect(
			sb.requests
				.filter((request) => request.path === `/v1/lists/${listId}`)
				.map((request) => request.query.get('Fields')),
		).toEqual(['ListID,TotalImportItems']);
	});

	test("a collection of one page is read with one request of its items (beside the list's count of them)", async () => {
		const listId = await sandboxImportList(sb, 'one page');
		await api(sb, 'POST', `/v1/lists/${listId}/import/items?Purchase=1`, [
			{ Address: '1 Birch St', City: 'Salem', State: 'OR' },
		]);
		sb.requests.length = 0;
		expect(await runOk(sb, importItems(listId))).toHaveLength(1);
		expect(sb.sent(`/v1/lists/${listId}/import/items`)).toHaveLength(1);
		expect(sb.requests).toHaveLength(2);
	});

	test('a read with a Limit, which asks for no count, has the next page under way while one is read, never more than one ahead', async () => {
		const listId = await oregonList('Oregon ahead');
		sb.requests.length = 0;
		const slow = slowRequests(`/v1/lists/${listId}/items`, 100);
		const output = await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: false,
			limit: 4000,
			fields: { include: ['PropID'] },
		});
		expect(output).toHaveLength(4000);
		expect(sb.sent(`/v1/lists/${listId}/items`)).toHaveLength(4);
		expect(slow.maxInFlight()).toBe(2);
		expect(output.map((item) => item.PropID)).toEqual([
			...new Set(output.map((item) => item.PropID)),
		]);
	});

	test('reads the items of a dynamic list 1000 per request', async () => {
		const listId = await oregonList('Oregon');
		sb.requests.length = 0;
		const output = await propIdsOf(listId);
		expect(output.length).toBeGreaterThan(1000);
		const pages = sb.sent(`/v1/lists/${listId}/items`);
		expect(pages.every((request) => request.query.get('Limit') === '1000')).toBe(true);
		// The list's count gives every page, each asked for whole; none past the last.
		expect(pages).toHaveLength(Math.ceil(output.length / 1000));
	});
});
