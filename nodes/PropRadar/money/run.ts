import { NodeOperationError } from 'n8n-workflow';
import type {
	DeduplicationScope,
	ICheckProcessedOptions,
	IDataObject,
	NodeApiError,
} from 'n8n-workflow';

import { mayHaveCharged, type ApiRequest } from '../transport';
import { RunSpending } from './budget';
import { BOUGHT_HISTORY } from './properties';
import { StoppedAfterBuying } from './pages';
import { buy, warn, type Bought } from './purchase';
import { cents, formatCents, money, type PriceKind, type Quote } from './quote';

// Skip Records Bought Before keeps bought keys in n8n's de-duplication store (docs/money.md). It has no
// read that does not record, so the check records what it is asked and at once removes what was new.
const CHECK: ICheckProcessedOptions = { mode: 'entries' };
const RECORD: ICheckProcessedOptions = { mode: 'entries', maxEntries: BOUGHT_HISTORY };
const stored = (ledger: BoughtBefore, key: string) => `${ledger.operation}:${key}`;

export interface BoughtBefore {
	scope: DeduplicationScope;
	/** The operation a key is stored under, so that one store serves a workflow's operations. */
	operation: string;
}

/** The run's Skip Records Bought Before: its store, and the items it leaves out. */
export interface Skipping {
	ledger: BoughtBefore;
	keys: Map<number, string>;
	skipped: Map<number, string>;
}

/** A run that fails after buying carries its output in its error: n8n keeps no output of a node that fails. */
function carryOutput<E extends NodeApiError | NodeOperationError>(
	nodeError: E,
	stopped: string,
	output: IDataObject[],
): E {
	nodeError.description =
		`${nodeError.description ?? ''} ${stopped} The ${output.length} output items of the run, every record bought among them, are in this error's data (Error data, under Details; saved with the execution, in Executions), since n8n keeps no output of a node that fails. To get them as items instead, set this node's On Error setting to "Continue (using error output)".`.trim();
	nodeError.context.data = output;
	return nodeError;
}

// The money of one node run (docs/money.md): its budget, and the service the router and the operations
// call (a quote, then `buy`, or a paged, batched or by-ID purchase handed over whole).
export class RunMoney extends RunSpending {
	get nothingCharged(): boolean {
		return this.counted.spent === 0;
	}

	private get spentSoFar(): string {
		const { spent, unconfirmedCents } = this.counted;
		return unconfirmedCents > 0
			? `charged or may have been charged ${money(spent)}`
			: `charged ${money(spent)}`;
	}

	/** One `Purchase=1` request for what `quote` counted, held at full price. */
	async buy(
		itemIndex: number,
		kind: PriceKind,
		request: ApiRequest,
		quote: Quote,
	): Promise<Bought> {
		const budget = await this.budget();
		const bought = await buy(this.context, budget, kind, quote, request, itemIndex);
		if (bought.note.notice) warn(this.context, bought.note.notice);
		return bought;
	}

	/** An import that stopped after importing records carries the output in its error. */
	stoppedImport<E extends NodeApiError | NodeOperationError>(error: E, output: IDataObject[]): E {
		const { bought } = this.counted;
		if (bought === 0) return error;
		const stopped = `The import stopped after ${bought} records were imported (${this.spentSoFar}).`;
		return carryOutput(error, stopped, output);
	}

	/** The run's Skip Records Bought Before, when it is on and the run purchases (its parameters take no expression). */
	boughtBefore(operation: string): BoughtBefore | undefined {
		const { context } = this;
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

	// Asked once for the whole run, before anything is quoted; it leaves the store as it was. `keys` by
	// item index: an item whose key cannot be read has none, and fails in its own run, as without the option.
	async skipBoughtBefore(
		ledger: BoughtBefore,
		keyName: 'PropID' | 'PersonKey',
		keys: Map<number, string>,
		itemCount: number,
	): Promise<Skipping> {
		const { helpers } = this.context;
		const values = [...new Set(keys.values())].map((key) => stored(ledger, key));
		let processed = new Set<string>();
		if (values.length > 0) {
			const found = await helpers.checkProcessedAndRecord(values, ledger.scope, CHECK);
			if (found.new.length > 0) await helpers.removeProcessed(found.new, ledger.scope, CHECK);
			processed = new Set(found.processed.map(String));
		}
		const skipped = new Map([...keys].filter(([, key]) => processed.has(stored(ledger, key))));
		if (skipped.size > 0)
			this.hint(
				`${skipped.size} of the ${itemCount} items left out, nothing sent or charged for them: bought in an earlier execution by ${ledger.scope === 'node' ? 'this node' : 'this workflow'} (Skip Records Bought Before), ${keyName} ${[...skipped.values()].join(', ')}.`,
			);
		return { ledger, keys, skipped };
	}

	/** Records the items whose purchase reached the output; never throws, the records are bought whatever happens here. */
	async recordBought(skip: Skipping, itemIndexes: number[]): Promise<void> {
		const { ledger } = skip;
		const keys = itemIndexes.flatMap((itemIndex) => skip.keys.get(itemIndex) ?? []);
		const values = [...new Set(keys)].map((key) => stored(ledger, key));
		if (values.length === 0) return;
		const { helpers } = this.context;
		try {
			const kept = await helpers.getProcessedDataCount(ledger.scope, RECORD);
			const forgotten = kept + values.length - BOUGHT_HISTORY;
			if (forgotten > 0)
				warn(
					this.context,
					`n8n keeps the last ${BOUGHT_HISTORY.toLocaleString('en-US')} purchases for Skip Records Bought Before: recording this run's ${values.length} forgets the oldest ${Math.min(forgotten, kept)}, which a later execution buys again if they come back.`,
				);
			await helpers.checkProcessedAndRecord(values, ledger.scope, RECORD);
		} catch (error) {
			warn(
				this.context,
				`What this run bought (${keys.join(', ')}) is in the output, but n8n's de-duplication store could not record it (${(error as Error).message}), so a later execution buys it again.`,
			);
		}
	}

	/** The whole run's previews against Max Cost and the ceiling (docs/money.md, rule 2). */
	async assertRunFits(itemCount: number, previews: IDataObject[]): Promise<void> {
		const needCents = previews.reduce(
			(sum, record) => (record.preview === true ? sum + cents(record.maxCostNeeded) : sum),
			0,
		);
		await this.assertFits(itemCount, needCents);
	}

	/** A failed item's `_charge` in a purchase run: "0.00", or "unknown" when its purchase failed after it was sent. */
	failureCharge(error: unknown): IDataObject {
		const unknown = mayHaveCharged(error);
		return {
			totalCost: unknown ? 'unknown' : '0.00',
			resultCount: 0,
			runTotalCost: formatCents(this.counted.spent),
			...(unknown
				? {
						notice:
							"This item's purchase failed after it was sent, so it may have been charged. Check the account's charges in PropRadar before buying it again.",
					}
				: {}),
		};
	}

	/** What a failed item had bought before it failed (a paged purchase stopped part-way). */
	boughtBeforeFailing(error: unknown): IDataObject[] {
		return error instanceof StoppedAfterBuying ? error.bought : [];
	}

	/** An item failed without "On Error: Continue": a run that bought carries its output (docs/money.md, rule 6). */
	stoppedRun<E extends NodeApiError | NodeOperationError>(
		nodeError: E,
		failedAt: number,
		how: { readAhead: boolean; concurrent: boolean },
		output: () => IDataObject[],
	): E {
		const { bought } = this.counted;
		if (bought === 0) return nodeError;
		const spent = this.spentSoFar;
		const stopped = how.readAhead
			? `The item at index ${failedAt} failed; the run bought ${bought} records (${spent}) in requests of many items, all made before any item's output.`
			: `The run stopped at the item at index ${failedAt} after buying ${bought} records (${spent}); the items after it were not processed${how.concurrent ? ', except those already under way' : ''}.`;
		return carryOutput(nodeError, stopped, output());
	}

	private hint(message: string): void {
		this.context.addExecutionHints({ message, type: 'info', location: 'outputPane' });
	}

	/** The hints above a finished run's output: a preview's run total, or what free credits paid. */
	finished(chargeMode: string, output: IDataObject[], counted: 'quotes' | 'items'): void {
		if (chargeMode === 'preview') this.previewRunTotal(output, counted);
		const { atFullPriceCents: full, bought, spent } = this.counted;
		if (chargeMode !== 'purchase' || bought === 0 || full <= spent) return;
		this.hint(
			(spent === 0
				? `Free export credits paid for all of this run: nothing was charged. `
				: `Free export credits paid for part of this run: it was charged ${money(spent)}. `) +
				`Without them the same run costs ${money(full)} at full price, the Max Cost it ` +
				`needs once the credits are used up.`,
		);
	}

	/** `counted`: what each preview is, a quote of its own or an item of a quote of many. */
	private previewRunTotal(records: IDataObject[], counted: 'quotes' | 'items'): void {
		const previews = records.filter(
			(record) => record.preview === true && record.maxCostNeeded !== undefined,
		);
		if (previews.length < 2) return;
		let needCents = 0;
		let charged = 0;
		const prices = new Set<number>();
		let freeLeft: number | undefined;
		for (const preview of previews) {
			const price = cents(preview.pricePerRecord);
			needCents += cents(preview.maxCostNeeded);
			if (price > 0) charged += Math.round(cents(preview.maxCostNeeded) / price);
			prices.add(price);
			if (typeof preview.quantityFreeRemaining === 'number')
				freeLeft = Math.min(freeLeft ?? Infinity, preview.quantityFreeRemaining);
		}
		const [price] = prices;
		const each = prices.size === 1 ? ` at ${money(price)} each` : '';
		let credits = '';
		if (freeLeft !== undefined && freeLeft > 0 && prices.size === 1) {
			const free = Math.min(freeLeft, charged);
			credits =
				` Free export credits (${freeLeft} left) would pay for ` +
				(free === charged
					? `all ${charged} of them today, so nothing would be charged`
					: `${free} of them today, so the charge would be about ${money((charged - free) * price)}`) +
				`; Max Cost still needs the full ${money(needCents)}, in case the credits run out first.`;
		}
		this.hint(
			`Run total of this preview: ${previews.length} ${counted}, ${charged} charged record${charged === 1 ? '' : 's'}${each}. A purchase of the same items needs Max Cost of at least ${money(needCents)}.${credits}`,
		);
	}

	/** What happened to the money in a tool call, for the model: only what the run's budget knows. */
	statement(): string {
		const { spent, unconfirmedCents: unknown, bought } = this.counted;
		const records = `the ${bought} record${bought === 1 ? '' : 's'} it bought, which ${bought === 1 ? 'is' : 'are'} in this result`;
		if (unknown > 0) {
			const confirmed = spent - unknown;
			return `This call may have been charged up to ${money(spent)}: ${bought > 0 ? `${money(confirmed)} for ${records}, and ` : ''}up to ${money(unknown)} for a purchase whose answer was lost or failed, which may or may not have been charged. Check the account's charges in PropRadar before buying that again.`;
		}
		if (spent > 0)
			return `This call was charged ${money(spent)} for ${records} (each record's _charge says what its purchase cost).`;
		if (bought > 0)
			return `Nothing was charged in this call: free export credits paid for ${records}.`;
		return 'Nothing was charged in this call.';
	}
}
