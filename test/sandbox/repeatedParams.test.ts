import { expectError, useSandbox } from './helpers';

/**
 * A query parameter given more than once: the lists document types `Fields` as an array (import
 * POST, persons GET), so its repeated values are one comma list; any other parameter given twice
 * is refused with a 400 naming it, never a 500.
 */
const sb = useSandbox();

test('Fields given more than once is one comma list (persons GET, import POST)', async () => {
	const repeated = await sb.ok(
		'GET',
		'/v1/properties/P000044/persons?Purchase=1&Fields=FirstName&Fields=LastName,-PersonKey',
	);
	const joined = await sb.ok(
		'GET',
		'/v1/properties/P000044/persons?Purchase=1&Fields=FirstName,LastName,-PersonKey',
	);
	expect(repeated.results).toEqual(joined.results);
	expect(Object.keys(repeated.results[0]).sort()).toEqual(['FirstName', 'LastName', 'PropID']);

	const listId = await sb.createList({
		ListName: 'Imports',
		ListType: 'import',
		ImportSource: 'api',
	});
	const imported = await sb.ok(
		'POST',
		`/v1/lists/${listId}/import/items?Purchase=1&Fields=ListImportItemID&Fields=PropertyStatus`,
		{ body: [{ Address: '1 Nowhere Lane', City: 'Nowhere', State: 'OR' }] },
	);
	expect(Object.keys(imported.results[0]).sort()).toEqual(['ListImportItemID', 'PropertyStatus']);
});

test.each([
	['GET', '/v1/lists?Sort=ListName&Sort=TotalCount', 'Sort'],
	['GET', '/v1/lists?ListType=static&ListType=dynamic', 'ListType'],
	[
		'GET',
		'/v1/lists/1/import/items?PropertyStatus=Matched&PropertyStatus=Pending',
		'PropertyStatus',
	],
	['GET', '/v1/properties/P000001?Purchase=0&Purchase=1', 'Purchase'],
	['GET', '/v1/lists/1/items?Limit=1&Limit=2', 'Limit'],
])('%s %s: a parameter given twice is 400 naming it', async (method, path, name) => {
	await sb.createList({ ListName: 'Imports', ListType: 'import', ImportSource: 'api' });
	const answer = await sb.api(method, path);
	expectError(answer, 400, `Invalid ${name}`);
	expect(answer.body.message).toContain(name);
	expect(await sb.charges()).toMatchObject({ log: [] });
});
