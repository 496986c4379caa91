import { api, createList, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('List', () => {
	test('get many: sort, limit and fields reach the service', async () => {
		// Two lists at least, so that the Limit of 2 is met (the tests that ran before it in one file made others).
		await createList(sb, { listName: 'AAA sort test', listType: 'static' });
		await createList(sb, { listName: 'ZZZ sort test', listType: 'static' });
		await runOk(sb, {
			resource: 'list',
			operation: 'getMany',
			returnAll: false,
			limit: 2,
			sort: { rule: [{ field: 'ListName', direction: 'desc' }] },
			fields: { include: ['ListID', 'ListName'] },
		});
		const sent = sb.sent('/v1/lists', 'GET').at(-1)!;
		expect(Object.fromEntries(sent.query)).toEqual({
			Sort: 'ListName',
			Dir: 'desc',
			Fields: 'ListID,ListName',
			Limit: '2',
		});
		const { body } = await api<{ results: Array<{ ListName: string }> }>(
			sb,
			'GET',
			'/v1/lists?Sort=ListName&Dir=desc&Limit=2',
		);
		expect(body.results).toHaveLength(2);
	});
});
