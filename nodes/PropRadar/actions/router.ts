import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorFields, errorItem, readCredentialAhead, toNodeError } from '../transport';

import {
	assertWholeRunFits,
	carryOutput,
	cents,
	chargeStatement,
	previewRunTotal,
	purchaseWithoutCredits,
	RunSpending,
	spentSoFar,
	StoppedAfterBuying,
} from '../money';
import { shapedRecord } from '../shared/fieldsets';
import { checkedValue, readFlag } from '../shared/parameters';
import { readOutputFields } from './output';
import { resources } from './resources';
import type { ItemOperation } from './types';

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
	count: number,
	concurrency: number,
	stopped: () => boolean,
	work: (itemIndex: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (!stopped() && next < count) await work(next++);
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

// A purchase of several items is quoted whole before anything is bought (docs/money.md, rule 2).
async function quoteWholeRun(
	context: IExecuteFunctions,
	execute: ItemOperation,
	spending: RunSpending,
	itemCount: number,
	continueOnFail: boolean,
): Promise<void> {
	await assertWholeRunFits(context, spending, itemCount, async () => {
		let needCents = 0;
		let failure: { itemIndex: number; error: unknown } | undefined;
		spending.quoting = true;
		try {
			await forEachItem(
				itemCount,
				itemConcurrency(context),
				() => failure !== undefined,
				async (itemIndex) => {
					try {
						for (const record of await execute.call(context, itemIndex, spending))
							if (record.preview === true) needCents += cents(record.maxCostNeeded);
					} catch (error) {
						if (!continueOnFail && (!failure || itemIndex < failure.itemIndex))
							failure = { itemIndex, error };
					}
				},
			);
		} finally {
			spending.quoting = false;
		}
		if (failure) throw toNodeError(context.getNode(), failure.error, failure.itemIndex);
		return needCents;
	});
}

// A run that has bought records never throws them away (docs/money.md, rule 6): after a failure no
// further item starts, and a failing run's error carries them, since n8n keeps no output of a failed node.
async function runItems(
	context: IExecuteFunctions,
	spending: RunSpending,
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
	const failedItem = (itemIndex: number, fields: IDataObject): INodeExecutionData => {
		if (!failures)
			return errorItem(
				node,
				itemIndex,
				node.onError === 'continueErrorOutput' ? fields : keyed(fields, itemIndex),
			);
		failures.push(fields);
		return { json: fields, pairedItem: { item: itemIndex } };
	};

	// Thrown with "On Error: Continue", n8n would hand the input items on as this node's output.
	const failEveryItem = (error: unknown): INodeExecutionData[][] => {
		const nodeError = toNodeError(node, error);
		if (!continueOnFail) throw nodeError;
		// n8n counts such a run a success: the hint is what shows above the output that it did nothing.
		if (!failures)
			context.addExecutionHints({
				message:
					`${nodeError.message}: none of the ${items.length} items was processed` +
					`${spending.spentCents === 0 ? ', and nothing was charged' : ''}; each is an error ` +
					`item ${node.onError === 'continueErrorOutput' ? 'on the Error output' : 'in the output'}.`,
				type: 'warning',
				location: 'outputPane',
			});
		return [items.map((_, itemIndex) => failedItem(itemIndex, errorFields(nodeError)))];
	};

	if (module.executeBatch) {
		try {
			return [await module.executeBatch.call(context, spending)];
		} catch (error) {
			return failEveryItem(error);
		}
	}

	// As in itemConcurrency: the first item's Charge Mode is every item's.
	const chargeMode = context.getNodeParameter('chargeMode', 0, '') as string;
	if (chargeMode === 'purchase' && items.length > 1) {
		try {
			await quoteWholeRun(context, module.execute, spending, items.length, continueOnFail);
		} catch (error) {
			return failEveryItem(error);
		}
	}
	const concurrency = itemConcurrency(context);
	const outputs: Array<INodeExecutionData[] | undefined> = new Array(items.length);
	const failed = new Map<number, unknown>();
	await forEachItem(
		items.length,
		concurrency,
		() => failed.size > 0,
		async (itemIndex) => {
			// Not n8n's returnJsonArray and constructExecutionMetaData, which copy every item (docs/design.md).
			const pairedItem = { item: itemIndex };
			let fields: readonly string[] | undefined;
			const outputOf = (records: IDataObject[]) =>
				records.map((json) => ({ json: keyed(shapedRecord(json, fields), itemIndex), pairedItem }));
			try {
				if (module.outputs)
					fields = readOutputFields(context, itemIndex, module.outputs, runsAsTool(context));
				outputs[itemIndex] = outputOf(await module.execute.call(context, itemIndex, spending));
			} catch (error) {
				const bought = outputOf(error instanceof StoppedAfterBuying ? error.bought : []);
				if (continueOnFail)
					outputs[itemIndex] = [
						...bought,
						failedItem(itemIndex, errorFields(toNodeError(node, error, itemIndex))),
					];
				else {
					outputs[itemIndex] = bought;
					failed.set(itemIndex, error);
				}
			}
		},
	);
	if (failed.size === 0) {
		const output = outputs.flatMap((output) => output ?? []);
		if (chargeMode === 'preview')
			previewRunTotal(
				context,
				output.map((item) => item.json),
			);
		if (chargeMode === 'purchase') purchaseWithoutCredits(context, spending);
		return [output];
	}

	const failedAt = Math.min(...failed.keys());
	const nodeError = toNodeError(node, failed.get(failedAt), failedAt);
	if (spending.bought === 0) throw nodeError;
	const bought = outputs.flatMap((output) => output ?? []).map((item) => item.json);
	const stopped =
		`The run stopped at the item at index ${failedAt} after buying ${spending.bought} ` +
		`records (${spentSoFar(spending)}); the items after it were not ` +
		`processed${concurrency > 1 ? ', except those already under way' : ''}.`;
	throw carryOutput(nodeError, stopped, bought);
}
