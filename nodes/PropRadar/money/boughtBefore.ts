import type {
	DeduplicationScope,
	ICheckProcessedOptions,
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

// Skip Records Bought Before keeps bought keys in n8n's de-duplication store (docs/money.md). It has no
// read that does not record, so the check records what it is asked and at once removes what was new.

/** How many keys n8n keeps per node (or workflow); older ones are forgotten and bought again. */
export const BOUGHT_HISTORY = 10_000;
const CHECK: ICheckProcessedOptions = { mode: 'entries' };
const RECORD: ICheckProcessedOptions = { mode: 'entries', maxEntries: BOUGHT_HISTORY };

export function boughtBeforeProperties(
	show: Record<string, string[]>,
	key: 'PropID' | 'PersonKey',
	what: string,
): INodeProperties[] {
	const purchasing = { ...show, chargeMode: ['purchase'] };
	return [
		{
			displayName: 'Skip Records Bought Before',
			name: 'skipBoughtBefore',
			type: 'boolean',
			noDataExpression: true,
			displayOptions: { show: purchasing },
			default: false,
			description: `Whether to leave out the items whose ${what} this workflow bought in an earlier execution: nothing is sent or charged for them, and a note above the output names them. n8n keeps the ${key} of each purchase (the store its Remove Duplicates node uses) once it is charged and in the output, the last ${BOUGHT_HISTORY.toLocaleString('en-US')}.`,
		},
		{
			displayName: 'Bought Before By',
			name: 'boughtBeforeScope',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { ...purchasing, skipBoughtBefore: [true] } },
			options: [
				{
					name: 'Any Node of This Workflow',
					value: 'workflow',
					description:
						'Skip what any PropRadar node of this workflow with the same operation and this option bought',
				},
				{
					name: 'This Node',
					value: 'node',
					description: 'Skip what this node bought in earlier executions',
				},
			],
			default: 'node',
		},
	];
}

export interface BoughtBefore {
	scope: DeduplicationScope;
	/** The operation a key is stored under, so that one store serves a workflow's operations. */
	operation: string;
}

/** The run's Skip Records Bought Before, when it is on and the run purchases (its parameters take no expression). */
export function readBoughtBefore(
	context: IExecuteFunctions,
	operation: string,
): BoughtBefore | undefined {
	if (context.getNodeParameter('chargeMode', 0, 'preview') !== 'purchase') return undefined;
	if (context.getNodeParameter('skipBoughtBefore', 0, false) !== true) return undefined;
	const scope = context.getNodeParameter('boughtBeforeScope', 0, 'node');
	if (scope !== 'node' && scope !== 'workflow')
		throw new NodeOperationError(
			context.getNode(),
			`Bought Before By: "${String(scope)}" is not allowed; use "node" or "workflow"`,
			{ description: 'Nothing was sent and nothing was charged.' },
		);
	if (typeof context.helpers.checkProcessedAndRecord !== 'function')
		throw new NodeOperationError(
			context.getNode(),
			"Skip Records Bought Before needs n8n's de-duplication store, which is not available here",
			{
				description:
					'Nothing was sent and nothing was charged. Switch Skip Records Bought Before off, or run the workflow in n8n itself (the store is where n8n keeps its Remove Duplicates node’s values).',
			},
		);
	return { scope, operation };
}

const stored = (ledger: BoughtBefore, key: string) => `${ledger.operation}:${key}`;

/** The keys among `keys` bought in earlier executions; it leaves the store as it was. */
export async function findBoughtBefore(
	context: IExecuteFunctions,
	ledger: BoughtBefore,
	keys: string[],
): Promise<Set<string>> {
	const values = [...new Set(keys)].map((key) => stored(ledger, key));
	if (values.length === 0) return new Set();
	const found = await context.helpers.checkProcessedAndRecord(values, ledger.scope, CHECK);
	if (found.new.length > 0) await context.helpers.removeProcessed(found.new, ledger.scope, CHECK);
	const processed = new Set(found.processed.map(String));
	return new Set(keys.filter((key) => processed.has(stored(ledger, key))));
}

// Never throws: the records are bought and go to the output whatever happens here.
export async function recordBought(
	context: IExecuteFunctions,
	ledger: BoughtBefore,
	keys: string[],
): Promise<void> {
	const values = [...new Set(keys)].map((key) => stored(ledger, key));
	if (values.length === 0) return;
	try {
		const kept = await context.helpers.getProcessedDataCount(ledger.scope, RECORD);
		const forgotten = kept + values.length - BOUGHT_HISTORY;
		if (forgotten > 0)
			context.addExecutionHints({
				message: `n8n keeps the last ${BOUGHT_HISTORY.toLocaleString('en-US')} purchases for Skip Records Bought Before: recording this run's ${values.length} forgets the oldest ${Math.min(forgotten, kept)}, which a later execution buys again if they come back.`,
				type: 'warning',
				location: 'outputPane',
			});
		await context.helpers.checkProcessedAndRecord(values, ledger.scope, RECORD);
	} catch (error) {
		context.addExecutionHints({
			message: `What this run bought (${keys.join(', ')}) is in the output, but n8n's de-duplication store could not record it (${(error as Error).message}), so a later execution buys it again.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
}

/** Whether an item's records include one bought (charged or paid by credits) by this run. */
export function boughtIn(records: IDataObject[]): boolean {
	return records.some(
		(record) =>
			record._charge !== undefined && record.preview !== true && record.purchased !== false,
	);
}

export function skippedHint(
	context: IExecuteFunctions,
	ledger: BoughtBefore,
	key: 'PropID' | 'PersonKey',
	skipped: string[],
	itemCount: number,
): void {
	if (skipped.length === 0) return;
	context.addExecutionHints({
		message: `${skipped.length} of the ${itemCount} items left out, nothing sent or charged for them: bought in an earlier execution by ${ledger.scope === 'node' ? 'this node' : 'this workflow'} (Skip Records Bought Before), ${key} ${skipped.join(', ')}.`,
		type: 'info',
		location: 'outputPane',
	});
}

/** The run's Skip Records Bought Before: its store, and the items it leaves out. */
export interface Skipping {
	ledger: BoughtBefore;
	keys: Map<number, string>;
	skipped: Map<number, string>;
}

// Asked once for the whole run, before anything is quoted. `keys` by item index: an item whose key
// cannot be read has none, and fails in its own run, as without the option.
export async function skipBoughtBefore(
	context: IExecuteFunctions,
	ledger: BoughtBefore,
	keyName: 'PropID' | 'PersonKey',
	keys: Map<number, string>,
	itemCount: number,
): Promise<Skipping> {
	const before = await findBoughtBefore(context, ledger, [...keys.values()]);
	const skipped = new Map([...keys].filter(([, value]) => before.has(value)));
	skippedHint(context, ledger, keyName, [...skipped.values()], itemCount);
	return { ledger, keys, skipped };
}
