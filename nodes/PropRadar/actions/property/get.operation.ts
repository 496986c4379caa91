import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { paths, toNodeError } from '../../transport';
import {
	boughtBeforeProperties,
	chargedIdBatches,
	chargeProperties,
	idError,
	type IdBatch,
	type IdOutcome,
	type RunSpending,
} from '../../money';
import {
	fieldsPicker,
	outputProperties,
	PROPERTY_GET_DEFAULT_FIELDS,
	propertyFieldsWithPropId,
} from '../../shared/fieldsets';
import { propIdProperty, readFields, readPropId } from '../../shared/parameters';
import { PAGE_LIMITS } from '../../shared/vocabulary';
import { byPropId, chargedRead } from '../shapes';
import type { BoughtKey, ItemsReadAhead } from '../types';

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
export const boughtKey: BoughtKey = {
	name: 'PropID',
	read: (context, itemIndex) => readPropId(context, itemIndex),
};
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
	/** Each ID once, in the order of the first item naming it, with that item. */
	firstItemOf: Map<string, number>;
}

const BATCH_SIZE = PAGE_LIMITS.properties.maxLimit;

/**
 * Many items read through the search's PropID criterion, up to 500 properties a request, instead
 * of one GET each (docs/money.md, "Property > Get over many items"): each item then gets the
 * record of its own PropID, in input order; an ID the service does not have is that item's "does
 * not exist", as a GET's 404 would be. Items are grouped by their Fields, the one other part of
 * the request an expression can change per item.
 */
export async function readAhead(
	this: IExecuteFunctions,
	spending: RunSpending,
	continueOnFail: boolean,
	itemIndexes: readonly number[],
): Promise<ItemsReadAhead> {
	const failedItems = new Map<number, unknown>();
	const groups = new Map<string | undefined, FieldsGroup>();
	const placeOf: Array<{ group: FieldsGroup; propId: string } | undefined> = [];
	for (const itemIndex of itemIndexes) {
		let propId: string;
		let fields: string | undefined;
		try {
			propId = readPropId(this, itemIndex);
			fields = readFields(this, itemIndex, 'property');
		} catch (error) {
			// Refused before any request: bad input never costs a request, nor anything else.
			if (!continueOnFail) throw toNodeError(this.getNode(), error, itemIndex);
			failedItems.set(itemIndex, error);
			continue;
		}
		let group = groups.get(fields);
		if (!group)
			groups.set(fields, (group = { ...propertyFieldsWithPropId(fields), firstItemOf: new Map() }));
		if (!group.firstItemOf.has(propId)) group.firstItemOf.set(propId, itemIndex);
		placeOf[itemIndex] = { group, propId };
	}

	const batches: IdBatch[] = [];
	// Where each item's PropID is read: its batch, by group and ID.
	const batchOf = new Map<FieldsGroup, Map<string, number>>();
	for (const group of groups.values()) {
		const ids = [...group.firstItemOf.keys()];
		batchOf.set(
			group,
			new Map(ids.map((id, index) => [id, batches.length + Math.floor(index / BATCH_SIZE)])),
		);
		for (let start = 0; start < ids.length; start += BATCH_SIZE) {
			const asked = ids.slice(start, start + BATCH_SIZE);
			batches.push({
				ids: asked,
				itemIndex: group.firstItemOf.get(asked[0])!,
				request: (ids) => ({
					method: 'POST',
					path: paths.properties(),
					qs: { Fields: group.fields, Limit: ids.length },
					body: { Criteria: [{ name: 'PropID', value: ids }] },
				}),
			});
		}
	}
	const outcomeOf = (outcomes: Array<Map<string, IdOutcome>>, itemIndex: number) => {
		const { group, propId } = placeOf[itemIndex]!;
		return outcomes[batchOf.get(group)!.get(propId)!].get(propId);
	};
	const outcomes = await chargedIdBatches(this, spending, {
		kind: 'property',
		itemIndexes,
		batches,
		subject: (propId) => `Property ${propId}`,
		extra: (propId) => ({ PropID: propId }),
		continueOnFail,
		// As a whole purchase quoted first: an item that fails ends the run before anything is bought.
		refuseFirst: (outcomes) => {
			if (continueOnFail) return;
			for (const itemIndex of itemIndexes) {
				// Only the IDs found missing have an outcome yet.
				const outcome = placeOf[itemIndex] && outcomeOf(outcomes, itemIndex);
				if (outcome && 'error' in outcome) throw idError(this, outcome, itemIndex);
			}
		},
	});

	return {
		outcome: (itemIndex) => {
			if (failedItems.has(itemIndex)) throw failedItems.get(itemIndex);
			const outcome = outcomeOf(outcomes, itemIndex)!;
			if ('error' in outcome) throw idError(this, outcome, itemIndex);
			const { group, propId } = placeOf[itemIndex]!;
			const first = group.firstItemOf.get(propId)!;
			return outcome.records.map((record) => {
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
		},
	};
}
