import { TOKENS } from '../../support/harness';
import { createList, listRef, run, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('List', () => {
	test("another account's list is 404 with a sentence a person can act on", async () => {
		const listId = await createList(sb, { listName: 'mine', listType: 'static' });
		const result = await run(
			sb,
			{ resource: 'list', operation: 'get', listId: listRef(listId) },
			undefined,
			TOKENS.second,
		);
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.description).toContain(
			'the credential belongs to the account that owns it',
		);
	});

	test('one output item per input item, paired; continueOnFail gives an error item and goes on', async () => {
		const first = await createList(sb, { listName: 'first', listType: 'static' });
		const result = await run(
			sb,
			{ resource: 'list', operation: 'get', listId: listRef('={{ $json.id }}') },
			[{ id: first }, { id: 999999 }, { id: first }],
			TOKENS.main,
			true,
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.json[0].ListID).toBe(first);
		expect(result.json[1]).toMatchObject({
			error: 'List 999999 does not exist or belongs to another account',
			httpCode: '404',
		});
		expect(result.json[2].ListID).toBe(first);
	});
});
