/**
 * The workflows the benchmarks run in a real n8n: each job once with the PropRadar node and once
 * with n8n's HTTP Request node as users build it, fed by the same input items (Edit Fields makes
 * an array, Split Out turns it into items, neither timed).
 */
import { createHash } from 'node:crypto';

import { ACCOUNTS } from '../sandbox/accounts';

const CREDENTIAL = { id: 'propradar-sandbox', name: 'PropRadar sandbox' };
/** The sandbox's first account (the credential scripts/n8n-host.js imports uses it too). */
const TOKEN = ACCOUNTS[0].token;

export interface BenchWorkflow {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	settings: Record<string, unknown>;
}

/** The name of the node whose time is measured, in every workflow. */
export const MEASURED = 'Measured';
/** The Split Out that follows HTTP Request pagination (its time counts too). */
export const SPLIT = 'Split Pages';

const position = (index: number): [number, number] => [index * 220, 0];

/**
 * The path of a workflow's Webhook start node (`chain`): a running n8n runs the workflow when it is
 * called there, and answers when the run has ended.
 */
export const webhookPath = (workflow: Pick<BenchWorkflow, 'id'>) =>
	`propradar-bench-${workflow.id.toLowerCase()}`;
/** The name of that Webhook start node. */
const HOOK = 'Hook';

/** A UUID-shaped id made from `text` (n8n's webhook ids are UUIDs), the same on every run. */
function uuidOf(text: string): string {
	const hex = createHash('md5').update(text).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Manual trigger -> Edit Fields (`{ values: <expression> }`) -> Split Out (one item a record) -> the nodes given, in a
 * chain. A Webhook node (answering when the run has ended, with no body) starts the same chain, so
 * that the workflow runs both in a fresh `n8n execute` (from the manual trigger) and in a running
 * n8n where it is active (from the webhook).
 */
function chain(
	id: string,
	name: string,
	valuesExpression: string | undefined,
	nodes: Array<Record<string, unknown>>,
): BenchWorkflow {
	const feed =
		valuesExpression === undefined
			? []
			: [
					{
						id: 'make',
						name: 'Make',
						type: 'n8n-nodes-base.set',
						typeVersion: 3.4,
						parameters: {
							mode: 'raw',
							jsonOutput: `={{ JSON.stringify({ values: ${valuesExpression} }) }}`,
							options: {},
						},
					},
					{
						id: 'split',
						name: 'Items',
						type: 'n8n-nodes-base.splitOut',
						typeVersion: 1,
						parameters: { fieldToSplitOut: 'values', options: {} },
					},
				];
	const all: Array<Record<string, unknown>> = [
		{
			id: 'run',
			name: 'Run',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			parameters: {},
		},
		...feed,
		...nodes,
	].map((node, index) => ({ ...node, position: position(index) }));
	const connections: Record<string, unknown> = {};
	for (let index = 0; index < all.length - 1; index++) {
		connections[String(all[index].name)] = {
			main: [[{ node: all[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	if (all.length > 1) {
		const path = webhookPath({ id });
		all.push({
			id: 'hook',
			name: HOOK,
			type: 'n8n-nodes-base.webhook',
			webhookId: uuidOf(path),
			typeVersion: 2,
			position: [0, 200],
			parameters: {
				httpMethod: 'POST',
				path,
				responseMode: 'lastNode',
				responseData: 'noData',
				options: {},
			},
		});
		connections[HOOK] = { main: [[{ node: all[1].name, type: 'main', index: 0 }]] };
	}
	return {
		id,
		name: `bench: ${name}`,
		nodes: all,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

const propRadar = (parameters: Record<string, unknown>) => ({
	id: 'measured',
	name: MEASURED,
	type: 'n8n-nodes-propradar.propRadar',
	typeVersion: 1,
	parameters,
	credentials: { propRadarApi: CREDENTIAL },
});

const httpRequest = (parameters: Record<string, unknown>) => ({
	id: 'measured',
	name: MEASURED,
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	parameters: {
		sendHeaders: true,
		headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${TOKEN}` }] },
		...parameters,
		options: { ...(parameters.options as object) },
	},
});

/** `count` records `{ PropID }` from P000001, as an expression: one item each after Split Out. */
export const propIdsExpression = (count: number) =>
	`Array.from({ length: ${count} }, (_, i) => ({ PropID: 'P' + String(i + 1).padStart(6, '0') }))`;
/** `count` address records, as an expression (the records the raw client imports: `importRecords`). */
export const recordsExpression = (count: number) =>
	`Array.from({ length: ${count} }, (_, i) => ({ Address: (i + 1) + ' Oak St', City: 'Portland', State: 'OR', ZipFive: '97201' }))`;
export const importRecords = (count: number) =>
	Array.from({ length: count }, (_, i) => ({
		Address: `${i + 1} Oak St`,
		City: 'Portland',
		State: 'OR',
		ZipFive: '97201',
	}));

export const LIST_ITEM_FIELDS = ['PropID', 'Address', 'City', 'State', 'ZipFive'];

/**
 * Person > Get Owners with Preview Cost for every input item (no request reads several properties'
 * owners: the run's window of requests in flight is what makes it fast), beside the HTTP Request
 * node's GET of the same owners' quote per item.
 */
export function getOwnersWorkflows(
	items: number,
	sandboxUrl: string,
): { propRadar: BenchWorkflow; httpRequest: BenchWorkflow } {
	return {
		propRadar: chain(
			'PropRadarBnch004',
			`Person > Get Owners, Preview Cost, ${items} items`,
			propIdsExpression(items),
			[
				propRadar({
					resource: 'person',
					operation: 'getOwners',
					chargeMode: 'preview',
				}),
			],
		),
		httpRequest: chain(
			'PropRadarBnch005',
			`HTTP Request, one GET of a property's owners per item, ${items} items`,
			propIdsExpression(items),
			[
				httpRequest({
					method: 'GET',
					url: `=${sandboxUrl}/v1/properties/{{ $json.PropID }}/persons?Purchase=0`,
				}),
			],
		),
	};
}

/**
 * List Item > Add: every input item's PropID added to a static list (the node sends them together,
 * 500 a request), beside the HTTP Request node's PUT of each item's PropID to the list.
 */
export function listItemAddWorkflows(
	items: number,
	listIds: { propRadar: number; httpRequest: number },
	sandboxUrl: string,
): { propRadar: BenchWorkflow; httpRequest: BenchWorkflow } {
	return {
		propRadar: chain(
			'PropRadarBnch006',
			`List Item > Add, ${items} PropIDs`,
			propIdsExpression(items),
			[
				propRadar({
					resource: 'listItem',
					operation: 'add',
					listId: { __rl: true, mode: 'id', value: String(listIds.propRadar) },
					addBy: 'propIds',
				}),
			],
		),
		httpRequest: chain(
			'PropRadarBnch007',
			`HTTP Request, one PUT of a PropID per item, ${items} items`,
			propIdsExpression(items),
			[
				httpRequest({
					method: 'PUT',
					url: `${sandboxUrl}/v1/lists/${listIds.httpRequest}/items`,
					sendBody: true,
					specifyBody: 'json',
					jsonBody:
						'={{ JSON.stringify({ Criteria: [{ name: "PropID", value: [$json.PropID] }] }) }}',
				}),
			],
		),
	};
}

export function perItemWorkflows(
	items: number,
	sandboxUrl: string,
): { propRadar: BenchWorkflow; httpRequest: BenchWorkflow; editFields: BenchWorkflow } {
	return {
		// n8n's own cost of a node that reads one expression per item and outputs an item, with no request at all.
		editFields: chain(
			'PropRadarBnch003',
			`Edit Fields, the same expression per item and no request, ${items} items`,
			propIdsExpression(items),
			[
				{
					id: 'measured',
					name: MEASURED,
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					parameters: {
						mode: 'manual',
						assignments: {
							assignments: [
								{ id: 'propid', name: 'PropID', value: '={{ $json.PropID }}', type: 'string' },
							],
						},
						options: {},
					},
				},
			],
		),
		propRadar: chain(
			'PropRadarBnch001',
			`Property > Get, Preview Cost, ${items} items`,
			propIdsExpression(items),
			[
				propRadar({
					resource: 'property',
					operation: 'get',
					chargeMode: 'preview',
				}),
			],
		),
		httpRequest: chain(
			'PropRadarBnch002',
			`HTTP Request, one GET per item, ${items} items`,
			propIdsExpression(items),
			[
				httpRequest({
					method: 'GET',
					url: `=${sandboxUrl}/v1/properties/{{ $json.PropID }}?Purchase=0`,
				}),
			],
		),
	};
}

export function returnAllWorkflows(
	id: string,
	listId: number,
	records: number,
	sandboxUrl: string,
): { propRadar: BenchWorkflow; httpRequest: BenchWorkflow } {
	return {
		propRadar: chain(`${id}A`, `List Item > Get Many, Return All, ${records} items`, undefined, [
			propRadar({
				resource: 'listItem',
				operation: 'getMany',
				listId: { __rl: true, mode: 'id', value: String(listId) },
				returnAll: true,
				fields: { include: LIST_ITEM_FIELDS },
			}),
		]),
		httpRequest: chain(
			`${id}B`,
			`HTTP Request pagination (Limit 1000) + Split Out, ${records} items`,
			undefined,
			[
				httpRequest({
					method: 'GET',
					url: `${sandboxUrl}/v1/lists/${listId}/items`,
					sendQuery: true,
					queryParameters: {
						parameters: [
							{ name: 'Limit', value: '1000' },
							{ name: 'Fields', value: LIST_ITEM_FIELDS.join(',') },
						],
					},
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: {
									parameters: [{ type: 'qs', name: 'Start', value: '={{ $pageCount * 1000 }}' }],
								},
								paginationCompleteWhen: 'other',
								completeExpression: '={{ $response.body.results.length < 1000 }}',
								requestInterval: 0,
							},
						},
					},
				}),
				{
					id: 'pages',
					name: SPLIT,
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					parameters: { fieldToSplitOut: 'results', options: {} },
				},
			],
		),
	};
}

export function importWorkflows(
	id: string,
	listIds: { propRadar: number; httpRequest?: number },
	records: number,
	batchSize: number,
	sandboxUrl: string,
): { propRadar: BenchWorkflow; httpRequest?: BenchWorkflow } {
	return {
		propRadar: chain(
			`${id}A`,
			`Import Record > Import, Purchase, ${records} records`,
			recordsExpression(records),
			[
				propRadar({
					resource: 'importRecord',
					operation: 'import',
					listId: { __rl: true, mode: 'id', value: String(listIds.propRadar) },
					mapping: 'auto',
					chargeMode: 'purchase',
					maxCost: 100_000,
					importOptions: { batchSize },
				}),
			],
		),
		httpRequest:
			listIds.httpRequest === undefined
				? undefined
				: chain(
						`${id}B`,
						`HTTP Request, one POST per record, ${records} records`,
						recordsExpression(records),
						[
							httpRequest({
								method: 'POST',
								url: `${sandboxUrl}/v1/lists/${listIds.httpRequest}/import/items?Purchase=1`,
								sendBody: true,
								specifyBody: 'json',
								jsonBody: '={{ JSON.stringify([$json]) }}',
							}),
						],
					),
	};
}

/** The same records through n8n's No Operation node: what n8n itself takes for a node given them, before any work of the node's own. */
export function importN8nAloneWorkflow(id: string, records: number): BenchWorkflow {
	return chain(id, `No Operation, ${records} records`, recordsExpression(records), [
		{ id: 'measured', name: MEASURED, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);
}

/** The PropRadar Trigger on a list, posting each event's PropID to the sandbox's CRM stand-in. */
export function triggerWorkflow(listId: number): BenchWorkflow {
	const workflow = chain('PropRadarBnch090', `Trigger on list ${listId} to the CRM`, undefined, []);
	workflow.nodes = [
		{
			id: 'trigger',
			name: 'New matches',
			type: 'n8n-nodes-propradar.propRadarTrigger',
			webhookId: '0b6f4c1e-7d2a-4b8e-9f10-b3c4d5e6f701',
			typeVersion: 1.1,
			position: position(0),
			parameters: {
				listId: { __rl: true, mode: 'id', value: String(listId) },
				events: ['newMatches'],
				options: {},
			},
			credentials: { propRadarApi: CREDENTIAL },
		},
		{
			id: 'crm',
			name: 'Send to CRM',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: position(1),
			parameters: {
				method: 'POST',
				url: '={{ $env.PROPRADAR_SANDBOX_URL }}/_sandbox/crm',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify({ propId: $json.PropID }) }}',
				options: {},
			},
		},
	];
	workflow.connections = {
		'New matches': { main: [[{ node: 'Send to CRM', type: 'main', index: 0 }]] },
	};
	return workflow;
}

/** The path of n8n's own Webhook node in `webhookNodeWorkflow`. */
export const WEBHOOK_NODE_PATH = 'propradar-bench-webhook';

/** n8n's own Webhook node (answering on receipt) posting each event's PropID to the CRM stand-in, as the trigger's workflow does. */
export function webhookNodeWorkflow(): BenchWorkflow {
	const workflow = chain('PropRadarBnch091', 'n8n Webhook node to the CRM', undefined, []);
	workflow.nodes = [
		{
			id: 'webhook',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			webhookId: '0b6f4c1e-7d2a-4b8e-9f10-b3c4d5e6f702',
			typeVersion: 2,
			position: position(0),
			parameters: {
				httpMethod: 'POST',
				path: WEBHOOK_NODE_PATH,
				responseMode: 'onReceived',
				options: {},
			},
		},
		{
			id: 'crm',
			name: 'Send to CRM',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			position: position(1),
			parameters: {
				method: 'POST',
				url: '={{ $env.PROPRADAR_SANDBOX_URL }}/_sandbox/crm',
				sendBody: true,
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify({ propId: $json.body.PropID }) }}',
				options: {},
			},
		},
	];
	workflow.connections = { Webhook: { main: [[{ node: 'Send to CRM', type: 'main', index: 0 }]] } };
	return workflow;
}
