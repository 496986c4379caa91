import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths, toNodeError } from '../../transport';
import {
	boughtBeforeProperties,
	buyIdBatches,
	chargeProperties,
	idError,
	quoteIdBatches,
} from '../../money';
import type { IdBatch, RunMoney } from '../../money';
import {
	fieldsPicker,
	outputProperties,
	PROPERTY_GET_DEFAULT_FIELDS,
	propertyFieldsWithPropId,
} from '../../shared/fieldsets';
import { propIdProperty, readerOf, readFields, readPropId } from '../../shared/parameters';
import { PAGE_LIMITS } from '../../shared/vocabulary';
import { byPropId, chargedRead, type BoughtKey, type ItemsReadAhead } from '../shapes';

const show = { resource: ['property'], operation: ['get'] };

export const description: INodeProperties[] = [
	propIdProperty(show),
	fieldsPicker(
		'property',
		{ show },
		`Nothing chosen asks for PropID and Property Overview (${PROPERTY_GET_DEFAULT_FIELDS})`,
	),
	...outputProperties('property', show, true),
	...chargeProperties(show, 'the property record'),
	...boughtBeforeProperties(show, 'PropID', 'property record'),
];

export const keepsInputKeys = true;
export const boughtKey: BoughtKey = { name: 'PropID', read: readPropId };
export const outputs = 'property';

// One item: one GET; several are read ahead in batches (`readAhead`).
export const execute = chargedRead({
	kind: 'property',
	read: byPropId(paths.property, (context, itemIndex) => ({
		Fields: readFields(context, itemIndex, 'property') ?? PROPERTY_GET_DEFAULT_FIELDS,
	})),
});

/** The items whose requests differ only in the PropID: one Fields choice. */
interface FieldsGroup {
	fields: string;
	showsPropId: boolean;
	// Each ID once, with the first item naming it; and the index of its batch in the run.
	firstItemOf: Map<string, number>;
	batchOf: Map<string, number>;
}

type Place = { group: FieldsGroup; propId: string };

const BATCH_SIZE = PAGE_LIMITS.properties.maxLimit;

/** Each item's place (its Fields group and PropID); an item whose parameters are refused has none. */
function placeItems(
	context: IExecuteFunctions,
	itemIndexes: readonly number[],
	continueOnFail: boolean,
): { placeOf: Array<Place | undefined>; failedItems: Map<number, unknown>; groups: FieldsGroup[] } {
	const failedItems = new Map<number, unknown>();
	const groups = new Map<string | undefined, FieldsGroup>();
	const placeOf: Array<Place | undefined> = [];
	const fieldsOf = readerOf(context, 'fields', (itemIndex) =>
		readFields(context, itemIndex, 'property'),
	);
	for (const itemIndex of itemIndexes) {
		let propId: string;
		let fields: string | undefined;
		try {
			propId = readPropId(context, itemIndex);
			fields = fieldsOf(itemIndex);
		} catch (error) {
			// Refused before any request: bad input never costs a request, nor anything else.
			if (!continueOnFail) throw toNodeError(context.getNode(), error, itemIndex);
			failedItems.set(itemIndex, error);
			continue;
		}
		let group = groups.get(fields);
		if (!group) {
			group = { ...propertyFieldsWithPropId(fields), firstItemOf: new Map(), batchOf: new Map() };
			groups.set(fields, group);
		}
		if (!group.firstItemOf.has(propId)) group.firstItemOf.set(propId, itemIndex);
		placeOf[itemIndex] = { group, propId };
	}
	return { placeOf, failedItems, groups: [...groups.values()] };
}

/** Each group's PropIDs in requests of up to BATCH_SIZE. */
function batchesOf(groups: FieldsGroup[]): IdBatch[] {
	const batches: IdBatch[] = [];
	for (const group of groups) {
		const ids = [...group.firstItemOf.keys()];
		ids.forEach((id, index) =>
			group.batchOf.set(id, batches.length + Math.floor(index / BATCH_SIZE)),
		);
		for (let start = 0; start < ids.length; start += BATCH_SIZE) {
			const asked = ids.slice(start, start + BATCH_SIZE);
			batches.push({
				ids: asked,
				itemIndex: group.firstItemOf.get(asked[0])!,
				request: { method: 'POST', path: paths.properties(), qs: { Fields: group.fields } },
			});
		}
	}
	return batches;
}

/** The item's records: its PropID's, the preview of one an earlier item names priced at nothing. */
function recordsOf(records: IDataObject[], { group, propId }: Place, itemIndex: number) {
	const first = group.firstItemOf.get(propId)!;
	return records.map((record) => {
		if (record.preview !== true) {
			const own: IDataObject = { ...record };
			if (!group.showsPropId) delete own.PropID;
			return own;
		}
		if (first === itemIndex) return record;
		// A PropID an earlier item names (with the same Fields) is bought once, with that item.
		return {
			...record,
			totalCost: '0.00',
			resultCount: 0,
			maxCostNeeded: '0.00',
			sameAsItem: first,
		};
	});
}

// Many items read through the search's PropID criterion, 500 a request, grouped by their Fields
// (docs/money.md, "Property > Get over many items").
export async function readAhead(
	this: IExecuteFunctions,
	money: RunMoney,
	continueOnFail: boolean,
	itemIndexes: readonly number[],
): Promise<ItemsReadAhead> {
	const { placeOf, failedItems, groups } = placeItems(this, itemIndexes, continueOnFail);
	const batches = batchesOf(groups);
	const quoted = await quoteIdBatches(this, money, {
		kind: 'property',
		itemIndexes,
		batches,
		continueOnFail,
	});
	const outcomeOf = (itemIndex: number) => {
		const { group, propId } = placeOf[itemIndex]!;
		return quoted.outcomes[group.batchOf.get(propId)!].get(propId);
	};
	// As a whole purchase quoted first: an item that fails ends the run before anything is bought.
	if (quoted.purchasing && !continueOnFail) {
		for (const itemIndex of itemIndexes) {
			// Only the IDs found missing have an outcome yet.
			const outcome = placeOf[itemIndex] && outcomeOf(itemIndex);
			if (outcome && 'error' in outcome) throw idError(this, outcome, itemIndex);
		}
	}
	await buyIdBatches(this, money, quoted);
	return {
		outcome: (itemIndex) => {
			if (failedItems.has(itemIndex)) throw failedItems.get(itemIndex);
			const outcome = outcomeOf(itemIndex)!;
			if ('error' in outcome) throw idError(this, outcome, itemIndex);
			return recordsOf(outcome.records, placeOf[itemIndex]!, itemIndex);
		},
	};
}
