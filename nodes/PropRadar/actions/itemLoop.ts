import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { toNodeError } from '../transport';
import { boughtIn, type RunMoney } from '../money';
import {
	outputFields,
	outputProperties,
	shapedRecord,
	type OutputChoice,
} from '../shared/fieldsets';
import { checkedValue, parameter, readChoice, readFlag } from '../shared/parameters';
import type { SimplifiedKind } from '../shared/vocabulary';
import type { ItemModule, ItemsReadAhead } from './shapes';

/** A failed item's fields: the error's message, description and HTTP code. */
export function errorFields(error: NodeApiError | NodeOperationError): IDataObject {
	const fields: IDataObject = { error: error.message };
	if (error.description) fields.description = error.description;
	const httpCode = (error as NodeApiError).httpCode;
	if (httpCode) fields.httpCode = httpCode;
	return fields;
}

// On the Error output n8n (`handleNodeErrorOutput`, packages/core/src/execution-engine/workflow-execute.ts)
// merges in the input item's json when the pairing is an object, which would bring another node's
// `_charge`: an item paired by index alone is moved as it is. test/engine/errorOutput.test.ts.
export function errorItem(node: INode, itemIndex: number, fields: IDataObject): INodeExecutionData {
	if (node.onError !== 'continueErrorOutput')
		return { json: fields, pairedItem: { item: itemIndex } };
	const { error, ...details } = fields;
	return {
		json: Object.keys(details).length > 0 ? { error, details } : { error },
		pairedItem: itemIndex,
	};
}

// As many items as a run may have requests under way (MAX_IN_FLIGHT in transport/), the default too.
const MAX_ITEM_CONCURRENCY = 50;

// Hidden for the batched operations, Import Record > Import and List Item > Add.
export const itemLoopProperties: INodeProperties[] = [
	{
		displayName: 'Items at Once',
		name: 'itemConcurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_ITEM_CONCURRENCY, numberPrecision: 0 },
		displayOptions: { hide: { operation: ['import', 'add'] } },
		default: MAX_ITEM_CONCURRENCY,
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

export function itemConcurrency(context: IExecuteFunctions): number {
	const concurrency = readChoice<number>(context, 0, itemLoopProperties[0]);
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

/** What one node run of the item loop works with. */
export interface Run {
	continueOnFail: boolean;
	/** Tool use: the error items' fields, left flat (an agent has no Error output). */
	failures?: IDataObject[];
	context: IExecuteFunctions;
	money: RunMoney;
	operation: string;
	// n8n hands out a copy of the node on every call.
	node: INode;
	items: INodeExecutionData[];
	chargeMode: string;
	keepsInputKeys: boolean;
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
export function failedItem(
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

export async function forEachItem(
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

// The fields each record keeps (undefined: all), Simplify or the tool's Output: read before the
// item's requests, so that a bad value is refused before anything is sent.
function readOutputFields(context: IExecuteFunctions, itemIndex: number, kind: SimplifiedKind) {
	if (!runsAsTool(context))
		return readFlag(context, itemIndex, 'simple', 'Simplify')
			? outputFields(kind, 'simplified')
			: undefined;
	const [, output, fields] = outputProperties(kind, {}, false);
	const choice = readChoice<OutputChoice>(context, itemIndex, output);
	if (choice !== 'selected') return outputFields(kind, choice);
	const selected = checkedValue(
		context,
		itemIndex,
		fields,
		parameter(context, fields.name, itemIndex, []),
	) as string[];
	return outputFields(kind, choice, selected);
}

interface LoopResult {
	outputs: Array<INodeExecutionData[] | undefined>;
	failed: Map<number, unknown>;
	// Charged and in the output: recorded for Skip Records Bought Before.
	boughtItems: number[];
}

// A run that has bought records never throws them away (docs/money.md, rule 6): after a failure no
// further item starts. Read ahead, every request is made: each item is only handed its part.
export async function itemLoop(
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
			if (module.outputs) fields = readOutputFields(context, itemIndex, module.outputs);
			const records = ahead
				? ahead.outcome(itemIndex)
				: await module.execute.call(context, itemIndex, money, 'charge');
			result.outputs[itemIndex] = outputOf(records);
			if (boughtIn(records)) result.boughtItems.push(itemIndex);
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
