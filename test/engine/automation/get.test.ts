import type { IDataObject } from 'n8n-workflow';

import {
	api,
	createList,
	listRef,
	run,
	runOk,
	useEngineSandbox,
	useVariants,
} from '../../support/helpers';

const sb = useEngineSandbox();

afterEach(async () => {
	sb.faults.length = 0;
	await useVariants(sb, []);
});

const automationPath = (listId: number) => `/v1/lists/${listId}/automations`;

describe('Automation', () => {
	test("get: one item, the list's automation as PropRadar holds it, with the list's ID", async () => {
		const listId = await createList(sb, { listName: 'Read', listType: 'static' });
		const written = { isEnabled: 1, Triggers: 'New Matches', SetInterestLevel: 2 };
		expect((await api(sb, 'PUT', automationPath(listId), written)).status).toBe(200);
		const { body } = await api<{ results: IDataObject[] }>(sb, 'GET', automationPath(listId));

		const read = await runOk(sb, {
			resource: 'automation',
			operation: 'get',
			listId: listRef(listId),
		});
		expect(read).toEqual([{ ListID: listId, ...body.results[0] }]);
		expect(read[0]).toMatchObject({ Name: 'Read', ...written });
	});

	test('get under automation-answer: the automation in an object of its own is read the same', async () => {
		const listId = await createList(sb, { listName: 'Read wrapped', listType: 'static' });
		const { body } = await api<{ results: IDataObject[] }>(sb, 'GET', automationPath(listId));
		await useVariants(sb, ['automation-answer']);
		const read = await runOk(sb, {
			resource: 'automation',
			operation: 'get',
			listId: listRef(listId),
		});
		expect(read).toEqual([{ ListID: listId, ...body.results[0] }]);
	});

	test('an answer without a whole automation stops Get and Configure, naming the assumption, what is missing and what arrived; nothing is written', async () => {
		const listId = await createList(sb, { listName: 'Read partial', listType: 'static' });
		const partial = { results: [{ Name: 'Read partial', isEnabled: 1 }] };
		const get = { resource: 'automation', operation: 'get', listId: listRef(listId) };
		const configure = {
			resource: 'automation',
			operation: 'configure',
			listId: listRef(listId),
			automation: { SetInterestLevel: 3 },
		};
		for (const [parameters, answer] of [
			[get, partial],
			[get, { data: [] }],
			[configure, partial],
		] as const) {
			const sent = sb.requests.length;
			sb.faults.push({
				method: 'GET',
				pathPrefix: automationPath(listId),
				count: 1,
				rewrite: () => answer,
			});
			const result = await run(sb, parameters);
			expect(result.error?.message).toBe(
				`PropRadar's answer holds no whole automation for list ${listId}`,
			);
			const description = String((result.error as { description?: string }).description);
			expect(description).toContain('The node assumes `results[0]` with every automation field');
			expect(description).toContain(`Arrived: ${JSON.stringify(answer)}`);
			expect(description).toMatch(/Missing: .*Triggers/);
			expect(sb.requests.slice(sent).map((request) => request.method)).toEqual(['GET']);
		}
	});
});
