import type { IDataObject } from 'n8n-workflow';

import { api, createList, listRef, run, runOk, useEngineSandbox } from '../../support/helpers';

const sb = useEngineSandbox();

describe('List', () => {
	test('a dynamic list from builder criteria follows them', async () => {
		const listId = await createList(sb, {
			listName: 'Oregon pools',
			listType: 'dynamic',
			criteriaMode: 'builder',
			criteria: {
				criterion: [
					{ name: 'State', values: 'OR' },
					{ name: 'Pool', has: true },
				],
			},
		});
		const posted = JSON.parse(sb.sent('/v1/lists', 'POST').at(-1)!.body);
		expect(posted.Criteria).toEqual([
			{ name: 'State', value: ['OR'] },
			{ name: 'Pool', value: [1] },
		]);
		const [list] = await runOk(sb, { resource: 'list', operation: 'get', listId: listRef(listId) });
		expect(Number(list.TotalCount)).toBeGreaterThan(0);
	});

	test('a name over 50 characters is truncated as the service does, with a notice', async () => {
		const longName = 'Absentee owners with high equity in Multnomah County, Oregon';
		const [created] = await runOk(sb, {
			resource: 'list',
			operation: 'create',
			listName: longName,
			listType: 'static',
		});
		expect(created.ListName).toBe(longName.slice(0, 50));
		expect(created.notice).toContain('keeps the first 50');
		const [list] = await runOk(sb, {
			resource: 'list',
			operation: 'get',
			listId: listRef(Number(created.ListID)),
		});
		expect(list.ListName).toBe(longName.slice(0, 50));
	});

	test('an import list takes its import options', async () => {
		const listId = await createList(sb, {
			listName: 'CSV import',
			listType: 'import',
			importSource: 'api',
			importOptions: {
				ImportType: 'person',
				ImportMatchThreshold: 70,
				add_as_primary_contact: true,
			},
		});
		const [list] = await runOk(sb, { resource: 'list', operation: 'get', listId: listRef(listId) });
		expect(list).toMatchObject({
			ListType: 'import',
			ImportSource: 'api',
			ImportType: 'person',
			ImportMatchThreshold: 70,
		});
	});

	test('criteria on a static list are refused before anything is sent', async () => {
		const before = sb.requests.length;
		const result = await run(sb, {
			resource: 'list',
			operation: 'create',
			listName: 'x',
			listType: '={{ "static" }}',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":["OR"]}]',
		});
		expect(result.error?.message).toBe('Criteria: a static list takes no criteria');
		expect(sb.requests.length).toBe(before);
	});

	test('bad input is refused naming the field, nothing sent', async () => {
		const refusal = async (parameters: IDataObject) => (await run(sb, parameters)).error?.message;
		const create = (parameters: IDataObject) => ({
			resource: 'list',
			operation: 'create',
			listName: 'x',
			...parameters,
		});
		const get = (id: string) => ({ resource: 'list', operation: 'get', listId: listRef(id) });
		const before = sb.requests.length;
		expect(
			await refusal(create({ listType: 'dynamic', criteriaMode: 'builder', criteria: {} })),
		).toBe('Criteria: a dynamic list needs at least one criterion');
		expect(
			await refusal(
				create({
					listType: 'dynamic',
					criteriaMode: 'json',
					criteriaJson: '[{"name":"Beds","value":[[4,2]]}]',
				}),
			),
		).toContain('Criteria[0].value[0] (Beds): a range is [min, max]');
		expect(await refusal(get('={{ "abc" }}'))).toBe(
			'List: "abc" is not a list ID; a list ID is a whole number from 1 to 9223372036854775807',
		);
		expect(await refusal(get('abc'))).toContain('A list ID is a whole number');
		expect(await refusal(create({ listName: '  ', listType: 'static' }))).toBe(
			'List Name is required',
		);
		expect(
			await refusal({
				resource: 'list',
				operation: 'update',
				listId: listRef(1),
				updateFields: {},
			}),
		).toBe('Update Fields: add at least one field to change');
		expect(sb.requests.length).toBe(before);
	});
});

describe('List > Create, If a List of This Name Exists', () => {
	const create = (listName: string, listType: string, whenNameExists?: string) =>
		runOk(sb, {
			resource: 'list',
			operation: 'create',
			listName,
			listType,
			...(listType === 'dynamic'
				? { criteriaMode: 'json', criteriaJson: '[{"name":"State","value":["OR"]}]' }
				: {}),
			...(whenNameExists ? { whenNameExists } : {}),
		});
	const named = async (listName: string) =>
		(
			await api<{ results: IDataObject[] }>(sb, 'GET', '/v1/lists?Fields=ListID,ListName,ListType')
		).body.results.filter((list) => list.ListName === listName);

	test('"Use It": a run again uses the list the first run created, and creates no other; a list of another type is not used', async () => {
		const [first] = await create('Run again leads', 'static', 'useExisting');
		expect(first).toMatchObject({ created: true, ListName: 'Run again leads', ListType: 'static' });
		await create('Run again leads', 'dynamic');
		const posts = sb.sent('/v1/lists', 'POST').length;
		const [second] = await create('Run again leads', 'static', 'useExisting');
		expect(second).toMatchObject({ created: false, ListID: first.ListID, ListType: 'static' });
		expect(sb.sent('/v1/lists', 'POST')).toHaveLength(posts);
		expect((await named('Run again leads')).map((list) => list.ListType).sort()).toEqual([
			'dynamic',
			'static',
		]);
	});

	test('"Use It" with several lists of the name takes the oldest and says so; "Create Another" (the default) creates one more', async () => {
		await create('Twice named', 'static');
		await create('Twice named', 'static');
		const ids = (await named('Twice named'))
			.map((list) => Number(list.ListID))
			.sort((a, b) => a - b);
		expect(ids).toHaveLength(2);
		const [used] = await create('Twice named', 'static', 'useExisting');
		expect(used.ListID).toBe(ids[0]);
		expect(used.notice).toBe(
			`2 static lists are named "Twice named" (IDs ${ids.join(', ')}); this is the oldest.`,
		);
		expect(await named('Twice named')).toHaveLength(2);
	});

	test('"Use It" matches the name PropRadar keeps: the first 50 characters', async () => {
		const long = 'A list name that is longer than fifty characters in all';
		const [first] = await create(long, 'static', 'useExisting');
		const [again] = await create(long, 'static', 'useExisting');
		expect(again).toMatchObject({ created: false, ListID: first.ListID });
	});
});
