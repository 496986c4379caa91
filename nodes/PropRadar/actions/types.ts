import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ChargePass, RunMoney } from '../money';
import type { SimplifiedKind } from '../shared/vocabulary';

export interface BoughtKey {
	name: 'PropID' | 'PersonKey';
	/** The item's key; a bad one throws, and the item fails as without the option. */
	read: (context: IExecuteFunctions, itemIndex: number) => string;
}

export type ItemOperation = (
	this: IExecuteFunctions,
	itemIndex: number,
	money: RunMoney,
	/** The whole run's quote, or the item loop (money/properties.ts). */
	pass: ChargePass,
) => Promise<IDataObject[]>;

/** Every item's records, read for all items together before the item loop (a batched read). */
export interface ItemsReadAhead {
	/** The item's records; throws the item's error. Sends nothing: every request, every purchase, is made. */
	outcome(itemIndex: number): IDataObject[];
}

/** Takes all input items at once, and returns output items already paired to them. */
export type BatchOperation = (
	this: IExecuteFunctions,
	money: RunMoney,
) => Promise<INodeExecutionData[]>;

/** An operation the router calls item by item. */
export interface ItemModule {
	description: INodeProperties[];
	execute: ItemOperation;
	/**
	 * With more than one input item: reads every item in few requests, before the item loop
	 * (Property > Get). Its purchases are quoted and held whole, as the item loop does.
	 */
	readAhead?: (
		this: IExecuteFunctions,
		money: RunMoney,
		continueOnFail: boolean,
		/** Every input item but those Skip Records Bought Before leaves out. */
		itemIndexes: readonly number[],
	) => Promise<ItemsReadAhead>;
	executeBatch?: never;
	/** Whether each output item keeps the input item's PropID, PersonKey and ListID where it has none of its own. */
	keepsInputKeys?: boolean;
	/** The kind of record it outputs, which Simplify and the tool's Output shape (readOutputFields, actions/itemLoop.ts). */
	outputs?: SimplifiedKind;
	/** The key a purchase of the item is recorded under for Skip Records Bought Before. */
	boughtKey?: BoughtKey;
}

/** An operation that takes all input items at once. */
export interface BatchModule {
	description: INodeProperties[];
	executeBatch: BatchOperation;
	execute?: never;
	readAhead?: never;
	keepsInputKeys?: never;
	outputs?: never;
	boughtKey?: never;
}

export type OperationModule = ItemModule | BatchModule;

export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}
