import type {
	IDataObject,
	IExecuteFunctions,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import { mayHaveCharged } from '../transport';
import type { RunSpending } from './budget';
import { cents, formatCents, money } from './cents';

// What a run says about its money once items are done: a failed item's charge, a stopped run's
// error, the hints above the output and the tool's statement.

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

/** A failed item's `_charge` in a purchase run: "0.00", or "unknown" when its purchase failed after it was sent. */
export function failureCharge(spending: RunSpending, error: unknown): IDataObject {
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
export function chargeStatement(spending: RunSpending): string {
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

function hint(context: IExecuteFunctions, message: string): void {
	context.addExecutionHints({ message, type: 'info', location: 'outputPane' });
}

/** `counted`: what each preview is, a quote of its own or an item of a quote of many. */
export function previewRunTotal(
	context: IExecuteFunctions,
	records: IDataObject[],
	counted: 'quotes' | 'items',
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
	hint(
		context,
		`Run total of this preview: ${previews.length} ${counted}, ${charged} charged ` +
			`record${charged === 1 ? '' : 's'}${each}. A purchase of the same items needs Max ` +
			`Cost of at least ${money(needCents)}.${credits}`,
	);
}

export function purchaseWithoutCredits(context: IExecuteFunctions, spending: RunSpending): void {
	const full = spending.atFullPriceCents;
	if (spending.bought === 0 || full <= spending.spentCents) return;
	hint(
		context,
		(spending.spentCents === 0
			? `Free export credits paid for all of this run: nothing was charged. `
			: `Free export credits paid for part of this run: it was charged ` +
				`${money(spending.spentCents)}. `) +
			`Without them the same run costs ${money(full)} at full price, the Max Cost it ` +
			`needs once the credits are used up.`,
	);
}
