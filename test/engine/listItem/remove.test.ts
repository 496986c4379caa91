import { createList, listRef, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('List Item', () => {
	test('add PropIDs from the input items, read them back with a fieldset, remove one', async () => {
		const listId = await createList(sb, { listName: 'Static picks', listType: 'static' });
		const added = await runOk(
			sb,
			{
				resource: 'listItem',
				operation: 'add',
				listId: listRef(listId),
				addBy: 'propIds',
				propIds: '={{ $json.PropID }}',
			},
			[{ PropID: 'P000101' }, { PropID: 'P000102' }, { PropID: 'P000103' }],
		);
		expect(added).toEqual(
			['P000101', 'P000102', 'P000103'].map((propId) => ({
				ListID: listId,
				PropIDs: [propId],
				batch: { requests: 1, propIds: 3, updateCount: 3 },
			})),
		);

		const items = await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
			fields: { fieldsets: ['Map'] },
		});
		expect(items.map((item) => item.PropID).sort()).toEqual(['P000101', 'P000102', 'P000103']);
		expect(items[0]).toHaveProperty('Latitude');

		const [removed] = await runOk(sb, {
			resource: 'listItem',
			operation: 'remove',
			listId: listRef(listId),
			propId: 'P000102',
		});
		expect(removed).toEqual({ deleted: true, ListID: listId, PropID: 'P000102', deleteCount: 1 });
		const after = await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(listId),
			returnAll: true,
		});
		expect(after.map((item) => item.PropID).sort()).toEqual(['P000101', 'P000103']);
	});
});
