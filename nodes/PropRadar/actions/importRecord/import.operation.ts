import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { apiRequest, paths, type ApiEnvelope, type ListRecord } from '../../transport';
import { chargeProperties, type BatchOutcome, type RunMoney } from '../../money';
import { fieldsPicker } from '../../shared/fieldsets';
import { errorItem } from '../errorItem';
import { fieldNames, IMPORT_RECORD_FIELDS, LIST_FIELDS } from '../../shared/vocabulary';
import type { NumberedId } from '../../shared/ids';
import {
	checkedValue,
	listLocator,
	onceForEveryItem,
	propertyNamed,
	readChoice,
	readCollection,
	readFields,
	readListId,
} from '../../shared/parameters';
import { hasField, NO_FIELDS, readRecord, type ImportRecord } from './records';

const show = { resource: ['importRecord'], operation: ['import'] };

// Records per request, chosen by measurement (docs/design.md, actions/).
export const DEFAULT_BATCH_SIZE = 500;
export const MAX_BATCH_SIZE = 5000;

export const description: INodeProperties[] = [
	listLocator(show, 'Import List', 'listId', 'searchImportLists'),
	{
		displayName:
			'Each input item is one record, sent as it is: a ZIP+4 or a ZIP that lost its leading zero is sent as five digits and a full US state name as its code (each change is noted in the item). An item with no record field is not sent or charged and becomes an error item. The list must be an import list created with Import Source "API" (List > Create).',
		name: 'importNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	{
		displayName: 'Map Fields',
		name: 'mapping',
		type: 'options',
		options: [
			{
				name: 'Same-Named Fields',
				value: 'auto',
				description:
					'Input fields named like the record fields (Address, City, State, ZipFive, FirstName, Email ...) are sent',
			},
			{
				name: 'Map Each Field',
				value: 'manual',
				description: 'Say which value goes to which record field',
			},
		],
		default: 'auto',
		displayOptions: { show },
	},
	{
		displayName: 'Record Fields',
		name: 'recordFields',
		type: 'fixedCollection',
		placeholder: 'Add Field',
		typeOptions: { multipleValues: true },
		default: {},
		displayOptions: { show: { ...show, mapping: ['manual'] } },
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Record Field',
						name: 'name',
						type: 'options',
						options: [...IMPORT_RECORD_FIELDS]
							.sort()
							.map((field) => ({ name: field, value: field })),
						default: 'Address',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: '={{ $json.street }}',
					},
				],
			},
		],
	},
	...chargeProperties(show, 'the import (per imported record)'),
	fieldsPicker(
		'importItem',
		{ show },
		'What each imported item returns: its ListImportItemID and match by default',
	),
	{
		displayName: 'Options',
		name: 'importOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
				default: DEFAULT_BATCH_SIZE,
				description: 'Records sent per request',
			},
			{
				displayName: 'Send Token as X-Prop-Access-Token',
				name: 'accessTokenHeader',
				type: 'boolean',
				default: false,
				description:
					'Whether to also send the access token in the X-Prop-Access-Token header, which the import endpoint accepts',
			},
		],
	},
];

/** Record Fields' choice of record field, which an expression may give as any text. */
const RECORD_FIELD = (
	propertyNamed(description, 'recordFields').options![0] as { values: INodeProperties[] }
).values[0];

function recordOf(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	mapping: string,
	notes: string[],
): ImportRecord {
	if (mapping === 'manual') {
		const rows =
			((context.getNodeParameter('recordFields', itemIndex, {}) as IDataObject).field as
				Array<{ name: unknown; value: unknown }> | undefined) ?? [];
		const mapped: Record<string, unknown> = Object.create(null);
		rows.forEach((row, index) => {
			mapped[
				checkedValue(
					context,
					itemIndex,
					RECORD_FIELD,
					row.name,
					`Record Fields row ${index + 1} > Record Field`,
				) as string
			] = row.value;
		});
		return readRecord(mapped, notes);
	}
	return readRecord(item.json, notes);
}

async function assertApiImportList(context: IExecuteFunctions, listId: NumberedId): Promise<void> {
	const list = (
		await apiRequest<{ results?: ListRecord[] }>(context, {
			method: 'GET',
			path: paths.list(listId),
			qs: { Fields: fieldNames(LIST_FIELDS, 'ListID', 'ListType', 'ImportSource') },
		})
	).results?.[0];
	if (list?.ListType !== 'import' || list.ImportSource !== 'api') {
		throw new NodeOperationError(
			context.getNode(),
			`List ${listId} is not an import list that takes API imports`,
			{
				description:
					`It is ${list?.ListType === 'import' ? `an import list with Import Source "${list.ImportSource}"` : `a ${list?.ListType ?? 'list'} list`}. ` +
					`Create one with List > Create, List Type "Import", Import Source ` +
					`"API (Needed for Import Records)", and import into that. Nothing ` +
					`was bought or charged.`,
			},
		);
	}
}

/** The records bound for one import list, and the input items they come from. */
interface ListGroup {
	listId: NumberedId;
	records: ImportRecord[];
	itemOf: number[];
}

/** A setting that holds for the whole import: read for every item, refused when an item gives another value. */
function oneForTheImport<T>(
	context: IExecuteFunctions,
	itemCount: number,
	label: string,
	read: (itemIndex: number) => T,
): T {
	const first = read(0);
	for (let itemIndex = 1; itemIndex < itemCount; itemIndex++) {
		const value = read(itemIndex);
		if (JSON.stringify(value) !== JSON.stringify(first)) {
			throw new NodeOperationError(
				context.getNode(),
				`${label}: one value for the whole import; the item at index ${itemIndex} gives ` +
					`${JSON.stringify(value ?? null)} where the first item gave ${JSON.stringify(first ?? null)}`,
				{
					itemIndex,
					description:
						'Every request of the import carries it, so it cannot change from item to ' +
						'item. Nothing was sent and nothing was charged. Use a fixed value, or an ' +
						'expression that gives the same value for every item.',
				},
			);
		}
	}
	return first;
}

// Each item's record goes to the Import List that item names: one group of requests per list, all
// quoted and held before any is bought (docs/money.md, rule 6). An item with no record field is not
// sent, quoted or charged, and becomes an error item. One output item per input item.
export async function executeBatch(
	this: IExecuteFunctions,
	money: RunMoney,
): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const options = oneForTheImport(
		this,
		items.length,
		'Options',
		(itemIndex) =>
			onceForEveryItem(this, 'importOptions', ['importOptions'], itemIndex, () =>
				readCollection(this, itemIndex, propertyNamed(description, 'importOptions')),
			) as { batchSize?: number; accessTokenHeader?: boolean },
	);
	const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
	const fields = oneForTheImport(this, items.length, 'Fields', (itemIndex) =>
		readFields(this, itemIndex, 'importItem'),
	);
	// Plain arrays built in one pass: in a busy n8n every allocation costs more (docs/design.md).
	const groups = new Map<NumberedId, ListGroup>();
	const skipped: number[] = [];
	const notesOf: string[][] = [];
	const found: string[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const listId = onceForEveryItem(this, 'importList', ['listId'], itemIndex, () =>
			readListId(this, itemIndex, 'listId', 'Import List'),
		);
		const mapping = onceForEveryItem(this, 'mapping', ['mapping'], itemIndex, () =>
			readChoice<'auto' | 'manual'>(this, itemIndex, propertyNamed(description, 'mapping')),
		);
		const record = recordOf(this, items[itemIndex], itemIndex, mapping, found);
		if (found.length > 0) notesOf[itemIndex] = found.splice(0);
		if (!hasField(record)) {
			skipped.push(itemIndex);
			continue;
		}
		let group = groups.get(listId);
		if (!group) groups.set(listId, (group = { listId, records: [], itemOf: [] }));
		group.records.push(record);
		group.itemOf.push(itemIndex);
	}
	const notSent = (itemIndex: number): IDataObject => ({
		imported: false,
		error: `Not imported: the item at index ${itemIndex} has no record field to send`,
		description:
			`${[...(notesOf[itemIndex] ?? []), ''].join('. ')}${NO_FIELDS} This item was not ` +
			`sent and not charged; the other items were imported.`,
	});
	if (groups.size === 0) {
		throw new NodeOperationError(
			this.getNode(),
			`Nothing to import: none of the ${items.length} input items has a record field`,
			{ description: `${NO_FIELDS} Nothing was sent and nothing was charged.` },
		);
	}
	const lists = [...groups.values()];

	const headers: Record<string, string> = {};
	if (options.accessTokenHeader) {
		const credentials = await this.getCredentials<{ accessToken: string }>('propRadarApi');
		headers['X-Prop-Access-Token'] = credentials.accessToken;
	}
	const output = new Array<INodeExecutionData>(items.length);
	// n8n hands out a copy of the node on every call.
	const node = this.getNode();
	let failed: Extract<BatchOutcome, { bought: false }> | undefined;
	const result = await money.importBatches({
		kind: 'importRecord',
		itemCount: items.length,
		groups: lists.map(({ listId, records }) => ({
			records,
			// The list is checked while its free quote travels (both are free).
			check: () => assertApiImportList(this, listId),
			send: (batch, purchase) =>
				apiRequest<ApiEnvelope>(this, {
					method: 'POST',
					path: paths.importItems(listId),
					qs: { Purchase: purchase, Fields: fields },
					body: batch as unknown as IDataObject[],
					headers,
					repeatable: purchase === 0,
				}),
		})),
		batchSize,
		settled: (group, index, outcome) => {
			const itemIndex = lists[group].itemOf[index];
			const record = lists[group].records[index];
			const notes = notesOf[itemIndex];
			if (outcome.bought) {
				output[itemIndex] = {
					json: {
						imported: true,
						...outcome.result,
						record,
						...(notes ? { notes } : {}),
						_charge: outcome.note,
					},
					pairedItem: { item: itemIndex },
				};
				return;
			}
			failed ??= outcome;
			output[itemIndex] = errorItem(node, itemIndex, {
				imported: false,
				error: outcome.error,
				description: outcome.description,
				...(outcome.httpCode ? { httpCode: outcome.httpCode } : {}),
				record,
				...(notes ? { notes } : {}),
			});
		},
	});
	if (result.previews) {
		// One preview per list; the items with nothing to send are told on the first.
		return lists.map(({ listId, records, itemOf }, group) => {
			const paired = group === 0 ? [...itemOf, ...skipped].sort((a, b) => a - b) : itemOf;
			const notes = paired.flatMap((itemIndex) =>
				(notesOf[itemIndex] ?? []).map((note) => `item at index ${itemIndex}: ${note}`),
			);
			return {
				json: {
					ListID: listId,
					records: records.length,
					batches: Math.ceil(records.length / batchSize),
					...result.previews![group],
					...(group === 0 && skipped.length > 0
						? { notSent: skipped.map((itemIndex) => ({ itemIndex, ...notSent(itemIndex) })) }
						: {}),
					...(notes.length > 0 ? { notes } : {}),
				},
				pairedItem: paired.map((item) => ({ item })),
			};
		});
	}
	for (const itemIndex of skipped)
		output[itemIndex] = errorItem(node, itemIndex, notSent(itemIndex));
	if (failed && !this.continueOnFail()) {
		const options = { message: failed.error, description: failed.description };
		const error = failed.httpCode
			? new NodeApiError(this.getNode(), {}, { ...options, httpCode: failed.httpCode })
			: new NodeOperationError(this.getNode(), failed.error, options);
		throw money.stoppedImport(
			error,
			output.map((item) => item.json),
		);
	}
	return output;
}
