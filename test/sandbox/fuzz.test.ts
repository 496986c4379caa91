import fc from 'fast-check';

import { AUTOMATION_FIELDS } from '../support/apiDocuments';
import { PROTOTYPE_KEYS } from '../support/prototypeKeys';
import { TOKENS, useSandbox, type Json } from './helpers';

/**
 * Every API route of the sandbox, fed arbitrary query values, path ids and JSON bodies (prototype
 * key names among them): whatever comes in, the answer is the service's error object or a success,
 * never a 500.
 */
const sb = useSandbox({ resetEachTest: false });

/** The inherited key names, and `prototype`. */
const KEY_NAMES = [...PROTOTYPE_KEYS, 'prototype'];

const word = fc.oneof(
	{ weight: 3, arbitrary: fc.constantFrom(...KEY_NAMES) },
	{
		weight: 3,
		arbitrary: fc.constantFrom(
			'',
			'-',
			',',
			'1',
			'0',
			'-1',
			'1e309',
			'NaN',
			'true',
			'Overview',
			'Grid,-AVM',
			'P000001',
			'K000001A',
			'before: 1/1/2020',
			'Last 30 Days',
			'None',
			'asc',
			'desc',
		),
	},
	{ weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
/** A query value: a word, or words joined the way comma lists and suppressions are. */
const text = fc.oneof(
	word,
	fc
		.array(
			fc.oneof(
				word,
				word.map((w) => `-${w}`),
			),
			{ minLength: 2, maxLength: 3 },
		)
		.map((words) => words.join(',')),
);
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const json: fc.Arbitrary<Json> = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		scalar,
		fc.array(tie('value'), { maxLength: 4 }),
		fc.dictionary(
			fc.oneof(
				fc.constantFrom(...KEY_NAMES, 'name', 'value', 'Criteria'),
				fc.string({ maxLength: 8 }),
			),
			tie('value'),
			{ maxKeys: 4 },
		),
	),
})).value;
/** A record with some of `names` (and inherited key names) as keys, each with any JSON value. */
const recordOf = (names: string[]) =>
	fc.dictionary(fc.constantFrom(...names, ...KEY_NAMES), fc.oneof(text, json), { maxKeys: 5 });
const criterion = fc.record({
	name: fc.oneof(
		fc.constantFrom(
			'State',
			'PropID',
			'PropertyType',
			'PType',
			'Beds',
			'Pool',
			'InList',
			'LastTransferRecDate',
			'APN',
			...KEY_NAMES,
		),
		text,
	),
	value: fc.array(json, { maxLength: 3 }),
});
const criteria = fc.record({ Criteria: fc.array(criterion, { maxLength: 3 }) });
const id = fc.oneof(
	fc.constantFrom('1', '2', 'P000001', 'K000001A', '9007199254740993', ...KEY_NAMES),
	fc.string({ minLength: 1, maxLength: 8 }).filter((value) => !/[/?#%.]/.test(value)),
);

const ITEM_FILTERS = [
	'InterestLevel',
	'StatusLevel',
	'hasPhotos',
	'hasNotes',
	'hasAnalysis',
	'hasDocs',
	'PType',
	'LastTransferRecDate',
	'AddedSince',
	'MostRecentCall',
	'MostRecentEmail',
];

interface Route {
	method: string;
	path: (id: string) => string;
	params: string[];
	body?: fc.Arbitrary<unknown>;
}

const ROUTES: Route[] = [
	{
		method: 'GET',
		path: () => '/v1/lists',
		params: [
			'Fields',
			'ListType',
			'isMonitored',
			'ImportType',
			'GroupName',
			'DisplayOrder',
			'Limit',
			'Sort',
			'Dir',
		],
	},
	{
		method: 'POST',
		path: () => '/v1/lists',
		params: [],
		body: fc.oneof(
			recordOf(['ListName', 'ListType', 'Criteria', 'isMonitored', 'ImportSource', 'GroupName']),
			criteria.map((c) => ({ ListName: 'x', ...c })),
			criteria.map((c) => ({ ListName: 'x', ListType: 'static', ...c })),
		),
	},
	{ method: 'GET', path: (i) => `/v1/lists/${i}`, params: ['Fields'] },
	{
		method: 'PATCH',
		path: (i) => `/v1/lists/${i}`,
		params: [],
		body: recordOf([
			'ListName',
			'isMonitored',
			'ImportMatchThreshold',
			'ImportType',
			'ImportContactOptions',
			'DisplayOrder',
		]),
	},
	{
		method: 'GET',
		path: (i) => `/v1/lists/${i}/items`,
		params: ['Fields', 'Start', 'Limit', ...ITEM_FILTERS],
	},
	{
		method: 'PUT',
		path: (i) => `/v1/lists/${i}/items`,
		params: [],
		body: fc.oneof(criteria, recordOf(['Criteria'])),
	},
	{ method: 'DELETE', path: (i) => `/v1/lists/1/items/${i}`, params: [] },
	{ method: 'GET', path: (i) => `/v1/lists/${i}/automations`, params: [] },
	{
		method: 'PUT',
		path: () => '/v1/lists/3/automations',
		params: [],
		// Half of them an enabled automation on New Matches, so that it fires with the rest of what it was given.
		body: fc.oneof(
			recordOf(AUTOMATION_FIELDS),
			fc
				.dictionary(fc.constantFrom(...AUTOMATION_FIELDS.slice(2)), text, { maxKeys: 4 })
				.map((fields) => ({ ...fields, isEnabled: 1, Triggers: 'New Matches' })),
		),
	},
	{
		method: 'GET',
		path: (i) => `/v1/lists/${i}/import/items`,
		params: [
			'Fields',
			'Limit',
			'Start',
			'Sort',
			'Dir',
			'MatchScore',
			'PropertyStatus',
			'PersonStatus',
		],
	},
	{
		method: 'POST',
		path: () => '/v1/lists/2/import/items',
		params: ['Fields', 'Purchase'],
		body: fc.array(recordOf(['Address', 'City', 'State', 'ZipFive', 'Email', 'FullName']), {
			maxLength: 3,
		}),
	},
	{
		method: 'PATCH',
		path: (i) => `/v1/lists/2/import/items/${i}`,
		params: [],
		body: recordOf(['PersonKey', 'PropID']),
	},
	{ method: 'GET', path: (i) => `/v1/properties/${i}`, params: ['Fields', 'Purchase'] },
	{
		method: 'POST',
		path: () => '/v1/properties',
		params: ['Fields', 'Start', 'Limit', 'Sort', 'Dir', 'Purchase'],
		body: criteria,
	},
	{ method: 'GET', path: (i) => `/v1/properties/${i}/persons`, params: ['Fields', 'Purchase'] },
	{
		method: 'GET',
		path: (i) => `/v1/properties/${i}/comps/sales`,
		params: ['Purchase', 'Beds', 'Baths', 'SqFt', 'YearBuilt'],
	},
	{
		method: 'GET',
		path: (i) => `/v1/properties/${i}/transactions`,
		params: ['Purchase', 'Fields'],
	},
	{
		method: 'GET',
		path: (i) => `/v1/persons/${i}/liens`,
		params: ['Fields', 'Start', 'Limit', 'Purchase'],
	},
	{ method: 'POST', path: (i) => `/v1/persons/${i}/Phone`, params: ['Purchase'] },
	{
		method: 'GET',
		path: () => '/v1/integrations/webhooks',
		params: ['Start', 'Limit', 'Sort', 'Dir', 'Fields'],
	},
	{
		method: 'POST',
		path: () => '/v1/integrations/webhooks',
		params: [],
		body: recordOf(['HookUrl', 'WebhookName', 'Secret', 'Lists']),
	},
	{ method: 'DELETE', path: (i) => `/v1/integrations/webhooks/${i}`, params: [] },
];

beforeAll(async () => {
	await sb.ok('POST', '/v1/lists', {
		body: { ListName: 'Static', ListType: 'static', isMonitored: 1 },
	});
	await sb.ok('POST', '/v1/lists', {
		body: { ListName: 'Imports', ListType: 'import', ImportSource: 'api' },
	});
	await sb.ok('POST', '/v1/lists', {
		body: { ListName: 'Automated', ListType: 'static', isMonitored: 1 },
	});
	await sb.ok('PUT', '/v1/lists/1/items', {
		body: { Criteria: [{ name: 'PropID', value: ['P000001', 'P000002'] }] },
	});
});

/** The last property added to list 3 (each run of its automation gets a new one). */
let entered = 1000;

test.each(ROUTES.map((route) => ({ ...route, name: route.path('{id}') })))(
	'$method $name never answers 500',
	async ({ method, path, params, body }) => {
		const failures: string[] = [];
		const query =
			params.length === 0
				? fc.constant({})
				: fc.dictionary(fc.constantFrom(...params), text, { maxKeys: 3 });
		await fc.assert(
			fc.asyncProperty(
				id,
				query,
				body ?? fc.constant(undefined),
				async (pathId, values, payload) => {
					const search = new URLSearchParams(values).toString();
					const url = `${path(encodeURIComponent(pathId))}${search ? `?${search}` : ''}`;
					const answer = await sb.api(method, url, { token: TOKENS.main, body: payload });
					if (answer.status >= 500)
						failures.push(`${method} ${url} ${JSON.stringify(payload)} -> ${answer.status}`);
					if (method === 'PUT' && url.includes('/automations')) {
						// A new property enters list 3, so its automation runs with whatever configuration it took.
						const entering = `P${String(++entered).padStart(6, '0')}`;
						const fired = await sb.api('PUT', '/v1/lists/3/items', {
							body: { Criteria: [{ name: 'PropID', value: [entering] }] },
						});
						if (fired.status >= 500)
							failures.push(
								`${entering} entering list 3 after ${method} ${url} ${JSON.stringify(payload)} -> ${fired.status}`,
							);
					}
					return true;
				},
			),
			{ numRuns: 150, seed: 13 },
		);
		expect(failures).toEqual([]);
	},
);
