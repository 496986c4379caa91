import { api, createList, listRef, run, runOk, useEngineSandbox } from './helpers';

const sb = useEngineSandbox();

describe('List Item', () => {
	test('add PropIDs from the input items, read them back with a fieldset, remove one', async () => {
		const listId = await createList(sb, { listName: 'Static picks', listType: 'static' });
		const added = await runOk(sb, { resource: 'listItem', operation: 'add', listId: listRef(listId), addBy: 'propIds', propIds: '={{ $json.PropID }}' }, [
			{ PropID: 'P000101' },
			{ PropID: 'P000102' },
			{ PropID: 'P000103' },
		]);
		expect(added).toEqual(['P000101', 'P000102', 'P000103'].map((propId) => ({ ListID: listId, PropIDs: [propId], batch: { requests: 1, propIds: 3, updateCount: 3 } })));

		const items = await runOk(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: true, fields: { fieldsets: ['Map'] } });
		expect(items.map((item) => item.PropID).sort()).toEqual(['P000101', 'P000102', 'P000103']);
		expect(items[0]).toHaveProperty('Latitude');

		const [removed] = await runOk(sb, { resource: 'listItem', operation: 'remove', listId: listRef(listId), propId: 'P000102' });
		expect(removed).toEqual({ ListID: listId, PropID: 'P000102', deleteCount: 1 });
		const after = await runOk(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: true });
		expect(after.map((item) => item.PropID).sort()).toEqual(['P000101', 'P000103']);
	});

	test('add by criteria, then Return All pages through at 1000 (the largest page the endpoint takes) and Limit stops early', async () => {
		const listId = await createList(sb, { listName: 'Static from criteria', listType: 'static' });
		const [added] = await runOk(sb, {
			resource: 'listItem', operation: 'add', listId: listRef(listId), addBy: 'criteria', criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR"]}]',
		});
		const count = Number(added.updateCount);
		expect(count).toBeGreaterThan(1000);

		const before = sb.sent(`/v1/lists/${listId}/items`, 'GET').length;
		const all = await runOk(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: true });
		expect(all).toHaveLength(count);
		// One page at a time would take floor(count / 1000) + 1 reads; the page asked for ahead while
		// the last, short page was read makes one more.
		expect(sb.sent(`/v1/lists/${listId}/items`, 'GET').length - before).toBe(Math.floor(count / 1000) + 2);
		expect(sb.sent(`/v1/lists/${listId}/items`, 'GET').slice(before).every((request) => request.query.get('Limit') === '1000')).toBe(true);

		const limited = await runOk(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: false, limit: 7 });
		expect(limited).toHaveLength(7);
		expect(sb.sent(`/v1/lists/${listId}/items`, 'GET').at(-1)!.query.get('Limit')).toBe('7');
	});

	test('Return All asks for the next page while the current one is on its way, keeps the order, and drops a page it did not need even when it failed', async () => {
		const listId = await createList(sb, { listName: 'Paged ahead', listType: 'static' });
		await runOk(sb, { resource: 'listItem', operation: 'add', listId: listRef(listId), addBy: 'criteria', criteriaMode: 'json', criteriaJson: '[{"name":"State","value":["WA"]}]' });
		const path = `/v1/lists/${listId}/items`;
		// A last page that is short: one item fewer when the state's count is a multiple of 1000.
		const first = (await api<{ results: Array<{ PropID: string }> }>(sb, 'GET', `${path}?Start=0&Limit=1`)).body.results[0].PropID;
		const listed = (await api<{ results: Array<{ TotalCount: number }> }>(sb, 'GET', `/v1/lists/${listId}`)).body.results[0].TotalCount;
		if (listed % 1000 === 0) expect((await api(sb, 'DELETE', `${path}/${first}`)).status).toBe(200);
		const expected: string[] = [];
		for (let start = 0; ; start += 1000) {
			const page = (await api<{ results: Array<{ PropID: string }> }>(sb, 'GET', `${path}?Start=${start}&Limit=1000`)).body.results;
			expected.push(...page.map((record) => record.PropID));
			if (page.length < 1000) break;
		}
		expect(expected.length).toBeGreaterThan(2000);
		expect(expected.length % 1000).not.toBe(0);
		const lastStart = Math.floor(expected.length / 1000) * 1000;

		// The second page is held until the third has been asked for (or 10 s, if it never is).
		let thirdAskedFirst = false;
		sb.faults.push({
			method: 'GET', pathPrefix: path, query: { Start: '1000' }, count: 1,
			beforeForward: async () => {
				const until = Date.now() + 10_000;
				while (Date.now() < until && !sb.sent(path, 'GET').some((request) => request.query.get('Start') === '2000')) await new Promise((resolve) => setTimeout(resolve, 20));
				thirdAskedFirst = sb.sent(path, 'GET').some((request) => request.query.get('Start') === '2000');
			},
		});
		// The page after the last (short) one is asked for ahead; a refusal of it changes nothing.
		sb.faults.push({ method: 'GET', pathPrefix: path, query: { Start: String(lastStart + 1000) }, count: 1, status: 400, body: { error: { code: 400, message: 'refused' } } });
		const all = await runOk(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: true });
		expect(thirdAskedFirst).toBe(true);
		expect(all.map((item) => item.PropID)).toEqual(expected);
		expect(sb.sent(path, 'GET').filter((request) => request.query.get('Start') === String(lastStart + 1000))).toHaveLength(1);
	});

	test('a list of one short page is read with one request, as before', async () => {
		const listId = await createList(sb, { listName: 'One page', listType: 'static' });
		await runOk(sb, { resource: 'listItem', operation: 'add', listId: listRef(listId), addBy: 'propIds', propIds: '={{ $json.PropID }}' }, [{ PropID: 'P000201' }, { PropID: 'P000202' }]);
		const path = `/v1/lists/${listId}/items`;
		const before = sb.sent(path, 'GET').length;
		const all = await runOk(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: true });
		expect(all.map((item) => item.PropID).sort()).toEqual(['P000201', 'P000202']);
		expect(sb.sent(path, 'GET').length - before).toBe(1);
	});

	test('adding to a dynamic list is refused before the PUT is sent', async () => {
		const listId = await createList(sb, { listName: 'Dyn', listType: 'dynamic', criteriaMode: 'json', criteriaJson: '[{"name":"State","value":["WA"]}]' });
		const result = await run(sb, { resource: 'listItem', operation: 'add', listId: listRef(listId), addBy: 'propIds', propIds: 'P000001' });
		expect(result.error?.message).toBe(`List ${listId} is a dynamic list: items can only be added to static lists`);
		expect(sb.sent(`/v1/lists/${listId}/items`, 'PUT')).toHaveLength(0);
	});

	test('filters reach the service in its encoding; a bad date is refused before sending', async () => {
		const listId = await createList(sb, { listName: 'Filtered', listType: 'static' });
		await runOk(sb, {
			resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: true,
			filters: { InterestLevel: [0, 3], hasPhotos: false, PType: ['SFR', 'CND'], LastTransferRecDate: 'Last 365 Days', MostRecentCall: 'None' },
		});
		const query = sb.sent(`/v1/lists/${listId}/items`, 'GET').at(-1)!.query;
		expect(query.get('InterestLevel')).toBe('0,3');
		expect(query.get('hasPhotos')).toBe('0');
		expect(query.get('PType')).toBe('SFR,CND');
		expect(query.get('LastTransferRecDate')).toBe('Last 365 Days');
		expect(query.get('MostRecentCall')).toBe('None');

		const before = sb.requests.length;
		const bad = await run(sb, { resource: 'listItem', operation: 'getMany', listId: listRef(listId), returnAll: true, filters: { MostRecentText: 'yesterday-ish' } });
		expect(bad.error?.message).toBe('MostRecentText: "yesterday-ish" is not a date the API takes');
		expect(sb.requests.length).toBe(before);
	});

	test('no PropIDs is refused before sending', async () => {
		const before = sb.requests.length;
		const result = await run(sb, { resource: 'listItem', operation: 'add', listId: listRef(5), addBy: 'propIds', propIds: ' , ' });
		expect(result.error?.message).toBe('Property IDs: give at least one PropID');
		expect(sb.requests.length).toBe(before);
	});
});
