import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { RunSpending } from '../money';
import type { SimplifiedKind } from '../shared/vocabulary';

export interface BoughtKey {
	name: 'PropID' | 'PersonKey';
	/** The item's key as the operation reads it; a bad one throws, and the item fails as without the option. */
	read: (context: IExecuteFunctions, itemIndex: number) => string;
}

export type ItemOperation = (
	this: IExecuteFunctions,
	itemIndex: number,
	spending: RunSpending,
) => Promise<IDataObject[]>;

/** Takes all input items at once, and returns output items already paired to them. */
export type BatchOperation = (
	this: IExecuteFunctions,
	spending: RunSpending,
) => Promise<INodeExecutionData[]>;

export type OperationModule =
	| {
			description: INodeProperties[];
			execute: ItemOperation;
			executeBatch?: never;
			/** Whether each output item keeps the input item's PropID, PersonKey and ListID where it has none of its own. */
			keepsInputKeys?: boolean;
			/** The kind of record it outputs, which Simplify and the tool's Output shape (actions/output.ts). */
			outputs?: SimplifiedKind;
			/** The key a purchase of the item is recorded under for Skip Records Bought Before (money/boughtBefore.ts). */
			boughtKey?: BoughtKey;
	  }
	| {
			description: INodeProperties[];
			executeBatch: BatchOperation;
			execute?: never;
			keepsInputKeys?: never;
			outputs?: never;
			boughtKey?: never;
	  };

export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}
