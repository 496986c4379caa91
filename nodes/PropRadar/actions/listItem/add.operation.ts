import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, paths, toNodeError, type ListRecord } from '../../transport';
import { criteriaProperties, type Criterion } from '../../shared/criteria';
import { errorFields, errorItem } from '../errorItem';
import {
	propertyNamed,
	readChoice,
	readCriteriaParameters,
	readListId,
	readPropIds,
	staticListLocator,
} from '../../shared/parameters';
import { fieldNames, LIST_FIELDS, PAGE_LIMITS } from '../../shared/vocabulary';

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
		default: '={{ $json.PropID }}',
		required: true,
		description: 'One PropID or several, comma-separated (or a list from an expression)',
		displayOptions: { show: { ...show, addBy: ['propIds'] } },
	},
	...criteriaProperties({ ...show, addBy: ['criteria'] }, true),
];

/** PropIDs per request: the most the property endpoints take in one page (docs/api.md, Paging). */
export const PROP_IDS_PER_REQUEST = PAGE_LIMITS.properties.maxLimit;

type ListId = ReturnType<typeof readListId>;

type Request = { itemIndex: number; listId: ListId } & (
	{ propIds: string[] } | { criteria: Criterion[] }
);

function readRequest(context: IExecuteFunctions, itemIndex: number): Request {
	const listId = readListId(context, itemIndex, 'listId', 'Static List');
	if (readChoice(context, itemIndex, propertyNamed(description, 'addBy')) === 'propIds') {
		const propIds = readPropIds(context, itemIndex, 'propIds', 'Property IDs');
		if (propIds.length === 0) {
			throw new NodeOperationError(context.getNode(), 'Property IDs: give at least one PropID', {
				itemIndex,
			});
		}
		return { itemIndex, listId, propIds };
	}
	const criteria = readCriteriaParameters(context, itemIndex);
	if (criteria.length === 0)
		throw new NodeOperationError(context.getNode(), 'Criteria: add at least one criterion', {
			itemIndex,
		});
	return { itemIndex, listId, criteria };
}

async function staticListProblem(
	context: IExecuteFunctions,
	listId: ListId,
	itemIndex: number,
): Promise<NodeOperationError | undefined> {
	const list = (
		await apiRequest<{ results?: ListRecord[] }>(context, {
			method: 'GET',
			path: paths.list(listId),
			qs: { Fields: fieldNames(LIST_FIELDS, 'ListID', 'ListType') },
			itemIndex,
		})
	).results?.[0];
	if (!list?.ListType || list.ListType === 'static') return undefined;
	return new NodeOperationError(
		context.getNode(),
		`List ${listId} is a ${list.ListType} list: items can only be added to static lists`,
		{
			itemIndex,
			description:
				list.ListType === 'dynamic'
					? 'A dynamic list follows its criteria; change what it matches by ' +
						'creating a new dynamic list.'
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

// All items at once: every item checked first, each list's type read once, and the PropIDs of all
// items adding to one list sent together, in chunks of PROP_IDS_PER_REQUEST.
export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const outputs = new Map<number, INodeExecutionData>();
	const fail = (itemIndex: number, error: unknown) => {
		if (!this.continueOnFail()) throw toNodeError(this.getNode(), error, itemIndex);
		outputs.set(
			itemIndex,
			errorItem(
				this.getNode(),
				itemIndex,
				errorFields(toNodeError(this.getNode(), error, itemIndex)),
			),
		);
	};
	const requests: Request[] = [];
	items.forEach((_, itemIndex) => {
		try {
			requests.push(readRequest(this, itemIndex));
		} catch (error) {
			fail(itemIndex, error);
		}
	});

	const byList = new Map<string, Request[]>();
	for (const request of requests)
		byList.set(String(request.listId), [...(byList.get(String(request.listId)) ?? []), request]);
	for (const listRequests of byList.values()) {
		const { listId } = listRequests[0];
		let problem: unknown;
		try {
			problem = await staticListProblem(this, listId, listRequests[0].itemIndex);
		} catch (error) {
			problem = error;
		}
		if (problem) {
			for (const request of listRequests) fail(request.itemIndex, problem);
			continue;
		}
		for (const request of listRequests) {
			if (!('criteria' in request)) continue;
			try {
				const response = await putCriteria(this, listId, request.criteria, request.itemIndex);
				outputs.set(request.itemIndex, {
					json: { ListID: listId, updateCount: response.updateCount ?? 0 },
					pairedItem: { item: request.itemIndex },
				});
			} catch (error) {
				fail(request.itemIndex, error);
			}
		}
		const byPropIds = listRequests.filter(
			(request): request is Request & { propIds: string[] } => 'propIds' in request,
		);
		const propIds = [...new Set(byPropIds.flatMap((request) => request.propIds))];
		const chunkOf = new Map(
			propIds.map((propId, position) => [propId, Math.floor(position / PROP_IDS_PER_REQUEST)]),
		);
		const answers: Array<{ updateCount: number } | { error: unknown }> = [];
		for (let start = 0; start < propIds.length; start += PROP_IDS_PER_REQUEST) {
			const chunk = propIds.slice(start, start + PROP_IDS_PER_REQUEST);
			const firstItem = byPropIds.find((request) =>
				request.propIds.some((propId) => chunkOf.get(propId) === start / PROP_IDS_PER_REQUEST),
			)!.itemIndex;
			try {
				answers.push({
					updateCount:
						(await putCriteria(this, listId, [{ name: 'PropID', value: chunk }], firstItem))
							.updateCount ?? 0,
				});
			} catch (error) {
				if (!this.continueOnFail()) throw toNodeError(this.getNode(), error, firstItem);
				answers.push({ error });
			}
		}
		for (const request of byPropIds) {
			const chunks = [...new Set(request.propIds.map((propId) => chunkOf.get(propId)!))];
			const failed = chunks
				.map((chunk) => answers[chunk])
				.find((answer): answer is { error: unknown } => 'error' in answer);
			if (failed) {
				fail(request.itemIndex, failed.error);
				continue;
			}
			const sent = chunks.map((chunk) =>
				Math.min(PROP_IDS_PER_REQUEST, propIds.length - chunk * PROP_IDS_PER_REQUEST),
			);
			outputs.set(request.itemIndex, {
				json: {
					ListID: listId,
					PropIDs: request.propIds,
					// The service counts what a request added, not what each item's PropIDs did: these are the counts of the request(s) that carried them.
					batch: {
						requests: chunks.length,
						propIds: sent.reduce((sum, count) => sum + count, 0),
						updateCount: chunks.reduce(
							(sum, chunk) => sum + (answers[chunk] as { updateCount: number }).updateCount,
							0,
						),
					},
				},
				pairedItem: { item: request.itemIndex },
			});
		}
	}
	return items.map((_, itemIndex) => outputs.get(itemIndex)!);
}
