import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, collectPages, listCount } from '../transport';
import type { ApiEnvelope, ApiPath, ApiRequest, Query } from '../transport';
import { chargedPages, quoteItem, withCharge } from '../money';
import type { ChargeNote, ChargePass, PriceKind, RunMoney } from '../money';
import type { NumberedId } from '../shared/ids';
import {
	propertyNamed,
	readChoice,
	readCollection,
	readLimit,
	readPropId,
	readSort,
} from '../shared/parameters';
import type { SimplifiedKind } from '../shared/vocabulary';

/** Reads the item's parameters (refusing bad ones before anything is sent). */
type ReadItem<T> = (context: IExecuteFunctions, itemIndex: number) => T;

export interface BoughtKey {
	name: 'PropID' | 'PersonKey';
	// The item's key; a bad one throws, and the item fails as without the option.
	read: ReadItem<string>;
}

// `pass`: the whole run's quote, or the item loop (money/properties.ts).
type ItemOperation = (
	this: IExecuteFunctions,
	itemIndex: number,
	money: RunMoney,
	pass: ChargePass,
) => Promise<IDataObject[]>;

// Every item's records, read together before the item loop (a batched read): `outcome` sends
// nothing, it hands the item its records or throws its error.
export interface ItemsReadAhead {
	outcome(itemIndex: number): IDataObject[];
}

/** An operation the router calls item by item. */
export interface ItemModule {
	description: INodeProperties[];
	execute: ItemOperation;
	// With several items (Property > Get): reads the items `itemIndexes` (those Skip Records Bought
	// Before leaves) in few requests; its purchases are quoted and held whole, as the item loop does.
	readAhead?: (
		this: IExecuteFunctions,
		money: RunMoney,
		continueOnFail: boolean,
		itemIndexes: readonly number[],
	) => Promise<ItemsReadAhead>;
	executeBatch?: never;
	/** Whether each output item keeps the input item's PropID, PersonKey and ListID where it has none of its own. */
	keepsInputKeys?: boolean;
	/** The kind of record it outputs, which Simplify and the tool's Output shape (`readOutputFields`). */
	outputs?: SimplifiedKind;
	/** The key a purchase of the item is recorded under for Skip Records Bought Before. */
	boughtKey?: BoughtKey;
}

/** An operation that takes all input items at once, and returns output items already paired to them. */
interface BatchModule {
	description: INodeProperties[];
	executeBatch: (this: IExecuteFunctions, money: RunMoney) => Promise<INodeExecutionData[]>;
	keepsInputKeys?: never;
}

export type OperationModule = ItemModule | BatchModule;

/** What a charged read sends for the item, and what its preview carries besides the quote: `{ PropID }`. */
type ItemRequest = { request: ApiRequest; extra: IDataObject };

export function freeRequest(read: ReadItem<ApiRequest>): ItemOperation {
	return async function (this: IExecuteFunctions, itemIndex) {
		return (await apiRequest(this, { ...read(this, itemIndex), itemIndex })).results ?? [];
	};
}

// A DELETE returns `deleted` first (n8n's UX guidelines), then the IDs and PropRadar's `deleteCount`:
// a count of 0 is PropRadar saying it deleted nothing.
export function deleteRecord(read: ReadItem<{ path: ApiPath; ids: IDataObject }>): ItemOperation {
	return async function (this: IExecuteFunctions, itemIndex) {
		const { path, ids } = read(this, itemIndex);
		const response = await apiRequest(this, { method: 'DELETE', path, itemIndex });
		const deleteCount = response.deleteCount ?? 0;
		return [{ deleted: Number(deleteCount) > 0, ...ids, deleteCount }];
	};
}

/** A GET of `path` by the item's PropID, with the query `qs` reads; its preview names the PropID. */
export function byPropId(
	path: (propId: string) => ApiPath,
	qs?: ReadItem<Query>,
): ReadItem<ItemRequest> {
	return (context, itemIndex) => {
		const propId = readPropId(context, itemIndex);
		return {
			request: { method: 'GET', path: path(propId), ...(qs ? { qs: qs(context, itemIndex) } : {}) },
			extra: { PropID: propId },
		};
	};
}

/** An item's records read in one charged request: its quote (with `extra`), then its purchase. */
export function chargedRead(options: {
	kind: PriceKind;
	read: ReadItem<ItemRequest>;
	/** The item's records from the purchase's answer: by default its results, each with the charge. */
	bought?: (response: ApiEnvelope, note: ChargeNote, extra: IDataObject) => IDataObject[];
	/** The item's records when its request fails in a way that is an answer; it throws any other failure. */
	failed?: (
		context: IExecuteFunctions,
		itemIndex: number,
		extra: IDataObject,
		error: unknown,
	) => IDataObject[];
}): ItemOperation {
	const { kind, read, bought, failed } = options;
	return async function (this: IExecuteFunctions, itemIndex, money, pass) {
		const { request, extra } = read(this, itemIndex);
		const records = async () => {
			const quoted = await quoteItem(this, money, itemIndex, pass, kind, request);
			if ('preview' in quoted) return [{ ...extra, ...quoted.preview }];
			const { response, note } = await money.buy(itemIndex, kind, request, quoted.quote);
			return bought ? bought(response, note, extra) : withCharge(response.results ?? [], note);
		};
		if (!failed) return records();
		try {
			return await records();
		} catch (error) {
			return failed(this, itemIndex, extra, error);
		}
	};
}

/** An item's records read in charged pages, up to its Limit or all of them (Return All). */
export function chargedPagedRead(options: {
	kind: PriceKind;
	pageSize: number;
	/** Reads the item's parameters; its Limit is read after them. */
	read: ReadItem<{ request: ApiRequest; extra?: IDataObject }>;
}): ItemOperation {
	const { kind, pageSize, read } = options;
	return async function (this: IExecuteFunctions, itemIndex, money, pass) {
		const { request, extra } = read(this, itemIndex);
		const limit = readLimit(this, itemIndex);
		return chargedPages(this, money, itemIndex, pass, request, { kind, pageSize, limit }, extra);
	};
}

/** A free read's parameters, in the order the operation reads them around the Limit. */
interface PagedReadParameters {
	/** Read after the Limit: the request (its fields and sort). */
	request: () => ApiRequest;
	/** The list whose count checks a whole unfiltered read (a page of its items carries no total). */
	counted?: { listId: NumberedId; count: 'TotalCount' | 'TotalImportItems'; filtered: boolean };
	/** The records as the operation outputs them. */
	output?: (records: IDataObject[]) => IDataObject[];
}

/** An item's records read free in pages, up to its Limit or all of them (Return All). */
export function pagedRead(options: {
	pageSize: number;
	/** Pages that carry no total and no count to check them by: read until one comes back empty. */
	untilEmpty?: boolean;
	/** Reads the item's parameters that come before its Limit. */
	read: ReadItem<PagedReadParameters>;
}): ItemOperation {
	const { pageSize, untilEmpty, read } = options;
	return async function (this: IExecuteFunctions, itemIndex) {
		const { request, counted, output = (records) => records } = read(this, itemIndex);
		const limit = readLimit(this, itemIndex);
		const expected =
			counted && limit === undefined && !counted.filtered
				? listCount(this, counted.listId, counted.count, itemIndex)
				: undefined;
		const { records } = await collectPages(
			this,
			{ ...request(), itemIndex },
			{ pageSize, limit, expected, untilEmpty },
		);
		return output(records);
	};
}

// An operation's parameters, each shown for it (`show`) unless it says where it shows.
export const shownFor = (show: IDisplayOptions['show'], properties: INodeProperties[]) =>
	properties.map((property) =>
		property.displayOptions ? property : { ...property, displayOptions: { show } },
	);

/** Several IDs, picked from what `loadOptionsMethod` lists or given by an expression. */
export function idsPicker(
	displayName: string,
	name: string,
	loadOptionsMethod: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod },
		default: [],
		description: `${description}. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.`,
	};
}

/** Interest levels 0 to 5: 0 named `zero`, the others by their stars. */
export const starOptions = (zero: string) =>
	[0, 1, 2, 3, 4, 5].map((level) => ({
		name: level === 0 ? zero : `${level} Star${level > 1 ? 's' : ''}`,
		value: level,
	}));

// Sorted here, as n8n's lint wants a collection's options: it reads only literals.
export function filtersProperty(
	show: IDisplayOptions['show'],
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show },
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** The item's reads of its operation's own parameters, each checked against `description`. */
export const ownParameters = (
	context: IExecuteFunctions,
	itemIndex: number,
	description: INodeProperties[],
) => ({
	choice: <T extends string | number = string>(name: string) =>
		readChoice<T>(context, itemIndex, propertyNamed(description, name)),
	collection: (name: string) =>
		readCollection(context, itemIndex, propertyNamed(description, name)),
	sort: () => readSort(context, itemIndex, propertyNamed(description, 'sort')),
});
