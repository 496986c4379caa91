import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ChargeEntry } from '../../sandbox/charges';
import type { VariantName } from '../../sandbox/types';
import { call } from './sandboxApi';
import {
	runNode,
	startEngineSandbox,
	TOKENS,
	type EngineSandbox,
	type Fault,
	type NodeRun,
} from './harness';

/** The resource locator value of a list picked "By ID". */
export const listRef = (listId: number | string) => ({
	__rl: true,
	mode: 'id',
	value: String(listId),
});

/** Runs the PropRadar node with the main sandbox account (or `token`) against `sb`. */
export function run(
	sb: EngineSandbox,
	parameters: IDataObject,
	items?: IDataObject[],
	token: string = TOKENS.main,
	continueOnFail = false,
): Promise<NodeRun> {
	return runNode(parameters, {
		credentials: { baseUrl: sb.url, accessToken: token },
		items,
		continueOnFail,
	});
}

/** Runs and fails the test with the node's error if there is one. */
export async function runOk(
	sb: EngineSandbox,
	parameters: IDataObject,
	items?: IDataObject[],
	token: string = TOKENS.main,
): Promise<IDataObject[]> {
	const result = await run(sb, parameters, items, token);
	if (result.error)
		throw new Error(`node failed: ${result.error.message} ${result.error.description ?? ''}`);
	return result.json;
}

/** Creates a list through the node and returns its ListID. */
export async function createList(
	sb: EngineSandbox,
	parameters: IDataObject,
	token: string = TOKENS.main,
): Promise<number> {
	const [created] = await runOk(
		sb,
		{ resource: 'list', operation: 'create', ...parameters },
		undefined,
		token,
	);
	return Number(created.ListID);
}

/** Creates a list that takes API imports through the node and returns its ListID. */
export function createImportList(
	sb: EngineSandbox,
	listName: string,
	token: string = TOKENS.main,
): Promise<number> {
	return createList(sb, { listName, listType: 'import', importSource: 'api' }, token);
}

/** The parameters of Import Record > Import into `listId`, with `parameters` (Charge Mode, Max Cost, ...). */
export const importInto = (listId: number, parameters: IDataObject): IDataObject => ({
	resource: 'importRecord',
	operation: 'import',
	listId: listRef(listId),
	...parameters,
});

/** The parameters of Import Record > Get Many of `listId`, every item (Return All), with `parameters`. */
export const importItemsOf = (listId: number, parameters: IDataObject = {}): IDataObject => ({
	resource: 'importRecord',
	operation: 'getMany',
	listId: listRef(listId),
	returnAll: true,
	...parameters,
});

/** Purchase mode with room for a few records: what the Person tests buy with. */
export const buyingPersons = { chargeMode: 'purchase', maxCost: 5 };

/** The parameters of Person > Get Owners of `propId` (Purchase mode by default). */
export const ownersOf = (propId: string, parameters: IDataObject = buyingPersons): IDataObject => ({
	resource: 'person',
	operation: 'getOwners',
	propId,
	...parameters,
});

/** The parameters of Person > Purchase Phone or Purchase Email for `personKey` (Purchase mode by default). */
export const purchaseContactOf = (
	operation: 'purchasePhone' | 'purchaseEmail',
	personKey: string,
	parameters: IDataObject = buyingPersons,
): IDataObject => ({ resource: 'person', operation, personKey, ...parameters });

/** The parameters of Import Record > Update Match on `listId`, with `parameters`. */
export const updateMatchOf = (listId: number, parameters: IDataObject): IDataObject => ({
	resource: 'importRecord',
	operation: 'updateMatch',
	listId: listRef(listId),
	...parameters,
});

/** Records whose addresses are real sandbox properties in Oregon (read straight from the sandbox). */
export async function realAddresses(
	sb: EngineSandbox,
	count: number,
	token: string = TOKENS.main,
): Promise<IDataObject[]> {
	const { body } = await api<{ results: IDataObject[] }>(
		sb,
		'POST',
		`/v1/properties?Purchase=1&Limit=${count}&Fields=PropID,Address,City,State,ZipFive`,
		{ Criteria: [{ name: 'State', value: ['OR'] }] },
		token,
	);
	return body.results.map(({ Address, City, State, ZipFive }) => ({
		street: Address,
		Address,
		City,
		State,
		ZipFive: String(ZipFive),
	}));
}

/** Records with an address in Portland, OR: `count` numbers on `street` from `first`. */
export const portlandRecords = (count: number, street: string, first = 1) =>
	Array.from({ length: count }, (_, i) => ({
		Address: `${first + i} ${street}`,
		City: 'Portland',
		State: 'OR',
	}));

/** The parameters of Property > Get buying `propId` under `maxCost`. */
export const propertyPurchase = (propId: string, maxCost = 5) => ({
	resource: 'property',
	operation: 'get',
	propId,
	chargeMode: 'purchase',
	maxCost,
});

/** Adds properties (PropIDs separated by commas) to a static list through the node. */
export function addToList(
	sb: EngineSandbox,
	listId: number,
	propIds: string,
): Promise<IDataObject[]> {
	return runOk(sb, {
		resource: 'listItem',
		operation: 'add',
		listId: listRef(listId),
		addBy: 'propIds',
		propIds,
	});
}

/** Straight to the sandbox, bypassing the node (to set up or read back state); an empty body reads as `{}`. */
export async function api<T = IDataObject>(
	sb: EngineSandbox,
	method: string,
	path: string,
	body?: unknown,
	token: string = TOKENS.main,
): Promise<{ status: number; body: T }> {
	const answer = await call(sb.sandbox.url, method, path, { body, token });
	return { status: answer.status, body: (answer.body ?? {}) as T };
}

/** The sandbox's charge log of an account (`/_sandbox/charges`): its free credits, its balance and every charge. */
export async function sandboxCharges(
	sb: EngineSandbox,
	token: string = TOKENS.main,
): Promise<{ credits: number; balanceCents: number; log: ChargeEntry[] }> {
	return (
		await api<{ credits: number; balanceCents: number; log: ChargeEntry[] }>(
			sb,
			'GET',
			`/_sandbox/charges?token=${token}`,
		)
	).body;
}

/** Creates a list that takes API imports straight in the sandbox, bypassing the node, and returns its ListID. */
export async function sandboxImportList(sb: EngineSandbox, name: string): Promise<number> {
	const created = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: name,
		ListType: 'import',
		ImportSource: 'api',
	});
	return created.body.results[0].ListID;
}

/** A fault on the second purchase batch of an import into `listId` (the first goes through). */
export function onSecondImportBatch(
	sb: EngineSandbox,
	listId: number,
	fault: Omit<Fault, 'pathPrefix' | 'count'>,
): void {
	sb.faults.push({
		method: 'POST',
		pathPrefix: `/v1/lists/${listId}/import/items`,
		query: { Purchase: '1' },
		skip: 1,
		count: 1,
		...fault,
	});
}

/** A monitored static list, straight through the sandbox. */
export async function createMonitoredList(sb: EngineSandbox, name: string): Promise<number> {
	const response = await api<{ results: Array<{ ListID: number }> }>(sb, 'POST', '/v1/lists', {
		ListName: name,
		ListType: 'static',
		isMonitored: 1,
	});
	if (response.status !== 200)
		throw new Error(`POST list: ${response.status} ${JSON.stringify(response.body)}`);
	return response.body.results[0].ListID;
}

/** How many records the account was charged for since its charge log held `from` entries. */
export async function chargedRecordsSince(sb: EngineSandbox, from: number): Promise<number> {
	return (await sandboxCharges(sb)).log.slice(from).reduce((sum, entry) => sum + entry.quantity, 0);
}

/** A sandbox control route (`/_sandbox/...`, no token), bypassing the proxy. */
export async function control<T = IDataObject>(
	sb: EngineSandbox,
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; body: T }> {
	const answer = await call(sb.sandbox.url, method, path, { body, token: null });
	return { status: answer.status, body: (answer.body ?? {}) as T };
}

/** Switches the sandbox to `variants` of the service (docs/sandbox.md); `[]` is the default. */
export function useVariants(sb: EngineSandbox, variants: VariantName[]) {
	return control(sb, 'PUT', '/_sandbox/variants', { variants });
}

/**
 * An engine sandbox for a test file's top level: `sb` stands for the one `start` makes (its
 * members read through to it), so tests can use `sb` although it starts in `beforeAll`.
 */
export function deferredEngineSandbox(): {
	sb: EngineSandbox;
	start(): Promise<void>;
	close(): Promise<void>;
} {
	let running: EngineSandbox | undefined;
	const current = (): EngineSandbox => {
		if (!running) throw new Error('the engine sandbox is not running (used outside a test?)');
		return running;
	};
	const sb: EngineSandbox = {
		get url() {
			return current().url;
		},
		get sandbox() {
			return current().sandbox;
		},
		get requests() {
			return current().requests;
		},
		get faults() {
			return current().faults;
		},
		connections: () => current().connections(),
		inFlight: () => current().inFlight(),
		refuseConnections: () => current().refuseConnections(),
		acceptConnections: async () => await current().acceptConnections(),
		sent: (prefix, method) => current().sent(prefix, method),
		close: async () => await current().close(),
	};
	return {
		sb,
		async start() {
			running = await startEngineSandbox();
		},
		async close() {
			await running?.close();
		},
	};
}

/** Starts one engine sandbox for the test file (beforeAll) and closes it (afterAll). */
export function useEngineSandbox(): EngineSandbox {
	const { sb, start, close } = deferredEngineSandbox();
	beforeAll(start);
	afterAll(close);
	return sb;
}

/**
 * Person > Get Owners in Preview, reading each input item's `id`: one request per item, the
 * operation the item-loop tests use (Property > Get over several items is read in batches).
 */
export const getOwnersPreview = {
	resource: 'person',
	operation: 'getOwners',
	propId: '={{ $json.id }}',
	chargeMode: 'preview',
};

/** The input item an output item is paired to. */
export const pairedIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
