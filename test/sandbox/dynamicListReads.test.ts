/* eslint-disable @n8n/community-nodes/no-restricted-globals -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
/**
 * Reads of a dynamic list that is not monitored: its members follow every change they depend on
 * (a list named in InList, a property's data), read after read, while a read with nothing changed
 * since gives the same page. How fast that is, is the benchmark's (`npm run bench`); here only
 * what the pages say.
 */
import { call, type Json } from './helpers';
import { startSandbox } from '../../sandbox/server';
import type { RunningSandbox } from '../../sandbox/types';

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

const created = async (body: Json): Promise<number> =>
	(await call(sandbox.url, 'POST', '/v1/lists', { body })).body.results[0].ListID;
const page = async (listId: number, query = ''): Promise<string[]> =>
	(await call(sandbox.url, 'GET', `/v1/lists/${listId}/items?Limit=1000${query}`)).body.results.map(
		(item: Json) => item.PropID,
	);

test('a dynamic list over a static one (InList) follows each addition and removal, read after read', async () => {
	const staticId = await created({ ListName: 'picked', ListType: 'static' });
	const dynamicId = await created({
		ListName: 'picked, dynamic',
		ListType: 'dynamic',
		Criteria: [{ name: 'InList', value: [staticId] }],
	});
	expect(await page(dynamicId)).toEqual([]);
	await call(sandbox.url, 'PUT', `/v1/lists/${staticId}/items`, {
		body: { Criteria: [{ name: 'PropID', value: ['P000301', 'P000302'] }] },
	});
	expect(await page(dynamicId)).toEqual(['P000301', 'P000302']);
	expect(await page(dynamicId)).toEqual(['P000301', 'P000302']);
	await call(sandbox.url, 'DELETE', `/v1/lists/${staticId}/items/P000301`);
	expect(await page(dynamicId)).toEqual(['P000302']);
	expect(await page(staticId)).toEqual(['P000302']);
});

test('a dynamic list follows a new property that matches it, and paging over a large one is stable', async () => {
	const oregonPools = await created({
		ListName: 'Oregon pools',
		ListType: 'dynamic',
		Criteria: [
			{ name: 'State', value: ['OR'] },
			{ name: 'Pool', value: [1] },
		],
	});
	const count = async () =>
		(await call(sandbox.url, 'GET', `/v1/lists/${oregonPools}`)).body.results[0].TotalCount;
	const before = Number(await count());
	const pages = async () =>
		(await page(oregonPools)).length + (await page(oregonPools, '&Start=1000')).length;
	expect(await pages()).toBe(before);
	const answer = await call(sandbox.url, 'POST', '/_sandbox/simulate/new-match', {
		token: null,
		body: { ListID: oregonPools },
	});
	expect(answer.status).toBe(200);
	expect(await pages()).toBe(before + 1);

	const everything = await created({
		ListName: 'all states',
		ListType: 'dynamic',
		Criteria: [{ name: 'State', value: ['OR', 'WA', 'CA', 'TX', 'FL', 'AZ'] }],
	});
	const first = await page(everything, '&Start=0');
	const second = await page(everything, '&Start=1000');
	expect(first).toHaveLength(1000);
	expect(second).toHaveLength(1000);
	expect(new Set([...first, ...second]).size).toBe(2000);
	expect(await page(everything, '&Start=1000')).toEqual(second);
});

test("a list's TotalCount and NewSinceLastViewedCount follow every addition, removal and view", async () => {
	const listId = await created({ ListName: 'counted', ListType: 'static' });
	const counts = async () => {
		const [list] = (await call(sandbox.url, 'GET', `/v1/lists/${listId}`)).body.results;
		return [Number(list.TotalCount), list.NewSinceLastViewedCount];
	};
	const add = (ids: string[]) =>
		call(sandbox.url, 'PUT', `/v1/lists/${listId}/items`, {
			body: { Criteria: [{ name: 'PropID', value: ids }] },
		});
	await add(['P000401', 'P000402']);
	expect(await counts()).toEqual([2, 2]);
	expect(await counts()).toEqual([2, 2]);
	await page(listId);
	expect(await counts()).toEqual([2, 0]);
	await new Promise((resolve) => setTimeout(resolve, 5));
	await add(['P000403']);
	expect(await counts()).toEqual([3, 1]);
	await call(sandbox.url, 'DELETE', `/v1/lists/${listId}/items/P000401`);
	expect(await counts()).toEqual([2, 1]);
});
