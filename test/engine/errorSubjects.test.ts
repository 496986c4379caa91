import { createImportList, importInto, listRef, run, useEngineSandbox } from '../support/helpers';

const sb = useEngineSandbox();

describe('messages name what they are about', () => {
	test.each([
		[
			'list',
			{ resource: 'listItem', operation: 'getMany', listId: listRef(999_999), returnAll: true },
			'List 999999',
		],
		[
			'property',
			{ resource: 'property', operation: 'get', propId: 'P999999', chargeMode: 'preview' },
			'Property P999999',
		],
		[
			'person',
			{
				resource: 'person',
				operation: 'getRecords',
				personKey: 'K999999Z',
				recordKind: 'liens',
				chargeMode: 'preview',
			},
			'Person K999999Z',
		],
		['webhook', { resource: 'webhook', operation: 'delete', webhookId: 999_999 }, 'Webhook 999999'],
		[
			'property in a list',
			{ resource: 'listItem', operation: 'remove', listId: listRef(1), propId: 'P999998' },
			'Property P999998 in list 1',
		],
	])('a 404 for a %s says which one', async (_, parameters, subject) => {
		const result = await run(sb, parameters);
		expect(result.error?.message).toBe(`${subject} does not exist or belongs to another account`);
		expect(result.error?.description).toContain(
			`Check the ID of ${subject.charAt(0).toLowerCase()}${subject.slice(1)}`,
		);
	});

	test('a 400 names the parameters the service\'s words name, else says what to do instead of pointing at "the parameters named above"', async () => {
		const comps = {
			resource: 'property',
			operation: 'getComps',
			propId: 'P000020',
			compsKind: 'sales',
			subject: { Beds: 3, SqFt: 1400 },
			chargeMode: 'preview',
		};
		sb.faults.push({
			pathPrefix: '/v1/properties/P000020/comps',
			count: 1,
			status: 400,
			body: {
				error: 'Invalid SqFt',
				message: 'SqFt must be below 1000 for this area',
				eventid: 'aaa-bbb-ccc',
			},
		});
		const named = await run(sb, comps);
		expect(named.error?.message).toBe(
			'PropRadar refused the request for property P000020 as invalid: Invalid SqFt: SqFt must be below 1000 for this area',
		);
		expect(named.error?.description).toContain(
			'Check SqFt: the value sent for it is what PropRadar refused.',
		);
		expect(named.error?.description).not.toContain('named above');

		sb.faults.push({
			pathPrefix: '/v1/properties/P000020/comps',
			count: 1,
			status: 400,
			body: { error: 'Subject not comparable' },
		});
		const unnamed = await run(sb, comps);
		expect(unnamed.error?.description).toContain(
			"PropRadar's words above say what it refused; correct that in this node's parameters.",
		);

		sb.faults.push({
			pathPrefix: '/v1/properties/P000020/comps',
			count: 1,
			status: 400,
			body: { error: '' },
		});
		const silent = await run(sb, comps);
		expect(silent.error?.description).toContain(
			"PropRadar did not say what it refused; check this node's parameters for this item against what the operation allows.",
		);
	});

	test('item numbers in messages are the index n8n shows as "Item Index"', async () => {
		const listId = await createImportList(sb, 'numbers');
		const result = await run(sb, importInto(listId, { chargeMode: 'purchase', maxCost: 1 }), [
			{ Address: '1 Elm St' },
			{ Address: '2 Elm St' },
			{ other: true },
		]);
		expect(result.items[2]).toMatchObject({
			pairedItem: { item: 2 },
			json: { error: 'Not imported: the item at index 2 has no record field to send' },
		});

		const failed = await run(
			sb,
			{
				resource: 'listItem',
				operation: 'getMany',
				listId: listRef('={{ $json.list }}'),
				returnAll: true,
			},
			[{ list: listId }, { list: 999_997 }],
		);
		expect(failed.error?.message).toBe('List 999997 does not exist or belongs to another account');
		expect(failed.error?.context?.itemIndex).toBe(1);
	});
});
