import type { IDataObject } from 'n8n-workflow';

import {
	api,
	createList,
	importInto,
	listRef,
	run,
	runOk,
	useEngineSandbox,
} from '../support/helpers';

/**
 * Bad input, one point at a time (issue 13, points 4 to 9): each is refused before anything is
 * sent, with a message naming the field, or sent exactly as given. The fuzzed tier over every
 * operation is `badInputFuzz.test.ts`.
 */
// A bound against a hung run on a busy machine (searches quote over the whole data set), not a speed assertion.
jest.setTimeout(60_000);

const sb = useEngineSandbox();
let staticList: number;
beforeAll(async () => {
	staticList = await createList(sb, { listName: 'bad input', listType: 'static' });
});

/** Runs and returns the error and the requests the run sent. */
async function attempt(parameters: IDataObject, items?: IDataObject[]) {
	const before = sb.requests.length;
	const result = await run(sb, parameters, items);
	return { ...result, sent: sb.requests.slice(before) };
}

describe('Limit is a whole number from 1 up', () => {
	test.each([
		['NaN', '={{ NaN }}', 'NaN'],
		['0', 0, '0'],
		['negative', -5, '-5'],
		['a fraction', 2.5, '2.5'],
		['text', '={{ "ten" }}', 'ten'],
	])('%s is refused naming Limit, nothing sent', async (_name, limit, shown) => {
		for (const parameters of [
			{ resource: 'list', operation: 'getMany', returnAll: false, limit },
			{ resource: 'webhook', operation: 'getMany', returnAll: false, limit },
			{
				resource: 'property',
				operation: 'search',
				criteriaMode: 'json',
				criteriaJson: '[{"name":"State","value":["OR"]}]',
				returnAll: false,
				limit,
			},
		]) {
			const result = await attempt(parameters);
			expect(result.error?.message).toBe(`Limit: must be a whole number from 1 up, got "${shown}"`);
			expect(result.sent).toEqual([]);
		}
	});

	test('a Limit from an expression as digits works', async () => {
		const result = await attempt({
			resource: 'list',
			operation: 'getMany',
			returnAll: false,
			limit: '={{ "2" }}',
		});
		expect(result.error).toBeUndefined();
		expect(result.sent[0].query.get('Limit')).toBe('2');
	});
});

describe('IDs are sent as the digits given', () => {
	test('a list ID beyond 2^53 is sent with every digit, never rounded', async () => {
		const result = await attempt({
			resource: 'list',
			operation: 'get',
			listId: listRef('9007199254740993'),
		});
		expect(result.sent.map((request) => request.path)).toEqual(['/v1/lists/9007199254740993']);
	});

	test.each([
		['a 77-digit ID', '9'.repeat(77)],
		['2^63', '9223372036854775808'],
		['0', '0'],
		['an exponent', '={{ "1e3" }}'],
		['a negative number', '={{ -4 }}'],
		['NaN', '={{ NaN }}'],
		['an object', '={{ $json.id }}'],
	])('%s is refused naming the list, nothing sent', async (_name, id) => {
		const result = await attempt({ resource: 'list', operation: 'get', listId: listRef(id) }, [
			{ id: { ListID: 1 } },
		]);
		expect(result.error?.message).toMatch(
			/^List: ".*" is not a list ID; a list ID is a whole number from 1 to 9223372036854775807$/,
		);
		expect(result.sent).toEqual([]);
	});

	test('a number beyond 2^53 has already lost digits: refused, asking for text', async () => {
		const result = await attempt({
			resource: 'webhook',
			operation: 'delete',
			webhookId: 2 ** 53 + 2,
		});
		expect(result.error?.message).toContain(
			'Webhook ID: "9007199254740994" is beyond 9007199254740991, where a number has already lost digits; give an ID as text',
		);
		expect(result.sent).toEqual([]);
	});

	test('webhook and import item IDs beyond 2^53 are sent as the digits given', async () => {
		const webhook = await attempt({
			resource: 'webhook',
			operation: 'delete',
			webhookId: '={{ "12345678901234567890" }}',
		});
		expect(webhook.error?.message).toContain('Webhook ID: "12345678901234567890" is not an ID');
		expect(webhook.sent).toEqual([]);
		const hook = await attempt({
			resource: 'webhook',
			operation: 'delete',
			webhookId: '={{ "9007199254740993" }}',
		});
		expect(hook.sent.map((request) => request.path)).toEqual([
			'/v1/integrations/webhooks/9007199254740993',
		]);
		const item = await attempt({
			resource: 'importRecord',
			operation: 'deleteMatch',
			listId: listRef(staticList),
			importItemId: '={{ "9007199254740995" }}',
		});
		expect(item.sent.map((request) => request.path)).toEqual([
			`/v1/lists/${staticList}/import/items/9007199254740995`,
		]);
	});

	test('Webhook > Create sends list IDs exactly, in the path and in Lists', async () => {
		const result = await attempt({
			resource: 'webhook',
			operation: 'create',
			hookUrl: 'https://crm.example/hook',
			webhookName: 'x',
			lists: '={{ ["9007199254740993"] }}',
		});
		expect(result.sent[0].path).toBe('/v1/lists/9007199254740993/automations');
		const refused = await attempt({
			resource: 'webhook',
			operation: 'create',
			hookUrl: 'https://crm.example/hook',
			webhookName: 'x',
			lists: '={{ [1, "x"] }}',
		});
		expect(refused.error?.message).toBe(
			'Lists: "x" is not a list ID; a list ID is a whole number from 1 to 9223372036854775807',
		);
		expect(refused.sent).toEqual([]);
	});
});

describe('names are looked up as own names', () => {
	test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
		'fieldset "%s" is refused, nothing sent',
		async (name) => {
			const result = await attempt({
				resource: 'list',
				operation: 'get',
				listId: listRef(staticList),
				fields: { include: [name] },
			});
			expect(result.error?.message).toBe(`Fields: ${name} is not allowed here`);
			const property = await attempt({
				resource: 'property',
				operation: 'get',
				propId: 'P000001',
				fields: { fieldsets: [name] },
			});
			expect(property.error?.message).toBe(`Fields: ${name} is not allowed here`);
			expect([...result.sent, ...property.sent]).toEqual([]);
		},
	);

	test.each(['constructor', 'toString'])(
		'builder criterion "%s" is refused, nothing sent',
		async (name) => {
			const result = await attempt({
				resource: 'property',
				operation: 'search',
				criteriaMode: 'builder',
				criteria: { criterion: [{ name, values: 'x' }] },
				returnAll: true,
			});
			expect(result.error?.message).toBe(
				`Criteria row 1: "${name}" is not a builder criterion; use JSON mode for other criteria`,
			);
			expect(result.sent).toEqual([]);
		},
	);

	test.each(['constructor', 'toString'])(
		'operation "%s" is not an operation',
		async (operation) => {
			const result = await attempt({ resource: 'list', operation });
			expect(result.error?.message).toBe(
				`The operation "${operation}" of resource "list" is not known`,
			);
			expect(result.sent).toEqual([]);
		},
	);

	test('record kind "constructor" is refused, nothing sent', async () => {
		const result = await attempt({
			resource: 'person',
			operation: 'getRecords',
			personKey: 'K000001A',
			recordKind: '={{ "constructor" }}',
			returnAll: true,
		});
		expect(result.error?.message).toBe('Records: "constructor" is not allowed');
		expect(result.error?.description).toBe(
			'Use "bankruptcies", "divorces", "liens", "probates" or "relatives".',
		);
		expect(result.sent).toEqual([]);
	});
});

describe('only the compound PropertyType takes nested criteria', () => {
	test('a nested criterion under State is refused, nothing sent', async () => {
		const result = await attempt({
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"State","value":[{"name":"PType","value":["SFR"]}]}]',
			returnAll: true,
		});
		expect(result.error?.message).toBe(
			'Criteria[0].value[0] (State): only PropertyType takes nested criteria',
		);
		expect(result.sent).toEqual([]);
	});

	test('PType and AdvancedPropertyType inside PropertyType reach the service and select those properties', async () => {
		const [quote] = await runOk(sb, {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'builder',
			criteria: {
				criterion: [
					{ name: 'State', values: 'OR' },
					{ name: 'PropertyType', propertyTypes: [], advancedPropertyTypes: 'Duplex' },
				],
			},
			returnAll: true,
		});
		const sent = JSON.parse(sb.sent('/v1/properties', 'POST').at(-1)!.body);
		expect(sent.Criteria[1]).toEqual({
			name: 'PropertyType',
			value: [{ name: 'AdvancedPropertyType', value: ['Duplex'] }],
		});
		const [mfr] = await runOk(sb, {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'builder',
			criteria: {
				criterion: [
					{ name: 'State', values: 'OR' },
					{ name: 'PropertyType', propertyTypes: ['MFR'] },
				],
			},
			returnAll: true,
		});
		// In the sandbox every MFR property is a Duplex: the two criteria select the same properties.
		expect(Number(quote.resultCount)).toBeGreaterThan(0);
		expect(quote.resultCount).toBe(mfr.resultCount);
	});
});

describe('list names are cut at 50 characters, never inside one', () => {
	const name = `${'a'.repeat(49)}🏠🏠 more`;

	test('List > Create sends the first 50 characters and says so', async () => {
		const [created] = await runOk(sb, {
			resource: 'list',
			operation: 'create',
			listName: name,
			listType: 'static',
		});
		const sent = JSON.parse(sb.sent('/v1/lists', 'POST').at(-1)!.body);
		expect(sent.ListName).toBe(`${'a'.repeat(49)}🏠`);
		expect(created.ListName).toBe(`${'a'.repeat(49)}🏠`);
		expect(created.notice).toBe('List Name had 56 characters; PropRadar keeps the first 50.');
	});

	test('List > Update does the same', async () => {
		const [updated] = await runOk(sb, {
			resource: 'list',
			operation: 'update',
			listId: listRef(staticList),
			updateFields: { ListName: name },
		});
		const sent = JSON.parse(sb.sent(`/v1/lists/${staticList}`, 'PATCH').at(-1)!.body);
		expect(sent.ListName).toBe(`${'a'.repeat(49)}🏠`);
		expect(updated.notice).toBe('List Name had 56 characters; PropRadar keeps the first 50.');
	});

	test('a name of 50 characters of which some are emoji is kept whole, with no notice', async () => {
		const fifty = '🏠'.repeat(50);
		const [created] = await runOk(sb, {
			resource: 'list',
			operation: 'create',
			listName: fifty,
			listType: 'static',
		});
		expect(JSON.parse(sb.sent('/v1/lists', 'POST').at(-1)!.body).ListName).toBe(fifty);
		expect(created.notice).toBeUndefined();
	});
});

describe('PropID and PersonKey', () => {
	test.each([
		['a path', 'P1/../../v1/lists', 'contains one of / \\ ? # %'],
		['a query', 'P1?Purchase=1', 'contains one of / \\ ? # %'],
		['dots', '..', 'is only dots'],
		['whitespace', 'P 000001', 'contains whitespace'],
		['a control character', 'P000001\u0000', 'contains a control character'],
		['an absurd length', 'P'.repeat(101), 'is longer than 100 characters'],
		['nothing (from an expression)', '={{ "  " }}', 'is empty'],
	])(
		'%s is refused in every operation that takes one, nothing sent',
		async (_name, key, problem: string | RegExp) => {
			const withPropId: IDataObject[] = [
				{ resource: 'property', operation: 'get', propId: key },
				{ resource: 'property', operation: 'getEvictions', propId: key },
				{ resource: 'property', operation: 'getComps', propId: key, compsKind: 'sales' },
				{ resource: 'property', operation: 'getParcels', propId: key },
				{ resource: 'property', operation: 'getTransactions', propId: key },
				{ resource: 'person', operation: 'getOwners', propId: key },
				{ resource: 'listItem', operation: 'remove', listId: listRef(staticList), propId: key },
				// Empty entries of a comma list are skipped, so List Item > Add takes only what is there.
				...(key.startsWith('=')
					? []
					: [
							{
								resource: 'listItem',
								operation: 'add',
								listId: listRef(staticList),
								addBy: 'propIds',
								propIds: `P000001,${key}`,
							},
						]),
			];
			const withPersonKey: IDataObject[] = [
				{
					resource: 'person',
					operation: 'getRecords',
					personKey: key,
					recordKind: 'liens',
					returnAll: true,
				},
				{ resource: 'person', operation: 'purchasePhone', personKey: key },
				{ resource: 'person', operation: 'purchaseEmail', personKey: key },
			];
			for (const parameters of [...withPropId, ...withPersonKey]) {
				const result = await attempt(parameters);
				expect(result.error?.message).toMatch(problem);
				expect(result.error?.message).toMatch(/^(Property ID|Property IDs|Person Key): /);
				expect(result.sent).toEqual([]);
			}
		},
	);

	test('an empty key from an input item without the field says so, and how to get one', async () => {
		// As after a Manual Trigger, whose one item is empty.
		for (const [parameters, field, source] of [
			[{ resource: 'property', operation: 'get', propId: '' }, 'PropID', 'Property > Search'],
			[
				{ resource: 'property', operation: 'get', propId: '={{ $json.PropID }}' },
				'PropID',
				'Property > Search',
			],
			[
				{ resource: 'property', operation: 'get', propId: '={{ ($json.PropID) }}' },
				'PropID',
				'Property > Search',
			],
			[
				{ resource: 'person', operation: 'purchasePhone', personKey: '={{ $json.PersonKey }}' },
				'PersonKey',
				'Person > Get Owners',
			],
			[
				{ resource: 'person', operation: 'purchasePhone', personKey: '={{ ($json.owner.key) }}' },
				'PersonKey',
				'Person > Get Owners',
			],
		] as const) {
			const result = await attempt(parameters, [{}]);
			expect(result.error?.message).toMatch(
				new RegExp(`^(Property ID|Person Key) is empty and the input item has no ${field}$`),
			);
			expect(result.error?.description).toMatch(
				new RegExp(
					`the item at index 0 has none \\(an item from a Manual Trigger has none\\)\\. Run this node after one that gives ${field}, such as ${source}, or enter the key itself\\.$`,
				),
			);
			expect(result.sent).toEqual([]);
		}
		// A field that is there but empty is only empty.
		for (const propId of ['', '={{ $json.PropID }}', '={{ ($json.PropID) }}']) {
			const empty = await attempt({ resource: 'property', operation: 'get', propId }, [
				{ PropID: '' },
			]);
			expect(empty.error?.message).toMatch(/^Property ID: "" is empty; /);
		}
	});

	test("other shapes than the sandbox's are sent as given", async () => {
		const result = await attempt({
			resource: 'property',
			operation: 'get',
			propId: 'abc-123_XYZ.9',
		});
		expect(result.sent.map((request) => request.path)).toEqual(['/v1/properties/abc-123_XYZ.9']);
	});

	test('a PropID the criteria builder refuses never reaches the service', async () => {
		const result = await attempt({
			resource: 'property',
			operation: 'search',
			criteriaMode: 'builder',
			criteria: { criterion: [{ name: 'PropID', values: 'P1#x' }] },
			returnAll: true,
		});
		expect(result.error?.message).toBe(
			'Criteria row 1 (Property ID): "P1#x" contains one of / \\ ? # %; a PropID is text such as P000123, without whitespace, control characters or / \\ ? # %, at most 100 characters',
		);
		expect(result.sent).toEqual([]);
	});
});

describe('criteria builder values from expressions (issue 14, point 2)', () => {
	const items = [
		{ ListID: 0, ZipFive: 97411, ids: ['P000001', 'P000002'], state: ['OR'], beds: 3 },
	];

	test('List > Create: In List, ZIP code, State and Beds from expressions that yield numbers and arrays', async () => {
		items[0].ListID = staticList;
		const result = await run(
			sb,
			{
				resource: 'list',
				operation: 'create',
				listName: 'from expressions',
				listType: 'dynamic',
				criteriaMode: 'builder',
				criteria: {
					criterion: [
						{ name: 'InList', values: '={{ $json.ListID }}' },
						{ name: 'ZipFive', values: '={{ $json.ZipFive }}' },
						{ name: 'State', values: '={{ $json.state }}' },
						{ name: 'Beds', min: '={{ $json.beds }}', max: '' },
					],
				},
			},
			items,
		);
		expect(result.error).toBeUndefined();
		expect(JSON.parse(sb.sent('/v1/lists', 'POST').at(-1)!.body).Criteria).toEqual([
			{ name: 'InList', value: [staticList] },
			{ name: 'ZipFive', value: [97411] },
			{ name: 'State', value: ['OR'] },
			{ name: 'Beds', value: [[3, null]] },
		]);
	});

	test('List Item > Add: PropIDs from an array, by IDs and by criteria', async () => {
		const byIds = await run(
			sb,
			{
				resource: 'listItem',
				operation: 'add',
				listId: listRef(staticList),
				addBy: 'propIds',
				propIds: '={{ $json.ids }}',
			},
			items,
		);
		expect(byIds.error).toBeUndefined();
		expect(
			JSON.parse(sb.sent(`/v1/lists/${staticList}/items`, 'PUT').at(-1)!.body).Criteria,
		).toEqual([{ name: 'PropID', value: ['P000001', 'P000002'] }]);
		const byCriteria = await run(
			sb,
			{
				resource: 'listItem',
				operation: 'add',
				listId: listRef(staticList),
				addBy: 'criteria',
				criteriaMode: 'builder',
				criteria: { criterion: [{ name: 'PropID', values: '={{ $json.ids }}' }] },
			},
			items,
		);
		expect(byCriteria.error).toBeUndefined();
		expect(
			JSON.parse(sb.sent(`/v1/lists/${staticList}/items`, 'PUT').at(-1)!.body).Criteria,
		).toEqual([{ name: 'PropID', value: ['P000001', 'P000002'] }]);
	});

	test('Property > Search: every builder field fed by an expression', async () => {
		const result = await run(
			sb,
			{
				resource: 'property',
				operation: 'search',
				criteriaMode: 'builder',
				criteria: {
					criterion: [
						{ name: 'PropID', values: '={{ $json.ids }}' },
						{ name: 'ZipFive', values: '={{ [97411, "97202"] }}' },
						{ name: 'Pool', has: '={{ false }}' },
						{ name: 'AVM', min: '={{ 100000 }}', max: '={{ 900000 }}' },
						{
							name: 'PropertyType',
							propertyTypes: '={{ "SFR,CND" }}',
							advancedPropertyTypes: '={{ ["Duplex"] }}',
						},
						{ name: 'LastTransferRecDate', date: '={{ "Last 365 Days" }}' },
					],
				},
				returnAll: true,
			},
			items,
		);
		expect(result.error).toBeUndefined();
		expect(JSON.parse(sb.sent('/v1/properties', 'POST').at(-1)!.body).Criteria).toEqual([
			{ name: 'PropID', value: ['P000001', 'P000002'] },
			{ name: 'ZipFive', value: [97411, 97202] },
			{ name: 'Pool', value: [0] },
			{ name: 'AVM', value: [[100000, 900000]] },
			{
				name: 'PropertyType',
				value: [
					{ name: 'PType', value: ['SFR', 'CND'] },
					{ name: 'AdvancedPropertyType', value: ['Duplex'] },
				],
			},
			{ name: 'LastTransferRecDate', value: ['Last 365 Days'] },
		]);
	});

	test('an expression that yields an object is refused naming the row and the field', async () => {
		const result = await attempt(
			{
				resource: 'property',
				operation: 'search',
				criteriaMode: 'builder',
				criteria: { criterion: [{ name: 'InList', values: '={{ $json }}' }] },
				returnAll: true,
			},
			items,
		);
		expect(result.error?.message).toBe(
			'Criteria row 1 (In List): values must be text, a number or a list of them',
		);
		expect(result.sent).toEqual([]);
	});
});

/**
 * n8n hands a node what an expression, an imported workflow or an AI agent's tool call gives for
 * an option, a number or a switch without checking it against the node's description. Each such
 * value is checked against it before anything is sent: before, each of these reached the
 * service, or was taken for something else (a Mode "x" replaced the automation, a Charge Mode
 * "buy" ran as a preview, an "Allow Charging Automation" of "false" let a charging automation
 * through).
 */
describe("options, numbers and switches from expressions are checked against the node's description", () => {
	const importList = {
		resource: 'list',
		operation: 'create',
		listName: 'checked',
		listType: 'import',
		importSource: 'api',
	};
	const comps = {
		resource: 'property',
		operation: 'getComps',
		propId: 'P000001',
		compsKind: 'sales',
		chargeMode: 'purchase',
		maxCost: 5,
	};
	const listGetMany = { resource: 'list', operation: 'getMany', returnAll: true };
	const importItems = {
		resource: 'importRecord',
		operation: 'getMany',
		listId: listRef(1),
		returnAll: true,
	};
	const listItems = {
		resource: 'listItem',
		operation: 'getMany',
		listId: listRef(1),
		returnAll: true,
	};
	const configureAutomation = {
		resource: 'automation',
		operation: 'configure',
		listId: listRef(1),
	};
	const createWebhook = {
		resource: 'webhook',
		operation: 'create',
		hookUrl: 'https://crm.example.com/hook',
		webhookName: 'crm',
	};
	test.each<[string, IDataObject, string]>([
		[
			'List > Create, Import Source',
			{ ...importList, importSource: '={{ "ftp" }}' },
			'Import Source: "ftp" is not allowed; use "api", "file" or "zapier"',
		],
		[
			'List > Create, List Type',
			{ ...importList, listType: '={{ "smart" }}' },
			'List Type: "smart" is not allowed; use "dynamic", "import" or "static"',
		],
		[
			'List > Create, Import Type',
			{ ...importList, importOptions: { ImportType: '={{ "x" }}' } },
			'Import Options > Import Type: "x" is not allowed; use "person" or "property"',
		],
		[
			'List > Create, Match Threshold above 100',
			{ ...importList, importOptions: { ImportMatchThreshold: '={{ 150 }}' } },
			'Import Options > Match Threshold: must be a whole number from 0 to 100, got "150"',
		],
		[
			'List > Create, Match Threshold as words',
			{ ...importList, importOptions: { ImportMatchThreshold: '={{ "high" }}' } },
			'Import Options > Match Threshold: must be a whole number from 0 to 100, got "high"',
		],
		[
			'List > Create, Monitored as text',
			{ ...importList, isMonitored: '={{ "false" }}' },
			'Monitored: must be on or off (true or false), got "false"',
		],
		[
			'List > Get Many, List Type filter',
			{ ...listGetMany, filters: { ListType: '={{ "x" }}' } },
			'Filters > List Type: "x" is not allowed; use "dynamic", "import" or "static"',
		],
		[
			'List > Get Many, sort field',
			{ ...listGetMany, sort: { rule: [{ field: '={{ "Nope" }}', direction: 'asc' }] } },
			'Sort > Field: "Nope" is not allowed; use "DisplayOrder", "ListName" or "TotalCount"',
		],
		[
			'List > Get Many, sort direction',
			{ ...listGetMany, sort: { rule: [{ field: 'ListName', direction: '={{ "up" }}' }] } },
			'Sort > Direction: "up" is not allowed; use "asc" or "desc"',
		],
		[
			'List > Update, Display Order below 0',
			{
				resource: 'list',
				operation: 'update',
				listId: listRef(1),
				updateFields: { DisplayOrder: '={{ -3 }}' },
			},
			'Update Fields > Display Order: must be a whole number, 0 or more, got "-3"',
		],
		[
			'Property > Get Comps, Beds as words',
			{ ...comps, subject: { Beds: '={{ "three" }}' } },
			'Subject Overrides > Beds: must be a whole number, 0 or more, got "three"',
		],
		[
			'Property > Get Comps, Year Built out of range',
			{ ...comps, subject: { YearBuilt: '={{ 3000 }}' } },
			'Subject Overrides > Year Built: must be a whole number from 1600 to 2100, got "3000"',
		],
		[
			'Property > Get Comps, Comparables',
			{ ...comps, compsKind: '={{ "rentals" }}' },
			'Comparables: "rentals" is not allowed; use "sales" or "forsale"',
		],
		[
			'Import Record > Import, Map Fields',
			importInto(1, { mapping: '={{ "csv" }}', chargeMode: 'preview' }),
			'Map Fields: "csv" is not allowed; use "auto" or "manual"',
		],
		[
			'Import Record > Import, Batch Size',
			importInto(1, { chargeMode: 'preview', importOptions: { batchSize: '={{ 0 }}' } }),
			'Options > Batch Size: must be a whole number from 1 to 5000, got "0"',
		],
		[
			'Import Record > Import, Map Each Field with a field that is no record field',
			importInto(1, {
				mapping: 'manual',
				chargeMode: 'purchase',
				maxCost: 5,
				recordFields: {
					field: [
						{ name: 'Address', value: 'x' },
						{ name: '={{ "Adress" }}', value: '1 Main St' },
					],
				},
			}),
			'Record Fields row 2 > Record Field: "Adress" is not allowed; use "APN", "Address", "City", "County", "Email", "EmailStatus", "FirstName", "FullName", "LastName", "Phone", "PhoneStatus", "PhoneType", "State" or "ZipFive"',
		],
		[
			'Import Record > Get Many, Property Status',
			{ ...importItems, filters: { PropertyStatus: '={{ ["Found"] }}' } },
			'Filters > Property Status: "Found" is not allowed; use any of "Matched", "Not Found", "Pending" or "Selected"',
		],
		[
			'Import Record > Get Many, Minimum Match Score',
			{ ...importItems, filters: { MatchScore: '={{ 300 }}' } },
			'Filters > Minimum Match Score: must be a whole number from 0 to 100, got "300"',
		],
		[
			'List Item > Get Many, Interest Levels',
			{ ...listItems, filters: { InterestLevel: '={{ [9] }}' } },
			'Filters > Interest Levels: "9" is not allowed; use any of 0, 1, 2, 3, 4 or 5',
		],
		[
			'List Item > Get Many, Status Levels above 9',
			{ ...listItems, filters: { StatusLevel: '={{ [2, 12] }}' } },
			'Filters > Status Level Names or IDs: must be a whole number from 1 to 9, got "12"',
		],
		[
			'List Item > Get Many, Status Level 0',
			{ ...listItems, filters: { StatusLevel: '={{ "0" }}' } },
			'Filters > Status Level Names or IDs: must be a whole number from 1 to 9, got "0"',
		],
		[
			'List Item > Get Many, Status Level as words',
			{ ...listItems, filters: { StatusLevel: '={{ "Hot lead" }}' } },
			'Filters > Status Level Names or IDs: must be a whole number from 1 to 9, got "Hot lead"',
		],
		[
			'List Item > Get Many, Added Since as words',
			{ ...listItems, filters: { AddedSince: '={{ "yesterday" }}' } },
			'Filters > Added Since: "yesterday" is not a date and time; use one such as 2026-11-01 or 2026-11-01T08:30:00Z',
		],
		[
			'List Item > Get Many, Added Since as a list',
			{ ...listItems, filters: { AddedSince: '={{ ["2026-11-01"] }}' } },
			'Filters > Added Since: "["2026-11-01"]" is not a date and time; use one such as 2026-11-01 or 2026-11-01T08:30:00Z',
		],
		[
			'List Item > Add, Add By',
			{ resource: 'listItem', operation: 'add', listId: listRef(1), addBy: '={{ "search" }}' },
			'Add By: "search" is not allowed; use "propIds" or "criteria"',
		],
		[
			'Automation > Configure, Mode',
			{
				...configureAutomation,
				configureMode: '={{ "merge" }}',
				automation: { SetInterestLevel: 2 },
			},
			'Mode: "merge" is not allowed; use "update" or "replace"',
		],
		[
			'Automation > Configure, Allow Charging Automation as text',
			{
				...configureAutomation,
				configureMode: 'update',
				automation: { PurchasePhone: true },
				allowChargingAutomation: '={{ "false" }}',
			},
			'Allow Charging Automation: must be on or off (true or false), got "false"',
		],
		[
			'Automation > Configure, Then Set Interest Level as a switch',
			{
				...configureAutomation,
				configureMode: 'update',
				automation: { SetInterestLevel: '={{ true }}' },
			},
			'SetInterestLevel: must be a whole number from 0 to 5, got "true"',
		],
		[
			'Automation > Configure, Then Set Status Level as a list',
			{
				...configureAutomation,
				configureMode: 'update',
				automation: { SetStatusLevel: '={{ [2] }}' },
			},
			'SetStatusLevel: must be a whole number from 0 to 9, got "[2]"',
		],
		[
			'Automation > Configure, Purchase Phone as text',
			{
				...configureAutomation,
				configureMode: 'update',
				automation: { PurchasePhone: '={{ "true" }}' },
				allowChargingAutomation: true,
			},
			'PurchasePhone: must be on or off (true or false), got "true"',
		],
		[
			'Webhook > Create, Turn On Monitoring as text',
			{ ...createWebhook, lists: '1', turnOnMonitoring: '={{ "false" }}' },
			'Turn On Monitoring: must be on or off (true or false), got "false"',
		],
		[
			'Webhook > Create, Secret as a list (not shown in the error)',
			{ ...createWebhook, secret: '={{ ["s3cret-from-a-sheet"] }}' },
			'Secret: must be text, got a list',
		],
		[
			'Webhook > Get Many, Include Secrets as text',
			{ resource: 'webhook', operation: 'getMany', returnAll: true, includeSecret: '={{ "no" }}' },
			'Include Secrets: must be on or off (true or false), got "no"',
		],
		[
			'Buy Items at Once as text',
			{
				resource: 'property',
				operation: 'get',
				propId: 'P000001',
				chargeMode: 'purchase',
				maxCost: 5,
				concurrentPurchases: '={{ "true" }}',
			},
			'Buy Items at Once: must be on or off (true or false), got "true"',
		],
		[
			'Charge Mode',
			{ resource: 'property', operation: 'get', propId: 'P000001', chargeMode: 'buy', maxCost: 5 },
			'Charge Mode: "buy" is not allowed; use "preview" or "purchase"',
		],
		[
			'Property > Search, Criteria Mode',
			{
				resource: 'property',
				operation: 'search',
				criteriaMode: '={{ "JSON" }}',
				criteriaJson: '[{"name":"State","value":["OR"]}]',
				returnAll: true,
				chargeMode: 'purchase',
				maxCost: 5,
			},
			'Criteria Mode: "JSON" is not allowed; use "builder" or "json"',
		],
	])(
		'%s: refused naming the field and what it allows, nothing sent',
		async (_name, parameters, refusal) => {
			const result = await attempt(parameters);
			// What is allowed follows in the description.
			const [message, allowed] = refusal.split('; use ');
			expect(result.error?.message).toBe(message);
			if (allowed) expect(result.error?.description).toBe(`Use ${allowed}.`);
			expect(result.sent).toEqual([]);
		},
	);

	test('Status Levels from an expression as comma-separated text or a number are sent as the levels', async () => {
		for (const [given, sent] of [
			['={{ "2, 4" }}', '2,4'],
			['={{ 3 }}', '3'],
		]) {
			const result = await attempt({
				resource: 'listItem',
				operation: 'getMany',
				listId: listRef(staticList),
				returnAll: true,
				filters: { StatusLevel: given },
			});
			expect(result.error).toBeUndefined();
			expect(
				result.sent.find((request) => request.path.endsWith('/items'))?.query.get('StatusLevel'),
			).toBe(sent);
		}
	});

	test("an automation's levels and ID lists from expressions that give nothing are left out, so they stay as they are (not set to 0, not cleared)", async () => {
		const listId = await createList(sb, {
			listName: 'levels kept',
			listType: 'static',
			isMonitored: true,
		});
		const otherList = await createList(sb, { listName: 'levels kept, other', listType: 'static' });
		const configure = {
			resource: 'automation',
			operation: 'configure',
			listId: listRef(listId),
			configureMode: 'update',
		};
		const kept = {
			SetInterestLevel: 4,
			SetStatusLevel: 2,
			AddToLists: String(otherList),
			ExportToWebhookIDs: '7',
		};
		await runOk(sb, { ...configure, automation: kept });
		await runOk(
			sb,
			{
				...configure,
				automation: {
					SetInterestLevel: '={{ $json.stars }}',
					SetStatusLevel: '={{ $json.status }}',
					AddToLists: '={{ $json.lists }}',
					ExportToWebhookIDs: '={{ $json.hooks ?? "" }}',
					Triggers: 'New Matches',
				},
			},
			[{ name: 'a row without stars, status, lists or webhooks' }],
		);
		const { body } = await api<{ results: IDataObject[] }>(
			sb,
			'GET',
			`/v1/lists/${listId}/automations`,
		);
		expect(body.results[0]).toMatchObject({ ...kept, Triggers: 'New Matches' });
		// A list left empty in the editor still clears.
		await runOk(sb, { ...configure, automation: { AddToLists: [] } });
		expect(
			(await api<{ results: IDataObject[] }>(sb, 'GET', `/v1/lists/${listId}/automations`)).body
				.results[0].AddToLists,
		).toBe('');
	});

	test('Added Since from an expression: a time in milliseconds and a date of $now are sent as ISO dates', async () => {
		const getMany = {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(staticList),
			returnAll: true,
		};
		await runOk(sb, { ...getMany, filters: { AddedSince: '={{ 1700000000000 }}' } });
		expect(sb.sent(`/v1/lists/${staticList}/items`, 'GET').at(-1)?.query.get('AddedSince')).toBe(
			'2023-11-14T22:13:20.000Z',
		);
		await runOk(sb, { ...getMany, filters: { AddedSince: '={{ $now.minus({ days: 7 }) }}' } });
		const sent = Date.parse(
			sb.sent(`/v1/lists/${staticList}/items`, 'GET').at(-1)?.query.get('AddedSince') ?? '',
		);
		expect(Math.abs(Date.now() - 7 * 86_400_000 - sent)).toBeLessThan(3_600_000);
	});

	test('a Criteria Mode of " json" from an expression searches by the JSON criteria, not by the builder\'s rows', async () => {
		const search = {
			resource: 'property',
			operation: 'search',
			criteria: { criterion: [{ name: 'State', values: 'CA' }] },
			criteriaJson: '[{"name":"State","value":["OR"]}]',
			returnAll: true,
			chargeMode: 'preview',
		};
		await runOk(sb, { ...search, criteriaMode: '={{ " json" }}' });
		expect(JSON.parse(sb.sent('/v1/properties', 'POST').at(-1)!.body).Criteria).toEqual([
			{ name: 'State', value: ['OR'] },
		]);
	});

	test('allowed values given by expressions go through, numbers and options given as text included', async () => {
		const listId = await createList(sb, {
			...importList,
			isMonitored: '={{ true }}',
			importOptions: { ImportType: '={{ "person" }}', ImportMatchThreshold: '={{ "70" }}' },
		});
		const [list] = await runOk(sb, { resource: 'list', operation: 'get', listId: listRef(listId) });
		expect(list).toMatchObject({
			ListType: 'import',
			ImportType: 'person',
			ImportMatchThreshold: 70,
			isMonitored: 1,
		});
		const found = await runOk(sb, {
			resource: 'list',
			operation: 'getMany',
			returnAll: true,
			filters: { ListType: '={{ "import" }}' },
			sort: { rule: [{ field: 'ListName', direction: '={{ "desc" }}' }] },
		});
		expect(found.map((entry) => entry.ListID)).toContain(listId);
		expect(found.every((entry) => entry.ListType === 'import')).toBe(true);
		expect(sb.sent('/v1/lists', 'GET').at(-1)?.query.get('Dir')).toBe('desc');
		const items = await runOk(sb, {
			resource: 'listItem',
			operation: 'getMany',
			listId: listRef(staticList),
			returnAll: true,
			filters: { InterestLevel: '={{ "0,3" }}' },
		});
		expect(items).toEqual([]);
		expect(sb.sent(`/v1/lists/${staticList}/items`, 'GET').at(-1)?.query.get('InterestLevel')).toBe(
			'0,3',
		);
	});
});
