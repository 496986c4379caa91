import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, paths, readList, toNodeError } from '../../transport';
import { criteriaProperties, type Criterion } from '../../shared/criteria';
import { errorFields, errorItem } from '../itemLoop';
import {
	fail,
	readCriteriaParameters,
	readListId,
	readPropIds,
	staticListLocator,
} from '../../shared/parameters';
import { fieldNames, LIST_FIELDS, PAGE_LIMITS } from '../../shared/vocabulary';
import { ownParameters } from '../descriptions';

const show = { resource: ['listItem'], operation: ['add'] };

export const description: INodeProperties[] = [
	staticListLocator(show),
	{
		displayName: 'Add By',
		name: 'addBy',
		type: 'options',
		options: [
			{
				name: 'Property IDs',
				value: 'propIds',
				description: 'PropIDs, for example from the input items',
			},
			{ name: 'Criteria', value: 'criteria', description: 'Every property matching the criteria' },
		],
		default: 'propIds',
		displayOptions: { show },
	},
	{
		displayName: 'Property IDs',
		name: 'propIds',
		type: 'string',
		default: '',
		placeholder: 'P000123, P000124',
		description:
			"One PropID or several, comma-separated, or a list. Leave empty to use the input item's PropID.",
		displayOptions: { show: { ...show, addBy: ['propIds'] } },
	},
	...criteriaProperties({ ...show, addBy: ['criteria'] }),
];

/** PropIDs per request: the most the property endpoints take in one page (docs/api.md, Paging). */
export const PROP_IDS_PER_REQUEST = PAGE_LIMITS.properties.maxLimit;

type ListId = ReturnType<typeof readListId>;

type Request = { itemIndex: number; listId: ListId } & (
	{ propIds: string[] } | { criteria: Criterion[] }
);

function readRequest(context: IExecuteFunctions, itemIndex: number): Request {
	const listId = readListId(context, itemIndex, 'listId', 'Static List');
	if (ownParameters(context, itemIndex, description).choice('addBy') === 'propIds') {
		const propIds = readPropIds(context, itemIndex);
		if (propIds.length === 0) fail(context, itemIndex, 'Property IDs: give at least one PropID');
		return { itemIndex, listId, propIds };
	}
	const criteria = readCriteriaParameters(context, itemIndex);
	if (criteria.length === 0) fail(context, itemIndex, 'Criteria: add at least one criterion');
	return { itemIndex, listId, criteria };
}

async function staticListProblem(
	context: IExecuteFunctions,
	listId: ListId,
	itemIndex: number,
): Promise<NodeOperationError | undefined> {
	const list = await readList(context, listId, {
		fields: fieldNames(LIST_FIELDS, 'ListID', 'ListType'),
		itemIndex,
	});
	if (!list?.ListType || list.ListType === 'static') return undefined;
	return new NodeOperationError(
		context.getNode(),
		`List ${listId} is a ${list.ListType} list: items can only be added to static lists`,
		{
			itemIndex,
			description:
				list.ListType === 'dynamic'
					? 'A dynamic list follows its criteria; change what it matches by creating a new dynamic list.'
					: 'An import list is built from imported records: use Import Record > Import.',
		},
	);
}

const putCriteria = (
	context: IExecuteFunctions,
	listId: ListId,
	criteria: Criterion[],
	itemIndex: number,
) =>
	apiRequest(context, {
		method: 'PUT',
		path: paths.listItems(listId),
		body: { Criteria: criteria as unknown as IDataObject[] },
		itemIndex,
	});

/** What a run of List Item > Add builds: each item's output, or its error item. */
interface AddRun {
	context: IExecuteFunctions;
	outputs: Map<number, INodeExecutionData>;
}

function failItem(run: AddRun, itemIndex: number, error: unknown): void {
	const { context } = run;
	const nodeError = toNodeError(context.getNode(), error, itemIndex);
	if (!context.continueOnFail()) throw nodeError;
	run.outputs.set(itemIndex, errorItem(context.getNode(), itemIndex, errorFields(nodeError)));
}

type ByPropIds = Request & { propIds: string[] };

/** The PropIDs of every item adding to one list, sent together in chunks of PROP_IDS_PER_REQUEST. */
async function addPropIds(run: AddRun, listId: ListId, requests: ByPropIds[]): Promise<void> {
	const { context } = run;
	const propIds = [...new Set(requests.flatMap((request) => request.propIds))];
	const chunkOf = new Map(
		propIds.map((propId, position) => [propId, Math.floor(position / PROP_IDS_PER_REQUEST)]),
	);
	const answers: Array<{ updateCount: number; propIds: number } | { error: unknown }> = [];
	for (let start = 0; start < propIds.length; start += PROP_IDS_PER_REQUEST) {
		const chunk = propIds.slice(start, start + PROP_IDS_PER_REQUEST);
		const firstItem = requests.find((request) =>
			request.propIds.some((propId) => chunkOf.get(propId) === start / PROP_IDS_PER_REQUEST),
		)!.itemIndex;
		try {
			const criteria = [{ name: 'PropID', value: chunk }];
			const response = await putCriteria(context, listId, criteria, firstItem);
			answers.push({ updateCount: response.updateCount ?? 0, propIds: chunk.length });
		} catch (error) {
			if (!context.continueOnFail()) throw toNodeError(context.getNode(), error, firstItem);
			answers.push({ error });
		}
	}
	for (const request of requests) {
		const chunks = [...new Set(request.propIds.map((propId) => chunkOf.get(propId)!))];
		const answered = chunks.map((chunk) => answers[chunk]);
		const failed = answered.find((answer) => 'error' in answer);
		if (failed) {
			failItem(run, request.itemIndex, failed.error);
			continue;
		}
		const sent = answered as Array<{ updateCount: number; propIds: number }>;
		// The service counts what a request added, not what each item's PropIDs did: these are the counts of the request(s) that carried them.
		const batch = {
			requests: chunks.length,
			propIds: sent.reduce((total, answer) => total + answer.propIds, 0),
			updateCount: sent.reduce((total, answer) => total + answer.updateCount, 0),
		};
		run.outputs.set(request.itemIndex, {
			json: { ListID: listId, PropIDs: request.propIds, batch },
			pairedItem: { item: request.itemIndex },
		});
	}
}

/** Every item adding to one list: its type read once, criteria sent one by one, PropIDs together. */
async function addToList(run: AddRun, requests: Request[]): Promise<void> {
	const { context } = run;
	const { listId } = requests[0];
	const problem = await staticListProblem(context, listId, requests[0].itemIndex).catch(
		(error: unknown) => error,
	);
	if (problem) {
		for (const request of requests) failItem(run, request.itemIndex, problem);
		return;
	}
	for (const request of requests) {
		if (!('criteria' in request)) continue;
		try {
			const response = await putCriteria(context, listId, request.criteria, request.itemIndex);
			run.outputs.set(request.itemIndex, {
				json: { ListID: listId, updateCount: response.updateCount ?? 0 },
				pairedItem: { item: request.itemIndex },
			});
		} catch (error) {
			failItem(run, request.itemIndex, error);
		}
	}
	const byPropIds = requests.filter((request): request is ByPropIds => 'propIds' in request);
	await addPropIds(run, listId, byPropIds);
}

// All items at once: every item checked first, each list's type read once, and the PropIDs of all
// items adding to one list sent together.
export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const run: AddRun = { context: this, outputs: new Map() };
	const byList = new Map<string, Request[]>();
	items.forEach((_, itemIndex) => {
		try {
			const request = readRequest(this, itemIndex);
			byList.set(String(request.listId), [...(byList.get(String(request.listId)) ?? []), request]);
		} catch (error) {
			failItem(run, itemIndex, error);
		}
	});
	for (const requests of byList.values()) await addToList(run, requests);
	return items.map((_, itemIndex) => run.outputs.get(itemIndex)!);
}
