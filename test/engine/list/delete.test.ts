import { createList, listRef, run, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('List', () => {
	test('create, get, get many, update, delete a static list', async () => {
		const listId = await createList(sb, {
			listName: 'Pipeline: hot leads',
			listType: 'static',
			groupName: 'Sales',
		});
		expect(listId).toBeGreaterThan(0);

		const [list] = await runOk(sb, { resource: 'list', operation: 'get', listId: listRef(listId) });
		expect(list).toMatchObject({
			ListID: listId,
			ListName: 'Pipeline: hot leads',
			ListType: 'static',
			GroupName: 'Sales',
		});

		const many = await runOk(sb, {
			resource: 'list',
			operation: 'getMany',
			returnAll: true,
			filters: { ListType: 'static', GroupName: 'Sales' },
		});
		expect(many.map((l) => l.ListID)).toContain(listId);
		expect(many.every((l) => l.ListType === 'static')).toBe(true);

		const [updated] = await runOk(sb, {
			resource: 'list',
			operation: 'update',
			listId: listRef(listId),
			updateFields: { ListName: 'Pipeline: warm leads', DisplayOrder: 3, isMonitored: true },
		});
		expect(updated).toEqual({ ListID: listId, updateCount: 1 });
		const [after] = await runOk(sb, {
			resource: 'list',
			operation: 'get',
			listId: listRef(listId),
		});
		expect(after).toMatchObject({
			ListName: 'Pipeline: warm leads',
			DisplayOrder: 3,
			isMonitored: 1,
		});

		const [deleted] = await runOk(sb, {
			resource: 'list',
			operation: 'delete',
			listId: listRef(listId),
		});
		expect(deleted).toEqual({ deleted: true, ListID: listId, deleteCount: 1 });
		const gone = await run(sb, { resource: 'list', operation: 'get', listId: listRef(listId) });
		expect(gone.error?.name).toBe('NodeApiError');
		expect(gone.error?.message).toBe(`List ${listId} does not exist or belongs to another account`);
	});
});
