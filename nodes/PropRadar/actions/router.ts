import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readCredentialAhead, toNodeError } from '../transport';

import { RunMoney, type Skipping } from '../money';
import { shapedRecord } from '../shared/fieldsets';
import { checkedValue, readFlag } from '../shared/parameters';
import { errorFields, errorItem } from './errorItem';
import { readOutputFields } from './output';
import { resources } from './resources';
import type { ItemOperation, ItemsReadAhead } from './types';

// As many items as a run may have requests under way (MAX_IN_FLIGHT): the transport's window, which
// starts at 10 and grows while the service keeps up, decides how many are sent at once.
const MAX_ITEM_CONCURRENCY = 50;
export const DEFAULT_ITEM_CONCURRENCY = MAX_ITEM_CONCURRENCY;

// Hidden for the batched operations, Import Record > Import and List Item > Add.
export const itemLoopProperties: INodeProperties[] = [
	{
		displayName: 'Items at Once',
		name: 'itemConcurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_ITEM_CONCURRENCY, numberPrecision: 0 },
		displayOptions: { hide: { operation: ['import', 'add'] } },
		default: DEFAULT_ITEM_CONCURRENCY,
		description:
			'How many input items the node works on at the same time (each item\'s own requests go one after another). The node starts with 10 requests under way and sends more while PropRadar keeps up, fewer when it answers 429 or slows down. The output keeps the order of the input items. In Purchase mode items are bought one at a time unless "Buy Items at Once" is on.',
	},
	{
		displayName: 'Buy Items at Once',
		name: 'concurrentPurchases',
		type: 'boolean',
		displayOptions: { show: { chargeMode: ['purchase'] }, hide: { operation: ['import'] } },
		default: false,
		description:
			'Whether to buy for up to "Items at Once" items at the same time. Max Cost and the credential\'s ceiling hold exactly as one at a time; which items get what is left of the cap is then not the input order. When an item fails without "On Error: Continue", the items already under way finish and keep what they bought, and no further item is started.',
	},
];

function itemConcurrency(context: IExecuteFunctions): number {
	const concurrency = checkedValue(
		context,
		0,
		itemLoopProperties[0],
		context.getNodeParameter('itemConcurrency', 0, DEFAULT_ITEM_CONCURRENCY),
	) as number;
	// Charge Mode holds no expression (n8n strips one: `noDataExpression`), so the first item's is every item's.
	const purchasing = context.getNodeParameter('chargeMode', 0, 'preview') === 'purchase';
	if (purchasing && !readFlag(context, 0, 'concurrentPurchases', 'Buy Items at Once')) return 1;
	return concurrency;
}

// As an agent's tool, n8n runs the node's tool variant, whose type name ends in "Tool".
export function runsAsTool(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

// As a tool the node never throws: an agent gets a thrown error's message at best, so every failure
// is returned as a result saying what was charged (docs/money.md, "As an AI agent's tool").
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const money = new RunMoney(this);
	if (!runsAsTool(this)) return runItems(this, money, { continueOnFail: this.continueOnFail() });
	const failures: IDataObject[] = [];
	let output: INodeExecutionData[];
	try {
		[output] = await runItems(this, money, { continueOnFail: true, failures });
	} catch (error) {
		const json = errorFields(toNodeError(this.getNode(), error));
		failures.push(json);
		output = [{ json }];
	}
	// Said once the run is over: what it spent is known only then.
	const charged = money.statement();
	for (const json of failures) json.charged = charged;
	return [output];
}

interface ItemLoopOptions {
	continueOnFail: boolean;
	/** Tool use: the error items' fields, left flat (an agent has no Error output). */
	failures?: IDataObject[];
}

// The keys a pipeline carries from node to node: an output item of a keyed operation keeps the input's.
const INPUT_KEYS = ['PropID', 'PersonKey', 'ListID'];

function withInputKeys(fields: IDataObject, input: IDataObject): IDataObject {
	const keys: IDataObject = {};
	for (const key of INPUT_KEYS)
		if (input[key] !== undefined && fields[key] === undefined) keys[key] = input[key];
	return { ...keys, ...fields };
}

async function forEachItem(
	itemIndexes: readonly number[],
	concurrency: number,
	stopped: () => boolean,
	work: (itemIndex: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (!stopped() && next < itemIndexes.length) await work(itemIndexes[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, itemIndexes.length) }, worker));
}

// A purchase of several items is quoted whole before anything is bought (docs/money.md, rule 2).
async function quoteWholeRun(
	context: IExecuteFunctions,
	execute: ItemOperation,
	money: RunMoney,
	itemIndexes: readonly number[],
	continueOnFail: boolean,
): Promise<void> {
	await money.assertWholeRunFits(itemIndexes, async () => {
		const records: IDataObject[] = [];
		let failure: { itemIndex: number; error: unknown } | undefined;
		await forEachItem(
			itemIndexes,
			itemConcurrency(context),
			() => failure !== undefined,
			async (itemIndex) => {
				try {
					records.push(...(await execute.call(context, itemIndex, money.spending, 'quote')));
				} catch (error) {
					if (!continueOnFail && (!failure || itemIndex < failure.itemIndex))
						failure = { itemIndex, error };
				}
			},
		);
		if (failure) throw toNodeError(context.getNode(), failure.error, failure.itemIndex);
		return records;
	});
}

// A run that has bought records never throws them away (docs/money.md, rule 6): after a failure no
// further item starts, and a failing run's error carries them, since n8n keeps no output of a failed node.
async function runItems(
	context: IExecuteFunctions,
	money: RunMoney,
	{ continueOnFail, failures }: ItemLoopOptions,
): Promise<INodeExecutionData[][]> {
	const resource = context.getNodeParameter('resource', 0) as string;
	const operation = context.getNodeParameter('operation', 0) as string;
	const operations = Object.hasOwn(resources, resource) ? resources[resource].operations : {};
	const module = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
	if (!module) {
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operation}" of resource "${resource}" is not known`,
		);
	}
	readCredentialAhead(context);
	// n8n hands out a copy of the node on every call.
	const node = context.getNode();
	const items = context.getInputData();
	const keyed = (fields: IDataObject, itemIndex: number) =>
		module.keepsInputKeys ? withInputKeys(fields, items[itemIndex]?.json ?? {}) : fields;
	// Charge Mode holds no expression (n8n strips one: `noDataExpression`), so the first item's is every item's.
	const chargeMode = context.getNodeParameter('chargeMode', 0, '') as string;
	// On the Error output an item that failed in a purchase run says under `details` what this node
	// did with the money for it, and carries no other node's `_charge` (`errorItem`). Elsewhere a
	// `_charge` beside the item's fields stays the mark of a record this node bought.
	const failedItem = (
		itemIndex: number,
		error: NodeApiError | NodeOperationError,
	): INodeExecutionData => {
		const fields = errorFields(error);
		if (failures) {
			failures.push(fields);
			return { json: fields, pairedItem: { item: itemIndex } };
		}
		if (chargeMode === 'purchase' && node.onError === 'continueErrorOutput')
			fields._charge = money.failureCharge(error);
		return errorItem(node, itemIndex, keyed(fields, itemIndex));
	};

	// Thrown with "On Error: Continue", n8n would hand the input items on as this node's output.
	const allItems = items.map((_, itemIndex) => itemIndex);
	const failEveryItem = (error: unknown, itemIndexes = allItems): INodeExecutionData[][] => {
		const nodeError = toNodeError(node, error);
		if (!continueOnFail) throw nodeError;
		// n8n counts such a run a success: the hint is what shows above the output that it did nothing.
		if (!failures)
			context.addExecutionHints({
				message:
					`${nodeError.message}: none of the ${itemIndexes.length} items was processed` +
					`${money.nothingCharged ? ', and nothing was charged' : ''}; each is an error ` +
					`item ${node.onError === 'continueErrorOutput' ? 'on the Error output' : 'in the output'}.`,
				type: 'warning',
				location: 'outputPane',
			});
		return [itemIndexes.map((itemIndex) => failedItem(itemIndex, nodeError))];
	};

	if (module.executeBatch) {
		try {
			return [await module.executeBatch.call(context, money.spending)];
		} catch (error) {
			return failEveryItem(error);
		}
	}

	// Read first: a value it refuses is refused before anything is sent.
	const concurrency = itemConcurrency(context);
	const { boughtKey } = module;
	let skip: Skipping | undefined;
	try {
		skip =
			boughtKey &&
			(await money.skipBoughtBefore(
				{ name: boughtKey.name, read: (itemIndex) => boughtKey.read(context, itemIndex) },
				operation,
				items.length,
			));
	} catch (error) {
		return failEveryItem(error);
	}
	const itemIndexes = allItems.filter((itemIndex) => !skip?.skipped.has(itemIndex));
	let ahead: ItemsReadAhead | undefined;
	if (module.readAhead && itemIndexes.length > 1) {
		try {
			ahead = await module.readAhead.call(context, money.spending, continueOnFail, itemIndexes);
		} catch (error) {
			return failEveryItem(error, itemIndexes);
		}
	} else if (chargeMode === 'purchase' && itemIndexes.length > 1) {
		try {
			await quoteWholeRun(context, module.execute, money, itemIndexes, continueOnFail);
		} catch (error) {
			return failEveryItem(error, itemIndexes);
		}
	}
	const outputs: Array<INodeExecutionData[] | undefined> = new Array(items.length);
	const failed = new Map<number, unknown>();
	// The items whose purchase is charged and whose records are in the output: recorded for Skip Records Bought Before.
	const boughtItems: number[] = [];
	// Read ahead, every request is made: each item is only handed its part, and a failed item stops none.
	await forEachItem(
		itemIndexes,
		ahead ? 1 : concurrency,
		() => !ahead && failed.size > 0,
		async (itemIndex) => {
			// Not n8n's returnJsonArray and constructExecutionMetaData, which copy every item (docs/design.md).
			const pairedItem = { item: itemIndex };
			let fields: readonly string[] | undefined;
			const outputOf = (records: IDataObject[]) =>
				records.map((json) => ({ json: keyed(shapedRecord(json, fields), itemIndex), pairedItem }));
			try {
				if (module.outputs)
					fields = readOutputFields(context, itemIndex, module.outputs, runsAsTool(context));
				const records = ahead
					? ahead.outcome(itemIndex)
					: await module.execute.call(context, itemIndex, money.spending, 'charge');
				outputs[itemIndex] = outputOf(records);
				if (money.boughtIn(records)) boughtItems.push(itemIndex);
			} catch (error) {
				const bought = outputOf(money.boughtBeforeFailing(error));
				if (continueOnFail)
					outputs[itemIndex] = [
						...bought,
						failedItem(itemIndex, toNodeError(node, error, itemIndex)),
					];
				else {
					outputs[itemIndex] = bought;
					failed.set(itemIndex, error);
				}
			}
		},
	);
	if (skip) await money.recordBought(skip, boughtItems);
	const output = outputs.flatMap((output) => output ?? []);
	if (failed.size === 0) {
		money.finished(
			chargeMode,
			output.map((item) => item.json),
			ahead ? 'items' : 'quotes',
		);
		return [output];
	}

	const failedAt = Math.min(...failed.keys());
	const nodeError = toNodeError(node, failed.get(failedAt), failedAt);
	throw money.stoppedRun(
		nodeError,
		failedAt,
		{ readAhead: ahead !== undefined, concurrent: concurrency > 1 },
		() => output.map((item) => item.json),
	);
}
