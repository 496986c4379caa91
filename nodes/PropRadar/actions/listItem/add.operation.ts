import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, paths, readList, toNodeError } from '../../transport';
import { criteriaProperties, type Criterion } from '../../shared/criteria';
import type { NumberedId } from '../../shared/ids';
import { errorFields, errorItem } from '../itemLoop';
import {
	fail,
	readCriteriaParameters,
	readListId,
	readPropIds,
	staticListLocator,
} from '../../shared/parameters';
import { fieldNames, LIST_FIELDS, PAGE_LIMITS } from '../../shared/vocabulary';
import { ownParameters, shownFor } from '../shapes';

const show = { resource: ['listItem'], operation: ['add'] };

export const description = shownFor(show, [
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
]);

/** PropIDs per request: the most the property endpoints take in one page (docs/api.md, Paging). */
const PROP_IDS_PER_REQUEST = PAGE_LIMITS.properties.maxLimit;

type Request = { itemIndex: number; listId: NumberedId } & (
	{ propIds: string[] } | { criteria: Criterion[] }
);
type ByPropIds = Request & { propIds: string[] };

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

/** A run of List Item > Add: each item's output, or its error item. */
class AddRun {
	readonly outputs = new Map<number, INodeExecutionData>();

	constructor(readonly context: IExecuteFunctions) {}

	added(itemIndex: number, json: IDataObject): void {
		this.outputs.set(itemIndex, { json, pairedItem: { item: itemIndex } });
	}

	failed(itemIndex: number, error: unknown): void {
		const node = this.context.getNode();
		const nodeError = toNodeError(node, error, itemIndex);
		if (!this.context.continueOnFail()) throw nodeError;
		this.outputs.set(itemIndex, errorItem(node, itemIndex, errorFields(nodeError)));
	}

	put(listId: NumberedId, criteria: Criterion[], itemIndex: number) {
		return apiRequest(this.context, {
			method: 'PUT',
			path: paths.listItems(listId),
			body: { Criteria: criteria as unknown as IDataObject[] },
			itemIndex,
		});
	}

	/** Every item adding to one list: its type read once, criteria sent one by one, PropIDs together. */
	async addToList(requests: Request[]): Promise<void> {
		const { listId, itemIndex } = requests[0];
		const problem = await staticListProblem(this.context, listId, itemIndex).catch(
			(error: unknown) => error,
		);
		if (problem) {
			for (const request of requests) this.failed(request.itemIndex, problem);
			return;
		}
		for (const request of requests) {
			if (!('criteria' in request)) continue;
			try {
				const response = await this.put(listId, request.criteria, request.itemIndex);
				this.added(request.itemIndex, { ListID: listId, updateCount: response.updateCount ?? 0 });
			} catch (error) {
				this.failed(request.itemIndex, error);
			}
		}
		await this.addPropIds(
			listId,
			requests.filter((request): request is ByPropIds => 'propIds' in request),
		);
	}

	/** The PropIDs of every item adding to one list, sent together in chunks of PROP_IDS_PER_REQUEST. */
	async addPropIds(listId: NumberedId, requests: ByPropIds[]): Promise<void> {
		const propIds = [...new Set(requests.flatMap((request) => request.propIds))];
		const chunkOf = new Map(
			propIds.map((propId, position) => [propId, Math.floor(position / PROP_IDS_PER_REQUEST)]),
		);
		const answers: Array<{ updateCount: number; propIds: number } | { error: unknown }> = [];
		for (let start = 0; start < propIds.length; start += PROP_IDS_PER_REQUEST) {
			const chunk = propIds.slice(start, start + PROP_IDS_PER_REQUEST);
			// The first item with a PropID in the chunk is the one that named its first.
			const firstItem = requests.find((request) => request.propIds.includes(chunk[0]))!.itemIndex;
			try {
				const response = await this.put(listId, [{ name: 'PropID', value: chunk }], firstItem);
				answers.push({ updateCount: response.updateCount ?? 0, propIds: chunk.length });
			} catch (error) {
				if (!this.context.continueOnFail())
					throw toNodeError(this.context.getNode(), error, firstItem);
				answers.push({ error });
			}
		}
		for (const request of requests) {
			const chunks = [...new Set(request.propIds.map((propId) => chunkOf.get(propId)!))];
			const answered = chunks.map((chunk) => answers[chunk]);
			const failed = answered.find((answer) => 'error' in answer);
			if (failed) {
				this.failed(request.itemIndex, failed.error);
				continue;
			}
			const sent = answered as Array<{ updateCount: number; propIds: number }>;
			// The service counts what a request added, not what each item's PropIDs did: these are the counts of the request(s) that carried them.
			const batch = {
				requests: chunks.length,
				propIds: sent.reduce((total, answer) => total + answer.propIds, 0),
				updateCount: sent.reduce((total, answer) => total + answer.updateCount, 0),
			};
			this.added(request.itemIndex, { ListID: listId, PropIDs: request.propIds, batch });
		}
	}
}

async function staticListProblem(
	context: IExecuteFunctions,
	listId: NumberedId,
	itemIndex: number,
) {
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

// All items at once: every item checked first, each list's type read once, and the PropIDs of all
// items adding to one list sent together.
export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const run = new AddRun(this);
	const byList = new Map<string, Request[]>();
	items.forEach((_, itemIndex) => {
		try {
			const request = readRequest(this, itemIndex);
			const key = String(request.listId);
			if (!byList.has(key)) byList.set(key, []);
			byList.get(key)!.push(request);
		} catch (error) {
			run.failed(itemIndex, error);
		}
	});
	for (const requests of byList.values()) await run.addToList(requests);
	return items.map((_, itemIndex) => run.outputs.get(itemIndex)!);
}
