import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { RunSpending } from '../money';
import type { SimplifiedKind } from '../shared/vocabulary';

export type ItemOperation = (
	this: IExecuteFunctions,
	itemIndex: number,
	spending: RunSpending,
) => Promise<IDataObject[]>;

/** Every item's records, read for all items together before the item loop (a batched read). */
export interface ItemsReadAhead {
	/** The item's records; throws the item's error. Sends nothing: every request, every purchase, is made. */
	outcome(itemIndex: number): IDataObject[];
}

/** Takes all input items at once, and returns output items already paired to them. */
export type BatchOperation = (
	this: IExecuteFunctions,
	spending: RunSpending,
) => Promise<INodeExecutionData[]>;

export type OperationModule =
	| {
			description: INodeProperties[];
			execute: ItemOperation;
			/**
			 * With more than one input item: reads every item in few requests, before the item loop
			 * (Property > Get). Its purchases are quoted and held whole, as the item loop does.
			 */
			readAhead?: (
				this: IExecuteFunctions,
				spending: RunSpending,
				continueOnFail: boolean,
			) => Promise<ItemsReadAhead>;
			executeBatch?: never;
			/** Whether each output item keeps the input item's PropID, PersonKey and ListID where it has none of its own. */
			keepsInputKeys?: boolean;
			/** The kind of record it outputs, which Simplify and the tool's Output shape (actions/output.ts). */
			outputs?: SimplifiedKind;
	  }
	| {
			description: INodeProperties[];
			executeBatch: BatchOperation;
			execute?: never;
			readAhead?: never;
			keepsInputKeys?: never;
			outputs?: never;
	  };

export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}
