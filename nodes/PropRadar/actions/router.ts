import type {
	IDataObject,
	IExecuteFunctions,
	INode,
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
import type { ItemModule, ItemsReadAhead, OperationModule } from './types';

// As many items as a run may have requests under way (MAX_IN_FLIGHT in transport/).
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
			'How many input items the node works on at the same time; the output keeps their order. Purchases go one item at a time unless "Buy Items at Once" is on.',
	},
	{
		displayName: 'Buy Items at Once',
		name: 'concurrentPurchases',
		type: 'boolean',
		displayOptions: { show: { chargeMode: ['purchase'] }, hide: { operation: ['import'] } },
		default: false,
		description:
			'Whether to buy for up to "Items at Once" items at the same time. Max Cost and the ceiling still hold, but which items fit the cap no longer follows the input order.',
	},
];

function itemConcurrency(context: IExecuteFunctions): number {
	const concurrency = checkedValue(
		context,
		0,
		itemLoopProperties[0],
		context.getNodeParameter('itemConcurrency', 0, DEFAULT_ITEM_CONCURRENCY),
	) as number;
	// Charge Mode holds no expression (`noDataExpression`), so the first item's is every item's.
	const purchasing = context.getNodeParameter('chargeMode', 0, 'preview') === 'purchase';
	if (purchasing && !readFlag(context, 0, 'concurrentPurchases', 'Buy Items at Once')) return 1;
	return concurrency;
}

// n8n runs a node as an agent's tool through its tool variant, named `<type>Tool`
// (`convertNodeToAiTool`, n8n's packages/workflow/src/node-helpers.ts, which tells tools apart
// the same way, `isToolType`). test/engine/toolUse.test.ts fails without it.
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

/** What one node run of the item loop works with. */
interface Run extends ItemLoopOptions {
	context: IExecuteFunctions;
	money: RunMoney;
	operation: string;
	// n8n hands out a copy of the node on every call.
	node: INode;
	items: INodeExecutionData[];
	/** Charge Mode holds no expression, so the first item's is every item's. */
	chargeMode: string;
	keepsInputKeys: boolean;
}

function operationOf(context: IExecuteFunctions): { module: OperationModule; operation: string } {
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
	return { module, operation };
}

// The keys a pipeline carries from node to node: an output item of a keyed operation keeps the input's.
const INPUT_KEYS = ['PropID', 'PersonKey', 'ListID'];

function keyed(run: Run, fields: IDataObject, itemIndex: number): IDataObject {
	if (!run.keepsInputKeys) return fields;
	const input = run.items[itemIndex]?.json ?? {};
	const keys: IDataObject = {};
	for (const key of INPUT_KEYS)
		if (input[key] !== undefined && fields[key] === undefined) keys[key] = input[key];
	return { ...keys, ...fields };
}

// On the Error output an item that failed in a purchase run says under `details` what this node
// did with the money for it (`errorItem`); elsewhere a `_charge` marks a record this node bought.
function failedItem(
	run: Run,
	itemIndex: number,
	error: NodeApiError | NodeOperationError,
): INodeExecutionData {
	const fields = errorFields(error);
	if (run.failures) {
		run.failures.push(fields);
		return { json: fields, pairedItem: { item: itemIndex } };
	}
	if (run.chargeMode === 'purchase' && run.node.onError === 'continueErrorOutput')
		fields._charge = run.money.failureCharge(error);
	return errorItem(run.node, itemIndex, keyed(run, fields, itemIndex));
}

// Thrown with "On Error: Continue", n8n would hand the input items on as this node's output.
function failEveryItem(run: Run, error: unknown, itemIndexes: number[]): INodeExecutionData[][] {
	const nodeError = toNodeError(run.node, error);
	if (!run.continueOnFail) throw nodeError;
	// n8n counts such a run a success: the hint is what shows above the output that it did nothing.
	if (!run.failures)
		run.context.addExecutionHints({
			message:
				`${nodeError.message}: none of the ${itemIndexes.length} items was processed` +
				`${run.money.nothingCharged ? ', and nothing was charged' : ''}; each is an error ` +
				`item ${run.node.onError === 'continueErrorOutput' ? 'on the Error output' : 'in the output'}.`,
			type: 'warning',
			location: 'outputPane',
		});
	return [itemIndexes.map((itemIndex) => failedItem(run, itemIndex, nodeError))];
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

/** Skip Records Bought Before: the router reads every item's key and asks money which to leave out. */
async function skipBoughtBefore(run: Run, module: ItemModule): Promise<Skipping | undefined> {
	const { boughtKey } = module;
	const ledger = boughtKey && run.money.boughtBefore(run.operation);
	if (!ledger) return undefined;
	const keys = new Map<number, string>();
	for (let itemIndex = 0; itemIndex < run.items.length; itemIndex++) {
		try {
			keys.set(itemIndex, boughtKey.read(run.context, itemIndex));
		} catch {
			// Not skipped: the item fails in its own run, as without the option.
		}
	}
	return run.money.skipBoughtBefore(ledger, boughtKey.name, keys, run.items.length);
}

// A purchase of several items is quoted whole before anything is bought (docs/money.md, rule 2).
async function quoteWholeRun(
	run: Run,
	module: ItemModule,
	itemIndexes: readonly number[],
): Promise<void> {
	const { context, money } = run;
	await money.checkPurchases(itemIndexes);
	const records: IDataObject[] = [];
	let failure: { itemIndex: number; error: unknown } | undefined;
	await forEachItem(
		itemIndexes,
		itemConcurrency(context),
		() => failure !== undefined,
		async (itemIndex) => {
			try {
				records.push(...(await module.execute.call(context, itemIndex, money, 'quote')));
			} catch (error) {
				if (!run.continueOnFail && (!failure || itemIndex < failure.itemIndex))
					failure = { itemIndex, error };
			}
		},
	);
	if (failure) throw toNodeError(context.getNode(), failure.error, failure.itemIndex);
	await money.assertRunFits(itemIndexes.length, records);
}

/** Before the item loop: a read ahead of every item, or a purchase's whole-run quote. */
async function beforeTheLoop(
	run: Run,
	module: ItemModule,
	itemIndexes: readonly number[],
): Promise<ItemsReadAhead | undefined> {
	if (itemIndexes.length < 2) return undefined;
	if (module.readAhead)
		return module.readAhead.call(run.context, run.money, run.continueOnFail, itemIndexes);
	if (run.chargeMode === 'purchase') await quoteWholeRun(run, module, itemIndexes);
	return undefined;
}

interface LoopResult {
	outputs: Array<INodeExecutionData[] | undefined>;
	failed: Map<number, unknown>;
	/** The items whose purchase is charged and in the output: recorded for Skip Records Bought Before. */
	boughtItems: number[];
}

// A run that has bought records never throws them away (docs/money.md, rule 6): after a failure no
// further item starts. Read ahead, every request is made: each item is only handed its part.
async function itemLoop(
	run: Run,
	module: ItemModule,
	itemIndexes: readonly number[],
	ahead: ItemsReadAhead | undefined,
	concurrency: number,
): Promise<LoopResult> {
	const { context, money } = run;
	const result: LoopResult = {
		outputs: new Array(run.items.length),
		failed: new Map(),
		boughtItems: [],
	};
	const work = async (itemIndex: number) => {
		// Not n8n's returnJsonArray and constructExecutionMetaData, which copy every item (docs/design.md).
		const pairedItem = { item: itemIndex };
		let fields: readonly string[] | undefined;
		const outputOf = (records: IDataObject[]) =>
			records.map((json) => ({
				json: keyed(run, shapedRecord(json, fields), itemIndex),
				pairedItem,
			}));
		try {
			if (module.outputs)
				fields = readOutputFields(context, itemIndex, module.outputs, runsAsTool(context));
			const records = ahead
				? ahead.outcome(itemIndex)
				: await module.execute.call(context, itemIndex, money, 'charge');
			result.outputs[itemIndex] = outputOf(records);
			if (money.boughtIn(records)) result.boughtItems.push(itemIndex);
		} catch (error) {
			const bought = outputOf(money.boughtBeforeFailing(error));
			if (run.continueOnFail) {
				const failed = failedItem(run, itemIndex, toNodeError(run.node, error, itemIndex));
				result.outputs[itemIndex] = [...bought, failed];
			} else {
				result.outputs[itemIndex] = bought;
				result.failed.set(itemIndex, error);
			}
		}
	};
	await forEachItem(
		itemIndexes,
		ahead ? 1 : concurrency,
		() => !ahead && result.failed.size > 0,
		work,
	);
	return result;
}

async function runItems(
	context: IExecuteFunctions,
	money: RunMoney,
	options: ItemLoopOptions,
): Promise<INodeExecutionData[][]> {
	const { module, operation } = operationOf(context);
	readCredentialAhead(context);
	const items = context.getInputData();
	const run: Run = {
		...options,
		context,
		money,
		operation,
		node: context.getNode(),
		items,
		chargeMode: context.getNodeParameter('chargeMode', 0, '') as string,
		keepsInputKeys: module.keepsInputKeys === true,
	};
	const allItems = items.map((_, itemIndex) => itemIndex);
	if (module.executeBatch) {
		try {
			return [await module.executeBatch.call(context, money)];
		} catch (error) {
			return failEveryItem(run, error, allItems);
		}
	}
	// Read first: a value it refuses is refused before anything is sent.
	const concurrency = itemConcurrency(context);
	let skip: Skipping | undefined;
	try {
		skip = await skipBoughtBefore(run, module);
	} catch (error) {
		return failEveryItem(run, error, allItems);
	}
	const itemIndexes = allItems.filter((itemIndex) => !skip?.skipped.has(itemIndex));
	let ahead: ItemsReadAhead | undefined;
	try {
		ahead = await beforeTheLoop(run, module, itemIndexes);
	} catch (error) {
		return failEveryItem(run, error, itemIndexes);
	}
	const { outputs, failed, boughtItems } = await itemLoop(
		run,
		module,
		itemIndexes,
		ahead,
		concurrency,
	);
	if (skip) await money.recordBought(skip, boughtItems);
	const output = outputs.flatMap((items) => items ?? []);
	if (failed.size === 0) {
		const json = output.map((item) => item.json);
		money.finished(run.chargeMode, json, ahead ? 'items' : 'quotes');
		return [output];
	}
	const failedAt = Math.min(...failed.keys());
	const nodeError = toNodeError(run.node, failed.get(failedAt), failedAt);
	const how = { readAhead: ahead !== undefined, concurrent: concurrency > 1 };
	throw money.stoppedRun(nodeError, failedAt, how, () => output.map((item) => item.json));
}
