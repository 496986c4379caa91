import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readCredentialAhead, toNodeError } from '../transport';
import { RunMoney, warn, type Skipping } from '../money';
import {
	errorFields,
	failedItem,
	forEachItem,
	itemConcurrency,
	itemLoop,
	runsAsTool,
	type Run,
} from './itemLoop';
import { resources } from './resources';
import type { ItemModule, ItemsReadAhead, OperationModule } from './shapes';

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

// Thrown with "On Error: Continue", n8n would hand the input items on as this node's output.
function failEveryItem(run: Run, error: unknown, itemIndexes: number[]): INodeExecutionData[][] {
	const nodeError = toNodeError(run.node, error);
	if (!run.continueOnFail) throw nodeError;
	// n8n counts such a run a success: the hint is what shows above the output that it did nothing.
	if (!run.failures)
		warn(
			run.context,
			`${nodeError.message}: none of the ${itemIndexes.length} items was processed${run.money.nothingCharged ? ', and nothing was charged' : ''}; each is an error item ${run.node.onError === 'continueErrorOutput' ? 'on the Error output' : 'in the output'}.`,
		);
	return [itemIndexes.map((itemIndex) => failedItem(run, itemIndex, nodeError))];
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
async function quoteWholeRun(run: Run, module: ItemModule, itemIndexes: readonly number[]) {
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

async function runItems(
	context: IExecuteFunctions,
	money: RunMoney,
	options: Pick<Run, 'continueOnFail' | 'failures'>,
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
	// Before the item loop: a read ahead of every item, or a purchase's whole-run quote.
	const several = itemIndexes.length > 1;
	let ahead: ItemsReadAhead | undefined;
	try {
		if (several && module.readAhead)
			ahead = await module.readAhead.call(context, money, run.continueOnFail, itemIndexes);
		else if (several && run.chargeMode === 'purchase')
			await quoteWholeRun(run, module, itemIndexes);
	} catch (error) {
		return failEveryItem(run, error, itemIndexes);
	}
	const loop = await itemLoop(run, module, itemIndexes, ahead, concurrency);
	if (skip) await money.recordBought(skip, loop.boughtItems);
	const output = loop.outputs.flatMap((items) => items ?? []);
	if (loop.failed.size === 0) {
		const json = output.map((item) => item.json);
		money.finished(run.chargeMode, json, ahead ? 'items' : 'quotes');
		return [output];
	}
	const failedAt = Math.min(...loop.failed.keys());
	const nodeError = toNodeError(run.node, loop.failed.get(failedAt), failedAt);
	const how = { readAhead: ahead !== undefined, concurrent: concurrency > 1 };
	throw money.stoppedRun(nodeError, failedAt, how, () => output.map((item) => item.json));
}
