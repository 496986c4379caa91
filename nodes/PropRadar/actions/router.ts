import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorFields, errorItem, readCredentialAhead, toNodeError } from '../transport';

import { RunSpending } from '../shared/charges';
import { checkedValue, readFlag } from '../shared/parameters';
import { resources } from './resources';

/** How many input items the item loop works on at once, unless the user says otherwise. */
export const DEFAULT_ITEM_CONCURRENCY = 10;
/** The most requests one run has under way at once. */
const MAX_ITEM_CONCURRENCY = 50;

/** The item loop's options: shown for every operation that works item by item (all but the batched Import Record > Import and List Item > Add). */
export const itemLoopProperties: INodeProperties[] = [
	{
		displayName: 'Items at Once',
		name: 'itemConcurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_ITEM_CONCURRENCY, numberPrecision: 0 },
		displayOptions: { hide: { operation: ['import', 'add'] } },
		default: DEFAULT_ITEM_CONCURRENCY,
		description: 'How many input items the node works on at the same time (each item\'s own requests go one after another). The output keeps the order of the input items. In Purchase mode items are bought one at a time unless "Buy Items at Once" is on.',
	},
	{
		displayName: 'Buy Items at Once',
		name: 'concurrentPurchases',
		type: 'boolean',
		displayOptions: { show: { chargeMode: ['purchase'] }, hide: { operation: ['import'] } },
		default: false,
		description: 'Whether to buy for up to "Items at Once" items at the same time. Max Cost and the credential\'s ceiling hold exactly as one at a time; which items get what is left of the cap is then not the input order. When an item fails without "On Error: Continue", the items already under way finish and keep what they bought, and no further item is started.',
	},
];

/** Items at Once for this run: 1 for purchases unless Buy Items at Once is on; an error naming the field when it is not a whole number from 1 to 50. */
function itemConcurrency(context: IExecuteFunctions): number {
	const concurrency = checkedValue(context, 0, itemLoopProperties[0], context.getNodeParameter('itemConcurrency', 0, DEFAULT_ITEM_CONCURRENCY)) as number;
	// Charge Mode holds no expression (n8n strips one: `noDataExpression`), so the first item's is every item's.
	const purchasing = context.getNodeParameter('chargeMode', 0, 'preview') === 'purchase';
	if (purchasing && !readFlag(context, 0, 'concurrentPurchases', 'Buy Items at Once')) return 1;
	return concurrency;
}

/**
 * The item loop of the PropRadar node: one operation call per input item, up to Items at Once of
 * them at the same time, their records as output items paired to their item and in input order,
 * and `continueOnFail` turning a failed item into an error item. A run that has bought records
 * never throws them away: when an item fails after a purchase, no further item is started (items
 * under way finish), and the run ends with what it bought, an error item for the failed item and
 * one for each item not processed, and a warning.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const operations = Object.hasOwn(resources, resource) ? resources[resource].operations : {};
	const module = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
	if (!module) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of resource "${resource}" is not known`);
	}
	readCredentialAhead(this);
	const spending = new RunSpending(this);
	// n8n hands out a copy of the node on every call.
	const node = this.getNode();

	if (module.executeBatch) {
		try {
			return [await module.executeBatch.call(this, spending)];
		} catch (error) {
			const nodeError = toNodeError(node, error);
			if (!this.continueOnFail()) throw nodeError;
			return [this.getInputData().map((_, itemIndex) => errorItem(node, itemIndex, errorFields(nodeError)))];
		}
	}

	const items = this.getInputData();
	const concurrency = itemConcurrency(this);
	const outputs: Array<INodeExecutionData[] | undefined> = new Array(items.length);
	const failures = new Map<number, unknown>();
	let next = 0;
	const work = async () => {
		while (failures.size === 0 && next < items.length) {
			const itemIndex = next++;
			try {
				const records = await module.execute.call(this, itemIndex, spending);
				// One object per record, its pairing shared as n8n's constructExecutionMetaData shares it;
				// n8n's returnJsonArray would also take a record with a `json` field for an output item.
				const pairedItem = { item: itemIndex };
				outputs[itemIndex] = records.map((json) => ({ json, pairedItem }));
			} catch (error) {
				if (this.continueOnFail()) outputs[itemIndex] = [errorItem(node, itemIndex, errorFields(toNodeError(node, error, itemIndex)))];
				else failures.set(itemIndex, error);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, work));
	if (failures.size === 0) return [outputs.flatMap((output) => output ?? [])];

	const failedAt = Math.min(...failures.keys());
	const nodeError = toNodeError(node, failures.get(failedAt), failedAt);
	if (spending.bought === 0) throw nodeError;
	const stopped = `The run stopped at the item at index ${failedAt} after buying ${spending.bought} records, which are all in the output; the items after it were not processed${concurrency > 1 ? ', except those already under way, whose records are in the output' : ''}.`;
	const output = items.flatMap((_, itemIndex): INodeExecutionData[] => {
		const done = outputs[itemIndex];
		if (done) return done;
		if (failures.has(itemIndex)) {
			const failure = itemIndex === failedAt ? nodeError : toNodeError(node, failures.get(itemIndex), itemIndex);
			return [errorItem(node, itemIndex, { ...errorFields(failure), notice: stopped })];
		}
		return [errorItem(node, itemIndex, { error: 'Not processed: the run stopped at an earlier item', notice: stopped })];
	});
	this.addExecutionHints({ message: `${nodeError.message}. ${stopped}`, type: 'warning', location: 'outputPane' });
	return [output];
}
