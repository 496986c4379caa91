/* eslint-disable no-console -- not node code: n8n's rules for what a node may use inside n8n do not apply here */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { FIELD_SCOPES } from '../../nodes/PropRadar/shared/vocabulary';
import { AUTOMATION_FIELDS } from '../support/apiDocuments';
import { PROTOTYPE_KEYS } from '../support/prototypeKeys';
import {
	runNode,
	startEngineSandbox,
	TOKENS,
	type EngineSandbox,
	type NodeRun,
	type RecordedRequest,
} from '../support/harness';
import { createList, listRef } from '../support/helpers';

/**
 * The bad-input tier (issue 13): every operation of the node run through n8n-core's engine with
 * parameters a careless user, a broken upstream node or an attacker could give it (fixed seed),
 * plainly or through expressions that keep their result's type. Two things must hold for every
 * case: the node never fails with an uncaught exception (a JavaScript TypeError and the like), and
 * no request leaves with a value the node says it checks (docs/operations.md, "Bad input"). The checks on the
 * requests below are written from docs/operations.md, not from the node's code.
 */
let sb: EngineSandbox;
const lists: Record<'static' | 'import' | 'doomed', number> = { static: 0, import: 0, doomed: 0 };
beforeAll(async () => {
	sb = await startEngineSandbox();
	lists.static = await createList(sb, { listName: 'fuzz static', listType: 'static' });
	lists.import = await createList(sb, {
		listName: 'fuzz import',
		listType: 'import',
		importSource: 'api',
	});
	lists.doomed = await createList(sb, { listName: 'fuzz delete target', listType: 'static' });
});
afterAll(() => sb.close());

const MAX_ID = 9223372036854775807n;

/** Values nobody should send: wrong types, edge numbers, path characters, inherited key names. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
	fc.constantFrom(
		'',
		' ',
		'0',
		'-1',
		'1.5',
		'1e3',
		'NaN',
		'abc',
		'9007199254740993',
		'9'.repeat(77),
		'9223372036854775808',
		' 7 ',
		'007',
		'a/b',
		'..',
		'.',
		'?Purchase=1',
		'#x',
		'%2F',
		'P 1',
		'P\u00001',
		'P\n1',
		'🏠',
		'x'.repeat(150),
		...PROTOTYPE_KEYS,
	),
	fc.string({ maxLength: 16 }),
	fc.string({ unit: 'binary', maxLength: 8 }),
	fc.integer(),
	fc.double(),
	fc.constantFrom(0, -1, 2 ** 53 + 2, 1e21, 0.5),
	fc.boolean(),
	fc.constant(null),
	fc.array(
		fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constantFrom(...PROTOTYPE_KEYS)),
		{ maxLength: 3 },
	),
	fc.dictionary(
		fc.constantFrom(...PROTOTYPE_KEYS, 'a', 'ListID'),
		fc.oneof(fc.string({ maxLength: 4 }), fc.integer()),
		{ maxKeys: 2 },
	),
);

/** What a parameter gets: a plain value as saved in a workflow, or an expression whose result keeps its type. */
type Given = { plain: unknown } | { json: unknown } | { source: string };
const given = (
	valid: fc.Arbitrary<unknown>,
	plainJunk: fc.Arbitrary<unknown> = junk,
): fc.Arbitrary<Given> =>
	fc.oneof(
		{ weight: 3, arbitrary: valid.map((plain) => ({ plain })) },
		{ weight: 2, arbitrary: valid.map((json) => ({ json })) },
		{ weight: 3, arbitrary: plainJunk.map((plain) => ({ plain })) },
		{ weight: 3, arbitrary: junk.map((json) => ({ json })) },
		{
			weight: 1,
			arbitrary: fc
				.constantFrom('NaN', 'Infinity', '-Infinity', 'undefined', '2 ** 64', '"9007199254740993"')
				.map((source) => ({ source })),
		},
	);

/** The value a given puts into the parameters, and the input item field an expression reads. */
function place(value: Given, key: string, item: IDataObject): unknown {
	if ('plain' in value) return value.plain;
	if ('json' in value) {
		item[key] = value.json as IDataObject[string];
		return `={{ $json.${key} }}`;
	}
	return `={{ ${value.source} }}`;
}

/** The value an expression or a plain parameter hands the node (what the checks compare with). */
function handed(value: Given): unknown {
	if ('plain' in value) return value.plain;
	if ('json' in value) return value.json;
	return { '"9007199254740993"': '9007199254740993' }[value.source];
}

const idOf = (kind: keyof typeof lists) => fc.constantFrom(String(lists[kind]), lists[kind]);
const listId = (kind: keyof typeof lists = 'static') =>
	fc.oneof(idOf(kind), fc.constantFrom('9007199254740993', '9223372036854775807', '12'));
const propId = fc.oneof(
	fc.constantFrom('P000001', 'P000002', 'P000050', 'abc-123_X.9'),
	fc.string({ minLength: 1, maxLength: 12 }),
);
const personKey = fc.oneof(
	fc.constantFrom('K000001A', 'K000002A'),
	fc.string({ minLength: 1, maxLength: 12 }),
);
const limit = fc.oneof(fc.integer({ min: 1, max: 600 }), fc.constantFrom('3'));
const allNames = [
	...new Set(
		Object.values(FIELD_SCOPES).flatMap(({ fieldsets, fields }) => [
			...Object.keys(fieldsets),
			...fields,
		]),
	),
];
const names = fc.oneof(
	fc.array(
		fc.oneof(
			{ weight: 4, arbitrary: fc.constantFrom(...allNames) },
			{ weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
		),
		{ maxLength: 3 },
	),
	junk,
);
const fields = fc.oneof(
	fc.record({ fieldsets: names, include: names, exclude: names }, { requiredKeys: [] }),
	junk,
);
const BUILDER_NAMES = [
	'State',
	'ZipFive',
	'City',
	'APN',
	'PropertyType',
	'Beds',
	'Pool',
	'AVM',
	'LastTransferRecDate',
	'InList',
	'PropID',
];
const builderRow = fc.record(
	{
		name: fc.oneof(
			{ weight: 5, arbitrary: fc.constantFrom(...BUILDER_NAMES) },
			{ weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
		),
		values: fc.oneof(fc.constantFrom('OR', '97202', 'P000001', '1', '123', `${1}`), junk),
		has: fc.oneof(fc.boolean(), junk),
		min: fc.oneof(fc.constantFrom('1', 2, ''), junk),
		max: fc.oneof(fc.constantFrom('5', 9, ''), junk),
		date: fc.oneof(fc.constantFrom('Last 30 Days', '1/1/2020'), junk),
		propertyTypes: fc.oneof(fc.constantFrom(['SFR'], ['CND', 'MFR'], 'LND'), junk),
		advancedPropertyTypes: fc.oneof(fc.constantFrom('Duplex', ''), junk),
	},
	{ requiredKeys: ['name'] },
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		junk,
		fc.array(tie('value'), { maxLength: 3 }),
		fc.record({
			name: fc.constantFrom(
				'State',
				'PType',
				'AdvancedPropertyType',
				'PropertyType',
				'Beds',
				'PropID',
				'InList',
				...PROTOTYPE_KEYS,
			),
			value: fc.array(tie('value'), { maxLength: 3 }),
		}),
	),
})).value;
const criteriaJson = fc.oneof(
	fc
		.array(
			fc.record({
				name: fc.constantFrom(
					'State',
					'PropertyType',
					'Beds',
					'PropID',
					'InList',
					'Pool',
					...PROTOTYPE_KEYS,
				),
				value: fc.array(json, { minLength: 1, maxLength: 3 }),
			}),
			{ maxLength: 3 },
		)
		.map((c) => JSON.stringify(c)),
	json,
);
const criteria = {
	criteriaMode: fc.oneof(fc.constantFrom('builder', 'json'), junk),
	criteria: fc.oneof(
		fc.array(builderRow, { maxLength: 3 }).map((criterion) => ({ criterion })),
		junk,
	),
	criteriaJson,
};
const listName = fc.oneof(
	fc.string({ unit: 'grapheme', minLength: 1, maxLength: 70 }),
	fc
		.tuple(fc.nat({ max: 52 }), fc.constantFrom('🏠', '👨‍👩‍👧', 'é', '𝔸'))
		.map(([n, c]) => `${'a'.repeat(n)}${c.repeat(4)}`),
);

interface OperationSpec {
	base: IDataObject;
	/** Parameters the fuzzer may change, each with its valid values. `listId` is given as a resource locator. */
	vary: Record<string, fc.Arbitrary<unknown>>;
	/** The list a `listId` the case does not vary points at (the lists exist only once the sandbox runs). */
	lists?: { listId: keyof typeof lists };
	items?: IDataObject[];
}

const preview = { chargeMode: 'preview' };
const OPERATIONS: Record<string, OperationSpec> = {
	'list.create': {
		base: { resource: 'list', operation: 'create', listName: 'fuzz', listType: 'static' },
		vary: {
			listName,
			listType: fc.constantFrom('static', 'dynamic', 'import'),
			groupName: fc.string(),
			...criteria,
		},
	},
	'list.get': {
		base: { resource: 'list', operation: 'get' },
		lists: { listId: 'static' },
		vary: { listId: listId(), fields },
	},
	'list.getMany': {
		base: { resource: 'list', operation: 'getMany', returnAll: false, limit: 5 },
		vary: { returnAll: fc.boolean(), limit, fields },
	},
	'list.update': {
		base: { resource: 'list', operation: 'update', updateFields: { DisplayOrder: 1 } },
		lists: { listId: 'static' },
		vary: {
			listId: listId(),
			updateFields: fc.oneof(fc.record({ ListName: listName }), fc.record({ ListName: junk })),
		},
	},
	'list.delete': {
		base: { resource: 'list', operation: 'delete' },
		lists: { listId: 'doomed' },
		vary: { listId: listId('doomed') },
	},
	'listItem.add': {
		base: { resource: 'listItem', operation: 'add', addBy: 'propIds', propIds: 'P000001' },
		lists: { listId: 'static' },
		vary: {
			listId: listId(),
			addBy: fc.constantFrom('propIds', 'criteria'),
			propIds: fc.oneof(propId, fc.array(propId, { maxLength: 3 })),
			...criteria,
		},
	},
	'listItem.getMany': {
		base: { resource: 'listItem', operation: 'getMany', returnAll: false, limit: 5 },
		lists: { listId: 'static' },
		vary: { listId: listId(), returnAll: fc.boolean(), limit, fields },
	},
	'listItem.remove': {
		base: { resource: 'listItem', operation: 'remove', propId: 'P000001' },
		lists: { listId: 'static' },
		vary: { listId: listId(), propId },
	},
	'importRecord.import': {
		base: { resource: 'importRecord', operation: 'import', ...preview },
		lists: { listId: 'import' },
		vary: { listId: listId('import') },
		items: [{ Address: '1 Elm St', City: 'Portland', State: 'OR' }],
	},
	'importRecord.getMany': {
		base: { resource: 'importRecord', operation: 'getMany', returnAll: false, limit: 5 },
		lists: { listId: 'import' },
		vary: { listId: listId('import'), returnAll: fc.boolean(), limit, fields },
	},
	'importRecord.updateMatch': {
		base: {
			resource: 'importRecord',
			operation: 'updateMatch',
			importItemId: 1,
			matchPropId: 'P000001',
		},
		lists: { listId: 'import' },
		vary: { listId: listId('import'), importItemId: fc.constantFrom(1, '2', '9007199254740993') },
	},
	'importRecord.deleteMatch': {
		base: { resource: 'importRecord', operation: 'deleteMatch', importItemId: 1 },
		lists: { listId: 'import' },
		vary: { listId: listId('import'), importItemId: fc.constantFrom(1, '2', '9007199254740993') },
	},
	'person.getOwners': {
		base: { resource: 'person', operation: 'getOwners', propId: 'P000001', ...preview },
		vary: { propId, fields },
	},
	'person.getRecords': {
		base: {
			resource: 'person',
			operation: 'getRecords',
			personKey: 'K000001A',
			recordKind: 'liens',
			returnAll: false,
			limit: 5,
			...preview,
		},
		vary: {
			personKey,
			recordKind: fc.constantFrom('bankruptcies', 'liens', 'relatives'),
			returnAll: fc.boolean(),
			limit,
			fields,
		},
	},
	'person.purchasePhone': {
		base: { resource: 'person', operation: 'purchasePhone', personKey: 'K000001A', ...preview },
		vary: { personKey },
	},
	'person.purchaseEmail': {
		base: { resource: 'person', operation: 'purchaseEmail', personKey: 'K000001A', ...preview },
		vary: { personKey },
	},
	'property.get': {
		base: { resource: 'property', operation: 'get', propId: 'P000001', ...preview },
		vary: { propId, fields },
	},
	'property.search': {
		base: {
			resource: 'property',
			operation: 'search',
			criteriaMode: 'json',
			criteriaJson: '[{"name":"ZipFive","value":[97202]}]',
			returnAll: false,
			limit: 5,
			...preview,
		},
		vary: { ...criteria, returnAll: fc.constant(false), limit, fields },
	},
	'property.getEvictions': {
		base: { resource: 'property', operation: 'getEvictions', propId: 'P000001', ...preview },
		vary: { propId },
	},
	'property.getComps': {
		base: {
			resource: 'property',
			operation: 'getComps',
			propId: 'P000001',
			compsKind: 'sales',
			...preview,
		},
		vary: { propId, compsKind: fc.constantFrom('sales', 'forsale') },
	},
	'property.getParcels': {
		base: { resource: 'property', operation: 'getParcels', propId: 'P000001', ...preview },
		vary: { propId },
	},
	'property.getTransactions': {
		base: { resource: 'property', operation: 'getTransactions', propId: 'P000001', ...preview },
		vary: { propId, fields },
	},
	'automation.get': {
		base: { resource: 'automation', operation: 'get' },
		lists: { listId: 'static' },
		vary: { listId: listId() },
	},
	'automation.configure': {
		base: {
			resource: 'automation',
			operation: 'configure',
			configureMode: 'update',
			automation: { Triggers: 'New Matches' },
		},
		lists: { listId: 'static' },
		vary: {
			listId: listId(),
			automation: fc.dictionary(
				fc.constantFrom(...AUTOMATION_FIELDS, ...PROTOTYPE_KEYS),
				fc.oneof(fc.constantFrom('New Matches', 1, 0, '3'), junk),
				{ maxKeys: 3 },
			),
		},
	},
	'webhook.create': {
		base: {
			resource: 'webhook',
			operation: 'create',
			hookUrl: 'https://crm.example/hook',
			webhookName: 'fuzz',
		},
		vary: {
			lists: fc.oneof(fc.constant([]), fc.array(listId(), { maxLength: 2 })),
			webhookName: fc.string({ minLength: 1 }),
		},
	},
	'webhook.getMany': {
		base: { resource: 'webhook', operation: 'getMany', returnAll: false, limit: 5 },
		vary: { returnAll: fc.boolean(), limit, fields },
	},
	'webhook.delete': {
		base: { resource: 'webhook', operation: 'delete', webhookId: 1 },
		vary: { webhookId: fc.constantFrom(1, '2', '9007199254740993') },
	},
	'account.getMembers': {
		base: { resource: 'account', operation: 'getMembers' },
		vary: {
			resource: fc.constantFrom('account'),
			operation: fc.constantFrom('getMembers', ...PROTOTYPE_KEYS),
		},
	},
	'account.getStatusLabels': {
		base: { resource: 'account', operation: 'getStatusLabels' },
		vary: {
			resource: fc.constantFrom('account', ...PROTOTYPE_KEYS),
			operation: fc.constantFrom('getStatusLabels'),
		},
	},
};

/** Why a path ID, the digits of a numbered ID, is not one docs/operations.md allows. */
function numberedIdProblem(text: string): string | undefined {
	if (!/^[1-9]\d*$/.test(text)) return 'not digits from 1 up';
	return BigInt(text) > MAX_ID ? 'above 9223372036854775807' : undefined;
}

/** Why a PropID or PersonKey is not one docs/operations.md allows. */
function keyProblem(text: string): string | undefined {
	if (text.length === 0) return 'empty';
	if ([...text].length > 100) return 'over 100 characters';
	if (/[\s\p{Cc}]/u.test(text)) return 'whitespace or a control character';
	if (/[/\\?#%]/.test(text)) return 'a path character';
	if (/^\.+$/.test(text)) return 'dots alone';
	return undefined;
}

/** The digits a list ID given this way must be sent as, or undefined when it is not an ID at all. */
function expectedDigits(value: unknown): string | undefined {
	if (typeof value === 'number')
		return Number.isSafeInteger(value) && value > 0 ? String(value) : undefined;
	if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return undefined;
	const digits = BigInt(value.trim()).toString();
	return numberedIdProblem(digits) ? undefined : digits;
}

const KNOWN_NAMES = new Set(allNames);
const AUTOMATION = new Set(AUTOMATION_FIELDS);

/** Why the Criteria of a body break the rules for criteria in docs/operations.md, or undefined. */
function criteriaProblem(criteria: unknown, parent?: string): string | undefined {
	if (!Array.isArray(criteria)) return 'Criteria is not an array';
	for (const criterion of criteria) {
		if (typeof criterion !== 'object' || criterion === null) return 'a criterion is not an object';
		const { name, value } = criterion as { name: unknown; value: unknown };
		if (typeof name !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(name))
			return `criterion name ${JSON.stringify(name)}`;
		if (parent === 'PropertyType' && name !== 'PType' && name !== 'AdvancedPropertyType')
			return `${name} nested in PropertyType`;
		if (!Array.isArray(value) || value.length === 0)
			return `${name}: value is not a non-empty array`;
		for (const element of value) {
			if (typeof element === 'object' && element !== null && !Array.isArray(element)) {
				if (name !== 'PropertyType') return `${name} takes a nested criterion`;
				const nested = criteriaProblem([element], name);
				if (nested) return nested;
			} else if (name === 'PropertyType') return 'PropertyType holds a scalar';
			else if (Array.isArray(element)) {
				const [min, max] = element as unknown[];
				const end = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x));
				if (
					element.length !== 2 ||
					!end(min) ||
					!end(max) ||
					(min === null && max === null) ||
					(min !== null && max !== null && (min as number) > (max as number))
				)
					return `${name}: range ${JSON.stringify(element)}`;
			} else if (!(
				typeof element === 'string' ||
				(typeof element === 'number' && Number.isFinite(element))
			))
				return `${name}: value ${JSON.stringify(element)}`;
		}
	}
	return undefined;
}

/** Every way a request breaks what docs/operations.md says the node checks. */
function requestProblems(
	request: RecordedRequest,
	caseListId: unknown,
	varied: Set<string>,
): string[] {
	const problems: string[] = [];
	const where = `${request.method} ${request.path}?${request.query.toString()}`;
	const limit = request.query.get('Limit');
	if (limit !== null && !/^[1-9]\d*$/.test(limit)) problems.push(`${where}: Limit ${limit}`);
	const fieldsParam = request.query.get('Fields');
	if (fieldsParam !== null) {
		for (const name of fieldsParam.split(',')) {
			// Custom transaction field IDs go into Fields too (letters, digits and _).
			const bare = name.replace(/^-/, '');
			if (!KNOWN_NAMES.has(bare) && !/^[A-Za-z0-9_]+$/.test(bare))
				problems.push(`${where}: Fields name ${JSON.stringify(name)}`);
			if (PROTOTYPE_KEYS.includes(bare))
				problems.push(`${where}: Fields name ${JSON.stringify(name)}`);
		}
	}
	const segments = request.path.split('/').slice(1);
	const numbered = (index: number, what: string) => {
		const problem = numberedIdProblem(segments[index] ?? '');
		if (problem) problems.push(`${where}: ${what} ${problem}`);
	};
	const key = (index: number, what: string) => {
		let text: string;
		try {
			text = decodeURIComponent(segments[index] ?? '');
		} catch {
			problems.push(`${where}: ${what} is not percent-encoded text`);
			return;
		}
		const problem = keyProblem(text);
		if (problem) problems.push(`${where}: ${what} ${problem}`);
	};
	if (segments[1] === 'lists' && segments.length > 2) {
		numbered(2, 'ListID');
		const expected = expectedDigits(caseListId);
		if (varied.has('listId') && expected !== undefined && segments[2] !== expected)
			problems.push(`${where}: ListID sent as ${segments[2]}, given ${expected}`);
		if (segments[3] === 'items' && segments[4] !== undefined) key(4, 'PropID');
		if (segments[3] === 'import' && segments[5] !== undefined) numbered(5, 'ListImportItemID');
	}
	if (segments[1] === 'properties' && segments[2] !== undefined) key(2, 'PropID');
	if (segments[1] === 'persons') key(2, 'PersonKey');
	if (segments[1] === 'integrations' && segments[3] !== undefined) numbered(3, 'WebhookID');
	if (!request.body) return problems;
	let body: unknown;
	try {
		body = JSON.parse(request.body);
	} catch {
		return [...problems, `${where}: body is not JSON`];
	}
	const record = (typeof body === 'object' && body !== null ? body : {}) as IDataObject;
	if (Object.hasOwn(record, 'Criteria')) {
		const problem = criteriaProblem(record.Criteria);
		if (problem) problems.push(`${where}: ${problem}`);
		for (const criterion of record.Criteria as Array<{ name: string; value: unknown[] }>) {
			if (criterion.name === 'PropID')
				for (const id of criterion.value)
					if (typeof id !== 'string' || keyProblem(id))
						problems.push(`${where}: PropID criterion ${JSON.stringify(id)}`);
			if (criterion.name === 'InList')
				for (const id of criterion.value)
					if (
						numberedIdProblem(String(id)) ||
						(typeof id === 'number' && !Number.isSafeInteger(id))
					)
						problems.push(`${where}: InList ${JSON.stringify(id)}`);
		}
	}
	if (Object.hasOwn(record, 'ListName')) {
		const name = record.ListName;
		if (
			typeof name !== 'string' ||
			name.trim() === '' ||
			[...name].length > 50 ||
			/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(name)
		)
			problems.push(`${where}: ListName ${JSON.stringify(name)}`);
	}
	if (Object.hasOwn(record, 'Lists')) {
		for (const id of record.Lists as unknown[])
			if (numberedIdProblem(String(id)) || (typeof id === 'number' && !Number.isSafeInteger(id)))
				problems.push(`${where}: Lists ${JSON.stringify(id)}`);
	}
	if (request.path.endsWith('/automations') && request.method === 'PUT') {
		for (const field of Object.keys(record))
			if (!AUTOMATION.has(field)) problems.push(`${where}: automation field ${field}`);
	}
	return problems;
}

/** What a JavaScript error escaping the node's checks looks like in its message. */
const CRASH =
	/is not a function|Cannot read propert|Cannot convert|is not iterable|Maximum call stack|is not defined|Invalid array length|Cannot destructure/;
const NODE_ERRORS = new Set(['NodeOperationError', 'NodeApiError']);

const tally = {
	cases: 0,
	requests: 0,
	casesSending: 0,
	refusedBeforeSending: 0,
	invalidRequests: [] as string[],
	crashes: [] as string[],
	otherErrors: new Map<string, number>(),
};

async function runCase(
	name: string,
	spec: OperationSpec,
	values: Record<string, Given>,
): Promise<NodeRun> {
	const item: IDataObject = { ...(spec.items?.[0] ?? {}) };
	const parameters: IDataObject = { ...spec.base };
	for (const [parameter, value] of Object.entries(values)) {
		const placed = place(value, `v_${parameter}`, item);
		// A list picked "By ID", holding whatever was given (listRef would turn it into text first).
		parameters[parameter] = (
			parameter === 'listId' ? { __rl: true, mode: 'id', value: placed } : placed
		) as IDataObject[string];
	}
	for (const [parameter, kind] of Object.entries(spec.lists ?? {}))
		if (!(parameter in values)) parameters[parameter] = listRef(lists[kind]);
	const before = sb.requests.length;
	const result = await runNode(parameters, {
		credentials: { baseUrl: sb.url, accessToken: TOKENS.main },
		items: [item],
	});
	const sent = sb.requests.slice(before);
	tally.cases++;
	tally.requests += sent.length;
	if (sent.length === 0) tally.refusedBeforeSending++;
	else tally.casesSending++;
	const caseListId = values.listId ? handed(values.listId) : undefined;
	const varied = new Set(Object.keys(values));
	for (const request of sent)
		for (const problem of requestProblems(request, caseListId, varied))
			tally.invalidRequests.push(`${name} ${JSON.stringify(values)}: ${problem}`);
	const error = result.error;
	if (error) {
		if (CRASH.test(`${error.message} ${error.description ?? ''}`))
			tally.crashes.push(`${name} ${JSON.stringify(values)}: ${error.name}: ${error.message}`);
		if (!NODE_ERRORS.has(error.name))
			tally.otherErrors.set(
				`${error.name}: ${error.message}`,
				(tally.otherErrors.get(`${error.name}: ${error.message}`) ?? 0) + 1,
			);
	}
	return result;
}

const RUNS_PER_OPERATION = 40;

describe.each(Object.entries(OPERATIONS))('%s', (name, spec) => {
	test(`${RUNS_PER_OPERATION} fuzzed parameter sets: no uncaught exception, no request with a value the node checks`, async () => {
		// A list picked "By ID" holds text in a saved workflow: n8n's own check of it (before the node runs) fails on an object there.
		const textJunk = junk.filter((value) => typeof value === 'string' || typeof value === 'number');
		const parameter = fc.record(
			Object.fromEntries(
				Object.entries(spec.vary).map(([key, valid]) => [
					key,
					given(valid, key === 'listId' ? textJunk : junk),
				]),
			),
			{ requiredKeys: [] },
		);
		const before = { crashes: tally.crashes.length, invalid: tally.invalidRequests.length };
		await fc.assert(
			fc.asyncProperty(parameter, async (values) => {
				await runCase(name, spec, values as Record<string, Given>);
			}),
			{ seed: 13, numRuns: RUNS_PER_OPERATION },
		);
		expect(tally.crashes.slice(before.crashes)).toEqual([]);
		expect(tally.invalidRequests.slice(before.invalid)).toEqual([]);
	}, 120_000);
});

test('the tier ran every operation and sent requests (it tests something)', () => {
	// Printed for the record: how many cases ran, how many requests went out, how many were refused before sending.
	console.log(
		`bad-input tier: ${tally.cases} cases, ${tally.casesSending} of them sent ${tally.requests} requests, ${tally.refusedBeforeSending} were refused before sending, ${tally.invalidRequests.length} invalid requests, ${tally.crashes.length} uncaught exceptions; errors not from the node: ${JSON.stringify([...tally.otherErrors])}`,
	);
	expect(tally.cases).toBe(Object.keys(OPERATIONS).length * RUNS_PER_OPERATION);
	// Both halves are exercised: many cases reach the service, many are refused before anything is sent.
	expect(tally.casesSending).toBeGreaterThan(tally.cases / 5);
	expect(tally.refusedBeforeSending).toBeGreaterThan(tally.cases / 5);
	expect(tally.invalidRequests).toEqual([]);
	expect(tally.crashes).toEqual([]);
});
