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
	  }
	| {
			description: INodeProperties[];
			executeBatch: BatchOperation;
			execute?: never;
			keepsInputKeys?: never;
			outputs?: never;
	  };

export interface ResourceModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}
