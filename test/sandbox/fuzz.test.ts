import fc from 'fast-check';

import { AUTOMATION_FIELDS } from '../support/apiDocuments';
import { PROTOTYPE_KEYS } from '../support/prototypeKeys';
import { TOKENS, useSandbox, type Json } from './helpers';

/**
 * Every route of the sandbox, fed arbitrary path ids, query parameters (repeated, empty, huge,
 * wrongly typed, unknown) and bodies (of the route's shape or any JSON at all, huge strings, prototype
 * key names among them): whatever comes in, the answer is the service's error object or a success,
 * never a 500. Left out: `/_sandbox/faults`, whose job is to answer any status it is told to (500
 * too), and `/_sandbox/reset`, which takes nothing and would undo the lists the other routes use.
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
/** Values far longer than any field takes; the URL of a query stays under Node's 16 KB header limit. */
const huge = fc.constantFrom('x'.repeat(3000), '9'.repeat(400), `${'Overview,'.repeat(300)}-AVM`);
const scalar = fc.oneof(text, huge, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
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
	token?: null;
}

/** The route's own body shape, or any JSON at all (an array, a string, a number where an object goes). */
const bodyOf = (shaped: fc.Arbitrary<unknown>) =>
	fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: json });

const PERSON_RECORDS = ['bankruptcies', 'divorces', 'liens', 'probates', 'relatives'];

const ROUTES: Route[] = [
	{ method: 'GET', path: () => '/v1/accounts/members', params: [] },
	{ method: 'GET', path: () => '/v1/accounts/preferences/statuses', params: [] },
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
		body: bodyOf(
			fc.oneof(
				recordOf(['ListName', 'ListType', 'Criteria', 'isMonitored', 'ImportSource', 'GroupName']),
				criteria.map((c) => ({ ListName: 'x', ...c })),
				criteria.map((c) => ({ ListName: 'x', ListType: 'static', ...c })),
			),
		),
	},
	{ method: 'GET', path: (i) => `/v1/lists/${i}`, params: ['Fields'] },
	{
		method: 'PATCH',
		path: (i) => `/v1/lists/${i}`,
		params: [],
		body: bodyOf(
			recordOf([
				'ListName',
				'isMonitored',
				'ImportMatchThreshold',
				'ImportType',
				'ImportContactOptions',
				'DisplayOrder',
			]),
		),
	},
	// Not lists 1 to 3, which the other routes use.
	{ method: 'DELETE', path: (i) => `/v1/lists/${/^[123]$/.test(i) ? `9${i}` : i}`, params: [] },
	{
		method: 'GET',
		path: (i) => `/v1/lists/${i}/items`,
		params: ['Fields', 'Start', 'Limit', ...ITEM_FILTERS],
	},
	{
		method: 'PUT',
		path: (i) => `/v1/lists/${i}/items`,
		params: [],
		body: bodyOf(fc.oneof(criteria, recordOf(['Criteria']))),
	},
	{ method: 'DELETE', path: (i) => `/v1/lists/1/items/${i}`, params: [] },
	{ method: 'GET', path: (i) => `/v1/lists/${i}/automations`, params: [] },
	{
		method: 'PUT',
		path: () => '/v1/lists/3/automations',
		params: [],
		// Half of them an enabled automation on New Matches, so that it fires with the rest of what it was given.
		body: bodyOf(
			fc.oneof(
				recordOf(AUTOMATION_FIELDS),
				fc
					.dictionary(fc.constantFrom(...AUTOMATION_FIELDS.slice(2)), text, { maxKeys: 4 })
					.map((fields) => ({ ...fields, isEnabled: 1, Triggers: 'New Matches' })),
			),
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
		body: bodyOf(
			fc.array(recordOf(['Address', 'City', 'State', 'ZipFive', 'Email', 'FullName']), {
				maxLength: 3,
			}),
		),
	},
	{
		method: 'PATCH',
		path: (i) => `/v1/lists/2/import/items/${i}`,
		params: [],
		body: bodyOf(recordOf(['PersonKey', 'PropID'])),
	},
	{ method: 'DELETE', path: (i) => `/v1/lists/2/import/items/${i}`, params: [] },
	{ method: 'GET', path: (i) => `/v1/properties/${i}`, params: ['Fields', 'Purchase'] },
	{
		method: 'POST',
		path: () => '/v1/properties',
		params: ['Fields', 'Start', 'Limit', 'Sort', 'Dir', 'Purchase'],
		body: bodyOf(criteria),
	},
	{ method: 'GET', path: (i) => `/v1/properties/${i}/persons`, params: ['Fields', 'Purchase'] },
	...['evictions', 'parcels'].map((sub) => ({
		method: 'GET',
		path: (i: string) => `/v1/properties/${i}/${sub}`,
		params: ['Purchase'],
	})),
	...['sales', 'forsale'].map((kind) => ({
		method: 'GET',
		path: (i: string) => `/v1/properties/${i}/comps/${kind}`,
		params: ['Purchase', 'Beds', 'Bath', 'Baths', 'SqFt', 'YearBuilt'],
	})),
	{
		method: 'GET',
		path: (i) => `/v1/properties/${i}/transactions`,
		params: ['Purchase', 'Fields'],
	},
	...PERSON_RECORDS.map((kind) => ({
		method: 'GET',
		path: (i: string) => `/v1/persons/${i}/${kind}`,
		params: ['Fields', 'Start', 'Limit', 'Purchase'],
	})),
	...['Phone', 'Email'].map((kind) => ({
		method: 'POST',
		path: (i: string) => `/v1/persons/${i}/${kind}`,
		params: ['Purchase'],
	})),
	{
		method: 'GET',
		path: () => '/v1/integrations/webhooks',
		params: ['Start', 'Limit', 'Sort', 'Dir', 'Fields'],
	},
	{
		method: 'POST',
		path: () => '/v1/integrations/webhooks',
		params: [],
		body: bodyOf(recordOf(['HookUrl', 'WebhookName', 'Secret', 'Lists'])),
	},
	{ method: 'DELETE', path: (i) => `/v1/integrations/webhooks/${i}`, params: [] },
	// The control routes (no token).
	{ method: 'GET', path: () => '/_sandbox/charges', params: ['token'], token: null },
	{ method: 'GET', path: () => '/_sandbox/prices', params: ['token'], token: null },
	{
		method: 'PUT',
		path: () => '/_sandbox/prices',
		params: [],
		body: bodyOf(recordOf(['token', 'pricesCents'])),
		token: null,
	},
	{
		method: 'POST',
		path: () => '/_sandbox/tokens/rotate',
		params: [],
		body: bodyOf(recordOf(['token', 'keepOld'])),
		token: null,
	},
	{
		method: 'POST',
		path: () => '/_sandbox/simulate/change',
		params: [],
		body: bodyOf(recordOf(['PropID', 'change', 'to'])),
		token: null,
	},
	{
		method: 'POST',
		path: () => '/_sandbox/simulate/new-match',
		params: [],
		body: bodyOf(recordOf(['ListID', 'State'])),
		token: null,
	},
	{ method: 'GET', path: () => '/_sandbox/outbox', params: [], token: null },
	{ method: 'GET', path: () => '/_sandbox/deliveries', params: ['wait'], token: null },
	{ method: 'POST', path: () => '/_sandbox/crm', params: [], body: json, token: null },
	{ method: 'GET', path: () => '/_sandbox/crm', params: [], token: null },
];

/**
 * Query parameters as name and value pairs: the route's own names (any of them given more than
 * once), now and then one it does not take, with any text, empty, huge or number-like value.
 */
const queryOf = (params: string[]) =>
	fc.array(
		fc.tuple(
			fc.oneof(
				{ weight: 5, arbitrary: fc.constantFrom(...params, ...params) },
				{ weight: 1, arbitrary: word },
			),
			fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: huge }),
		),
		{ maxLength: 4 },
	);

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
	async ({ method, path, params, body, token }) => {
		const failures: string[] = [];
		const query = queryOf(params.length > 0 ? params : ['Fields']);
		await fc.assert(
			fc.asyncProperty(
				id,
				query,
				body ?? fc.constant(undefined),
				async (pathId, values, payload) => {
					const search = new URLSearchParams(values).toString();
					const url = `${path(encodeURIComponent(pathId))}${search ? `?${search}` : ''}`;
					const answer = await sb.api(method, url, {
						token: token === null ? null : TOKENS.main,
						body: payload,
					});
					if (answer.status >= 500)
						failures.push(
							`${method} ${url.slice(0, 300)} ${JSON.stringify(payload)?.slice(0, 300)} -> ${answer.status}`,
						);
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
			{ numRuns: 80, seed: 13 },
		);
		expect(failures).toEqual([]);
	},
);
