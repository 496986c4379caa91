import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, type NodeApiError } from 'n8n-workflow';

import { toNodeError } from '../transport';

import { createSpendBudget, type SpendBudget } from '../shared/charges';
import { resources } from './resources';
import type { RunState } from './types';

function runState(context: IExecuteFunctions): RunState {
	let budget: Promise<SpendBudget> | undefined;
	return { budget: () => (budget ??= createSpendBudget(context)) };
}

function errorItem(error: Error, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	const description = (error as NodeApiError).description;
	if (description) json.description = description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) json.httpCode = httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * THE item loop of the PropRadar node: one operation call per input item, its records as output
 * items paired to that item, and `continueOnFail` turning a failed item into an error item.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = resources[resource]?.operations[operation];
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of resource "${resource}" is not known`);
	}
	const run = runState(this);

	if (module.executeBatch) {
		try {
			return [await module.executeBatch.call(this, run)];
		} catch (error) {
			if (!this.continueOnFail()) throw toNodeError(this.getNode(), error);
			return [this.getInputData().map((_, itemIndex) => errorItem(error as Error, itemIndex))];
		}
	}

	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const records = await module.execute.call(this, itemIndex, run);
			output.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(records), {
					itemData: { item: itemIndex },
				}),
			);
		} catch (error) {
			if (this.continueOnFail()) {
				output.push(errorItem(error as Error, itemIndex));
				continue;
			}
			throw toNodeError(this.getNode(), error, itemIndex);
		}
	}
	return [output];
}
