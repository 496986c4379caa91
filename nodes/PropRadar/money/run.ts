import type {
	IDataObject,
	IExecuteFunctions,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { mayHaveCharged } from '../transport';
import { boughtIn, recordBought, skipBoughtBefore, type Skipping } from './boughtBefore';
import { RunSpending } from './budget';
import { cents, formatCents, money } from './cents';
import { StoppedAfterBuying } from './pages';
import { assertWholeRunFits } from './refusal';

/** What a run has spent, as its messages say it. */
export function spentSoFar(spending: RunSpending): string {
	return spending.unconfirmedCents > 0
		? `charged or may have been charged ${money(spending.spentCents)}`
		: `charged ${money(spending.spentCents)}`;
}

/** A run that fails after buying carries its output in its error, since n8n keeps no output of a node that fails. */
export function carryOutput<E extends NodeApiError | NodeOperationError>(
	nodeError: E,
	stopped: string,
	output: IDataObject[],
): E {
	nodeError.description = (
		`${nodeError.description ?? ''} ${stopped} The ${output.length} output items of the run, ` +
		"every record bought among them, are in this error's data (Error data, under Details; " +
		'saved with the execution, in Executions), since n8n keeps no output of a node that fails. ' +
		"To get them as items instead, set this node's On Error setting to " +
		'"Continue (using error output)".'
	).trim();
	nodeError.context.data = output;
	return nodeError;
}

/**
 * The `_charge` of an item that failed in a purchase run, under `details` on the Error output:
 * what this node did with the money for it, "0.00" unless its purchase failed after it was sent
 * ("unknown"). `runTotalCost` is the run's total so far, as on a bought record.
 */
function failureCharge(spending: RunSpending, error: unknown): IDataObject {
	const unknown = mayHaveCharged(error);
	return {
		totalCost: unknown ? 'unknown' : '0.00',
		resultCount: 0,
		runTotalCost: formatCents(spending.spentCents),
		...(unknown
			? {
					notice:
						"This item's purchase failed after it was sent, so it may have been charged. " +
						"Check the account's charges in PropRadar before buying it again.",
				}
			: {}),
	};
}

/** What happened to the money in a tool call, for the model: only what the run's budget knows. */
function chargeStatement(spending: RunSpending): string {
	const { spentCents: spent, unconfirmedCents: unknown, bought } = spending;
	const records =
		`the ${bought} record${bought === 1 ? '' : 's'} it bought, which ` +
		`${bought === 1 ? 'is' : 'are'} in this result`;
	if (unknown > 0) {
		const confirmed = spent - unknown;
		return (
			`This call may have been charged up to ${money(spent)}: ` +
			`${bought > 0 ? `${money(confirmed)} for ${records}, and ` : ''}up to ` +
			`${money(unknown)} for a purchase whose answer was lost or failed, which may ` +
			`or may not have been charged. Check the account's charges in PropRadar ` +
			`before buying that again.`
		);
	}
	if (spent > 0)
		return (
			`This call was charged ${money(spent)} for ${records} (each record's _charge says ` +
			`what its purchase cost).`
		);
	if (bought > 0)
		return `Nothing was charged in this call: free export credits paid for ${records}.`;
	return 'Nothing was charged in this call.';
}

/** `counted`: what each preview is, a quote of its own or an item of a quote of many. */
function previewRunTotal(
	context: IExecuteFunctions,
	records: IDataObject[],
	counted: 'quotes' | 'items' = 'quotes',
): void {
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
	context.addExecutionHints({
		message:
			`Run total of this preview: ${previews.length} ${counted}, ${charged} charged ` +
			`record${charged === 1 ? '' : 's'}${each}. A purchase of the same items needs Max ` +
			`Cost of at least ${money(needCents)}.${credits}`,
		type: 'info',
		location: 'outputPane',
	});
}

function purchaseWithoutCredits(context: IExecuteFunctions, spending: RunSpending): void {
	const full = spending.atFullPriceCents;
	if (spending.bought === 0 || full <= spending.spentCents) return;
	context.addExecutionHints({
		message:
			(spending.spentCents === 0
				? `Free export credits paid for all of this run: nothing was charged. `
				: `Free export credits paid for part of this run: it was charged ` +
					`${money(spending.spentCents)}. `) +
			`Without them the same run costs ${money(full)} at full price, the Max Cost it ` +
			`needs once the credits are used up.`,
		type: 'info',
		location: 'outputPane',
	});
}

/**
 * What the router asks of money for one node run, and all it asks (docs/money.md): the items
 * Skip Records Bought Before leaves out, the whole run's quote before a purchase of several items,
 * what a failed item's charge was, what the run keeps when it stops after buying, and the hints
 * and statement once it is over. The items' own purchases go through `spending`, which the router
 * hands to each operation.
 */
export class RunMoney {
	readonly spending: RunSpending;

	constructor(private readonly context: IExecuteFunctions) {
		this.spending = new RunSpending(context);
	}

	/** Skip Records Bought Before, when it is on and the run purchases: the items it leaves out. */
	async skipBoughtBefore(
		key: { name: 'PropID' | 'PersonKey'; read: (itemIndex: number) => string },
		operation: string,
		itemCount: number,
	): Promise<Skipping | undefined> {
		return skipBoughtBefore(this.context, key, operation, itemCount);
	}

	/** Records, for Skip Records Bought Before, the items whose purchase reached the output. */
	async recordBought(skip: Skipping, itemIndexes: number[]): Promise<void> {
		const keys = itemIndexes.flatMap((itemIndex) => skip.keys.get(itemIndex) ?? []);
		await recordBought(this.context, skip.ledger, keys);
	}

	/** Whether an item's records include one this run bought. */
	boughtIn(records: IDataObject[]): boolean {
		return boughtIn(records);
	}

	/**
	 * A purchase of several items quoted whole before anything is bought (docs/money.md, rule 2):
	 * `quoteItems` runs every item in the quote pass and gives their records; a run that does not
	 * fit Max Cost or the ceiling is refused with nothing bought.
	 */
	async assertWholeRunFits(
		itemIndexes: readonly number[],
		quoteItems: () => Promise<IDataObject[]>,
	): Promise<void> {
		await assertWholeRunFits(this.context, this.spending, itemIndexes, async () =>
			(await quoteItems()).reduce(
				(needCents, record) =>
					record.preview === true ? needCents + cents(record.maxCostNeeded) : needCents,
				0,
			),
		);
	}

	get nothingCharged(): boolean {
		return this.spending.spentCents === 0;
	}

	/** The `_charge` of an item that failed in a purchase run (`failureCharge`). */
	failureCharge(error: unknown): IDataObject {
		return failureCharge(this.spending, error);
	}

	/** What a failed item had bought before it failed (a paged purchase stopped part-way). */
	boughtBeforeFailing(error: unknown): IDataObject[] {
		return error instanceof StoppedAfterBuying ? error.bought : [];
	}

	/**
	 * The error a run throws when an item failed without "On Error: Continue": as it is when the
	 * run bought nothing, else carrying the run's output (docs/money.md, rule 6).
	 */
	stoppedRun<E extends NodeApiError | NodeOperationError>(
		nodeError: E,
		failedAt: number,
		how: { readAhead: boolean; concurrent: boolean },
		output: () => IDataObject[],
	): E {
		const { bought } = this.spending;
		if (bought === 0) return nodeError;
		const stopped = how.readAhead
			? `The item at index ${failedAt} failed; the run bought ${bought} records ` +
				`(${spentSoFar(this.spending)}) in requests of many items, all made before any item's ` +
				`output.`
			: `The run stopped at the item at index ${failedAt} after buying ${bought} ` +
				`records (${spentSoFar(this.spending)}); the items after it were not ` +
				`processed${how.concurrent ? ', except those already under way' : ''}.`;
		return carryOutput(nodeError, stopped, output());
	}

	/** The hints above a finished run's output: a preview's run total, or what free credits paid. */
	finished(chargeMode: string, output: IDataObject[], counted: 'quotes' | 'items'): void {
		if (chargeMode === 'preview') previewRunTotal(this.context, output, counted);
		if (chargeMode === 'purchase') purchaseWithoutCredits(this.context, this.spending);
	}

	/** What happened to the money in a tool call, said once the run is over. */
	statement(): string {
		return chargeStatement(this.spending);
	}
}
