import type { IDataObject } from 'n8n-workflow';

import { api, createList, listRef, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('Automation', () => {
	test("get: one item, the list's automation as PropRadar holds it, with the list's ID", async () => {
		const listId = await createList(sb, { listName: 'Read', listType: 'static' });
		const written = { isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 2 };
		expect((await api(sb, 'PUT', `/v1/lists/${listId}/automations`, written)).status).toBe(200);
		const { body } = await api<{ results: IDataObject[] }>(
			sb,
			'GET',
			`/v1/lists/${listId}/automations`,
		);

		const read = await runOk(sb, {
			resource: 'automation',
			operation: 'get',
			listId: listRef(listId),
		});
		expect(read).toEqual([{ ListID: listId, ...body.results[0] }]);
		expect(read[0]).toMatchObject({ Name: 'Read', ...written });
	});
});
