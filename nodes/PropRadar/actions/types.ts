import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { RunSpending } from '../money';

/** An operation for one input item: its records become output items paired to that item. */
export type ItemOperation = (this: IExecuteFunctions, itemIndex: number, spending: RunSpending) => Promise<IDataObject[]>;

/**
 * An operation that takes all input items at once (batched imports). It returns output items
 * already paired to their input items.
 */
export type BatchOperation = (this: IExecuteFunctions, spending: RunSpending) => Promise<INodeExecutionData[]>;

export type OperationModule =
	| {
			description: INodeProperties[];
			execute: ItemOperation;
			executeBatch?: never;
			/** Whether each output item keeps the input item's PropID, PersonKey and ListID where it has none of its own. */
			keepsInputKeys?: boolean;
	  }
	| { description: INodeProperties[]; executeBatch: BatchOperation; execute?: never; keepsInputKeys?: never };

export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}
