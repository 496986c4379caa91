import { createList, listRef, run, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

const id = (n: number) => `P${String(n).padStart(6, '0')}`;
const listCalls = (listId: number) => ({
	get: sb.sent(`/v1/lists/${listId}`, 'GET').filter((r) => r.path === `/v1/lists/${listId}`).length,
	put: sb.sent(`/v1/lists/${listId}/items`, 'PUT'),
});
const addByPropIds = {
	resource: 'listItem',
	operation: 'add',
	addBy: 'propIds',
	propIds: '={{ $json.PropID }}',
};

describe('List Item > Add by PropIDs from the input items: one request per run', () => {
	test('six search results: the list type read once and one PUT with all six PropIDs; one output item per input item, paired', async () => {
		const listId = await createList(sb, { listName: 'six', listType: 'static' });
		const items = Array.from({ length: 6 }, (_, i) => ({ PropID: id(201 + i) }));
		const result = await run(sb, { ...addByPropIds, listId: listRef(listId) }, items);
		expect(result.error).toBeUndefined();
		const calls = listCalls(listId);
		expect(calls.get).toBe(1);
		expect(calls.put).toHaveLength(1);
		expect(JSON.parse(calls.put[0].body)).toEqual({
			Criteria: [{ name: 'PropID', value: items.map((item) => item.PropID) }],
		});
		expect(result.items.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		expect(result.json).toEqual(
			items.map((item) => ({
				ListID: listId,
				PropIDs: [item.PropID],
				batch: { requests: 1, propIds: 6, updateCount: 6 },
			})),
		);
	});

	test('1,200 input items: three PUTs of at most 500 PropIDs; a PropID given twice is sent once', async () => {
		const listId = await createList(sb, { listName: 'many', listType: 'static' });
		const items = Array.from({ length: 1200 }, (_, i) => ({ PropID: id(1 + i) }));
		items.push({ PropID: id(1) });
		const added = await runOk(sb, { ...addByPropIds, listId: listRef(listId) }, items);
		const calls = listCalls(listId);
		expect(calls.get).toBe(1);
		expect(
			calls.put.map((put) => (JSON.parse(put.body).Criteria[0].value as string[]).length),
		).toEqual([500, 500, 200]);
		expect(added).toHaveLength(1201);
		expect(added[0].batch).toEqual({ requests: 1, propIds: 500, updateCount: 500 });
		expect(added[1199].batch).toEqual({ requests: 1, propIds: 200, updateCount: 200 });
		expect(added[1200]).toEqual({
			ListID: listId,
			PropIDs: [id(1)],
			batch: { requests: 1, propIds: 500, updateCount: 500 },
		});
		const read = await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
		});
		expect(read).toHaveLength(1200);
	}, 60_000);

	test('items for two lists: each list read once and one PUT each', async () => {
		const first = await createList(sb, { listName: 'first', listType: 'static' });
		const second = await createList(sb, { listName: 'second', listType: 'static' });
		const items = [
			{ list: first, PropID: id(301) },
			{ list: second, PropID: id(302) },
			{ list: first, PropID: `${id(303)},${id(304)}` },
		];
		const added = await runOk(sb, { ...addByPropIds, listId: listRef('={{ $json.list }}') }, items);
		expect(added.map((item) => [item.ListID, item.PropIDs])).toEqual([
			[first, [id(301)]],
			[second, [id(302)]],
			[first, [id(303), id(304)]],
		]);
		expect([
			listCalls(first).get,
			listCalls(first).put.length,
			listCalls(second).get,
			listCalls(second).put.length,
		]).toEqual([1, 1, 1, 1]);
	});

	test('a dynamic list is refused with nothing added; with On Error: Continue a bad item is an error item of its own and the rest are added', async () => {
		const dynamic = await createList(sb, {
			listName: 'dyn',
			listType: 'dynamic',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR"]}]',
		});
		const refused = await run(sb, { ...addByPropIds, listId: listRef(dynamic) }, [
			{ PropID: id(1) },
			{ PropID: id(2) },
		]);
		expect(refused.error?.message).toBe(
			`List ${dynamic} is a dynamic list: items can only be added to static lists`,
		);
		expect(listCalls(dynamic).put).toHaveLength(0);

		const listId = await createList(sb, { listName: 'mixed', listType: 'static' });
		const result = await run(
			sb,
			{ ...addByPropIds, listId: listRef(listId) },
			[{ PropID: id(401) }, { PropID: 'a b' }, { PropID: id(402) }],
			undefined,
			true,
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.json[1].error).toMatch(/^Property IDs: "a b"/);
		expect(result.json[0]).toMatchObject({
			PropIDs: [id(401)],
			batch: { propIds: 2, updateCount: 2 },
		});
		expect(listCalls(listId).put).toHaveLength(1);
	});

	test('adding by criteria stays one request per item', async () => {
		const listId = await createList(sb, { listName: 'by criteria', listType: 'static' });
		const added = await runOk(
			sb,
			{
				resource: 'listItem',
				operation: 'add',
				listId: listRef(listId),
				addBy: 'criteria',
				criteriaMode: 'json',
				criteriaJson: '={{ JSON.stringify([{ name: "PropID", value: [$json.PropID] }]) }}',
			},
			[{ PropID: id(501) }, { PropID: id(502) }],
		);
		expect(added).toEqual([
			{ ListID: listId, updateCount: 1 },
			{ ListID: listId, updateCount: 1 },
		]);
		expect(listCalls(listId).get).toBe(1);
		expect(listCalls(listId).put).toHaveLength(2);
	});
});
