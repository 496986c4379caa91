import type { IDataObject, NodeApiError, NodeOperationError } from 'n8n-workflow';

import { mayHaveCharged, type ApiRequest } from '../transport';
import { readBoughtBefore, recordBought, skipBoughtBefore } from './boughtBefore';
import type { BoughtBefore, Skipping } from './boughtBefore';
import { RunSpending } from './budget';
import { StoppedAfterBuying } from './pages';
import { assertRunFits, buy, checkPurchases, warn, type Bought } from './purchase';
import { cents, formatCents, money, type PriceKind, type Quote } from './quote';

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

/**
 * The money of one node run (docs/money.md): its budget, and the service the router and the
 * operations call. An operation asks for a quote (`quoteItem`), then buys (`buy`), or hands over
 * a paged, batched or by-ID purchase whole; money never calls back into an operation.
 */
export class RunMoney extends RunSpending {
	get nothingCharged(): boolean {
		return this.spentCents === 0;
	}

	/** What the run has spent, as its messages say it. */
	private get spentSoFar(): string {
		return this.unconfirmedCents > 0
			? `charged or may have been charged ${money(this.spentCents)}`
			: `charged ${money(this.spentCents)}`;
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
		const { bought } = this;
		if (bought === 0) return error;
		const stopped = `The import stopped after ${bought} records were imported (${this.spentSoFar}).`;
		return carryOutput(error, stopped, output);
	}

	/** Skip Records Bought Before, when it is on and the run purchases. */
	boughtBefore(operation: string): BoughtBefore | undefined {
		return readBoughtBefore(this.context, operation);
	}

	/** The items Skip Records Bought Before leaves out, from every item's key. */
	async skipBoughtBefore(
		ledger: BoughtBefore,
		keyName: 'PropID' | 'PersonKey',
		keys: Map<number, string>,
		itemCount: number,
	): Promise<Skipping> {
		return skipBoughtBefore(this.context, ledger, keyName, keys, itemCount);
	}

	/** Records, for Skip Records Bought Before, the items whose purchase reached the output. */
	async recordBought(skip: Skipping, itemIndexes: number[]): Promise<void> {
		const keys = itemIndexes.flatMap((itemIndex) => skip.keys.get(itemIndex) ?? []);
		await recordBought(this.context, skip.ledger, keys);
	}

	/** A purchase of several items: every item's checks, before the whole run is quoted. */
	async checkPurchases(itemIndexes: readonly number[]): Promise<void> {
		await checkPurchases(this.context, this, itemIndexes);
	}

	/** The whole run's previews against Max Cost and the ceiling (docs/money.md, rule 2). */
	async assertRunFits(itemCount: number, previews: IDataObject[]): Promise<void> {
		const needCents = previews.reduce(
			(sum, record) => (record.preview === true ? sum + cents(record.maxCostNeeded) : sum),
			0,
		);
		await assertRunFits(this.context, this, itemCount, needCents);
	}

	/** A failed item's `_charge` in a purchase run: "0.00", or "unknown" when its purchase failed after it was sent. */
	failureCharge(error: unknown): IDataObject {
		const unknown = mayHaveCharged(error);
		return {
			totalCost: unknown ? 'unknown' : '0.00',
			resultCount: 0,
			runTotalCost: formatCents(this.spentCents),
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
		const { bought } = this;
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
		const full = this.atFullPriceCents;
		if (chargeMode !== 'purchase' || this.bought === 0 || full <= this.spentCents) return;
		this.hint(
			(this.spentCents === 0
				? `Free export credits paid for all of this run: nothing was charged. `
				: `Free export credits paid for part of this run: it was charged ${money(this.spentCents)}. `) +
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
		const { spentCents: spent, unconfirmedCents: unknown, bought } = this;
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
