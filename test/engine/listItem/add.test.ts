import { createList, listRef, run, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('List Item', () => {
	test('adding to a dynamic list is refused before the PUT is sent', async () => {
		const listId = await createList(sb, {
			listName: 'Dyn',
			listType: 'dynamic',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["WA"]}]',
		});
		const result = await run(sb, {
			resource: 'listItem',
			operation: 'add',
			listId: listRef(listId),
			addBy: 'propIds',
			propIds: 'P000001',
		});
		expect(result.error?.message).toBe(
			`List ${listId} is a dynamic list: items can only be added to static lists`,
		);
		expect(sb.sent(`/v1/lists/${listId}/items`, 'PUT')).toHaveLength(0);
	});

	test('no PropIDs is refused before sending', async () => {
		const before = sb.requests.length;
		const result = await run(sb, {
			resource: 'listItem',
			operation: 'add',
			listId: listRef(5),
			addBy: 'propIds',
			propIds: ' , ',
		});
		expect(result.error?.message).toBe('Property IDs: give at least one PropID');
		expect(sb.requests.length).toBe(before);
	});
});
