import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { BatchOutcome, RunMoney } from '../../money';
import type { NumberedId } from '../../shared/ids';
import {
	checkedValue,
	fail,
	isFixed,
	parameter,
	readChoice,
	readerOf,
	readListId,
} from '../../shared/parameters';
import { errorItem } from '../itemLoop';
import { hasField, NO_FIELDS, readRecord, type ImportRecord } from './records';

// Import Record > Import's input items read into one group of records per import list, and its
// output items made from what each record came to.

/** The records bound for one import list, and the input items they come from. */
interface ListGroup {
	listId: NumberedId;
	records: ImportRecord[];
	itemOf: number[];
}

interface ImportItems {
	lists: ListGroup[];
	// The items with no record field (not sent, quoted or charged); what was changed in each record.
	skipped: number[];
	notesOf: string[][];
}

/** A setting that holds for the whole import: given by an expression, read for every item and refused when an item gives another value. */
export function oneForTheImport<T>(
	context: IExecuteFunctions,
	itemCount: number,
	[name, label]: [string, string],
	read: (itemIndex: number) => T,
): T {
	const first = read(0);
	if (isFixed(context, name)) return first;
	for (let itemIndex = 1; itemIndex < itemCount; itemIndex++) {
		const value = read(itemIndex);
		if (JSON.stringify(value) === JSON.stringify(first)) continue;
		fail(
			context,
			itemIndex,
			`${label}: one value for the whole import; the item at index ${itemIndex} gives ${JSON.stringify(value ?? null)} where the first item gave ${JSON.stringify(first ?? null)}`,
			'Every request of the import carries it, so it cannot change from item to item. Nothing was sent and nothing was charged. Use a fixed value, or an expression that gives the same value for every item.',
		);
	}
	return first;
}

function mappedRecord(
	context: IExecuteFunctions,
	itemIndex: number,
	recordField: INodeProperties,
	notes: string[],
): ImportRecord {
	const rows =
		((parameter(context, 'recordFields', itemIndex, {}) as IDataObject).field as
			Array<{ name: unknown; value: unknown }> | undefined) ?? [];
	const mapped: Record<string, unknown> = Object.create(null);
	rows.forEach((row, index) => {
		const label = `Record Fields row ${index + 1} > Record Field`;
		mapped[checkedValue(context, itemIndex, recordField, row.name, label) as string] = row.value;
	});
	return readRecord(mapped, notes);
}

/** Every item's record, grouped by the Import List the item names. */
export function readImportItems(
	context: IExecuteFunctions,
	mapping: INodeProperties,
	recordField: INodeProperties,
): ImportItems {
	const items = context.getInputData();
	// Plain arrays built in one pass: in a busy n8n every allocation costs more (docs/design.md).
	const groups = new Map<NumberedId, ListGroup>();
	const skipped: number[] = [];
	const notesOf: string[][] = [];
	const found: string[] = [];
	const listIdOf = readerOf(context, 'listId', (itemIndex) =>
		readListId(context, itemIndex, 'listId', 'Import List'),
	);
	const mappingOf = readerOf(context, mapping.name, (itemIndex) =>
		readChoice<'auto' | 'manual'>(context, itemIndex, mapping),
	);
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const listId = listIdOf(itemIndex);
		const mapped = mappingOf(itemIndex);
		const record =
			mapped === 'manual'
				? mappedRecord(context, itemIndex, recordField, found)
				: readRecord(items[itemIndex].json, found);
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
	if (groups.size === 0) {
		throw new NodeOperationError(
			context.getNode(),
			`Nothing to import: none of the ${items.length} input items has a record field`,
			{ description: `${NO_FIELDS} Nothing was sent and nothing was charged.` },
		);
	}
	return { lists: [...groups.values()], skipped, notesOf };
}

function notSent(notesOf: string[][], itemIndex: number): IDataObject {
	return {
		imported: false,
		error: `Not imported: the item at index ${itemIndex} has no record field to send`,
		description: `${[...(notesOf[itemIndex] ?? []), ''].join('. ')}${NO_FIELDS} This item was not sent and not charged; the other items were imported.`,
	};
}

/** One preview per list; the items with nothing to send are told on the first. */
export function previewItems(
	{ lists, skipped, notesOf }: ImportItems,
	previews: IDataObject[],
	batchSize: number,
): INodeExecutionData[] {
	return lists.map(({ listId, records, itemOf }, group) => {
		const paired = group === 0 ? [...itemOf, ...skipped].sort((a, b) => a - b) : itemOf;
		const notes = paired.flatMap((itemIndex) =>
			(notesOf[itemIndex] ?? []).map((note) => `item at index ${itemIndex}: ${note}`),
		);
		const notSentItems = skipped.map((itemIndex) => ({
			itemIndex,
			...notSent(notesOf, itemIndex),
		}));
		return {
			json: {
				ListID: listId,
				records: records.length,
				batches: Math.ceil(records.length / batchSize),
				...previews[group],
				...(group === 0 && skipped.length > 0 ? { notSent: notSentItems } : {}),
				...(notes.length > 0 ? { notes } : {}),
			},
			pairedItem: paired.map((item) => ({ item })),
		};
	});
}

/** One output item per input item: imported, or an error item saying what happened to the money. */
export function importedItems(
	context: IExecuteFunctions,
	money: RunMoney,
	items: ImportItems,
	outcomes: BatchOutcome[][],
): INodeExecutionData[] {
	// n8n hands out a copy of the node on every call.
	const node = context.getNode();
	const output = new Array<INodeExecutionData>(context.getInputData().length);
	let failed: Extract<BatchOutcome, { bought: false }> | undefined;
	items.lists.forEach(({ records, itemOf }, group) =>
		records.forEach((record, index) => {
			const itemIndex = itemOf[index];
			const outcome = outcomes[group][index];
			const notes = items.notesOf[itemIndex] ? { notes: items.notesOf[itemIndex] } : {};
			if (outcome.bought) {
				const json = { imported: true, ...outcome.result, record, ...notes, _charge: outcome.note };
				output[itemIndex] = { json, pairedItem: { item: itemIndex } };
				return;
			}
			failed ??= outcome;
			const { error, description, httpCode } = outcome;
			output[itemIndex] = errorItem(node, itemIndex, {
				imported: false,
				error,
				description,
				...(httpCode ? { httpCode } : {}),
				record,
				...notes,
			});
		}),
	);
	for (const itemIndex of items.skipped)
		output[itemIndex] = errorItem(node, itemIndex, notSent(items.notesOf, itemIndex));
	if (!failed || context.continueOnFail()) return output;
	const options = { message: failed.error, description: failed.description };
	const error = failed.httpCode
		? new NodeApiError(node, {}, { ...options, httpCode: failed.httpCode })
		: new NodeOperationError(node, failed.error, options);
	throw money.stoppedImport(
		error,
		output.map((item) => item.json),
	);
}
