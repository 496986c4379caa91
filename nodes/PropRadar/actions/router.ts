import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorFields, errorItem, readCredentialAhead, toNodeError } from '../transport';

import { assertWholeRunFits, cents, chargeStatement, money, previewRunTotal, purchaseWithoutCredits, RunSpending } from '../money';
import { checkedValue, readFlag } from '../shared/parameters';
import { resources } from './resources';
import type { ItemOperation } from './types';

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

interface ItemLoopOptions {
	/** Whether a failed input item becomes an error item instead of ending the run ("On Error: Continue", or tool use). */
	continueOnFail: boolean;
	/** In tool use: collects the fields of every error item, which are then flat (an agent has no Error output). */
	failures?: IDataObject[];
}

/** The keys a pipeline carries from node to node: each output item of a keyed operation keeps the input's. */
const INPUT_KEYS = ['PropID', 'PersonKey', 'ListID'];

function withInputKeys(fields: IDataObject, input: IDataObject): IDataObject {
	const keys: IDataObject = {};
	for (const key of INPUT_KEYS) if (input[key] !== undefined && fields[key] === undefined) keys[key] = input[key];
	return { ...keys, ...fields };
}

/** Runs `work` for items 0 to count - 1, up to `concurrency` at once; no new item starts once `stopped()`. */
async function forEachItem(count: number, concurrency: number, stopped: () => boolean, work: (itemIndex: number) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (!stopped() && next < count) await work(next++);
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/**
 * Before a purchase run of several items buys anything, every item is quoted (the preview, free)
 * and the run's total at full price checked against Max Cost and the ceiling (docs/money.md,
 * rule 2), so that a run the budget cannot pay for is refused whole instead of stopping part-way.
 * An item whose quote fails ends the run here, before anything is bought, unless failed items
 * go on as error items ("On Error: Continue"): the purchase then meets the same failure.
 */
async function quoteWholeRun(context: IExecuteFunctions, execute: ItemOperation, spending: RunSpending, itemCount: number, continueOnFail: boolean): Promise<void> {
	await assertWholeRunFits(context, spending, itemCount, async () => {
		let needCents = 0;
		let failure: { itemIndex: number; error: unknown } | undefined;
		spending.quoting = true;
		try {
			await forEachItem(itemCount, itemConcurrency(context), () => failure !== undefined, async (itemIndex) => {
				try {
					for (const record of await execute.call(context, itemIndex, spending)) if (record.preview === true) needCents += cents(record.maxCostNeeded);
				} catch (error) {
					if (!continueOnFail && (!failure || itemIndex < failure.itemIndex)) failure = { itemIndex, error };
				}
			});
		} finally {
			spending.quoting = false;
		}
		if (failure) throw toNodeError(context.getNode(), failure.error, failure.itemIndex);
		return needCents;
	});
}

/**
 * The item loop of the PropRadar node: one operation call per input item, up to Items at Once of
 * them at the same time, their records as output items paired to their item and in input order,
 * and `continueOnFail` turning a failed item into an error item. A purchase of several items is
 * quoted whole first (`quoteWholeRun`). A run that has bought records never throws them away:
 * when an item fails after a purchase, no further item is started (items under way finish); with
 * "On Error: Continue" the run ends with what it bought, an error item for the failed item and one
 * for each item not processed; otherwise the run fails, visibly, and its error carries the
 * records bought (Error data), since n8n keeps no output of a failed node.
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
	const items = context.getInputData();
	const keyed = (fields: IDataObject, itemIndex: number) => (module.keepsInputKeys ? withInputKeys(fields, items[itemIndex]?.json ?? {}) : fields);
	const failedItem = (itemIndex: number, fields: IDataObject): INodeExecutionData => {
		if (!failures) return errorItem(node, itemIndex, node.onError === 'continueErrorOutput' ? fields : keyed(fields, itemIndex));
		failures.push(fields);
		return { json: fields, pairedItem: { item: itemIndex } };
	};

	if (module.executeBatch) {
		try {
			return [await module.executeBatch.call(context, spending)];
		} catch (error) {
			const nodeError = toNodeError(node, error);
			if (!continueOnFail) throw nodeError;
			return [items.map((_, itemIndex) => failedItem(itemIndex, errorFields(nodeError)))];
		}
	}

	// Charge Mode holds no expression (n8n strips one: `noDataExpression`), so the first item's is every item's.
	const chargeMode = context.getNodeParameter('chargeMode', 0, '') as string;
	if (chargeMode === 'purchase' && items.length > 1) {
		try {
			await quoteWholeRun(context, module.execute, spending, items.length, continueOnFail);
		} catch (error) {
			// Thrown with "On Error: Continue", n8n would hand the input items on as this node's output.
			const nodeError = toNodeError(node, error);
			if (!continueOnFail) throw nodeError;
			return [items.map((_, itemIndex) => failedItem(itemIndex, errorFields(nodeError)))];
		}
	}
	const concurrency = itemConcurrency(context);
	const outputs: Array<INodeExecutionData[] | undefined> = new Array(items.length);
	const failed = new Map<number, unknown>();
	await forEachItem(items.length, concurrency, () => failed.size > 0, async (itemIndex) => {
		try {
			const records = await module.execute.call(context, itemIndex, spending);
			// One object per record, its pairing shared as n8n's constructExecutionMetaData shares it;
			// n8n's returnJsonArray would also take a record with a `json` field for an output item.
			const pairedItem = { item: itemIndex };
			outputs[itemIndex] = records.map((json) => ({ json: keyed(json, itemIndex), pairedItem }));
		} catch (error) {
			if (continueOnFail) outputs[itemIndex] = [failedItem(itemIndex, errorFields(toNodeError(node, error, itemIndex)))];
			else failed.set(itemIndex, error);
		}
	});
	if (failed.size === 0) {
		const output = outputs.flatMap((output) => output ?? []);
		if (chargeMode === 'preview') previewRunTotal(context, output.map((item) => item.json));
		if (chargeMode === 'purchase') purchaseWithoutCredits(context, spending);
		return [output];
	}

	const failedAt = Math.min(...failed.keys());
	const nodeError = toNodeError(node, failed.get(failedAt), failedAt);
	if (spending.bought === 0) throw nodeError;
	const bought = outputs.flatMap((output) => output ?? []).map((item) => item.json);
	const spent = spending.unconfirmedCents > 0 ? `charged or may have been charged ${money(spending.spentCents)}` : `charged ${money(spending.spentCents)}`;
	const stopped = `The run stopped at the item at index ${failedAt} after buying ${spending.bought} records (${spent}); the items after it were not processed${concurrency > 1 ? ', except those already under way' : ''}. The ${bought.length} output items of the items done, every record bought among them, are in this error's data (Error data, under Details; saved with the execution, in Executions), since n8n keeps no output of a node that fails. To get them as items instead, set this node's On Error setting to "Continue (using error output)".`;
	nodeError.description = `${nodeError.description ?? ''} ${stopped}`.trim();
	nodeError.context.data = bought;
	throw nodeError;
}
