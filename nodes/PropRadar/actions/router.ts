import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorFields, errorItem, formatCents, readCredentialAhead, toNodeError } from '../transport';

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

/** Whether n8n runs the node as an AI agent's tool: it then runs the node's tool variant, whose type name ends in "Tool". */
export function runsAsTool(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * The PropRadar node's run. Outside tool use: the item loop (`runItems`), errors thrown as n8n
 * expects them. As a tool: an agent reads what the node returns, but of a thrown error only its
 * message (AI Agent v3: n8n-core's WorkflowExecute puts `{ error: message }` in the tool's result)
 * or nothing (AI Agent v2: the executor's observation is empty). So every failure, a parameter
 * refused before the item loop included, is returned as a result with `error`, `description`
 * and `charged`, what happened to the money in this call.
 */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const spending = new RunSpending(this);
	if (!runsAsTool(this)) return runItems(this, spending, { continueOnFail: this.continueOnFail() });
	const failures: IDataObject[] = [];
	let output: INodeExecutionData[];
	try {
		[output] = await runItems(this, spending, { continueOnFail: true, failures });
	} catch (error) {
		const json = errorFields(toNodeError(this.getNode(), error));
		failures.push(json);
		output = [{ json }];
	}
	// Said once the run is over: what it spent is known only then.
	const charged = chargeStatement(spending);
	for (const json of failures) json.charged = charged;
	return [output];
}

const money = (cents: number) => `$${formatCents(cents)}`;

/** What happened to the money in a tool call, for the model: only what the run's budget knows. */
function chargeStatement(spending: RunSpending): string {
	const { spentCents: spent, unconfirmedCents: unknown, bought } = spending;
	const records = `the ${bought} record${bought === 1 ? '' : 's'} it bought, which ${bought === 1 ? 'is' : 'are'} in this result`;
	if (unknown > 0) {
		const confirmed = spent - unknown;
		return `This call may have been charged up to ${money(spent)}: ${bought > 0 ? `${money(confirmed)} for ${records}, and ` : ''}up to ${money(unknown)} for a purchase whose answer was lost or failed, which may or may not have been charged. Check the account's charges in PropRadar before buying that again.`;
	}
	if (spent > 0) return `This call was charged ${money(spent)} for ${records} (each record's _charge says what its purchase cost).`;
	if (bought > 0) return `Nothing was charged in this call: free export credits paid for ${records}.`;
	return 'Nothing was charged in this call.';
}

interface ItemLoopOptions {
	/** Whether a failed input item becomes an error item instead of ending the run ("On Error: Continue", or tool use). */
	continueOnFail: boolean;
	/** In tool use: collects the fields of every error item, which are then flat (an agent has no Error output). */
	failures?: IDataObject[];
}

/**
 * The item loop of the PropRadar node: one operation call per input item, up to Items at Once of
 * them at the same time, their records as output items paired to their item and in input order,
 * and `continueOnFail` turning a failed item into an error item. A run that has bought records
 * never throws them away: when an item fails after a purchase, no further item is started (items
 * under way finish), and the run ends with what it bought, an error item for the failed item and
 * one for each item not processed, and a warning.
 */
async function runItems(context: IExecuteFunctions, spending: RunSpending, { continueOnFail, failures }: ItemLoopOptions): Promise<INodeExecutionData[][]> {
	const resource = context.getNodeParameter('resource', 0) as string;
	const operation = context.getNodeParameter('operation', 0) as string;
	const operations = Object.hasOwn(resources, resource) ? resources[resource].operations : {};
	const module = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
	if (!module) {
		throw new NodeOperationError(context.getNode(), `The operation "${operation}" of resource "${resource}" is not known`);
	}
	readCredentialAhead(context);
	// n8n hands out a copy of the node on every call.
	const node = context.getNode();
	const failedItem = (itemIndex: number, fields: IDataObject): INodeExecutionData => {
		if (!failures) return errorItem(node, itemIndex, fields);
		failures.push(fields);
		return { json: fields, pairedItem: { item: itemIndex } };
	};

	if (module.executeBatch) {
		try {
			return [await module.executeBatch.call(context, spending)];
		} catch (error) {
			const nodeError = toNodeError(node, error);
			if (!continueOnFail) throw nodeError;
			return [context.getInputData().map((_, itemIndex) => failedItem(itemIndex, errorFields(nodeError)))];
		}
	}

	const items = context.getInputData();
	const concurrency = itemConcurrency(context);
	const outputs: Array<INodeExecutionData[] | undefined> = new Array(items.length);
	const failed = new Map<number, unknown>();
	let next = 0;
	const work = async () => {
		while (failed.size === 0 && next < items.length) {
			const itemIndex = next++;
			try {
				const records = await module.execute.call(context, itemIndex, spending);
				// One object per record, its pairing shared as n8n's constructExecutionMetaData shares it;
				// n8n's returnJsonArray would also take a record with a `json` field for an output item.
				const pairedItem = { item: itemIndex };
				outputs[itemIndex] = records.map((json) => ({ json, pairedItem }));
			} catch (error) {
				if (continueOnFail) outputs[itemIndex] = [failedItem(itemIndex, errorFields(toNodeError(node, error, itemIndex)))];
				else failed.set(itemIndex, error);
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, work));
	if (failed.size === 0) return [outputs.flatMap((output) => output ?? [])];

	const failedAt = Math.min(...failed.keys());
	const nodeError = toNodeError(node, failed.get(failedAt), failedAt);
	if (spending.bought === 0) throw nodeError;
	const stopped = `The run stopped at the item at index ${failedAt} after buying ${spending.bought} records, which are all in the output; the items after it were not processed${concurrency > 1 ? ', except those already under way, whose records are in the output' : ''}.`;
	const output = items.flatMap((_, itemIndex): INodeExecutionData[] => {
		const done = outputs[itemIndex];
		if (done) return done;
		if (failed.has(itemIndex)) {
			const failure = itemIndex === failedAt ? nodeError : toNodeError(node, failed.get(itemIndex), itemIndex);
			return [errorItem(node, itemIndex, { ...errorFields(failure), notice: stopped })];
		}
		return [errorItem(node, itemIndex, { error: 'Not processed: the run stopped at an earlier item', notice: stopped })];
	});
	context.addExecutionHints({ message: `${nodeError.message}. ${stopped}`, type: 'warning', location: 'outputPane' });
	return [output];
}
