import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, type NodeApiError } from 'n8n-workflow';

import { toNodeError } from '../transport';

import { RunSpending } from '../shared/charges';
import { resources } from './resources';

function errorItem(error: Error, itemIndex: number, note?: string): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	const description = (error as NodeApiError).description;
	if (description) json.description = description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) json.httpCode = httpCode;
	if (note) json.notice = note;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * The item loop of the PropRadar node: one operation call per input item, its records as output
 * items paired to that item, and `continueOnFail` turning a failed item into an error item. A run
 * that has bought records never throws them away: when an item fails after a purchase, the run
 * stops there (as n8n stops at a failed node) but ends with what it bought, an error item for the
 * failed item and one for each item not processed, and a warning.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = resources[resource]?.operations[operation];
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of resource "${resource}" is not known`);
	}
	const spending = new RunSpending(this);

	if (module.executeBatch) {
		try {
			return [await module.executeBatch.call(this, spending)];
		} catch (error) {
			if (!this.continueOnFail()) throw toNodeError(this.getNode(), error);
			return [this.getInputData().map((_, itemIndex) => errorItem(error as Error, itemIndex))];
		}
	}

	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const records = await module.execute.call(this, itemIndex, spending);
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
			const nodeError = toNodeError(this.getNode(), error, itemIndex);
			if (spending.bought === 0) throw nodeError;
			const stopped = `The run stopped at the item at index ${itemIndex} after buying ${spending.bought} records, which are all in the output; the items after it were not processed.`;
			output.push(errorItem(nodeError, itemIndex, stopped));
			for (let later = itemIndex + 1; later < items.length; later++) {
				output.push({ json: { error: 'Not processed: the run stopped at an earlier item', notice: stopped }, pairedItem: { item: later } });
			}
			this.addExecutionHints({ message: `${nodeError.message}. ${stopped}`, type: 'warning', location: 'outputPane' });
			break;
		}
	}
	return [output];
}
